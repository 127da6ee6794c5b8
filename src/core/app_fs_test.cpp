// CheckAppPath: what a workspace-relative path may be; WriteAll: a whole buffer through short writes.
#include "core/app_fs.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

namespace nasperf {
namespace {

TEST(CheckAppPath, AcceptsRelativeNames) {
  EXPECT_TRUE(CheckAppPath("a").ok());
  EXPECT_TRUE(CheckAppPath("dir/sub/file.dat").ok());
  EXPECT_TRUE(CheckAppPath("...").ok());  // a name, not a parent
  EXPECT_TRUE(CheckAppPath(".hidden").ok());
}

TEST(CheckAppPath, RefusesEveryWayOut) {
  for (const std::string& bad : std::vector<std::string>{"", "/etc/passwd", "..", "../x", "a/../../b", "a/..", ".",
                                                         "./a", "a/.", "a//b", "a/", "/", std::string("a\0b", 3)}) {
    Status status = CheckAppPath(bad);
    EXPECT_EQ(status.kind(), ErrorKind::kBadInput) << "'" << bad << "'";
    EXPECT_NE(status.message().find("inside the workspace"), std::string::npos) << status.message();
  }
  EXPECT_NE(CheckAppPath("a/../b").message().find("'..'"), std::string::npos);
  EXPECT_NE(CheckAppPath("/x").message().find("absolute"), std::string::npos);
  EXPECT_NE(CheckAppPath(std::string("a\0b", 3)).message().find("NUL"), std::string::npos);
}

// Takes at most `step` bytes a call (0: none at all), keeping what it took.
class ShortWriteFile final : public AppFile {
 public:
  explicit ShortWriteFile(size_t step) : step_(step) {}
  Result<size_t> Write(const void* data, size_t bytes) override {
    const size_t n = std::min(bytes, step_);
    written.append(static_cast<const char*>(data), n);
    ++calls;
    return n;
  }
  Result<size_t> Read(void*, size_t) override { return size_t{0}; }
  Result<size_t> PWrite(const void*, size_t, uint64_t) override { return size_t{0}; }
  Result<size_t> PRead(void*, size_t, uint64_t) override { return size_t{0}; }
  Status Sync() override { return Status::Ok(); }
  Status Close() override { return Status::Ok(); }
  std::string written;
  int calls = 0;

 private:
  size_t step_;
};

TEST(WriteAll, ContinuesAfterShortWritesUntilEveryByteIsWritten) {
  const std::string text = "0123456789abcdefghij";
  ShortWriteFile file(7);
  ASSERT_TRUE(WriteAll(file, text.data(), text.size()).ok());
  EXPECT_EQ(file.written, text);
  EXPECT_EQ(file.calls, 3);  // 7 + 7 + 6
}

TEST(WriteAll, AWriteThatMovesNothingIsAnIoError) {
  ShortWriteFile file(0);
  Status s = WriteAll(file, "abc", 3);
  EXPECT_EQ(s.kind(), ErrorKind::kIo);
  EXPECT_EQ(s.message(), "write made no progress");
  EXPECT_EQ(file.calls, 1);
}

}  // namespace
}  // namespace nasperf
