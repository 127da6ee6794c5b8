// Tests of the sparse-region check and of the warning a read job on an existing file
// or device gets.
#include "target/holes.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <string>

#include "target/existing_target.h"
#include "testing/test_support.h"
#include "testing/sizes.h"

namespace nasperf {
namespace {

using testing::kMiB;

// A file of `size` bytes whose first `written` bytes were written; the rest is a hole
// (ftruncate allocates nothing).
std::string MakeSparseFile(const testing::TempDir& dir, uint64_t size, uint64_t written) {
  const std::string path = dir.path() + "/data";
  int fd = ::open(path.c_str(), O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0600);
  EXPECT_GE(fd, 0);
  const std::string block(kMiB, 'x');
  for (uint64_t done = 0; done < written; done += kMiB) EXPECT_EQ(::write(fd, block.data(), kMiB), ssize_t(kMiB));
  EXPECT_EQ(::ftruncate(fd, static_cast<off_t>(size)), 0);
  ::fsync(fd);
  ::close(fd);
  return path;
}

TEST(Holes, SeekHoleFindsTheUnwrittenPart) {
  testing::TempDir dir;
  const std::string path = MakeSparseFile(dir, 8 * kMiB, 2 * kMiB);
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  ASSERT_GE(fd, 0);
  Result<bool> whole = RegionHasHoles(fd, 0, 8 * kMiB);
  ASSERT_TRUE(whole.ok()) << whole.status().message();
  if (!whole.value()) {
    ::close(fd);
    GTEST_SKIP() << "the file system under " << dir.path() << " does not report holes";
  }
  EXPECT_FALSE(RegionHasHoles(fd, 0, 2 * kMiB).value()) << "the written part has none";
  EXPECT_TRUE(RegionHasHoles(fd, 1 * kMiB, 2 * kMiB).value());
  EXPECT_FALSE(RegionHasHoles(fd, 0, 0).value());
  EXPECT_FALSE(RegionHasHoles(fd, 16 * kMiB, kMiB).value()) << "past the end there is nothing to read";
  ::close(fd);
}

JobSpec ReadJob(uint64_t size) {
  JobSpec job;
  job.rw = AccessPattern::kRead;
  job.size = size;
  job.threads = 1;
  return job;
}

TEST(Holes, AReadJobOnASparseFileIsWarned) {
  testing::TempDir dir;
  const std::string path = MakeSparseFile(dir, 8 * kMiB, 2 * kMiB);
  ExistingTarget target(path, false, 8 * kMiB, TargetOptions{});
  const std::string warning = target.ReadHoleWarning(ReadJob(8 * kMiB));
  if (warning.empty()) GTEST_SKIP() << "the file system does not report holes";
  EXPECT_EQ(warning.rfind("warning: " + path + " has holes", 0), 0u) << warning;
  EXPECT_EQ(warning.find('\n'), std::string::npos);
  EXPECT_EQ(target.ReadHoleWarning(ReadJob(2 * kMiB)), "") << "the region read was written";
  JobSpec write = ReadJob(8 * kMiB);
  write.rw = AccessPattern::kWrite;
  EXPECT_EQ(target.ReadHoleWarning(write), "") << "a write job reads nothing";
}

TEST(Holes, AWrittenFileIsNotWarned) {
  testing::TempDir dir;
  const std::string path = MakeSparseFile(dir, 4 * kMiB, 4 * kMiB);
  ExistingTarget target(path, false, 4 * kMiB, TargetOptions{});
  EXPECT_EQ(target.ReadHoleWarning(ReadJob(4 * kMiB)), "");
}

// A block device cannot say which blocks were written: the read is warned that it may
// read holes (a thin LUN), whatever the device holds.
TEST(Holes, ADeviceReadSaysItCannotBeKnown) {
  ExistingTarget device("/dev/sdz", true, 64 * kMiB, TargetOptions{});
  const std::string warning = device.ReadHoleWarning(ReadJob(64 * kMiB));
  EXPECT_NE(warning.find("/dev/sdz"), std::string::npos) << warning;
  EXPECT_NE(warning.find("cannot be known"), std::string::npos) << warning;
  EXPECT_NE(warning.find("thin or sparse"), std::string::npos) << warning;
}

}  // namespace
}  // namespace nasperf
