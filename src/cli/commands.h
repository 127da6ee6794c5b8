// One function per command; each returns the process exit status.
#pragma once

#include "cli/job_options.h"
#include "cli/protocol_options.h"

namespace nasperf {

// --on / --agent / --token-file of run, quick and sweep (cli/remote_job.h does the work).
struct AgentTargetOptions {
  std::string on;          // HOST[:PORT]: the agent runs the job on its own disks
  std::string agent;       // HOST[:PORT]: the agent samples telemetry while the job runs here
  std::string token_file;  // else NASPERF_TOKEN, else none
};

struct RunCommandOptions {
  CommonOptions common;
  JobInput job;
  AgentTargetOptions remote;
  ProtocolOptions protocol;
};
int RunCommand(const RunCommandOptions& options);

struct QuickCommandOptions {
  CommonOptions common;
  JobInput job;
  AgentTargetOptions remote;
  ProtocolOptions protocol;
};
int QuickCommand(const QuickCommandOptions& options);

struct SweepCommandOptions {
  CommonOptions common;
  std::string target = ".";
  std::string min = "64k";
  std::string max;  // empty: twice the RAM that can cache the file, capped by free space
  std::string record = "64k";
  std::string tests = "write,rewrite,read,reread,randread,randwrite";
  std::string repeat = "1";
  std::string engine;  // empty: psync here, the protocol's engine on a share
  std::string pattern = "random";
  std::string nas_ram;
  ProtocolOptions protocol;
  AgentTargetOptions remote;
  bool direct = false;
  bool fsync = false;
  bool drop_caches = false;
};
int SweepCommand(const SweepCommandOptions& options);

struct AgentCommandOptions {
  std::string listen = "127.0.0.1:7070";
  std::string root = ".";
  std::string token_file;
  bool insecure = false;
  bool json = false;
};
int AgentCommand(const AgentCommandOptions& options);

// Exit status for a failed Status, after printing its one line on stderr.
int ReportFailure(const Status& status);
int ExitCodeFor(const Status& status);

}  // namespace nasperf
