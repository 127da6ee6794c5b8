// E2E tests of a block-device TARGET (a loop device): reads allowed, writes only where --allow-destructive says.
#include <string>
#include <vector>

#include "cli_harness.h"
#include "testing/sizes.h"

namespace nasperf::e2e {
namespace {

using nlohmann::json;

using testing::kMiB;

TEST(BlockDeviceE2eTest, ReadJobRunsOnTheWholeDevice) {
  if (!IsRoot()) NASPERF_SKIP_OR_FAIL("needs root to attach a loop device");
  TempDir dir;
  ASSERT_TRUE(dir.ok());
  const std::string backing = dir.Sub("disk.img");
  std::string content(16 * kMiB, '\0');
  for (size_t i = 0; i < content.size(); i += 4096) content[i] = static_cast<char>(i / 4096);
  ASSERT_TRUE(WriteFileBytes(backing, content));
  ScopedLoopDevice loop(backing);
  if (!loop.ok()) NASPERF_SKIP_OR_FAIL("cannot attach a loop device: " + loop.error());

  CliResult r = RunNasperf({"run", loop.device(), "--rw", "randread", "--bs", "4k", "--direct", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(OnlyWarningsOrProgress(r.err));
  json doc;
  ASSERT_TRUE(ParseJson(r.out, &doc));
  ASSERT_TRUE(HasDocumentShape(doc));
  const json& run = doc["runs"][0];
  EXPECT_TRUE(HasConsistentFigures(run));
  EXPECT_EQ(run["target"], loop.device());
  EXPECT_EQ(run["job"]["size"], 16 * kMiB) << "the default size is the device's size";
  ASSERT_TRUE(run.contains("read"));
  EXPECT_EQ(run["read"]["bytes"], 16 * kMiB);
  EXPECT_FALSE(run.contains("write"));
  EXPECT_TRUE(ReadFileBytes(backing) == content) << "a read job changed the device";
  EXPECT_EQ(DirEntries(dir.path()), std::vector<std::string>{"disk.img"});
}

TEST(BlockDeviceE2eTest, WriteJobRunsOnABlankDeviceThatAllowDestructiveNames) {
  if (!IsRoot()) NASPERF_SKIP_OR_FAIL("needs root to attach a loop device");
  TempDir dir;
  ASSERT_TRUE(dir.ok());
  const std::string backing = dir.Sub("disk.img");
  const std::string zeros(16 * kMiB, '\0');
  ASSERT_TRUE(WriteFileBytes(backing, zeros));
  ScopedLoopDevice loop(backing);
  if (!loop.ok()) NASPERF_SKIP_OR_FAIL("cannot attach a loop device: " + loop.error());

  CliResult r = RunNasperf({"run", loop.device(), "--rw", "write", "--bs", "64k", "--size", "4m", "--direct",
                            "--allow-destructive", loop.device(), "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(OnlyWarningsOrProgress(r.err));
  json doc;
  ASSERT_TRUE(ParseJson(r.out, &doc));
  ASSERT_TRUE(HasDocumentShape(doc));
  const json& run = doc["runs"][0];
  EXPECT_TRUE(HasConsistentFigures(run));
  ASSERT_TRUE(run.contains("write"));
  EXPECT_EQ(run["write"]["bytes"], 4 * kMiB);
  const std::string after = ReadFileBytes(backing);
  EXPECT_FALSE(after.compare(0, 4 * kMiB, zeros, 0, 4 * kMiB) == 0) << "the write job wrote nothing";
  EXPECT_TRUE(after.compare(4 * kMiB, std::string::npos, zeros, 4 * kMiB, std::string::npos) == 0)
      << "the write job wrote past --size";
}

}  // namespace
}  // namespace nasperf::e2e
