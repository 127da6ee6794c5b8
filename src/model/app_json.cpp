// AppFigures' JSON form (model/app_json.h): every field, written in the struct's order,
// read back tolerantly of absence and strictly of types.
#include "model/app_json.h"

#include <limits>

#include "model/json_fields.h"

namespace nasperf {
namespace {

using ojson = nlohmann::ordered_json;

ojson OpToJson(const AppOpLatency& o) {
  return {{"op", o.op},         {"count", o.count},   {"mean_us", o.mean_us},
          {"p50_us", o.p50_us}, {"p99_us", o.p99_us}, {"max_us", o.max_us}};
}

ojson StreamToJson(const AppStream& s) {
  return {{"index", s.index},     {"dir", s.dir},
          {"chunks", s.chunks},   {"deadline_misses", s.deadline_misses},
          {"stall_s", s.stall_s}, {"late_p99_us", s.late_p99_us}};
}

ojson DatasetToJson(const AppDataset& d) {
  return {{"generator", d.generator},   {"preset", d.preset},
          {"scale", d.scale},           {"seed", d.seed},
          {"files", d.files},           {"dirs", d.dirs},
          {"bytes", d.bytes},           {"median_bytes", d.median_bytes},
          {"mean_bytes", d.mean_bytes}, {"p90_bytes", d.p90_bytes},
          {"p99_bytes", d.p99_bytes},   {"share_over_1mib", d.share_over_1mib},
          {"digest", d.digest}};
}

// Reads the members of one object; the first fault is kept and every later read is a
// no-op, so a reader lists its fields without a check after each.
class Members {
 public:
  Members(const nlohmann::json& j, std::string where) : j_(j), where_(std::move(where)) {
    if (!j_.is_object()) status_ = Status::BadInput(where_ + ": expected an object, got " + QuotedJson(j_, 40));
  }
  const Status& status() const { return status_; }
  const std::string& where() const { return where_; }

  // The member `key`, or nullptr when absent or null (or after a fault).
  const nlohmann::json* Find(const char* key) {
    if (!status_.ok()) return nullptr;
    auto it = j_.find(key);
    if (it == j_.end() || it->is_null()) return nullptr;
    return &*it;
  }
  void Fail(const char* key, const char* expected, const nlohmann::json& got) {
    if (status_.ok())
      status_ = Status::BadInput(where_ + "." + key + ": expected " + expected + ", got " + QuotedJson(got, 40));
  }
  void Text(const char* key, std::string* out) {
    if (const nlohmann::json* v = Find(key)) {
      if (v->is_string())
        *out = v->get<std::string>();
      else
        Fail(key, "a string", *v);
    }
  }
  void Number(const char* key, double* out) {
    if (const nlohmann::json* v = Find(key)) {
      if (v->is_number())
        *out = v->get<double>();
      else
        Fail(key, "a number", *v);
    }
  }
  void Number(const char* key, std::optional<double>* out) {
    if (Find(key)) {
      double x = 0;
      Number(key, &x);
      if (status_.ok()) *out = x;
    }
  }
  template <typename U>
  void Count(const char* key, U* out) {
    if (const nlohmann::json* v = Find(key)) {
      if (v->is_number_unsigned() && v->get<uint64_t>() <= std::numeric_limits<U>::max())
        *out = v->get<U>();
      else
        Fail(key, "a count", *v);
    }
  }
  template <typename U>
  void Count(const char* key, std::optional<U>* out) {
    if (Find(key)) {
      U x = 0;
      Count(key, &x);
      if (status_.ok()) *out = x;
    }
  }
  // Each element of the array `key` handed to `each(element, "where.key[i]")`, which
  // returns its Status.
  template <typename Each>
  void Array(const char* key, Each&& each) {
    const nlohmann::json* v = Find(key);
    if (!v) return;
    if (!v->is_array()) return Fail(key, "an array", *v);
    for (size_t i = 0; i < v->size() && status_.ok(); ++i)
      status_ = each((*v)[i], where_ + "." + key + "[" + std::to_string(i) + "]");
  }

 private:
  const nlohmann::json& j_;
  std::string where_;
  Status status_ = Status::Ok();
};

Status OpFromJson(const nlohmann::json& j, const std::string& where, AppOpLatency* o) {
  Members m(j, where);
  m.Text("op", &o->op);
  m.Count("count", &o->count);
  m.Number("mean_us", &o->mean_us);
  m.Number("p50_us", &o->p50_us);
  m.Number("p99_us", &o->p99_us);
  m.Number("max_us", &o->max_us);
  return m.status();
}

Status StreamFromJson(const nlohmann::json& j, const std::string& where, AppStream* s) {
  Members m(j, where);
  m.Count("index", &s->index);
  m.Text("dir", &s->dir);
  m.Count("chunks", &s->chunks);
  m.Count("deadline_misses", &s->deadline_misses);
  m.Number("stall_s", &s->stall_s);
  m.Number("late_p99_us", &s->late_p99_us);
  return m.status();
}

Status DatasetFromJson(const nlohmann::json& j, const std::string& where, AppDataset* d) {
  Members m(j, where);
  m.Text("generator", &d->generator);
  m.Text("preset", &d->preset);
  m.Number("scale", &d->scale);
  m.Count("seed", &d->seed);
  m.Count("files", &d->files);
  m.Count("dirs", &d->dirs);
  m.Count("bytes", &d->bytes);
  m.Number("median_bytes", &d->median_bytes);
  m.Number("mean_bytes", &d->mean_bytes);
  m.Number("p90_bytes", &d->p90_bytes);
  m.Number("p99_bytes", &d->p99_bytes);
  m.Number("share_over_1mib", &d->share_over_1mib);
  m.Text("digest", &d->digest);
  return m.status();
}

}  // namespace

ojson AppToJson(const AppFigures& app) {
  ojson j = {{"workload", app.workload},
             {"from", app.from},
             {"to", app.to},
             {"elapsed_s", app.elapsed_s},
             {"bytes", app.bytes},
             {"files", app.files},
             {"mb_per_s", app.mb_per_s}};
  if (app.files_per_s) j["files_per_s"] = *app.files_per_s;
  if (app.source_mb_per_s) j["source_mb_per_s"] = *app.source_mb_per_s;
  j["threads"] = app.threads;
  j["cache_state"] = app.cache_state;
  if (!app.write_flush.empty()) j["write_flush"] = app.write_flush;
  if (app.fill_pct) j["fill_pct"] = *app.fill_pct;
  if (app.small_file_penalty) j["small_file_penalty"] = *app.small_file_penalty;
  ojson ops = ojson::array(), streams = ojson::array();
  for (const AppOpLatency& o : app.ops) ops.push_back(OpToJson(o));
  for (const AppStream& s : app.streams) streams.push_back(StreamToJson(s));
  j["ops"] = std::move(ops);
  j["streams"] = std::move(streams);
  if (app.max_streams) j["max_streams"] = *app.max_streams;
  if (app.dataset) j["dataset"] = DatasetToJson(*app.dataset);
  if (app.ops_per_s) j["ops_per_s"] = *app.ops_per_s;
  return j;
}

Result<AppFigures> AppFromJson(const nlohmann::json& j) {
  AppFigures app;
  Members m(j, "app");
  m.Text("workload", &app.workload);
  m.Text("from", &app.from);
  m.Text("to", &app.to);
  m.Number("elapsed_s", &app.elapsed_s);
  m.Count("bytes", &app.bytes);
  m.Count("files", &app.files);
  m.Number("mb_per_s", &app.mb_per_s);
  m.Number("files_per_s", &app.files_per_s);
  m.Number("source_mb_per_s", &app.source_mb_per_s);
  m.Count("threads", &app.threads);
  m.Text("cache_state", &app.cache_state);
  m.Text("write_flush", &app.write_flush);
  m.Number("fill_pct", &app.fill_pct);
  m.Number("small_file_penalty", &app.small_file_penalty);
  m.Array("ops", [&](const nlohmann::json& e, const std::string& where) {
    AppOpLatency o;
    Status s = OpFromJson(e, where, &o);
    if (s.ok()) app.ops.push_back(std::move(o));
    return s;
  });
  m.Array("streams", [&](const nlohmann::json& e, const std::string& where) {
    AppStream st;
    Status s = StreamFromJson(e, where, &st);
    if (s.ok()) app.streams.push_back(std::move(st));
    return s;
  });
  m.Count("max_streams", &app.max_streams);
  m.Number("ops_per_s", &app.ops_per_s);
  if (const nlohmann::json* d = m.Find("dataset")) {
    AppDataset dataset;
    if (Status s = DatasetFromJson(*d, "app.dataset", &dataset); !s.ok()) return s;
    app.dataset = std::move(dataset);
  }
  if (!m.status().ok()) return m.status();
  return app;
}

}  // namespace nasperf
