// RecordAppRun, CopySampler and CacheStateOf (suite/app/app_run.h).
#include "suite/app/app_run.h"

#include <memory>

#include "base/clock.h"
#include "stats/latency_summary.h"

namespace nasperf {
namespace {

constexpr uint64_t kSecondNs = 1'000'000'000;

DirectionResult Direction(uint64_t bytes, double seconds, std::shared_ptr<const LatencyHistogram> kept) {
  const LatencyHistogram& h = *kept;
  DirectionResult d;
  d.bytes = bytes;
  d.ios = h.count();
  d.seconds = seconds;
  d.mb_per_s = seconds > 0 ? bytes / seconds / 1e6 : 0;
  d.iops = seconds > 0 ? h.count() / seconds : 0;
  d.lat = LatencySummaryOf(h);
  d.histogram = std::move(kept);
  return d;
}

}  // namespace

void CopySampler::Start(uint64_t start_ns) {
  start_ns_ = start_ns;
  snapshots_.push_back(Snapshot{start_ns, counters_.read_bytes.load(), counters_.written_bytes.load()});
  thread_ = std::thread([this] {
    uint64_t next = start_ns_ + kSecondNs;
    while (!stop_.load()) {
      const uint64_t now = MonotonicNs();
      if (now < next) {
        std::this_thread::sleep_for(std::chrono::nanoseconds(std::min<uint64_t>(next - now, 50'000'000)));
        continue;
      }
      Take(now);
      next += kSecondNs;
    }
  });
}

void CopySampler::Stop(uint64_t end_ns) {
  if (!thread_.joinable()) return;
  stop_ = true;
  thread_.join();
  Build(end_ns);
}

void CopySampler::Take(uint64_t now_ns) {
  const Snapshot now{now_ns, counters_.read_bytes.load(std::memory_order_relaxed),
                     counters_.written_bytes.load(std::memory_order_relaxed)};
  const Snapshot& last = snapshots_.back();
  const double seconds = static_cast<double>(now.ns - last.ns) / 1e9;
  Sample s;
  s.t_s = static_cast<double>(now.ns - start_ns_) / 1e9;
  s.read_mb_per_s = seconds > 0 ? (now.read - last.read) / seconds / 1e6 : 0;
  s.write_mb_per_s = seconds > 0 ? (now.written - last.written) / seconds / 1e6 : 0;
  snapshots_.push_back(now);
  progress_.Show(s);
}

void CopySampler::Build(uint64_t end_ns) {
  // Snapshots at or past the end hold the final counts already (nothing moves after it).
  while (snapshots_.size() > 1 && snapshots_.back().ns >= end_ns) snapshots_.pop_back();
  const Snapshot last{end_ns, counters_.read_bytes.load(), counters_.written_bytes.load()};
  // The end closes the timeline: with the last bytes, or (a tail that moved none, such as
  // the last fsync) at 0 after a second that did. A run that moved nothing has no sample.
  const bool moved = last.read != snapshots_.back().read || last.written != snapshots_.back().written;
  if (moved || (snapshots_.size() > 1 && end_ns > snapshots_.back().ns)) snapshots_.push_back(last);
  samples_.clear();
  for (size_t i = 1; i < snapshots_.size(); ++i) {
    const Snapshot &a = snapshots_[i - 1], &b = snapshots_[i];
    const double seconds = static_cast<double>(b.ns - a.ns) / 1e9;
    Sample s;
    s.t_s = static_cast<double>(b.ns - start_ns_) / 1e9;
    s.read_mb_per_s = seconds > 0 ? (b.read - a.read) / seconds / 1e6 : 0;
    s.write_mb_per_s = seconds > 0 ? (b.written - a.written) / seconds / 1e6 : 0;
    samples_.push_back(s);
  }
}

AppRunOutcome RecordAppRun(RunSink& sink, const AppRunLabels& labels,
                           const std::function<Status(AppMeasured& measured)>& body) {
  AppRunOutcome out;
  RunResult begun;
  begun.name = labels.name;
  begun.tags = labels.tags;
  begun.target = labels.target;
  begun.job = labels.job;
  begun.engine = "app";
  begun.qd_run = 1;
  begun.inventory = labels.inventory;
  if (out.status = sink.Begin(begun); !out.status.ok()) return out;
  out.began = true;
  AppMeasured m;
  if (labels.ranks) m.before_clock = [&labels] { return labels.ranks->BeforeClock(); };
  out.status = body(m);
  RunResult run = begun;
  run.app = m.app;
  run.samples = std::move(m.samples);
  run.notes = labels.notes;
  run.notes.insert(run.notes.end(), m.notes.begin(), m.notes.end());
  if (labels.fill_pct) run.app->fill_pct = labels.fill_pct;
  run.verified_bytes = m.verified_bytes;
  if (m.read && m.read->count()) run.read = Direction(m.read_bytes, m.app.elapsed_s, m.read);
  if (m.write && m.write->count()) run.write = Direction(m.written_bytes, m.app.elapsed_s, m.write);
  if (!out.status.ok()) {
    run.partial = true;
    run.error = out.status.message();
  }
  if (labels.ranks) {
    const std::optional<OpHistograms> ops = m.op_times ? std::optional(m.op_times->Named()) : std::nullopt;
    run = labels.ranks->AfterRun(std::move(run), ops ? &*ops : nullptr, &out.status);
  }
  out.stored = sink.Finish(run, begun);
  out.result = std::move(run);
  return out;
}

std::string CacheStateOf(const CacheFacts& f) {
  const bool dropped_both = f.client_dropped && (!f.remote_end || f.nas_dropped);
  if (dropped_both) return "cold";
  if (f.client_ram_bytes == 0) return "unknown";
  // A local copy has no server cache; a share's server has one, known only when told.
  if (f.remote_end && !f.nas_ram_bytes) return "unknown";
  const uint64_t ram = f.client_ram_bytes + (f.remote_end ? *f.nas_ram_bytes : 0);
  if (f.data_bytes > ram) return "cold";
  // It fits: staged (or written) just now, it is where the caches keep it unless dropped.
  if (!f.client_dropped && !f.client_evicted_some && !f.nas_dropped) return "warm";
  return "unknown";  // dropped on one end only
}

void DropClientCaches(std::initializer_list<AppFileSystem*> ends, CacheFacts& facts, std::vector<std::string>& notes) {
  bool any = false, all_emptied = true;
  for (AppFileSystem* fs : ends) {
    if (!fs) continue;
    any = true;
    Result<ClientCacheDrop> dropped = fs->DropClientCache();
    if (!dropped.ok()) {
      all_emptied = false;
      notes.push_back("cache not dropped on " + fs->description() + ": " + dropped.status().message());
      continue;
    }
    all_emptied &= dropped.value().emptied;
    facts.client_evicted_some |= dropped.value().evicted && !dropped.value().emptied;
    notes.push_back("cache drop on " + fs->description() + ": " + dropped.value().note);
  }
  facts.client_dropped = any && all_emptied;
}

}  // namespace nasperf
