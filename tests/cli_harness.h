// E2E test harness: runs nasperf (fork/execv, no shell) with captured output; temp dirs, mounts, loop devices.
#pragma once

#include <gtest/gtest.h>
#include <sys/types.h>

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace nasperf::e2e {

// What a finished child process left behind.
struct CliResult {
  int exit_code = -1;      // exit status; -1 when killed by a signal or not started
  int term_signal = 0;     // the signal that killed it, 0 when it exited
  bool timed_out = false;  // the harness killed it (SIGKILL) after the timeout
  std::string out;         // everything it wrote on stdout
  std::string err;         // everything it wrote on stderr
  double elapsed_s = 0;    // wall time from start to exit
};

// Path of the nasperf binary under test (the NASPERF_BINARY compile definition).
const char* NasperfBinary();

// Runs `program` with `args` (argv[1..]) via fork/execv — no shell, no PATH lookup —
// stdin from /dev/null, stdout and stderr captured, in directory `cwd` when not empty.
// After `timeout_s` the child is killed by its PID with SIGKILL and `timed_out` is set.
CliResult RunProgram(const std::string& program, const std::vector<std::string>& args, double timeout_s = 60,
                     const std::string& cwd = "");

// RunProgram on the nasperf binary.
CliResult RunNasperf(const std::vector<std::string>& args, double timeout_s = 60, const std::string& cwd = "");

// "nasperf a b c", for failure messages.
std::string Join(const std::vector<std::string>& args);
bool Contains(const std::string& text, const std::string& needle);
// Runs nasperf, expects exit 0 and one JSON document on stdout; {} (and a failure) otherwise.
nlohmann::json NasperfJson(const std::vector<std::string>& args, double timeout_s = 60);

// A nasperf process running in the background, for signal tests. The destructor kills
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
  CliResult Finish(double timeout_s = 30);

 private:
  friend BackgroundProcess StartProgram(const std::string&, const std::vector<std::string>&);
  pid_t pid_ = -1;
  int out_fd_ = -1;
  int err_fd_ = -1;
};

// Starts `program` like RunProgram but returns at once.
BackgroundProcess StartProgram(const std::string& program, const std::vector<std::string>& args);
BackgroundProcess StartNasperf(const std::vector<std::string>& args);

// A directory made with mkdtemp under `parent`, removed recursively when destroyed.
class TempDir {
 public:
  explicit TempDir(const std::string& parent = "/tmp");
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  ~TempDir();
  const std::string& path() const { return path_; }
  bool ok() const { return !path_.empty(); }
  // path() + "/" + name
  std::string Sub(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

// A file system mounted with mount(2) for the duration of a test (needs CAP_SYS_ADMIN);
// unmounted (lazily if busy) when destroyed.
class ScopedMount {
 public:
  // `flags` are MS_* flags, `data` the fs options; error() says why when ok() is false.
  ScopedMount(const std::string& source, const std::string& dir, const std::string& fstype, unsigned long flags,
              const std::string& data);
  ScopedMount(const ScopedMount&) = delete;
  ScopedMount& operator=(const ScopedMount&) = delete;
  ~ScopedMount();
  bool ok() const { return mounted_; }
  const std::string& error() const { return error_; }

 private:
  std::string dir_;
  bool mounted_ = false;
  std::string error_;
};

// A loop block device backed by a file, attached with the loop ioctls (needs root);
// detached when destroyed.
class ScopedLoopDevice {
 public:
  explicit ScopedLoopDevice(const std::string& backing_file);
  ScopedLoopDevice(const ScopedLoopDevice&) = delete;
  ScopedLoopDevice& operator=(const ScopedLoopDevice&) = delete;
  ~ScopedLoopDevice();
  bool ok() const { return fd_ >= 0; }
  const std::string& device() const { return device_; }  // "/dev/loopN"
  const std::string& error() const { return error_; }

 private:
  int fd_ = -1;
  std::string device_;
  std::string error_;
};

// Names (not paths) of the `.nasperf-*` entries in `dir`, sorted.
std::vector<std::string> NasperfFiles(const std::string& dir);
// Names of every entry in `dir` except . and .., sorted.
std::vector<std::string> DirEntries(const std::string& dir);
// Waits until a `.nasperf-*` file in `dir` exists (and, when min_bytes > 0, has at least
// that many bytes); returns its name, or "" after `timeout_s`.
std::string WaitForNasperfFile(const std::string& dir, double timeout_s, uint64_t min_bytes = 0);

// The lines of `text` (split on '\n'), without a trailing empty line.
std::vector<std::string> Lines(const std::string& text);
// Writes `bytes` to `path` (created or truncated, mode 0644); reads a file whole ("" if missing).
bool WriteFileBytes(const std::string& path, const std::string& bytes);
std::string ReadFileBytes(const std::string& path);
// Bytes available on the file system holding `path` (statvfs f_bavail * f_frsize).
uint64_t FreeBytesAt(const std::string& path);

// True when the tests run under CI (env CI == "true"): skips become failures there.
bool InCi();
bool IsRoot();

// Whether O_DIRECT opens are refused in `dir` (tries to create a probe file).
bool RefusesODirect(const std::string& dir);

// Parses stdout as one JSON document; a gtest failure (not an exception) when it is not.
::testing::AssertionResult ParseJson(const std::string& text, nlohmann::json* doc);

// The DESIGN.md result document: {"nasperf": {"version": "X.Y.Z"}, "runs": [...]}, every
// run with the fields and types DESIGN.md lists (extra fields are allowed: fields are
// added, never renamed) and a "read"/"write" object only for a direction that did I/O.
::testing::AssertionResult HasDocumentShape(const nlohmann::json& doc);
::testing::AssertionResult HasRunShape(const nlohmann::json& run);
// The figures of one run agree with each other: bytes == ios * bs, MB/s == bytes /
// seconds / 1e6 and IOPS == ios / seconds within 0.1 %, 0 <= p50 <= p90 <= p99 <= p999
// <= max, mean <= max, CPU percentages >= 0; and, from figures counted apart, Little's
// law: IOPS x mean latency (the I/Os in flight) <= qd x threads.
::testing::AssertionResult HasConsistentFigures(const nlohmann::json& run);
// Bytes moved in both directions together.
uint64_t TotalBytes(const nlohmann::json& run);

// Every line of a command's stderr is a warning, a note or a progress line: "warning" or
// "note" at the start (after an optional "nasperf: "), or a line redrawn with '\r'.
::testing::AssertionResult OnlyWarningsOrProgress(const std::string& err);

// Runs `sql` on the SQLite file at `path` (created when `create`) and returns the first
// column of each row, one a line, or "error: ..." with what SQLite said. Waits up to 10 s
// for a lock.
std::string SqliteQuery(const std::string& path, const std::string& sql, bool create);

}  // namespace nasperf::e2e

// A test that needs something this machine lacks (root, a file system, a device) skips on
// a user's machine but fails under CI, where .ci/run provides everything.
#define NASPERF_SKIP_OR_FAIL(reason)                                            \
  do {                                                                          \
    if (::nasperf::e2e::InCi()) {                                               \
      FAIL() << "missing capability (a failure because CI=true): " << (reason); \
    } else {                                                                    \
      GTEST_SKIP() << (reason);                                                 \
    }                                                                           \
  } while (0)
