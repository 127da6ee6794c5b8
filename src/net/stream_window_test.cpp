// Unit tests of the net window arithmetic: a fake clock and fake receive logs, no sockets.
#include "net/stream_window.h"

#include <gtest/gtest.h>

namespace nasperf::net {
namespace {

constexpr uint64_t kMs = 1000000;
constexpr uint64_t kS = 1000 * kMs;

// A fake stream: every `step_ns` from `from_ns` to `to_ns` (fake clock) it receives
// `bytes_per_step`, and logs what it has, as ReceiveLoop does after each recv.
uint64_t Feed(ByteLog& log, uint64_t& total, uint64_t from_ns, uint64_t to_ns, uint64_t step_ns,
              uint64_t bytes_per_step) {
  uint64_t fed = 0;
  for (uint64_t t = from_ns; t < to_ns; t += step_ns) {
    total += bytes_per_step;
    fed += bytes_per_step;
    log.Record(t, total);
  }
  return fed;
}

TEST(NetWindow, PlannedWindowOpensAfterTheOmitInterval) {
  Window w = PlannedWindow(100 * kS, 1.0, 10.0);
  EXPECT_EQ(w.start_ns, 101 * kS);
  EXPECT_EQ(w.end_ns, 111 * kS);
  EXPECT_DOUBLE_EQ(w.seconds(), 10.0);
  EXPECT_EQ(PlannedWindow(5 * kS, 0, 2).start_ns, 5 * kS);
}

TEST(NetWindow, EndsAtTheFirstStreamThatStopped) {
  Window planned = PlannedWindow(0, 1.0, 10.0);
  // Every stream ran past the end: the planned window stands.
  EXPECT_EQ(EndAtFirstStop(planned, {12 * kS, 11 * kS + 1}).end_ns, 11 * kS);
  // One stream stopped at 4 s: every stream is counted to 4 s.
  Window cut = EndAtFirstStop(planned, {12 * kS, 4 * kS, 6 * kS});
  EXPECT_EQ(cut.start_ns, 1 * kS);
  EXPECT_EQ(cut.end_ns, 4 * kS);
  // Stopped inside the omit interval, or moved nothing at all: an empty window.
  EXPECT_EQ(EndAtFirstStop(planned, {500 * kMs}).length_ns(), 0u);
  EXPECT_EQ(EndAtFirstStop(planned, {0, 12 * kS}).length_ns(), 0u);
}

TEST(NetWindow, WireOffsetsAreMicrosecondsAfterTheBarrier) {
  EXPECT_EQ(UsAfter(10 * kS, 11 * kS + 500), 1000000u);
  EXPECT_EQ(UsAfter(10 * kS, 9 * kS), 0u);
  EXPECT_EQ(NsAt(10 * kS, 1500000), 11 * kS + 500 * kMs);
}

// Bytes before the barrier (what a sender pushed while other streams attached) and
// inside the omit interval are not counted; the window's bytes are, exactly.
TEST(NetWindow, OnlyBytesInsideTheWindowCount) {
  const uint64_t barrier = 50 * kS, o = 5 * kMs;  // receives fall 5 ms off the boundaries
  ByteLog log;
  uint64_t total = 0;
  Feed(log, total, 47 * kS + o, barrier, 10 * kMs, 1000);               // before the barrier
  Feed(log, total, barrier + o, barrier + 1 * kS, 10 * kMs, 5000);      // omit interval
  const uint64_t in = Feed(log, total, barrier + 1 * kS + o, barrier + 3 * kS, 10 * kMs, 7000);
  Feed(log, total, barrier + 3 * kS + o, barrier + 4 * kS, 10 * kMs, 9000);  // the tail after the end
  Window w = PlannedWindow(barrier, 1.0, 2.0);
  EXPECT_EQ(log.BytesIn(w), in);
  EXPECT_EQ(log.BytesIn(w), 200u * 7000);
  EXPECT_EQ(log.BytesIn(Window{w.start_ns, w.start_ns}), 0u);
  // A receive exactly at a boundary: at the start it is the omit interval's, at the end
  // the window's (the window is (start, end]).
  ByteLog edge;
  edge.Record(w.start_ns, 10);
  edge.Record(w.start_ns + 500 * kMs, 30);
  edge.Record(w.end_ns, 70);
  edge.Record(w.end_ns + 1, 150);
  EXPECT_EQ(edge.BytesIn(w), 60u);
}

// A late stream (attached while the others were already sending) and an early one are
// counted over the same window: neither inflates nor deflates its share.
TEST(NetWindow, StreamsCountedOverOneCommonWindow) {
  const uint64_t barrier = 10 * kS;
  ByteLog early, late;
  uint64_t early_total = 0, late_total = 0;
  Feed(early, early_total, 8 * kS, 13 * kS, 5 * kMs, 100);   // sending 2 s before the barrier
  Feed(late, late_total, 10 * kS, 13 * kS, 5 * kMs, 100);    // from the barrier on
  Window w = EndAtFirstStop(PlannedWindow(barrier, 0.5, 2.0), {13 * kS, 13 * kS});
  EXPECT_EQ(early.BytesIn(w), late.BytesIn(w));
  EXPECT_EQ(early.BytesIn(w), 400u * 100);
}

TEST(NetWindow, ALongLogCompactsWithoutLosingTheTotal) {
  ByteLog log(16, 1 * kMs);
  uint64_t total = 0;
  Feed(log, total, 0, 10 * kS, 1 * kMs, 10);  // 10000 records into 16 points
  EXPECT_GT(log.resolution_ns(), 500 * kMs);
  EXPECT_EQ(log.BytesAt(20 * kS), total);
  EXPECT_EQ(log.BytesIn(Window{0, 20 * kS}), total - log.BytesAt(0));
  // Off by at most one resolution step of bytes (10 B per ms here) at each end.
  const double step_bytes = static_cast<double>(log.resolution_ns()) / kMs * 10;
  EXPECT_NEAR(static_cast<double>(log.BytesIn(Window{2 * kS, 8 * kS})), 60000.0, 2 * step_bytes);
}

TEST(NetWindow, NothingRecordedCountsNothing) {
  ByteLog log;
  EXPECT_EQ(log.BytesAt(5 * kS), 0u);
  EXPECT_EQ(log.BytesIn(Window{0, 5 * kS}), 0u);
  log.Record(2 * kS, 0);  // receives that timed out
  log.Record(3 * kS, 0);
  EXPECT_EQ(log.BytesIn(Window{0, 5 * kS}), 0u);
}

}  // namespace
}  // namespace nasperf::net
