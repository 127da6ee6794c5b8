// The evidence of a diagnosis (model/diagnosis.h) gathered from what its steps measured:
// each layer's figures and runs, both ends' NICs and CPUs, the NAS's interrupts, what the
// protocol negotiated, and one line for each gap. Only figures a step measured go in.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "cli/diagnose_plan.h"
#include "cli/diagnose_steps.h"
#include "model/diagnosis.h"

namespace nasperf {

struct EvidenceInput {
  std::string target;       // as named, password redacted
  std::string target_kind;  // the URL's scheme, or "path"
  DiagnoseMode mode = DiagnoseMode::kDefault;
  bool agent = false;
  nlohmann::ordered_json client_inventory;  // this machine and TARGET
  nlohmann::ordered_json agent_inventory;   // the agent's host and root; null without one
  std::vector<std::string> not_measured;    // gaps found before the steps (no member named)
  std::optional<int64_t> line_rate_mbps;    // --line: the path's line rate as stated
};

// `outcomes[i]` is what plan.steps[i] measured; a plan cut short has fewer.
Evidence GatherEvidence(const EvidenceInput& in, const DiagnosePlan& plan, const std::vector<StepOutcome>& outcomes);

// The member devices of the volume the agent's root is on (sysinfo::VolumeMembers: a
// RAID's members, else the file system's own device), as "/dev/NAME".
std::vector<std::string> MemberDevices(const nlohmann::ordered_json& agent_inventory);

}  // namespace nasperf
