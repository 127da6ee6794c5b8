// SweepSummary's JSON, CacheRam's text and a point's MB/s.
#include "model/sweep_summary.h"

#include "base/units.h"

namespace nasperf {

std::string CacheRam::Text(const char* separator) const {
  std::string out = client_caches ? "client RAM " + FormatApproxSize(client_bytes) : "no client cache";
  if (nas_bytes) out += separator + std::string("NAS RAM ") + FormatApproxSize(*nas_bytes);
  return out;
}

double PointMbPerS(const RunResult& point) {
  const auto& d = DoesReads(point.job.rw) ? point.read : point.write;
  return d ? d->mb_per_s : 0;
}

namespace {

using ojson = nlohmann::ordered_json;

ojson Optional(const std::optional<double>& v) { return v ? ojson(*v) : ojson(nullptr); }
ojson Optional(const std::optional<uint64_t>& v) { return v ? ojson(*v) : ojson(nullptr); }

}  // namespace

ojson SweepToJson(const SweepSummary& s) {
  ojson curves = ojson::array();
  for (const SweepCurve& c : s.curves) {
    ojson knees = ojson::array();
    for (const Knee& k : c.analysis.knees)
      knees.push_back({{"file_bytes", k.file_bytes},
                       {"before_mb_per_s", k.before_mb_per_s},
                       {"after_mb_per_s", k.after_mb_per_s},
                       {"ram", k.ram}});
    curves.push_back({{"test", c.test},
                      {"record_bytes", c.record_bytes},
                      {"knee_bytes", Optional(c.analysis.knee_bytes)},
                      {"knees", knees},
                      {"outliers_bytes", c.analysis.outliers},
                      {"cached_mb_per_s", Optional(c.analysis.cached_mb_per_s)},
                      {"uncached_mb_per_s", Optional(c.analysis.uncached_mb_per_s)},
                      {"client_ram_bytes", s.ram.client_bytes},
                      {"nas_ram_bytes", Optional(s.ram.nas_bytes)},
                      {"verdict", c.analysis.verdict}});
  }
  ojson j;
  if (s.id) j["id"] = s.id;
  j["target"] = s.target;
  j["direct"] = s.direct;
  j["fsync"] = s.fsync;
  j["repeat"] = s.repeat;
  j["sizes_bytes"] = s.sizes;
  j["records_bytes"] = s.records;
  j["tests"] = s.tests;
  j["max_reason"] = s.max_reason;
  j["ram"] = {{"client_bytes", s.ram.client_bytes},
              {"client_caches", s.ram.client_caches},
              {"nas_bytes", Optional(s.ram.nas_bytes)},
              {"cache_bytes", s.ram.total()},
              {"server_cache_unknown", s.ram.server_cache_unknown}};
  j["cache_cleaning"] = {
      {"method", s.cache_method}, {"drops", s.cache_drops}, {"max_resident_pct", s.max_resident_pct}};
  j["notes"] = s.notes;
  j["partial"] = s.partial;
  j["curves"] = curves;
  return j;
}

Result<SweepSummary> SweepFromJson(const ojson& j) {
  SweepSummary s;
  try {
    s.id = j.value("id", int64_t{0});
    s.target = j.at("target").get<std::string>();
    s.direct = j.at("direct").get<bool>();
    s.fsync = j.value("fsync", false);
    s.repeat = j.value("repeat", 1u);
    s.sizes = j.at("sizes_bytes").get<std::vector<uint64_t>>();
    s.records = j.at("records_bytes").get<std::vector<uint64_t>>();
    s.tests = j.at("tests").get<std::vector<std::string>>();
    s.max_reason = j.value("max_reason", std::string());
    s.ram.client_bytes = j.at("ram").at("client_bytes").get<uint64_t>();
    if (!j.at("ram").at("nas_bytes").is_null()) s.ram.nas_bytes = j.at("ram").at("nas_bytes").get<uint64_t>();
    s.ram.server_cache_unknown = j.at("ram").value("server_cache_unknown", false);
    s.ram.client_caches = j.at("ram").value("client_caches", true);
    const ojson& cache = j.at("cache_cleaning");
    s.cache_method = cache.value("method", std::string());
    s.cache_drops = cache.value("drops", 0u);
    s.max_resident_pct = cache.value("max_resident_pct", 0.0);
    s.notes = j.value("notes", std::vector<std::string>{});
    s.partial = j.value("partial", false);
    for (const ojson& c : j.at("curves")) {
      SweepCurve curve;
      curve.test = c.at("test").get<std::string>();
      curve.record_bytes = c.at("record_bytes").get<uint64_t>();
      if (!c.at("knee_bytes").is_null()) curve.analysis.knee_bytes = c.at("knee_bytes").get<uint64_t>();
      if (!c.at("cached_mb_per_s").is_null()) curve.analysis.cached_mb_per_s = c.at("cached_mb_per_s").get<double>();
      if (!c.at("uncached_mb_per_s").is_null())
        curve.analysis.uncached_mb_per_s = c.at("uncached_mb_per_s").get<double>();
      curve.analysis.verdict = c.value("verdict", std::string());
      // Summaries stored before knees and outliers were kept have neither.
      for (const ojson& k : c.value("knees", ojson::array()))
        curve.analysis.knees.push_back({k.at("file_bytes").get<uint64_t>(), k.at("before_mb_per_s").get<double>(),
                                        k.at("after_mb_per_s").get<double>(), k.value("ram", std::string())});
      curve.analysis.outliers = c.value("outliers_bytes", std::vector<uint64_t>{});
      s.curves.push_back(std::move(curve));
    }
  } catch (const nlohmann::json::exception& e) {
    return Status::Io(std::string("stored sweep summary cannot be read: ") + e.what());
  }
  return s;
}

}  // namespace nasperf
