// ResultsStore: writing runs (begun, finished, or saved whole) and their tags.
#include "model/app_json.h"
#include "model/pacing_json.h"
#include "model/run_extras.h"
#include "model/cluster_json.h"
#include "model/run_json.h"
#include "nasperf/version.h"
#include "stats/histogram.h"
#include "store/results_store.h"
#include "store/run_owner.h"
#include "store/schema.h"
#include "store/stored_repeats.h"

namespace nasperf {
namespace {

constexpr const char* kUnfinished = "nasperf stopped before this run ended (killed or crashed)";

// The job as JobToJson writes it, with the run's write data facts under "data" (and a
// many-clients run's "cluster"): they describe how the job ran, and ride along without a
// schema change.
nlohmann::ordered_json StoredJob(const RunResult& run) {
  nlohmann::ordered_json job = JobToJson(run.job, run.engine, run.qd_run);
  if (run.data) job["data"] = DataToJson(*run.data);
  if (run.pacing) job["pacing"] = PacingToJson(*run.pacing, run.job.threads);  // no column, no migration
  AddRunExtras(run, job);
  // Many clients: the ranks and their figures (model/cluster_json.h), likewise.
  if (run.cluster) job["cluster"] = ClusterToJson(*run.cluster);
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
  if (run.cached)
    s.Bind(18, static_cast<int64_t>(*run.cached));
  else
    s.BindNull(18);
  s.Bind(19, run.measured_on.empty() ? std::string("client") : run.measured_on);
  if (run.telemetry.is_null())
    s.BindNull(20);
  else
    s.Bind(20, run.telemetry.dump());
  if (!run.protocol)
    s.BindNull(21);
  else
    s.Bind(21, ProtocolToJson(run.protocol).dump());
  if (!run.app)
    s.BindNull(22);
  else
    s.Bind(22, AppToJson(*run.app).dump());
  if (run.per_size.empty())
    s.BindNull(24);  // 23 is the statement's own: invocation_id or the run's id
  else
    s.Bind(24, PerSizeToJson(run.per_size).dump());
  return Status::Ok();
}

}  // namespace

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
      "cached, measured_on, telemetry_json, protocol_json, app_json, invocation_id, per_size_json) "
      "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
  if (!s.ok()) return s.status();
  BindRunColumns(s.value(), unfinished);
  s.value().Bind(23, invocation_id);
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
    s.Bind(1, run.id)
        .Bind(2, std::string(name))
        .Bind(3, static_cast<int64_t>(r.bytes))
        .Bind(4, static_cast<int64_t>(r.ios))
        .Bind(5, r.seconds)
        .Bind(6, r.mb_per_s)
        .Bind(7, r.iops)
        .Bind(8, static_cast<int64_t>(r.errors))
        .Bind(9, r.lat.mean_us)
        .Bind(10, r.lat.p50_us)
        .Bind(11, r.lat.p90_us)
        .Bind(12, r.lat.p99_us)
        .Bind(13, r.lat.p999_us)
        .Bind(14, r.lat.max_us);
    if (r.histogram)
      s.BindBlob(15, r.histogram->Serialize());
    else
      s.BindNull(15);
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
        "app_json = ?22, per_size_json = ?24, owner_host = NULL, owner_pid = NULL, owner_start = NULL WHERE id = ?23");
    if (!s.ok()) return s.status();
    BindRunColumns(s.value(), run);
    s.value().Bind(23, run.id);
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

}  // namespace nasperf
