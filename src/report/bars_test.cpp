// Tests for UnicodeBar.
#include "report/bars.h"

#include <gtest/gtest.h>

#include <cmath>

namespace nasperf {
namespace {

TEST(UnicodeBar, FullEmptyAndEighths) {
  EXPECT_EQ(UnicodeBar(1.0, 4), "████");
  EXPECT_EQ(UnicodeBar(0.0, 4), "    ");
  EXPECT_EQ(UnicodeBar(0.5, 4), "██  ");
  EXPECT_EQ(UnicodeBar(0.5 + 1.0 / 32, 4), "██▏ ");  // one eighth of a cell more
  EXPECT_EQ(UnicodeBar(7.0 / 8 / 4, 4), "▉   ");
  EXPECT_EQ(UnicodeBar(0.001, 4), "▏   ") << "anything above zero is visible";
}

TEST(UnicodeBar, OutOfRangeIsClamped) {
  EXPECT_EQ(UnicodeBar(3.0, 2), "██");
  EXPECT_EQ(UnicodeBar(-1.0, 2), "  ");
  EXPECT_EQ(UnicodeBar(std::nan(""), 2), "  ");
  EXPECT_EQ(UnicodeBar(0.5, 0), "");
}

}  // namespace
}  // namespace nasperf
