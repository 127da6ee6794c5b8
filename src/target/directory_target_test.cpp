// DirectoryTarget: two targets of one process on one directory (a job file's jobs) lay out
// files of their own, never each other's names (which O_EXCL refused: "File exists"); a
// shared file is one file for all of a job's threads.
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

// --shared-file (issue 33 item 3: fio's clones of one filename= got disjoint files): every
// thread opens the one file the target lays out, over the same bytes.
TEST(DirectoryTarget, ASharedFileIsOneFileForEveryThread) {
  testing::TempDir dir;
  ASSERT_TRUE(dir.ok());
  JobSpec job;
  job.rw = AccessPattern::kRandRead;
  job.bs = 4096;
  job.size = 16384;
  job.threads = 3;
  job.shared_file = true;
  DirectoryTarget target(dir.path());
  ASSERT_TRUE(target.Check(job).ok());
  Result<std::vector<WorkerFile>> files = target.Open(job);
  ASSERT_TRUE(files.ok()) << files.status().message();
  ASSERT_EQ(files.value().size(), 3u);
  EXPECT_EQ(dir.Entries().size(), 1u) << ::testing::PrintToString(dir.Entries());
  for (const WorkerFile& f : files.value()) {
    EXPECT_EQ(f.base_offset, 0u);
    EXPECT_EQ(f.region_bytes, 16384u);
  }
}

}  // namespace
}  // namespace nasperf
