// ResultsStore: reading and writing runs.
#include "store/results_store.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <memory>

#include "nasperf/version.h"
#include "model/run_json.h"
#include "stats/histogram.h"
#include "store/run_owner.h"
#include "store/schema.h"

namespace nasperf {
namespace {

constexpr const char* kUnfinished = "nasperf stopped before this run ended (killed or crashed)";

constexpr const char* kRunColumns =
    "id, started_at, command_line, source_tool, source_file, name, test, target, engine, partial, error, "
    "job_json, cpu_user_pct, cpu_sys_pct, notes_json, repeats_json, inventory_json, invocation_id, cached, "
    "measured_on, telemetry_json, protocol_json";

// Each repeat as the JSON document writes it (RepeatToJson), both directions always: the
// store keeps every figure whatever the run's directions.
nlohmann::json RepeatsToStore(const std::vector<RepeatFigures>& repeats) {
  nlohmann::json out = nlohmann::json::array();
  for (const RepeatFigures& r : repeats) out.push_back(nlohmann::json(RepeatToJson(r, true, true)));
  return out;
}

// Schemas 3 to 6 kept each repeat as one flat object ("read_mb_per_s", "write_iops", ...).
RepeatFigures FlatRepeatFromStore(const nlohmann::json& e) {
  auto number = [&](const char* key) {
    auto it = e.find(key);
    return it != e.end() && it->is_number() ? it->get<double>() : 0.0;
  };
  RepeatFigures r;
  r.read_mb_per_s = number("read_mb_per_s");
  r.write_mb_per_s = number("write_mb_per_s");
  r.read_iops = number("read_iops");
  r.write_iops = number("write_iops");
  r.read_lat_mean_us = number("read_lat_mean_us");
  r.write_lat_mean_us = number("write_lat_mean_us");
  r.read_lat_p99_us = number("read_lat_p99_us");
  r.write_lat_p99_us = number("write_lat_p99_us");
  r.seconds = number("seconds");
  if (auto it = e.find("seed"); it != e.end() && it->is_number_unsigned()) r.seed = it->get<uint64_t>();
  return r;
}

// Reads every form repeats_json has had: RepeatToJson's (schema 7), the flat objects of
// schemas 3 to 6, and schemas 1 and 2's bare total MB/s, which goes to the direction the
// run did. A damaged entry is left out: the run's own figures are still good.
std::vector<RepeatFigures> RepeatsFromStore(const nlohmann::json& stored, const RunResult& run) {
  std::vector<RepeatFigures> out;
  if (!stored.is_array()) return out;
  for (const nlohmann::json& e : stored) {
    if (e.is_number()) {
      RepeatFigures r;
      (DidIo(run.write) && !DidIo(run.read) ? r.write_mb_per_s : r.read_mb_per_s) = e.get<double>();
      out.push_back(r);
    } else if (e.is_object() && (e.contains("read_mb_per_s") || e.contains("write_mb_per_s"))) {
      out.push_back(FlatRepeatFromStore(e));
    } else if (Result<RepeatFigures> r = RepeatFromJson(e); r.ok()) {
      out.push_back(r.value());
    }
  }
  return out;
}

// The job as JobToJson writes it, with the run's write data facts under "data": they
// describe what the job wrote, and ride along without a schema change.
nlohmann::ordered_json StoredJob(const RunResult& run) {
  nlohmann::ordered_json job = JobToJson(run.job, run.engine, run.qd_run);
  if (run.data) job["data"] = DataToJson(*run.data);
  return job;
}

Status BindRunColumns(SqliteStatement& s, const RunResult& run) {
  nlohmann::json notes = run.notes, repeats = RepeatsToStore(run.repeats);
  s.Bind(1, run.started_at)
      .Bind(2, std::string(NASPERF_VERSION))
      .Bind(3, run.command_line)
      .Bind(4, run.source_tool)
      .Bind(5, run.source_file)
      .Bind(6, run.name)
      .Bind(7, run.test)
      .Bind(8, run.target)
      .Bind(9, run.engine)
      .Bind(10, static_cast<int64_t>(run.partial))
      .Bind(11, run.error)
      .Bind(12, StoredJob(run).dump())
      .Bind(13, run.cpu.user_pct)
      .Bind(14, run.cpu.sys_pct)
      .Bind(15, notes.dump())
      .Bind(16, repeats.dump())
      .Bind(17, run.inventory.dump());
  if (run.cached) s.Bind(18, static_cast<int64_t>(*run.cached));
  else s.BindNull(18);
  s.Bind(19, run.measured_on.empty() ? std::string("client") : run.measured_on);
  if (run.telemetry.is_null()) s.BindNull(20);
  else s.Bind(20, run.telemetry.dump());
  if (!run.protocol) s.BindNull(21);
  else s.Bind(21, ProtocolToJson(run.protocol).dump());
  return Status::Ok();
}

}  // namespace

std::string ResultsStore::DefaultPath() {
  if (const char* env = std::getenv("NASPERF_DB"); env && *env) return env;
  if (const char* xdg = std::getenv("XDG_DATA_HOME"); xdg && *xdg) return std::string(xdg) + "/nasperf/results.db";
  const char* home = std::getenv("HOME");
  return std::string(home && *home ? home : ".") + "/.local/share/nasperf/results.db";
}

Result<ResultsStore> ResultsStore::OpenReadOnly(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode))
    return Status::BadInput("--db: " + path + " is not a regular file");
  // Where the file and its directory may be written, a connection that may write but is
  // told not to (query_only): as the last one to close it removes the -wal and -shm files,
  // which a SQLITE_OPEN_READONLY connection would leave next to the database.
  const std::filesystem::path dir = std::filesystem::path(path).parent_path();
  const bool writable =
      ::access(path.c_str(), W_OK) == 0 && ::access(dir.empty() ? "." : dir.c_str(), W_OK) == 0;
  Result<SqliteDb> db = SqliteDb::Open(path, writable ? OpenMode::kQueryOnly : OpenMode::kReadOnly);
  if (!db.ok()) return db.status();
  Result<int64_t> version = CheckSchema(db.value());
  // Reading a WAL database needs its -shm file, which a read-only directory cannot hold.
  // With no -wal file no process has it open for writing, so it can be read as it lies.
  const int code = version.ok() ? 0 : version.status().err() & 0xFF;
  if ((code == SQLITE_READONLY || code == SQLITE_CANTOPEN) && ::access((path + "-wal").c_str(), F_OK) != 0) {
    db = SqliteDb::Open(path, OpenMode::kImmutable);
    if (!db.ok()) return db.status();
    version = CheckSchema(db.value());
  }
  if (!version.ok()) return version.status();
  // An older schema is brought up to date where the file can be written.
  if (version.value() < kSchemaVersion) return Open(path);
  return ResultsStore(std::move(db).value());
}

Result<ResultsStore> ResultsStore::Open(const std::string& path) {
  std::filesystem::path dir = std::filesystem::path(path).parent_path();
  std::error_code ec;
  if (!dir.empty() && !std::filesystem::exists(dir, ec)) {
    std::filesystem::create_directories(dir, ec);
    if (ec) return Status::BadInput("--db: cannot create directory " + dir.string() + ": " + ec.message());
  }
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode))
    return Status::BadInput("--db: " + path + " is not a regular file");
  Result<SqliteDb> db = SqliteDb::Open(path, OpenMode::kCreate);
  if (!db.ok()) return db.status();
  ResultsStore store(std::move(db).value());
  if (Status s = PrepareSchema(store.db_); !s.ok()) return s;
  return store;
}

Result<int64_t> ResultsStore::BeginInvocation(const std::string& command, const std::string& command_line,
                                              const std::string& started_at) {
  Result<SqliteStatement> s =
      db_.Prepare("INSERT INTO invocations (command, started_at, command_line) VALUES (?, ?, ?)");
  if (!s.ok()) return s.status();
  s.value().Bind(1, command).Bind(2, started_at).Bind(3, command_line);
  if (Status r = s.value().Run(); !r.ok()) return r;
  return db_.LastInsertId();
}

Status ResultsStore::SetInvocationSummary(int64_t invocation_id, const nlohmann::ordered_json& summary) {
  Result<SqliteStatement> s = db_.Prepare("UPDATE invocations SET summary_json = ? WHERE id = ?");
  if (!s.ok()) return s.status();
  s.value().Bind(1, summary.dump()).Bind(2, invocation_id);
  return s.value().Run();
}

Result<std::vector<InvocationRecord>> ResultsStore::ListInvocations(const std::string& command, int64_t id) {
  std::string sql = "SELECT id, command, started_at, command_line, summary_json, "
                    "(SELECT count(*) FROM runs WHERE runs.invocation_id = invocations.id) FROM invocations WHERE 1";
  if (!command.empty()) sql += " AND command = ?";
  if (id) sql += " AND id = " + std::to_string(id);
  sql += " ORDER BY started_at DESC, id DESC";
  Result<SqliteStatement> s = db_.Prepare(sql);
  if (!s.ok()) return s.status();
  if (!command.empty()) s.value().Bind(1, command);
  std::vector<InvocationRecord> out;
  while (true) {
    Result<bool> more = s.value().Step();
    if (!more.ok()) return more.status();
    if (!more.value()) break;
    InvocationRecord r;
    r.id = s.value().Int(0);
    r.command = s.value().Text(1);
    r.started_at = s.value().Text(2);
    r.command_line = s.value().Text(3);
    r.summary = nlohmann::ordered_json::parse(s.value().Text(4), nullptr, false);
    if (r.summary.is_discarded()) r.summary = nlohmann::ordered_json::object();
    r.run_count = s.value().Int(5);
    out.push_back(std::move(r));
  }
  return out;
}

Status ResultsStore::BeginRun(RunResult& run, int64_t invocation_id) {
  return InTransaction(db_, [&]() -> Status { return InsertRun(run, invocation_id, true); });
}

Status ResultsStore::InsertRun(RunResult& run, int64_t invocation_id, bool owned) {
  RunResult unfinished = run;
  unfinished.partial = true;
  unfinished.error = kUnfinished;
  Result<SqliteStatement> s = db_.Prepare(
      "INSERT INTO runs (started_at, nasperf_version, command_line, source_tool, source_file, name, test, target, "
      "engine, partial, error, job_json, cpu_user_pct, cpu_sys_pct, notes_json, repeats_json, inventory_json, "
      "cached, measured_on, telemetry_json, protocol_json, invocation_id) "
      "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
  if (!s.ok()) return s.status();
  BindRunColumns(s.value(), unfinished);
  s.value().Bind(22, invocation_id);
  if (Status r = s.value().Run(); !r.ok()) return r;
  run.id = db_.LastInsertId();
  run.invocation_id = invocation_id;
  if (owned) {
    const RunOwner owner = ThisProcessAsOwner();
    Result<SqliteStatement> o =
        db_.Prepare("UPDATE runs SET owner_host = ?, owner_pid = ?, owner_start = ? WHERE id = ?");
    if (!o.ok()) return o.status();
    o.value().Bind(1, owner.host).Bind(2, owner.pid).Bind(3, owner.start).Bind(4, run.id);
    if (Status r = o.value().Run(); !r.ok()) return r;
  }
  // Its tags at once, so that a run killed outright is still found by them.
  return WriteTags(run);
}

Status ResultsStore::WriteTags(const RunResult& run) {
  // OR IGNORE: a tag set meanwhile (`results tag` while the run was measured) is the
  // user's, newer than the run's own, and is kept.
  Result<SqliteStatement> tag = db_.Prepare("INSERT OR IGNORE INTO tags (run_id, key, value) VALUES (?, ?, ?)");
  if (!tag.ok()) return tag.status();
  for (const auto& [k, v] : run.tags) {
    tag.value().Reset();
    tag.value().Bind(1, run.id).Bind(2, k).Bind(3, v);
    if (Status st = tag.value().Run(); !st.ok()) return st;
  }
  return Status::Ok();
}

Status ResultsStore::WriteRunBody(const RunResult& run) {
  // Tags are not deleted: other commands add them to a stored run at any time.
  for (const char* table : {"directions", "samples"}) {
    Result<SqliteStatement> del = db_.Prepare(std::string("DELETE FROM ") + table + " WHERE run_id = ?");
    if (!del.ok()) return del.status();
    del.value().Bind(1, run.id);
    if (Status r = del.value().Run(); !r.ok()) return r;
  }
  Result<SqliteStatement> dir = db_.Prepare(
      "INSERT INTO directions (run_id, dir, bytes, ios, seconds, mb_per_s, iops, errors, lat_mean_us, lat_p50_us, "
      "lat_p90_us, lat_p99_us, lat_p999_us, lat_max_us, histogram) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
  if (!dir.ok()) return dir.status();
  for (const auto& [name, d] : {std::pair{"read", &run.read}, std::pair{"write", &run.write}}) {
    if (!DidIo(*d)) continue;
    const DirectionResult& r = **d;
    SqliteStatement& s = dir.value();
    s.Reset();
    s.Bind(1, run.id).Bind(2, std::string(name)).Bind(3, static_cast<int64_t>(r.bytes))
        .Bind(4, static_cast<int64_t>(r.ios)).Bind(5, r.seconds).Bind(6, r.mb_per_s).Bind(7, r.iops)
        .Bind(8, static_cast<int64_t>(r.errors)).Bind(9, r.lat.mean_us).Bind(10, r.lat.p50_us)
        .Bind(11, r.lat.p90_us).Bind(12, r.lat.p99_us).Bind(13, r.lat.p999_us).Bind(14, r.lat.max_us);
    if (r.histogram) s.BindBlob(15, r.histogram->Serialize());
    else s.BindNull(15);
    if (Status st = s.Run(); !st.ok()) return st;
  }
  Result<SqliteStatement> sample =
      db_.Prepare("INSERT INTO samples (run_id, t_s, read_mb_per_s, write_mb_per_s) VALUES (?, ?, ?, ?)");
  if (!sample.ok()) return sample.status();
  for (const Sample& x : run.samples) {
    sample.value().Reset();
    sample.value().Bind(1, run.id).Bind(2, x.t_s).Bind(3, x.read_mb_per_s).Bind(4, x.write_mb_per_s);
    if (Status st = sample.value().Run(); !st.ok()) return st;
  }
  return WriteTags(run);
}

Status ResultsStore::FinishRun(const RunResult& run) {
  return InTransaction(db_, [&]() -> Status {
    // What a run's end decides, by BindRunColumns' numbers (and started_at: `net` stores
    // when its test began, known only after it); the nasperf version, command line and
    // source written by BeginRun stay, and tags set meanwhile are another table's rows.
    Result<SqliteStatement> s = db_.Prepare(
        "UPDATE runs SET started_at = ?1, name = ?6, test = ?7, target = ?8, engine = ?9, partial = ?10, error = ?11, "
        "job_json = ?12, cpu_user_pct = ?13, cpu_sys_pct = ?14, notes_json = ?15, repeats_json = ?16, "
        "inventory_json = ?17, cached = ?18, measured_on = ?19, telemetry_json = ?20, protocol_json = ?21, "
        "owner_host = NULL, owner_pid = NULL, owner_start = NULL WHERE id = ?22");
    if (!s.ok()) return s.status();
    BindRunColumns(s.value(), run);
    s.value().Bind(22, run.id);
    if (Status r = s.value().Run(); !r.ok()) return r;
    if (db_.Changes() == 0)
      return Status::Io("results database " + path() + ": run " + std::to_string(run.id) +
                        " was removed while it was measured; its results were not stored");
    return WriteRunBody(run);
  });
}

Status ResultsStore::SaveRun(RunResult& run, int64_t invocation_id) {
  if (Status s = InsertRun(run, invocation_id, false); !s.ok()) return s;
  Result<SqliteStatement> s = db_.Prepare("UPDATE runs SET partial = ?, error = ? WHERE id = ?");
  if (!s.ok()) return s.status();
  s.value().Bind(1, static_cast<int64_t>(run.partial)).Bind(2, run.error).Bind(3, run.id);
  if (Status r = s.value().Run(); !r.ok()) return r;
  return WriteRunBody(run);
}

Status ResultsStore::Save(RunResult& run, int64_t invocation_id) {
  return InTransaction(db_, [&]() -> Status { return SaveRun(run, invocation_id); });
}

Status ResultsStore::SaveInvocation(const std::string& command, const std::string& command_line,
                                    const std::string& started_at, std::vector<RunResult>& runs) {
  std::vector<RunResult> saved = runs;  // ids only when the whole transaction holds
  Status s = InTransaction(db_, [&]() -> Status {
    Result<int64_t> invocation = BeginInvocation(command, command_line, started_at);
    if (!invocation.ok()) return invocation.status();
    for (RunResult& r : saved)
      if (Status st = SaveRun(r, invocation.value()); !st.ok()) return st;
    return Status::Ok();
  });
  if (s.ok()) runs = std::move(saved);
  return s;
}

namespace {

// The runs table's columns of one row (kRunColumns), without repeats_json: its bare totals
// of old stores need the run's directions first.
Result<RunResult> RunFromRow(SqliteStatement& row) {
  RunResult run;
  run.id = row.Int(0);
  run.started_at = row.Text(1);
  run.command_line = row.Text(2);
  run.source_tool = row.Text(3);
  run.source_file = row.Text(4);
  run.name = row.Text(5);
  run.test = row.Text(6);
  run.target = row.Text(7);
  run.engine = row.Text(8);
  run.partial = row.Int(9) != 0;
  run.error = row.Text(10);
  nlohmann::json job = nlohmann::json::parse(row.Text(11), nullptr, false);
  Result<JobSpec> spec = JobFromJson(job);
  if (!spec.ok()) return Status::Io("results database: run " + std::to_string(run.id) + ": " + spec.status().message());
  run.job = spec.value();
  if (job.is_object() && job.contains("data")) run.data = DataFromJson(job.at("data"));
  run.qd_run = QdRunFromJson(job);  // kept inside job_json: no column, no migration
  run.cpu.user_pct = row.Real(12);
  run.cpu.sys_pct = row.Real(13);
  nlohmann::json notes = nlohmann::json::parse(row.Text(14), nullptr, false);
  if (notes.is_array()) run.notes = notes.get<std::vector<std::string>>();
  run.inventory = nlohmann::ordered_json::parse(row.Text(16), nullptr, false);
  if (run.inventory.is_discarded()) run.inventory = nlohmann::ordered_json::object();
  run.invocation_id = row.Int(17);
  if (!row.IsNull(18)) run.cached = row.Int(18) != 0;
  if (std::string on = row.Text(19); !on.empty()) run.measured_on = on;
  if (!row.IsNull(20)) {
    // Damaged telemetry is dropped, not fatal: the run's own figures are still good.
    run.telemetry = nlohmann::ordered_json::parse(row.Text(20), nullptr, false);
    if (run.telemetry.is_discarded()) run.telemetry = nullptr;
  }
  if (!row.IsNull(21)) {
    // Damaged facts are dropped the same way: they label the run, they are not its figures.
    nlohmann::ordered_json stored = nlohmann::ordered_json::parse(row.Text(21), nullptr, false);
    Result<std::optional<ProtocolFacts>> facts =
        ProtocolFromJson(stored.is_discarded() ? nlohmann::ordered_json(nullptr) : stored);
    if (facts.ok()) run.protocol = std::move(facts).value();
  }
  return run;
}

// Runs `sql` (one ? bound to `run_id`) and hands each row to `each`.
template <typename Each>
Status ForEachRowOf(SqliteDb& db, const char* sql, int64_t run_id, Each&& each) {
  Result<SqliteStatement> q = db.Prepare(sql);
  if (!q.ok()) return q.status();
  q.value().Bind(1, run_id);
  while (true) {
    Result<bool> more = q.value().Step();
    if (!more.ok()) return more.status();
    if (!more.value()) return Status::Ok();
    each(q.value());
  }
}

// The run's read and write figures; with `details`, their latency histograms too.
Status ReadDirections(SqliteDb& db, bool details, RunResult* run) {
  return ForEachRowOf(
      db,
      "SELECT dir, bytes, ios, seconds, mb_per_s, iops, errors, lat_mean_us, lat_p50_us, lat_p90_us, lat_p99_us, "
      "lat_p999_us, lat_max_us, histogram FROM directions WHERE run_id = ?",
      run->id, [&](SqliteStatement& d) {
        DirectionResult r;
        r.bytes = static_cast<uint64_t>(d.Int(1));
        r.ios = static_cast<uint64_t>(d.Int(2));
        r.seconds = d.Real(3);
        r.mb_per_s = d.Real(4);
        r.iops = d.Real(5);
        r.errors = static_cast<uint64_t>(d.Int(6));
        r.lat = {d.Real(7), d.Real(8), d.Real(9), d.Real(10), d.Real(11), d.Real(12)};
        if (details && !d.IsNull(13)) {
          auto h = std::make_shared<LatencyHistogram>();
          if (LatencyHistogram::Deserialize(d.Blob(13), h.get())) r.histogram = h;
        }
        (d.Text(0) == "read" ? run->read : run->write) = r;
      });
}

Status ReadTags(SqliteDb& db, RunResult* run) {
  return ForEachRowOf(db, "SELECT key, value FROM tags WHERE run_id = ? ORDER BY key", run->id,
                      [&](SqliteStatement& t) { run->tags[t.Text(0)] = t.Text(1); });
}

Status ReadSamples(SqliteDb& db, RunResult* run) {
  return ForEachRowOf(db, "SELECT t_s, read_mb_per_s, write_mb_per_s FROM samples WHERE run_id = ? ORDER BY t_s",
                      run->id, [&](SqliteStatement& s) { run->samples.push_back({s.Real(0), s.Real(1), s.Real(2)}); });
}

}  // namespace

Result<RunResult> ResultsStore::ReadRun(SqliteStatement& row, bool details) {
  Result<RunResult> read = RunFromRow(row);
  if (!read.ok()) return read.status();
  RunResult run = std::move(read).value();
  const std::string stored_repeats = row.Text(15);
  if (Status s = ReadDirections(db_, details, &run); !s.ok()) return s;
  // After the directions: old stores' bare totals belong to the direction the run did.
  run.repeats = RepeatsFromStore(nlohmann::json::parse(stored_repeats, nullptr, false), run);
  if (Status s = ReadTags(db_, &run); !s.ok()) return s;
  if (details)
    if (Status s = ReadSamples(db_, &run); !s.ok()) return s;
  return run;
}

Result<RunResult> ResultsStore::Load(int64_t id) {
  RunFilter filter;
  filter.ids = {id};
  Result<std::vector<RunResult>> runs = List(filter, true);
  if (!runs.ok()) return runs.status();
  if (runs.value().empty()) return Status::BadInput("no run with id " + std::to_string(id) + " in " + path());
  return std::move(runs.value().front());
}

Result<std::vector<RunResult>> ResultsStore::List(const RunFilter& filter, bool details) {
  std::string sql = std::string("SELECT ") + kRunColumns + " FROM runs WHERE 1";
  std::vector<std::string> texts;
  if (!filter.ids.empty()) {
    sql += " AND id IN (";
    for (size_t i = 0; i < filter.ids.size(); ++i) {
      if (i) sql += ',';
      sql += std::to_string(filter.ids[i]);
    }
    sql += ")";
  }
  if (filter.invocation_id) sql += " AND invocation_id = " + std::to_string(filter.invocation_id);
  if (!filter.name.empty()) {
    sql += " AND name = ?";
    texts.push_back(filter.name);
  }
  if (!filter.target.empty()) {
    sql += " AND target = ?";
    texts.push_back(filter.target);
  }
  if (!filter.since.empty()) {
    sql += " AND started_at >= ?";
    texts.push_back(filter.since);
  }
  for (const auto& [k, v] : filter.tags) {
    sql += " AND EXISTS (SELECT 1 FROM tags t WHERE t.run_id = runs.id AND t.key = ? AND t.value = ?)";
    texts.push_back(k);
    texts.push_back(v);
  }
  sql += filter.oldest_first ? " ORDER BY started_at, id" : " ORDER BY started_at DESC, id DESC";
  if (filter.limit > 0) sql += " LIMIT " + std::to_string(filter.limit);
  Result<SqliteStatement> s = db_.Prepare(sql);
  if (!s.ok()) return s.status();
  for (size_t i = 0; i < texts.size(); ++i) s.value().Bind(static_cast<int>(i + 1), texts[i]);
  std::vector<RunResult> out;
  while (true) {
    Result<bool> more = s.value().Step();
    if (!more.ok()) return more.status();
    if (!more.value()) break;
    Result<RunResult> run = ReadRun(s.value(), details);
    if (!run.ok()) return run.status();
    out.push_back(std::move(run).value());
  }
  return out;
}

Status ResultsStore::SetTag(int64_t id, const std::string& key, const std::string& value) {
  if (Result<RunResult> r = Load(id); !r.ok()) return r.status();
  Result<SqliteStatement> s = db_.Prepare("INSERT OR REPLACE INTO tags (run_id, key, value) VALUES (?, ?, ?)");
  if (!s.ok()) return s.status();
  s.value().Bind(1, id).Bind(2, key).Bind(3, value);
  return s.value().Run();
}

Status ResultsStore::CheckRemovable(int64_t id, bool force) {
  Result<SqliteStatement> s = db_.Prepare("SELECT owner_host, owner_pid, owner_start FROM runs WHERE id = ?");
  if (!s.ok()) return s.status();
  s.value().Bind(1, id);
  Result<bool> row = s.value().Step();
  if (!row.ok()) return row.status();
  if (!row.value()) return Status::BadInput("no run with id " + std::to_string(id) + " in " + path());
  if (force || s.value().IsNull(1)) return Status::Ok();
  RunOwner owner{s.value().Text(0), s.value().Int(1), s.value().Text(2)};
  const std::string who = "run " + std::to_string(id) + " is still being measured by nasperf (pid " +
                          std::to_string(owner.pid) + " on " + owner.host + ")";
  switch (CheckOwner(owner)) {
    case OwnerState::kGone: return Status::Ok();
    case OwnerState::kAlive: return Status::BadInput(who + "; nothing removed: let it finish or stop it first");
    case OwnerState::kElsewhere:
      return Status::BadInput(who + "; nothing removed: remove it on that host, or add --force if it is no longer "
                                    "running there");
  }
  return Status::Ok();
}

Status ResultsStore::Remove(int64_t id, bool force) {
  return InTransaction(db_, [&]() -> Status {
    // Checked inside the write lock: a run cannot begin or end between check and delete.
    if (Status s = CheckRemovable(id, force); !s.ok()) return s;
    Result<SqliteStatement> s = db_.Prepare("DELETE FROM runs WHERE id = ?");
    if (!s.ok()) return s.status();
    s.value().Bind(1, id);
    return s.value().Run();
  });
}

}  // namespace nasperf
