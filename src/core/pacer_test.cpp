// The pacing schedule alone (core/pacer.h): intended starts from the rates, split over
// the threads, never moved by think time, and never reset when the target falls behind.
#include "core/pacer.h"

#include <gtest/gtest.h>

namespace nasperf {
namespace {

constexpr uint64_t kStart = 1'000'000'000ull;

TEST(Pacer, UnpacedEveryIoIsDueAtOnce) {
  Pacer pacer;
  for (int i = 0; i < 5; ++i) {
    EXPECT_EQ(pacer.due_ns(), 0u);
    pacer.Issued(4096);
  }
}

// 1,000 IOPS over 4 threads: each thread paces 250, one I/O every 4 ms.
TEST(Pacer, IopsRateIsTheJobsTotalSplitOverItsThreads) {
  Pacing p;
  p.rate_iops = 1000;
  Pacer pacer(p, 4, kStart);
  for (uint64_t i = 0; i < 10; ++i) {
    EXPECT_EQ(pacer.due_ns(), kStart + i * 4'000'000) << "I/O " << i;
    pacer.Issued(4096);
  }
}

// 1 MB/s on one thread: an I/O is due when the bytes before it have had their time,
// whatever its own size (a block-size mix paces by bytes).
TEST(Pacer, ByteRateSpacesIosByTheBytesBeforeThem) {
  Pacing p;
  p.rate_mb_per_s = 1;
  Pacer pacer(p, 1, kStart);
  EXPECT_EQ(pacer.due_ns(), kStart);
  pacer.Issued(1000);  // 1 ms of bytes
  EXPECT_EQ(pacer.due_ns(), kStart + 1'000'000);
  pacer.Issued(64000);  // 64 ms
  EXPECT_EQ(pacer.due_ns(), kStart + 65'000'000);
  pacer.Issued(4000);
  EXPECT_EQ(pacer.due_ns(), kStart + 69'000'000);
}

// Think time is not on the schedule (a closed loop, core/think_gate.h): a rate's intended
// starts are the same with or without it.
TEST(Pacer, ThinkTimeDoesNotMoveTheSchedule) {
  Pacing p;
  p.rate_iops = 1000;
  p.think_s = 0.010;
  p.burst = 3;
  Pacer pacer(p, 1, kStart);
  for (uint64_t ms = 0; ms < 7; ++ms) {
    EXPECT_EQ(pacer.due_ns(), kStart + ms * 1'000'000);
    pacer.Issued(4096);
  }
}

// The schedule is a function of the I/O's number only: issuing late (the caller decides
// when) never moves the intended starts of the ones after it.
TEST(Pacer, ScheduleIsNotResetByLateIssue) {
  Pacing p;
  p.rate_iops = 100;
  Pacer pacer(p, 1, kStart);
  for (int i = 0; i < 50; ++i) pacer.Issued(512);  // as if all were issued long after they were due
  EXPECT_EQ(pacer.due_ns(), kStart + 50 * 10'000'000ull);
  EXPECT_EQ(pacer.ios(), 50u);
}

// The slowest rate the options allow, over the most threads, with the largest blocks: the
// next I/O is centuries away, and the schedule says so without overflowing.
TEST(Pacer, AFarFutureIntendedStartDoesNotOverflow) {
  Pacing p;
  p.rate_mb_per_s = 1e-6;  // 1 B/s
  Pacer pacer(p, 1024, kStart);
  pacer.Issued(1ull << 30);
  EXPECT_GT(pacer.due_ns(), kStart + 3'000'000'000'000'000'000ull);
  EXPECT_LE(pacer.due_ns(), kStart + static_cast<uint64_t>(kFarFutureNs));
}

// PaceUntilNs returns no earlier than asked (a spin for short waits, a timer otherwise).
// It asserts only the lower bound: how late a loaded machine wakes is not for a unit test.
TEST(Pacer, PaceUntilNeverReturnsEarly) {
  for (uint64_t wait_ns : {uint64_t{0}, uint64_t{20'000}, uint64_t{200'000}}) {
    const uint64_t until = MonotonicNs() + wait_ns;
    PaceUntilNs(until);
    EXPECT_GE(MonotonicNs(), until) << wait_ns << " ns";
  }
}

}  // namespace
}  // namespace nasperf
