// One function per command; each returns the process exit status.
#pragma once

#include "cli/job_options.h"
#include "cli/protocol_options.h"
#include "cli/spec_job_file.h"

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
  SpecFileOptions specs;  // --fio-job, --iometer/--spec
  std::string job_file;  // --job FILE: the jobs of a job file instead of one (cli/job_file_command.cpp)
};
class Comm;
// `ranks`: this process's ranks under mpirun (src/cluster/), null for one process.
int RunCommand(const RunCommandOptions& options, Comm* ranks = nullptr);
int RunJobFileCommand(const RunCommandOptions& options);
// The jobs of a job file however it was read (TOML, fio, Iometer: model/job_file.h), bound to
// run's options, checked, then run group by group; `options` gives the command line's TARGET
// (for jobs without one), labels, output and database, and must give no job option.
struct JobFile;
int RunFileJobs(const RunCommandOptions& options, const JobFile& file);

struct QuickCommandOptions {
  CommonOptions common;
  JobInput job;
  AgentTargetOptions remote;
  ProtocolOptions protocol;
  std::string fill;  // --fill 0,33,66: the set at each volume fill level; empty: as the volume is
};
int QuickCommand(const QuickCommandOptions& options, Comm* ranks = nullptr);

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
  std::vector<std::string> allow_devices;  // --allow-device, repeatable
  bool allow_volume_members = false;
};
int AgentCommand(const AgentCommandOptions& options);

// Exit status for a failed Status, after printing its one line on stderr.
int ReportFailure(const Status& status);
int ExitCodeFor(const Status& status);

}  // namespace nasperf
