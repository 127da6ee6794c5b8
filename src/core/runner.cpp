// RunJob: threads, the sampling loop and aggregation of worker outputs.
#include "core/runner.h"

#include <sys/resource.h>

#include <algorithm>
#include <atomic>
#include <memory>
#include <optional>
#include <thread>
#include <vector>

#include "base/units.h"
#include "core/pacing_facts.h"
#include "core/run_stop.h"
#include "core/steady_state.h"
#include "stats/latency_summary.h"
#include "core/worker.h"
#include "base/clock.h"
#include "base/signals.h"
#include "stats/confidence.h"
#include "stats/histogram.h"
#include "workload/block_size_mix.h"
#include "workload/data_sample.h"
#include "workload/run_seed.h"

namespace nasperf {
namespace {

constexpr uint64_t kSampleIntervalNs = 1000000000ull;
constexpr uint64_t kPollIntervalNs = 20000000ull;

double TimevalSeconds(const timeval& tv) { return static_cast<double>(tv.tv_sec) + tv.tv_usec / 1e6; }

struct CpuClock {
  double user_s = 0, sys_s = 0;
  static CpuClock Now() {
    rusage ru{};
    getrusage(RUSAGE_SELF, &ru);
    return {TimevalSeconds(ru.ru_utime), TimevalSeconds(ru.ru_stime)};
  }
};

// One worker thread's engine, buffers and outputs, set up before the clock starts.
struct WorkerSlot {
  std::unique_ptr<Engine> engine;
  std::unique_ptr<BufferPool> buffers;
  std::unique_ptr<WorkerOutput> output;
  uint32_t depth = 1;
  Status open_status;
  WorkerProgress progress;
  WorkerContext ctx;
  std::unique_ptr<WrittenBlocks> written;  // --verify only
};

}  // namespace

DirectionResult SummariseDirection(uint64_t bytes, uint64_t ios, double seconds, uint64_t errors,
                                   std::shared_ptr<const LatencyHistogram> histogram) {
  DirectionResult d;
  d.bytes = bytes;
  d.ios = ios;
  d.seconds = seconds;
  d.errors = errors;
  if (seconds > 0) {
    d.mb_per_s = static_cast<double>(bytes) / seconds / 1e6;
    d.iops = static_cast<double>(ios) / seconds;
  }
  if (histogram) d.lat = LatencySummaryOf(*histogram);
  d.histogram = std::move(histogram);
  return d;
}

RunOutcome StartOutcome(const JobSpec& job, const Target& target, const RunLabels& labels) {
  RunOutcome outcome;
  RunResult& r = outcome.result;
  r.name = labels.name;
  r.tags = labels.tags;
  r.target = target.description();
  r.job = job;
  r.engine = EngineFor(job, target);
  // Protocol targets know after Check how the server was reached; others give nullopt
  // (an agent's directory too: its runs replace this record with what the agent sent).
  r.protocol = target.protocol_facts();
  return outcome;
}

namespace {

// Ends a run that failed before its clock started: partial, with why.
RunOutcome FailedBeforeClock(RunOutcome outcome, const Status& status) {
  outcome.status = status;
  outcome.result.partial = true;
  outcome.result.error = status.message();
  return outcome;
}

// One engine, buffer pool and output per thread, made before any thread starts. A failure
// returns the status with no partial mark, as the run never began.
Status MakeWorkerSlots(const JobSpec& job, const std::vector<WorkerFile>& files, const std::string& engine_name,
                       uint64_t run_seed, const RunHooks& hooks, Target& target,
                       std::vector<std::unique_ptr<WorkerSlot>>& slots) {
  for (uint32_t t = 0; t < job.threads; ++t) {
    auto slot = std::make_unique<WorkerSlot>();
    Result<std::unique_ptr<Engine>> engine = hooks.make_engine ? hooks.make_engine(engine_name) : target.MakeEngine(job);
    if (!engine.ok()) return engine.status();
    slot->engine = std::move(engine).value();
    slot->depth = slot->engine->caps().asynchronous ? job.qd : 1;
    Result<BufferPool> pool =
        BufferPool::Create(slot->depth, job.bs, job.pattern, StreamSeed(run_seed, SeedStream::kBuffers, t),
                           DoesWrites(job.rw));
    if (!pool.ok()) return pool.status();
    slot->buffers = std::make_unique<BufferPool>(std::move(pool).value());
    slot->output = std::make_unique<WorkerOutput>();
    // Service time beside latency from the intended start: only a rate sets one.
    if (job.pacing.scheduled()) {
      slot->output->read_service = std::make_unique<LatencyHistogram>();
      slot->output->write_service = std::make_unique<LatencyHistogram>();
    }
    if (job.verify) {
      const uint64_t region = files[t].region_bytes;
      slot->written = std::make_unique<WrittenBlocks>(std::max<uint64_t>(region / job.bs, 1));
    }
    slots.push_back(std::move(slot));
  }
  return Status::Ok();
}

// The worker threads, held at the start line until Go() or Abandon().
struct WorkerThreads {
  std::atomic<uint32_t> ready{0};
  std::atomic<int> go{0};  // 1: start, -1: abandon (an engine failed to open)
  std::vector<std::thread> threads;

  // Each engine is opened on its own thread (an io_uring ring set up for a single issuer
  // must be used by the thread that made it); returns once all are ready, with the first
  // engine's failure to open.
  Status OpenEngines(const JobSpec& job, const std::vector<WorkerFile>& files,
                     std::vector<std::unique_ptr<WorkerSlot>>& slots) {
    for (uint32_t t = 0; t < job.threads; ++t) {
      WorkerSlot& s = *slots[t];
      const WorkerFile& file = files[t];
      threads.emplace_back([this, &s, &file, &job] {
        s.open_status = s.engine->open(EngineOpenParams{file.fd.get(), file.remote.get(), s.buffers->pointers(),
                                                        s.buffers->block_bytes(), s.depth, job.direct, job.threads});
        ready.fetch_add(1, std::memory_order_acq_rel);
        int signal;
        while ((signal = go.load(std::memory_order_acquire)) == 0) std::this_thread::yield();
        if (signal > 0) RunWorker(s.ctx, *s.engine, file, *s.buffers, s.progress, *s.output);
        s.progress.done.store(true, std::memory_order_release);
      });
    }
    while (ready.load(std::memory_order_acquire) < job.threads) std::this_thread::yield();
    for (auto& s : slots)
      if (!s->open_status.ok()) return s->open_status;
    return Status::Ok();
  }
  void Go() { go.store(1, std::memory_order_release); }
  void Abandon() {
    go.store(-1, std::memory_order_release);
    Join();
  }
  void Join() {
    for (std::thread& t : threads) t.join();
    threads.clear();
  }
};

// When the run's phases begin and end, on the runner's clock.
struct RunClock {
  uint64_t start_ns = 0;
  uint64_t measure_start_ns = 0;  // the ramp's end
  uint64_t deadline_ns = 0;       // 0: size-bound
};

RunClock StartClock(const JobSpec& job, Clock& clock) {
  RunClock c;
  c.start_ns = clock.NowNs();
  c.measure_start_ns = c.start_ns + static_cast<uint64_t>(job.ramp_s * 1e9);
  c.deadline_ns = job.time_s > 0 ? c.measure_start_ns + static_cast<uint64_t>(job.time_s * 1e9) : 0;
  return c;
}

// The sampler: once a second, the bytes every worker has published since the last look.
class Sampler {
 public:
  // `steady` (may be null): --steady's watch, fed each full interval; once it holds,
  // `stop` ends the run normally (its fsync and --verify still run).
  Sampler(const std::vector<std::unique_ptr<WorkerSlot>>& slots, const RunClock& clock, const RunHooks& hooks,
          std::vector<Sample>& samples, SteadyWatch* steady = nullptr, SteadyRule::Metric metric = {},
          RunStop* stop = nullptr)
      : slots_(slots), hooks_(hooks), samples_(samples), measure_start_ns_(clock.measure_start_ns),
        last_sample_ns_(clock.measure_start_ns), steady_(steady), metric_(metric), stop_(stop) {}

  void Take(uint64_t now, bool full_interval = true) {
    uint64_t read = 0, write = 0, ios = 0;
    for (auto& s : slots_) {
      read += s->progress.read_bytes.load(std::memory_order_relaxed);
      write += s->progress.write_bytes.load(std::memory_order_relaxed);
      ios += s->progress.ios.load(std::memory_order_relaxed);
    }
    double interval_s = static_cast<double>(now - last_sample_ns_) / 1e9;
    Sample sample{static_cast<double>(now - measure_start_ns_) / 1e9, (read - last_read_) / interval_s / 1e6,
                  (write - last_write_) / interval_s / 1e6};
    samples_.push_back(sample);
    if (hooks_.on_sample) hooks_.on_sample(sample);
    if (steady_ && full_interval && !steady_->reached()) {
      const double value = metric_ == SteadyRule::Metric::kIops ? (ios - last_ios_) / interval_s
                                                                : sample.read_mb_per_s + sample.write_mb_per_s;
      if (steady_->Add(sample.t_s, value)) stop_->Finish();
    }
    last_sample_ns_ = now;
    last_read_ = read;
    last_write_ = write;
    last_ios_ = ios;
  }
  // Once a second after the ramp.
  void Poll(uint64_t now) {
    if (now >= measure_start_ns_ && now - last_sample_ns_ >= kSampleIntervalNs) Take(now);
  }
  // The last, shorter interval is a sample too, unless it is too short to mean anything
  // (and it is not one of --steady's per-second figures).
  void Finish(uint64_t end_ns) {
    if (end_ns > last_sample_ns_ && end_ns - last_sample_ns_ >= kSampleIntervalNs / 5) Take(end_ns, false);
  }

 private:
  const std::vector<std::unique_ptr<WorkerSlot>>& slots_;
  const RunHooks& hooks_;
  std::vector<Sample>& samples_;
  uint64_t measure_start_ns_;
  uint64_t last_sample_ns_;
  uint64_t last_read_ = 0, last_write_ = 0, last_ios_ = 0;
  SteadyWatch* steady_;
  SteadyRule::Metric metric_;
  RunStop* stop_;
};

// What the sampling loop saw while the workers ran.
struct Watched {
  bool interrupted = false;
  bool aborted = false;  // stopped as an error stops: the workers skipped fsync and --verify
  bool cpu_started = false;
  CpuClock cpu_start, cpu_end;
};

// Samples until every worker is done, turning Ctrl-C into a stop; CPU time counts from
// the ramp's end.
Watched WatchWorkers(const JobSpec& job, const std::vector<std::unique_ptr<WorkerSlot>>& slots, const RunClock& phases,
                     Clock& clock, Sampler& sampler, const RunHooks& hooks, RunStop& stop) {
  Watched w;
  w.cpu_started = job.ramp_s <= 0;
  w.cpu_start = CpuClock::Now();
  while (true) {
    bool all_done = std::all_of(slots.begin(), slots.end(),
                                [](const auto& s) { return s->progress.done.load(std::memory_order_acquire); });
    if (all_done) break;
    if (!w.interrupted && InterruptRequested()) {
      w.interrupted = true;
      stop.Abort();
    }
    if (hooks.stop_requested) stop.Request(hooks.stop_requested());
    uint64_t now = clock.NowNs();
    if (!w.cpu_started && now >= phases.measure_start_ns) {
      w.cpu_start = CpuClock::Now();
      w.cpu_started = true;
    }
    sampler.Poll(now);
    clock.SleepNs(kPollIntervalNs);
  }
  return w;
}

// Every worker's counts and latencies together; each engine is closed here.
struct Totals {
  uint64_t end_ns = 0;
  std::shared_ptr<LatencyHistogram> read_hist = std::make_shared<LatencyHistogram>();
  std::shared_ptr<LatencyHistogram> write_hist = std::make_shared<LatencyHistogram>();
  std::shared_ptr<LatencyHistogram> read_service, write_service;  // jobs with a rate only
  uint64_t read_bytes = 0, write_bytes = 0, read_ios = 0, write_ios = 0, errors = 0;
  uint64_t verified_bytes = 0, written_bytes = 0;
  Status first_error;
  // Per size of a mix (workload/block_size_mix.h's plan order), merged over the threads.
  struct Size {
    std::shared_ptr<LatencyHistogram> read_hist = std::make_shared<LatencyHistogram>();
    std::shared_ptr<LatencyHistogram> write_hist = std::make_shared<LatencyHistogram>();
    uint64_t read_bytes = 0, write_bytes = 0, read_ios = 0, write_ios = 0;
  };
  std::vector<Size> per_size;
};

void AddSizes(const WorkerOutput& o, Totals& t) {
  if (t.per_size.size() < o.per_size.size()) t.per_size.resize(o.per_size.size());
  for (size_t i = 0; i < o.per_size.size(); ++i) {
    const SizeCounters& c = o.per_size[i];
    Totals::Size& size = t.per_size[i];
    size.read_hist->Merge(c.read_latency);
    size.write_hist->Merge(c.write_latency);
    size.read_bytes += c.read_bytes;
    size.write_bytes += c.write_bytes;
    size.read_ios += c.read_ios;
    size.write_ios += c.write_ios;
  }
}

// RunResult::per_size of a mixed-size job: each size in the plan's order, with the
// directions whose mix holds it.
std::vector<SizeResult> SummariseSizes(const JobSpec& job, const Totals& t, double seconds) {
  std::vector<SizeResult> out;
  if (!HasBlockSizeMix(job)) return out;
  const BlockSizePlan plan = PlanBlockSizes(job);
  auto holds = [](const std::vector<BlockSizeShare>& mix, uint64_t bytes) {
    return std::any_of(mix.begin(), mix.end(), [bytes](const BlockSizeShare& s) { return s.bytes == bytes; });
  };
  for (size_t i = 0; i < plan.sizes.size(); ++i) {
    SizeResult r;
    r.bs = plan.sizes[i];
    const Totals::Size none;
    const Totals::Size& size = i < t.per_size.size() ? t.per_size[i] : none;
    if (DoesReads(job.rw) && holds(plan.read, r.bs))
      r.read = SummariseDirection(size.read_bytes, size.read_ios, seconds, 0, size.read_hist);
    if (DoesWrites(job.rw) && holds(plan.write, r.bs))
      r.write = SummariseDirection(size.write_bytes, size.write_ios, seconds, 0, size.write_hist);
    out.push_back(std::move(r));
  }
  return out;
}

Totals Aggregate(const JobSpec& job, const std::vector<std::unique_ptr<WorkerSlot>>& slots, uint64_t measure_start_ns) {
  Totals t;
  t.end_ns = measure_start_ns;
  for (auto& s : slots) {
    const WorkerOutput& o = *s->output;
    t.verified_bytes += o.verified_bytes;
    if (s->written) t.written_bytes += s->written->Count() * job.bs;
    t.end_ns = std::max(t.end_ns, o.end_ns);
    t.read_hist->Merge(o.read_latency);
    t.write_hist->Merge(o.write_latency);
    for (auto [mine, theirs] : {std::pair{&t.read_service, o.read_service.get()},
                                std::pair{&t.write_service, o.write_service.get()}}) {
      if (!theirs) continue;
      if (!*mine) *mine = std::make_shared<LatencyHistogram>();
      (*mine)->Merge(*theirs);
    }
    t.read_bytes += o.read_bytes;
    t.write_bytes += o.write_bytes;
    t.read_ios += o.read_ios;
    t.write_ios += o.write_ios;
    t.errors += o.errors;
    AddSizes(o, t);
    if (!o.error.ok() && t.first_error.ok()) t.first_error = o.error;
    s->engine->close();
  }
  return t;
}

// The run's figures, notes and end state from what was measured.
void Summarise(const JobSpec& job, const RunClock& clock, const Totals& t, const Watched& w, uint64_t now_ns,
               RunOutcome& outcome) {
  RunResult& r = outcome.result;
  if (!t.first_error.ok() && outcome.status.ok()) outcome.status = t.first_error;
  double seconds = static_cast<double>(t.end_ns - clock.measure_start_ns) / 1e9;
  if (DoesReads(job.rw) || t.read_ios > 0) r.read = SummariseDirection(t.read_bytes, t.read_ios, seconds, 0, t.read_hist);
  if (DoesWrites(job.rw) || t.write_ios > 0)
    r.write = SummariseDirection(t.write_bytes, t.write_ios, seconds, 0, t.write_hist);
  r.per_size = SummariseSizes(job, t, seconds);
  if (r.read) r.read->errors = t.errors;  // failures are counted once, on the side that did I/O
  else if (r.write) r.write->errors = t.errors;
  if (job.pacing.paced()) r.pacing = MeasurePacing(job, r.read, r.write, seconds, t.read_service, t.write_service);
  double wall_s =
      static_cast<double>(now_ns - (w.cpu_started && job.ramp_s > 0 ? clock.measure_start_ns : clock.start_ns)) / 1e9;
  if (wall_s > 0) {
    r.cpu.user_pct = (w.cpu_end.user_s - w.cpu_start.user_s) / wall_s * 100;
    r.cpu.sys_pct = (w.cpu_end.sys_s - w.cpu_start.sys_s) / wall_s * 100;
  }
  if (job.verify) {
    r.verified_bytes = t.verified_bytes;
    if (outcome.status.ok() && !w.interrupted && !w.aborted)
      r.notes.push_back("verify: read back all " + FormatSize(t.written_bytes) +
                        " this run wrote; every byte as written" +
                        (job.direct || r.protocol ? "" : " (through the page cache: add --direct to read the disk)"));
  }
  if (w.interrupted) {
    r.partial = true;
    r.error = "interrupted by signal";
    if (outcome.status.ok()) outcome.status = Status::Interrupted();
  } else if (!outcome.status.ok()) {
    r.partial = true;
    r.error = outcome.status.message();
  }
}

}  // namespace

RunOutcome RunJob(const JobSpec& job, Target& target, const RunLabels& labels, const RunHooks& hooks) {
  RunOutcome outcome = StartOutcome(job, target, labels);
  RunResult& r = outcome.result;
  // Drawn before anything can fail, so that even a partial run says what it ran with.
  const uint64_t run_seed = job.seed ? *job.seed : NewRunSeed();
  r.job.seed = run_seed;
  if (DoesWrites(job.rw)) r.data = DescribeWriteData(job.pattern, job.verify, job.bs, run_seed);

  Result<std::vector<WorkerFile>> files = target.Open(job);
  if (!files.ok()) return FailedBeforeClock(std::move(outcome), files.status());
  if (hooks.before_clock) {
    if (Status s = hooks.before_clock(); !s.ok()) return FailedBeforeClock(std::move(outcome), s);
  }

  std::vector<std::unique_ptr<WorkerSlot>> slots;
  if (Status s = MakeWorkerSlots(job, files.value(), r.engine, run_seed, hooks, target, slots); !s.ok()) return {r, s};
  r.qd_run = slots.front()->depth;
  if (!slots.front()->engine->caps().asynchronous && job.qd > 1)
    r.notes.push_back(std::string(r.engine) + " is synchronous: --qd " + std::to_string(job.qd) +
                      " runs as qd 1 per thread");

  // The clock starts when every engine is open.
  WorkerThreads threads;
  if (Status open_failure = threads.OpenEngines(job, files.value(), slots); !open_failure.ok()) {
    threads.Abandon();
    for (auto& s : slots) s->engine->close();
    r.partial = true;
    r.error = open_failure.message();
    return {r, open_failure};
  }

  if (hooks.before_start) {
    if (Status s = hooks.before_start(); !s.ok()) {
      threads.Abandon();
      for (auto& slot : slots) slot->engine->close();
      r.partial = true;
      r.error = s.message();
      return {r, s};
    }
  }

  RunStop stop;
  Clock& run_clock = hooks.clock ? *hooks.clock : MonotonicClock();
  const RunClock clock = StartClock(job, run_clock);
  // A new seed each run: a write that never landed leaves an earlier run's data, which
  // then fails the check.
  const uint64_t verify_seed = job.verify ? NewVerifySeed() | 1 : 0;
  for (uint32_t t = 0; t < job.threads; ++t)
    slots[t]->ctx = WorkerContext{&job, t, clock.measure_start_ns, clock.deadline_ns, &stop, r.target, verify_seed,
                                  slots[t]->written.get(), run_seed, hooks.clock};
  threads.Go();

  std::optional<SteadyWatch> steady;
  if (job.steady.metric != SteadyRule::Metric::kNone) steady.emplace(job.steady);
  Sampler sampler(slots, clock, hooks, r.samples, steady ? &*steady : nullptr, job.steady.metric, &stop);
  Watched watched = WatchWorkers(job, slots, clock, run_clock, sampler, hooks, stop);
  threads.Join();
  watched.cpu_end = CpuClock::Now();
  watched.aborted = stop.aborted();

  Totals totals = Aggregate(job, slots, clock.measure_start_ns);
  sampler.Finish(totals.end_ns);
  Summarise(job, clock, totals, watched, run_clock.NowNs(), outcome);
  if (steady) r.steady = steady->facts();
  return outcome;
}

RepeatFigures FiguresOf(const RunResult& r) {
  RepeatFigures f;
  f.seed = r.job.seed.value_or(0);
  if (r.read) {
    f.read_mb_per_s = r.read->mb_per_s;
    f.read_iops = r.read->iops;
    f.read_lat_mean_us = r.read->lat.mean_us;
    f.read_lat_p99_us = r.read->lat.p99_us;
    f.seconds = r.read->seconds;
  }
  if (r.write) {
    f.write_mb_per_s = r.write->mb_per_s;
    f.write_iops = r.write->iops;
    f.write_lat_mean_us = r.write->lat.mean_us;
    f.write_lat_p99_us = r.write->lat.p99_us;
    f.seconds = std::max(f.seconds, r.write->seconds);
  }
  return f;
}

RunOutcome RunRepeated(const JobSpec& job, Target& target, const RunLabels& labels, const RunHooks& hooks) {
  // Each repeat runs with its own seed, so that repeat 2 cannot be served from what repeat
  // 1 left in a cache: the series seed (given or fresh) for the first, derived ones after.
  const uint64_t series_seed = job.seed ? *job.seed : NewRunSeed();
  std::vector<RunOutcome> repeats;
  bool repeat_until_met = false;
  for (uint32_t i = 0; i < job.repeat; ++i) {
    JobSpec this_repeat = job;
    this_repeat.seed = RepeatSeed(series_seed, i);
    if (hooks.before_repeat) {
      if (Status s = hooks.before_repeat(i); !s.ok()) {
        RunOutcome failed = StartOutcome(this_repeat, target, labels);
        failed.result.partial = true;
        failed.result.error = s.message();
        failed.status = s;
        repeats.push_back(std::move(failed));
        break;
      }
    }
    repeats.push_back(RunJob(this_repeat, target, labels, hooks));
    if (!repeats.back().status.ok()) break;
    if (job.repeat_until_ci_pct > 0) {
      std::vector<double> totals;
      for (const RunOutcome& o : repeats) totals.push_back(FiguresOf(o.result).total_mb_per_s());
      if (RepeatUntilStops(totals, job.repeat_until_ci_pct)) {
        repeat_until_met = true;
        break;
      }
    }
  }
  if (repeats.size() == 1) {
    if (job.repeat_until_ci_pct > 0) {
      repeats.front().result.repeat_until_met = false;
      repeats.front().result.repeat_until_min_repeats = kRepeatUntilMinRepeats;
    }
    return std::move(repeats.front());
  }
  // A failed repeat ends the series; the finished ones are kept with it, so the stored
  // partial run still shows what was measured before the failure.
  if (!repeats.back().status.ok()) {
    RunOutcome failed = std::move(repeats.back());
    repeats.pop_back();
    for (const RunOutcome& o : repeats) failed.result.repeats.push_back(FiguresOf(o.result));
    failed.result.job.seed = series_seed;  // what --seed takes to run the series again
    if (job.repeat_until_ci_pct > 0) {
      failed.result.repeat_until_met = false;
      failed.result.repeat_until_min_repeats = kRepeatUntilMinRepeats;
    }
    return failed;
  }
  std::vector<RepeatFigures> figures;
  for (const RunOutcome& o : repeats) figures.push_back(FiguresOf(o.result));
  std::vector<size_t> order(repeats.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(),
            [&](size_t a, size_t b) { return figures[a].total_mb_per_s() < figures[b].total_mb_per_s(); });
  RunOutcome median = std::move(repeats[order[(order.size() - 1) / 2]]);
  median.result.repeats = std::move(figures);
  // The run's figures are the median repeat's, but its seed is the series': --seed with
  // it runs the whole series again (each repeat's own seed is in `repeats`).
  median.result.job.seed = series_seed;
  if (job.repeat_until_ci_pct > 0) {
    median.result.repeat_until_met = repeat_until_met;
    median.result.repeat_until_min_repeats = kRepeatUntilMinRepeats;
  }
  return median;
}

}  // namespace nasperf
