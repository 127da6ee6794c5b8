// EncodeRankRun / DecodeRankRun: what travels to rank 0 comes back whole, histograms
// included; anything else is refused in one line.
#include "cluster/rank_payload.h"

#include <gtest/gtest.h>

#include <cstring>

#include "core/runner.h"
#include "stats/histogram.h"
#include "stats/latency_summary.h"

namespace nasperf {
namespace {

RankRun Sample() {
  auto h = std::make_shared<LatencyHistogram>();
  for (uint64_t v = 1000; v < 900000; v += 777) h->Record(v);
  RankRun r;
  r.rank = 3;
  r.reported = true;
  r.host = "client-3";
  r.nic = RankNic{"enp3s0", 10000, 9000};
  r.start_realtime_ns = 1764633600123456789;
  r.run.target = "/tmp/x";
  r.run.read = SummariseDirection(123456789, h->count(), 2.5, 1, h);
  r.run.samples = {{1.0, 50.0, 0}, {2.0, 49.0, 0}};
  return r;
}

TEST(RankPayload, RoundTripKeepsFiguresAndBuckets) {
  RankRun in = Sample();
  Result<RankRun> out = DecodeRankRun(EncodeRankRun(in));
  ASSERT_TRUE(out.ok()) << out.status().message();
  EXPECT_EQ(out.value().rank, 3);
  EXPECT_EQ(out.value().host, "client-3");
  EXPECT_EQ(out.value().start_realtime_ns, in.start_realtime_ns);
  ASSERT_TRUE(out.value().run.read && out.value().run.read->histogram);
  EXPECT_EQ(out.value().run.read->bytes, 123456789u);
  EXPECT_EQ(out.value().run.read->histogram->count(), in.run.read->histogram->count());
  EXPECT_EQ(out.value().run.read->histogram->Percentile(0.99), in.run.read->histogram->Percentile(0.99));
  EXPECT_EQ(out.value().run.samples.size(), 2u);
  ASSERT_TRUE(out.value().nic);
  EXPECT_EQ(*out.value().nic, (RankNic{"enp3s0", 10000, 9000}));
}

// Issue 20 item 3: a rank's NIC travels with its result; unknown speed or MTU stays
// unknown, and a rank without a NIC in its path (a local target) has none.
TEST(RankPayload, NicWithUnknownFiguresOrNoneAtAllRoundTrips) {
  RankRun in = Sample();
  in.nic = RankNic{"eth0", std::nullopt, 1500};
  Result<RankRun> out = DecodeRankRun(EncodeRankRun(in));
  ASSERT_TRUE(out.ok()) << out.status().message();
  ASSERT_TRUE(out.value().nic);
  EXPECT_EQ(*out.value().nic, (RankNic{"eth0", std::nullopt, 1500}));
  in.nic.reset();
  out = DecodeRankRun(EncodeRankRun(in));
  ASSERT_TRUE(out.ok()) << out.status().message();
  EXPECT_FALSE(out.value().nic);
}

// The head part rebuilt with `key` as given: what a faulty or hostile rank could send.
std::string WithHead(const std::string& key, const std::string& value_json) {
  RankRun r = Sample();
  r.nic.reset();
  std::string good = EncodeRankRun(r);
  uint64_t n = 0;
  std::memcpy(&n, good.data(), sizeof n);
  std::string head = good.substr(sizeof n, n);
  head.insert(head.size() - 1, ",\"" + key + "\":" + value_json);
  const uint64_t m = head.size();
  return std::string(reinterpret_cast<const char*>(&m), sizeof m) + head + good.substr(sizeof n + n);
}

// Issue 20 item 1: a rank's region of a shared LUN travels with its result.
TEST(RankPayload, RegionRoundTripsAndABadOneIsRefused) {
  RankRun in = Sample();
  in.region = RankRegion{4u << 20, 4u << 20};
  Result<RankRun> out = DecodeRankRun(EncodeRankRun(in));
  ASSERT_TRUE(out.ok()) << out.status().message();
  EXPECT_EQ(out.value().region, in.region);
  in.region.reset();
  out = DecodeRankRun(EncodeRankRun(in));
  ASSERT_TRUE(out.ok());
  EXPECT_FALSE(out.value().region);
}

std::string WithNic(const std::string& nic_json) { return WithHead("nic", nic_json); }

TEST(RankPayload, BadRegionIsOneClearError) {
  ASSERT_TRUE(DecodeRankRun(WithHead("region", R"({"offset_bytes":0,"bytes":4096})")).ok());
  for (const char* bad : {R"([0,4096])", R"({"bytes":4096})", R"({"offset_bytes":-1,"bytes":4096})",
                          R"({"offset_bytes":0,"bytes":"4k"})", R"({"offset_bytes":0,"bytes":1.5})",
                          R"({"offset_bytes":9223372036854775807,"bytes":1})",
                          R"({"offset_bytes":0,"bytes":18446744073709551615})"}) {
    Result<RankRun> r = DecodeRankRun(WithHead("region", bad));
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_EQ(r.status().kind(), ErrorKind::kBadInput) << bad;
    EXPECT_TRUE(r.status().message().starts_with("rank result: region")) << r.status().message();
  }
}

TEST(RankPayload, BadNicIsOneClearError) {
  ASSERT_TRUE(DecodeRankRun(WithNic(R"({"name":"eth0","speed_mbps":1000,"mtu":1500})")).ok());
  ASSERT_TRUE(DecodeRankRun(WithNic(R"({"name":"eth0","speed_mbps":null,"mtu":null})")).ok());
  for (const char* bad : {R"("eth0")", R"({"speed_mbps":1000})", R"({"name":7})", R"({"name":""})",
                          R"({"name":"eth0","mtu":"1500"})", R"({"name":"eth0","mtu":-1})",
                          R"({"name":"eth0","speed_mbps":1.5})", R"({"name":"eth0","mtu":1e300})",
                          R"({"name":"eth0\nrank 0: ok"})"}) {
    Result<RankRun> r = DecodeRankRun(WithNic(bad));
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_EQ(r.status().kind(), ErrorKind::kBadInput) << bad;
    EXPECT_TRUE(r.status().message().starts_with("rank result: nic")) << r.status().message();
    EXPECT_EQ(r.status().message().find('\n'), std::string::npos) << r.status().message();
  }
}

TEST(RankPayload, TruncatedOrGarbledBytesAreRefused) {
  const std::string good = EncodeRankRun(Sample());
  for (size_t cut : {size_t{0}, size_t{3}, size_t{8}, good.size() / 2, good.size() - 1})
    EXPECT_FALSE(DecodeRankRun(good.substr(0, cut)).ok()) << cut;
  EXPECT_FALSE(DecodeRankRun(good + "x").ok());
  std::string huge_length = good;
  huge_length[7] = '\x7f';
  EXPECT_FALSE(DecodeRankRun(huge_length).ok());
}


// Issue 33 item 6: a paced run's service-time buckets, a mixed-size run's per-size
// buckets and the rank's cold-read note travel to rank 0 with its run.
TEST(RankPayload, ServiceAndPerSizeHistogramsAndTheColdReadNoteRoundTrip) {
  RankRun in = Sample();
  auto service = std::make_shared<LatencyHistogram>();
  for (uint64_t v = 500; v < 90000; v += 333) service->Record(v);
  in.run.job.pacing.rate_iops = 500;
  PacingFacts p;
  p.target_iops = 500;
  p.achieved_iops = 499;
  p.read_service = LatencySummaryOf(*service);
  p.read_service_histogram = service;
  in.run.pacing = p;
  auto small = std::make_shared<LatencyHistogram>();
  small->Record(12345);
  SizeResult size;
  size.bs = 4096;
  size.read = SummariseDirection(4096, 1, 1, 0, small);
  in.run.per_size = {size};
  in.cold_read = "page cache dropped; mincore found at most 0.0 % of the 8 MiB still cached";
  Result<RankRun> out = DecodeRankRun(EncodeRankRun(in));
  ASSERT_TRUE(out.ok()) << out.status().message();
  ASSERT_TRUE(out.value().run.pacing && out.value().run.pacing->read_service_histogram);
  EXPECT_EQ(out.value().run.pacing->read_service_histogram->count(), service->count());
  EXPECT_EQ(out.value().run.pacing->read_service_histogram->Percentile(0.99), service->Percentile(0.99));
  ASSERT_EQ(out.value().run.per_size.size(), 1u);
  ASSERT_TRUE(out.value().run.per_size[0].read && out.value().run.per_size[0].read->histogram);
  EXPECT_EQ(out.value().run.per_size[0].read->histogram->max_ns(), small->max_ns());
  EXPECT_EQ(out.value().cold_read, in.cold_read);
  // Cut inside the new parts: refused, not half read.
  const std::string bytes = EncodeRankRun(in);
  EXPECT_FALSE(DecodeRankRun(bytes.substr(0, bytes.size() - 3)).ok());
}

}  // namespace
}  // namespace nasperf
