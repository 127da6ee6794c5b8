// The pacing core on a fake clock: latency from the intended start (no coordinated
// omission), and the buffer model's misses and stall time, with chunks of known service time.
#include "suite/app/video_pacing.h"

#include <gtest/gtest.h>

#include <vector>

#include "testing/fake_clock.h"

namespace nasperf {
namespace {

constexpr uint64_t kMs = 1'000'000;

// A chunk takes service_ns of fake time; chunk `stall_index` takes stall_ns more.
class TimedChunks final : public ChunkIo {
 public:
  TimedChunks(testing::FakeClock& clock, uint64_t service_ns, uint64_t stall_index = UINT64_MAX, uint64_t stall_ns = 0)
      : clock_(clock), service_ns_(service_ns), stall_index_(stall_index), stall_ns_(stall_ns) {}
  Status Transfer(uint64_t index) override {
    issued.push_back(clock_.ElapsedNs());
    clock_.AdvanceNs(service_ns_ + (index == stall_index_ ? stall_ns_ : 0));
    return Status::Ok();
  }
  std::vector<uint64_t> issued;

 private:
  testing::FakeClock& clock_;
  uint64_t service_ns_, stall_index_, stall_ns_;
};

// A plan whose interval is exactly `interval_ns`: chunk_bytes / rate.
PacingPlan PlanWithInterval(uint64_t interval_ns, uint64_t chunks, uint64_t buffer_ns) {
  PacingPlan plan;
  plan.chunk_bytes = 1 << 20;
  plan.rate_bytes_per_s = plan.chunk_bytes * 1'000'000'000 / interval_ns;  // exact for the intervals used here
  plan.chunks = chunks;
  plan.buffer_ns = buffer_ns;
  return plan;
}

PacingOutcome RunStream(const PacingPlan& plan, TimedChunks& io, testing::FakeClock& clock) {
  PacingOutcome out;
  RunPacedStream(clock, clock.NowNs(), plan, io, nullptr, out);
  return out;
}

TEST(VideoPacing, IssuesEachChunkAtItsIntendedStart) {
  testing::FakeClock clock;
  TimedChunks io(clock, 1 * kMs);
  PacingPlan plan = PlanWithInterval(4 * kMs, 5, 100 * kMs);
  PacingOutcome out = RunStream(plan, io, clock);
  ASSERT_TRUE(out.status.ok());
  EXPECT_EQ(io.issued, (std::vector<uint64_t>{0, 4 * kMs, 8 * kMs, 12 * kMs, 16 * kMs}));
  EXPECT_EQ(out.chunks_done, 5u);
  EXPECT_EQ(out.elapsed_ns, 17 * kMs);
}

// A 10 ms stall at an interval of 2 ms delays the chunks queued behind it: their service
// time is 1 ms as always, but they are done late against their intended starts. Timed from
// the actual issue (coordinated omission) only the stalled chunk would look slow.
TEST(VideoPacing, AStallRaisesLatencyFromIntendedStartNotOnlyServiceTime) {
  const PacingPlan plan = PlanWithInterval(2 * kMs, 100, 1000 * kMs);
  testing::FakeClock calm_clock;
  TimedChunks calm(calm_clock, 1 * kMs);
  PacingOutcome steady = RunStream(plan, calm, calm_clock);

  testing::FakeClock clock;
  TimedChunks stalled(clock, 1 * kMs, 50, 10 * kMs);
  PacingOutcome out = RunStream(plan, stalled, clock);
  ASSERT_TRUE(out.status.ok());
  ASSERT_EQ(out.chunks_done, 100u);

  // Without the stall every chunk takes 1 ms both ways.
  EXPECT_NEAR(steady.latency->Percentile(0.99), 1.0 * kMs, 0.01 * kMs);
  // The stalled chunk takes 11 ms; the chunks behind it drain the backlog, gaining 1 ms an
  // interval: 10, 9, ... 2 ms from their intended starts. So 10 chunks of 100 take 2-11 ms.
  EXPECT_GE(out.latency->Percentile(0.99), 9.9 * kMs);
  EXPECT_GE(out.latency->Percentile(0.95), 5.0 * kMs);
  EXPECT_LE(out.latency->Percentile(0.95), 7.0 * kMs);
  // Service time sees one slow chunk only: its p95 is the steady 1 ms.
  EXPECT_NEAR(out.service->Percentile(0.95), 1.0 * kMs, 0.01 * kMs);
  EXPECT_EQ(out.service->max_ns(), 11 * kMs);
  // A 1 s buffer rides it out.
  EXPECT_EQ(out.deadline_misses, 0u);
  EXPECT_EQ(out.stall_ns, 0u);
}

TEST(VideoPacing, AFastEnoughTargetMissesNothing) {
  testing::FakeClock clock;
  // 3 ms of service a 4 ms interval, a 5 ms buffer, and a 2 ms stall the buffer absorbs
  // exactly (chunk 10, intended at 40 ms, is done at 45 ms, when it is played).
  TimedChunks io(clock, 3 * kMs, 10, 2 * kMs);
  PacingOutcome out = RunStream(PlanWithInterval(4 * kMs, 50, 5 * kMs), io, clock);
  ASSERT_TRUE(out.status.ok());
  EXPECT_EQ(out.chunks_done, 50u);
  EXPECT_EQ(out.deadline_misses, 0u);
  EXPECT_EQ(out.stall_ns, 0u);
}

// Chunk k, issued at 3k ms (always behind), is done at 3(k+1) ms and played at
// 2k + 10 ms + the pauses before it. k = 0..7 are in time (3k+3 <= 2k+10); from k = 8
// each chunk is 1 ms later than the one before: 12 misses of 1 ms, 12 ms of stall.
TEST(VideoPacing, ATooSlowTargetMissesAndStallsAsTheModelSays) {
  testing::FakeClock clock;
  TimedChunks io(clock, 3 * kMs);
  PacingOutcome out = RunStream(PlanWithInterval(2 * kMs, 20, 10 * kMs), io, clock);
  ASSERT_TRUE(out.status.ok());
  EXPECT_EQ(out.chunks_done, 20u);
  EXPECT_EQ(out.deadline_misses, 12u);
  EXPECT_EQ(out.stall_ns, 12 * kMs);
  // The last chunk's latency from its intended start (38 ms) is 60 - 38 = 22 ms.
  EXPECT_EQ(out.latency->max_ns(), 22 * kMs);
  EXPECT_EQ(out.service->max_ns(), 3 * kMs);
}

TEST(VideoPacing, AOneOffStallLongerThanTheBufferPausesOnce) {
  testing::FakeClock clock;
  // Chunk 5 (intended at 20 ms, played at 30 ms) takes 1 + 25 ms: done at 46 ms, a 16 ms pause.
  TimedChunks io(clock, 1 * kMs, 5, 25 * kMs);
  PacingOutcome out = RunStream(PlanWithInterval(4 * kMs, 30, 10 * kMs), io, clock);
  EXPECT_EQ(out.deadline_misses, 1u);
  EXPECT_EQ(out.stall_ns, 16 * kMs);
}

class FailingChunks final : public ChunkIo {
 public:
  Status Transfer(uint64_t index) override { return index == 3 ? Status::Io("read failed") : Status::Ok(); }
};

TEST(VideoPacing, AFailedChunkStopsTheStreamWithItsError) {
  testing::FakeClock clock;
  FailingChunks io;
  PacingOutcome out;
  RunPacedStream(clock, clock.NowNs(), PlanWithInterval(4 * kMs, 10, 10 * kMs), io, nullptr, out);
  EXPECT_EQ(out.chunks_done, 3u);
  EXPECT_EQ(out.status.message(), "read failed");
}

}  // namespace
}  // namespace nasperf
