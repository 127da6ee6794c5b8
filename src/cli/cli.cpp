// CliMain: the CLI11 application, and the one place exceptions are caught.
#include "cli/cli.h"

#include <cstdio>
#include <exception>
#include <string_view>

#include <fmt/format.h>

#include "cli/app_command.h"
#include "cli/clean_command.h"
#include "cli/command_line.h"
#include "cli/commands.h"
#include "cluster/comm.h"
#include "cli/diagnose_command.h"
#include "cli/info_command.h"
#include "cli/net_command.h"
#include "cli/remote_job.h"
#include "cli/report_command.h"
#include "cli/results_command.h"
#include "cli/tree_command.h"
#include "nasperf/version.h"
#include "base/signals.h"
#include "proto/schemes.h"
#include "target/own_file.h"

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

namespace {

// Every command's options and its CLI11 subcommand; CLI11 holds references into it, so it
// stays where it is from registration to dispatch.
struct Commands {
  RunCommandOptions run;
  QuickCommandOptions quick;  // AddJobOptions(kQuick) sets quick's defaults
  AgentCommandOptions agent;
  SweepCommandOptions sweep;
  ResultsCommandOptions results;
  NetCommandOptions net;
  ReportCommandOptions report;
  CleanCommandOptions clean;
  TreeCommandOptions tree;
  DiagnoseCommandOptions diagnose;
  AppCommands app;  // `app` and its subcommands (cli/app_command.h)
  std::string info_target = ".";
  bool info_json = false;

  CLI::App* run_cmd = nullptr;
  CLI::App* quick_cmd = nullptr;
  CLI::App* agent_cmd = nullptr;
  CLI::App* sweep_cmd = nullptr;
  CLI::App* results_cmd = nullptr;
  CLI::App* net_cmd = nullptr;
  CLI::App* report_cmd = nullptr;
  CLI::App* clean_cmd = nullptr;
  CLI::App* tree_cmd = nullptr;
  CLI::App* diagnose_cmd = nullptr;
  CLI::App* info_cmd = nullptr;
  // Not for users: commands a protocol runs itself (the SMB helper process), hidden from
  // --help, named by the scheme table and run by the protocol's code.
  std::vector<std::pair<CLI::App*, const Scheme*>> hidden_cmds;

  const Scheme* HiddenCommand() const {
    for (const auto& [cmd, scheme] : hidden_cmds)
      if (*cmd) return scheme;
    return nullptr;
  }
};

void AddJobCommands(CLI::App& app, Commands& c) {
  c.run_cmd = app.add_subcommand("run", "run one job against TARGET");
  AddCommonOptions(*c.run_cmd, c.run.common);
  AddJobOptions(*c.run_cmd, c.run.job, JobOptionSet::kFull);
  AddAgentTargetOptions(*c.run_cmd, c.run.remote);
  AddProtocolOptions(*c.run_cmd, c.run.protocol);
  AddSpecFileOptions(*c.run_cmd, c.run.specs);
  c.run_cmd->add_option("--job", c.run.job_file, "run the jobs of a TOML job file (docs/workloads.md \"Job files\")");

  c.quick_cmd = app.add_subcommand(
      "quick", "CrystalDiskMark's set on TARGET: SEQ1M Q8T1, SEQ1M Q1T1, RND4K Q32T1, RND4K Q1T1, read and write");
  AddCommonOptions(*c.quick_cmd, c.quick.common);
  AddJobOptions(*c.quick_cmd, c.quick.job, JobOptionSet::kQuick);
  AddAgentTargetOptions(*c.quick_cmd, c.quick.remote);
  AddProtocolOptions(*c.quick_cmd, c.quick.protocol);
  c.quick_cmd->add_option("--fill", c.quick.fill,
                          "run the set at each volume fill level: --fill 0,33,66 (percent, below 95; nasperf's own "
                          "files, removed after)");
}

void AddAgentCommand(CLI::App& app, Commands& c) {
  AgentCommandOptions& agent = c.agent;
  c.agent_cmd = app.add_subcommand("agent", "serve jobs, telemetry and network tests to nasperf clients (run on the NAS)");
  c.agent_cmd->add_option("--listen", agent.listen, "ADDR:PORT to listen on (default 127.0.0.1:7070; port 0: any free port)");
  c.agent_cmd->add_option("--root", agent.root, "directory every client path is confined to (default .)");
  c.agent_cmd->add_option("--token-file", agent.token_file, "shared secret, mode 0600, at least 16 bytes");
  c.agent_cmd->add_flag("--insecure", agent.insecure, "no token (tests only; loopback addresses only)");
  c.agent_cmd->add_flag("--json", agent.json, "the start line as JSON");
  c.agent_cmd->add_option("--allow-device", agent.allow_devices,
                          "DEV: clients may read this block device raw (read-only, O_DIRECT); repeatable");
  c.agent_cmd->add_flag("--allow-volume-members", agent.allow_volume_members,
                        "clients may read the member devices of the volume holding --root raw (read-only)");
}

void AddSweepCommand(CLI::App& app, Commands& c) {
  SweepCommandOptions& sweep = c.sweep;
  CLI::App* cmd = c.sweep_cmd = app.add_subcommand(
      "sweep", "iozone-style sweep on TARGET: throughput against file size, and where the caches stop");
  AddCommonOptions(*cmd, sweep.common);
  AddProtocolOptions(*cmd, sweep.protocol);
  AddAgentTargetOptions(*cmd, sweep.remote);
  cmd->add_option("TARGET", sweep.target, "a directory, smb://USER@HOST/SHARE/DIR or nfs://HOST/EXPORT/DIR (default .)");
  cmd->add_option("--min", sweep.min, "smallest file (default 64k); sizes double up to --max");
  cmd->add_option("--max", sweep.max, "largest file (default: twice the RAM that can cache it, within free space)");
  cmd->add_option("--record", sweep.record, "record (I/O) size, or a list: 4k,64k,1m (default 64k)");
  cmd->add_option("--tests", sweep.tests, "any of write,rewrite,read,reread,randread,randwrite (default all)");
  cmd->add_option("--repeat", sweep.repeat, "run each point N times and report the median");
  cmd->add_option("--engine", sweep.engine, "psync | io_uring (default psync, like iozone; a share uses its protocol's)");
  cmd->add_option("--pattern", sweep.pattern, "write data: random | zero | compressible:N");
  cmd->add_option("--nas-ram", sweep.nas_ram, "RAM of the NAS behind TARGET, when it is a network share");
  cmd->add_flag("--direct", sweep.direct, "O_DIRECT: bypass the page cache");
  cmd->add_flag("--fsync", sweep.fsync, "write tests end with fsync inside the measured time (iozone -e)");
  cmd->add_flag("--drop-caches", sweep.drop_caches, "also drop every cache (/proc/sys/vm/drop_caches, root)");
}

void AddStoredAndInfoCommands(CLI::App& app, Commands& c) {
  c.results_cmd = AddResultsCommand(app, c.results);
  c.net_cmd = AddNetCommand(app, c.net);
  c.diagnose_cmd = AddDiagnoseCommand(app, c.diagnose);
  AddReportCommand(app, c.report);
  c.report_cmd = app.get_subcommand("report");
  AddCleanCommand(app, c.clean);
  c.clean_cmd = app.get_subcommand("clean");
  c.tree_cmd = AddTreeCommand(app, c.tree);
  AddAppCommand(app, c.app);
  c.info_cmd = app.add_subcommand("info", "what nasperf knows about this machine and TARGET's storage");
  c.info_cmd->add_option("TARGET", c.info_target, "a path, block device or null: (default .)");
  c.info_cmd->add_flag("--json", c.info_json, "JSON on stdout");
}

void AddHiddenCommands(CLI::App& app, Commands& c) {
  for (const Scheme& scheme : Schemes()) {
    if (scheme.hidden_command.empty()) continue;
    c.hidden_cmds.emplace_back(app.add_subcommand(scheme.hidden_command, ""), &scheme);
    c.hidden_cmds.back().first->group("");
  }
}

// A parse error as one line: a mistyped command or `results` subcommand is named, with
// the commands there are, instead of CLI11's generic line. Exit status 2.
int ExplainParseError(CLI::App& app, int argc, char** argv, const CLI::ParseError& e) {
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

int RunHiddenCommand(const Scheme& scheme) {
  Result<const SchemeCode*> code = LoadScheme(scheme);
  if (!code.ok() || !code.value()->run_hidden_command) {
    std::fprintf(stderr, "nasperf %s: %s\n", scheme.hidden_command.c_str(),
                 code.ok() ? "not provided by its protocol" : code.status().message().c_str());
    return 2;
  }
  return code.value()->run_hidden_command();
}

int Dispatch(const Commands& c) {
  // Commands that run I/O jobs own Ctrl-C and SIGTERM from here on: the flag stops the run
  // and the normal unwind removes our files. Every other command keeps the default
  // disposition, so a signal ends it at once wherever it waits (a read of a FIFO, a long
  // import): nobody would poll the flag there. Its writes are SQLite transactions or a
  // rename into place, which an abrupt end leaves whole.
  if (*c.run_cmd || *c.quick_cmd || *c.sweep_cmd || *c.net_cmd || *c.diagnose_cmd || *c.agent_cmd || *c.app.cmd ||
      c.HiddenCommand())
    InstallInterruptHandler();
  // A workload an agent started ends with the agent, even a SIGKILLed one.
  if (*c.app.cmd && !FollowAgentParent())
    return ReportFailure(Status::Io("the agent that started this workload is gone"));
  // Under mpirun, the ranks meet (MPI_Init) only now, and only for the commands that
  // merge them; started without mpirun nothing touches MPI.
  std::unique_ptr<Comm> ranks;
  if (LaunchedByMpirun()) {
    if (!*c.run_cmd && !*c.quick_cmd && !*c.app.cmd)
      return ReportFailure(Status::BadInput("under mpirun only `nasperf run`, `nasperf quick` and `nasperf app "
                                            "file-copy|dir-copy` merge the ranks so far; run the others without mpirun"));
    Result<std::unique_ptr<Comm>> joined = JoinRanks();
    if (!joined.ok()) return ReportFailure(joined.status());
    ranks = std::move(joined.value());
    SetOwnFileRank(ranks->rank());
  }
  if (*c.run_cmd) return RunCommand(c.run, ranks.get());
  if (const Scheme* scheme = c.HiddenCommand()) return RunHiddenCommand(*scheme);
  if (*c.quick_cmd) {
    // Under mpirun quick's median of 3 becomes one run per test: the ranks merge one run
    // per job (an explicit --repeat above 1 is refused by name).
    QuickCommandOptions quick = c.quick;
    if (ranks && c.quick_cmd->get_option("--repeat")->count() == 0) quick.job.Give("--repeat", "1");
    return QuickCommand(quick, ranks.get());
  }
  if (*c.agent_cmd) return AgentCommand(c.agent);
  if (*c.net_cmd) return NetCommand(c.net);
  if (*c.sweep_cmd) return SweepCommand(c.sweep);
  if (*c.diagnose_cmd) return DiagnoseCommand(c.diagnose);
  if (*c.results_cmd) return ResultsCommand(*c.results_cmd, c.results);
  if (*c.report_cmd) return ReportCommand(c.report);
  if (*c.info_cmd) return InfoCommand(c.info_target, c.info_json);
  if (*c.clean_cmd) return CleanCommand(c.clean);
  if (*c.tree_cmd) return TreeCommand(c.tree);
  if (*c.app.cmd) {
    AppCommands app = c.app;
    app.ranks = ranks.get();
    return AppCommand(app);
  }
  return 2;
}

}  // namespace

int CliMain(int argc, char** argv) {
  CLI::App app{"nasperf " NASPERF_VERSION " — measure storage end to end and say where the throughput goes"};
  app.require_subcommand(1);
  app.set_version_flag("--version", NASPERF_VERSION);
  Commands c;
  AddJobCommands(app, c);
  AddAgentCommand(app, c);
  AddSweepCommand(app, c);
  AddStoredAndInfoCommands(app, c);
  AddHiddenCommands(app, c);

  const std::string command_line = RedactedCommandLine(argc, argv);
  for (CommonOptions* common : {&c.net.common, &c.run.common, &c.quick.common, &c.sweep.common, &c.diagnose.common, &c.results.common,
                                &c.report.filters.common})
    common->command_line = command_line;
  c.app.command_line = command_line;
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help, --version
    return ExplainParseError(app, argc, argv, e);
  }
  try {
    return Dispatch(c);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "nasperf: internal error: %s\n", OneLine(e.what()).c_str());
    return 1;
  }
}

}  // namespace nasperf
