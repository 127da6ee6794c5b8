// ThinkGate's closed loop: a burst's I/Os, then nothing until they have all completed,
// then the think time from that completion.
#include "core/think_gate.h"

#include <gtest/gtest.h>

namespace nasperf {
namespace {

Pacing ThinkAfter(uint32_t burst, double think_s) {
  Pacing p;
  p.think_s = think_s;
  p.burst = burst;
  return p;
}

TEST(ThinkGate, WithoutThinkTimeItNeverCloses) {
  ThinkGate gate;
  EXPECT_FALSE(gate.active());
  for (int i = 0; i < 10; ++i) {
    EXPECT_TRUE(gate.may_issue(0));
    gate.Issued();
  }
  EXPECT_FALSE(ThinkGate(Pacing{.rate_iops = 100}).active()) << "a rate is the pacer's, not a think";
}

TEST(ThinkGate, ClosesAfterTheBurstUntilItDrainsThenThinksFromTheLastCompletion) {
  ThinkGate gate(ThinkAfter(3, 0.010));
  ASSERT_TRUE(gate.active());
  for (int i = 0; i < 3; ++i) {
    ASSERT_TRUE(gate.may_issue(1'000));
    gate.Issued();
  }
  EXPECT_FALSE(gate.may_issue(1'000)) << "the burst is out: nothing more until it drains";
  EXPECT_EQ(gate.resume_ns(), 0u) << "draining waits for completions, not for a time";
  gate.Reaped(2, 5'000'000);
  EXPECT_FALSE(gate.may_issue(5'000'000)) << "two still in flight";
  gate.Reaped(0, 7'000'000);  // the burst's last completion at 7 ms
  EXPECT_EQ(gate.resume_ns(), 17'000'000u);
  EXPECT_FALSE(gate.may_issue(16'999'999));
  EXPECT_TRUE(gate.may_issue(17'000'000));
  gate.Issued();
  EXPECT_TRUE(gate.may_issue(17'000'001)) << "the next burst has two more to go";
  EXPECT_EQ(gate.resume_ns(), 0u);
}

TEST(ThinkGate, ABurstOfZeroIsABurstOfOne) {
  ThinkGate gate(ThinkAfter(0, 0.001));
  gate.Issued();
  EXPECT_FALSE(gate.may_issue(0));
  gate.Reaped(0, 0);
  EXPECT_EQ(gate.resume_ns(), 1'000'000u);
}

}  // namespace
}  // namespace nasperf
