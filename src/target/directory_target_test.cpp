// DirectoryTarget: two targets of one process on one directory (a job file's jobs) lay out
// files of their own, never each other's names (which O_EXCL refused: "File exists").
#include "target/directory_target.h"

#include <gtest/gtest.h>

#include "testing/temp_dir.h"

namespace nasperf {
namespace {

TEST(DirectoryTarget, TwoTargetsOnOneDirectoryMakeFilesOfTheirOwn) {
  testing::TempDir dir;
  ASSERT_TRUE(dir.ok());
  JobSpec job;
  job.rw = AccessPattern::kWrite;
  job.bs = 4096;
  job.size = 8192;
  job.threads = 2;
  DirectoryTarget first(dir.path()), second(dir.path());
  ASSERT_TRUE(first.Check(job).ok());
  ASSERT_TRUE(second.Check(job).ok());
  Result<std::vector<WorkerFile>> a = first.Open(job);
  ASSERT_TRUE(a.ok()) << a.status().message();
  Result<std::vector<WorkerFile>> b = second.Open(job);
  ASSERT_TRUE(b.ok()) << b.status().message();
  EXPECT_EQ(dir.Entries().size(), 4u) << ::testing::PrintToString(dir.Entries());
}

}  // namespace
}  // namespace nasperf
