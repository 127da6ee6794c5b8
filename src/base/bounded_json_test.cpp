// ParseBoundedJson: the depth limit, strings that only look nested, and plain parsing.
#include "base/bounded_json.h"

#include <gtest/gtest.h>

#include <string>

namespace nasperf {
namespace {

std::string Nested(size_t levels, char open = '[', char close = ']') {
  return std::string(levels, open) + std::string(levels, close);
}

TEST(BoundedJsonTest, ParsesOrdinaryDocuments) {
  Result<nlohmann::json> j = ParseBoundedJson(R"({"a": [1, {"b": "x"}], "c": null})");
  ASSERT_TRUE(j.ok()) << j.status().message();
  EXPECT_EQ(j.value()["a"][1]["b"], "x");
  EXPECT_TRUE(ParseBoundedJson("3").value().is_number());
}

TEST(BoundedJsonTest, DepthUpToTheLimitIsAccepted) {
  EXPECT_TRUE(ParseBoundedJson(Nested(64), 64).ok());
  EXPECT_TRUE(ParseBoundedJson(Nested(3), 3).ok());
  EXPECT_TRUE(ParseBoundedJson("[[1],[2],[3],[4]]", 2).ok()) << "siblings do not add depth";
}

TEST(BoundedJsonTest, DeeperIsRefusedNamingWhatAndWhere) {
  Result<nlohmann::json> j = ParseBoundedJson(Nested(65), 64, "JobStart payload");
  ASSERT_FALSE(j.ok());
  EXPECT_EQ(j.status().kind(), ErrorKind::kBadInput);
  EXPECT_EQ(j.status().message(), "JobStart payload: nested deeper than 64 levels (at byte 64)");
  EXPECT_FALSE(ParseBoundedJson("{\"a\":" + std::string(4, '{'), 4).ok());
}

TEST(BoundedJsonTest, HundredThousandLevelsAreRefusedWithoutCrashing) {
  for (char open : {'[', '{'}) {
    std::string text = open == '[' ? Nested(100000) : std::string(100000, '{');
    Result<nlohmann::json> j = ParseBoundedJson(text);
    ASSERT_FALSE(j.ok());
    EXPECT_NE(j.status().message().find("nested deeper than 64"), std::string::npos) << j.status().message();
  }
}

TEST(BoundedJsonTest, BracketsInsideStringsDoNotCount) {
  std::string deep_looking = "\"" + Nested(1000) + "\\\"" + std::string(1000, '{') + "\"";
  Result<nlohmann::json> j = ParseBoundedJson("[" + deep_looking + "]", 1);
  ASSERT_TRUE(j.ok()) << j.status().message();
  EXPECT_TRUE(j.value()[0].is_string());
}

TEST(BoundedJsonTest, UnbalancedClosersBuyNoDepth) {
  // "]]]" before the openers must not let 64 + 3 levels through.
  EXPECT_NE(FindJsonTooDeep("]]]" + Nested(66), 64), std::string::npos);
}

TEST(BoundedJsonTest, InvalidJsonIsOneLine) {
  for (const char* bad : {"", "{", "{\"a\":}", "[1,]", "\"unterminated", "nul"}) {
    Result<nlohmann::json> j = ParseBoundedJson(bad, 64, "frame");
    ASSERT_FALSE(j.ok()) << bad;
    EXPECT_EQ(j.status().message(), "frame: not valid JSON") << bad;
  }
}

}  // namespace
}  // namespace nasperf
