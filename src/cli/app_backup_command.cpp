// `nasperf app backup|restore TARGET`: parse, check (ratio, source, space), pack the tree
// into one image on TARGET (restore: stage it untimed, then read it back and unpack), store
// the run and print it. The measuring is suite/app/backup.
#include <fmt/format.h>

#include <cmath>
#include <cstdio>
#include <memory>

#include "base/clock.h"
#include "base/signals.h"
#include "cli/app_video_command.h"
#include "cli/commands.h"
#include "cli/job_options.h"
#include "cli/protocol_options.h"
#include "cli/run_recorder.h"
#include "cluster/app_rank_runner.h"
#include "core/runner.h"
#include "model/inventory_json.h"
#include "model/run_json.h"
#include "cli/app_command.h"
#include "cli/app_workload.h"
#include "proto/open_app_fs.h"
#include "proto/url.h"
#include "suite/app/app_run.h"
#include "report/app_text.h"
#include "report/rank_table.h"
#include "report/table_report.h"
#include "suite/app/backup.h"
#include "sysinfo/inventory.h"
#include "target/local_app_fs.h"
#include "workload/run_seed.h"
#include "workload/tree_model.h"

namespace nasperf {
namespace {

struct AppBackupOptions {
  CommonOptions common;
  ProtocolOptions protocol;
  std::string target = ".";
  std::string preset;  // --preset NAME: a generated tree (default small-files without --source)
  double scale = 1;
  std::optional<uint64_t> seed;
  std::string source;   // --source DIR, read-only
  std::string scratch;  // restore: unpack into a workspace in this local directory; empty: null sink
  double image_ratio = 1;
  std::string fill;  // --fill PCT of TARGET's volume; empty: none
};

constexpr char kImageName[] = "backup.img";

Status CheckOptions(const AppBackupOptions& o) {
  if (!(o.image_ratio >= 1) || !std::isfinite(o.image_ratio))
    return Status::BadInput(fmt::format("--image-ratio {}: 1 (no compression) or more", o.image_ratio));
  if (!o.source.empty() && !o.preset.empty()) return Status::BadInput("--preset and --source: give one of them");
  if (o.seed && (*o.seed < 1 || *o.seed > kMaxSeed))
    return Status::BadInput(fmt::format("--seed {}: between 1 and {}", *o.seed, kMaxSeed));
  return Status::Ok();
}

Status CheckSpace(AppFileSystem& fs, uint64_t bytes, const std::string& what) {
  Result<AppSpace> space = fs.Space();
  if (!space.ok()) return space.status();
  if (bytes > space.value().free_bytes)
    return Status::BadInput(fmt::format("{}: {} needs {} MB, and only {} MB are free", fs.description(), what,
                                        (bytes + 999'999) / 1'000'000, space.value().free_bytes / 1'000'000));
  return Status::Ok();
}

RunResult BackupRun(const AppBackupOptions& o, bool restore, const std::string& target,
                    const std::map<std::string, std::string>& tags) {
  RunResult run;
  run.name = o.common.name;
  run.tags = tags;
  run.target = target;
  run.test = restore ? "restore" : "backup";
  run.engine = "app";
  run.job.rw = restore ? AccessPattern::kRead : AccessPattern::kWrite;
  run.job.bs = 1 << 20;
  run.job.qd = 2;
  run.qd_run = 2;
  run.job.threads = 2;
  run.job.engine = "app";
  return run;
}

void FillBackupRun(const AppBackupOptions& o, bool restore, const BackupFigures& f, const std::string& target,
                   RunResult& run) {
  AppFigures a;
  a.workload = restore ? "restore" : "backup";
  const std::string source = o.source.empty() ? "generated tree" : o.source;
  a.from = restore ? target : source;
  a.to = restore ? (o.scratch.empty() ? "null:" : o.scratch) : target;
  a.elapsed_s = f.elapsed_s;
  a.bytes = f.image_bytes;
  a.files = f.files;
  a.mb_per_s = f.elapsed_s > 0 ? static_cast<double>(f.image_bytes) / f.elapsed_s / 1e6 : 0;
  a.files_per_s = f.elapsed_s > 0 ? static_cast<double>(f.files) / f.elapsed_s : 0;
  a.source_mb_per_s = f.elapsed_s > 0 ? static_cast<double>(f.source_bytes) / f.elapsed_s / 1e6 : 0;
  a.threads = 2;
  a.cache_state = "unknown";
  // A backup's image is fsynced inside the clock (where the target can); a restore's
  // unpacked files (--scratch) are closed unflushed inside it; to null: nothing is written.
  if (!restore) a.write_flush = f.flushed ? kWriteFlushInClock : kWriteFlushNone;
  else if (!o.scratch.empty()) a.write_flush = WriteFlushOf(f.source_bytes, f.files, 0);
  run.app = a;
  if (!restore && !f.flush_unavailable.empty())
    run.notes.push_back("no flush: " + f.flush_unavailable + "; timed to the image's close");
  const DirectionResult d = SummariseDirection(f.image_bytes, f.chunks, f.elapsed_s, 0, nullptr);
  (restore ? run.read : run.write) = d;
  run.job.size = f.image_bytes;
  run.notes.push_back(fmt::format("{} files, {} directories, {} source bytes; image {} bytes (--image-ratio {})",
                                  f.files, f.dirs, f.source_bytes, f.image_bytes, o.image_ratio));
  run.notes.push_back(std::string(kNasBusyNotMeasured));
}

// Under mpirun (`ranks`) every rank packs (or stages and unpacks) its own tree in its own
// workspace, all start their clocks at one barrier, and rank 0 prints and stores the run
// merged from every rank's (cluster/app_rank_runner.h); another rank says only its own
// failure and exits 0.
int BackupCommand(const AppBackupOptions& o, bool restore, const std::string& command_line, Comm* ranks) {
  if (Status s = CheckOptions(o); !s.ok()) return ReportFailure(s);
  if (ranks && !o.fill.empty())
    return ReportFailure(Status::BadInput(
        "under mpirun: --fill is not supported (every rank would fill the one volume); fill it in one process"));
  Result<std::map<std::string, std::string>> tags = ParseTags(o.common.tags);
  if (!tags.ok()) return ReportFailure(tags.status());
  Result<TargetOptions> target_options = BuildTargetOptions(o.protocol, o.target);
  if (!target_options.ok()) return ReportFailure(target_options.status());
  CommonOptions common = o.common;
  common.command_line = command_line;
  Result<std::optional<RunRecorder>> opened = OpenRankRecorder(common, restore ? "app restore" : "app backup", ranks);
  if (!opened.ok()) return ReportFailure(opened.status());
  std::optional<RunRecorder>& recorder = opened.value();
  const bool stores = recorder.has_value();
  InstallInterruptHandler();
  // Every rank's image (and unpacked tree) needs room: the space checks count them all.
  const uint64_t clients = ranks ? static_cast<uint64_t>(ranks->size()) : 1;

  Result<std::unique_ptr<AppFileSystem>> fs = OpenAppFileSystem(o.target, target_options.value());
  if (!fs.ok()) return ReportFailure(fs.status());
  // The tree: a read-only directory, or generated from --preset (small-files by default).
  std::unique_ptr<AppFileSystem> source_fs;
  std::optional<TreePlan> tree;
  std::unique_ptr<BackupSource> source;
  uint64_t skipped = 0;
  if (!o.source.empty()) {
    Result<std::unique_ptr<AppFileSystem>> opened = OpenSourceTree(o.source);
    if (!opened.ok()) return ReportFailure(opened.status());
    source_fs = std::move(opened.value());
    Result<std::unique_ptr<BackupSource>> listed = SourceTreeOf(*source_fs, &skipped);
    if (!listed.ok()) return ReportFailure(listed.status());
    source = std::move(listed.value());
  } else {
    Result<TreeParams> params =
        TreePreset(o.preset.empty() ? "small-files" : o.preset, o.scale, o.seed ? *o.seed : NewRunSeed());
    if (!params.ok()) return ReportFailure(params.status());
    // A tree far too large for the target is refused before it is generated (the image is
    // within 1 % of the preset's bytes, over the ratio).
    if (Status s = CheckSpace(*fs.value(),
                              clients * static_cast<uint64_t>(0.99 * params.value().target_bytes / o.image_ratio),
                              "the image");
        !s.ok())
      return ReportFailure(s);
    Result<TreePlan> generated = GenerateTree(params.value());
    if (!generated.ok()) return ReportFailure(generated.status());
    tree = std::move(generated.value());
    source = GeneratedTreeOf(*tree);
  }
  BackupPlan plan;
  plan.image_ratio = o.image_ratio;
  if (Status s = CheckBackup(source->entries(), plan); !s.ok()) return ReportFailure(s);
  uint64_t source_bytes = 0;
  for (const BackupEntry& e : source->entries()) source_bytes += e.size_bytes;

  if (Status s = CheckSpace(*fs.value(), clients * ImageBytes(source->entries(), plan.image_ratio), "the image");
      !s.ok())
    return ReportFailure(s);
  std::unique_ptr<AppFileSystem> scratch;
  if (restore && !o.scratch.empty()) {
    Result<std::unique_ptr<AppFileSystem>> opened = OpenAppFileSystem(o.scratch, TargetOptions{});
    if (!opened.ok()) return ReportFailure(opened.status());
    scratch = std::move(opened.value());
    if (Status s = CheckSpace(*scratch, clients * source_bytes, "the unpacked tree"); !s.ok()) return ReportFailure(s);
  }
  std::optional<AppRankRunner> rank_runner;
  if (ranks) rank_runner.emplace(*ranks, LostRankCleaner({o.target, o.scratch}));

  Result<AppFillLevel> fill = FillBeforeWorkload(fs.value().get(), o.fill, ImageBytes(source->entries(), plan.image_ratio),
                                                 o.seed ? *o.seed : NewRunSeed());
  if (!fill.ok()) return ReportFailure(fill.status());
  const std::string target = fs.value()->description();
  RunResult run = BackupRun(o, restore, target, tags.value());
  run.inventory = InventoryToJson(GatherInventory(o.target));
  if (recorder)
    if (Status s = recorder->Begin(run); !s.ok()) return ReportFailure(s);
  RunResult begun = run;
  if (stores)
    std::fprintf(stderr, "%s %s ...\n", restore ? "restore: staging the image, then" : "backup:", target.c_str());
  // A backup of --source reads that tree: its state is the tree's, after the drop (it was
  // listed, so the drop reaches every file). A generated tree is read from no cache, and
  // the image it writes is new: no state describes that backup ("unknown").
  CacheFacts cache;
  bool cache_checked = false;
  if (!restore && source_fs) {
    cache.data_bytes = source_bytes;
    cache.client_ram_bytes = ClientRamBytes();
    std::vector<std::string> drop_notes;
    DropClientCaches({source_fs.get()}, cache, drop_notes);
    for (const std::string& n : drop_notes) run.notes.push_back("before the clock: " + n);
    cache_checked = true;
  }
  // Under mpirun the ranks' clocks start together: a backup's before its first write, a
  // restore's after its staging (the barrier; a rank interrupted there runs nothing).
  auto start_clock = [&] { return rank_runner ? rank_runner->BeforeClock() : Status::Ok(); };
  const Status met = restore ? Status::Ok() : start_clock();
  Result<BackupFigures> figures =
      met.ok() ? RunBackup(*fs.value(), kImageName, *source, plan) : Result<BackupFigures>(met);
  // A restore reads the image staging wrote: its state is the image's, after the drop.
  if (restore && figures.ok()) {
    cache_checked = true;
    cache.data_bytes = figures.value().image_bytes;
    cache.client_ram_bytes = ClientRamBytes();
    cache.remote_end = IsProtocolUrl(o.target);
    std::vector<std::string> drop_notes;
    DropClientCaches({fs.value().get()}, cache, drop_notes);
    for (const std::string& n : drop_notes) run.notes.push_back("image staged untimed, then: " + n);
    const Status restore_met = start_clock();
    figures = restore_met.ok() ? RunRestore(*fs.value(), kImageName, scratch.get(), plan)
                               : Result<BackupFigures>(restore_met);
  }
  Status outcome = figures.status();
  if (figures.ok()) FillBackupRun(o, restore, figures.value(), target, run);
  if (figures.ok() && cache_checked) run.app->cache_state = CacheStateOf(cache);
  if (figures.ok() && run.app->cache_state == "unknown")
    run.notes.push_back(restore ? "cache state unknown: the server's cache was not dropped"
                                : "cache state unknown: a generated tree is read from no cache, and the image is new");
  if (figures.ok() && tree) run.app->dataset = DatasetOf(*tree, "");
  if (skipped)
    run.notes.push_back(fmt::format("{} entries of the source skipped: neither a file nor a directory", skipped));
  fill.value().Label(run);
  run.partial = !outcome.ok();
  if (run.partial) run.error = outcome.kind() == ErrorKind::kInterrupted ? "interrupted" : outcome.message();
  if (rank_runner) run = rank_runner->AfterRun(std::move(run), nullptr, &outcome);
  Status stored = recorder ? recorder->Finish(run, begun) : Status::Ok();
  fill.value().filler.reset();  // the fill files go before the results are printed
  if (!stores) {
    if (!outcome.ok()) std::fprintf(stderr, "nasperf: rank %d: %s\n", ranks->rank(), outcome.message().c_str());
    return 0;
  }

  if (o.common.json) {
    std::printf("%s\n", DocumentToJson({run}).dump(2).c_str());
  } else {
    std::printf("%s%s", run.app ? AppRunTable(run).c_str() : RunTable(run).c_str(), RanksText(run).c_str());
    if (run.app)
      std::printf("%s: %.2f s elapsed, %.1f MB/s of source (%.1f MB/s of image), %llu files; NAS busy: not measured\n",
                  run.app->workload.c_str(), run.app->elapsed_s, *run.app->source_mb_per_s, run.app->mb_per_s,
                  static_cast<unsigned long long>(run.app->files));
    std::printf("%s", StoredLine(*recorder, {run}).c_str());
  }
  std::fflush(stdout);
  if (!outcome.ok()) return ReportFailure(outcome);
  return ReportFailure(stored);
}

}  // namespace

static void AddBackupOrRestore(CLI::App& app_cmd, AppCommands& commands, bool restore) {
  auto o = std::make_shared<AppBackupOptions>();
  CLI::App* cmd = app_cmd.add_subcommand(
      restore ? "restore" : "backup",
      restore ? "read a backup image back from TARGET and unpack it (to --scratch DIR or nowhere), timed"
              : "pack a tree into one sequential image on TARGET (1 MiB writes, two in flight), timed");
  AddCommonOptions(*cmd, o->common);
  AddProtocolOptions(*cmd, o->protocol);
  cmd->add_option("TARGET", o->target, "a directory, smb://USER@HOST/SHARE/DIR or nfs://HOST/EXPORT/DIR (default .)");
  cmd->add_option("--preset", o->preset, "a generated tree: win7-system, small-files (default), media");
  cmd->add_option("--scale", o->scale, "the preset's files and bytes times F (default 1)");
  cmd->add_option("--seed", o->seed, "seed of the generated tree (default: fresh)");
  AddFillOption(*cmd, o->fill);
  cmd->add_option("--source", o->source, "back up this directory instead (read only)");
  cmd->add_option("--image-ratio", o->image_ratio, "model compression: a file of B bytes is stored as B/R (default 1)");
  if (restore)
    cmd->add_option("--scratch", o->scratch, "unpack into a workspace in this local directory (default: discard)");
  commands.subcommands.push_back(
      {cmd, [o, restore](const AppCommands& c) { return BackupCommand(*o, restore, c.command_line, c.ranks); }});
}

void AddBackupCommand(CLI::App& app, AppCommands& commands) { AddBackupOrRestore(app, commands, false); }
void AddRestoreCommand(CLI::App& app, AppCommands& commands) { AddBackupOrRestore(app, commands, true); }

}  // namespace nasperf
