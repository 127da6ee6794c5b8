// The runner: runs one job on one target — threads, ramp, time limit, per-second
// samples, CPU usage, Ctrl-C — and turns what the workers measured into a RunResult.
// It knows nothing about protocols: it drives whatever engine the job names.
#pragma once

#include <functional>
#include <map>
#include <string>

#include "nasperf/engine.h"
#include "nasperf/result.h"
#include "nasperf/status.h"
#include "base/clock.h"
#include "core/run_stop.h"
#include "core/target.h"

namespace nasperf {

struct RunLabels {
  std::string name;
  std::map<std::string, std::string> tags;
};

// A run that stopped early still has a result (marked partial); `status` says why.
struct RunOutcome {
  RunResult result;
  Status status;
};

// Ways to watch or alter a run from outside, for progress lines and tests.
struct RunHooks {
  // Called once a second with the latest sample. May be empty.
  std::function<void(const Sample&)> on_sample;
  // Makes each worker's engine; empty means MakeEngine. Tests wrap engines here.
  std::function<Result<std::unique_ptr<Engine>>(const std::string& name)> make_engine;
  // Called before each repeat (0-based), untimed: a sweep recreates its file or drops
  // it from the page cache here. A failure ends the series with that status.
  std::function<Status(uint32_t repeat)> before_repeat;
  // Called in each run once the target's files are opened and laid out, just before the
  // clock, untimed: cold reads drop the files from the page cache and measure what stayed
  // here (cli/cold_reads.h). A failure ends the run with that status.
  std::function<Status()> before_clock;
  // Called in each run once every engine is open, just before the clock starts, untimed:
  // many clients (src/cluster/) meet at their start barrier here. A failure ends the run
  // with that status. May be empty.
  std::function<Status()> before_start;
  // Polled with Ctrl-C while the workers run. kFinish stops them as the time limit would
  // (closing fsync and --verify included; the run is not partial for it): another rank
  // finished first (stonewall). kAbort stops them as an error would (no fsync, no
  // verify): another rank failed. kNone: run on. May be empty.
  std::function<StopKind()> stop_requested;
  // Called, by a runner that hands its run on before the session sees it (a rank of many,
  // src/cluster/), with the run as it ended: the session adds the facts only it knows
  // about this process's run (the cold-read check's note and `cached`). A session that
  // sets it adds them itself only when it was not called. May be empty.
  std::function<void(RunResult&)> add_session_facts;
  // The clock the runner decides phases by (base/clock.h); null means MonotonicClock().
  // Tests pass a fake one, and the workers then time their phases and I/Os on it too.
  Clock* clock = nullptr;
};

// Runs `job` once. The target must have passed Check(job).
RunOutcome RunJob(const JobSpec& job, Target& target, const RunLabels& labels, const RunHooks& hooks = {});

// Runs `job` job.repeat times and reports the repeat with the median total throughput,
// with every repeat's figures in `repeats`. Stops at the first failed repeat, which is
// returned with the repeats finished before it.
RunOutcome RunRepeated(const JobSpec& job, Target& target, const RunLabels& labels, const RunHooks& hooks = {});

// The per-repeat figures of one finished run.
RepeatFigures FiguresOf(const RunResult& run);

// What every outcome of `job` on `target` starts with, finished or not: labels, target,
// job and the engine (for runners elsewhere too: the agent's remote jobs).
RunOutcome StartOutcome(const JobSpec& job, const Target& target, const RunLabels& labels);

// Fills throughput, IOPS and latency figures of a direction from its raw counts.
DirectionResult SummariseDirection(uint64_t bytes, uint64_t ios, double seconds, uint64_t errors,
                                   std::shared_ptr<const LatencyHistogram> histogram);

}  // namespace nasperf
