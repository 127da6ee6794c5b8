// The agent's job runs in the directory it resolved, whatever later happens to its path.
#include "agent/agent_job.h"

#include <gtest/gtest.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>

#include "testing/test_support.h"

namespace nasperf {
namespace {

using nlohmann::json;

JobStartMsg SmallWrite(const std::string& dir) {
  Frame frame{MessageType::kJobStart,
              {{"job", {{"rw", "write"}, {"bs", 65536}, {"qd", 1}, {"threads", 1}, {"size", 1 << 20}}}, {"dir", dir}}};
  return std::get<JobStartMsg>(DecodeMessage(frame).value().body);
}

TEST(AgentJobTest, JobRunsInTheResolvedDirectoryAfterItsPathIsSwappedForASymlink) {
  testing::TempDir dir;
  const std::string root = dir.path() + "/root", outside = dir.path() + "/outside";
  ASSERT_EQ(::mkdir(root.c_str(), 0700), 0);
  ASSERT_EQ(::mkdir((root + "/sub").c_str(), 0700), 0);
  ASSERT_EQ(::mkdir(outside.c_str(), 0700), 0);
  Result<RootDir> root_dir = RootDir::Open(root);
  ASSERT_TRUE(root_dir.ok());
  bool path_error = false;
  Result<AgentJobRequest> request = PrepareJob(SmallWrite("sub"), root_dir.value(), DeviceAllowList(), &path_error);
  ASSERT_TRUE(request.ok()) << request.status().message();

  // After the check, "sub" becomes a symlink to outside the root.
  ASSERT_EQ(::rename((root + "/sub").c_str(), (root + "/moved").c_str()), 0);
  ASSERT_EQ(::symlink(outside.c_str(), (root + "/sub").c_str()), 0);
  ScopedFd watch(::inotify_init1(IN_NONBLOCK | IN_CLOEXEC));
  ASSERT_TRUE(watch.valid());
  ASSERT_GE(::inotify_add_watch(watch.get(), outside.c_str(), IN_CREATE), 0);
  ScopedFd moved_watch(::inotify_init1(IN_NONBLOCK | IN_CLOEXEC));
  ASSERT_GE(::inotify_add_watch(moved_watch.get(), (root + "/moved").c_str(), IN_CREATE), 0);

  ASSERT_TRUE(CheckAgentJob(request.value()).ok());
  std::atomic<bool> cancel{false};
  AgentJobOutcome outcome = RunAgentJob(request.value(), cancel, [](const Sample&) {});
  ASSERT_TRUE(outcome.status.ok()) << outcome.status.message();
  ASSERT_EQ(outcome.runs.size(), 1u);
  ASSERT_TRUE(outcome.runs[0].write.has_value());

  char events[4096];
  EXPECT_LT(::read(watch.get(), events, sizeof events), 0) << "a file was created outside the root";
  EXPECT_GT(::read(moved_watch.get(), events, sizeof events), 0) << "the job's files were not in the resolved dir";
  EXPECT_EQ(::rmdir((root + "/moved").c_str()), 0) << "files left behind in the resolved directory";
  EXPECT_EQ(::rmdir(outside.c_str()), 0) << "files left behind outside the root";
}

}  // namespace
}  // namespace nasperf
