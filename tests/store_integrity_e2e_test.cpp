// E2E tests that the results database tells the truth and loses nothing: a tag added to a
// run in progress survives its end; rm refuses a run in progress and takes a killed one;
// a failed net test, a refused import and an undecodable file leave no invocation row;
// a truncated database is called truncated, a full disk full; a read-only database is still listed.
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "cli_harness.h"

namespace nasperf::e2e {
namespace {

using nlohmann::json;

// The first column of the rows `sql` returns, joined with '\n', or "error: ...".
std::string Query(const std::string& path, const std::string& sql) { return SqliteQuery(path, sql, false); }

// The id of a run stored by `run null: ... --db DB --json`.
int64_t StoreNullRun(const std::string& db) {
  json doc = NasperfJson({"run", "null:", "--size", "16m", "--bs", "4k", "--db", db, "--json"});
  if (!doc.contains("runs") || doc["runs"].size() != 1 || !doc["runs"][0].contains("id")) return -1;
  return doc["runs"][0]["id"].get<int64_t>();
}

// Waits (polling, up to `timeout_s`) until the database holds a run; its id, or "".
std::string WaitForStoredRun(const std::string& db, double timeout_s) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
  while (std::chrono::steady_clock::now() < deadline) {
    if (::access(db.c_str(), F_OK) == 0) {
      std::string id = Query(db, "SELECT max(id) FROM runs");
      if (!id.empty() && id != "NULL" && id.rfind("error", 0) != 0) return id;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return "";
}

// A loopback TCP port nothing listens on (bound, then closed).
int ClosedLoopbackPort() {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof addr;
  if (fd < 0 || ::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 ||
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) != 0) {
    if (fd >= 0) ::close(fd);
    return -1;
  }
  ::close(fd);
  return ntohs(addr.sin_port);
}

TEST(StoreIntegrityE2eTest, ATagAddedWhileARunIsMeasuredSurvivesItsEnd) {
  TempDir dir;
  ASSERT_TRUE(dir.ok());
  const std::string db = dir.Sub("results.db");
  // 30 s, ended by Ctrl-C once tagged: the tag surely comes before the final save, and
  // an interrupted run's final save is the same merge as a finished one's.
  BackgroundProcess p = StartNasperf({"run", "null:", "--bs", "4k", "--time", "30", "--tag", "own=yes", "--db", db});
  ASSERT_TRUE(p.running());
  const std::string id = WaitForStoredRun(db, 10);
  ASSERT_NE(id, "") << "the run was not recorded as started within 10 s";
  CliResult tag = RunNasperf({"results", "tag", id, "added=meanwhile", "--db", db});
  EXPECT_EQ(tag.exit_code, 0) << tag.err;
  ASSERT_TRUE(p.Signal(SIGINT)) << "the run ended before it was tagged";
  CliResult r = p.Finish(30);
  ASSERT_EQ(r.exit_code, 130) << r.err;
  EXPECT_TRUE(Contains(r.out, "stored as run " + id)) << r.out;
  json shown = NasperfJson({"results", "show", id, "--db", db, "--json"});
  ASSERT_TRUE(shown.contains("runs") && shown["runs"].size() == 1) << shown.dump(2);
  EXPECT_EQ(shown["runs"][0]["tags"], json({{"added", "meanwhile"}, {"own", "yes"}}));
  EXPECT_TRUE(Contains(shown["runs"][0].value("error", ""), "interrupted"))
      << "not the final save: " << shown["runs"][0].dump(2);
}

TEST(StoreIntegrityE2eTest, RmRefusesARunInProgressAndTakesAKilledOne) {
  TempDir dir;
  ASSERT_TRUE(dir.ok());
  const std::string db = dir.Sub("results.db");
  BackgroundProcess p = StartNasperf({"run", "null:", "--bs", "4k", "--time", "30", "--db", db});
  ASSERT_TRUE(p.running());
  const std::string id = WaitForStoredRun(db, 10);
  ASSERT_NE(id, "") << "the run was not recorded as started within 10 s";

  CliResult rm = RunNasperf({"results", "rm", id, "--yes", "--db", db});
  EXPECT_EQ(rm.exit_code, 2) << rm.err;
  EXPECT_EQ(rm.out, "");
  EXPECT_EQ(Lines(rm.err).size(), 1u) << rm.err;
  EXPECT_TRUE(Contains(rm.err, "run " + id + " is still being measured")) << rm.err;
  EXPECT_TRUE(Contains(rm.err, "pid " + std::to_string(p.pid()))) << rm.err;
  EXPECT_EQ(Query(db, "SELECT count(*) FROM runs WHERE id = " + id), "1") << "a run in progress was removed";

  ASSERT_TRUE(p.Signal(SIGKILL));
  CliResult killed = p.Finish(10);
  EXPECT_EQ(killed.term_signal, SIGKILL);
  EXPECT_EQ(Query(db, "SELECT partial FROM runs WHERE id = " + id), "1");
  rm = RunNasperf({"results", "rm", id, "--yes", "--db", db});
  EXPECT_EQ(rm.exit_code, 0) << rm.err;
  EXPECT_EQ(Query(db, "SELECT count(*) FROM runs"), "0");
  EXPECT_EQ(Query(db, "PRAGMA integrity_check"), "ok");
}

TEST(StoreIntegrityE2eTest, RmOfARunInProgressElsewhereNeedsForce) {
  TempDir dir;
  ASSERT_TRUE(dir.ok());
  const std::string db = dir.Sub("results.db");
  const int64_t id = StoreNullRun(db);
  ASSERT_GT(id, 0);
  ASSERT_EQ(Query(db, "UPDATE runs SET partial = 1, owner_host = 'client-7', owner_pid = 42, owner_start = 'x/1'"), "");
  const std::string text = std::to_string(id);
  CliResult rm = RunNasperf({"results", "rm", text, "--yes", "--db", db});
  EXPECT_EQ(rm.exit_code, 2) << rm.err;
  EXPECT_EQ(Lines(rm.err).size(), 1u) << rm.err;
  EXPECT_TRUE(Contains(rm.err, "client-7") && Contains(rm.err, "--force")) << rm.err;
  rm = RunNasperf({"results", "rm", text, "--yes", "--force", "--db", db});
  EXPECT_EQ(rm.exit_code, 0) << rm.err;
  EXPECT_EQ(Query(db, "SELECT count(*) FROM runs"), "0");
}

TEST(StoreIntegrityE2eTest, FailedCommandsLeaveNoInvocationBehind) {
  TempDir dir;
  ASSERT_TRUE(dir.ok());
  const std::string db = dir.Sub("results.db");
  ASSERT_GT(StoreNullRun(db), 0);
  ASSERT_EQ(Query(db, "SELECT count(*) FROM invocations"), "1");

  // net to a loopback port nothing listens on.
  const int port = ClosedLoopbackPort();
  ASSERT_GT(port, 0);
  const std::string token = dir.Sub("token");
  ASSERT_TRUE(WriteFileBytes(token, "0123456789abcdef-token\n"));
  ::chmod(token.c_str(), 0600);
  CliResult net =
      RunNasperf({"net", "127.0.0.1:" + std::to_string(port), "--time", "1", "--token-file", token, "--db", db}, 30);
  EXPECT_NE(net.exit_code, 0) << net.out;
  EXPECT_EQ(Query(db, "SELECT count(*) FROM invocations"), "1") << "net: " << net.err;

  // An import refused as bad input.
  const std::string garbage = dir.Sub("garbage.txt");
  ASSERT_TRUE(WriteFileBytes(garbage, "not a benchmark report\n"));
  CliResult refused = RunNasperf({"results", "import", garbage, "--db", db});
  EXPECT_EQ(refused.exit_code, 2) << refused.err;
  EXPECT_EQ(Query(db, "SELECT count(*) FROM invocations"), "1") << "refused import: " << refused.err;

  // A CrystalDiskMark export whose comment is Shift-JIS (not UTF-8): whatever becomes of
  // it, a failure stores nothing and a success stores its runs with their invocation.
  const std::string here = __FILE__;
  std::string cdm = ReadFileBytes(here.substr(0, here.rfind("/tests/")) + "/src/import/testdata/cdm8.txt");
  ASSERT_FALSE(cdm.empty());
  cdm += "Comment: \x83\x65\x83\x58\x83\x67\n";
  const std::string sjis = dir.Sub("sjis.txt");
  ASSERT_TRUE(WriteFileBytes(sjis, cdm));
  CliResult imported = RunNasperf({"results", "import", sjis, "--db", db});
  EXPECT_EQ(imported.term_signal, 0);
  const std::string runs_after = Query(db, "SELECT count(*) FROM runs");
  const std::string orphans =
      Query(db, "SELECT count(*) FROM invocations WHERE id NOT IN (SELECT invocation_id FROM runs)");
  EXPECT_EQ(orphans, "0") << "import exit " << imported.exit_code << ": " << imported.err;
  if (imported.exit_code != 0) EXPECT_EQ(runs_after, "1") << imported.err;
}

// A database cut short (a copy interrupted, a disk that filled during a copy) is damaged,
// and said to be: "not an SQLite database" would make a user delete it.
TEST(StoreIntegrityE2eTest, ATruncatedDatabaseIsCalledTruncated) {
  TempDir dir;
  ASSERT_TRUE(dir.ok());
  const std::string db = dir.Sub("results.db");
  CliResult quick = RunNasperf({"quick", "null:", "--size", "8m", "--repeat", "1", "--time", "1", "--db", db});
  ASSERT_EQ(quick.exit_code, 0) << quick.err;
  ASSERT_NE(::access((db + "-wal").c_str(), F_OK), 0) << "the WAL was not checkpointed at exit";
  struct stat st {};
  ASSERT_EQ(::stat(db.c_str(), &st), 0);
  ASSERT_GT(st.st_size, 8 * 4096) << "too small a database to cut";
  ASSERT_EQ(::truncate(db.c_str(), st.st_size / 3), 0);
  for (std::vector<std::string> args : std::vector<std::vector<std::string>>{
           {"results", "list"}, {"results", "export", "--json"}, {"run", "null:", "--size", "1m"}}) {
    args.insert(args.end(), {"--db", db});
    SCOPED_TRACE(Join(args));
    CliResult r = RunNasperf(args);
    EXPECT_EQ(r.term_signal, 0);
    EXPECT_NE(r.exit_code, 0);
    EXPECT_EQ(Lines(r.err).size(), 1u) << r.err;
    EXPECT_TRUE(Contains(r.err, db)) << r.err;
    EXPECT_TRUE(Contains(r.err, "truncated")) << r.err;
    EXPECT_FALSE(Contains(r.err, "not an SQLite database")) << r.err;
  }
}

// A full disk is called a full disk, and what was stored before it filled still lists.
TEST(StoreIntegrityE2eTest, AFullDiskIsCalledFullAndTheDatabaseStaysReadable) {
  TempDir dir;
  ASSERT_TRUE(dir.ok());
  ScopedMount tiny("tmpfs", dir.path(), "tmpfs", 0, "size=160k");
  if (!tiny.ok()) NASPERF_SKIP_OR_FAIL("needs to mount a small tmpfs (root): " + tiny.error());
  const std::string db = dir.Sub("results.db");
  CliResult full;
  for (int i = 0; i < 4 && full.exit_code != 1; ++i)
    full = RunNasperf({"quick", "null:", "--size", "8m", "--repeat", "1", "--time", "1", "--db", db});
  ASSERT_EQ(full.exit_code, 1) << "160 KiB never filled: " << full.err;
  EXPECT_TRUE(Contains(full.err, "results database " + db + ": the disk is full")) << full.err;
  EXPECT_FALSE(Contains(full.err, "not an SQLite database")) << full.err;
  // "stored as runs A-B" may name the runs stored before the disk filled: all of them, whole.
  if (const size_t at = full.out.find("stored as run"); at != std::string::npos) {
    const std::string rest = full.out.substr(at + 13);
    const size_t digits = rest.find_first_of("0123456789");
    ASSERT_NE(digits, std::string::npos) << full.out;
    size_t used = 0;
    const long first = std::stol(rest.substr(digits), &used);
    long last = first;
    if (rest[digits + used] == '-') last = std::stol(rest.substr(digits + used + 1));
    EXPECT_EQ(Query(db, "SELECT count(*) FROM runs WHERE partial = 0 AND id BETWEEN " + std::to_string(first) +
                            " AND " + std::to_string(last)),
              std::to_string(last - first + 1))
        << "runs said to be stored are not, or not whole:\n"
        << full.out;
  }
  CliResult list = RunNasperf({"results", "list", "--db", db, "--json"});
  EXPECT_EQ(list.exit_code, 0) << list.err;
  EXPECT_EQ(Query(db, "PRAGMA integrity_check"), "ok");
}

// `results list` reads a database nobody may write (file 0444 in a 0555 directory, so no
// -shm or -wal file can be made); `results tag` says it is read-only. Root ignores
// permission bits, so as root the commands run as user nobody (setpriv).
TEST(StoreIntegrityE2eTest, AReadOnlyDatabaseIsListedAndCalledReadOnlyOnWrite) {
  TempDir dir;
  ASSERT_TRUE(dir.ok());
  const std::string sub = dir.Sub("ro"), db = sub + "/results.db";
  ASSERT_EQ(::mkdir(sub.c_str(), 0755), 0);
  const int64_t id = StoreNullRun(db);
  ASSERT_GT(id, 0);
  ASSERT_EQ(::chmod(dir.path().c_str(), 0755), 0);
  ASSERT_EQ(::chmod(sub.c_str(), 0555), 0);
  ASSERT_EQ(::chmod(db.c_str(), 0444), 0);
  auto as_user = [&](const std::vector<std::string>& args) {
    if (!IsRoot()) return RunNasperf(args);
    std::vector<std::string> wrapped = {"--reuid=65534", "--regid=65534", "--clear-groups", NasperfBinary()};
    wrapped.insert(wrapped.end(), args.begin(), args.end());
    return RunProgram("/usr/bin/setpriv", wrapped);
  };
  if (IsRoot() && ::access("/usr/bin/setpriv", X_OK) != 0) NASPERF_SKIP_OR_FAIL("needs setpriv to drop root");
  CliResult list = as_user({"results", "list", "--db", db, "--json"});
  EXPECT_EQ(list.exit_code, 0) << list.err;
  json doc;
  ASSERT_TRUE(ParseJson(list.out, &doc));
  ASSERT_TRUE(doc.contains("runs") && doc["runs"].size() == 1) << list.out;
  EXPECT_EQ(doc["runs"][0]["id"], id);
  CliResult tag = as_user({"results", "tag", std::to_string(id), "k=v", "--db", db});
  EXPECT_NE(tag.exit_code, 0);
  EXPECT_EQ(Lines(tag.err).size(), 1u) << tag.err;
  EXPECT_TRUE(Contains(tag.err, "read-only")) << tag.err;
  EXPECT_FALSE(Contains(tag.err, "not an SQLite database")) << tag.err;
  EXPECT_NE(::access((db + "-wal").c_str(), F_OK), 0);
  ::chmod(sub.c_str(), 0755);
}

}  // namespace
}  // namespace nasperf::e2e
