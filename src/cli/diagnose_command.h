// `nasperf diagnose TARGET [--agent HOST[:PORT]]`: where the throughput goes, layer by
// layer (issue 17). A plan of steps, each an ordinary stored run tagged diagnosis=dN, the
// evidence they measured, and the rules' diagnosis printed as a table or one JSON document.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

#include "cli/job_options.h"
#include "cli/protocol_options.h"

namespace nasperf {

struct DiagnoseCommandOptions {
  CommonOptions common;
  std::string target;
  std::string agent;       // HOST[:PORT]: the agent on the NAS; without it, client and protocol only
  std::string token_file;  // else NASPERF_TOKEN
  bool quick = false;      // sequential only, about a minute
  bool full = false;       // random writes too, longer steps
  std::string step_time;   // seconds per step; default by mode (quick 5, default 10, full 20)
  std::string size;        // the test file of the write and read steps; default by mode, within free space
  std::string line;        // the path's line rate as stated ("1g", "100m", Mbit/s); else the NICs'
  ProtocolOptions protocol;
};

CLI::App* AddDiagnoseCommand(CLI::App& app, DiagnoseCommandOptions& options);
int DiagnoseCommand(const DiagnoseCommandOptions& options);

}  // namespace nasperf
