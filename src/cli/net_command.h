// `nasperf net HOST[:PORT]`: TCP throughput between this client and a `nasperf agent`.
#pragma once

#include <CLI/CLI.hpp>
#include <map>
#include <string>

#include "cli/job_options.h"
#include "net/net_client.h"

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

// What the user typed, checked, before anything is opened or stored: the test as the
// client runs it, and the run's tags. `diagnose` builds its network steps the same way.
struct NetRequest {
  net::NetTestOptions test;
  std::map<std::string, std::string> tags;
};
// BadInput, one line, for a bad option, address, token file or tag.
Result<NetRequest> ParseNetRequest(const NetCommandOptions& options);
// The run a network test is stored as (streams are its threads, the omit its ramp), and
// what the test measured put into it: figures, samples, telemetry, the notes.
RunResult NetRunRecord(const NetCommandOptions& options, const NetRequest& request);
void AddNetFigures(const NetCommandOptions& options, const net::NetTestOutcome& outcome, RunResult& run);

// Adds `net` and its options to `app`; returns the subcommand.
CLI::App* AddNetCommand(CLI::App& app, NetCommandOptions& options);
int NetCommand(const NetCommandOptions& options);

}  // namespace nasperf
