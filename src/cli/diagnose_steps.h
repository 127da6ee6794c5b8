// Running the steps of a diagnose plan (cli/diagnose_plan.h): each job step through a
// RunSession on the site of its layer, each network step as `nasperf net` runs it, every
// one an ordinary stored run carrying the diagnosis tag.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "cli/diagnose_plan.h"
#include "cli/progress.h"
#include "cli/run_recorder.h"
#include "nasperf/result.h"
#include "net/net_client.h"
#include "suite/job_site.h"

namespace nasperf {

struct StepOutcome {
  bool ran = false;      // a run was measured (and, unless --no-store, stored)
  bool skipped = false;  // not measured, not a failure (the agent refused a device): `note` says why
  RunResult result;
  std::optional<net::NetTestResult> net;  // network steps
  // Protocol steps: this machine's CPUs sampled at 1 Hz around the job (the telemetry
  // sampler's document), the client's CPU the rules weigh; null for the other steps.
  nlohmann::ordered_json client_telemetry;
  Status status;                          // why the step failed or stopped early
  std::string note;
};

// A site and its inventory, gathered once.
struct StepSite {
  JobSite* site = nullptr;
  nlohmann::ordered_json inventory;
};

// Where each layer's steps run and what they are tagged and sized with.
struct StepContext {
  StepSite client;  // null: here
  StepSite target;  // TARGET here (the agent's telemetry around each job when there is one)
  StepSite agent;   // the agent's root and devices (--on); site null without an agent
  std::string target_spec;
  std::string agent_address;  // HOST[:PORT]
  std::string token_file;
  uint64_t size_bytes = 0;
  std::string name;                         // --name: each run is "NAME: step label"; else the label
  std::map<std::string, std::string> tags;  // the user's and diagnosis=dN
  RunRecorder* recorder = nullptr;
  ProgressLine* progress = nullptr;
};

StepOutcome RunStep(const DiagnoseStep& step, StepContext& ctx);

}  // namespace nasperf
