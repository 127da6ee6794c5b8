// `nasperf app video TARGET`: parse, check, stage, run the paced streams (or --find-max's
// probes), store the run and print it. The measuring is suite/app/video.
#include "cli/app_video_command.h"
#include "cli/app_workload.h"

#include <fmt/format.h>

#include <cstdio>
#include <memory>

#include "base/clock.h"
#include "base/signals.h"
#include "cli/commands.h"
#include "cli/job_options.h"
#include "cli/progress.h"
#include "cli/protocol_options.h"
#include "cli/run_recorder.h"
#include "cluster/app_rank_runner.h"
#include "model/inventory_json.h"
#include "model/run_json.h"
#include "cli/app_command.h"
#include "proto/open_app_fs.h"
#include "proto/url.h"
#include "suite/app/app_run.h"
#include "report/app_text.h"
#include "report/rank_table.h"
#include "suite/app/video.h"
#include "sysinfo/inventory.h"
#include "workload/run_seed.h"

namespace nasperf {
namespace {

struct AppVideoOptions {
  CommonOptions common;
  ProtocolOptions protocol;
  std::string target = ".";
  int64_t streams = 4;
  double time_s = 60;
  double rate_mbit = 40;
  bool play = false, record = false, mix = false;
  bool find_max = false;
  int64_t max_streams = 256;
  std::optional<uint64_t> seed;
  std::string fill;  // --fill PCT of TARGET's volume; empty: none
};

Result<VideoPlan> BuildPlan(const AppVideoOptions& o) {
  if (int(o.play) + int(o.record) + int(o.mix) > 1)
    return Status::BadInput("--play, --record and --mix: give one of them");
  if (o.streams < 1) return Status::BadInput(fmt::format("--streams {}: at least 1 stream", o.streams));
  if (o.seed && (*o.seed < 1 || *o.seed > kMaxSeed))
    return Status::BadInput(fmt::format("--seed {}: between 1 and {}", *o.seed, kMaxSeed));
  VideoPlan plan;
  plan.streams = static_cast<uint32_t>(std::min<int64_t>(o.streams, UINT32_MAX));
  plan.time_s = o.time_s;
  plan.rate_mbit = o.rate_mbit;
  plan.mode = o.record ? VideoMode::kRecord : o.mix ? VideoMode::kMix : VideoMode::kPlay;
  plan.find_max = o.find_max;
  if (o.max_streams < 1 || o.max_streams > 4096)
    return Status::BadInput(fmt::format("--max-streams {}: between 1 and 4096", o.max_streams));
  plan.max_search_streams = static_cast<uint32_t>(o.max_streams);
  plan.seed = o.seed ? *o.seed : NewRunSeed();
  if (Status s = ValidateVideoPlan(plan); !s.ok()) return s;
  return plan;
}

const char* ModeName(VideoMode m) {
  return m == VideoMode::kPlay ? "play" : m == VideoMode::kRecord ? "record" : "mix";
}

RunResult VideoRunRecord(const AppVideoOptions& o, const VideoPlan& plan, const AppFileSystem& fs, uint32_t streams,
                         double seconds, const std::map<std::string, std::string>& tags) {
  RunResult run;
  run.name = o.common.name;
  run.tags = tags;
  run.target = fs.description();
  run.test = fmt::format("video {} {}x{}Mbit", ModeName(plan.mode), streams, plan.rate_mbit);
  run.engine = "app";
  run.job.rw = plan.mode == VideoMode::kPlay     ? AccessPattern::kRead
               : plan.mode == VideoMode::kRecord ? AccessPattern::kWrite
                                                 : AccessPattern::kReadWrite;
  run.job.bs = plan.chunk_bytes;
  run.job.qd = 1;
  run.qd_run = 1;
  run.job.threads = streams;
  run.job.size = plan.ChunksFor(seconds) * plan.chunk_bytes;
  run.job.time_s = seconds;
  run.job.time_based = true;
  run.job.engine = "app";
  run.job.seed = plan.seed;
  return run;
}

// The verdict under the app table (report/app_text.h lists the streams and latencies).
std::vector<std::string> VideoLines(const RunResult& run) {
  std::vector<std::string> lines;
  const AppFigures& a = *run.app;
  uint64_t misses = 0;
  double stall_s = 0;
  for (const AppStream& s : a.streams) {
    misses += s.deadline_misses;
    stall_s += s.stall_s;
  }
  // A run that stopped early without a miss kept up for as long as it ran: no verdict.
  const std::string verdict = misses > 0 ? (run.partial ? "FAIL (did not keep up before it stopped)" : "FAIL (did not keep up)")
                              : run.partial ? "no verdict: stopped early (" + run.error + ")"
                                            : "PASS (kept up)";
  lines.push_back(fmt::format("video: {} streams, {} deadline misses, {:.3f} s stalled, {:.1f} s elapsed, {:.1f} MB/s: {}",
                              a.streams.size(), misses, stall_s, a.elapsed_s, a.mb_per_s, verdict));
  if (a.max_streams) lines.push_back(fmt::format("find-max: {} streams sustained with zero misses", *a.max_streams));
  return lines;
}

// The most streams the search may probe: --find-max's cap and what the free space holds.
Result<uint32_t> SearchLimit(VideoWorkload& w, double probe_s) {
  uint32_t limit = w.plan().max_search_streams;
  while (limit >= 1 && !w.CheckSpace(limit, probe_s).ok()) limit /= 2;
  if (limit < 1) return w.CheckSpace(1, probe_s);
  return limit;
}

// Under mpirun (`ranks`) every rank stages and plays (or records) its own streams in its
// own workspace, all start their clocks at one barrier, and rank 0 prints and stores the
// run merged from every rank's: every stream of every rank, the chunks' latencies from the
// summed histograms (cluster/app_rank_runner.h). Another rank says only its own failure.
int AppVideoCommand(const AppVideoOptions& o, const std::string& command_line, Comm* ranks) {
  Result<VideoPlan> plan = BuildPlan(o);
  if (!plan.ok()) return ReportFailure(plan.status());
  if (ranks && plan.value().find_max)
    return ReportFailure(Status::BadInput(
        "under mpirun: --find-max is not supported (each rank would search on its own); give --streams per rank"));
  if (ranks && !o.fill.empty())
    return ReportFailure(Status::BadInput(
        "under mpirun: --fill is not supported (every rank would fill the one volume); fill it in one process"));
  Result<std::map<std::string, std::string>> tags = ParseTags(o.common.tags);
  if (!tags.ok()) return ReportFailure(tags.status());
  Result<TargetOptions> target_options = BuildTargetOptions(o.protocol, o.target);
  if (!target_options.ok()) return ReportFailure(target_options.status());
  CommonOptions common = o.common;
  common.command_line = command_line;
  Result<std::optional<RunRecorder>> opened = OpenRankRecorder(common, "app video", ranks);
  if (!opened.ok()) return ReportFailure(opened.status());
  std::optional<RunRecorder>& recorder = opened.value();
  const bool stores = recorder.has_value();
  InstallInterruptHandler();
  Result<std::unique_ptr<AppFileSystem>> fs = OpenAppFileSystem(o.target, target_options.value());
  if (!fs.ok()) return ReportFailure(fs.status());
  VideoWorkload workload(*fs.value(), MonotonicClock(), plan.value());
  const VideoPlan& p = workload.plan();
  // Before staging; --find-max then searches in the room the fill left.
  const uint64_t staged_bytes =
      p.find_max ? 0 : static_cast<uint64_t>(p.streams * p.time_s * static_cast<double>(p.rate_bytes_per_s()));
  Result<AppFillLevel> fill = FillBeforeWorkload(fs.value().get(), o.fill, staged_bytes, p.seed);
  if (!fill.ok()) return ReportFailure(fill.status());

  std::optional<AppRankRunner> rank_runner;
  if (ranks) rank_runner.emplace(*ranks, LostRankCleaner({o.target}));
  ProgressLine progress(!o.common.json && stores);
  std::vector<std::string> probe_notes;
  VideoProbe probe;
  std::optional<uint32_t> max_streams;
  double seconds = p.time_s;
  if (p.find_max) {
    seconds = p.probe_s();
    Result<uint32_t> limit = SearchLimit(workload, seconds);
    if (!limit.ok()) return ReportFailure(limit.status());
    VideoProbe best, last;
    Result<StreamSearch> search = SearchMaxStreams(limit.value(), [&](uint32_t n) -> Result<bool> {
      if (Result<std::string> staged = workload.Stage(n, seconds); !staged.ok()) return staged.status();
      progress.SetLabel(fmt::format("video find-max: {} streams", n));
      progress.ShowLabel(fmt::format("{:.0f} s", seconds));
      VideoProbe probed = workload.RunProbe(n, seconds);
      if (probed.status.kind() == ErrorKind::kInterrupted) return probed.status;
      if (!probed.status.ok()) return probed.status;
      const double interval_s = static_cast<double>(p.chunk_bytes) / static_cast<double>(p.rate_bytes_per_s());
      const bool paced = probed.kept_pace(interval_s);
      probe_notes.push_back(fmt::format(
          "find-max probe: {} streams x {} s, {} deadline misses, {:.3f} s stalled, done {:.2f} s after the start{}", n,
          seconds, probed.deadline_misses, probed.stall_s, probed.elapsed_s,
          paced || probed.deadline_misses ? "" : " (behind pace: the startup buffer, not the target, carried it; fails)"));
      const bool passed = probed.pass() && paced;
      if (passed && n >= best.streams)
        best = std::move(probed);
      else
        last = std::move(probed);
      return passed;
    });
    progress.Clear();
    if (!search.ok()) return ReportFailure(search.status());
    max_streams = search.value().max_streams;
    if (max_streams == limit.value() && limit.value() < p.max_search_streams)
      probe_notes.push_back(fmt::format("find-max stopped at {} streams: the free space holds no more", limit.value()));
    if (max_streams == p.max_search_streams)
      probe_notes.push_back(fmt::format("find-max stopped at its cap of {} streams", p.max_search_streams));
    // The run's figures are the largest passing probe's; when none passed, the last probe's.
    probe = best.streams > 0 ? std::move(best) : std::move(last);
  } else {
    // Every rank's streams need room on the one volume.
    const uint32_t clients = ranks ? static_cast<uint32_t>(ranks->size()) : 1;
    if (Status s = workload.CheckSpace(p.streams * clients, seconds); !s.ok()) return ReportFailure(s);
    if (Result<std::string> staged = workload.Stage(p.streams, seconds); !staged.ok())
      return ReportFailure(staged.status());
    progress.SetLabel(fmt::format("video {} x{}", ModeName(p.mode), p.streams));
    progress.ShowLabel(fmt::format("{:.0f} s", seconds));
    // The ranks' streams start together (a rank interrupted at the barrier plays nothing).
    if (Status met = rank_runner ? rank_runner->BeforeClock() : Status::Ok(); met.ok()) {
      probe = workload.RunProbe(p.streams, seconds);
    } else {
      probe.status = met;
    }
    progress.Clear();
  }

  RunResult run = VideoRunRecord(o, p, *fs.value(), probe.streams, seconds, tags.value());
  run.inventory = InventoryToJson(GatherInventory(o.target));
  if (recorder)
    if (Status s = recorder->Begin(run); !s.ok()) return ReportFailure(s);
  RunResult begun = run;
  FillVideoRun(p, probe, fs.value()->description(), max_streams, run,
               ranks ? fmt::format("rank {}'s own: ", ranks->rank()) : "");
  if (!workload.cache_note().empty()) run.notes.push_back("play files staged, then: " + workload.cache_note());
  // Playback reads what staging wrote: its state is the play files'. Recording only
  // writes new files, which no cache state describes.
  if (probe.read_chunks > 0) {
    CacheFacts cache;
    cache.data_bytes = probe.read_bytes;
    cache.client_ram_bytes = ClientRamBytes();
    cache.remote_end = IsProtocolUrl(o.target);
    cache.client_dropped = workload.cache_emptied();
    cache.client_evicted_some = workload.cache_evicted_some();
    run.app->cache_state = CacheStateOf(cache);
    if (cache.remote_end && run.app->cache_state == "unknown")
      run.notes.push_back("cache state unknown: the server's cache of the staged files was not dropped");
  }
  for (const std::string& n : probe_notes) run.notes.push_back(n);
  fill.value().Label(run);
  if (rank_runner) {
    const OpHistograms chunks = {{"chunk", *probe.latency}, {"chunk-service", *probe.service}};
    run = rank_runner->AfterRun(std::move(run), &chunks, &probe.status);
  }
  Status stored = recorder ? recorder->Finish(run, begun) : Status::Ok();
  fill.value().filler.reset();  // the fill files go before the results are printed
  if (!stores) {
    if (!probe.status.ok())
      std::fprintf(stderr, "nasperf: rank %d: %s\n", ranks->rank(), probe.status.message().c_str());
    return 0;
  }

  if (o.common.json) {
    std::printf("%s\n", DocumentToJson({run}).dump(2).c_str());
  } else {
    std::printf("%s", AppRunTable(run).c_str());
    for (const std::string& line : VideoLines(run)) std::printf("%s\n", line.c_str());
    std::printf("%s%s", RanksText(run).c_str(), StoredLine(*recorder, {run}).c_str());
  }
  std::fflush(stdout);
  if (!probe.status.ok()) return ReportFailure(probe.status);
  return ReportFailure(stored);
}

}  // namespace

void AddVideoCommand(CLI::App& app_cmd, AppCommands& commands) {
  auto o = std::make_shared<AppVideoOptions>();
  CLI::App* cmd = app_cmd.add_subcommand(
      "video", "paced video streams on TARGET (40 Mbit/s each, 1 MiB chunks, 2 s buffer): do they keep up?");
  AddCommonOptions(*cmd, o->common);
  AddProtocolOptions(*cmd, o->protocol);
  cmd->add_option("TARGET", o->target, "a directory, smb://USER@HOST/SHARE/DIR or nfs://HOST/EXPORT/DIR (default .)");
  cmd->add_option("--streams", o->streams, "streams at once, each its own file (default 4)");
  cmd->add_option("--time", o->time_s, "seconds each stream plays or records (default 60)");
  cmd->add_option("--rate", o->rate_mbit, "Mbit/s per stream, 10^6 bits (default 40: Blu-ray's maximum video rate)");
  cmd->add_flag("--play", o->play, "read staged files (the default)");
  cmd->add_flag("--record", o->record, "write new files");
  cmd->add_flag("--mix", o->mix, "even streams play, odd streams record");
  cmd->add_flag(
      "--find-max", o->find_max,
      "search (doubling, then bisection) for the most streams with zero misses; probes of --time/4, at least 4 s");
  cmd->add_option("--max-streams", o->max_streams, "the most streams --find-max probes (default 256)");
  cmd->add_option("--seed", o->seed, "seed of the staged and recorded data (default: fresh)");
  AddFillOption(*cmd, o->fill);
  commands.subcommands.push_back(
      {cmd, [o](const AppCommands& c) { return AppVideoCommand(*o, c.command_line, c.ranks); }});
}

}  // namespace nasperf
