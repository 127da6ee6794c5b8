// The video workload's pure parts: the plan's checks and chunk counts, and --find-max's search.
#include "suite/app/video.h"

#include <gtest/gtest.h>

namespace nasperf {
namespace {

TEST(VideoPlan, FortyMbitIsFiveMegabytesASecond) {
  VideoPlan plan;
  EXPECT_EQ(plan.rate_bytes_per_s(), 5'000'000u);
  // 60 s x 5 MB/s = 300 MB = 286.1 MiB: 287 chunks of 1 MiB.
  EXPECT_EQ(plan.ChunksFor(60), 287u);
  EXPECT_EQ(plan.ChunksFor(0.001), 1u);
  plan.time_s = 60;
  EXPECT_EQ(plan.probe_s(), 15);
  plan.time_s = 4;
  EXPECT_EQ(plan.probe_s(), 4);  // two 2 s buffers at least
}

TEST(VideoPlan, BadValuesNameTheOption) {
  VideoPlan plan;
  EXPECT_TRUE(ValidateVideoPlan(plan).ok());
  plan.streams = 0;
  EXPECT_EQ(ValidateVideoPlan(plan).message(), "--streams 0: at least 1 stream");
  plan.streams = 1;
  plan.rate_mbit = 0;
  EXPECT_EQ(ValidateVideoPlan(plan).kind(), ErrorKind::kBadInput);
  EXPECT_NE(ValidateVideoPlan(plan).message().find("--rate"), std::string::npos);
  plan.rate_mbit = -3;
  EXPECT_EQ(ValidateVideoPlan(plan).kind(), ErrorKind::kBadInput);
  plan.rate_mbit = 40;
  plan.time_s = 0;
  EXPECT_NE(ValidateVideoPlan(plan).message().find("--time"), std::string::npos);
}

TEST(VideoPlan, MixPlaysEvenStreamsAndRecordsOddOnes) {
  VideoPlan plan;
  plan.mode = VideoMode::kMix;
  EXPECT_TRUE(plan.PlaysStream(0));
  EXPECT_FALSE(plan.PlaysStream(1));
  EXPECT_TRUE(plan.PlaysStream(2));
  plan.mode = VideoMode::kRecord;
  EXPECT_FALSE(plan.PlaysStream(0));
}

std::vector<uint32_t> Probed(const StreamSearch& s) {
  std::vector<uint32_t> n;
  for (const auto& [streams, passed] : s.probes) n.push_back(streams);
  return n;
}

// A 4 s probe of 40 Mbit/s streams (1 MiB chunks: 0.21 s apart) keeps pace when its last
// chunk is done by 4 s + 0.08 s slack + 0.21 s; 4.9 s (what 28 streams took on a link that
// carries 23) is behind pace even with no deadline missed.
TEST(VideoProbe, KeepingPaceNeedsTheLastChunkOnTime) {
  VideoPlan plan;
  const double interval_s = static_cast<double>(plan.chunk_bytes) / static_cast<double>(plan.rate_bytes_per_s());
  EXPECT_NEAR(interval_s, 0.2097, 1e-3);
  VideoProbe probe;
  probe.time_s = 4;
  probe.elapsed_s = 3.95;
  EXPECT_TRUE(probe.kept_pace(interval_s));
  probe.elapsed_s = 4.28;
  EXPECT_TRUE(probe.kept_pace(interval_s));
  probe.elapsed_s = 4.30;
  EXPECT_FALSE(probe.kept_pace(interval_s));
  probe.elapsed_s = 4.9;
  EXPECT_TRUE(probe.pass());  // no miss: the 2 s buffer hid the deficit
  EXPECT_FALSE(probe.kept_pace(interval_s));
}

TEST(StreamSearch, DoublesThenBisects) {
  Result<StreamSearch> s = SearchMaxStreams(256, [](uint32_t n) -> Result<bool> { return n <= 5; });
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s.value().max_streams, 5u);
  EXPECT_EQ(Probed(s.value()), (std::vector<uint32_t>{1, 2, 4, 8, 6, 5}));
}

TEST(StreamSearch, FindsAPowerOfTwoAndZero) {
  EXPECT_EQ(SearchMaxStreams(256, [](uint32_t n) -> Result<bool> { return n <= 2; }).value().max_streams, 2u);
  Result<StreamSearch> none = SearchMaxStreams(256, [](uint32_t) -> Result<bool> { return false; });
  EXPECT_EQ(none.value().max_streams, 0u);
  EXPECT_EQ(Probed(none.value()), (std::vector<uint32_t>{1}));
}

TEST(StreamSearch, StopsAtTheLimit) {
  Result<StreamSearch> s = SearchMaxStreams(6, [](uint32_t) -> Result<bool> { return true; });
  EXPECT_EQ(s.value().max_streams, 6u);
  EXPECT_EQ(Probed(s.value()), (std::vector<uint32_t>{1, 2, 4, 6}));
}

TEST(StreamSearch, AProbeErrorStopsTheSearch) {
  Result<StreamSearch> s =
      SearchMaxStreams(256, [](uint32_t n) -> Result<bool> { return n < 4 ? Result<bool>(true) : Status::Io("gone"); });
  EXPECT_FALSE(s.ok());
  EXPECT_EQ(s.status().message(), "gone");
}

}  // namespace
}  // namespace nasperf
