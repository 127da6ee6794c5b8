// RunProgram, BackgroundProcess and Shell: fork/execv, pipes drained with poll, SIGKILL
// after a timeout, every child reaped.
#include "testing/process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <thread>

namespace nasperf::testing {
namespace {

using Clock = std::chrono::steady_clock;

double SecondsSince(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

void CloseFd(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

// Forks and execs; the child gets /dev/null on stdin, the write ends of two pipes on
// stdout and stderr, default signal dispositions and an empty signal mask.
pid_t Spawn(const std::string& program, const std::vector<std::string>& args, const std::string& cwd, int* out_fd,
            int* err_fd) {
  int out_pipe[2], err_pipe[2];
  if (::pipe2(out_pipe, O_CLOEXEC) != 0) return -1;
  if (::pipe2(err_pipe, O_CLOEXEC) != 0) {
    ::close(out_pipe[0]);
    ::close(out_pipe[1]);
    return -1;
  }
  // Everything the child needs is built before fork: only async-signal-safe calls after.
  std::vector<std::string> argv_storage;
  argv_storage.push_back(program.substr(program.find_last_of('/') + 1));
  argv_storage.insert(argv_storage.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& a : argv_storage) argv.push_back(a.data());
  argv.push_back(nullptr);

  pid_t pid = ::fork();
  if (pid == 0) {
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, nullptr);
    for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGQUIT}) signal(sig, SIG_DFL);
    if (!cwd.empty() && ::chdir(cwd.c_str()) != 0) _exit(126);
    int devnull = ::open("/dev/null", O_RDONLY);
    if (devnull < 0 || ::dup2(devnull, 0) < 0 || ::dup2(out_pipe[1], 1) < 0 || ::dup2(err_pipe[1], 2) < 0) _exit(126);
    ::execv(program.c_str(), argv.data());
    static const char kMsg[] = "testing: execv failed\n";
    ssize_t ignored = ::write(2, kMsg, sizeof kMsg - 1);
    (void)ignored;
    _exit(127);
  }
  ::close(out_pipe[1]);
  ::close(err_pipe[1]);
  if (pid < 0) {
    ::close(out_pipe[0]);
    ::close(err_pipe[0]);
    return -1;
  }
  *out_fd = out_pipe[0];
  *err_fd = err_pipe[0];
  return pid;
}

void FillStatus(int status, ProcessResult* r) {
  if (WIFEXITED(status)) {
    r->exit_code = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    r->exit_code = -1;
    r->term_signal = WTERMSIG(status);
  }
}

// Drains both pipes until EOF and reaps the child; SIGKILL after `timeout_s`.
// Closes the fds and sets *pid to -1.
ProcessResult Collect(pid_t* pid, int* out_fd, int* err_fd, double timeout_s) {
  ProcessResult r;
  const Clock::time_point start = Clock::now();
  const Clock::time_point deadline =
      start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(timeout_s));
  bool killed = false;
  char buf[65536];
  while (*out_fd >= 0 || *err_fd >= 0) {
    pollfd fds[2];
    int n = 0;
    if (*out_fd >= 0) fds[n++] = {*out_fd, POLLIN, 0};
    if (*err_fd >= 0) fds[n++] = {*err_fd, POLLIN, 0};
    auto left_ms = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    if (left_ms <= 0) {
      if (!killed) {
        ::kill(*pid, SIGKILL);
        killed = true;
        r.timed_out = true;
      }
      left_ms = 1000;  // the pipes close once the child is dead
    }
    int ready = ::poll(fds, n, static_cast<int>(std::min<long long>(left_ms, 100)));
    if (ready < 0 && errno != EINTR) break;
    for (int i = 0; i < n; ++i) {
      if (!(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      ssize_t got = ::read(fds[i].fd, buf, sizeof buf);
      if (got < 0 && errno == EINTR) continue;
      bool is_out = fds[i].fd == *out_fd;
      if (got <= 0) {
        CloseFd(is_out ? *out_fd : *err_fd);
      } else {
        (is_out ? r.out : r.err).append(buf, static_cast<size_t>(got));
      }
    }
    if (killed && SecondsSince(start) > timeout_s + 10) break;  // a grandchild holds the pipes
  }
  CloseFd(*out_fd);
  CloseFd(*err_fd);
  int status = 0;
  while (true) {
    pid_t done = ::waitpid(*pid, &status, WNOHANG);
    if (done == *pid) break;
    if (done < 0 && errno != EINTR) break;
    if (Clock::now() >= deadline && !killed) {
      ::kill(*pid, SIGKILL);
      killed = true;
      r.timed_out = true;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  FillStatus(status, &r);
  r.elapsed_s = SecondsSince(start);
  *pid = -1;
  return r;
}

}  // namespace

ProcessResult RunProgram(const std::string& program, const std::vector<std::string>& args, double timeout_s,
                     const std::string& cwd) {
  int out_fd = -1, err_fd = -1;
  const Clock::time_point start = Clock::now();
  pid_t pid = Spawn(program, args, cwd, &out_fd, &err_fd);
  if (pid < 0) {
    ProcessResult r;
    r.err = std::string("testing: cannot start ") + program + ": " + std::strerror(errno);
    return r;
  }
  ProcessResult r = Collect(&pid, &out_fd, &err_fd, timeout_s);
  r.elapsed_s = SecondsSince(start);
  return r;
}

BackgroundProcess::BackgroundProcess(BackgroundProcess&& other) noexcept
    : pid_(other.pid_), out_fd_(other.out_fd_), err_fd_(other.err_fd_) {
  other.pid_ = -1;
  other.out_fd_ = other.err_fd_ = -1;
}

BackgroundProcess& BackgroundProcess::operator=(BackgroundProcess&& other) noexcept {
  if (this != &other) {
    this->~BackgroundProcess();
    pid_ = other.pid_;
    out_fd_ = other.out_fd_;
    err_fd_ = other.err_fd_;
    other.pid_ = -1;
    other.out_fd_ = other.err_fd_ = -1;
  }
  return *this;
}

BackgroundProcess::~BackgroundProcess() {
  if (pid_ > 0) {
    ::kill(pid_, SIGKILL);
    int status;
    while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
    pid_ = -1;
  }
  CloseFd(out_fd_);
  CloseFd(err_fd_);
}

bool BackgroundProcess::Signal(int sig) { return pid_ > 0 && ::kill(pid_, sig) == 0; }

ProcessResult BackgroundProcess::Finish(double timeout_s) {
  if (pid_ <= 0) return ProcessResult{};
  return Collect(&pid_, &out_fd_, &err_fd_, timeout_s);
}

BackgroundProcess StartProgram(const std::string& program, const std::vector<std::string>& args) {
  BackgroundProcess p;
  p.pid_ = Spawn(program, args, "", &p.out_fd_, &p.err_fd_);
  return p;
}


ShellResult Shell(const std::string& command, double timeout_s) {
  ProcessResult r = RunProgram("/bin/sh", {"-c", command + " 2>&1"}, timeout_s);
  ShellResult s{r.exit_code, r.out + r.err};
  while (!s.output.empty() && s.output.back() == '\n') s.output.pop_back();
  return s;
}

bool HaveCommand(const std::string& name) { return Shell("command -v " + name).exit_code == 0; }

}  // namespace nasperf::testing
