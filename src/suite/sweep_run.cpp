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

namespace {

// Bytes the whole plan moves, for the time estimate.
double PlannedBytes(const SweepPlan& plan) {
  double total_bytes = 0;
  for (uint64_t size : plan.sizes)
    for (uint64_t record : plan.records)
      if (plan.Runs(size, record)) total_bytes += static_cast<double>(size) * plan.tests.size();
  return total_bytes;
}

// One sweep in progress: the points run so far, the time estimate, and the summary they feed.
class SweepLoop {
 public:
  SweepLoop(const SweepSetup& setup, SweepableTarget& file, RunSession& session, SweepOutcome& out)
      : setup_(setup),
        r_(setup.request),
        file_(file),
        session_(session),
        summary_(out.summary),
        points_(out.points),
        status_(out.status),
        total_bytes_(PlannedBytes(setup.plan)),
        started_(std::chrono::steady_clock::now()),
        point_count_(setup.plan.PointCount()),
        name_(r_.name.empty() ? "sweep" : r_.name) {}

  // Every test of the plan at one file size and record size, in the plan's order; stops
  // at the first failure or Ctrl-C, and so do the calls after it.
  void RunTests(uint64_t size, uint64_t record) {
    bool written_since_read = true;  // a new pair starts from whatever the last one left
    for (SweepTest test : setup_.plan.tests) {
      if (status_.ok() && InterruptRequested()) status_ = Status::Interrupted();
      if (!status_.ok()) break;
      SessionJob point;
      // Cold reads: the file's pages are dropped before each repeat of a read test that
      // follows a write; reread (and a read after a read) keeps them, as iozone does.
      const bool cold = !r_.base.direct && IsReadTest(test) && test != SweepTest::kReread && written_since_read;
      ColdReads cold_reads(file_, r_.drop_caches);
      FillPoint(point, size, record, test, cold, cold_reads);
      ShowProgress(size, record, test);
      SessionRun ran = session_.Run(point);
      if (!ran.began) {
        status_ = ran.status;
        break;
      }
      status_ = ran.status;
      if (status_.ok()) status_ = ran.stored;
      points_.push_back(std::move(ran.result));
      done_bytes_ += static_cast<double>(size);
      written_since_read = !IsReadTest(test);
    }
  }

 private:
  // `point`'s job and its hooks; the hooks use `cold_reads` and `point.job`, so both must
  // stay in place until the point has run.
  void FillPoint(SessionJob& point, uint64_t size, uint64_t record, SweepTest test, bool cold,
                 ColdReads& cold_reads) {
    JobSpec& job = point.job;
    job = r_.base;
    job.rw = PatternOf(test);
    job.bs = record;
    job.size = size;
    point.name = name_;
    point.test = ToString(test);
    point.cold_reads = false;  // dropped before each repeat instead, as iozone does
    SweepableTarget& file = file_;
    point.before_repeat = [&file, &job, &cold_reads, size, record, test, cold](uint32_t) -> Status {
      if (test == SweepTest::kWrite) return file.StartNewFile();
      if (!IsReadTest(test)) return Status::Ok();
      // Only whole records are written, so a file of whole records is a complete one.
      if (Status s = file.EnsureData(size - size % record, job.pattern); !s.ok()) return s;
      if (!cold || !file.client_caches()) return Status::Ok();
      return cold_reads.Drop();
    };
    SweepSummary& summary = summary_;
    const SweepSetup& setup = setup_;
    point.finish = [&summary, &setup, &job, &cold_reads, size, test](RunResult& p) {
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
  }

  // "[3/40] 64 MiB read, record 1 MiB, about 2 min left" and the last point's rate.
  void ShowProgress(uint64_t size, uint64_t record, SweepTest test) {
    SuiteProgress& progress = session_.progress();
    progress.SetLabel(
        fmt::format("[{}/{}] {} {}, record {}{}", points_.size() + 1, point_count_, FormatSize(size), ToString(test),
                    FormatSize(record),
                    Eta(std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count(),
                        done_bytes_, total_bytes_)));
    progress.ShowLabel(points_.empty() ? "" : fmt::format("last {:.1f} MB/s", PointMbPerS(points_.back())));
  }

  const SweepSetup& setup_;
  const SweepRequest& r_;
  SweepableTarget& file_;
  RunSession& session_;
  SweepSummary& summary_;
  std::vector<RunResult>& points_;
  Status& status_;
  const double total_bytes_;
  double done_bytes_ = 0;
  const std::chrono::steady_clock::time_point started_;
  const size_t point_count_;
  const std::string name_;
};

}  // namespace

SweepOutcome RunSweepPoints(const SweepSetup& setup, SweepableTarget& file, RunSession& session) {
  SweepOutcome out;
  out.summary = SummaryOf(setup, file.client_caches());
  out.summary.target = file.description();
  SweepLoop loop(setup, file, session, out);
  for (uint64_t record : setup.plan.records)
    for (uint64_t size : setup.plan.sizes)
      if (setup.plan.Runs(size, record)) loop.RunTests(size, record);
  out.summary.partial = !out.status.ok();
  out.summary.curves = AnalyseCurves(out.points, out.summary);
  return out;
}

}  // namespace nasperf
