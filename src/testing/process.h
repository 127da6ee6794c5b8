// Running programs from tests: fork/execv with captured output and a timeout (no shell,
// no PATH lookup), a background process for signal tests, and Shell for the few setup
// steps that are shell commands (losetup, mkfs, mount).
#pragma once

#include <sys/types.h>

#include <string>
#include <vector>

namespace nasperf::testing {

// What a finished child process left behind.
struct ProcessResult {
  int exit_code = -1;      // exit status; -1 when killed by a signal or not started
  int term_signal = 0;     // the signal that killed it, 0 when it exited
  bool timed_out = false;  // the harness killed it (SIGKILL) after the timeout
  std::string out;         // everything it wrote on stdout
  std::string err;         // everything it wrote on stderr
  double elapsed_s = 0;    // wall time from start to exit
};

// Runs `program` with `args` (argv[1..]) via fork/execv — no shell, no PATH lookup —
// stdin from /dev/null, stdout and stderr captured, in directory `cwd` when not empty.
// After `timeout_s` the child is killed by its PID with SIGKILL and `timed_out` is set.
ProcessResult RunProgram(const std::string& program, const std::vector<std::string>& args, double timeout_s = 60,
                         const std::string& cwd = "");

// A process running in the background, for signal tests. The destructor kills
// (SIGKILL) and reaps the child if Finish() was not called.
class BackgroundProcess {
 public:
  BackgroundProcess() = default;
  BackgroundProcess(const BackgroundProcess&) = delete;
  BackgroundProcess& operator=(const BackgroundProcess&) = delete;
  BackgroundProcess(BackgroundProcess&& other) noexcept;
  BackgroundProcess& operator=(BackgroundProcess&& other) noexcept;
  ~BackgroundProcess();

  pid_t pid() const { return pid_; }
  int stdout_fd() const { return out_fd_; }  // read end of the child's stdout pipe
  int stderr_fd() const { return err_fd_; }  // read end of the child's stderr pipe
  bool running() const { return pid_ > 0; }

  // Sends `sig` to the child's PID. False when it is no longer running.
  bool Signal(int sig);
  // Reads both pipes until the child exits; kills it with SIGKILL after `timeout_s`.
  // `elapsed_s` of the result is the time spent in Finish.
  ProcessResult Finish(double timeout_s = 30);

 private:
  friend BackgroundProcess StartProgram(const std::string&, const std::vector<std::string>&);
  pid_t pid_ = -1;
  int out_fd_ = -1;
  int err_fd_ = -1;
};

// Starts `program` like RunProgram but returns at once.
BackgroundProcess StartProgram(const std::string& program, const std::vector<std::string>& args);

// `command` run by /bin/sh -c, stdout and stderr together in `output` (trailing newlines
// removed). For test setup only: test inputs never go through a shell.
struct ShellResult {
  int exit_code = -1;
  std::string output;
};
ShellResult Shell(const std::string& command, double timeout_s = 120);
// Whether `name` is a command /bin/sh finds.
bool HaveCommand(const std::string& name);

}  // namespace nasperf::testing
