// --dist's text: each form parses to its fields and prints back the same, and a bad one
// is refused naming the option.
#include <gtest/gtest.h>

#include "nasperf/job.h"

namespace nasperf {
namespace {

TEST(OffsetDistributionText, EachFormRoundTrips) {
  for (const char* text : {"uniform", "zipf:1.2", "zipf:0.5", "pareto:0.2", "hotspot:80/20", "hotspot:99.5/0.5"}) {
    Result<OffsetDistribution> dist = ParseOffsetDistribution(text);
    ASSERT_TRUE(dist.ok()) << text << ": " << dist.status().message();
    EXPECT_EQ(ToString(dist.value()), text);
  }
  Result<OffsetDistribution> hot = ParseOffsetDistribution("hotspot:80%/20%");
  ASSERT_TRUE(hot.ok());
  EXPECT_EQ(hot.value().kind, OffsetDistribution::Kind::kHotspot);
  EXPECT_EQ(hot.value().access_pct, 80);
  EXPECT_EQ(hot.value().region_pct, 20);
  EXPECT_EQ(ParseOffsetDistribution("zipf:1.2").value().theta, 1.2);
}

TEST(OffsetDistributionText, BadFormsNameTheOption) {
  for (const char* text :
       {"", "gauss", "zipf", "zipf:", "zipf:0", "zipf:-1", "zipf:11", "zipf:nan", "zipf:1.2x", "pareto:0", "pareto:1",
        "pareto:abc", "hotspot:80", "hotspot:80/0", "hotspot:101/20", "hotspot:80/100", "hotspot:/20", "uniform:1"}) {
    Result<OffsetDistribution> dist = ParseOffsetDistribution(text);
    ASSERT_FALSE(dist.ok()) << text;
    EXPECT_EQ(dist.status().message().rfind("--dist: '", 0), 0u) << dist.status().message();
  }
}

}  // namespace
}  // namespace nasperf
