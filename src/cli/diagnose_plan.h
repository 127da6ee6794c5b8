// The plan of `nasperf diagnose` (issue 17): which steps run, layer by layer, in what
// order, for how long, and the estimated total time printed before anything runs. Pure
// data from the options and what the agent's inventory named, so it is unit-tested.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace nasperf {

enum class DiagnoseMode { kQuick, kDefault, kFull };
const char* DiagnoseModeName(DiagnoseMode mode);  // "quick" | "default" | "full"

// The layer a step measures, in the order the plan runs them.
enum class StepLayer { kClient, kMember, kVolume, kNetwork, kProtocol };

struct DiagnoseStep {
  StepLayer layer = StepLayer::kClient;
  std::string label;  // "network up, 1 stream": the progress line and the run's name
  // Job steps: the run's options as typed (--rw, --bs, --qd); empty for network steps.
  std::string rw;  // "read", "write", "randread", "randwrite"
  uint64_t bs_bytes = 0;
  uint32_t qd = 1;
  std::string engine;  // --engine when the step needs one ("psync"); empty: the job's default
  std::string device;  // member steps: the device read raw on the NAS ("/dev/sdb")
  // Network steps: direction and streams.
  std::string net_dir;  // "up" | "down"
  uint32_t streams = 0;
  double seconds = 0;     // measured time
  double overhead_s = 0;  // what the estimate adds: layout of the file, connection, omit
};

struct DiagnosePlanInput {
  DiagnoseMode mode = DiagnoseMode::kDefault;
  std::optional<double> step_time_s;  // --step-time; else the mode's
  bool agent = false;                 // --agent given: NAS disks, volume and network steps
  std::vector<std::string> members;   // member devices from the agent's inventory
  uint64_t size_bytes = 0;            // the test file of write and read steps
};

struct DiagnosePlan {
  DiagnoseMode mode = DiagnoseMode::kDefault;
  uint64_t size_bytes = 0;
  std::vector<DiagnoseStep> steps;
  // The sum of every step's time and overhead, seconds.
  double EstimatedSeconds() const;
};

// The mode's step time: quick 5 s, default 10 s, full 20 s.
double DefaultStepSeconds(DiagnoseMode mode);

// client ceiling (null: seq read and write 1M, and 4k random read unless quick); each member seq
// (and random unless quick) read; the volume seq write and read (and random read unless
// quick, random write in full); the network up and down with 1 and 4 streams; the target
// seq write and read (random read unless quick, random write in full). No agent: client
// and protocol steps only.
DiagnosePlan PlanDiagnose(const DiagnosePlanInput& input);

// The plan as the lines printed before the steps: one per step and the estimated total.
std::vector<std::string> PlanLines(const DiagnosePlan& plan, const std::string& target);

// "45 s", "2 min 30 s".
std::string DurationText(double seconds);

}  // namespace nasperf
