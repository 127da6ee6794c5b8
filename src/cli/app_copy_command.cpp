// `nasperf app file-copy` and `nasperf app dir-copy`: options parsed and checked (bad input
// exits 2 before anything is written), the ends opened, the suite's workloads run
// (suite/app/), the runs printed and stored. No measuring here.
#include <fmt/format.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>

#include "base/units.h"
#include "cli/app_command.h"
#include "cli/app_workload.h"
#include "cli/commands.h"
#include "cli/progress.h"
#include "cli/rank_command.h"
#include "cli/run_recorder.h"
#include "cluster/app_rank_runner.h"
#include "suite/app/app_tree.h"
#include "suite/app/dir_copy.h"
#include "suite/app/file_copy.h"
#include "target/local_app_fs.h"
#include "workload/run_seed.h"

namespace nasperf {
namespace {

// Where a copy command's runs go: the store (one process, or rank 0 under mpirun), or
// for the other ranks nowhere (rank 0 prints and stores the merged run). Under mpirun
// every run carries this rank's AppRankRunner (cluster/app_rank_runner.h).
struct CopySinks {
  std::optional<RunRecorder> recorder;
  NoSink none;
  NoProgress silent;
  std::optional<ProgressLine> line;
  std::optional<AppRankRunner> ranks;
  RunSink& sink() { return recorder ? static_cast<RunSink&>(*recorder) : none; }
  SuiteProgress& progress() { return line ? static_cast<SuiteProgress&>(*line) : silent; }
  bool quiet() const { return !recorder; }
  AppRunRanks* app_ranks() { return ranks ? &*ranks : nullptr; }
};

// `ends`: the command's ends as given; rank 0 removes a killed rank's workspaces from
// those that are local directories (a share's are named, not reached).
Result<std::unique_ptr<CopySinks>> OpenCopySinks(const CommonOptions& common, const char* command, Comm* ranks,
                                                 const std::vector<std::string>& ends) {
  auto sinks = std::make_unique<CopySinks>();
  if (ranks) sinks->ranks.emplace(*ranks, LostRankCleaner(ends));
  if (ranks && ranks->rank() != 0) return sinks;
  Result<RunRecorder> recorder = RunRecorder::Open(common, command);
  if (!recorder.ok()) return recorder.status();
  sinks->recorder.emplace(std::move(recorder).value());
  sinks->line.emplace(!common.json);
  return sinks;
}

// The end of a copy command: rank 0 (or the one process) prints and reports; another
// rank says its own failure on stderr and exits 0 (non-zero would make mpirun kill rank
// 0 before it stores the merged run, which names the failure).
int FinishCopyCommand(CopySinks& sinks, const CommonOptions& common, const std::vector<RunResult>& runs,
                      const Status& status, const Status& stored, Comm* ranks) {
  if (sinks.quiet()) {
    if (!status.ok()) std::fprintf(stderr, "nasperf: rank %d: %s\n", ranks ? ranks->rank() : 0, status.message().c_str());
    return 0;
  }
  PrintAppRuns(common, runs, StoredLine(*sinks.recorder, runs));
  if (!status.ok()) return ReportFailure(status);
  return ReportFailure(stored);
}

// What both copy commands take.
struct CopyCommonOptions {
  CommonOptions common;
  ProtocolOptions protocol;
  std::string scale = "1";
  std::string repeat = "1";
  std::string nas_ram;  // the share's server's RAM, when known (else the cache state may be unknown)
  std::string seed;     // empty: a fresh one
  std::string fill;     // --fill PCT of the storage end's volume; empty: none
  std::string request = "1m";  // each read and write
  bool no_flush = false;       // --no-flush: close each file unflushed (the default fsyncs it, in the clock)
};

void AddCopyCommonOptions(CLI::App& cmd, CopyCommonOptions& o) {
  AddCommonOptions(cmd, o.common);
  AddProtocolOptions(cmd, o.protocol);
  cmd.add_option("--scale", o.scale, "multiply the dataset's sizes (and a tree's file count) by F (default 1)");
  cmd.add_option("--repeat", o.repeat, "run N times; several workloads alternate rather than run back to back");
  cmd.add_option(
      "--nas-ram", o.nas_ram,
      "RAM of the server behind a share, for the cache state (cold when the data exceeds it and the client's)");
  cmd.add_option("--seed", o.seed, "dataset seed (default: a fresh one, stored with the run)");
  cmd.add_option("--request", o.request,
                 "bytes per read and write, one at a time, 4k to 64m (default 1m; cp writes 128k, robocopy 1m)");
  AddFillOption(cmd, o.fill);
  cmd.add_flag("--no-flush", o.no_flush,
               "close each copy without an fsync (the default flushes each file inside the clock, as NASPT times a "
               "copy to stable storage)");
}

struct Parsed {
  std::map<std::string, std::string> tags;
  double scale = 1;
  uint32_t repeat = 1;
  std::optional<uint64_t> nas_ram;
  uint64_t seed = 0;
  size_t request_bytes = kCopyRequestBytes;
};

Result<Parsed> ParseCommon(const CopyCommonOptions& o) {
  Parsed p;
  Result<std::map<std::string, std::string>> tags = ParseTags(o.common.tags);
  if (!tags.ok()) return tags.status();
  p.tags = tags.value();
  Result<double> scale = ParseScale(o.scale);
  if (!scale.ok()) return scale.status();
  p.scale = scale.value();
  char* end = nullptr;
  const unsigned long repeat = std::strtoul(o.repeat.c_str(), &end, 10);
  if (o.repeat.empty() || *end != '\0' || repeat < 1 || repeat > 1000 || o.repeat[0] == '-')
    return Status::BadInput("--repeat must be 1 to 1000, got '" + o.repeat + "'");
  p.repeat = static_cast<uint32_t>(repeat);
  if (!o.nas_ram.empty()) {
    Result<uint64_t> ram = ParseSize(o.nas_ram);
    if (!ram.ok() || ram.value() == 0) return Status::BadInput("--nas-ram: not a size above 0: '" + o.nas_ram + "'");
    p.nas_ram = ram.value();
  }
  if (!o.seed.empty()) {
    const unsigned long long seed = std::strtoull(o.seed.c_str(), &end, 10);
    if (*end != '\0' || o.seed[0] == '-' || seed > kMaxSeed)
      return Status::BadInput("--seed must be 0 to 2^53-1, got '" + o.seed + "'");
    p.seed = seed;
  } else {
    p.seed = NewRunSeed();
  }
  Result<uint64_t> request = ParseSize(o.request);
  if (!request.ok() || request.value() < kMinCopyRequestBytes || request.value() > kMaxCopyRequestBytes)
    return Status::BadInput("--request must be a size from 4k to 64m, got '" + o.request + "'");
  p.request_bytes = static_cast<size_t>(request.value());
  return p;
}

CacheFacts BaseCacheFacts(const Parsed& p, const AppEnd& from, const AppEnd& to) {
  CacheFacts c;
  c.client_ram_bytes = ClientRamBytes();
  c.nas_ram_bytes = p.nas_ram;
  c.remote_end = from.remote || to.remote;
  return c;
}

AppRunLabels Labels(const CommonOptions& common, const Parsed& p, const std::string& workload, const AppEnd& from,
                    const AppEnd& to, uint64_t bytes, uint32_t threads) {
  AppRunLabels l;
  l.name = common.name.empty() ? workload : common.name;
  // A run is listed under its storage end: the destination, else the source.
  l.target = to.fs ? to.named : from.named;
  l.tags = p.tags;
  l.tags["app"] = workload;
  // The directions that move bytes on storage: a copy between two storage ends does both.
  l.job.rw = from.fs && to.fs ? AccessPattern::kReadWrite : from.fs ? AccessPattern::kRead : AccessPattern::kWrite;
  l.job.bs = p.request_bytes;
  l.job.qd = 1;
  l.job.threads = threads;
  l.job.size = bytes ? bytes : 1;
  l.job.seed = p.seed;
  return l;
}

// ---- file-copy ----

struct FileCopyCommandOptions {
  CopyCommonOptions c;
  std::string from = "null:";
  std::string to = ".";
  std::string size = "4g";
  std::string preset;
};

int RunFileCopyCommand(const FileCopyCommandOptions& o_in, const AppCommands& commands) {
  FileCopyCommandOptions o = o_in;
  o.c.common.command_line = commands.command_line;
  Result<Parsed> p = ParseCommon(o.c);
  if (!p.ok()) return ReportFailure(p.status());
  if (commands.ranks && !o.c.fill.empty())
    return ReportFailure(Status::BadInput(
        "under mpirun: --fill is not supported (every rank would fill the one volume); fill it in one process"));
  Result<uint64_t> size = ParseSize(o.size);
  if (!size.ok()) return ReportFailure(Status::BadInput("--size: " + size.status().message()));
  Result<FileCopyPlan> plan = PlanFileCopy(o.preset, size.value(), p.value().scale, ClientRamBytes());
  if (!plan.ok()) return ReportFailure(plan.status());
  Result<AppEnd> from = OpenCopyEnd(o.from, o.to, o.c.protocol);
  if (!from.ok()) return ReportFailure(from.status());
  Result<AppEnd> to = OpenCopyEnd(o.to, o.from, o.c.protocol);
  if (!to.ok()) return ReportFailure(to.status());
  const CopyEnds ends{from.value().fs.get(), to.value().fs.get()};
  if (Status s = CheckFileCopySpace(ends, plan.value()); !s.ok()) return ReportFailure(s);
  // The destination's volume is the one a copy fills; with a null sink, the source's.
  Result<AppFillLevel> fill =
      FillBeforeWorkload(ends.to ? ends.to : ends.from, o.c.fill, plan.value().total_bytes, p.value().seed);
  if (!fill.ok()) return ReportFailure(fill.status());
  Result<std::unique_ptr<CopySinks>> sinks = OpenCopySinks(o.c.common, "app file-copy", commands.ranks, {o.from, o.to});
  if (!sinks.ok()) return ReportFailure(sinks.status());
  CopySinks& out_to = *sinks.value();
  FileCopyOptions options;
  options.request_bytes = p.value().request_bytes;
  options.sync = !o.c.no_flush;
  options.cache = BaseCacheFacts(p.value(), from.value(), to.value());
  options.from = from.value().named;
  options.to = to.value().named;
  AppRunLabels labels = Labels(o.c.common, p.value(), "file-copy", from.value(), to.value(), plan.value().total_bytes, 1);
  labels.ranks = out_to.app_ranks();
  fill.value().Label(labels);
  std::vector<RunResult> runs;
  Status status = Status::Ok(), stored = Status::Ok();
  for (uint32_t r = 0; r < p.value().repeat && status.ok(); ++r) {
    options.seed = RepeatSeed(p.value().seed, r);
    AppRunLabels l = labels;
    l.job.seed = options.seed;
    AppRunOutcome out = RunFileCopy(ends, plan.value(), options, out_to.sink(), out_to.progress(), l);
    if (!out.began) return ReportFailure(out.status);
    status = out.status;
    if (!out.stored.ok()) stored = out.stored;
    runs.push_back(std::move(out.result));
  }
  fill.value().filler.reset();  // the fill files, then the workspaces, go before anything is printed
  from.value().fs.reset();
  to.value().fs.reset();
  return FinishCopyCommand(out_to, o.c.common, runs, status, stored, commands.ranks);
}

// ---- dir-copy ----

// The end-to-end tests' hook (tests/app_copy_e2e_test.cpp): with NASPERF_TEST_CORRUPT_COPY
// set, the first byte of the first non-empty copy is flipped after the copy, through the
// destination's own-file access, so that --verify must catch it.
std::function<void()> CorruptionHook(AppFileSystem* to, const CopyTree& tree) {
  if (!to || !std::getenv("NASPERF_TEST_CORRUPT_COPY")) return {};
  return [to, &tree] {
    for (const CopyFile& f : tree.files) {
      if (f.size_bytes == 0) continue;
      unsigned char byte = 0;
      Result<std::unique_ptr<AppFile>> in = to->OpenRead(f.rel);
      if (!in.ok() || !in.value()->PRead(&byte, 1, 0).ok()) return;
      in.value()->Close();
      byte ^= 0x40;
      Result<std::unique_ptr<AppFile>> out = to->OpenWrite(f.rel);
      if (!out.ok()) return;
      out.value()->PWrite(&byte, 1, 0);
      out.value()->Close();
      return;
    }
  };
}

struct DirCopyCommandOptions {
  CopyCommonOptions c;
  std::string to, from;  // exactly one: the target
  std::string preset = "small-files";
  std::string source;           // an existing directory, read-only
  std::string local = "null:";  // --from's destination: a local directory or null:
  uint32_t threads = 1;
  bool verify = false;
  bool no_times = false;
};

int RunDirCopyCommand(const DirCopyCommandOptions& o_in, const AppCommands& commands) {
  DirCopyCommandOptions o = o_in;
  o.c.common.command_line = commands.command_line;
  Result<Parsed> p = ParseCommon(o.c);
  if (!p.ok()) return ReportFailure(p.status());
  if (commands.ranks && !o.c.fill.empty())
    return ReportFailure(Status::BadInput(
        "under mpirun: --fill is not supported (every rank would fill the one volume); fill it in one process"));
  if (o.to.empty() == o.from.empty())
    return ReportFailure(Status::BadInput("dir-copy: give one of --to TARGET or --from TARGET"));
  if (o.threads < 1 || o.threads > 256)
    return ReportFailure(Status::BadInput(fmt::format("--threads must be 1 to 256, got {}", o.threads)));
  if (!o.source.empty() && !o.from.empty())
    return ReportFailure(Status::BadInput("dir-copy: --source copies an existing directory --to a target, not --from"));
  if (!o.source.empty() && o.verify)
    return ReportFailure(Status::BadInput("dir-copy: --verify checks a generated tree; it cannot with --source"));
  // The tree first: a bad preset or scale is named before any end is opened.
  std::unique_ptr<AppFileSystem> source_fs;
  Result<CopyTree> tree = Status::Ok();
  if (o.source.empty()) {
    tree = GeneratedCopyTree(o.preset, p.value().scale, p.value().seed);
  } else {
    Result<std::unique_ptr<AppFileSystem>> src = OpenSourceTree(o.source);
    if (!src.ok()) return ReportFailure(src.status());
    source_fs = std::move(src).value();
    tree = ListSourceTree(*source_fs);
  }
  if (!tree.ok()) return ReportFailure(tree.status());
  // --to: generated bytes (or the --source directory) copied to TARGET; --from: the tree
  // staged on TARGET, untimed, then copied to --local (a directory, or null:).
  Result<AppEnd> from = o.from.empty() ? Result<AppEnd>(AppEnd{"generated:" + o.preset, nullptr, false})
                                       : OpenCopyEnd(o.from, o.local, o.c.protocol);
  if (!from.ok()) return ReportFailure(from.status());
  if (source_fs) from.value().named = source_fs->description();
  Result<AppEnd> to = o.to.empty() ? OpenCopyEnd(o.local, o.from, o.c.protocol) : OpenAppEnd(o.to, o.c.protocol);
  if (!to.ok()) return ReportFailure(to.status());
  CopyEnds ends{source_fs ? source_fs.get() : from.value().fs.get(), to.value().fs.get()};
  if (Status s = CheckDirCopySpace(ends, tree.value()); !s.ok()) return ReportFailure(s);
  // TARGET's volume: --to's, or --from's (where the tree is staged).
  Result<AppFillLevel> fill = FillBeforeWorkload(o.to.empty() ? from.value().fs.get() : to.value().fs.get(), o.c.fill,
                                                 tree.value().total_bytes, p.value().seed);
  if (!fill.ok()) return ReportFailure(fill.status());
  Result<std::unique_ptr<CopySinks>> sinks = OpenCopySinks(o.c.common, "app dir-copy", commands.ranks, {o.to, o.from, o.to.empty() ? o.local : ""});
  if (!sinks.ok()) return ReportFailure(sinks.status());
  CopySinks& out_to = *sinks.value();
  DirCopyOptions options;
  options.request_bytes = p.value().request_bytes;
  options.set_times = !o.no_times;
  options.flush = !o.c.no_flush;
  options.threads = o.threads;
  options.verify = o.verify;
  options.cache = BaseCacheFacts(p.value(), from.value(), to.value());
  options.from = from.value().named;
  options.to = to.value().named;
  options.after_copy = CorruptionHook(ends.to, tree.value());
  // The small-file penalty's reference: a file-copy of the same bytes between the same
  // ends, run before each dir-copy (so repeats alternate the two).
  Result<FileCopyPlan> same_bytes = PlanFileCopy("", std::max<uint64_t>(1, tree.value().total_bytes), 1, 0);
  FileCopyOptions fc;
  fc.cache = options.cache;
  fc.request_bytes = options.request_bytes;
  fc.from = options.from;
  fc.to = options.to;
  fc.sync = options.flush;  // like with like: the reference flushes as the dir-copy does
  const char* flushed = options.flush ? "each flushed" : "no flush";
  std::vector<RunResult> runs;
  Status status = Status::Ok(), stored = Status::Ok();
  for (uint32_t r = 0; r < p.value().repeat && status.ok(); ++r) {
    fc.seed = options.seed = RepeatSeed(p.value().seed, r);
    AppRunLabels fl = Labels(o.c.common, p.value(), "file-copy", from.value(), to.value(), tree.value().total_bytes, 1);
    fl.name = (o.c.common.name.empty() ? std::string("dir-copy") : o.c.common.name) +
              fmt::format(" (same bytes, one file, {})", options.flush ? "flushed" : "no flush");
    fl.job.seed = fc.seed;
    fl.ranks = out_to.app_ranks();
    fill.value().Label(fl);
    AppRunOutcome ref = RunFileCopy(CopyEnds{source_fs ? nullptr : ends.from, ends.to}, same_bytes.value(), fc,
                                    out_to.sink(), out_to.progress(), fl);
    if (!ref.began) return ReportFailure(ref.status);
    if (!ref.stored.ok()) stored = ref.stored;
    if (status = ref.status; !status.ok()) {
      runs.push_back(std::move(ref.result));
      break;
    }
    options.file_copy_mb_per_s = ref.result.app->mb_per_s;
    options.file_copy_source =
        ref.result.id
            ? fmt::format("file-copy run {} of the same {} bytes in one file ({} too), run just before",
                          ref.result.id, tree.value().total_bytes, flushed)
            : fmt::format("a file-copy of the same {} bytes in one file ({} too), run just before",
                          tree.value().total_bytes, flushed);
    AppRunLabels dl =
        Labels(o.c.common, p.value(), "dir-copy", from.value(), to.value(), tree.value().total_bytes, o.threads);
    dl.job.seed = options.seed;
    dl.ranks = out_to.app_ranks();
    fill.value().Label(dl);
    // --source is storage this machine reads, though no --from end was opened for it.
    if (source_fs) dl.job.rw = to.value().fs ? AccessPattern::kReadWrite : AccessPattern::kRead;
    AppRunOutcome out = RunDirCopy(ends, tree.value(), options, out_to.sink(), out_to.progress(), dl);
    if (!out.began) return ReportFailure(out.status);
    status = out.status;
    if (!out.stored.ok()) stored = out.stored;
    runs.push_back(std::move(ref.result));
    runs.push_back(std::move(out.result));
  }
  fill.value().filler.reset();
  from.value().fs.reset();
  to.value().fs.reset();
  return FinishCopyCommand(out_to, o.c.common, runs, status, stored, commands.ranks);
}

}  // namespace

void AddFileCopyCommand(CLI::App& app, AppCommands& commands) {
  auto o = std::make_shared<FileCopyCommandOptions>();
  CLI::App* cmd = app.add_subcommand(
      "file-copy",
      "copy files as a copy tool does: 1 MiB requests, one at a time, timed open to close with the flush (--no-flush: "
      "without)");
  AddCopyCommonOptions(*cmd, o->c);
  cmd->add_option("--from", o->from, "source: a directory, smb://, nfs:// or null: (generated bytes; default)");
  cmd->add_option("--to", o->to, "destination: a directory, smb://, nfs:// or null: (bytes dropped) (default .)");
  cmd->add_option("--size", o->size, "size of the one file (default 4g)");
  cmd->add_option("--preset", o->preset, "dvd-folder (38 files, 4,680,843,264 bytes) | large (2 x this machine's RAM)");
  commands.subcommands.push_back({cmd, [o](const AppCommands& c) { return RunFileCopyCommand(*o, c); }});
}

void AddDirCopyCommand(CLI::App& app, AppCommands& commands) {
  auto o = std::make_shared<DirCopyCommandOptions>();
  CLI::App* cmd = app.add_subcommand(
      "dir-copy",
      "copy a directory tree as robocopy /MT or cp -a does, each file flushed inside the clock (--no-flush: not); "
      "files/s, per-operation latency, small-file penalty");
  AddCopyCommonOptions(*cmd, o->c);
  cmd->add_option("--to", o->to, "copy the tree to TARGET: a directory, smb:// or nfs://");
  cmd->add_option("--from", o->from, "stage the tree on TARGET (untimed) and copy it to --local");
  cmd->add_option("--local", o->local, "--from's destination: a local directory or null: (default null:)");
  cmd->add_option("--preset", o->preset, "the generated tree (nasperf tree gen's presets; default small-files)");
  cmd->add_option("--source", o->source, "copy this existing directory instead (read only)");
  cmd->add_option("--threads", o->threads, "files copied at once, like robocopy /MT:N (default 1)");
  cmd->add_flag("--verify", o->verify, "read every copy back against the generated bytes (after the clock)");
  cmd->add_flag("--no-times", o->no_times,
                "copy data only: leave each file's modification time unset (robocopy /COPY:D, cp without -p)");
  commands.subcommands.push_back({cmd, [o](const AppCommands& c) { return RunDirCopyCommand(*o, c); }});
}

}  // namespace nasperf
