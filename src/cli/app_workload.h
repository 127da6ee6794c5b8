// What the photo-album and office commands share around their workload: TARGET opened as
// an AppFileSystem, --fill and --seed parsed, the room checked before anything is
// written, the volume filled, the dataset staged (untimed), the timed phase run and
// stored as one run with RunResult.app, the fill files and workspace removed (also on
// Ctrl-C: the interrupt flag stops each phase and the unwind removes them), then printed.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <vector>
#include <memory>
#include <optional>
#include <string>

#include "cli/job_options.h"
#include "cli/run_recorder.h"
#include "cluster/comm.h"
#include "cli/protocol_options.h"
#include "core/app_fs.h"
#include "nasperf/app_result.h"
#include "suite/app/app_run.h"
#include "suite/fill_volume.h"

namespace nasperf {

struct AppWorkloadOptions {
  CommonOptions common;
  ProtocolOptions protocol;
  std::string target = ".";
  std::string fill;  // "33" or "33%"; empty: no fill
  std::string seed;  // empty: a fresh one
  Comm* ranks = nullptr;  // under mpirun: this process's rank (rank 0 prints and stores the merge)
};

// TARGET, --fill, --seed, the common and protocol options.
void AddAppWorkloadOptions(CLI::App& cmd, AppWorkloadOptions& options);
// --seed as a number (BadInput naming it), or a fresh seed when it was not given.
Result<uint64_t> AppSeed(const std::string& text);

struct AppWorkload {
  std::string name;            // "photo-album"
  uint64_t dataset_bytes = 0;  // what staging writes (and what a fill must leave room for)
  AppDataset dataset;
  std::function<Status(AppFileSystem&)> stage;               // untimed
  // Fills the figures and the operations' histograms; adds to `notes` what the reader must
  // know about how it ran.
  std::function<Status(AppFileSystem&, AppFigures*, std::vector<std::string>* notes, OpHistograms*)> timed;
};

// --fill on the commands that run their workloads themselves (file-copy, dir-copy, video,
// backup, restore): the volume of one storage end filled before the first run, the fill
// files removed when this goes (the workspace's own removal covers an error or Ctrl-C).
struct AppFillLevel {
  std::unique_ptr<VolumeFiller> filler;  // null: no --fill
  double requested_pct = 0;
  double achieved_pct = 0;
  std::string note;
  // The run's tag "fill", note and measured level; nothing without --fill.
  void Label(AppRunLabels& labels) const;
  void Label(RunResult& run) const;
};
// Nothing when `text` is empty. BadInput (nothing written) for a bad level, for no storage
// end (`fs` null: both ends null:), or when the fill and `reserve_bytes` would leave under 5 %.
Result<AppFillLevel> FillBeforeWorkload(AppFileSystem* fs, const std::string& text, uint64_t reserve_bytes,
                                        uint64_t seed);
// --fill PCT on a command.
void AddFillOption(CLI::App& cmd, std::string& fill);

// Under mpirun, what rank 0 calls with the own-file prefix of a rank that sent no result:
// removes that rank's workspaces in the local directories among `ends` (a share's are
// named, not reached; "" and null: are skipped), naming on stderr anything it leaves.
std::function<void(const std::string& prefix)> LostRankCleaner(const std::vector<std::string>& ends);

// Where a command's runs are stored: the one process's store, or under mpirun rank 0's
// (nullopt on the other ranks, which print and store nothing).
Result<std::optional<RunRecorder>> OpenRankRecorder(const CommonOptions& common, const std::string& command,
                                                    Comm* ranks);

// The whole command around `workload`; the process exit status. Under mpirun (options.ranks)
// every rank stages and runs its own copy of the workload in its own workspace, all start
// their clocks at one barrier, and rank 0 prints and stores the merged run
// (cluster/app_rank_runner.h); another rank prints only its own failure and exits 0.
int RunAppWorkload(const AppWorkloadOptions& options, const AppWorkload& workload);

}  // namespace nasperf
