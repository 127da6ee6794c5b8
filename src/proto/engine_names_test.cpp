// Engine names agree across the registry, the job check and the targets: every name the
// registry lists passes JobSpec::Validate, and whether it fits is the target's to say.
#include <gtest/gtest.h>

#include "nasperf/engine.h"
#include "nasperf/job.h"
#include "proto/make_target.h"
#include "proto/schemes.h"
#include "target/directory_target.h"
#include "testing/temp_dir.h"
#include "model/job_validate.h"
#include "proto/engine_registry.h"

namespace nasperf {
namespace {

JobSpec JobWithEngine(const std::string& engine) {
  JobSpec job;
  job.size = 1 << 20;
  job.bs = 4096;
  job.engine = engine;
  return job;
}

TEST(EngineNames, EveryRegisteredNamePassesTheJobCheck) {
  for (const std::string& name : EngineNames()) {
    Status s = ValidateJob(JobWithEngine(name));
    EXPECT_TRUE(s.ok()) << name << ": " << s.message();
  }
}

TEST(EngineNames, ADirectoryTakesOnlyTheLocalEngines) {
  testing::TempDir dir;
  DirectoryTarget target(dir.path());
  EXPECT_TRUE(target.Check(JobWithEngine("psync")).ok());
  EXPECT_TRUE(target.Check(JobWithEngine("auto")).ok());
  for (const char* foreign : {"smb", "nfs", "iscsi", "bogus"}) {
    Status s = target.Check(JobWithEngine(foreign));
    ASSERT_FALSE(s.ok()) << foreign;
    EXPECT_EQ(s.message(), std::string("--engine: '") + foreign + "' is not one of psync, io_uring, auto");
  }
}

// A share's own engine name gets past the engine check: what stops this Check is the
// server that is not there (nothing listens on loopback's port 1), never "--engine".
TEST(EngineNames, AShareTakesItsProtocolsEngineByName) {
  for (const std::string& name : EngineNames()) {
    const Scheme* scheme = FindScheme(name);
    if (!scheme || !scheme->built) continue;
    Result<std::unique_ptr<Target>> target = MakeTarget(name + "://127.0.0.1:1/share/dir", TargetOptions{});
    if (!target.ok()) continue;  // a URL form this scheme does not take
    Status s = target.value()->Check(JobWithEngine(name));
    EXPECT_EQ(s.message().find("--engine"), std::string::npos) << name << ": " << s.message();
    Status other = target.value()->Check(JobWithEngine("psync"));
    EXPECT_NE(other.message().find("--engine"), std::string::npos) << name << ": " << other.message();
  }
}

}  // namespace
}  // namespace nasperf
