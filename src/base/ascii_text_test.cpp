// LineOfFirstNonAscii: the line a TOML reader names when it refuses non-ASCII input.
#include "base/ascii_text.h"

#include <gtest/gtest.h>

namespace nasperf {
namespace {

TEST(AsciiText, NamesTheLineOfTheFirstNonAsciiByte) {
  EXPECT_EQ(LineOfFirstNonAscii("a = 1\nb = 2\n"), std::nullopt);
  EXPECT_EQ(LineOfFirstNonAscii(""), std::nullopt);
  EXPECT_EQ(LineOfFirstNonAscii("[sa]\xcb\x97re = zR"), 1);
  EXPECT_EQ(LineOfFirstNonAscii("a = 1\n\nb = \"\xc3\xa9\"\n\xff"), 3);
}

}  // namespace
}  // namespace nasperf
