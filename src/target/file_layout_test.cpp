// Tests for WritePatternBlocks, the layout loop behind LayOutFile and the SMB and NFS targets.
#include "target/file_layout.h"
#include "testing/sizes.h"

#include <gtest/gtest.h>

#include <utility>
#include <vector>

namespace nasperf {
namespace {

using testing::kMiB;

TEST(WritePatternBlocks, WritesMiBBlocksAndGoesOnFromAShortWrite) {
  std::vector<std::pair<uint64_t, uint64_t>> calls;  // offset, length
  auto write = [&](uint64_t at, const std::byte*, uint64_t len) -> Result<uint64_t> {
    calls.emplace_back(at, len);
    if (calls.size() == 2) return uint64_t{0};         // nothing written: round again
    if (calls.size() == 3) return uint64_t{kMiB / 2};  // short
    return len;
  };
  ASSERT_TRUE(WritePatternBlocks(2 * kMiB + 100, {}, write).ok());
  // The last block is what is left: half a MiB and 100 bytes.
  std::vector<std::pair<uint64_t, uint64_t>> want = {
      {0, kMiB}, {kMiB, kMiB}, {kMiB, kMiB}, {kMiB + kMiB / 2, kMiB / 2 + 100}};
  EXPECT_EQ(calls, want);
}

TEST(WritePatternBlocks, StopsAtTheWritersError) {
  int calls = 0;
  auto write = [&](uint64_t at, const std::byte*, uint64_t) -> Result<uint64_t> {
    ++calls;
    if (at > 0) return Status::Io("laying out f at 1 MiB: No space left on device", 28);
    return kMiB;
  };
  Status s = WritePatternBlocks(4 * kMiB, {}, write);
  EXPECT_EQ(s.kind(), ErrorKind::kIo);
  EXPECT_EQ(s.message(), "laying out f at 1 MiB: No space left on device");
  EXPECT_EQ(calls, 2);
}

TEST(WritePatternBlocks, NothingToWriteCallsNothing) {
  auto write = [](uint64_t, const std::byte*, uint64_t) -> Result<uint64_t> {
    ADD_FAILURE() << "called";
    return uint64_t{0};
  };
  EXPECT_TRUE(WritePatternBlocks(0, {}, write).ok());
}

}  // namespace
}  // namespace nasperf
