// Tests for page-cache dropping: the drop works where the kernel allows it, and the
// residency check tells the truth where it does not (tmpfs keeps its pages).
#include "target/page_cache.h"

#include <fcntl.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "base/scoped_fd.h"
#include "testing/test_support.h"

namespace nasperf {
namespace {

constexpr uint64_t kBytes = 8 << 20;
constexpr long kTmpfsMagic = 0x01021994;

// Writes kBytes and reads them back, so the whole file is in the page cache.
std::string CachedFile(const std::string& dir) {
  std::string path = dir + "/.nasperf-cache-test.dat";
  ScopedFd fd(::open(path.c_str(), O_CREAT | O_RDWR | O_CLOEXEC, 0600));
  EXPECT_TRUE(fd.valid());
  std::vector<char> block(1 << 20, 'x');
  for (uint64_t done = 0; done < kBytes; done += block.size())
    EXPECT_EQ(::pwrite(fd.get(), block.data(), block.size(), static_cast<off_t>(done)), static_cast<ssize_t>(block.size()));
  for (uint64_t done = 0; done < kBytes; done += block.size())
    EXPECT_EQ(::pread(fd.get(), block.data(), block.size(), static_cast<off_t>(done)), static_cast<ssize_t>(block.size()));
  return path;
}

bool OnTmpfs(const std::string& path) {
  struct statfs fs {};
  return ::statfs(path.c_str(), &fs) == 0 && fs.f_type == kTmpfsMagic;
}

TEST(PageCache, DropEmptiesTheCacheOnADiskFileSystem) {
  testing::TempDir dir;
  if (OnTmpfs(dir.path())) GTEST_SKIP() << dir.path() << " is tmpfs: nothing to drop to";
  std::string path = CachedFile(dir.path());
  ScopedFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  Result<double> before = ResidentPercent(fd.get(), kBytes);
  ASSERT_TRUE(before.ok()) << before.status().message();
  EXPECT_GT(before.value(), 99.0);

  Result<CacheDropReport> drop = DropFromPageCache(path, kBytes, false);
  ASSERT_TRUE(drop.ok()) << drop.status().message();
  EXPECT_EQ(drop.value().method, "fsync + posix_fadvise(DONTNEED)");
  EXPECT_LT(drop.value().resident_pct, 1.0);
  EXPECT_LT(ResidentPercent(fd.get(), kBytes).value(), 1.0);
}

TEST(PageCache, TmpfsKeepsItsPagesAndTheCheckSaysSo) {
  if (::access("/dev/shm", W_OK) != 0 || !OnTmpfs("/dev/shm")) GTEST_SKIP() << "no writable tmpfs at /dev/shm";
  std::string path = CachedFile("/dev/shm");
  Result<CacheDropReport> drop = DropFromPageCache(path, kBytes, false);
  ::unlink(path.c_str());
  ASSERT_TRUE(drop.ok()) << drop.status().message();
  EXPECT_GT(drop.value().resident_pct, 99.0);  // tmpfs pages are the file: they cannot be dropped
}

TEST(PageCache, SystemWideDropNeedsRoot) {
  std::string why;
  bool can = CanDropSystemCaches(&why);
  // Ground truth by another road than access(): the open the drop itself needs (opening
  // without writing drops nothing). A read-only /proc/sys, a missing capability or a
  // non-root user all make it fail.
  const int fd = ::open("/proc/sys/vm/drop_caches", O_WRONLY | O_CLOEXEC);
  const bool writable = fd >= 0;
  if (fd >= 0) ::close(fd);
  EXPECT_EQ(can, writable);
  if (!can) {
    EXPECT_NE(why.find("root"), std::string::npos);
    return;
  }
  testing::TempDir dir;
  std::string path = CachedFile(dir.path());
  Result<CacheDropReport> drop = DropFromPageCache(path, kBytes, true);
  ASSERT_TRUE(drop.ok()) << drop.status().message();
  EXPECT_EQ(drop.value().method, "fsync + posix_fadvise(DONTNEED) + /proc/sys/vm/drop_caches");
  if (!OnTmpfs(dir.path())) {
    EXPECT_LT(drop.value().resident_pct, 1.0);
  }
}

TEST(PageCache, ResidencyOfNothingIsZeroAndAMissingFileIsAnError) {
  EXPECT_EQ(ResidentPercent(-1, 0).value(), 0.0);
  Result<CacheDropReport> missing = DropFromPageCache("/nonexistent/.nasperf-x", 4096, false);
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("/nonexistent/.nasperf-x"), std::string::npos);
}

}  // namespace
}  // namespace nasperf
