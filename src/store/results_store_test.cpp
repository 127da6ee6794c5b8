// Results store: round trips, filters, tags, removal, unfinished runs, migration from
// the first schema, refusal of foreign and newer files, and concurrent writers.
#include "store/results_store.h"

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <set>
#include <sstream>

#include "stats/histogram.h"
#include "store/schema.h"
#include "testing/test_support.h"

namespace nasperf {
namespace {

using testing::TempDir;

using testing::ReadWholeFile;
std::string ReadFile(const std::string& path) { return ReadWholeFile(path); }

RunResult SampleRun(const std::string& name, const std::string& started_at) {
  RunResult run;
  run.name = name;
  run.started_at = started_at;
  run.command_line = "nasperf run /tmp --rw randrw";
  run.target = "/tmp";
  run.engine = "io_uring";
  run.job.rw = AccessPattern::kRandReadWrite;
  run.job.read_mix_pct = 70;
  run.job.bs = 4096;
  run.job.qd = 32;
  run.job.direct = true;
  auto h = std::make_shared<LatencyHistogram>();
  for (uint64_t v = 1000; v < 2'000'000; v += 997) h->Record(v);
  DirectionResult d;
  d.bytes = 4096 * h->count();
  d.ios = h->count();
  d.seconds = 2.5;
  d.mb_per_s = d.bytes / 2.5 / 1e6;
  d.iops = d.ios / 2.5;
  d.lat = {h->mean_ns() / 1000, h->Percentile(0.5) / 1000, 0, 0, 0, h->max_ns() / 1000.0};
  d.histogram = h;
  run.read = d;
  run.write = d;
  run.cpu = {10.5, 33.25};
  run.samples = {{1.0, 100.5, 40.0}, {2.0, 101.5, 41.0}};
  run.tags = {{"box", "atom"}, {"mtu", "9000"}};
  run.notes = {"a note"};
  run.repeats = {{1.0, 0.5, 10, 5, 100, 200, 300, 400, 2.5}, {2.0, 1.0, 20, 10, 90, 180, 290, 390, 2.4}};
  run.inventory = {{"host", {{"cpu", {{"model", "Test CPU"}}}}}};
  return run;
}

Result<ResultsStore> OpenIn(const TempDir& dir) { return ResultsStore::Open(dir.path() + "/sub/results.db"); }

struct StoredSample {
  Result<ResultsStore> store;
  RunResult run;
};

// The setup most cases share: the store in `dir` (OpenIn) with SampleRun(name,
// started_at) saved in an invocation of its own. A failed step fails the test and is
// left in `store`, for the caller's ASSERT_TRUE(store.ok()).
StoredSample OpenAndSave(const TempDir& dir, const std::string& name, const std::string& started_at) {
  StoredSample s{OpenIn(dir), SampleRun(name, started_at)};
  if (!s.store.ok()) {
    ADD_FAILURE() << s.store.status().message();
    return s;
  }
  Result<int64_t> inv = s.store.value().BeginInvocation("run", "nasperf run", started_at);
  Status saved = inv.ok() ? s.store.value().Save(s.run, inv.value()) : inv.status();
  if (!saved.ok()) {
    ADD_FAILURE() << saved.message();
    s.store = saved;
  }
  return s;
}

TEST(ResultsStore, SavesAndLoadsEverything) {
  TempDir dir;
  auto [store, run] = OpenAndSave(dir, "one", "2026-11-30T10:00:00Z");
  ASSERT_TRUE(store.ok()) << store.status().message();
  ASSERT_GT(run.id, 0);

  Result<RunResult> back = store.value().Load(run.id);
  ASSERT_TRUE(back.ok()) << back.status().message();
  const RunResult& b = back.value();
  EXPECT_EQ(b.name, "one");
  EXPECT_EQ(b.started_at, run.started_at);
  EXPECT_EQ(b.command_line, run.command_line);
  EXPECT_EQ(b.job.rw, AccessPattern::kRandReadWrite);
  EXPECT_EQ(b.job.read_mix_pct, 70);
  EXPECT_EQ(b.job.qd, 32u);
  EXPECT_TRUE(b.job.direct);
  EXPECT_EQ(b.engine, "io_uring");
  EXPECT_FALSE(b.partial);
  ASSERT_TRUE(b.read && b.write);
  EXPECT_EQ(b.read->bytes, run.read->bytes);
  EXPECT_DOUBLE_EQ(b.read->mb_per_s, run.read->mb_per_s);
  EXPECT_DOUBLE_EQ(b.read->lat.p50_us, run.read->lat.p50_us);
  ASSERT_TRUE(b.read->histogram);
  // The stored histogram recomputes any percentile, not just the ones printed.
  EXPECT_DOUBLE_EQ(b.read->histogram->Percentile(0.9999), run.read->histogram->Percentile(0.9999));
  EXPECT_EQ(b.samples.size(), 2u);
  EXPECT_DOUBLE_EQ(b.samples[1].write_mb_per_s, 41.0);
  EXPECT_EQ(b.tags, run.tags);
  EXPECT_EQ(b.notes, run.notes);
  ASSERT_EQ(b.repeats.size(), 2u);
  EXPECT_DOUBLE_EQ(b.repeats[1].read_mb_per_s, 2.0);
  EXPECT_DOUBLE_EQ(b.repeats[1].write_lat_p99_us, 390);
  EXPECT_DOUBLE_EQ(b.repeats[0].seconds, 2.5);
  EXPECT_FALSE(b.cached.has_value());
  EXPECT_EQ(b.inventory["host"]["cpu"]["model"], "Test CPU");
  EXPECT_DOUBLE_EQ(b.cpu.sys_pct, 33.25);
}

// The store keeps each repeat in the JSON document's form (model/run_json.h), every
// direction included: one encoding of repeats, not a second flat one.
TEST(ResultsStore, StoresRepeatsInTheDocumentsForm) {
  TempDir dir;
  const std::string path = dir.path() + "/sub/results.db";
  RunResult run;
  {
    auto [store, saved] = OpenAndSave(dir, "one", "2026-11-30T10:00:00Z");
    ASSERT_TRUE(store.ok()) << store.status().message();
    run = saved;
  }
  Result<SqliteDb> raw = SqliteDb::Open(path, false);
  ASSERT_TRUE(raw.ok());
  Result<SqliteStatement> q = raw.value().Prepare("SELECT repeats_json FROM runs WHERE id = ?");
  ASSERT_TRUE(q.ok());
  q.value().Bind(1, run.id);
  ASSERT_TRUE(q.value().Step().value());
  const nlohmann::json stored = nlohmann::json::parse(q.value().Text(0));
  ASSERT_EQ(stored.size(), 2u);
  EXPECT_DOUBLE_EQ(stored[1]["read"]["mb_per_s"].get<double>(), 2.0);
  EXPECT_DOUBLE_EQ(stored[1]["write"]["lat_p99_us"].get<double>(), 390);
  EXPECT_DOUBLE_EQ(stored[0]["seconds"].get<double>(), 2.5);
  EXPECT_FALSE(stored[0].contains("read_mb_per_s"));
}

// Schemas 3 to 6 kept each repeat as one flat object; such rows still read.
TEST(ResultsStore, ReadsTheFlatRepeatsOfEarlierSchemas) {
  TempDir dir;
  auto [store, run] = OpenAndSave(dir, "one", "2026-11-30T10:00:00Z");
  ASSERT_TRUE(store.ok());
  Result<SqliteDb> raw = SqliteDb::Open(dir.path() + "/sub/results.db", false);
  ASSERT_TRUE(raw.ok());
  ASSERT_TRUE(raw.value()
                  .Exec("UPDATE runs SET repeats_json = '[{\"read_mb_per_s\": 3.5, \"write_mb_per_s\": 1.5, "
                        "\"read_iops\": 30, \"write_iops\": 15, \"read_lat_mean_us\": 80, "
                        "\"write_lat_mean_us\": 170, \"read_lat_p99_us\": 280, \"write_lat_p99_us\": 380, "
                        "\"seconds\": 2.25, \"seed\": 77}]'")
                  .ok());
  Result<RunResult> back = store.value().Load(run.id);
  ASSERT_TRUE(back.ok()) << back.status().message();
  ASSERT_EQ(back.value().repeats.size(), 1u);
  const RepeatFigures& r = back.value().repeats[0];
  EXPECT_DOUBLE_EQ(r.read_mb_per_s, 3.5);
  EXPECT_DOUBLE_EQ(r.write_mb_per_s, 1.5);
  EXPECT_DOUBLE_EQ(r.read_iops, 30);
  EXPECT_DOUBLE_EQ(r.write_iops, 15);
  EXPECT_DOUBLE_EQ(r.read_lat_mean_us, 80);
  EXPECT_DOUBLE_EQ(r.write_lat_mean_us, 170);
  EXPECT_DOUBLE_EQ(r.read_lat_p99_us, 280);
  EXPECT_DOUBLE_EQ(r.write_lat_p99_us, 380);
  EXPECT_DOUBLE_EQ(r.seconds, 2.25);
  EXPECT_EQ(r.seed, 77u);
}

TEST(ResultsStore, ListFiltersNewestFirst) {
  TempDir dir;
  Result<ResultsStore> store = OpenIn(dir);
  ASSERT_TRUE(store.ok());
  int64_t inv = store.value().BeginInvocation("run", "x", "2026-01-01T00:00:00Z").value();
  for (int i = 0; i < 4; ++i) {
    RunResult run = SampleRun(i % 2 ? "odd" : "even", "2026-11-0" + std::to_string(i + 1) + "T00:00:00Z");
    run.tags["i"] = std::to_string(i);
    if (i == 3) run.target = "/mnt/nas";
    ASSERT_TRUE(store.value().Save(run, inv).ok());
  }
  auto names = [&](const RunFilter& f) {
    std::vector<std::string> out;
    Result<std::vector<RunResult>> runs = store.value().List(f);
    for (const RunResult& r : runs.value()) out.push_back(r.name + r.tags.at("i"));
    return out;
  };
  EXPECT_EQ(names({}), (std::vector<std::string>{"odd3", "even2", "odd1", "even0"}));
  RunFilter by_name;
  by_name.name = "even";
  EXPECT_EQ(names(by_name), (std::vector<std::string>{"even2", "even0"}));
  RunFilter by_tag;
  by_tag.tags = {{"i", "1"}};
  EXPECT_EQ(names(by_tag), (std::vector<std::string>{"odd1"}));
  RunFilter since;
  since.since = "2026-11-03";
  EXPECT_EQ(names(since), (std::vector<std::string>{"odd3", "even2"}));
  RunFilter target;
  target.target = "/mnt/nas";
  EXPECT_EQ(names(target), (std::vector<std::string>{"odd3"}));
  RunFilter last;
  last.limit = 1;
  EXPECT_EQ(names(last), (std::vector<std::string>{"odd3"}));
}

TEST(ResultsStore, TagAndRemove) {
  TempDir dir;
  auto [store, run] = OpenAndSave(dir, "r", "2026-11-01T00:00:00Z");
  ASSERT_TRUE(store.ok());
  ASSERT_TRUE(store.value().SetTag(run.id, "mtu", "1500").ok());
  EXPECT_EQ(store.value().Load(run.id).value().tags.at("mtu"), "1500");
  Status missing = store.value().SetTag(run.id + 100, "a", "b");
  EXPECT_EQ(missing.kind(), ErrorKind::kBadInput);
  EXPECT_NE(missing.message().find("no run with id"), std::string::npos);
  ASSERT_TRUE(store.value().Remove(run.id).ok());
  EXPECT_EQ(store.value().Load(run.id).status().kind(), ErrorKind::kBadInput);
  EXPECT_EQ(store.value().Remove(run.id).kind(), ErrorKind::kBadInput);
}

TEST(ResultsStore, ARunThatNeverFinishedStaysPartial) {
  TempDir dir;
  int64_t id = 0;
  {
    Result<ResultsStore> store = OpenIn(dir);
    ASSERT_TRUE(store.ok());
    int64_t inv = store.value().BeginInvocation("run", "x", "2026-01-01T00:00:00Z").value();
    RunResult run = SampleRun("killed", "2026-11-01T00:00:00Z");
    ASSERT_TRUE(store.value().BeginRun(run, inv).ok());
    id = run.id;
  }  // the process "dies" here without FinishRun
  Result<ResultsStore> store = OpenIn(dir);
  Result<RunResult> back = store.value().Load(id);
  ASSERT_TRUE(back.ok());
  EXPECT_TRUE(back.value().partial);
  EXPECT_NE(back.value().error.find("stopped before this run ended"), std::string::npos);
}

TEST(ResultsStore, FinishKeepsTagsAddedWhileTheRunWasInProgress) {
  TempDir dir;
  Result<ResultsStore> recorder = OpenIn(dir);
  ASSERT_TRUE(recorder.ok()) << recorder.status().message();
  int64_t inv = recorder.value().BeginInvocation("run", "x", "2026-01-01T00:00:00Z").value();
  RunResult run = SampleRun("in progress", "2026-11-01T00:00:00Z");
  ASSERT_TRUE(recorder.value().BeginRun(run, inv).ok());
  {
    // `results tag` from another process while the run is measured.
    Result<ResultsStore> other = OpenIn(dir);
    ASSERT_TRUE(other.ok()) << other.status().message();
    ASSERT_TRUE(other.value().SetTag(run.id, "added", "meanwhile").ok());
    ASSERT_TRUE(other.value().SetTag(run.id, "box", "changed by the user").ok());
  }
  run.tags["late"] = "own tag";
  run.started_at = "2026-11-01T00:00:05Z";  // net knows when its test began only at the end
  ASSERT_TRUE(recorder.value().FinishRun(run).ok());
  Result<RunResult> back = recorder.value().Load(run.id);
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(back.value().tags.at("added"), "meanwhile");
  EXPECT_EQ(back.value().tags.at("box"), "changed by the user");  // the user's change is newer
  EXPECT_EQ(back.value().tags.at("mtu"), "9000");
  EXPECT_EQ(back.value().tags.at("late"), "own tag");
  EXPECT_EQ(back.value().started_at, "2026-11-01T00:00:05Z");
  EXPECT_FALSE(back.value().partial);
  EXPECT_EQ(back.value().samples.size(), run.samples.size());
}

TEST(ResultsStore, ARunKilledOutrightKeepsItsTags) {
  TempDir dir;
  Result<ResultsStore> store = OpenIn(dir);
  ASSERT_TRUE(store.ok());
  int64_t inv = store.value().BeginInvocation("run", "x", "2026-01-01T00:00:00Z").value();
  RunResult run = SampleRun("killed", "2026-11-01T00:00:00Z");
  ASSERT_TRUE(store.value().BeginRun(run, inv).ok());
  EXPECT_EQ(store.value().Load(run.id).value().tags, run.tags);
}

TEST(ResultsStore, MigratesTheFirstSchemaKeepingItsRuns) {
  TempDir dir;
  std::string path = dir.path() + "/v1.db";
  std::string fixture = testing::TestDataFile(__FILE__, "schema_v1.sql");
  {
    Result<SqliteDb> db = SqliteDb::Open(path, true);
    ASSERT_TRUE(db.ok());
    std::string sql = ReadFile(fixture);
    ASSERT_FALSE(sql.empty()) << fixture;
    ASSERT_TRUE(db.value().Exec(sql).ok());
    // Schemas 1 and 2 kept each repeat as a bare total MB/s.
    ASSERT_TRUE(db.value().Exec("UPDATE runs SET repeats_json = '[500.5, 536.870912, 540.25]'").ok());
  }
  Result<ResultsStore> store = ResultsStore::Open(path);
  ASSERT_TRUE(store.ok()) << store.status().message();
  Result<RunResult> run = store.value().Load(1);
  ASSERT_TRUE(run.ok()) << run.status().message();
  EXPECT_EQ(run.value().name, "v1 run");
  EXPECT_EQ(run.value().tags.at("box"), "atom");
  EXPECT_DOUBLE_EQ(run.value().read->mb_per_s, 536.870912);
  EXPECT_EQ(run.value().samples.size(), 2u);
  Result<SqliteDb> raw = SqliteDb::Open(path, false);
  EXPECT_EQ(raw.value().QueryInt("PRAGMA user_version").value(), kSchemaVersion);
  EXPECT_EQ(raw.value().QueryInt("SELECT invocation_id FROM runs WHERE id = 1").value(), 1);
  EXPECT_FALSE(run.value().cached.has_value());
  ASSERT_EQ(run.value().repeats.size(), 3u);  // bare totals go to the direction the run did
  EXPECT_DOUBLE_EQ(run.value().repeats[2].read_mb_per_s, 540.25);
  EXPECT_EQ(run.value().repeats[2].write_mb_per_s, 0);
  EXPECT_EQ(store.value().ListInvocations("run").value().size(), 1u);
}

TEST(ResultsStore, KeepsSweepMarksAndInvocationSummaries) {
  TempDir dir;
  Result<ResultsStore> store = OpenIn(dir);
  ASSERT_TRUE(store.ok());
  Result<int64_t> inv = store.value().BeginInvocation("sweep", "nasperf sweep /tmp", "2026-11-30T10:00:00Z");
  ASSERT_TRUE(inv.ok());
  RunResult cached = SampleRun("point 1", "2026-11-30T10:00:01Z");
  cached.cached = true;
  RunResult uncached = SampleRun("point 2", "2026-11-30T10:00:02Z");
  uncached.cached = false;
  ASSERT_TRUE(store.value().Save(cached, inv.value()).ok());
  ASSERT_TRUE(store.value().Save(uncached, inv.value()).ok());
  nlohmann::ordered_json summary = {{"curves", {{{"test", "read"}, {"knee_bytes", 536870912}}}}};
  ASSERT_TRUE(store.value().SetInvocationSummary(inv.value(), summary).ok());

  EXPECT_EQ(store.value().Load(cached.id).value().cached, std::optional<bool>(true));
  EXPECT_EQ(store.value().Load(uncached.id).value().cached, std::optional<bool>(false));
  Result<std::vector<InvocationRecord>> sweeps = store.value().ListInvocations("sweep");
  ASSERT_TRUE(sweeps.ok());
  ASSERT_EQ(sweeps.value().size(), 1u);
  EXPECT_EQ(sweeps.value()[0].id, inv.value());
  EXPECT_EQ(sweeps.value()[0].run_count, 2);
  EXPECT_EQ(sweeps.value()[0].summary["curves"][0]["knee_bytes"], 536870912);
  EXPECT_TRUE(store.value().ListInvocations("quick").value().empty());
  EXPECT_EQ(store.value().ListInvocations("", inv.value()).value().size(), 1u);
}

void ExpectRefusedAndUntouched(const std::string& path, const std::string& expected_words) {
  std::string before = ReadFile(path);
  Result<ResultsStore> store = ResultsStore::Open(path);
  ASSERT_FALSE(store.ok());
  EXPECT_EQ(store.status().kind(), ErrorKind::kBadInput);
  EXPECT_NE(store.status().message().find(expected_words), std::string::npos) << store.status().message();
  EXPECT_EQ(store.status().message().find('\n'), std::string::npos);
  EXPECT_EQ(ReadFile(path), before);
  EXPECT_NE(access((path + "-wal").c_str(), F_OK), 0);
}

TEST(ResultsStore, RefusesForeignAndNewerFilesWithoutTouchingThem) {
  TempDir dir;
  std::string text = dir.path() + "/notes.txt";
  std::ofstream(text) << "shopping list\n";
  ExpectRefusedAndUntouched(text, "not an SQLite database");

  std::string foreign = dir.path() + "/other.db";
  {
    Result<SqliteDb> db = SqliteDb::Open(foreign, true);
    ASSERT_TRUE(db.value().Exec("CREATE TABLE photos (id INTEGER); INSERT INTO photos VALUES (1);").ok());
  }
  ExpectRefusedAndUntouched(foreign, "belongs to another program");

  std::string newer = dir.path() + "/newer.db";
  {
    Result<SqliteDb> db = SqliteDb::Open(newer, true);
    ASSERT_TRUE(db.value().Exec("PRAGMA application_id = " + std::to_string(kApplicationId) +
                                "; PRAGMA user_version = 99; CREATE TABLE runs (id INTEGER);").ok());
  }
  ExpectRefusedAndUntouched(newer, "newer than this nasperf");
}

TEST(ResultsStore, ConcurrentProcessesLoseNothing) {
  TempDir dir;
  std::string path = dir.path() + "/shared.db";
  constexpr int kProcesses = 4, kRunsEach = 25;
  std::vector<pid_t> children;
  for (int p = 0; p < kProcesses; ++p) {
    pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      Result<ResultsStore> store = ResultsStore::Open(path);
      if (!store.ok()) {
        fprintf(stderr, "child %d: %s\n", p, store.status().message().c_str());
        _exit(10);
      }
      Result<int64_t> inv = store.value().BeginInvocation("run", "x", "2026-01-01T00:00:00Z");
      if (!inv.ok()) _exit(11);
      for (int i = 0; i < kRunsEach; ++i) {
        RunResult run = SampleRun("p" + std::to_string(p), "2026-11-01T00:00:00Z");
        if (!store.value().BeginRun(run, inv.value()).ok()) _exit(12);
        if (!store.value().FinishRun(run).ok()) _exit(13);
      }
      _exit(0);
    }
    children.push_back(pid);
  }
  for (pid_t pid : children) {
    int status = 0;
    waitpid(pid, &status, 0);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "child status " << status;
  }
  Result<ResultsStore> store = ResultsStore::Open(path);
  Result<std::vector<RunResult>> all = store.value().List({});
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(all.value().size(), static_cast<size_t>(kProcesses * kRunsEach));
  for (const RunResult& r : all.value()) EXPECT_FALSE(r.partial) << r.id;
}

}  // namespace
}  // namespace nasperf

namespace nasperf {
namespace {

nlohmann::ordered_json SmallTelemetry() {
  nlohmann::ordered_json t = {{"interval_s", 1}, {"samples", nlohmann::ordered_json::array()},
                              {"summary", {"CPU busy: CPU0 98 %, CPU1 4 % (median)"}}, {"sensors", "no sensors"}};
  t["samples"].push_back({{"t_s", 1.0}, {"cpus", {{{"cpu", 0}, {"busy_pct", 98.0}}}}, {"page_cache_bytes", 123}});
  return t;
}

TEST(ResultsStore, SavesWhereARunWasMeasuredAndItsTelemetry) {
  TempDir dir;
  Result<ResultsStore> store = OpenIn(dir);
  ASSERT_TRUE(store.ok()) << store.status().message();
  int64_t inv = store.value().BeginInvocation("run", "nasperf run --on nas:7777", "2026-11-30T10:00:00Z").value();
  RunResult nas = SampleRun("on the nas", "2026-11-30T10:00:00Z");
  nas.measured_on = "nas";
  nas.telemetry = SmallTelemetry();
  ASSERT_TRUE(store.value().Save(nas, inv).ok());
  RunResult client = SampleRun("on the client", "2026-11-30T10:01:00Z");
  ASSERT_TRUE(store.value().Save(client, inv).ok());
  // The two-step path (BeginRun, then FinishRun) the runner uses keeps them too.
  RunResult streamed = SampleRun("streamed", "2026-11-30T10:02:00Z");
  ASSERT_TRUE(store.value().BeginRun(streamed, inv).ok());
  streamed.measured_on = "nas";
  streamed.telemetry = SmallTelemetry();
  ASSERT_TRUE(store.value().FinishRun(streamed).ok());

  Result<RunResult> a = store.value().Load(nas.id);
  ASSERT_TRUE(a.ok()) << a.status().message();
  EXPECT_EQ(a.value().measured_on, "nas");
  EXPECT_EQ(a.value().telemetry, SmallTelemetry());
  EXPECT_EQ(a.value().telemetry.begin().key(), "interval_s");  // key order kept
  Result<RunResult> b = store.value().Load(client.id);
  EXPECT_EQ(b.value().measured_on, "client");
  EXPECT_TRUE(b.value().telemetry.is_null());
  Result<RunResult> c = store.value().Load(streamed.id);
  EXPECT_EQ(c.value().measured_on, "nas");
  EXPECT_EQ(c.value().telemetry, SmallTelemetry());
}

TEST(ResultsStore, MigratesSchemaV3AddingMeasuredOnAndTelemetry) {
  TempDir dir;
  std::string path = dir.path() + "/v3.db";
  std::string fixture = testing::TestDataFile(__FILE__, "schema_v3.sql");
  {
    Result<SqliteDb> db = SqliteDb::Open(path, true);
    ASSERT_TRUE(db.ok());
    std::string sql = ReadFile(fixture);
    ASSERT_FALSE(sql.empty()) << fixture;
    ASSERT_TRUE(db.value().Exec(sql).ok());
    ASSERT_EQ(db.value().QueryInt("PRAGMA user_version").value(), 3);
  }
  Result<ResultsStore> store = ResultsStore::Open(path);
  ASSERT_TRUE(store.ok()) << store.status().message();
  Result<RunResult> v1 = store.value().Load(1);
  ASSERT_TRUE(v1.ok()) << v1.status().message();
  EXPECT_EQ(v1.value().name, "v1 run");
  EXPECT_EQ(v1.value().measured_on, "client");
  EXPECT_TRUE(v1.value().telemetry.is_null());
  Result<RunResult> point = store.value().Load(2);
  ASSERT_TRUE(point.ok()) << point.status().message();
  EXPECT_EQ(point.value().name, "v3 sweep point");
  EXPECT_EQ(point.value().cached, true);
  EXPECT_EQ(point.value().invocation_id, 2);
  EXPECT_EQ(point.value().tags.at("nas"), "ss4200");
  ASSERT_EQ(point.value().repeats.size(), 1u);
  EXPECT_DOUBLE_EQ(point.value().repeats[0].read_mb_per_s, 110.5);
  EXPECT_EQ(point.value().measured_on, "client");
  EXPECT_TRUE(point.value().telemetry.is_null());
  Result<std::vector<InvocationRecord>> sweeps = store.value().ListInvocations("sweep");
  ASSERT_EQ(sweeps.value().size(), 1u);
  EXPECT_EQ(sweeps.value()[0].summary["cache"]["knee_bytes"], 2147483648);

  Result<SqliteDb> raw = SqliteDb::Open(path, false);
  EXPECT_EQ(raw.value().QueryInt("PRAGMA user_version").value(), kSchemaVersion);
  EXPECT_EQ(raw.value().QueryInt("SELECT count(*) FROM runs WHERE measured_on = 'client' AND telemetry_json IS NULL")
                .value(),
            2);
  // The migrated database takes new runs with telemetry.
  int64_t inv = store.value().BeginInvocation("run", "nasperf run --on nas:7777", "2026-11-30T11:00:00Z").value();
  RunResult nas = SampleRun("after migration", "2026-11-30T11:00:00Z");
  nas.measured_on = "nas";
  nas.telemetry = SmallTelemetry();
  ASSERT_TRUE(store.value().Save(nas, inv).ok());
  EXPECT_EQ(store.value().Load(nas.id).value().telemetry, SmallTelemetry());
}

ProtocolFacts NfsFacts() {
  ProtocolFacts f;
  f.protocol = "NFS";
  f.version = "3";
  f.server = "198.18.0.2";
  f.share = "/bench";
  // Not alphabetical on purpose: the order is the one to show.
  f.options = {{"transport", "TCP"}, {"max read", "1 MiB"}, {"max write", "1 MiB"}, {"client cache", "none (libnfs)"}};
  return f;
}

void ExpectSameFacts(const std::optional<ProtocolFacts>& got, const ProtocolFacts& want) {
  ASSERT_TRUE(got.has_value());
  EXPECT_EQ(got->protocol, want.protocol);
  EXPECT_EQ(got->version, want.version);
  EXPECT_EQ(got->server, want.server);
  EXPECT_EQ(got->share, want.share);
  EXPECT_EQ(got->options, want.options);
  EXPECT_EQ(got->label(), want.label());
}

TEST(ResultsStore, KeepsProtocolFactsInOrderAndNoneForLocalRuns) {
  TempDir dir;
  Result<ResultsStore> store = OpenIn(dir);
  ASSERT_TRUE(store.ok()) << store.status().message();
  int64_t inv =
      store.value().BeginInvocation("run", "nasperf run nfs://198.18.0.2/bench", "2026-12-01T10:00:00Z").value();
  RunResult nfs = SampleRun("over nfs", "2026-12-01T10:00:00Z");
  nfs.target = "nfs://198.18.0.2/bench";
  nfs.protocol = NfsFacts();
  ASSERT_TRUE(store.value().Save(nfs, inv).ok());
  RunResult local = SampleRun("local", "2026-12-01T10:01:00Z");
  ASSERT_TRUE(store.value().Save(local, inv).ok());
  // The runner's path: BeginRun with the facts Check found, FinishRun with the same.
  RunResult streamed = SampleRun("streamed", "2026-12-01T10:02:00Z");
  streamed.protocol = NfsFacts();
  streamed.protocol->options.emplace_back("note", "");
  ASSERT_TRUE(store.value().BeginRun(streamed, inv).ok());
  ASSERT_TRUE(store.value().FinishRun(streamed).ok());

  ExpectSameFacts(store.value().Load(nfs.id).value().protocol, NfsFacts());
  EXPECT_FALSE(store.value().Load(local.id).value().protocol.has_value());
  ExpectSameFacts(store.value().Load(streamed.id).value().protocol, *streamed.protocol);
  // List (without details) reads them too: compare and list use it.
  RunFilter filter;
  filter.ids = {nfs.id};
  Result<std::vector<RunResult>> listed = store.value().List(filter);
  ASSERT_TRUE(listed.ok());
  ASSERT_EQ(listed.value().size(), 1u);
  ExpectSameFacts(listed.value()[0].protocol, NfsFacts());

  Result<SqliteDb> raw = SqliteDb::Open(store.value().path(), false);
  ASSERT_TRUE(raw.ok());
  EXPECT_EQ(raw.value().QueryInt("SELECT count(*) FROM runs WHERE protocol_json IS NULL").value(), 1);
  // A damaged column labels nothing, but the run still loads.
  ASSERT_TRUE(raw.value().Exec("UPDATE runs SET protocol_json = '{\"protocol\": 5}' WHERE id = " +
                               std::to_string(nfs.id)).ok());
  Result<RunResult> damaged = store.value().Load(nfs.id);
  ASSERT_TRUE(damaged.ok()) << damaged.status().message();
  EXPECT_FALSE(damaged.value().protocol.has_value());
}

TEST(ResultsStore, MigratesSchemaV4AddingProtocolFacts) {
  TempDir dir;
  std::string path = dir.path() + "/v4.db";
  std::string fixture = testing::TestDataFile(__FILE__, "schema_v4.sql");
  {
    Result<SqliteDb> db = SqliteDb::Open(path, true);
    ASSERT_TRUE(db.ok());
    std::string sql = ReadFile(fixture);
    ASSERT_FALSE(sql.empty()) << fixture;
    ASSERT_TRUE(db.value().Exec(sql).ok());
    ASSERT_EQ(db.value().QueryInt("PRAGMA user_version").value(), 4);
  }
  Result<ResultsStore> store = ResultsStore::Open(path);
  ASSERT_TRUE(store.ok()) << store.status().message();
  Result<std::vector<RunResult>> all = store.value().List({});
  ASSERT_TRUE(all.ok()) << all.status().message();
  ASSERT_EQ(all.value().size(), 3u);
  for (const RunResult& r : all.value()) EXPECT_FALSE(r.protocol.has_value()) << r.name;
  Result<RunResult> agent = store.value().Load(3);
  ASSERT_TRUE(agent.ok()) << agent.status().message();
  EXPECT_EQ(agent.value().name, "v4 agent run");
  EXPECT_EQ(agent.value().measured_on, "nas");
  EXPECT_EQ(agent.value().telemetry["summary"][0], "CPU busy: CPU0 98 %, CPU1 4 % (median)");
  EXPECT_EQ(agent.value().tags.at("nas"), "ss4200");
  ASSERT_TRUE(agent.value().read.has_value());
  EXPECT_DOUBLE_EQ(agent.value().read->mb_per_s, 111.848106666666666);
  EXPECT_EQ(store.value().Load(2).value().cached, true);

  Result<SqliteDb> raw = SqliteDb::Open(path, false);
  EXPECT_EQ(raw.value().QueryInt("PRAGMA user_version").value(), kSchemaVersion);
  EXPECT_EQ(raw.value().QueryInt("SELECT count(*) FROM runs WHERE protocol_json IS NULL").value(), 3);
  // The migrated database takes runs with facts, and new ids follow the old ones.
  int64_t inv =
      store.value().BeginInvocation("run", "nasperf run nfs://198.18.0.2/bench", "2026-12-01T11:00:00Z").value();
  RunResult nfs = SampleRun("after migration", "2026-12-01T11:00:00Z");
  nfs.protocol = NfsFacts();
  ASSERT_TRUE(store.value().Save(nfs, inv).ok());
  EXPECT_EQ(nfs.id, 4);
  ExpectSameFacts(store.value().Load(nfs.id).value().protocol, NfsFacts());
}

}  // namespace
}  // namespace nasperf

namespace nasperf {
namespace {

int64_t Count(const std::string& db_path, const std::string& table) {
  Result<SqliteDb> raw = SqliteDb::Open(db_path, false);
  if (!raw.ok()) return -1;
  Result<int64_t> n = raw.value().QueryInt("SELECT count(*) FROM " + table);
  return n.ok() ? n.value() : -1;
}

TEST(ResultsStore, RemoveRefusesARunItsLiveProcessIsMeasuring) {
  TempDir dir;
  Result<ResultsStore> store = OpenIn(dir);
  ASSERT_TRUE(store.ok());
  int64_t inv = store.value().BeginInvocation("run", "x", "2026-01-01T00:00:00Z").value();
  RunResult run = SampleRun("live", "2026-11-01T00:00:00Z");
  ASSERT_TRUE(store.value().BeginRun(run, inv).ok());  // this process is alive: the run is in progress
  Status refused = store.value().Remove(run.id);
  EXPECT_EQ(refused.kind(), ErrorKind::kBadInput);
  EXPECT_NE(refused.message().find("still being measured"), std::string::npos) << refused.message();
  EXPECT_NE(refused.message().find("pid " + std::to_string(getpid())), std::string::npos) << refused.message();
  EXPECT_EQ(refused.message().find('\n'), std::string::npos);
  EXPECT_EQ(store.value().CheckRemovable(run.id).kind(), ErrorKind::kBadInput);
  ASSERT_TRUE(store.value().Load(run.id).ok());
  // Finished, it is removable.
  ASSERT_TRUE(store.value().FinishRun(run).ok());
  EXPECT_TRUE(store.value().Remove(run.id).ok());
}

TEST(ResultsStore, RemoveTakesARunWhoseProcessWasKilled) {
  TempDir dir;
  const std::string path = dir.path() + "/sub/results.db";
  ASSERT_TRUE(OpenIn(dir).ok());
  pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    Result<ResultsStore> store = ResultsStore::Open(path);
    if (!store.ok()) _exit(10);
    int64_t inv = store.value().BeginInvocation("run", "x", "2026-01-01T00:00:00Z").value();
    RunResult run = SampleRun("killed", "2026-11-01T00:00:00Z");
    if (!store.value().BeginRun(run, inv).ok()) _exit(11);
    _exit(0);  // dies without FinishRun, as under kill -9
  }
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
  Result<ResultsStore> store = ResultsStore::Open(path);
  ASSERT_TRUE(store.ok());
  Result<std::vector<RunResult>> runs = store.value().List({});
  ASSERT_EQ(runs.value().size(), 1u);
  EXPECT_TRUE(runs.value()[0].partial);
  Status removed = store.value().Remove(runs.value()[0].id);
  EXPECT_TRUE(removed.ok()) << removed.message();
  EXPECT_EQ(Count(path, "runs"), 0);
}

TEST(ResultsStore, RemoveTellsAReusedPidAndAnotherHostApart) {
  TempDir dir;
  Result<ResultsStore> store = OpenIn(dir);
  ASSERT_TRUE(store.ok());
  int64_t inv = store.value().BeginInvocation("run", "x", "2026-01-01T00:00:00Z").value();
  RunResult reused = SampleRun("pid reused", "2026-11-01T00:00:00Z");
  RunResult remote = SampleRun("elsewhere", "2026-11-01T00:00:00Z");
  ASSERT_TRUE(store.value().BeginRun(reused, inv).ok());
  ASSERT_TRUE(store.value().BeginRun(remote, inv).ok());
  Result<SqliteDb> raw = SqliteDb::Open(store.value().path(), false);
  ASSERT_TRUE(raw.ok());
  // A live PID (ours) that started at another time is another process: the run's is gone.
  ASSERT_TRUE(raw.value().Exec("UPDATE runs SET owner_start = 'another-boot/1' WHERE id = " +
                               std::to_string(reused.id)).ok());
  ASSERT_TRUE(raw.value().Exec("UPDATE runs SET owner_host = 'nas-client-7' WHERE id = " +
                               std::to_string(remote.id)).ok());
  EXPECT_TRUE(store.value().Remove(reused.id).ok());
  Status refused = store.value().Remove(remote.id);
  EXPECT_EQ(refused.kind(), ErrorKind::kBadInput);
  EXPECT_NE(refused.message().find("nas-client-7"), std::string::npos) << refused.message();
  EXPECT_NE(refused.message().find("--force"), std::string::npos) << refused.message();
  EXPECT_TRUE(store.value().Remove(remote.id, /*force=*/true).ok());
}

TEST(ResultsStore, FinishOfARemovedRunSaysSoInsteadOfAForeignKeyError) {
  TempDir dir;
  Result<ResultsStore> store = OpenIn(dir);
  ASSERT_TRUE(store.ok());
  int64_t inv = store.value().BeginInvocation("run", "x", "2026-01-01T00:00:00Z").value();
  RunResult run = SampleRun("removed", "2026-11-01T00:00:00Z");
  ASSERT_TRUE(store.value().BeginRun(run, inv).ok());
  ASSERT_TRUE(store.value().Remove(run.id, /*force=*/true).ok());
  Status finished = store.value().FinishRun(run);
  ASSERT_FALSE(finished.ok());
  EXPECT_NE(finished.message().find("was removed while it was measured"), std::string::npos) << finished.message();
  EXPECT_EQ(finished.message().find("FOREIGN KEY"), std::string::npos) << finished.message();
}

TEST(ResultsStore, SaveInvocationIsAllOrNothingEvenWhenAnExceptionEscapes) {
  TempDir dir;
  Result<ResultsStore> store = OpenIn(dir);
  ASSERT_TRUE(store.ok());
  std::vector<RunResult> runs = {SampleRun("good", "2026-11-01T00:00:00Z"), SampleRun("bad", "2026-11-01T00:00:00Z")};
  runs[1].notes = {"\xff\xfe not UTF-8"};  // the JSON dump of its notes throws
  EXPECT_ANY_THROW(store.value().SaveInvocation("import", "nasperf results import x", "2026-11-01T00:00:00Z", runs));
  EXPECT_EQ(Count(store.value().path(), "invocations"), 0);
  EXPECT_EQ(Count(store.value().path(), "runs"), 0);
  EXPECT_EQ(runs[0].id, 0);
  // The connection is usable afterwards, and a good set is stored whole.
  runs.pop_back();
  ASSERT_TRUE(store.value().SaveInvocation("import", "x", "2026-11-01T00:00:00Z", runs).ok());
  EXPECT_GT(runs[0].id, 0);
  EXPECT_EQ(Count(store.value().path(), "invocations"), 1);
}

TEST(SqliteFailure, SaysWhatSqliteSaidAndNamesTheFile) {
  const std::string path = "/srv/results.db";
  struct Case {
    int code;
    const char* words;
  } cases[] = {{SQLITE_READONLY, "read-only"},           {SQLITE_READONLY_DIRECTORY, "read-only"},
               {SQLITE_FULL, "disk is full"},             {SQLITE_CORRUPT, "damaged"},
               {SQLITE_NOTADB, "not an SQLite database"}, {SQLITE_CANTOPEN, "cannot be opened"},
               {SQLITE_IOERR_SHORT_READ, "I/O error"},     {SQLITE_BUSY, "locked by another process"}};
  std::set<std::string> messages;
  for (const Case& c : cases) {
    Status s = SqliteFailure(c.code, path, sqlite3_errstr(c.code));
    EXPECT_NE(s.message().find(c.words), std::string::npos) << c.code << ": " << s.message();
    EXPECT_NE(s.message().find(path), std::string::npos) << s.message();
    EXPECT_NE(s.message().find(sqlite3_errstr(c.code)), std::string::npos) << s.message();
    EXPECT_EQ(s.message().find('\n'), std::string::npos);
    if (c.code != SQLITE_NOTADB) {
      EXPECT_EQ(s.message().find("not an SQLite database"), std::string::npos) << s.message();
      EXPECT_EQ(s.err(), c.code);
    }
    messages.insert(s.message());
  }
  EXPECT_EQ(messages.size(), std::size(cases) - 1);  // the two read-only codes may read alike
  EXPECT_EQ(SqliteFailure(SQLITE_NOTADB, path, "file is not a database").kind(), ErrorKind::kBadInput);
  EXPECT_EQ(SqliteFailure(SQLITE_FULL, path, "database or disk is full").kind(), ErrorKind::kIo);
}

// A database that lost its tail (a copy cut short, a full disk during a copy) is damaged,
// not foreign: a user told "not an SQLite database" deletes it.
TEST(ResultsStore, ATruncatedDatabaseIsCalledTruncatedNotForeign) {
  TempDir dir;
  const std::string path = dir.path() + "/sub/results.db";
  {
    Result<ResultsStore> store = OpenIn(dir);
    ASSERT_TRUE(store.ok());
    int64_t inv = store.value().BeginInvocation("run", "x", "2026-01-01T00:00:00Z").value();
    for (int i = 0; i < 40; ++i) {
      RunResult run = SampleRun("r" + std::to_string(i), "2026-11-01T00:00:00Z");
      ASSERT_TRUE(store.value().Save(run, inv).ok());
    }
  }  // the last connection checkpoints the WAL into the file
  ASSERT_NE(access((path + "-wal").c_str(), F_OK), 0);
  struct stat st {};
  ASSERT_EQ(stat(path.c_str(), &st), 0);
  ASSERT_GT(st.st_size, 16 * 4096);
  ASSERT_EQ(truncate(path.c_str(), st.st_size / 3), 0);
  for (bool read_only : {true, false}) {
    SCOPED_TRACE(read_only ? "read-only" : "read-write");
    Result<ResultsStore> store = read_only ? ResultsStore::OpenReadOnly(path) : ResultsStore::Open(path);
    Status s = store.ok() ? store.value().List({}, true).status() : store.status();
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.message().find("not an SQLite database"), std::string::npos) << s.message();
    EXPECT_NE(s.message().find("damaged"), std::string::npos) << s.message();
    EXPECT_NE(s.message().find("truncated"), std::string::npos) << s.message();
    EXPECT_NE(s.message().find(path), std::string::npos) << s.message();
  }
}

// Where the database could be written, a read-only open still refuses every write and,
// closing, leaves no -wal or -shm file beside it (a list must not litter the directory).
TEST(ResultsStore, OpenReadOnlyWritesNothingAndLeavesNoFilesBehind) {
  TempDir dir;
  const std::string path = dir.path() + "/sub/results.db";
  int64_t id = 0;
  {
    auto [store, run] = OpenAndSave(dir, "kept", "2026-11-01T00:00:00Z");
    ASSERT_TRUE(store.ok());
    id = run.id;
  }
  const std::string before = ReadFile(path);
  {
    Result<ResultsStore> store = ResultsStore::OpenReadOnly(path);
    ASSERT_TRUE(store.ok()) << store.status().message();
    ASSERT_EQ(store.value().List({}, true).value().size(), 1u);
    Status write = store.value().SetTag(id, "k", "v");
    EXPECT_FALSE(write.ok());
    EXPECT_NE(write.message().find("read-only"), std::string::npos) << write.message();
  }
  EXPECT_EQ(ReadFile(path), before);
  EXPECT_NE(access((path + "-wal").c_str(), F_OK), 0);
  EXPECT_NE(access((path + "-shm").c_str(), F_OK), 0);
}

// Read-only commands open the database read-only: a file and directory nobody may write
// (so no -shm or -wal file can be made) are still read. Root ignores permission bits,
// so a root test drops to user nobody in a child first.
TEST(ResultsStore, OpenReadOnlyReadsAFileInADirectoryNobodyMayWrite) {
  TempDir dir;
  const std::string sub = dir.path() + "/sub", path = sub + "/results.db";
  {
    auto [store, run] = OpenAndSave(dir, "kept", "2026-11-01T00:00:00Z");
    ASSERT_TRUE(store.ok());
  }
  ASSERT_EQ(chmod(dir.path().c_str(), 0755), 0);
  ASSERT_EQ(chmod(sub.c_str(), 0555), 0);
  ASSERT_EQ(chmod(path.c_str(), 0444), 0);
  pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    if (geteuid() == 0 && (setgid(65534) != 0 || setuid(65534) != 0)) _exit(20);
    if (access(sub.c_str(), W_OK) == 0) _exit(21);  // the test would prove nothing
    Result<ResultsStore> store = ResultsStore::OpenReadOnly(path);
    if (!store.ok()) {
      fprintf(stderr, "OpenReadOnly: %s\n", store.status().message().c_str());
      _exit(22);
    }
    Result<std::vector<RunResult>> runs = store.value().List({}, true);
    if (!runs.ok() || runs.value().size() != 1 || runs.value()[0].name != "kept") _exit(23);
    // A write says read-only, never "not an SQLite database".
    Result<ResultsStore> writer = ResultsStore::Open(path);
    Status s = writer.ok() ? writer.value().SetTag(runs.value()[0].id, "k", "v") : writer.status();
    if (s.ok() || s.message().find("read-only") == std::string::npos) {
      fprintf(stderr, "write: %s\n", s.message().c_str());
      _exit(24);
    }
    _exit(0);
  }
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  chmod(sub.c_str(), 0755);
  EXPECT_TRUE(WIFEXITED(status)) << status;
  EXPECT_EQ(WEXITSTATUS(status), 0) << "20 setuid, 21 writable anyway, 22 open, 23 list, 24 write message";
  EXPECT_NE(access((path + "-wal").c_str(), F_OK), 0) << "a read-only open made a -wal file";
}

}  // namespace
}  // namespace nasperf
