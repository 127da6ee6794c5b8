// PlanDiagnose: which steps each mode runs, with and without an agent, and the estimate.
#include "cli/diagnose_plan.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "model/diagnosis.h"

namespace nasperf {
namespace {

size_t CountLayer(const DiagnosePlan& plan, StepLayer layer) {
  return static_cast<size_t>(
      std::count_if(plan.steps.begin(), plan.steps.end(), [&](const DiagnoseStep& s) { return s.layer == layer; }));
}

bool AnyRandom(const DiagnosePlan& plan) {
  return std::any_of(plan.steps.begin(), plan.steps.end(),
                     [](const DiagnoseStep& s) { return s.rw == "randread" || s.rw == "randwrite"; });
}

DiagnosePlanInput WithAgent(DiagnoseMode mode) {
  DiagnosePlanInput in;
  in.mode = mode;
  in.agent = true;
  in.members = {"/dev/sdb", "/dev/sdc"};
  in.size_bytes = 256 << 20;
  return in;
}

TEST(DiagnosePlan, QuickIsSequentialOnlyAndAboutAMinute) {
  DiagnosePlanInput in = WithAgent(DiagnoseMode::kQuick);
  in.members.clear();
  DiagnosePlan plan = PlanDiagnose(in);
  EXPECT_FALSE(AnyRandom(plan));
  // client read + write, volume write + read, net up/down x 1/4 streams, target write + read.
  EXPECT_EQ(plan.steps.size(), 10u);
  EXPECT_EQ(CountLayer(plan, StepLayer::kNetwork), 4u);
  EXPECT_GE(plan.EstimatedSeconds(), 45);
  EXPECT_LE(plan.EstimatedSeconds(), 90);
}

TEST(DiagnosePlan, StepsRunLayerByLayerInOrder) {
  DiagnosePlan plan = PlanDiagnose(WithAgent(DiagnoseMode::kDefault));
  ASSERT_FALSE(plan.steps.empty());
  EXPECT_TRUE(std::is_sorted(plan.steps.begin(), plan.steps.end(), [](const DiagnoseStep& a, const DiagnoseStep& b) {
    return static_cast<int>(a.layer) < static_cast<int>(b.layer);
  }));
  EXPECT_EQ(plan.steps.front().layer, StepLayer::kClient);
  EXPECT_EQ(plan.steps.back().layer, StepLayer::kProtocol);
}

TEST(DiagnosePlan, EveryMemberIsReadSequentiallyAndAtRandom) {
  DiagnosePlan plan = PlanDiagnose(WithAgent(DiagnoseMode::kDefault));
  ASSERT_EQ(CountLayer(plan, StepLayer::kMember), 4u);
  auto volume_seq_read = std::find_if(plan.steps.begin(), plan.steps.end(), [](const DiagnoseStep& s) {
    return s.layer == StepLayer::kVolume && s.rw == "read";
  });
  ASSERT_NE(volume_seq_read, plan.steps.end());
  for (const DiagnoseStep& s : plan.steps) {
    if (s.layer != StepLayer::kMember) continue;
    EXPECT_TRUE(s.rw == "read" || s.rw == "randread") << s.label << ": members are only read";
    EXPECT_FALSE(s.device.empty());
    // A sequential member read is the volume's read (its depth, its engine) in requests no
    // device queue splits, so the members' figure is a ceiling for the volume's.
    if (s.rw == "read") {
      EXPECT_EQ(s.engine, "") << s.label;
      EXPECT_EQ(s.qd, volume_seq_read->qd) << s.label;
      EXPECT_EQ(s.bs_bytes, kMemberReadBytes) << s.label;
    }
  }
}

TEST(DiagnosePlan, FullAddsRandomWritesAndLongerSteps) {
  DiagnosePlan normal = PlanDiagnose(WithAgent(DiagnoseMode::kDefault));
  DiagnosePlan full = PlanDiagnose(WithAgent(DiagnoseMode::kFull));
  auto writes = [](const DiagnosePlan& p) {
    return std::count_if(p.steps.begin(), p.steps.end(), [](const DiagnoseStep& s) { return s.rw == "randwrite"; });
  };
  EXPECT_EQ(writes(normal), 0);
  EXPECT_EQ(writes(full), 2);  // the volume and the target
  EXPECT_GT(full.steps.front().seconds, normal.steps.front().seconds);
  EXPECT_GT(full.EstimatedSeconds(), normal.EstimatedSeconds());
}

TEST(DiagnosePlan, WithoutAgentOnlyClientAndProtocol) {
  DiagnosePlanInput in = WithAgent(DiagnoseMode::kDefault);
  in.agent = false;
  DiagnosePlan plan = PlanDiagnose(in);
  EXPECT_EQ(CountLayer(plan, StepLayer::kMember), 0u);
  EXPECT_EQ(CountLayer(plan, StepLayer::kVolume), 0u);
  EXPECT_EQ(CountLayer(plan, StepLayer::kNetwork), 0u);
  EXPECT_EQ(CountLayer(plan, StepLayer::kClient), 3u);
  EXPECT_EQ(CountLayer(plan, StepLayer::kProtocol), 3u);
}

TEST(DiagnosePlan, EstimateIsStepTimesPlusOverheads) {
  DiagnosePlanInput in = WithAgent(DiagnoseMode::kQuick);
  in.members.clear();
  in.step_time_s = 2;
  DiagnosePlan plan = PlanDiagnose(in);
  double measured = 0, overhead = 0;
  for (const DiagnoseStep& s : plan.steps) {
    EXPECT_EQ(s.seconds, 2);
    measured += s.seconds;
    overhead += s.overhead_s;
  }
  EXPECT_DOUBLE_EQ(plan.EstimatedSeconds(), measured + overhead);
  // A read of a file lays the file out first: a bigger file costs more time.
  DiagnosePlanInput bigger = in;
  bigger.size_bytes *= 4;
  EXPECT_GT(PlanDiagnose(bigger).EstimatedSeconds(), plan.EstimatedSeconds());
}

TEST(DiagnosePlan, LinesNameEveryStepAndTheTotal) {
  DiagnosePlan plan = PlanDiagnose(WithAgent(DiagnoseMode::kQuick));
  std::vector<std::string> lines = PlanLines(plan, "smb://nas/share");
  ASSERT_EQ(lines.size(), plan.steps.size() + 1);
  EXPECT_NE(lines[0].find("estimated " + DurationText(plan.EstimatedSeconds())), std::string::npos) << lines[0];
  for (size_t i = 0; i < plan.steps.size(); ++i)
    EXPECT_NE(lines[i + 1].find(plan.steps[i].label), std::string::npos) << lines[i + 1];
  EXPECT_TRUE(std::any_of(lines.begin(), lines.end(),
                          [](const std::string& l) { return l.find("network up, 1 stream ") != std::string::npos; }));
}

TEST(DiagnosePlan, DurationText) {
  EXPECT_EQ(DurationText(5), "5 s");
  EXPECT_EQ(DurationText(60), "1 min");
  EXPECT_EQ(DurationText(150), "2 min 30 s");
}

}  // namespace
}  // namespace nasperf
