// io_uring engine: jobs run with registered buffers, direct ones submit each I/O at once,
// buffered ones with the wait (their large reads marked for the worker pool), and what
// they read is the file.
#include "engine/io_uring/io_uring_engine.h"

#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "testing/test_support.h"
#include "workload/buffers.h"

namespace nasperf {
namespace {

constexpr uint32_t kSlots = 4;
constexpr uint64_t kBlockBytes = 4096;

// A file of kSlots blocks, block i filled with the byte 'a' + i.
int MakeFile(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW, 0600);
  for (uint32_t i = 0; fd >= 0 && i < kSlots; ++i) {
    std::vector<char> block(kBlockBytes, static_cast<char>('a' + i));
    if (::pwrite(fd, block.data(), block.size(), i * kBlockBytes) != static_cast<ssize_t>(kBlockBytes)) return -1;
  }
  return fd;
}

bool MemlockAllows(uint64_t bytes) {
  rlimit limit{};
  return ::getrlimit(RLIMIT_MEMLOCK, &limit) == 0 && (limit.rlim_cur == RLIM_INFINITY || limit.rlim_cur >= bytes);
}

// Opens an engine on fd (kSlots blocks, MakeFile's), submits one read per slot, slot i
// reading block kSlots - 1 - i so a read into the wrong buffer shows, and checks what
// submit() left for reap()'s enter, then every block read.
void ReadEveryBlock(int fd, bool direct, unsigned want_unsubmitted) {
  Result<BufferPool> pool = BufferPool::Create(kSlots, kBlockBytes, BufferPattern{}, 1);
  ASSERT_TRUE(pool.ok());
  IoUringEngine engine;
  EngineOpenParams params;
  params.fd = fd;
  params.buffers = pool.value().pointers();
  params.buffer_bytes = kBlockBytes;
  params.queue_depth = kSlots;
  params.direct = direct;
  Status opened = engine.open(params);
  if (!opened.ok()) NASPERF_SKIP_OR_FAIL_IN_CI("io_uring unavailable: " + opened.message());
  EXPECT_TRUE(engine.caps().fixed_buffers);

  std::vector<IoRequest> requests;
  for (uint32_t i = 0; i < kSlots; ++i)
    requests.push_back(IoRequest{(kSlots - 1 - i) * kBlockBytes, static_cast<uint32_t>(kBlockBytes), IoDir::kRead, i});
  Result<size_t> accepted = engine.submit(requests);
  ASSERT_TRUE(accepted.ok());
  ASSERT_EQ(accepted.value(), kSlots);
  EXPECT_EQ(engine.unsubmitted(), want_unsubmitted);
  std::vector<IoCompletion> done(kSlots);
  size_t reaped = 0;
  while (reaped < kSlots) {
    Result<size_t> n = engine.reap(std::span<IoCompletion>(done.data() + reaped, kSlots - reaped), 1,
                                   std::chrono::microseconds(1000000));
    ASSERT_TRUE(n.ok());
    reaped += n.value();
  }
  for (const IoCompletion& c : done) {
    EXPECT_EQ(c.result, static_cast<int64_t>(kBlockBytes));
    const std::byte* data = pool.value().slot(c.slot);
    const char want = static_cast<char>('a' + (kSlots - 1 - c.slot));
    for (uint64_t b = 0; b < kBlockBytes; ++b) ASSERT_EQ(static_cast<char>(data[b]), want) << "slot " << c.slot;
  }
  engine.close();
}

TEST(IoUringEngine, BufferedJobReadsIntoRegisteredBuffersSubmittedWithTheWait) {
  // bench/vs-fio case b: registered buffers spare the io-wq worker's copy to user memory,
  // and one enter for the batch beat one per I/O by 10 % (docs/performance.md).
  if (!MemlockAllows(kSlots * kBlockBytes)) NASPERF_SKIP_OR_FAIL_IN_CI("RLIMIT_MEMLOCK too low to register buffers");
  testing::TempDir dir;
  const int fd = MakeFile(dir.path() + "/.nasperf-test.dat");
  ASSERT_GE(fd, 0);
  ReadEveryBlock(fd, /*direct=*/false, /*want_unsubmitted=*/kSlots);
  ::close(fd);
}

TEST(IoUringEngine, BufferedReadsFromThirtyTwoKiBUpGoToTheWorkerPool) {
  // bench/vs-fio case c: unmarked, io-wq copied every 1 MiB read on one worker, one core;
  // marked IOSQE_ASYNC, the reads copy on every core (io_uring_engine.h). Small reads
  // and writes stay unmarked.
  constexpr uint64_t kLarge = IoUringEngine::kParallelCopyMinBytes;
  Result<BufferPool> pool = BufferPool::Create(4, kLarge, BufferPattern{}, 1);
  ASSERT_TRUE(pool.ok());
  testing::TempDir dir;
  const int fd = ::open((dir.path() + "/.nasperf-test.dat").c_str(), O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW, 0600);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::ftruncate(fd, static_cast<off_t>(2 * kLarge)), 0);
  IoUringEngine engine;
  EngineOpenParams params;
  params.fd = fd;
  params.buffers = pool.value().pointers();
  params.buffer_bytes = kLarge;
  params.queue_depth = 4;
  Status opened = engine.open(params);
  if (!opened.ok()) NASPERF_SKIP_OR_FAIL_IN_CI("io_uring unavailable: " + opened.message());

  const std::vector<IoRequest> requests = {
      IoRequest{0, 4096, IoDir::kRead, 0},
      IoRequest{0, static_cast<uint32_t>(kLarge) - 4096, IoDir::kRead, 1},
      IoRequest{kLarge, static_cast<uint32_t>(kLarge), IoDir::kRead, 2},
      IoRequest{0, static_cast<uint32_t>(kLarge), IoDir::kWrite, 3},
  };
  Result<size_t> accepted = engine.submit(requests);
  ASSERT_TRUE(accepted.ok());
  ASSERT_EQ(accepted.value(), requests.size());
  ASSERT_EQ(engine.unsubmitted(), requests.size());
  EXPECT_FALSE(engine.unsubmitted_flags(0) & IOSQE_ASYNC) << "a 4 KiB read";
  EXPECT_FALSE(engine.unsubmitted_flags(1) & IOSQE_ASYNC) << "a read just under the size";
  EXPECT_TRUE(engine.unsubmitted_flags(2) & IOSQE_ASYNC) << "a read of the size";
  EXPECT_FALSE(engine.unsubmitted_flags(3) & IOSQE_ASYNC) << "a write";

  std::vector<IoCompletion> done(requests.size());
  size_t reaped = 0;
  while (reaped < requests.size()) {
    Result<size_t> n = engine.reap(std::span<IoCompletion>(done.data() + reaped, requests.size() - reaped), 1,
                                   std::chrono::microseconds(1000000));
    ASSERT_TRUE(n.ok());
    reaped += n.value();
  }
  for (const IoCompletion& c : done) EXPECT_EQ(c.result, static_cast<int64_t>(requests[c.slot].length)) << c.slot;
  engine.close();
  ::close(fd);
}

TEST(IoUringEngine, DirectJobSubmitsEachIoAtOnce) {
  // Issue 19: a direct job's refill held for reap()'s enter reached the virtio disk as one
  // batch, and its random reads ran 8-10 % below fio's; none may wait now.
  if (!MemlockAllows(kSlots * kBlockBytes)) NASPERF_SKIP_OR_FAIL_IN_CI("RLIMIT_MEMLOCK too low to register buffers");
  testing::TempDir dir("/var/tmp");  // a disk's file system: tmpfs has no O_DIRECT
  const std::string path = dir.path() + "/.nasperf-test.dat";
  const int made = MakeFile(path);
  ASSERT_GE(made, 0);
  ::close(made);
  const int fd = ::open(path.c_str(), O_RDONLY | O_DIRECT | O_NOFOLLOW);
  if (fd < 0) NASPERF_SKIP_OR_FAIL_IN_CI(std::string("O_DIRECT open: ") + std::strerror(errno));
  ReadEveryBlock(fd, /*direct=*/true, /*want_unsubmitted=*/0);
  ::close(fd);
}

}  // namespace
}  // namespace nasperf
