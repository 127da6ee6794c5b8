// The JobSite of this machine: targets made here, jobs run by this process's runner.
#include <optional>

#include "model/inventory_json.h"
#include "suite/job_site.h"
#include "suite/run_session.h"
#include "suite/sweep_file.h"
#include "sysinfo/inventory.h"
#include "proto/make_target.h"

namespace nasperf {
namespace {

class LocalSite final : public JobSite {
 public:
  explicit LocalSite(RunWrapper wrap_run) : wrap_run_(std::move(wrap_run)) {}

  Status MakeTarget(const std::string& spec, const TargetOptions& options) override {
    Result<std::unique_ptr<Target>> made = nasperf::MakeTarget(spec, options);
    if (!made.ok()) return made.status();
    target_ = std::move(made).value();
    return Status::Ok();
  }
  Status MakeSweepTarget(const std::string& spec, const TargetOptions& options) override {
    Result<std::unique_ptr<SweepableTarget>> made = nasperf::MakeSweepTarget(spec, options);
    if (!made.ok()) return made.status();
    sweep_target_ = made.value().get();
    target_ = std::move(made).value();
    return Status::Ok();
  }
  bool SweepTargetCaches() const override { return sweep_target_ && sweep_target_->client_caches(); }
  void ReleaseTarget() override {
    sweep_target_ = nullptr;
    target_.reset();
  }
  Target& target() override { return *target_; }
  std::string measured_on() const override { return "client"; }
  nlohmann::ordered_json Inventory() override { return InventoryToJson(GatherInventory(target_->description())); }

  RunOutcome Run(const JobSpec& job, const RunLabels& labels, const RunHooks& hooks) override {
    auto run = [&] { return RunRepeated(job, *target_, labels, hooks); };
    return wrap_run_ ? wrap_run_(run) : run();
  }

  Status PrepareSweep(const SweepRequest& request) override {
    Result<SweepSetup> setup = nasperf::PrepareSweep(request, *sweep_target_);
    if (!setup.ok()) return setup.status();
    setup_ = std::move(setup).value();
    return Status::Ok();
  }
  SweepOutcome RunSweep(RunSink& sink, SuiteProgress& progress) override {
    RunSession session(*this, sink, progress, setup_->request.tags, setup_->request.drop_caches, Inventory());
    return RunSweepPoints(*setup_, *sweep_target_, session);
  }

 private:
  RunWrapper wrap_run_;
  std::unique_ptr<Target> target_;
  SweepableTarget* sweep_target_ = nullptr;  // target_, when it was made for a sweep
  std::optional<SweepSetup> setup_;
};

}  // namespace

std::unique_ptr<JobSite> MakeLocalJobSite(RunWrapper wrap_run) {
  return std::unique_ptr<JobSite>(new LocalSite(std::move(wrap_run)));
}

}  // namespace nasperf
