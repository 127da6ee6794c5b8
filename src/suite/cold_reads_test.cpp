// ColdReads: the note says what was checked, and "not checked" when nothing was.
#include "suite/cold_reads.h"

#include <gtest/gtest.h>

#include "target/directory_target.h"
#include "testing/test_support.h"

namespace nasperf {
namespace {

JobSpec BufferedRead() {
  JobSpec job;
  job.rw = AccessPattern::kRead;
  job.bs = 64 << 10;
  job.size = 1 << 20;
  return job;
}

// A drop that found no file to measure (the target has laid nothing out yet) checked
// nothing, and the note must not turn that into "0.0 % stayed cached".
TEST(ColdReads, NothingMeasuredIsNotChecked) {
  testing::TempDir dir;
  DirectoryTarget target(dir.path());
  const JobSpec job = BufferedRead();
  ASSERT_TRUE(target.Check(job).ok());
  ColdReads cold(target, false);
  auto hook = cold.HookFor(job);
  ASSERT_TRUE(hook);
  ASSERT_TRUE(hook().ok());
  const std::string note = cold.TakeNote();
  EXPECT_NE(note.find("not checked"), std::string::npos) << note;
  EXPECT_EQ(note.find("% of the"), std::string::npos) << "a residency figure nobody measured: " << note;
}

}  // namespace
}  // namespace nasperf
