// `nasperf app`: the parent command, its subcommands' registration, and what they share
// (opening an end, the client's RAM, printing).
#include "cli/app_command.h"

#include "report/rank_table.h"

#include <fmt/format.h>

#include <cstdio>

#include "cli/app_on_agent.h"
#include "cli/app_video_command.h"
#include "cli/commands.h"
#include "model/run_json.h"
#include "proto/open_app_fs.h"
#include "report/app_text.h"
#include "sysinfo/host_info.h"

namespace nasperf {
namespace {

// One line per subcommand; each in its own file (cli/app_<name>_command.cpp).
constexpr AppRegistrar kAppSubcommands[] = {
    AddFileCopyCommand,
    AddDirCopyCommand,
    AddVideoCommand, AddBackupCommand, AddRestoreCommand,  // cli/app_video_command.h
    AddPhotoAlbumCommand,
    AddOfficeCommand,
};

std::string Timeline(const RunResult& run) {
  if (run.samples.empty()) return "";
  std::string out = "per-second MB/s (read/write):";
  for (const Sample& s : run.samples) out += fmt::format(" {:.0f}/{:.0f}", s.read_mb_per_s, s.write_mb_per_s);
  return out + "\n";
}

}  // namespace

CLI::App* AddAppCommand(CLI::App& root, AppCommands& commands) {
  commands.cmd = root.add_subcommand(
      "app", "application workloads, NASPT-style: file-copy, dir-copy ... (elapsed seconds and MB/s)");
  commands.cmd->require_subcommand(1);
  for (AppRegistrar add : kAppSubcommands) add(*commands.cmd, commands);
  for (AppSubcommand& s : commands.subcommands) {
    s.agent = std::make_shared<AgentTargetOptions>();
    AddAppOnOptions(*s.cmd, *s.agent);
  }
  return commands.cmd;
}

int AppCommand(const AppCommands& commands) {
  for (const AppSubcommand& s : commands.subcommands) {
    if (!*s.cmd) continue;
    if (commands.ranks) {
      const std::string name = s.cmd->get_name();
      if (!s.agent->on.empty())
        return ReportFailure(Status::BadInput("under mpirun: --on is not supported (each rank is a client here)"));
    }
    if (!s.agent->on.empty()) return RunAppOnAgent(*s.cmd, *s.agent, commands);
    if (!s.agent->token_file.empty()) return ReportFailure(Status::BadInput("--token-file needs --on"));
    return s.run(commands);
  }
  return 2;
}

Result<AppEnd> OpenAppEnd(const std::string& spec, const ProtocolOptions& protocol) {
  AppEnd end;
  end.named = spec;
  if (spec == "null:") return end;
  end.remote = spec.find("://") != std::string::npos;
  Result<TargetOptions> options = BuildTargetOptions(protocol, spec);
  if (!options.ok()) return options.status();
  Result<std::unique_ptr<AppFileSystem>> fs = OpenAppFileSystem(spec, options.value());
  if (!fs.ok()) return fs.status();
  end.fs = std::move(fs).value();
  end.named = end.fs->description();
  return end;
}

Result<AppEnd> OpenCopyEnd(const std::string& spec, const std::string& other, const ProtocolOptions& protocol) {
  const bool is_share = spec.find("://") != std::string::npos, other_is_share = other.find("://") != std::string::npos;
  return OpenAppEnd(spec, !is_share && other_is_share ? ProtocolOptions{} : protocol);
}

uint64_t ClientRamBytes() { return sysinfo::GatherMemory().total_bytes.value_or(0); }

void PrintAppRuns(const CommonOptions& common, const std::vector<RunResult>& runs, const std::string& stored_line) {
  if (common.json) {
    std::printf("%s\n", DocumentToJson(runs).dump(2).c_str());
  } else {
    for (const RunResult& r : runs) std::printf("%s%s%s", AppRunTable(r).c_str(), Timeline(r).c_str(), RanksText(r).c_str());
    std::printf("%s", stored_line.c_str());
  }
  std::fflush(stdout);
}

}  // namespace nasperf
