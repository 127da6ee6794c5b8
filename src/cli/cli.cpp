// CliMain: the CLI11 application, and the one place exceptions are caught.
#include "cli/cli.h"

#include <cstdio>
#include <exception>
#include <string_view>

#include <fmt/format.h>

#include "cli/clean_command.h"
#include "cli/command_line.h"
#include "cli/commands.h"
#include "cli/info_command.h"
#include "cli/net_command.h"
#include "cli/remote_job.h"
#include "cli/report_command.h"
#include "cli/results_command.h"
#include "nasperf/version.h"
#include "base/signals.h"
#include "proto/schemes.h"

namespace nasperf {

int ExitCodeFor(const Status& status) {
  switch (status.kind()) {
    case ErrorKind::kNone: return 0;
    case ErrorKind::kBadInput: return 2;
    case ErrorKind::kInterrupted: return 130;
    default: return 1;
  }
}

namespace {

// Errors echo what the user gave (values, file names, lines of files): a newline or an
// escape sequence in it must not break the one line or drive the terminal. \n, \t, \r
// and \xNN for the other control bytes.
std::string OneLine(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (unsigned char c : text) {
    if (c == '\n') out += "\\n";
    else if (c == '\t') out += "\\t";
    else if (c == '\r') out += "\\r";
    else if (c < 0x20 || c == 0x7F) out += fmt::format("\\x{:02X}", c);
    else out += static_cast<char>(c);
  }
  return out;
}

}  // namespace

int ReportFailure(const Status& status) {
  if (!status.ok() && status.kind() != ErrorKind::kInterrupted)
    std::fprintf(stderr, "nasperf: %s\n", OneLine(status.message()).c_str());
  return ExitCodeFor(status);
}

int CliMain(int argc, char** argv) {
  CLI::App app{"nasperf " NASPERF_VERSION " — measure storage end to end and say where the throughput goes"};
  app.require_subcommand(1);
  app.set_version_flag("--version", NASPERF_VERSION);

  RunCommandOptions run;
  CLI::App* run_cmd = app.add_subcommand("run", "run one job against TARGET");
  AddCommonOptions(*run_cmd, run.common);
  AddJobOptions(*run_cmd, run.job, JobOptionSet::kFull);
  AddAgentTargetOptions(*run_cmd, run.remote);
  AddProtocolOptions(*run_cmd, run.protocol);

  QuickCommandOptions quick;  // AddJobOptions(kQuick) sets quick's defaults
  CLI::App* quick_cmd = app.add_subcommand(
      "quick", "CrystalDiskMark's set on TARGET: SEQ1M Q8T1, SEQ1M Q1T1, RND4K Q32T1, RND4K Q1T1, read and write");
  AddCommonOptions(*quick_cmd, quick.common);
  AddJobOptions(*quick_cmd, quick.job, JobOptionSet::kQuick);
  AddAgentTargetOptions(*quick_cmd, quick.remote);
  AddProtocolOptions(*quick_cmd, quick.protocol);

  AgentCommandOptions agent;
  CLI::App* agent_cmd = app.add_subcommand("agent", "serve jobs, telemetry and network tests to nasperf clients (run on the NAS)");
  agent_cmd->add_option("--listen", agent.listen, "ADDR:PORT to listen on (default 127.0.0.1:7070; port 0: any free port)");
  agent_cmd->add_option("--root", agent.root, "directory every client path is confined to (default .)");
  agent_cmd->add_option("--token-file", agent.token_file, "shared secret, mode 0600, at least 16 bytes");
  agent_cmd->add_flag("--insecure", agent.insecure, "no token (tests only; loopback addresses only)");
  agent_cmd->add_flag("--json", agent.json, "the start line as JSON");

  SweepCommandOptions sweep;
  CLI::App* sweep_cmd = app.add_subcommand(
      "sweep", "iozone-style sweep on TARGET: throughput against file size, and where the caches stop");
  AddCommonOptions(*sweep_cmd, sweep.common);
  AddProtocolOptions(*sweep_cmd, sweep.protocol);
  AddAgentTargetOptions(*sweep_cmd, sweep.remote);
  sweep_cmd->add_option("TARGET", sweep.target, "a directory, smb://USER@HOST/SHARE/DIR or nfs://HOST/EXPORT/DIR (default .)");
  sweep_cmd->add_option("--min", sweep.min, "smallest file (default 64k); sizes double up to --max");
  sweep_cmd->add_option("--max", sweep.max, "largest file (default: twice the RAM that can cache it, within free space)");
  sweep_cmd->add_option("--record", sweep.record, "record (I/O) size, or a list: 4k,64k,1m (default 64k)");
  sweep_cmd->add_option("--tests", sweep.tests, "any of write,rewrite,read,reread,randread,randwrite (default all)");
  sweep_cmd->add_option("--repeat", sweep.repeat, "run each point N times and report the median");
  sweep_cmd->add_option("--engine", sweep.engine, "psync | io_uring (default psync, like iozone; a share uses its protocol's)");
  sweep_cmd->add_option("--pattern", sweep.pattern, "write data: random | zero | compressible:N");
  sweep_cmd->add_option("--nas-ram", sweep.nas_ram, "RAM of the NAS behind TARGET, when it is a network share");
  sweep_cmd->add_flag("--direct", sweep.direct, "O_DIRECT: bypass the page cache");
  sweep_cmd->add_flag("--fsync", sweep.fsync, "write tests end with fsync inside the measured time (iozone -e)");
  sweep_cmd->add_flag("--drop-caches", sweep.drop_caches, "also drop every cache (/proc/sys/vm/drop_caches, root)");

  ResultsCommandOptions results;
  CLI::App* results_cmd = AddResultsCommand(app, results);

  NetCommandOptions net;
  CLI::App* net_cmd = AddNetCommand(app, net);

  ReportCommandOptions report;
  AddReportCommand(app, report);
  CLI::App* report_cmd = app.get_subcommand("report");

  CleanCommandOptions clean;
  AddCleanCommand(app, clean);
  CLI::App* clean_cmd = app.get_subcommand("clean");

  CLI::App* info_cmd = app.add_subcommand("info", "what nasperf knows about this machine and TARGET's storage");
  std::string info_target = ".";
  bool info_json = false;
  info_cmd->add_option("TARGET", info_target, "a path, block device or null: (default .)");
  info_cmd->add_flag("--json", info_json, "JSON on stdout");

  // Not for users: commands a protocol runs itself (the SMB helper process), hidden from
  // --help, named by the scheme table and run by the protocol's code.
  std::vector<std::pair<CLI::App*, const Scheme*>> hidden_cmds;
  for (const Scheme& scheme : Schemes()) {
    if (scheme.hidden_command.empty()) continue;
    hidden_cmds.emplace_back(app.add_subcommand(scheme.hidden_command, ""), &scheme);
    hidden_cmds.back().first->group("");
  }
  auto hidden_cmd = [&]() -> const Scheme* {
    for (const auto& [cmd, scheme] : hidden_cmds)
      if (*cmd) return scheme;
    return nullptr;
  };

  net.common.command_line = run.common.command_line = quick.common.command_line = sweep.common.command_line = results.common.command_line = report.filters.common.command_line =
      RedactedCommandLine(argc, argv);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help, --version
    // Name a mistyped command or `results` subcommand instead of CLI11's generic line.
    CLI::App* level = &app;
    std::string path = "";
    for (int i = 1; i < argc && i <= 2 && argv[i][0] != '-'; ++i) {
      std::string names;
      CLI::App* found = nullptr;
      for (CLI::App* sub : level->get_subcommands([](CLI::App*) { return true; })) {
        if (sub->get_name() == argv[i]) found = sub;
        names += (names.empty() ? "" : ", ") + sub->get_name();
      }
      if (names.empty()) break;
      if (!found) {
        std::fprintf(stderr, "nasperf: unknown %scommand '%s' (commands: %s)\n", path.c_str(), OneLine(argv[i]).c_str(),
                     names.c_str());
        return 2;
      }
      level = found;
      path += found->get_name() + " ";
    }
    std::fprintf(stderr, "nasperf: %s (see nasperf --help)\n", OneLine(e.what()).c_str());
    return 2;
  }

  // Commands that run I/O jobs own Ctrl-C and SIGTERM from here on: the flag stops the run
  // and the normal unwind removes our files. Every other command keeps the default
  // disposition, so a signal ends it at once wherever it waits (a read of a FIFO, a long
  // import): nobody would poll the flag there. Its writes are SQLite transactions or a
  // rename into place, which an abrupt end leaves whole.
  if (*run_cmd || *quick_cmd || *sweep_cmd || *net_cmd || *agent_cmd || hidden_cmd()) InstallInterruptHandler();
  try {
    if (*run_cmd) return RunCommand(run);
    if (const Scheme* scheme = hidden_cmd()) {
      Result<const SchemeCode*> code = LoadScheme(*scheme);
      if (!code.ok() || !code.value()->run_hidden_command) {
        std::fprintf(stderr, "nasperf %s: %s\n", scheme->hidden_command.c_str(),
                     code.ok() ? "not provided by its protocol" : code.status().message().c_str());
        return 2;
      }
      return code.value()->run_hidden_command();
    }
    if (*quick_cmd) return QuickCommand(quick);
    if (*agent_cmd) return AgentCommand(agent);
    if (*net_cmd) return NetCommand(net);
    if (*sweep_cmd) return SweepCommand(sweep);
    if (*results_cmd) return ResultsCommand(*results_cmd, results);
    if (*report_cmd) return ReportCommand(report);
    if (*info_cmd) return InfoCommand(info_target, info_json);
    if (*clean_cmd) return CleanCommand(clean);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "nasperf: internal error: %s\n", OneLine(e.what()).c_str());
    return 1;
  }
  return 2;
}

}  // namespace nasperf
