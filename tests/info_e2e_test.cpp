// E2E tests of `nasperf info`: the inventory of a directory as text and JSON, and a
// missing target as bad input.
#include <sys/utsname.h>

#include "cli_harness.h"

namespace nasperf::e2e {
namespace {

using nlohmann::json;

TEST(InfoE2eTest, DirectoryAsJsonNamesTheFileSystemAndHost) {
  TempDir dir;
  ASSERT_TRUE(dir.ok());
  CliResult r = RunNasperf({"info", dir.path(), "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json doc;
  ASSERT_TRUE(ParseJson(r.out, &doc));
  ASSERT_TRUE(doc.contains("inventory"));
  const json& inv = doc["inventory"];
  utsname u{};
  uname(&u);
  EXPECT_EQ(inv["host"]["os"]["kernel"], u.release);
  EXPECT_GT(inv["host"]["cpu"]["cores_logical"].get<int>(), 0);
  EXPECT_GT(inv["host"]["memory"]["total_bytes"].get<uint64_t>(), 0u);
  EXPECT_EQ(inv["target"]["path"], dir.path());
  EXPECT_TRUE(inv["target"]["fs"]["type"].is_string());
  EXPECT_GT(inv["target"]["fs"]["free_bytes"].get<uint64_t>(), 0u);
}

TEST(InfoE2eTest, TextMentionsFileSystemAndCpu) {
  TempDir dir;
  CliResult json_run = RunNasperf({"info", dir.path(), "--json"});
  json doc;
  ASSERT_TRUE(ParseJson(json_run.out, &doc));
  CliResult r = RunNasperf({"info", dir.path()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find(doc["inventory"]["target"]["fs"]["type"].get<std::string>()), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(doc["inventory"]["host"]["cpu"]["model"].get<std::string>()), std::string::npos) << r.out;
}

TEST(InfoE2eTest, MissingTargetIsBadInput) {
  CliResult r = RunNasperf({"info", "/nonexistent/nasperf-target"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(r.out.empty());
  EXPECT_NE(r.err.find("/nonexistent/nasperf-target"), std::string::npos);
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
}

}  // namespace
}  // namespace nasperf::e2e
