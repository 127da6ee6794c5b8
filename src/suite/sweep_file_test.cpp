// Tests of the sweep's test file: it removes only the file it created, never one that
// has the name a PID-only scheme would give it (another container's PID 1, another host).
#include "suite/sweep_file.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <string>

#include "testing/test_support.h"

namespace nasperf {
namespace {

TEST(SweepFile, AFileWithThePidNameSurvivesASweep) {
  testing::TempDir dir;
  const std::string planted = dir.path() + "/.nasperf-" + std::to_string(::getpid()) + "-sweep.dat";
  {
    ScopedFd fd(::open(planted.c_str(), O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0644));
    ASSERT_TRUE(fd.valid());
    ASSERT_EQ(::write(fd.get(), "user-data", 9), 9);
  }
  {
    SweepFile sweep(dir.path());
    ASSERT_TRUE(sweep.StartNewFile().ok());
    EXPECT_NE(sweep.path(), planted);
    ASSERT_TRUE(sweep.StartNewFile().ok()) << "a second write test replaces only the sweep's own file";
    BufferPattern pattern;
    ASSERT_TRUE(sweep.EnsureData(1 << 16, pattern).ok());
    EXPECT_EQ(testing::ReadWholeFile(planted), "user-data");
  }
  EXPECT_EQ(testing::ReadWholeFile(planted), "user-data");
  EXPECT_EQ(dir.Entries().size(), 1u) << "the sweep's own file is removed";
}

}  // namespace
}  // namespace nasperf
