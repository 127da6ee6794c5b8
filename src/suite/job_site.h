// Where a command's jobs execute (elbencho's Local/Remote worker idea): on this machine,
// or on an agent's own disks (--on, cli/remote_job.h). A site makes the command's TARGET
// and keeps it, so every operation on it goes through the site and nothing downcasts the
// target across this seam. Commands and suites use one JobSite and never branch on which.
#pragma once

#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "core/runner.h"
#include "core/target.h"
#include "suite/run_sink.h"
#include "suite/sweep_run.h"

namespace nasperf {

// What a suite's session needs to run one job: the target it runs on and the runner.
class JobRunner {
 public:
  virtual ~JobRunner() = default;
  // The target made by the site; valid until it is released.
  virtual Target& target() = 0;
  // "client" here, "nas" on an agent.
  virtual std::string measured_on() const = 0;
  // RunRepeated on target(), here or on the agent. The result carries measured_on and any
  // telemetry. A vanished agent gives a partial run with what its samples measured and
  // an Io status.
  virtual RunOutcome Run(const JobSpec& job, const RunLabels& labels, const RunHooks& hooks) = 0;
};

// RunRepeated on a target the caller owns, with engines made by `make_engine` when given
// (the agent wraps them to cancel).
class LocalRunner final : public JobRunner {
 public:
  using MakeEngineFn = std::function<Result<std::unique_ptr<Engine>>(const std::string& name)>;
  LocalRunner(Target& target, std::string measured_on, MakeEngineFn make_engine = {})
      : target_(target), measured_on_(std::move(measured_on)), make_engine_(std::move(make_engine)) {}
  Target& target() override { return target_; }
  std::string measured_on() const override { return measured_on_; }
  RunOutcome Run(const JobSpec& job, const RunLabels& labels, const RunHooks& hooks) override;

 private:
  Target& target_;
  std::string measured_on_;
  MakeEngineFn make_engine_;
};

class JobSite : public JobRunner {
 public:
  // The command's TARGET for run and quick: a local target, or (--on) a directory
  // relative to the agent's --root, checked by the agent when each job starts. The site
  // keeps it (target()) until ReleaseTarget.
  virtual Status MakeTarget(const std::string& spec, const TargetOptions& options) = 0;
  // A sweep's TARGET: a directory or a share here (MakeSweepTarget), a directory under
  // the agent's --root there.
  virtual Status MakeSweepTarget(const std::string& spec, const TargetOptions& options) = 0;
  // Whether the machine the sweep runs on keeps its test file in its page cache (a
  // local or agent directory does; libsmbclient and libnfs keep none).
  virtual bool SweepTargetCaches() const = 0;
  // Removes the target's files (every target removes what it created when destroyed).
  virtual void ReleaseTarget() = 0;
  // What the runs ran on: this machine and TARGET, or the agent's --root.
  virtual nlohmann::ordered_json Inventory() = 0;
  // Plans a sweep on the sweep target and makes every check its largest point needs;
  // writes nothing. BadInput for a sweep that cannot run there.
  virtual Status PrepareSweep(const SweepRequest& request) = 0;
  // Runs the prepared sweep: each point a run begun and finished on `sink`.
  virtual SweepOutcome RunSweep(RunSink& sink, SuiteProgress& progress) = 0;
};

// This machine. `wrap_run` (may be empty) runs each job instead of RunRepeated, given
// the plain run to call (cli adds an agent's telemetry around it).
using RunWrapper = std::function<RunOutcome(const std::function<RunOutcome()>& run)>;
std::unique_ptr<JobSite> MakeLocalJobSite(RunWrapper wrap_run = {});

}  // namespace nasperf
