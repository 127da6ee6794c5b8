// E2E test harness: nasperf under test, its private results database, and checks of its output.
#include "cli_harness.h"

#include <fcntl.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
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

}  // namespace

const char* NasperfBinary() { return NASPERF_BINARY; }

CliResult RunNasperf(const std::vector<std::string>& args, double timeout_s, const std::string& cwd) {
  return RunProgram(NasperfBinary(), args, timeout_s, cwd);
}

BackgroundProcess StartNasperf(const std::vector<std::string>& args) { return StartProgram(NasperfBinary(), args); }

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

const nlohmann::json* FindRow(const nlohmann::json& compare, const std::string& label) {
  if (!compare.contains("rows") || !compare["rows"].is_array()) return nullptr;
  for (const nlohmann::json& row : compare["rows"])  // by reference: the pointer must outlive the loop
    if (row.value("label", "") == label) return &row;
  return nullptr;
}

uint64_t FreeBytesAt(const std::string& path) {
  struct statvfs vfs {};
  if (::statvfs(path.c_str(), &vfs) != 0) return 0;
  return static_cast<uint64_t>(vfs.f_bavail) * vfs.f_frsize;
}

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
