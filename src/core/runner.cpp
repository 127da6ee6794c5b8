// RunJob: threads, the sampling loop and aggregation of worker outputs.
#include "core/runner.h"

#include <sys/resource.h>

#include <algorithm>
#include <atomic>
#include <memory>
#include <thread>
#include <vector>

#include "base/units.h"
#include "core/worker.h"
#include "base/clock.h"
#include "base/signals.h"
#include "stats/histogram.h"
#include "workload/data_sample.h"
#include "workload/run_seed.h"

namespace nasperf {
namespace {

constexpr uint64_t kSampleIntervalNs = 1000000000ull;
constexpr auto kPollInterval = std::chrono::milliseconds(20);

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
  if (histogram) {
    d.lat.mean_us = histogram->mean_ns() / 1000;
    d.lat.p50_us = histogram->Percentile(0.50) / 1000;
    d.lat.p90_us = histogram->Percentile(0.90) / 1000;
    d.lat.p99_us = histogram->Percentile(0.99) / 1000;
    d.lat.p999_us = histogram->Percentile(0.999) / 1000;
    d.lat.max_us = static_cast<double>(histogram->max_ns()) / 1000;
  }
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

RunOutcome RunJob(const JobSpec& job, Target& target, const RunLabels& labels, const RunHooks& hooks) {
  RunOutcome outcome = StartOutcome(job, target, labels);
  RunResult& r = outcome.result;
  // Drawn before anything can fail, so that even a partial run says what it ran with.
  const uint64_t run_seed = job.seed ? *job.seed : NewRunSeed();
  r.job.seed = run_seed;
  if (DoesWrites(job.rw)) r.data = DescribeWriteData(job.pattern, job.verify, job.bs, run_seed);

  Result<std::vector<WorkerFile>> files = target.Open(job);
  if (!files.ok()) {
    outcome.status = files.status();
    r.partial = true;
    r.error = files.status().message();
    return outcome;
  }
  if (hooks.before_clock) {
    if (Status s = hooks.before_clock(); !s.ok()) {
      outcome.status = s;
      r.partial = true;
      r.error = s.message();
      return outcome;
    }
  }

  std::atomic<bool> stop{false};
  std::vector<std::unique_ptr<WorkerSlot>> slots;
  for (uint32_t t = 0; t < job.threads; ++t) {
    auto slot = std::make_unique<WorkerSlot>();
    Result<std::unique_ptr<Engine>> engine = hooks.make_engine ? hooks.make_engine(r.engine) : target.MakeEngine(job);
    if (!engine.ok()) return {r, engine.status()};
    slot->engine = std::move(engine).value();
    slot->depth = slot->engine->caps().asynchronous ? job.qd : 1;
    Result<BufferPool> pool =
        BufferPool::Create(slot->depth, job.bs, job.pattern, StreamSeed(run_seed, SeedStream::kBuffers, t));
    if (!pool.ok()) return {r, pool.status()};
    slot->buffers = std::make_unique<BufferPool>(std::move(pool).value());
    slot->output = std::make_unique<WorkerOutput>();
    if (job.verify) {
      const uint64_t region = files.value()[t].region_bytes;
      slot->written = std::make_unique<WrittenBlocks>(std::max<uint64_t>(region / job.bs, 1));
    }
    slots.push_back(std::move(slot));
  }
  r.qd_run = slots.front()->depth;
  if (!slots.front()->engine->caps().asynchronous && job.qd > 1)
    r.notes.push_back(std::string(r.engine) + " is synchronous: --qd " + std::to_string(job.qd) +
                      " runs as qd 1 per thread");

  // Each engine is opened on its own thread (an io_uring ring set up for a single issuer
  // must be used by the thread that made it); the clock starts when all are ready.
  std::atomic<uint32_t> ready{0};
  std::atomic<int> go{0};  // 1: start, -1: abandon (an engine failed to open)
  std::vector<std::thread> threads;
  for (uint32_t t = 0; t < job.threads; ++t) {
    WorkerSlot& s = *slots[t];
    threads.emplace_back([&s, &files, &ready, &go, &job, t] {
      s.open_status = s.engine->open(
          EngineOpenParams{files.value()[t].fd.get(), files.value()[t].remote.get(), s.buffers->pointers(),
                           s.buffers->block_bytes(), s.depth, job.direct, job.threads});
      ready.fetch_add(1, std::memory_order_acq_rel);
      int signal;
      while ((signal = go.load(std::memory_order_acquire)) == 0) std::this_thread::yield();
      if (signal > 0) RunWorker(s.ctx, *s.engine, files.value()[t], *s.buffers, s.progress, *s.output);
      s.progress.done.store(true, std::memory_order_release);
    });
  }
  while (ready.load(std::memory_order_acquire) < job.threads) std::this_thread::yield();
  Status open_failure;
  for (auto& s : slots)
    if (!s->open_status.ok() && open_failure.ok()) open_failure = s->open_status;
  if (!open_failure.ok()) {
    go.store(-1, std::memory_order_release);
    for (std::thread& t : threads) t.join();
    for (auto& s : slots) s->engine->close();
    r.partial = true;
    r.error = open_failure.message();
    return {r, open_failure};
  }

  const uint64_t start_ns = MonotonicNs();
  const uint64_t measure_start_ns = start_ns + static_cast<uint64_t>(job.ramp_s * 1e9);
  const uint64_t deadline_ns = job.time_s > 0 ? measure_start_ns + static_cast<uint64_t>(job.time_s * 1e9) : 0;
  // A new seed each run: a write that never landed leaves an earlier run's data, which
  // then fails the check.
  const uint64_t verify_seed = job.verify ? NewVerifySeed() | 1 : 0;
  for (uint32_t t = 0; t < job.threads; ++t)
    slots[t]->ctx = WorkerContext{&job, t, measure_start_ns, deadline_ns, &stop, r.target, verify_seed,
                                  slots[t]->written.get(), run_seed};
  go.store(1, std::memory_order_release);

  // The sampler: once a second, the bytes every worker has published since the last look.
  bool interrupted = false;
  bool cpu_started = job.ramp_s <= 0;
  CpuClock cpu_start = CpuClock::Now();
  uint64_t last_sample_ns = measure_start_ns, last_read = 0, last_write = 0;
  auto take_sample = [&](uint64_t now) {
    uint64_t read = 0, write = 0;
    for (auto& s : slots) {
      read += s->progress.read_bytes.load(std::memory_order_relaxed);
      write += s->progress.write_bytes.load(std::memory_order_relaxed);
    }
    double interval_s = static_cast<double>(now - last_sample_ns) / 1e9;
    Sample sample{static_cast<double>(now - measure_start_ns) / 1e9, (read - last_read) / interval_s / 1e6,
                  (write - last_write) / interval_s / 1e6};
    r.samples.push_back(sample);
    if (hooks.on_sample) hooks.on_sample(sample);
    last_sample_ns = now;
    last_read = read;
    last_write = write;
  };
  while (true) {
    bool all_done = std::all_of(slots.begin(), slots.end(),
                                [](const auto& s) { return s->progress.done.load(std::memory_order_acquire); });
    if (all_done) break;
    if (!interrupted && InterruptRequested()) {
      interrupted = true;
      stop.store(true, std::memory_order_relaxed);
    }
    uint64_t now = MonotonicNs();
    if (!cpu_started && now >= measure_start_ns) {
      cpu_start = CpuClock::Now();
      cpu_started = true;
    }
    if (now >= measure_start_ns && now - last_sample_ns >= kSampleIntervalNs) take_sample(now);
    std::this_thread::sleep_for(kPollInterval);
  }
  for (std::thread& t : threads) t.join();
  CpuClock cpu_end = CpuClock::Now();

  // Aggregate.
  uint64_t end_ns = measure_start_ns;
  auto read_hist = std::make_shared<LatencyHistogram>();
  auto write_hist = std::make_shared<LatencyHistogram>();
  uint64_t read_bytes = 0, write_bytes = 0, read_ios = 0, write_ios = 0, errors = 0;
  uint64_t verified_bytes = 0, written_bytes = 0;
  for (auto& s : slots) {
    const WorkerOutput& o = *s->output;
    verified_bytes += o.verified_bytes;
    if (s->written) written_bytes += s->written->Count() * job.bs;
    end_ns = std::max(end_ns, o.end_ns);
    read_hist->Merge(o.read_latency);
    write_hist->Merge(o.write_latency);
    read_bytes += o.read_bytes;
    write_bytes += o.write_bytes;
    read_ios += o.read_ios;
    write_ios += o.write_ios;
    errors += o.errors;
    if (!o.error.ok() && outcome.status.ok()) outcome.status = o.error;
    s->engine->close();
  }
  // The last, shorter interval is a sample too, unless it is too short to mean anything.
  if (end_ns > last_sample_ns && end_ns - last_sample_ns >= kSampleIntervalNs / 5) take_sample(end_ns);

  double seconds = static_cast<double>(end_ns - measure_start_ns) / 1e9;
  if (DoesReads(job.rw) || read_ios > 0) r.read = SummariseDirection(read_bytes, read_ios, seconds, 0, read_hist);
  if (DoesWrites(job.rw) || write_ios > 0)
    r.write = SummariseDirection(write_bytes, write_ios, seconds, 0, write_hist);
  if (r.read) r.read->errors = errors;  // failures are counted once, on the side that did I/O
  else if (r.write) r.write->errors = errors;
  double wall_s = static_cast<double>(MonotonicNs() - (cpu_started && job.ramp_s > 0 ? measure_start_ns : start_ns)) / 1e9;
  if (wall_s > 0) {
    r.cpu.user_pct = (cpu_end.user_s - cpu_start.user_s) / wall_s * 100;
    r.cpu.sys_pct = (cpu_end.sys_s - cpu_start.sys_s) / wall_s * 100;
  }
  if (job.verify) {
    r.verified_bytes = verified_bytes;
    if (outcome.status.ok() && !interrupted)
      r.notes.push_back("verify: read back all " + FormatSize(written_bytes) +
                        " this run wrote; every byte as written" +
                        (job.direct || r.protocol ? "" : " (through the page cache: add --direct to read the disk)"));
  }
  if (interrupted) {
    r.partial = true;
    r.error = "interrupted by signal";
    if (outcome.status.ok()) outcome.status = Status::Interrupted();
  } else if (!outcome.status.ok()) {
    r.partial = true;
    r.error = outcome.status.message();
  }
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
  }
  if (repeats.size() == 1) return std::move(repeats.front());
  // A failed repeat ends the series; the finished ones are kept with it, so the stored
  // partial run still shows what was measured before the failure.
  if (!repeats.back().status.ok()) {
    RunOutcome failed = std::move(repeats.back());
    repeats.pop_back();
    for (const RunOutcome& o : repeats) failed.result.repeats.push_back(FiguresOf(o.result));
    failed.result.job.seed = series_seed;  // what --seed takes to run the series again
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
  return median;
}

}  // namespace nasperf
