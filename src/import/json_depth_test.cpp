// Tests of the JSON nesting-depth pre-scan.
#include "import/json_depth.h"

#include <gtest/gtest.h>

#include <string>

namespace nasperf {
namespace {

TEST(JsonDepth, CountsArraysAndObjectsOutsideStrings) {
  EXPECT_TRUE(CheckJsonDepth(R"({"a": [1, {"b": [2]}]})", 4).ok());
  EXPECT_FALSE(CheckJsonDepth(R"({"a": [1, {"b": [2]}]})", 3).ok());
  EXPECT_EQ(JsonDepthExceededAt(R"({"a": [1, {"b": [2]}]})", 3), 16u);
  // Brackets inside strings, escaped quotes included, do not count.
  EXPECT_TRUE(CheckJsonDepth(R"({"a": "[[[[{{{{", "b\"[[[[": "\\"})", 1).ok());
  EXPECT_FALSE(CheckJsonDepth(R"({"a": "\\", "b": [[]]})", 2).ok());
  // Siblings do not add up.
  EXPECT_TRUE(CheckJsonDepth("[[],[],[[]],[]]", 3).ok());
}

TEST(JsonDepth, HundredThousandLevelsAreRefusedInOnePass) {
  const std::string deep = std::string(100000, '[') + std::string(100000, ']');
  Status s = CheckJsonDepth(deep);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.kind(), ErrorKind::kBadInput);
  EXPECT_NE(s.message().find("64 levels deep"), std::string::npos) << s.message();
  EXPECT_EQ(JsonDepthExceededAt(deep, kMaxJsonDepth), 64u);
}

}  // namespace
}  // namespace nasperf
