// PrepareSweep and RunSweepPoints.
#include "suite/sweep_run.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>

#include "base/signals.h"
#include "base/units.h"
#include "suite/cold_reads.h"
#include "suite/point_cache.h"
#include "suite/run_session.h"
#include "suite/sweep_file.h"
#include "sysinfo/dirty_limits.h"
#include "sysinfo/host_info.h"
#include "target/page_cache.h"
#include "sysinfo/mount_info.h"

namespace nasperf {
namespace {

// "about 3 min left" from the bytes done so far; crude, since small files run at cache speed.
std::string Eta(double elapsed_s, double done_bytes, double total_bytes) {
  if (done_bytes <= 0) return "";
  double left = elapsed_s * (total_bytes - done_bytes) / done_bytes;
  if (left < 60) return fmt::format(", about {:.0f} s left", left);
  return fmt::format(", about {:.0f} min left", left / 60);
}

// The cache facts of the file system the sweep runs on, and the notes they call for.
void NoteCaches(const SweepRequest& r, const SweepableTarget& file, SweepSetup& setup) {
  std::string fs_type;
  if (!file.client_caches()) {
    setup.server_cache_unknown = !setup.ram.nas_bytes;
    if (setup.server_cache_unknown)
      setup.notes.push_back(file.description() +
                            " is a share: the NAS caches the file in its RAM, which is unknown; give --nas-ram to "
                            "mark the points it can cache");
  } else if (sysinfo::IsNetworkFileSystem(r.target, &fs_type)) {
    // O_DIRECT bypasses this machine's cache only: the server's RAM still serves the
    // file, so the points are marked against the NAS's RAM as on a share.
    if (r.direct) {
      setup.direct_on_network_fs = true;
      setup.ram.client_caches = false;
    }
    if (!setup.ram.nas_bytes) {
      setup.server_cache_unknown = true;
      setup.notes.push_back(r.target + " is on a network file system (" + fs_type + "): " +
                            (r.direct ? "O_DIRECT bypasses this machine's cache but not the server's"
                                      : "dropping this machine's cache leaves the server's") +
                            ", whose RAM is unknown; give --nas-ram to mark the points it can cache");
    }
  }
  if (std::optional<sysinfo::DirtyLimits> dirty = sysinfo::ReadDirtyLimits(); dirty && setup.ram.client_caches) {
    setup.dirty_limit_bytes = dirty->limit_bytes();
    const bool writes =
        std::any_of(setup.plan.tests.begin(), setup.plan.tests.end(), [](SweepTest t) { return !IsReadTest(t); });
    if (writes && !r.direct && !r.fsync)
      setup.notes.push_back(
          "write points are marked cached up to this machine's dirty-page limit, " +
          FormatApproxSize(dirty->limit_bytes()) +
          (dirty->dirty_bytes > 0 ? std::string(" (vm.dirty_bytes)")
                                  : fmt::format(" (vm.dirty_ratio {} % of {} available)", dirty->dirty_ratio_pct,
                                                FormatApproxSize(dirty->mem_available_bytes))) +
          (setup.ram.nas_bytes ? ", plus the NAS's RAM" : "") + ": past it the writer waits for the device");
  }
}

}  // namespace

Result<SweepSetup> PrepareSweep(const SweepRequest& r, SweepableTarget& file) {
  SweepSetup setup;
  setup.request = r;
  setup.ram.nas_bytes = r.nas_ram_bytes;
  SweepPlanInput in;
  in.min_bytes = r.min_bytes;
  in.max_bytes = r.max_bytes;
  in.records = r.records;
  in.tests = r.tests;
  std::string why;
  if (r.drop_caches && !CanDropSystemCaches(&why)) return Status::BadInput("--drop-caches: " + why);

  MemoryFacts memory = sysinfo::GatherMemory();
  if (!memory.total_bytes) return Status::Io("sweep: cannot read the RAM size from /proc/meminfo");
  setup.ram.client_bytes = *memory.total_bytes;
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
  if (r.direct) {
    // Under O_DIRECT the RAM does not matter: the note about it would mislead.
    std::erase_if(setup.plan.notes,
                  [](const std::string& n) { return n.find("fits in the RAM") != std::string::npos; });
  }

  // Every check the largest point needs (O_DIRECT, alignment, space), before any write.
  JobSpec largest = r.base;
  largest.size = setup.plan.sizes.back();
  for (uint64_t record : setup.plan.records) {
    largest.bs = record;
    if (Status s = file.Check(largest); !s.ok()) return s;
  }
  NoteCaches(r, file, setup);
  return setup;
}

SweepSummary SummaryOf(const SweepSetup& setup, bool client_caches) {
  SweepSummary summary;
  summary.direct = setup.request.base.direct;
  summary.fsync = setup.request.base.fsync;
  summary.repeat = setup.request.base.repeat;
  summary.sizes = setup.plan.sizes;
  summary.records = setup.plan.records;
  for (SweepTest t : setup.plan.tests) summary.tests.push_back(ToString(t));
  summary.max_reason = setup.plan.max_reason;
  summary.ram = setup.ram;
  summary.ram.server_cache_unknown = setup.server_cache_unknown;
  summary.notes = setup.plan.notes;
  summary.notes.insert(summary.notes.end(), setup.notes.begin(), setup.notes.end());
  summary.cache_method = "fsync + posix_fadvise(DONTNEED)";
  if (setup.request.drop_caches) summary.cache_method += " + /proc/sys/vm/drop_caches";
  if (!client_caches)
    summary.cache_method = "none needed: the client library keeps no cache (the NAS's own cache is not dropped)";
  else if (setup.direct_on_network_fs)
    summary.cache_method =
        "none needed: O_DIRECT bypasses this machine's cache (the server's own cache is not dropped)";
  return summary;
}

SweepOutcome RunSweepPoints(const SweepSetup& setup, SweepableTarget& file, RunSession& session) {
  SweepOutcome out;
  SweepSummary& summary = out.summary;
  summary = SummaryOf(setup, file.client_caches());
  summary.target = file.description();
  const SweepRequest& r = setup.request;
  SuiteProgress& progress = session.progress();
  double total_bytes = 0, done_bytes = 0;
  for (uint64_t size : setup.plan.sizes)
    for (uint64_t record : setup.plan.records)
      if (setup.plan.Runs(size, record)) total_bytes += static_cast<double>(size) * setup.plan.tests.size();
  const auto started = std::chrono::steady_clock::now();
  const size_t point_count = setup.plan.PointCount();
  const std::string name = r.name.empty() ? "sweep" : r.name;

  std::vector<RunResult>& points = out.points;
  Status& status = out.status;
  for (uint64_t record : setup.plan.records) {
    for (uint64_t size : setup.plan.sizes) {
      if (!setup.plan.Runs(size, record)) continue;
      bool written_since_read = true;  // a new pair starts from whatever the last one left
      for (SweepTest test : setup.plan.tests) {
        if (status.ok() && InterruptRequested()) status = Status::Interrupted();
        if (!status.ok()) break;
        SessionJob point;
        JobSpec& job = point.job;
        job = r.base;
        job.rw = PatternOf(test);
        job.bs = record;
        job.size = size;
        point.name = name;
        point.test = ToString(test);
        point.cold_reads = false;  // dropped before each repeat instead, as iozone does
        // Cold reads: the file's pages are dropped before each repeat of a read test that
        // follows a write; reread (and a read after a read) keeps them, as iozone does.
        const bool cold = !job.direct && IsReadTest(test) && test != SweepTest::kReread && written_since_read;
        ColdReads cold_reads(file, r.drop_caches);
        point.before_repeat = [&, size, record, test](uint32_t) -> Status {
          if (test == SweepTest::kWrite) return file.StartNewFile();
          if (!IsReadTest(test)) return Status::Ok();
          // Only whole records are written, so a file of whole records is a complete one.
          if (Status s = file.EnsureData(size - size % record, job.pattern); !s.ok()) return s;
          if (!cold || !file.client_caches()) return Status::Ok();
          return cold_reads.Drop();
        };
        point.finish = [&, size, test](RunResult& p) {
          const bool dropped = cold_reads.drops() > 0;
          summary.cache_drops += cold_reads.drops();
          summary.max_resident_pct = std::max(summary.max_resident_pct, cold_reads.max_resident_pct());
          p.cached = PointCached({size, IsReadTest(test), job.direct, job.fsync, cold_reads.FoundCold()}, setup.ram,
                                 setup.dirty_limit_bytes);
          if (dropped)
            p.notes.push_back(
                fmt::format("page cache dropped before each repeat ({}); at most {:.1f} % of the "
                            "file stayed cached",
                            summary.cache_method, cold_reads.max_resident_pct()));
        };

        progress.SetLabel(
            fmt::format("[{}/{}] {} {}, record {}{}", points.size() + 1, point_count, FormatSize(size), ToString(test),
                        FormatSize(record),
                        Eta(std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count(),
                            done_bytes, total_bytes)));
        progress.ShowLabel(points.empty() ? "" : fmt::format("last {:.1f} MB/s", PointMbPerS(points.back())));
        SessionRun ran = session.Run(point);
        if (!ran.began) {
          status = ran.status;
          break;
        }
        status = ran.status;
        if (status.ok()) status = ran.stored;
        points.push_back(std::move(ran.result));
        done_bytes += static_cast<double>(size);
        written_since_read = !IsReadTest(test);
      }
    }
  }
  summary.partial = !status.ok();
  summary.curves = AnalyseCurves(points, summary);
  return out;
}

}  // namespace nasperf
