// suite "app" on the agent: the request checked against each workload's options, then
// the workload run as a child process of this binary, its directories passed as descriptors.
#include "agent/agent_app.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <fmt/format.h>

#include "base/signals.h"
#include "base/spawn_child.h"
#include "model/run_json.h"
#include "sysinfo/telemetry/telemetry.h"
#include "report/telemetry_text.h"

namespace nasperf {
namespace {

enum class Value {
  kText,      // a number, a preset, a size: checked by the workload itself
  kFlag,      // no value
  kDir,       // a directory beneath --root
  kDirOrNull  // that, or "null:" (the null source or sink)
};
struct AppOption {
  const char* name;
  Value value;
};
struct AppWorkloadRule {
  const char* workload;
  bool target;  // takes TARGET: the JobStart's "dir"
  std::vector<AppOption> options;
};

// What a client may ask of each workload on the agent: its own options, nothing that
// stores, prints, reaches a share or reads a secret (--db, --json, --user, --password-file
// and the rest are the client's, or have no meaning here).
const std::vector<AppWorkloadRule>& Rules() {
  static const std::vector<AppWorkloadRule> kRules = {
      {"file-copy", false,
       {{"fill", Value::kText}, {"from", Value::kDirOrNull}, {"to", Value::kDirOrNull}, {"size", Value::kText}, {"preset", Value::kText},
        {"scale", Value::kText}, {"repeat", Value::kText}, {"seed", Value::kText}, {"request", Value::kText}}},
      {"dir-copy", false,
       {{"fill", Value::kText}, {"to", Value::kDir}, {"from", Value::kDir}, {"local", Value::kDirOrNull}, {"source", Value::kDir},
        {"preset", Value::kText}, {"scale", Value::kText}, {"repeat", Value::kText}, {"seed", Value::kText},
        {"threads", Value::kText}, {"verify", Value::kFlag}, {"request", Value::kText},
        {"no-times", Value::kFlag}}},
      {"backup", true,
       {{"fill", Value::kText}, {"preset", Value::kText}, {"scale", Value::kText}, {"seed", Value::kText}, {"source", Value::kDir},
        {"image-ratio", Value::kText}}},
      {"restore", true,
       {{"fill", Value::kText}, {"preset", Value::kText}, {"scale", Value::kText}, {"seed", Value::kText}, {"source", Value::kDir},
        {"image-ratio", Value::kText}, {"scratch", Value::kDir}}},
      {"video", true,
       {{"fill", Value::kText}, {"streams", Value::kText}, {"time", Value::kText}, {"rate", Value::kText}, {"play", Value::kFlag},
        {"record", Value::kFlag}, {"mix", Value::kFlag}, {"find-max", Value::kFlag}, {"max-streams", Value::kText},
        {"seed", Value::kText}}},
      {"photo-album", true, {{"fill", Value::kText}, {"seed", Value::kText}, {"photos", Value::kText}}},
      {"office", true,
       {{"fill", Value::kText}, {"seed", Value::kText}, {"users", Value::kText}, {"time", Value::kText},
        {"think", Value::kText}}},
  };
  return kRules;
}

constexpr size_t kMaxTextValueBytes = 256;

bool PrintableText(const std::string& s) {
  for (unsigned char c : s)
    if (c < 0x20 || c == 0x7f) return false;
  return true;
}

std::string DirArg(AgentAppRequest& request, ResolvedDir dir) {
  request.dirs.push_back(std::move(dir));
  return fmt::format("/dev/fd/{}", kFirstAppDirFd + static_cast<int>(request.dirs.size()) - 1);
}

// The last non-empty line of `text`, at most 300 bytes: a child's one-line error.
std::string LastLine(const std::string& text) {
  size_t end = text.find_last_not_of("\r\n ");
  if (end == std::string::npos) return "";
  size_t begin = text.rfind('\n', end);
  begin = begin == std::string::npos ? 0 : begin + 1;
  return text.substr(begin, std::min<size_t>(end + 1 - begin, 300));
}

}  // namespace

Result<AgentAppRequest> PrepareApp(const JobStartMsg& start, const RootDir& root, bool* path_error) {
  *path_error = false;
  const AppStartMsg& app = start.app;
  const AppWorkloadRule* rule = nullptr;
  std::string known;
  for (const AppWorkloadRule& r : Rules()) {
    if (app.workload == r.workload) rule = &r;
    known += std::string(known.empty() ? "" : ", ") + r.workload;
  }
  if (rule == nullptr)
    return Status::BadInput("JobStart: app: no workload '" + app.workload + "' on this agent (it runs " + known + ")");

  AgentAppRequest request;
  request.workload = app.workload;
  auto resolve = [&](const std::string& relative, const std::string& what) -> Result<ResolvedDir> {
    Result<ResolvedDir> dir = root.Resolve(relative);
    if (!dir.ok()) {
      *path_error = true;
      return Status::BadInput(what + ": " + dir.status().message());
    }
    return dir;
  };
  Result<ResolvedDir> cwd = resolve(start.dir, "TARGET");
  if (!cwd.ok()) return cwd.status();
  request.cwd = std::move(cwd).value();

  bool has_to = false;
  for (const auto& [name, value] : app.options) {
    const AppOption* option = nullptr;
    for (const AppOption& o : rule->options)
      if (name == o.name) option = &o;
    if (option == nullptr)
      return Status::BadInput("JobStart: app " + app.workload + ": --" + name.substr(0, 64) +
                              " is not an option the agent takes for it");
    if (name == "to") has_to = true;
    switch (option->value) {
      case Value::kFlag:
        if (!value.empty()) return Status::BadInput("JobStart: app: --" + name + " is a flag and takes no value");
        request.args.push_back("--" + name);
        break;
      case Value::kText:
        if (value.empty() || value.size() > kMaxTextValueBytes || !PrintableText(value))
          return Status::BadInput(fmt::format("JobStart: app: --{} needs a value of 1..{} printable bytes", name,
                                              kMaxTextValueBytes));
        request.args.push_back("--" + name + "=" + value);
        break;
      case Value::kDirOrNull:
        if (value == "null:") {
          request.args.push_back("--" + name + "=null:");
          break;
        }
        [[fallthrough]];
      case Value::kDir: {
        Result<ResolvedDir> dir = resolve(value, "--" + name);
        if (!dir.ok()) return dir.status();
        request.args.push_back("--" + name + "=" + DirArg(request, std::move(dir).value()));
        break;
      }
    }
  }
  // file-copy's --to defaults to "."; here that is the JobStart's dir, never the agent's own.
  if (app.workload == "file-copy" && !has_to) {
    Result<ResolvedDir> dir = resolve(start.dir, "TARGET");
    if (!dir.ok()) return dir.status();
    request.args.push_back("--to=" + DirArg(request, std::move(dir).value()));
  }
  if (rule->target) {
    Result<ResolvedDir> dir = resolve(start.dir, "TARGET");
    if (!dir.ok()) return dir.status();
    request.args.push_back(DirArg(request, std::move(dir).value()));
  }
  return request;
}

void ShowRealPaths(nlohmann::json& document, const AgentAppRequest& request) {
  if (document.is_string()) {
    std::string s = document.get<std::string>();
    bool changed = false;
    for (size_t i = 0; i < request.dirs.size(); ++i) {
      const std::string fd_path = fmt::format("/dev/fd/{}", kFirstAppDirFd + static_cast<int>(i));
      for (size_t at = s.find(fd_path); at != std::string::npos; at = s.find(fd_path, at)) {
        s.replace(at, fd_path.size(), request.dirs[i].real_path);
        at += request.dirs[i].real_path.size();
        changed = true;
      }
    }
    if (changed) document = s;
    return;
  }
  if (document.is_array() || document.is_object())
    for (auto& v : document) ShowRealPaths(v, request);
}

namespace {

using SteadyClock = std::chrono::steady_clock;

struct ChildOutput {
  std::string out, err;
  int exit_status = -1;  // WEXITSTATUS, or -1 when a signal ended it
  bool killed = false;
};

// This binary, started with the directories as descriptors 10.., its working directory
// the request's, stdin /dev/null, and a clean signal state (base/spawn_child.h).
Result<pid_t> Spawn(const AgentAppRequest& request, int out_fd, int err_fd) {
  ChildSpawn spawn;
  spawn.exe = "/proc/self/exe";
  spawn.argv = {"nasperf", "app", request.workload};
  spawn.argv.insert(spawn.argv.end(), request.args.begin(), request.args.end());
  spawn.argv.push_back("--json");
  spawn.argv.push_back("--no-store");
  spawn.env = {"PATH=/usr/sbin:/usr/bin:/sbin:/bin", "LC_ALL=C",
               std::string(kAgentParentEnv) + "=" + std::to_string(::getpid())};
  spawn.stdout_fd = out_fd;
  spawn.stderr_fd = err_fd;
  spawn.first_passed_fd = kFirstAppDirFd;
  for (const ResolvedDir& d : request.dirs) spawn.passed.push_back(d.fd.get());
  spawn.cwd_fd = request.cwd.fd.get();
  Result<pid_t> pid = SpawnChild(spawn);
  if (!pid.ok()) return Status::Io("app: cannot start the workload: " + pid.status().message());
  return pid;
}

// Reads the child's stdout and stderr until both close, then reaps it. `cancel` sends it
// SIGINT once, and SIGKILL if it has not exited 15 s later.
ChildOutput Collect(pid_t pid, int out_fd, int err_fd, const std::atomic<bool>& cancel) {
  constexpr size_t kMaxOut = 8u << 20, kMaxErr = 64u << 10;
  ChildOutput child;
  pollfd fds[2] = {{out_fd, POLLIN, 0}, {err_fd, POLLIN, 0}};
  std::string* sinks[2] = {&child.out, &child.err};
  const size_t limits[2] = {kMaxOut, kMaxErr};
  std::optional<SteadyClock::time_point> interrupted;
  char buffer[16384];
  while (fds[0].fd >= 0 || fds[1].fd >= 0) {
    if (cancel.load() && !interrupted) {
      ::kill(pid, SIGINT);
      interrupted = SteadyClock::now();
    }
    if (interrupted && !child.killed && SteadyClock::now() - *interrupted > std::chrono::seconds(15)) {
      ::kill(pid, SIGKILL);
      child.killed = true;
    }
    if (::poll(fds, 2, 100) < 0 && errno != EINTR) break;
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      const ssize_t n = ::read(fds[i].fd, buffer, sizeof(buffer));
      if (n > 0) {
        if (sinks[i]->size() < limits[i]) sinks[i]->append(buffer, static_cast<size_t>(n));
      } else if (n == 0 || (errno != EINTR && errno != EAGAIN)) {
        fds[i].fd = -1;
      }
    }
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status)) child.exit_status = WEXITSTATUS(status);
  return child;
}

}  // namespace

AgentJobOutcome RunAgentApp(const AgentAppRequest& request, const std::atomic<bool>& cancel) {
  AgentJobOutcome outcome;
  int out_pipe[2], err_pipe[2];
  if (::pipe2(out_pipe, O_CLOEXEC) != 0) {
    outcome.status = Status::Io(std::string("app: pipe: ") + std::strerror(errno));
    return outcome;
  }
  if (::pipe2(err_pipe, O_CLOEXEC) != 0) {
    ::close(out_pipe[0]), ::close(out_pipe[1]);
    outcome.status = Status::Io(std::string("app: pipe: ") + std::strerror(errno));
    return outcome;
  }
  ScopedFd out_read(out_pipe[0]), out_write(out_pipe[1]), err_read(err_pipe[0]), err_write(err_pipe[1]);

  sysinfo::telemetry::TelemetrySampler telemetry(SummariseTelemetry);
  telemetry.Start();
  Result<pid_t> pid = Spawn(request, out_write.get(), err_write.get());
  out_write = ScopedFd();  // the child holds the write ends now: EOF when it exits
  err_write = ScopedFd();
  if (!pid.ok()) {
    telemetry.Stop();
    outcome.status = pid.status();
    return outcome;
  }
  ChildOutput child = Collect(pid.value(), out_read.get(), err_read.get(), cancel);
  nlohmann::ordered_json samples = telemetry.Stop();

  nlohmann::json err_text = LastLine(child.err);
  ShowRealPaths(err_text, request);
  const std::string why = err_text.get<std::string>();
  nlohmann::json document = nlohmann::json::parse(child.out, nullptr, false);
  if (document.is_discarded() || !document.is_object() || !document.contains("runs") || !document["runs"].is_array() ||
      document["runs"].empty()) {
    const std::string line = why.empty() ? fmt::format("app {}: the workload ended without a result (exit {})",
                                                       request.workload, child.exit_status)
                                         : why;
    outcome.status = child.exit_status == 2 ? Status::BadInput(line) : Status::Io(line);
    if (cancel.load()) outcome.status = Status::Interrupted();
    return outcome;
  }
  ShowRealPaths(document, request);
  for (const nlohmann::json& j : document["runs"]) {
    Result<RunResult> run = RunFromJson(j);
    if (!run.ok()) {
      outcome.status = Status::Io("app " + request.workload + ": its document: " + run.status().message());
      return outcome;
    }
    RunResult r = std::move(run).value();
    r.measured_on = "nas";
    r.telemetry = samples;
    r.inventory = InventoryOf(request.cwd);
    outcome.runs.push_back(std::move(r));
  }
  if (child.exit_status != 0)
    outcome.status = cancel.load() ? Status::Interrupted()
                                   : Status::Io(why.empty() ? "app " + request.workload + " stopped early" : why);
  return outcome;
}

}  // namespace nasperf
