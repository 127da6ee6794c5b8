// `nasperf net HOST[:PORT]`: TCP throughput between this client and a `nasperf agent`.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

#include "cli/job_options.h"

namespace nasperf {

struct NetCommandOptions {
  CommonOptions common;
  std::string address;  // HOST[:PORT] of the agent
  std::string dir = "up";
  std::string streams = "1";
  std::string time = "10";
  std::string omit = "1";  // seconds after the start not counted, like iperf3 -O
  std::string bs = "128k";
  std::string token_file;
  bool no_zerocopy = false;
};

// Adds `net` and its options to `app`; returns the subcommand.
CLI::App* AddNetCommand(CLI::App& app, NetCommandOptions& options);
int NetCommand(const NetCommandOptions& options);

}  // namespace nasperf
