// `nasperf app ...`: the parent of the application workloads (issue 18). Each subcommand
// lives in its own file and is registered by one line in kAppSubcommands (app_command.cpp):
// a function that adds its CLI11 subcommand under `app` and says what runs when it is chosen.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "cli/job_options.h"
#include "cli/protocol_options.h"
#include "core/app_fs.h"
#include "nasperf/result.h"

namespace nasperf {

struct AppCommands;

struct AppSubcommand {
  AppSubcommand(CLI::App* c, std::function<int(const AppCommands&)> r) : cmd(c), run(std::move(r)) {}
  CLI::App* cmd = nullptr;
  std::function<int(const AppCommands&)> run;  // called when `cmd` was chosen
  // --on and --token-file, added to every subcommand by AddAppCommand: with --on, `run`
  // is not called and the workload runs on the agent (cli/app_on_agent.h).
  std::shared_ptr<AgentTargetOptions> agent;
};

struct AppCommands {
  CLI::App* cmd = nullptr;   // `app`
  std::string command_line;  // set by CliMain, secrets redacted
  Comm* ranks = nullptr;     // under mpirun: this process's rank (every app workload but video merges)
  std::vector<AppSubcommand> subcommands;
};

// A subcommand's registration: adds it under `app` and appends it to `commands`. Its
// options live as long as the closure it registers (hold them in a shared_ptr).
using AppRegistrar = void (*)(CLI::App& app, AppCommands& commands);
void AddFileCopyCommand(CLI::App& app, AppCommands& commands);  // cli/app_copy_command.cpp
void AddDirCopyCommand(CLI::App& app, AppCommands& commands);   // cli/app_copy_command.cpp
void AddPhotoAlbumCommand(CLI::App& app, AppCommands& commands);  // cli/app_photo_command.cpp
void AddOfficeCommand(CLI::App& app, AppCommands& commands);      // cli/app_office_command.cpp

CLI::App* AddAppCommand(CLI::App& root, AppCommands& commands);
int AppCommand(const AppCommands& commands);

// What every app subcommand shares.

// One end of a workload: a directory, smb://, nfs:// (an AppFileSystem with a fresh
// workspace) or `null:` (fs is nullptr: the client's null source or sink).
struct AppEnd {
  std::string named;  // as the user gave it (a URL's password is never in it)
  std::unique_ptr<AppFileSystem> fs;
  bool remote = false;  // a network share: its server caches what it serves
};
Result<AppEnd> OpenAppEnd(const std::string& spec, const ProtocolOptions& protocol);
// One end of a copy whose other end is `other`: the share options (--user,
// --password-file, ...) are the share's, so a local end opposite a share opens without
// them; two local ends still refuse them, as one would.
Result<AppEnd> OpenCopyEnd(const std::string& spec, const std::string& other, const ProtocolOptions& protocol);

// This machine's RAM (MemTotal), 0 when not known.
uint64_t ClientRamBytes();

// Backup and restore's note when nothing sampled the NAS; `--on` puts the agent's figure
// in its place (cli/app_on_agent.cpp).
inline constexpr const char* kNasBusyNotMeasured = "NAS busy: not measured (no agent telemetry)";

// Prints the runs as the table (with the per-second timeline and the stored line) or the
// JSON document on stdout.
void PrintAppRuns(const CommonOptions& common, const std::vector<RunResult>& runs, const std::string& stored_line);

}  // namespace nasperf
