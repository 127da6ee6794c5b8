// `nasperf sweep`: iozone's file-size sweep on one directory or share — every (size,
// record, test) point a stored run, cold reads verified cold, and the cache analysis of
// each curve. The sweep is one invocation in the store, with its summary.
#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <cstdio>

#include <fmt/format.h>

#include "cli/clean_command.h"
#include "cli/commands.h"
#include "cli/progress.h"
#include "cli/protocol_options.h"
#include "cli/run_recorder.h"
#include "core/runner.h"
#include "base/units.h"
#include "base/signals.h"
#include "model/run_json.h"
#include "report/sweep_report.h"
#include "suite/point_cache.h"
#include "suite/sweep_file.h"
#include "suite/sweep_plan.h"
#include "suite/sweep_summary.h"
#include "sysinfo/dirty_limits.h"
#include "sysinfo/host_info.h"
#include "sysinfo/inventory.h"
#include "target/file_layout.h"
#include "target/page_cache.h"

namespace nasperf {
namespace {

// A drop that leaves less than this much of the file cached counts as a cold start.
constexpr double kColdResidentPct = 1.0;

// What the options say, parsed and checked; nothing written yet.
struct SweepSetup {
  std::map<std::string, std::string> tags;
  JobSpec base;  // engine, pattern, direct, fsync, repeat; rw/bs/size set per point
  SweepPlan plan;
  CacheRam ram;
  std::vector<std::string> notes;
  bool server_cache_unknown = false;  // a network file system or share without --nas-ram
  // The client's dirty-page limit, which bounds the write points its cache can take;
  // nullopt when /proc does not tell (the client's RAM bounds them then).
  std::optional<uint64_t> dirty_limit_bytes;
  bool direct_on_network_fs = false;  // O_DIRECT skips this machine's cache, not the server's
};

// What a share (smb://, nfs://) cannot do that a local directory can: its client library
// keeps no cache, so there is nothing here to bypass or drop, and only the NAS's RAM
// bounds the cached part of the curve.
Status CheckShareOptions(const SweepCommandOptions& o, const SweepableTarget& file) {
  if (file.client_caches()) return Status::Ok();
  const std::string target = file.description();
  if (o.direct)
    return Status::BadInput("--direct: " + target + " has no client cache to bypass (every I/O goes to the server; "
                            "the NAS's own cache stays in play)");
  if (o.drop_caches)
    return Status::BadInput("--drop-caches: " + target + " has no client cache, and this machine cannot drop the NAS's");
  if (o.max.empty() && o.nas_ram.empty())
    return Status::BadInput("sweep: " + target + " has no client cache, so the default --max (twice the RAM that can "
                            "cache the file) needs the NAS's RAM: give --nas-ram SIZE or --max SIZE");
  return Status::Ok();
}

Result<SweepSetup> Prepare(const SweepCommandOptions& o, SweepableTarget& file) {
  SweepSetup setup;
  Result<std::map<std::string, std::string>> tags = ParseTags(o.common.tags);
  if (!tags.ok()) return tags.status();
  setup.tags = tags.value();
  if (Status s = CheckShareOptions(o, file); !s.ok()) return s;

  JobOptions job_options;
  job_options.rw = "write";
  job_options.qd = "1";
  job_options.threads = "1";
  job_options.size = "1m";
  job_options.bs = "4k";
  job_options.repeat = o.repeat;
  // psync, like iozone, unless the user chose; a share uses its protocol's engine.
  job_options.engine = !o.engine.empty() ? o.engine : file.required_engine() ? "auto" : "psync";
  job_options.pattern = o.pattern;
  job_options.direct = o.direct;
  job_options.fsync = o.fsync;
  Result<JobSpec> base = BuildJob(job_options, file);
  if (!base.ok()) return base.status();
  setup.base = base.value();

  SweepPlanInput in;
  Result<uint64_t> min = ParseSize(o.min);
  if (!min.ok()) return Status::BadInput("--min: " + min.status().message());
  in.min_bytes = min.value();
  if (!o.max.empty()) {
    Result<uint64_t> max = ParseSize(o.max);
    if (!max.ok()) return Status::BadInput("--max: " + max.status().message());
    in.max_bytes = max.value();
  }
  Result<std::vector<uint64_t>> records = ParseRecordList(o.record);
  if (!records.ok()) return records.status();
  in.records = records.value();
  Result<std::vector<SweepTest>> tests = ParseSweepTests(o.tests);
  if (!tests.ok()) return tests.status();
  in.tests = tests.value();
  if (!o.nas_ram.empty()) {
    Result<uint64_t> nas = ParseSize(o.nas_ram);
    if (!nas.ok() || nas.value() == 0) return Status::BadInput("--nas-ram: '" + o.nas_ram + "' is not a size like 512m");
    setup.ram.nas_bytes = nas.value();
  }
  std::string why;
  if (o.drop_caches && !CanDropSystemCaches(&why)) return Status::BadInput("--drop-caches: " + why);

  nlohmann::ordered_json memory = sysinfo::GatherMemory();
  if (!memory["total_bytes"].is_number()) return Status::Io("sweep: cannot read the RAM size from /proc/meminfo");
  setup.ram.client_bytes = memory["total_bytes"].get<uint64_t>();
  setup.ram.client_caches = file.client_caches();
  in.cache_ram_bytes = setup.ram.total();  // also under --direct: the same --max keeps curves comparable
  Result<uint64_t> free_bytes = file.FreeBytes();
  if (!free_bytes.ok()) return free_bytes.status();
  in.free_bytes = free_bytes.value();
  if (in.free_bytes == 0) {  // a share that does not report it
    in.free_bytes = uint64_t{1} << 62;
    setup.notes.push_back(file.description() + " does not report its free space: the sweep cannot check it first");
  }
  in.target = file.description();
  Result<SweepPlan> plan = PlanSweep(in);
  if (!plan.ok()) return plan.status();
  setup.plan = plan.value();
  if (o.direct) {
    // Under O_DIRECT the RAM does not matter: the note about it would mislead.
    std::erase_if(setup.plan.notes, [](const std::string& n) { return n.find("fits in the RAM") != std::string::npos; });
  }

  // Every check the largest point needs (O_DIRECT, alignment, space), before any write.
  JobSpec largest = setup.base;
  largest.size = setup.plan.sizes.back();
  for (uint64_t record : setup.plan.records) {
    largest.bs = record;
    if (Status s = file.Check(largest); !s.ok()) return s;
  }
  std::string fs_type;
  if (!file.client_caches()) {
    setup.server_cache_unknown = !setup.ram.nas_bytes;
    if (setup.server_cache_unknown)
      setup.notes.push_back(file.description() +
                            " is a share: the NAS caches the file in its RAM, which is unknown; give --nas-ram to "
                            "mark the points it can cache");
  } else if (IsNetworkFileSystem(o.target, &fs_type)) {
    // O_DIRECT bypasses this machine's cache only: the server's RAM still serves the
    // file, so the points are marked against the NAS's RAM as on a share.
    if (o.direct) {
      setup.direct_on_network_fs = true;
      setup.ram.client_caches = false;
    }
    if (!setup.ram.nas_bytes) {
      setup.server_cache_unknown = true;
      setup.notes.push_back(o.target + " is on a network file system (" + fs_type + "): " +
                            (o.direct ? "O_DIRECT bypasses this machine's cache but not the server's"
                                      : "dropping this machine's cache leaves the server's") +
                            ", whose RAM is unknown; give --nas-ram to mark the points it can cache");
    }
  }
  if (std::optional<sysinfo::DirtyLimits> dirty = sysinfo::ReadDirtyLimits(); dirty && setup.ram.client_caches) {
    setup.dirty_limit_bytes = dirty->limit_bytes();
    const bool writes = std::any_of(setup.plan.tests.begin(), setup.plan.tests.end(),
                                    [](SweepTest t) { return !IsReadTest(t); });
    if (writes && !o.direct && !o.fsync)
      setup.notes.push_back(
          "write points are marked cached up to this machine's dirty-page limit, " +
          FormatApproxSize(dirty->limit_bytes()) +
          (dirty->dirty_bytes > 0 ? std::string(" (vm.dirty_bytes)")
                                  : fmt::format(" (vm.dirty_ratio {} % of {} available)", dirty->dirty_ratio_pct,
                                                FormatApproxSize(dirty->mem_available_bytes))) +
          (setup.ram.nas_bytes ? ", plus the NAS's RAM" : "") + ": past it the writer waits for the device");
  }
  return setup;
}

// "about 3 min left" from the bytes done so far; crude, since small files run at cache speed.
std::string Eta(double elapsed_s, double done_bytes, double total_bytes) {
  if (done_bytes <= 0) return "";
  double left = elapsed_s * (total_bytes - done_bytes) / done_bytes;
  if (left < 60) return fmt::format(", about {:.0f} s left", left);
  return fmt::format(", about {:.0f} min left", left / 60);
}

}  // namespace

int SweepCommand(const SweepCommandOptions& o) {
  Result<TargetOptions> target_options = BuildTargetOptions(o.protocol, o.target);
  if (!target_options.ok()) return ReportFailure(target_options.status());
  Result<std::unique_ptr<SweepableTarget>> made = MakeSweepTarget(o.target, target_options.value());
  if (!made.ok()) return ReportFailure(made.status());
  std::unique_ptr<SweepableTarget> target = std::move(made).value();
  SweepableTarget& file = *target;
  Result<SweepSetup> prepared = Prepare(o, file);
  if (!prepared.ok()) return ReportFailure(prepared.status());
  SweepSetup& setup = prepared.value();
  NoteStaleFiles(o.target);
  Result<RunRecorder> recorder = RunRecorder::Open(o.common, "sweep");
  if (!recorder.ok()) return ReportFailure(recorder.status());

  SweepSummary summary;
  summary.id = recorder.value().invocation_id();
  summary.target = file.description();
  summary.direct = setup.base.direct;
  summary.fsync = setup.base.fsync;
  summary.repeat = setup.base.repeat;
  summary.sizes = setup.plan.sizes;
  summary.records = setup.plan.records;
  for (SweepTest t : setup.plan.tests) summary.tests.push_back(ToString(t));
  summary.max_reason = setup.plan.max_reason;
  summary.ram = setup.ram;
  summary.ram.server_cache_unknown = setup.server_cache_unknown;
  summary.notes = setup.plan.notes;
  summary.notes.insert(summary.notes.end(), setup.notes.begin(), setup.notes.end());
  summary.cache_method = "fsync + posix_fadvise(DONTNEED)";
  if (o.drop_caches) summary.cache_method += " + /proc/sys/vm/drop_caches";
  if (!file.client_caches())
    summary.cache_method = "none needed: the client library keeps no cache (the NAS's own cache is not dropped)";
  else if (setup.direct_on_network_fs)
    summary.cache_method = "none needed: O_DIRECT bypasses this machine's cache (the server's own cache is not dropped)";

  const nlohmann::ordered_json inventory = GatherInventory(file.description());
  ProgressLine progress(!o.common.json);
  double total_bytes = 0, done_bytes = 0;
  for (uint64_t size : setup.plan.sizes)
    for (uint64_t record : setup.plan.records)
      if (setup.plan.Runs(size, record)) total_bytes += static_cast<double>(size) * setup.plan.tests.size();
  const auto started = std::chrono::steady_clock::now();
  const size_t point_count = setup.plan.PointCount();

  std::vector<RunResult> points;
  Status status;
  for (uint64_t record : setup.plan.records) {
    for (uint64_t size : setup.plan.sizes) {
      if (!setup.plan.Runs(size, record)) continue;
      bool written_since_read = true;  // a new pair starts from whatever the last one left
      for (SweepTest test : setup.plan.tests) {
        if (status.ok() && InterruptRequested()) status = Status::Interrupted();
        if (!status.ok()) break;
        JobSpec job = setup.base;
        job.rw = PatternOf(test);
        job.bs = record;
        job.size = size;
        // Cold reads: the file's pages are dropped before each repeat of a read test that
        // follows a write; reread (and a read after a read) keeps them, as iozone does.
        const bool cold = !job.direct && IsReadTest(test) && test != SweepTest::kReread && written_since_read;
        double worst_resident = 0;
        bool dropped = false;
        RunHooks hooks;
        hooks.on_sample = [&](const Sample& s) { progress.Show(s); };
        hooks.before_repeat = [&](uint32_t) -> Status {
          if (test == SweepTest::kWrite) return file.StartNewFile();
          if (!IsReadTest(test)) return Status::Ok();
          // Only whole records are written, so a file of whole records is a complete one.
          if (Status s = file.EnsureData(size - size % record, job.pattern); !s.ok()) return s;
          if (!cold || !file.client_caches()) return Status::Ok();
          Result<CacheDropReport> drop = file.DropCache(o.drop_caches);
          if (!drop.ok()) return drop.status();
          dropped = true;
          worst_resident = std::max(worst_resident, drop.value().resident_pct);
          ++summary.cache_drops;
          summary.max_resident_pct = std::max(summary.max_resident_pct, drop.value().resident_pct);
          return Status::Ok();
        };

        progress.SetLabel(fmt::format("[{}/{}] {} {}, record {}{}", points.size() + 1, point_count, FormatSize(size),
                                      ToString(test), FormatSize(record),
                                      Eta(std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count(),
                                          done_bytes, total_bytes)));
        progress.ShowLabel(points.empty() ? "" : fmt::format("last {:.1f} MB/s", PointMbPerS(points.back())));
        std::string name = o.common.name.empty() ? "sweep" : o.common.name;
        RunResult begun = NewRunRecord(name, setup.tags, file, job, inventory);
        begun.test = ToString(test);
        if (status = recorder.value().Begin(begun); !status.ok()) break;
        RunOutcome outcome = RunRepeated(job, file, RunLabels{name, setup.tags}, hooks);
        progress.Clear();
        RunResult& point = outcome.result;
        point.test = ToString(test);
        point.cached = PointCached({size, IsReadTest(test), job.direct, job.fsync,
                                    dropped && worst_resident < kColdResidentPct},
                                   setup.ram, setup.dirty_limit_bytes);
        if (dropped)
          point.notes.push_back(fmt::format("page cache dropped before each repeat ({}); at most {:.1f} % of the "
                                            "file stayed cached",
                                            summary.cache_method, worst_resident));
        status = outcome.status;
        Status stored = recorder.value().Finish(point, begun);
        if (status.ok()) status = stored;
        points.push_back(std::move(point));
        done_bytes += static_cast<double>(size);
        written_since_read = !IsReadTest(test);
      }
    }
  }
  target.reset();  // removes the test file (on a share too) before anything is printed
  summary.partial = !status.ok();
  summary.id = recorder.value().invocation_id();  // made with the first point
  summary.curves = AnalyseCurves(points, summary);
  Status summarised = recorder.value().SetSummary(SweepToJson(summary));
  if (status.ok()) status = summarised;
  progress.Clear();

  if (o.common.json) {
    nlohmann::ordered_json doc = DocumentToJson(points);
    doc["sweep"] = SweepToJson(summary);
    std::printf("%s\n", doc.dump(2).c_str());
  } else {
    std::printf("%s", SweepTable(summary, points).c_str());
    if (recorder.value().enabled() && recorder.value().all_stored() && summary.id)
      std::printf("stored as sweep s%lld (runs %lld-%lld) in %s\n", static_cast<long long>(summary.id),
                  static_cast<long long>(points.empty() ? 0 : points.front().id),
                  static_cast<long long>(points.empty() ? 0 : points.back().id), recorder.value().path().c_str());
    if (!status.ok() && !points.empty() && !points.back().error.empty())
      std::printf("stopped early: %s\n", points.back().error.c_str());
  }
  std::fflush(stdout);
  return ReportFailure(status);
}

}  // namespace nasperf
