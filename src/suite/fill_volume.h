// Fill levels (issue 18 item 7, seed 003's 0/33/66 %): fills the volume a workload runs on
// with nasperf's own files to a percentage before the workload, measured by statfs
// (AppFileSystem::Space), and removes them afterwards. The files live in the
// AppFileSystem's own workspace (unique per run, O_EXCL), under "fill/", written in big
// sequential requests of seeded non-zero bytes; so a Ctrl-C, an error or the end of the
// run removes them with the workspace (its destructor), and VolumeFiller's own destructor
// removes them sooner, before the results are printed.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/app_fs.h"
#include "nasperf/status.h"

namespace nasperf {

// The fullest a fill may leave the volume: a volume with less than 5 % free no longer
// behaves like one in use (allocators degrade, reserved blocks), and the workload needs room.
inline constexpr double kMaxFillPct = 95.0;

// "33" or "33%" (0 <= PCT < 95): BadInput naming `what` and the text otherwise.
Result<double> ParseFillPercent(const std::string& text, const std::string& what = "--fill");
// "0,33,66" (each as ParseFillPercent), in the order given; BadInput on an empty list.
Result<std::vector<double>> ParseFillLevels(const std::string& text, const std::string& what = "--fill");

// How full a volume is, in percent: (total - free) / total, where free is what an
// unprivileged writer may use (reserved blocks count as used, as `df` shows them).
double FillPercentOf(const AppSpace& space);

// Bytes to write to bring `space` to `target_pct`, 0 when it is there already; BadInput
// when the level is >= 95 %, or when the fill plus `reserve_bytes` (the workload's own
// data) would leave less than 5 % of the volume free. `target` names it in messages.
Result<uint64_t> FillBytesNeeded(const AppSpace& space, double target_pct, uint64_t reserve_bytes,
                                 const std::string& target);

struct FillOutcome {
  double requested_pct = 0;
  double before_pct = 0;    // measured before writing
  double achieved_pct = 0;  // measured after the last file was synced
  uint64_t written_bytes = 0;
  uint32_t files = 0;
};

class VolumeFiller {
 public:
  // Each fill file is at most `file_bytes`, written in `request_bytes` requests.
  explicit VolumeFiller(AppFileSystem& fs, uint64_t seed, uint64_t file_bytes = 1ull << 30,
                        size_t request_bytes = 4u << 20);
  VolumeFiller(const VolumeFiller&) = delete;
  VolumeFiller& operator=(const VolumeFiller&) = delete;
  ~VolumeFiller();  // Remove()

  // Checks with FillBytesNeeded (nothing written on BadInput), then writes and syncs fill
  // files until statfs says the volume is at `target_pct` (within one request). Stops with
  // Interrupted on Ctrl-C (the files written so far stay until Remove). A level already
  // reached writes nothing.
  Result<FillOutcome> Fill(double target_pct, uint64_t reserve_bytes);
  // Removes every fill file and the folder; idempotent.
  Status Remove();

 private:
  Status WriteFile(const std::string& rel, uint64_t bytes);

  AppFileSystem& fs_;
  uint64_t seed_;
  uint64_t file_bytes_;
  std::vector<uint8_t> buffer_;
  std::vector<std::string> files_;
  bool made_dir_ = false;
};

// "volume filled to 33.1 % (asked 33 %; statfs, before the workload's own files)".
std::string FillNote(const FillOutcome& outcome);
// The tag value quick runs carry: "33%".
std::string FillTag(double requested_pct);

}  // namespace nasperf
