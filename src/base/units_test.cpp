// Tests for size and duration parsing.
#include "base/units.h"

#include <gtest/gtest.h>

namespace nasperf {
namespace {

TEST(ParseSize, BinarySuffixes) {
  EXPECT_EQ(ParseSize("4k").value(), 4096u);
  EXPECT_EQ(ParseSize("4K").value(), 4096u);
  EXPECT_EQ(ParseSize("1m").value(), 1048576u);
  EXPECT_EQ(ParseSize("2g").value(), 2147483648u);
  EXPECT_EQ(ParseSize("1t").value(), 1099511627776u);
  EXPECT_EQ(ParseSize("64KiB").value(), 65536u);
  EXPECT_EQ(ParseSize("1MiB").value(), 1048576u);
  EXPECT_EQ(ParseSize("1GiB").value(), 1073741824u);
  EXPECT_EQ(ParseSize("0.5k").value(), 512u);
}

TEST(ParseSize, DecimalSuffixesAndBareBytes) {
  EXPECT_EQ(ParseSize("1KB").value(), 1000u);
  EXPECT_EQ(ParseSize("1MB").value(), 1000000u);
  EXPECT_EQ(ParseSize("2GB").value(), 2000000000u);
  EXPECT_EQ(ParseSize("4096").value(), 4096u);
  EXPECT_EQ(ParseSize("0").value(), 0u);
  EXPECT_EQ(ParseSize("512b").value(), 512u);
}

TEST(ParseSize, RejectsGarbage) {
  for (const char* bad : {"", "k", "-4k", "4x", "4 kbit", "1.2.3", "abc", "0.3", "1e30", "99999999999t"}) {
    Result<uint64_t> r = ParseSize(bad);
    EXPECT_FALSE(r.ok()) << bad;
    if (!r.ok()) {
      EXPECT_EQ(r.status().kind(), ErrorKind::kBadInput) << bad;
    }
  }
  EXPECT_NE(ParseSize("4x").status().message().find("unknown size unit"), std::string::npos);
}

TEST(ParseDuration, Units) {
  EXPECT_DOUBLE_EQ(ParseDuration("10").value(), 10);
  EXPECT_DOUBLE_EQ(ParseDuration("10s").value(), 10);
  EXPECT_DOUBLE_EQ(ParseDuration("500ms").value(), 0.5);
  EXPECT_DOUBLE_EQ(ParseDuration("2m").value(), 120);
  EXPECT_DOUBLE_EQ(ParseDuration("1h").value(), 3600);
  EXPECT_FALSE(ParseDuration("-1").ok());
  EXPECT_FALSE(ParseDuration("5 parsecs").ok());
  EXPECT_FALSE(ParseDuration("").ok());
}

TEST(FormatSize, ExactBinaryUnits) {
  EXPECT_EQ(FormatSize(4096), "4 KiB");
  EXPECT_EQ(FormatSize(1 << 20), "1 MiB");
  EXPECT_EQ(FormatSize(1000), "1000 B");
  EXPECT_EQ(FormatApproxSize(25276026880ull), "23.5 GiB");
  EXPECT_EQ(FormatApproxSize(256ull << 20), "256 MiB");
  EXPECT_EQ(FormatApproxSize(1ull << 30), "1.0 GiB");
  EXPECT_EQ(FormatSize(1500), "1.5 KiB");
  EXPECT_EQ(FormatSize(85677809664ull), "79.8 GiB");
  EXPECT_EQ(FormatSize(3 * 1024 * 1024 + 512 * 1024), "3.5 MiB");
  EXPECT_EQ(FormatSize(1ull << 30), "1 GiB");
}

}  // namespace
// Past a double's range (~1.8e308) std::stod threw out_of_range: "internal error: stod".
TEST(ParseSize, NumbersPastDoubleRangeAreBadInput) {
  const std::string huge = "1" + std::string(400, '0');
  for (const std::string& text : {huge, huge + "k", huge + ".5"}) {
    SCOPED_TRACE(text);
    Result<uint64_t> r = ParseSize(text);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.status().kind(), ErrorKind::kBadInput);
  }
}

TEST(ParseDuration, NumbersPastDoubleRangeAreBadInput) {
  const std::string huge = "1" + std::string(400, '0');
  for (const std::string& text : {huge, huge + "s", huge + "ms"}) {
    SCOPED_TRACE(text);
    Result<double> r = ParseDuration(text);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.status().kind(), ErrorKind::kBadInput);
  }
}

}  // namespace nasperf
