// Schema versions. Never edit a released migration: add the next one.
#include "store/schema.h"

#include <chrono>
#include <string>
#include <thread>

namespace nasperf {
namespace {

// Version 1: runs with their job, per-direction results (with the latency histogram),
// per-second samples and tags.
constexpr const char* kCreateV1 = R"sql(
CREATE TABLE runs (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  started_at TEXT NOT NULL,
  nasperf_version TEXT NOT NULL,
  command_line TEXT NOT NULL,
  source_tool TEXT NOT NULL,
  source_file TEXT NOT NULL,
  name TEXT NOT NULL,
  test TEXT NOT NULL,
  target TEXT NOT NULL,
  engine TEXT NOT NULL,
  partial INTEGER NOT NULL,
  error TEXT NOT NULL,
  job_json TEXT NOT NULL,
  cpu_user_pct REAL NOT NULL,
  cpu_sys_pct REAL NOT NULL,
  notes_json TEXT NOT NULL,
  repeats_json TEXT NOT NULL,
  inventory_json TEXT NOT NULL
);
CREATE TABLE directions (
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  dir TEXT NOT NULL CHECK (dir IN ('read', 'write')),
  bytes INTEGER NOT NULL, ios INTEGER NOT NULL, seconds REAL NOT NULL,
  mb_per_s REAL NOT NULL, iops REAL NOT NULL, errors INTEGER NOT NULL,
  lat_mean_us REAL NOT NULL, lat_p50_us REAL NOT NULL, lat_p90_us REAL NOT NULL,
  lat_p99_us REAL NOT NULL, lat_p999_us REAL NOT NULL, lat_max_us REAL NOT NULL,
  histogram BLOB,
  PRIMARY KEY (run_id, dir)
);
CREATE TABLE samples (
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  t_s REAL NOT NULL, read_mb_per_s REAL NOT NULL, write_mb_per_s REAL NOT NULL
);
CREATE INDEX samples_by_run ON samples(run_id);
CREATE TABLE tags (
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  key TEXT NOT NULL, value TEXT NOT NULL,
  PRIMARY KEY (run_id, key)
);
CREATE INDEX runs_by_start ON runs(started_at);
)sql";

// Version 2: invocations group the runs one command made (quick's eight tests, a
// sweep's points), so a suite is listed and compared as one item.
constexpr const char* kMigrateV1ToV2 = R"sql(
CREATE TABLE invocations (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  command TEXT NOT NULL,
  started_at TEXT NOT NULL,
  command_line TEXT NOT NULL
);
ALTER TABLE runs ADD COLUMN invocation_id INTEGER REFERENCES invocations(id);
INSERT INTO invocations (id, command, started_at, command_line)
  SELECT id, CASE WHEN source_tool = 'nasperf' THEN 'run' ELSE 'import' END, started_at, command_line FROM runs;
UPDATE runs SET invocation_id = id;
CREATE INDEX runs_by_invocation ON runs(invocation_id);
)sql";

// Version 3: sweeps. A run may be a sweep point marked cached or not (NULL: not a
// sweep point), and an invocation keeps its suite's summary (the sweep's cache
// analysis) as JSON. repeats_json now holds objects (RepeatFigures), not bare totals.
constexpr const char* kMigrateV2ToV3 = R"sql(
ALTER TABLE runs ADD COLUMN cached INTEGER;
ALTER TABLE invocations ADD COLUMN summary_json TEXT NOT NULL DEFAULT '{}';
)sql";

// Version 4: where a run was measured ('client', or 'nas' when an agent ran it on its own
// disks) and the NAS telemetry an agent sampled meanwhile (NULL: no agent was asked).
constexpr const char* kMigrateV3ToV4 = R"sql(
ALTER TABLE runs ADD COLUMN measured_on TEXT NOT NULL DEFAULT 'client';
ALTER TABLE runs ADD COLUMN telemetry_json TEXT;
)sql";

// Version 5: how a protocol target (smb://, nfs://, iscsi://) was reached — protocol,
// negotiated version, server, share and mount-like options — as ProtocolToJson's object
// (model/run_json.h). NULL for local targets, agents' runs and imports of other tools.
constexpr const char* kMigrateV4ToV5 = R"sql(
ALTER TABLE runs ADD COLUMN protocol_json TEXT;
)sql";

// Version 6: the process measuring a run (host, PID, start mark; see store/run_owner.h),
// from BeginRun until FinishRun, so that `results rm` can tell a run in progress from one
// whose process was killed. NULL for finished runs, imports and older databases' runs.
constexpr const char* kMigrateV5ToV6 = R"sql(
ALTER TABLE runs ADD COLUMN owner_host TEXT;
ALTER TABLE runs ADD COLUMN owner_pid INTEGER;
ALTER TABLE runs ADD COLUMN owner_start TEXT;
)sql";

// Version 7: repeats_json entries are written in the JSON document's form (RepeatToJson in
// model/run_json.h) instead of flat objects. No table changes: the reader still reads the
// older forms. The version marks the change so that an older nasperf refuses the file
// rather than reading the new entries as zeros.
constexpr const char* kMigrateV6ToV7 = "SELECT 1;";

// Version 8: diagnoses (`nasperf diagnose`, issue 17). A diagnosis is one stored item, dN;
// its steps are ordinary runs tagged diagnosis=dN. The id is reserved when the diagnosis
// begins (so the steps can be tagged with it) and the document — DiagnosisToJson's
// object (model/diagnosis_json.h) — is stored when it ends: NULL until then, so a
// diagnosis killed outright is still listed, as partial.
constexpr const char* kMigrateV7ToV8 = R"sql(
CREATE TABLE diagnoses (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  started_at TEXT NOT NULL,
  command_line TEXT NOT NULL,
  target TEXT NOT NULL,
  document TEXT,
  partial INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX diagnoses_by_start ON diagnoses(started_at);
)sql";

// Version 9: application workloads (`nasperf app ...`, issue 18): what one measured beyond
// bytes — elapsed, files/s, per-operation latency, streams, the dataset — as AppToJson's
// object (model/app_json.h). NULL for every other run.
constexpr const char* kMigrateV8ToV9 = R"sql(
ALTER TABLE runs ADD COLUMN app_json TEXT;
)sql";

// Version 10: the per-size figures of a block-size mix (--bs 4k/50:64k/50, issue 19) as
// PerSizeToJson's array (model/run_json.h). NULL for a run of one block size.
constexpr const char* kMigrateV9ToV10 = R"sql(
ALTER TABLE runs ADD COLUMN per_size_json TEXT;
)sql";

}  // namespace

const char* MigrationSql(int from) {
  switch (from) {
    case 0: return kCreateV1;
    case 1: return kMigrateV1ToV2;
    case 2: return kMigrateV2ToV3;
    case 3: return kMigrateV3ToV4;
    case 4: return kMigrateV4ToV5;
    case 5: return kMigrateV5ToV6;
    case 6: return kMigrateV6ToV7;
    case 7: return kMigrateV7ToV8;
    case 8: return kMigrateV8ToV9;
    case 9: return kMigrateV9ToV10;
    default: return nullptr;
  }
}

namespace {

// The schema version of `db`, after checking, without writing, that it is empty or
// nasperf's and not newer than this nasperf.
Result<int64_t> CheckSchemaOnce(SqliteDb& db) {
  // Read-only checks first: a foreign or newer file must stay byte-for-byte as it was.
  // One read transaction makes the three reads one snapshot: another nasperf creating
  // the schema meanwhile must not be seen half-done (tables, but no application id yet).
  if (Status s = db.Exec("BEGIN"); !s.ok()) return s;
  Result<int64_t> app = db.QueryInt("PRAGMA application_id");
  Result<int64_t> version = db.QueryInt("PRAGMA user_version");
  Result<int64_t> tables = db.QueryInt("SELECT count(*) FROM sqlite_master");
  db.Exec("COMMIT");
  // Each says what SQLite said (read-only, damaged, not a database ...): a good database
  // that cannot be read here must not be called foreign.
  for (const Status* s : {&app.status(), &version.status(), &tables.status()})
    if (!s->ok()) return *s;
  if (tables.value() > 0 && app.value() != kApplicationId)
    return Status::BadInput("results database " + db.path() + " belongs to another program; give another --db");
  if (version.value() > kSchemaVersion)
    return Status::BadInput("results database " + db.path() + " has schema version " + std::to_string(version.value()) +
                            ", newer than this nasperf's " + std::to_string(kSchemaVersion) + "; upgrade nasperf");
  return version.value();
}

Status PrepareSchemaOnce(SqliteDb& db) {
  Result<int64_t> version = CheckSchemaOnce(db);
  if (!version.ok()) return version.status();

  // WAL lets readers and one writer proceed together (the busy timeout is set at open).
  if (Status s = db.Exec("PRAGMA journal_mode = WAL"); !s.ok()) return s;
  if (Status s = db.Exec("PRAGMA foreign_keys = ON"); !s.ok()) return s;
  if (version.value() == kSchemaVersion) return Status::Ok();

  return InTransaction(db, [&]() -> Status {
    // Re-read inside the write lock: another process may have migrated meanwhile.
    Result<int64_t> current = db.QueryInt("PRAGMA user_version");
    if (!current.ok()) return current.status();
    for (int64_t v = current.value(); v < kSchemaVersion; ++v)
      if (Status s = db.Exec(MigrationSql(static_cast<int>(v))); !s.ok()) return s;
    if (Status s = db.Exec("PRAGMA application_id = " + std::to_string(kApplicationId)); !s.ok()) return s;
    return db.Exec("PRAGMA user_version = " + std::to_string(kSchemaVersion));
  });
}

// Several nasperf processes opening a new database at once contend for locks that
// SQLite's busy handler does not always wait for; every step is idempotent, so retry.
const Status& StatusOf(const Status& s) { return s; }
template <typename T>
const Status& StatusOf(const Result<T>& r) { return r.status(); }

template <typename Step>
auto RetryWhileBusy(Step&& step) {
  for (int attempt = 0;; ++attempt) {
    auto result = step();
    if (!IsBusy(StatusOf(result)) || attempt == 200) return result;
    std::this_thread::sleep_for(std::chrono::milliseconds(10 + 10 * (attempt % 5)));
  }
}

}  // namespace

Status PrepareSchema(SqliteDb& db) {
  return RetryWhileBusy([&] { return PrepareSchemaOnce(db); });
}

Result<int64_t> CheckSchema(SqliteDb& db) {
  return RetryWhileBusy([&] { return CheckSchemaOnce(db); });
}

}  // namespace nasperf
