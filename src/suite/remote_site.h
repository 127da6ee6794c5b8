// The JobSite of --on: every job, and the sweep, runs on an agent's own disks.
#pragma once

#include <chrono>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "suite/agent_timeouts.h"
#include "core/target.h"
#include "suite/job_site.h"
#include "wire/agent_client.h"
#include "wire/agent_devices.h"

namespace nasperf {

class RemoteSite;

// TARGET under --on: a directory relative to the agent's --root, or an absolute device
// path the agent allows (its Inventory lists them; read raw only), as BuildJob and the
// run's record see it. It does no I/O itself and only RemoteSite, which made it, runs
// jobs on it (by name, in JobStart); Check asks the agent to check the job there.
class AgentDirTarget final : public Target {
 public:
  AgentDirTarget(RemoteSite& site, std::string dir) : site_(site), dir_(std::move(dir)) {}
  std::string description() const override;
  // A device the agent allows: its size, as a local device's (the default --size).
  std::optional<uint64_t> natural_size(uint32_t threads) const override;
  // quick asks this to choose O_DIRECT; the agent decides per file system instead, and
  // falls back to buffered I/O with fsync where O_DIRECT is refused (its note says so).
  bool SupportsDirect(std::string* why) override;
  Status Check(const JobSpec& job) override;
  // Never called: RemoteSite runs every job on the agent, which opens the directory.
  Result<std::vector<WorkerFile>> Open(const JobSpec& job) override {
    return Status::Unavailable("an agent directory is opened by the agent, not here");
  }
  const std::string& dir() const { return dir_; }

 private:
  RemoteSite& site_;
  std::string dir_;
};

// Jobs in remote_site.cpp, the sweep in remote_sweep.cpp.
class RemoteSite final : public JobSite {
 public:
  RemoteSite(AgentConnection conn, nlohmann::ordered_json inventory, std::vector<AgentDevice> devices)
      : conn_(std::move(conn)), inventory_(std::move(inventory)), devices_(std::move(devices)) {}

  Status MakeTarget(const std::string& spec, const TargetOptions&) override {
    target_ = std::make_unique<AgentDirTarget>(*this, spec);
    return Status::Ok();
  }
  Status MakeSweepTarget(const std::string& spec, const TargetOptions& options) override {
    return MakeTarget(spec, options);
  }
  // A directory on the agent: its page cache is the agent's (PrepareSweep there says more).
  bool SweepTargetCaches() const override { return true; }
  void ReleaseTarget() override {}  // the agent removes its files as each job ends
  Target& target() override { return *target_; }
  std::string measured_on() const override { return "nas"; }
  nlohmann::ordered_json Inventory() override { return inventory_; }
  std::string where() const { return conn_.address().text(); }
  // The block devices the agent lets clients read raw (its Inventory's "allowed_devices").
  const std::vector<AgentDevice>& devices() const { return devices_; }
  void RequestDirectFallback() { direct_fallback_ = true; }

  // JobStart with "check": true: the agent checks the job (or plans the sweep) there.
  Status Check(const nlohmann::json& start);
  Status CheckJob(const JobSpec& job) { return Check(StartPayload(job, "")); }

  RunOutcome Run(const JobSpec& job, const RunLabels& labels, const RunHooks& hooks) override;

  Status PrepareSweep(const SweepRequest& request) override {
    sweep_ = request;
    return Check(SweepPayload(request));
  }

  // The agent runs the sweep (suite/sweep_run.h) and sends each point as it begins
  // (JobRunStart) and ends (JobRun); they are begun and finished on `sink` here, as
  // local points are. JobDone brings the summary.
  SweepOutcome RunSweep(RunSink& sink, SuiteProgress& progress) override;

 private:
  using Clock = std::chrono::steady_clock;
  struct SweepState;

  // The frames of one job: Ctrl-C sends JobCancel once (the agent stops, removes its
  // files and answers with a partial JobDone); 3 s of silence means the agent is gone.
  class JobFrames {
   public:
    explicit JobFrames(RemoteSite& site) : site_(site), last_heard_(Clock::now()) {}
    Result<std::optional<Frame>> Next();
    void Cancel();
    bool cancelled() const;

   private:
    RemoteSite& site_;
    Clock::time_point last_heard_;
    bool cancel_sent_ = false;
  };

  // Once the agent is gone, every later job fails at once with its status.
  Status Fail(Status s) {
    if (s.kind() != ErrorKind::kBadInput && s.kind() != ErrorKind::kInterrupted) broken_ = s;
    return s;
  }

  // A run the agent sent, labelled as the client labels its runs.
  Result<RunResult> Received(const nlohmann::json& j, const nlohmann::json& payload, const char* frame,
                             const RunResult& labels);
  static Sample SampleOf(const Frame& frame);

  // The phases of RunSweep, one a frame type; a failed Status ends the sweep.
  SweepOutcome FailSweep(SweepState& sweep, SuiteProgress& progress, Status s);
  Status PointBegun(const Frame& frame, SweepState& sweep, RunSink& sink, JobFrames& frames);
  Status PointDone(const Frame& frame, SweepState& sweep, RunSink& sink);
  Status SweepDone(const Frame& frame, SweepState& sweep, JobFrames& frames);

  nlohmann::json StartPayload(const JobSpec& job, const std::string& name) const;
  nlohmann::json SweepPayload(const SweepRequest& r) const;

  AgentConnection conn_;
  nlohmann::ordered_json inventory_;
  std::vector<AgentDevice> devices_;
  std::unique_ptr<AgentDirTarget> target_;
  std::optional<SweepRequest> sweep_;
  bool direct_fallback_ = false;
  Status broken_;
};

}  // namespace nasperf
