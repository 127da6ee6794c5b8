// ResultsStore: reading runs back, by id or by filter.
#include <memory>

#include "model/app_json.h"
#include "model/pacing_json.h"
#include "model/run_extras.h"
#include "model/cluster_json.h"
#include "model/run_json.h"
#include "stats/histogram.h"
#include "store/results_store.h"
#include "store/stored_repeats.h"

namespace nasperf {
namespace {

constexpr const char* kRunColumns =
    "id, started_at, command_line, source_tool, source_file, name, test, target, engine, partial, error, "
    "job_json, cpu_user_pct, cpu_sys_pct, notes_json, repeats_json, inventory_json, invocation_id, cached, "
    "measured_on, telemetry_json, protocol_json, app_json, per_size_json";

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
  if (job.is_object() && job.contains("pacing")) {
    Result<PacingFacts> pacing = PacingFromJson(job.at("pacing"));
    if (pacing.ok()) run.pacing = pacing.value();
    else run.notes.push_back("the results database's pacing figures are damaged: " + pacing.status().message());
  }
  run.qd_run = QdRunFromJson(job);  // kept inside job_json: no column, no migration
  ReadRunExtras(job, run);
  if (job.is_object() && job.contains("cluster")) {
    Result<ClusterFacts> cluster = ClusterFromJson(job.at("cluster"));
    if (cluster.ok())
      run.cluster = std::move(cluster).value();
    else
      run.notes.push_back("the results database's many-clients facts are damaged: " + cluster.status().message());
  }
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
  if (!row.IsNull(22)) {
    // These are the run's own figures: damaged ones are not dropped silently but named in a
    // note, so `results show` says why an application run has no elapsed time.
    nlohmann::json stored = nlohmann::json::parse(row.Text(22), nullptr, false);
    Result<AppFigures> app =
        stored.is_discarded() ? Result<AppFigures>(Status::BadInput("app: not JSON")) : AppFromJson(stored);
    if (app.ok())
      run.app = std::move(app).value();
    else
      run.notes.push_back("the results database's application figures are damaged: " + app.status().message());
  }
  if (!row.IsNull(23)) {
    // The run's own figures, like app_json's: a damaged column is named, not dropped silently.
    nlohmann::json stored = nlohmann::json::parse(row.Text(23), nullptr, false);
    Result<std::vector<SizeResult>> sizes = stored.is_discarded()
                                                ? Result<std::vector<SizeResult>>(Status::BadInput("not JSON"))
                                                : PerSizeFromJson(stored);
    if (sizes.ok())
      run.per_size = std::move(sizes).value();
    else
      run.notes.push_back("the results database's per-size figures are damaged: " + sizes.status().message());
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
                      run->id, [&](SqliteStatement& s) {
                        run->samples.push_back({s.Real(0), s.Real(1), s.Real(2)});
                      });
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

}  // namespace nasperf
