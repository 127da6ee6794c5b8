// E2E test harness: fork/execv with captured output and a timeout, temp dirs, mounts, loop devices.
#include "cli_harness.h"

#include <dirent.h>
#include <fcntl.h>
#include <ftw.h>
#include <linux/loop.h>
#include <poll.h>
#include <signal.h>
#include <sqlite3.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <thread>

#ifndef NASPERF_BINARY
#error "NASPERF_BINARY must name the nasperf binary under test"
#endif

namespace nasperf::e2e {
namespace {

// Every nasperf these tests start stores into a database of this test process, never
// into the user's own (~/.local/share/nasperf/results.db); it is removed at exit.
struct PrivateResultsDb {
  std::string path = "/tmp/nasperf-e2e-" + std::to_string(::getpid()) + ".db";
  PrivateResultsDb() { ::setenv("NASPERF_DB", path.c_str(), 1); }
  ~PrivateResultsDb() {
    for (const char* suffix : {"", "-wal", "-shm"}) ::unlink((path + suffix).c_str());
  }
} private_results_db;

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
    static const char kMsg[] = "cli_harness: execv failed\n";
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

void FillStatus(int status, CliResult* r) {
  if (WIFEXITED(status)) {
    r->exit_code = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    r->exit_code = -1;
    r->term_signal = WTERMSIG(status);
  }
}

// Drains both pipes until EOF and reaps the child; SIGKILL after `timeout_s`.
// Closes the fds and sets *pid to -1.
CliResult Collect(pid_t* pid, int* out_fd, int* err_fd, double timeout_s) {
  CliResult r;
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

int RemoveEntry(const char* path, const struct stat*, int type, struct FTW*) {
  if (type == FTW_DP)
    ::rmdir(path);
  else
    ::unlink(path);
  return 0;
}

}  // namespace

const char* NasperfBinary() { return NASPERF_BINARY; }

CliResult RunProgram(const std::string& program, const std::vector<std::string>& args, double timeout_s,
                     const std::string& cwd) {
  int out_fd = -1, err_fd = -1;
  const Clock::time_point start = Clock::now();
  pid_t pid = Spawn(program, args, cwd, &out_fd, &err_fd);
  if (pid < 0) {
    CliResult r;
    r.err = std::string("cli_harness: cannot start ") + program + ": " + std::strerror(errno);
    return r;
  }
  CliResult r = Collect(&pid, &out_fd, &err_fd, timeout_s);
  r.elapsed_s = SecondsSince(start);
  return r;
}

CliResult RunNasperf(const std::vector<std::string>& args, double timeout_s, const std::string& cwd) {
  return RunProgram(NasperfBinary(), args, timeout_s, cwd);
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

CliResult BackgroundProcess::Finish(double timeout_s) {
  if (pid_ <= 0) return CliResult{};
  return Collect(&pid_, &out_fd_, &err_fd_, timeout_s);
}

BackgroundProcess StartProgram(const std::string& program, const std::vector<std::string>& args) {
  BackgroundProcess p;
  p.pid_ = Spawn(program, args, "", &p.out_fd_, &p.err_fd_);
  return p;
}

BackgroundProcess StartNasperf(const std::vector<std::string>& args) { return StartProgram(NasperfBinary(), args); }

TempDir::TempDir(const std::string& parent) {
  std::string tmpl = parent + "/nasperf-e2e-XXXXXX";
  if (::mkdtemp(tmpl.data()) != nullptr) path_ = tmpl;
}

TempDir::~TempDir() {
  // FTW_MOUNT: never descend into a file system mounted inside (a test's mount that
  // failed to come off must not have its contents deleted).
  if (!path_.empty()) ::nftw(path_.c_str(), RemoveEntry, 16, FTW_DEPTH | FTW_PHYS | FTW_MOUNT);
}

ScopedMount::ScopedMount(const std::string& source, const std::string& dir, const std::string& fstype,
                         unsigned long flags, const std::string& data)
    : dir_(dir) {
  if (::mount(source.c_str(), dir.c_str(), fstype.c_str(), flags, data.empty() ? nullptr : data.c_str()) == 0) {
    mounted_ = true;
  } else {
    error_ = "mount -t " + fstype + " on " + dir + ": " + std::strerror(errno);
  }
}

ScopedMount::~ScopedMount() {
  if (!mounted_) return;
  if (::umount2(dir_.c_str(), 0) != 0) ::umount2(dir_.c_str(), MNT_DETACH);
}

ScopedLoopDevice::ScopedLoopDevice(const std::string& backing_file) {
  int backing = ::open(backing_file.c_str(), O_RDWR | O_CLOEXEC);
  if (backing < 0) {
    error_ = "open " + backing_file + ": " + std::strerror(errno);
    return;
  }
  int control = ::open("/dev/loop-control", O_RDWR | O_CLOEXEC);
  if (control < 0) {
    error_ = std::string("open /dev/loop-control: ") + std::strerror(errno);
    ::close(backing);
    return;
  }
  for (int attempt = 0; attempt < 20 && fd_ < 0; ++attempt) {
    int n = ::ioctl(control, LOOP_CTL_GET_FREE);
    if (n < 0) {
      error_ = std::string("LOOP_CTL_GET_FREE: ") + std::strerror(errno);
      break;
    }
    std::string dev = "/dev/loop" + std::to_string(n);
    int fd = ::open(dev.c_str(), O_RDWR | O_CLOEXEC);
    if (fd < 0) {
      error_ = "open " + dev + ": " + std::strerror(errno);
      break;
    }
    loop_config config{};
    config.fd = static_cast<uint32_t>(backing);
    config.info.lo_flags = LO_FLAGS_AUTOCLEAR;  // detached when the last fd closes
    int rc = ::ioctl(fd, LOOP_CONFIGURE, &config);
    if (rc != 0 && errno == EINVAL) rc = ::ioctl(fd, LOOP_SET_FD, backing);  // kernels before 5.8
    if (rc == 0) {
      fd_ = fd;
      device_ = dev;
      error_.clear();
    } else {
      error_ = "attach " + dev + ": " + std::strerror(errno);
      ::close(fd);
      if (errno != EBUSY) break;  // EBUSY: another process took it first, try the next
    }
  }
  ::close(control);
  ::close(backing);
}

ScopedLoopDevice::~ScopedLoopDevice() {
  if (fd_ < 0) return;
  ::ioctl(fd_, LOOP_CLR_FD, 0);
  ::close(fd_);
}

std::vector<std::string> DirEntries(const std::string& dir) {
  std::vector<std::string> names;
  DIR* d = ::opendir(dir.c_str());
  if (!d) return names;
  while (dirent* e = ::readdir(d)) {
    std::string name = e->d_name;
    if (name != "." && name != "..") names.push_back(name);
  }
  ::closedir(d);
  std::sort(names.begin(), names.end());
  return names;
}

std::vector<std::string> NasperfFiles(const std::string& dir) {
  std::vector<std::string> names;
  for (const std::string& name : DirEntries(dir))
    if (name.rfind(".nasperf-", 0) == 0) names.push_back(name);
  return names;
}

std::string WaitForNasperfFile(const std::string& dir, double timeout_s, uint64_t min_bytes) {
  const Clock::time_point start = Clock::now();
  while (SecondsSince(start) < timeout_s) {
    for (const std::string& name : NasperfFiles(dir)) {
      struct stat st {};
      if (::stat((dir + "/" + name).c_str(), &st) == 0 && static_cast<uint64_t>(st.st_size) >= min_bytes) return name;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  return "";
}

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::string line;
  std::istringstream in(text);
  while (std::getline(in, line)) lines.push_back(line);
  return lines;
}

bool WriteFileBytes(const std::string& path, const std::string& bytes) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  f.close();
  return f.good() && ::chmod(path.c_str(), 0644) == 0;
}

std::string ReadFileBytes(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

uint64_t FreeBytesAt(const std::string& path) {
  struct statvfs vfs {};
  if (::statvfs(path.c_str(), &vfs) != 0) return 0;
  return static_cast<uint64_t>(vfs.f_bavail) * vfs.f_frsize;
}

bool InCi() {
  const char* ci = std::getenv("CI");
  return ci != nullptr && std::strcmp(ci, "true") == 0;
}

bool IsRoot() { return ::geteuid() == 0; }

bool RefusesODirect(const std::string& dir) {
  std::string probe = dir + "/odirect-probe-" + std::to_string(::getpid());
  int fd = ::open(probe.c_str(), O_CREAT | O_EXCL | O_RDWR | O_DIRECT | O_CLOEXEC, 0600);
  const int err = errno;
  // Some file systems (ramfs) create the file and only then refuse O_DIRECT with EINVAL.
  ::unlink(probe.c_str());
  if (fd >= 0) {
    ::close(fd);
    return false;
  }
  return err == EINVAL;
}

::testing::AssertionResult ParseJson(const std::string& text, nlohmann::json* doc) {
  try {
    *doc = nlohmann::json::parse(text);  // rejects anything before or after the document
    return ::testing::AssertionSuccess();
  } catch (const nlohmann::json::exception& e) {
    return ::testing::AssertionFailure() << "stdout is not one JSON document (" << e.what() << "):\n" << text;
  }
}

namespace {

using nlohmann::json;

// Appends to `why` unless `j` has `key` of the kind `is` checks.
template <typename Check>
void Expect(const json& j, const char* where, const char* key, Check is, const char* kind, std::string* why) {
  if (!j.is_object()) {
    *why += std::string(where) + " is not an object; ";
  } else if (!j.contains(key)) {
    *why += std::string(where) + "." + key + " is missing; ";
  } else if (!is(j.at(key))) {
    *why += std::string(where) + "." + key + " is not " + kind + " (" + j.at(key).dump() + "); ";
  }
}

bool IsNumber(const json& v) { return v.is_number(); }
bool IsUnsigned(const json& v) { return v.is_number_unsigned() || (v.is_number_integer() && v.get<int64_t>() >= 0); }
bool IsString(const json& v) { return v.is_string(); }
bool IsBool(const json& v) { return v.is_boolean(); }
bool IsObject(const json& v) { return v.is_object(); }
bool IsArray(const json& v) { return v.is_array(); }

void ExpectDirection(const json& d, const char* where, std::string* why) {
  for (const char* key : {"bytes", "ios"}) Expect(d, where, key, IsUnsigned, "a whole number >= 0", why);
  for (const char* key : {"seconds", "mb_per_s", "iops"}) Expect(d, where, key, IsNumber, "a number", why);
  Expect(d, where, "lat_us", IsObject, "an object", why);
  if (d.is_object() && d.contains("lat_us") && d["lat_us"].is_object()) {
    std::string lat_where = std::string(where) + ".lat_us";
    for (const char* key : {"mean", "p50", "p90", "p99", "p999", "max"})
      Expect(d["lat_us"], lat_where.c_str(), key, IsNumber, "a number", why);
  }
  // Imported runs may report rates without counts (CrystalDiskMark prints MB/s, IOPS,
  // latency only): present means some figure is non-zero.
  bool counted = d.is_object() && d.contains("ios") && IsUnsigned(d["ios"]) && d["ios"].get<uint64_t>() > 0;
  bool rated = d.is_object() && d.contains("mb_per_s") && IsNumber(d["mb_per_s"]) && d["mb_per_s"].get<double>() > 0;
  if (d.is_object() && !counted && !rated) *why += std::string(where) + " is present but did no I/O; ";
}

bool Near(double actual, double expected, double rel) {
  if (expected == 0) return actual == 0;
  return std::fabs(actual - expected) <= rel * std::fabs(expected);
}

}  // namespace

::testing::AssertionResult HasRunShape(const nlohmann::json& run) {
  std::string why;
  if (!run.is_object()) return ::testing::AssertionFailure() << "run is not an object: " << run.dump();
  Expect(run, "run", "name", IsString, "a string", &why);
  Expect(run, "run", "target", IsString, "a string", &why);
  Expect(run, "run", "partial", IsBool, "a boolean", &why);
  Expect(run, "run", "job", IsObject, "an object", &why);
  Expect(run, "run", "cpu", IsObject, "an object", &why);
  Expect(run, "run", "samples", IsArray, "an array", &why);
  Expect(run, "run", "tags", IsObject, "an object", &why);
  if (run.contains("job") && run["job"].is_object()) {
    const json& job = run["job"];
    Expect(job, "job", "rw", IsString, "a string", &why);
    for (const char* key : {"bs", "qd", "threads", "size"}) Expect(job, "job", key, IsUnsigned, "a whole number", &why);
    Expect(job, "job", "time_s", IsNumber, "a number", &why);
    Expect(job, "job", "direct", IsBool, "a boolean", &why);
    Expect(job, "job", "engine", IsString, "a string", &why);
    if (job.contains("rw") && job["rw"].is_string()) {
      std::string rw = job["rw"];
      bool reads = rw == "read" || rw == "randread" || rw == "rw" || rw == "randrw";
      bool writes = rw == "write" || rw == "randwrite" || rw == "rw" || rw == "randrw";
      if (!reads && !writes) why += "job.rw '" + rw + "' is not one of the six modes; ";
      if (!reads && run.contains("read")) why += "a '" + rw + "' job has a read object; ";
      if (!writes && run.contains("write")) why += "a '" + rw + "' job has a write object; ";
    }
  }
  if (run.contains("cpu") && run["cpu"].is_object())
    for (const char* key : {"user_pct", "sys_pct"}) Expect(run["cpu"], "cpu", key, IsNumber, "a number", &why);
  if (run.contains("samples") && run["samples"].is_array())
    for (const json& s : run["samples"])
      for (const char* key : {"t_s", "read_mb_per_s", "write_mb_per_s"})
        Expect(s, "samples[]", key, IsNumber, "a number", &why);
  if (run.contains("tags") && run["tags"].is_object())
    for (const auto& [k, v] : run["tags"].items())
      if (!v.is_string()) why += "tags." + k + " is not a string; ";
  if (run.contains("read")) ExpectDirection(run["read"], "read", &why);
  if (run.contains("write")) ExpectDirection(run["write"], "write", &why);
  if (!why.empty()) return ::testing::AssertionFailure() << why << "\nrun: " << run.dump(2);
  return ::testing::AssertionSuccess();
}

::testing::AssertionResult HasDocumentShape(const nlohmann::json& doc) {
  if (!doc.is_object()) return ::testing::AssertionFailure() << "document is not an object";
  if (!doc.contains("nasperf") || !doc["nasperf"].is_object() || !doc["nasperf"].contains("version") ||
      !doc["nasperf"]["version"].is_string())
    return ::testing::AssertionFailure() << "nasperf.version (a string) is missing: " << doc.dump(2);
  std::string version = doc["nasperf"]["version"];
  if (std::count(version.begin(), version.end(), '.') < 2)
    return ::testing::AssertionFailure() << "nasperf.version '" << version << "' is not X.Y.Z";
  if (!doc.contains("runs") || !doc["runs"].is_array() || doc["runs"].empty())
    return ::testing::AssertionFailure() << "runs (a non-empty array) is missing: " << doc.dump(2);
  for (const json& run : doc["runs"])
    if (::testing::AssertionResult r = HasRunShape(run); !r) return r;
  return ::testing::AssertionSuccess();
}

::testing::AssertionResult HasConsistentFigures(const nlohmann::json& run) {
  if (::testing::AssertionResult r = HasRunShape(run); !r) return r;
  std::ostringstream why;
  const uint64_t bs = run["job"]["bs"];
  for (const char* dir : {"read", "write"}) {
    if (!run.contains(dir)) continue;
    const json& d = run[dir];
    const uint64_t bytes = d["bytes"], ios = d["ios"];
    const double seconds = d["seconds"], mb = d["mb_per_s"], iops = d["iops"];
    if (bytes != ios * bs) why << dir << ": bytes " << bytes << " != ios " << ios << " x bs " << bs << "; ";
    if (!(seconds > 0)) why << dir << ": seconds " << seconds << " is not > 0; ";
    if (seconds > 0) {
      if (!Near(mb, static_cast<double>(bytes) / seconds / 1e6, 0.001))
        why << dir << ": mb_per_s " << mb << " != bytes/seconds/1e6 = " << bytes / seconds / 1e6 << "; ";
      if (!Near(iops, static_cast<double>(ios) / seconds, 0.001))
        why << dir << ": iops " << iops << " != ios/seconds = " << ios / seconds << "; ";
    }
    const json& lat = d["lat_us"];
    const double mean = lat["mean"], p50 = lat["p50"], p90 = lat["p90"], p99 = lat["p99"], p999 = lat["p999"],
                 max = lat["max"];
    if (!(0 <= p50 && p50 <= p90 && p90 <= p99 && p99 <= p999 && p999 <= max))
      why << dir << ": latency percentiles out of order: p50 " << p50 << " p90 " << p90 << " p99 " << p99 << " p999 "
          << p999 << " max " << max << "; ";
    if (!(mean > 0 && mean <= max)) why << dir << ": mean latency " << mean << " not in (0, max " << max << "]; ";
  }
  // Little's law, from figures counted apart (latencies by the histogram, I/Os and time by
  // the worker and the clock): the I/Os in flight on average, IOPS x mean latency, cannot
  // exceed the slots the job had (qd x threads), plus one I/O per slot straddling the
  // window's edges. Seconds too short, counts doubled or latency in the wrong unit break it.
  const double slots = run["job"]["qd"].get<double>() * run["job"]["threads"].get<double>();
  double busy_s = 0, window_s = 0, max_s = 0;
  for (const char* dir : {"read", "write"}) {
    if (!run.contains(dir)) continue;
    const json& d = run[dir];
    busy_s += d["ios"].get<double>() * d["lat_us"]["mean"].get<double>() / 1e6;
    window_s = std::max(window_s, d["seconds"].get<double>());
    max_s = std::max(max_s, d["lat_us"]["max"].get<double>() / 1e6);
  }
  if (window_s > 0 && busy_s > slots * (window_s + max_s) * 1.01)
    why << "Little's law: " << busy_s << " s of I/O latency in a " << window_s << " s window with " << slots
        << " slots; ";
  for (const char* key : {"user_pct", "sys_pct"})
    if (!(run["cpu"][key].get<double>() >= 0)) why << "cpu." << key << " is negative; ";
  if (!why.str().empty()) return ::testing::AssertionFailure() << why.str() << "\nrun: " << run.dump(2);
  return ::testing::AssertionSuccess();
}

uint64_t TotalBytes(const nlohmann::json& run) {
  uint64_t total = 0;
  for (const char* dir : {"read", "write"})
    if (run.contains(dir)) total += run[dir]["bytes"].get<uint64_t>();
  return total;
}

::testing::AssertionResult OnlyWarningsOrProgress(const std::string& err) {
  for (const std::string& raw : Lines(err)) {
    if (raw.find('\r') != std::string::npos) continue;  // a progress line, redrawn in place
    std::string line = raw;
    if (line.rfind("nasperf: ", 0) == 0) line = line.substr(9);
    std::string lower;
    for (char c : line) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (line.empty() || lower.rfind("warning", 0) == 0 || lower.rfind("note", 0) == 0) continue;
    return ::testing::AssertionFailure() << "stderr has a line that is not a warning or progress: '" << raw
                                         << "'\nfull stderr:\n"
                                         << err;
  }
  return ::testing::AssertionSuccess();
}

std::string Join(const std::vector<std::string>& args) {
  std::string out = "nasperf";
  for (const std::string& a : args) out += " " + a;
  return out;
}

bool Contains(const std::string& text, const std::string& needle) { return text.find(needle) != std::string::npos; }

nlohmann::json NasperfJson(const std::vector<std::string>& args, double timeout_s) {
  CliResult r = RunNasperf(args, timeout_s);
  EXPECT_EQ(r.exit_code, 0) << Join(args) << "\nstderr: " << r.err;
  nlohmann::json doc;
  ::testing::AssertionResult parsed = ParseJson(r.out, &doc);
  EXPECT_TRUE(parsed) << Join(args);
  if (!parsed || !doc.is_object()) return nlohmann::json::object();
  return doc;
}

std::string SqliteQuery(const std::string& path, const std::string& sql, bool create) {
  sqlite3* db = nullptr;
  std::string out;
  if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0), nullptr) != SQLITE_OK) {
    out = std::string("error: open: ") + (db ? sqlite3_errmsg(db) : "out of memory");
    sqlite3_close(db);
    return out;
  }
  sqlite3_busy_timeout(db, 10000);
  char* message = nullptr;
  auto row = [](void* text, int n, char** values, char**) -> int {
    std::string* o = static_cast<std::string*>(text);
    if (!o->empty()) *o += "\n";
    *o += n > 0 && values[0] ? values[0] : "NULL";
    return 0;
  };
  if (sqlite3_exec(db, sql.c_str(), row, &out, &message) != SQLITE_OK) {
    out = std::string("error: ") + (message ? message : "?");
    sqlite3_free(message);
  }
  sqlite3_close(db);
  return out;
}

}  // namespace nasperf::e2e
