// PlanDiagnose, its estimate and its printed lines.
#include "cli/diagnose_plan.h"

#include <fmt/format.h>

#include <cmath>

#include "base/units.h"
#include "model/diagnosis.h"

namespace nasperf {
namespace {

// What the estimate adds to a step's measured time. A job step opens its target and
// removes its file (about a second); a read step on a file first lays the file out, at
// about the 1 GbE payload rate (the estimate cannot know the real one before it runs);
// a network step connects and omits its first second (slow start).
constexpr double kJobOverheadS = 1;
constexpr double kLayoutBytesPerS = 100e6;
constexpr double kNetOverheadS = 2;

DiagnoseStep JobStep(StepLayer layer, std::string label, std::string rw, uint64_t bs, uint32_t qd, double seconds,
                     double overhead_s) {
  DiagnoseStep s;
  s.layer = layer;
  s.label = std::move(label);
  s.rw = std::move(rw);
  s.bs_bytes = bs;
  s.qd = qd;
  s.seconds = seconds;
  s.overhead_s = overhead_s;
  return s;
}

// The queue depth of every sequential step on a disk, the volume or the target: the members
// are read at the volume's depth, so that their figure is the ceiling the volume's is
// compared with (at qd 1 an SSD, or a disk behind any latency, reads far below it).
constexpr uint32_t kSeqQd = 8;

// The write and read steps on a file of `size` bytes: sequential write and read, then
// random read (not quick) and random write (full).
void AddFileSteps(std::vector<DiagnoseStep>& steps, StepLayer layer, const std::string& what, DiagnoseMode mode,
                  double t, uint64_t size) {
  const double layout_s = kJobOverheadS + static_cast<double>(size) / kLayoutBytesPerS;
  steps.push_back(JobStep(layer, what + " seq write 1M", "write", 1 << 20, kSeqQd, t, kJobOverheadS));
  steps.push_back(JobStep(layer, what + " seq read 1M", "read", 1 << 20, kSeqQd, t, layout_s));
  if (mode != DiagnoseMode::kQuick)
    steps.push_back(JobStep(layer, what + " random read 4k", "randread", 4096, 32, t, layout_s));
  if (mode == DiagnoseMode::kFull)
    steps.push_back(JobStep(layer, what + " random write 4k", "randwrite", 4096, 32, t, layout_s));
}

}  // namespace

const char* DiagnoseModeName(DiagnoseMode mode) {
  switch (mode) {
    case DiagnoseMode::kQuick:
      return "quick";
    case DiagnoseMode::kFull:
      return "full";
    default:
      return "default";
  }
}

double DefaultStepSeconds(DiagnoseMode mode) {
  switch (mode) {
    case DiagnoseMode::kQuick:
      return 5;
    case DiagnoseMode::kFull:
      return 20;
    default:
      return 10;
  }
}

double DiagnosePlan::EstimatedSeconds() const {
  double total = 0;
  for (const DiagnoseStep& s : steps) total += s.seconds + s.overhead_s;
  return total;
}

DiagnosePlan PlanDiagnose(const DiagnosePlanInput& in) {
  DiagnosePlan plan;
  plan.mode = in.mode;
  plan.size_bytes = in.size_bytes;
  const double t = in.step_time_s.value_or(DefaultStepSeconds(in.mode));
  const bool quick = in.mode == DiagnoseMode::kQuick;
  std::vector<DiagnoseStep>& steps = plan.steps;

  // The client's own ceiling: no I/O, so only nasperf and the CPU are measured.
  steps.push_back(
      JobStep(StepLayer::kClient, "client ceiling (null:) seq read 1M", "read", 1 << 20, 8, t, kJobOverheadS));
  steps.push_back(
      JobStep(StepLayer::kClient, "client ceiling (null:) seq write 1M", "write", 1 << 20, 8, t, kJobOverheadS));
  if (!quick)
    steps.push_back(
        JobStep(StepLayer::kClient, "client ceiling (null:) random read 4k", "randread", 4096, 32, t, kJobOverheadS));

  if (in.agent) {
    for (const std::string& device : in.members) {
      // At the volume's depth and engine, in requests no device queue splits
      // (kMemberReadBytes; docs/lab.md): one read at a time adds each request's latency to
      // the disk's media time (the lab's members read up to ~16 % low at qd 1, 20.3 of 20
      // MB/s at qd 8; docs/lab.md).
      DiagnoseStep seq =
          JobStep(StepLayer::kMember, fmt::format("NAS disk {} seq read {} (qd {})", device, kMemberReadLabel, kSeqQd),
                  "read", kMemberReadBytes, kSeqQd, t, kJobOverheadS);
      seq.device = device;
      steps.push_back(seq);
      if (quick) continue;
      DiagnoseStep rand =
          JobStep(StepLayer::kMember, "NAS disk " + device + " random read 4k", "randread", 4096, 32, t, kJobOverheadS);
      rand.device = device;
      steps.push_back(rand);
    }
    AddFileSteps(steps, StepLayer::kVolume, "NAS volume", in.mode, t, in.size_bytes);
    for (const char* dir : {"up", "down"}) {
      for (uint32_t streams : {1u, 4u}) {
        DiagnoseStep s;
        s.layer = StepLayer::kNetwork;
        s.label = fmt::format("network {}, {} stream{}", dir, streams, streams == 1 ? "" : "s");
        s.net_dir = dir;
        s.streams = streams;
        s.seconds = t;
        s.overhead_s = kNetOverheadS;
        steps.push_back(s);
      }
    }
  }
  AddFileSteps(steps, StepLayer::kProtocol, "target", in.mode, t, in.size_bytes);
  return plan;
}

std::string DurationText(double seconds) {
  const long s = std::lround(seconds);
  if (s < 60) return fmt::format("{} s", s);
  if (s % 60 == 0) return fmt::format("{} min", s / 60);
  return fmt::format("{} min {} s", s / 60, s % 60);
}

std::vector<std::string> PlanLines(const DiagnosePlan& plan, const std::string& target) {
  std::vector<std::string> lines;
  lines.push_back(fmt::format("nasperf diagnose {} — {} plan, {} steps, test file {}, estimated {}", target,
                              DiagnoseModeName(plan.mode), plan.steps.size(), FormatSize(plan.size_bytes),
                              DurationText(plan.EstimatedSeconds())));
  for (size_t i = 0; i < plan.steps.size(); ++i) {
    const DiagnoseStep& s = plan.steps[i];
    lines.push_back(fmt::format("  {:>2}. {} ... {}", i + 1, s.label, DurationText(s.seconds)));
  }
  return lines;
}

}  // namespace nasperf
