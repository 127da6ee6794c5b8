// StartOutcome: every outcome of a run on a protocol target carries the target's protocol
// facts (finished, repeated or failed); local targets carry none.
#include <gtest/gtest.h>

#include "core/runner.h"
#include "target/null_target.h"

namespace nasperf {
namespace {

// null: with the facts a protocol target reports once Check has connected.
class FactsTarget final : public Target {
 public:
  std::string description() const override { return "nfs://198.18.0.2/bench"; }
  bool is_null() const override { return true; }
  Status Check(const JobSpec&) override {
    connected_ = true;
    return Status::Ok();
  }
  Result<std::vector<WorkerFile>> Open(const JobSpec& job) override {
    if (fail_open_) return Status::Io("server went away");
    std::vector<WorkerFile> files(job.threads);
    for (WorkerFile& f : files) f.region_bytes = job.size;
    return files;
  }
  std::optional<ProtocolFacts> protocol_facts() const override {
    if (!connected_) return std::nullopt;
    ProtocolFacts f;
    f.protocol = "NFS";
    f.version = "3";
    f.server = "198.18.0.2";
    f.share = "/bench";
    f.options = {{"transport", "TCP"}, {"max read", "1 MiB"}};
    return f;
  }
  bool fail_open_ = false;

 private:
  bool connected_ = false;
};

JobSpec SmallJob() {
  JobSpec job;
  job.rw = AccessPattern::kRead;
  job.bs = 4096;
  job.size = 1 << 20;
  return job;
}

TEST(StartOutcome, CopiesTheProtocolFactsOfACheckedTarget) {
  FactsTarget target;
  JobSpec job = SmallJob();
  ASSERT_TRUE(target.Check(job).ok());
  RunOutcome start = StartOutcome(job, target, {"n", {}});
  ASSERT_TRUE(start.result.protocol.has_value());
  EXPECT_EQ(start.result.protocol->label(), "NFSv3");
  EXPECT_EQ(start.result.protocol->options.front(), (std::pair<std::string, std::string>{"transport", "TCP"}));

  RunOutcome done = RunJob(job, target, {"n", {}});
  ASSERT_TRUE(done.status.ok()) << done.status.message();
  ASSERT_TRUE(done.result.protocol.has_value());
  EXPECT_EQ(done.result.protocol->share, "/bench");

  job.repeat = 2;
  RunOutcome repeated = RunRepeated(job, target, {"n", {}});
  ASSERT_TRUE(repeated.status.ok()) << repeated.status.message();
  ASSERT_EQ(repeated.result.repeats.size(), 2u);
  EXPECT_TRUE(repeated.result.protocol.has_value());

  target.fail_open_ = true;
  RunOutcome failed = RunJob(SmallJob(), target, {"n", {}});
  EXPECT_FALSE(failed.status.ok());
  EXPECT_TRUE(failed.result.partial);
  EXPECT_TRUE(failed.result.protocol.has_value()) << "a partial run must still say how the server was reached";
}

TEST(StartOutcome, LocalTargetsHaveNoFacts) {
  NullTarget target;
  JobSpec job = SmallJob();
  ASSERT_TRUE(target.Check(job).ok());
  EXPECT_FALSE(StartOutcome(job, target, {}).result.protocol.has_value());
  EXPECT_FALSE(RunJob(job, target, {}).result.protocol.has_value());
}

}  // namespace
}  // namespace nasperf
