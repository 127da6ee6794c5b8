// RunsToCsv (RFC 4180 quoting); the job columns come from the option table.
#include "report/csv_report.h"

#include <fmt/format.h>

#include "model/job_options.h"

namespace nasperf {
namespace {

std::string Field(const std::string& text) {
  if (text.find_first_of(",\"\n\r") == std::string::npos) return text;
  std::string out = "\"";
  for (char c : text) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

// The job's columns, from the option table: "rw,bs_bytes,...," and one run's cells.
std::string JobColumns() {
  std::string out;
  for (const JobOption& option : JobOptionTable())
    if (option.csv_column) out += std::string(option.csv_column) + ",";
  return out;
}

std::string JobCells(const RunResult& r) {
  JobSpec shown = r.job;
  shown.engine = r.engine;  // the engine that ran, as in the JSON document
  std::string out;
  for (const JobOption& option : JobOptionTable())
    if (option.csv_column) out += Field(option.to_csv(shown)) + ",";
  return out;
}

}  // namespace

std::string RunsToCsv(const std::vector<RunResult>& runs) {
  std::string out = "id,started_at,name,test,target,source_tool,source_file," + JobColumns() +
                    "partial,direction,bytes,ios,seconds,mb_per_s,iops,lat_mean_us,lat_p50_us,lat_p90_us,lat_p99_us,"
                    "lat_p999_us,lat_max_us,tags\n";
  for (const RunResult& r : runs) {
    std::string tags;
    for (const auto& [k, v] : r.tags) tags += (tags.empty() ? "" : ";") + k + "=" + v;
    for (const auto& [name, dir] : {std::pair{"read", &r.read}, std::pair{"write", &r.write}}) {
      if (!DidIo(*dir)) continue;
      const DirectionResult& d = **dir;
      out += fmt::format("{},{},{},{},{},{},{},", r.id, Field(r.started_at), Field(r.name), Field(r.test),
                         Field(r.target), Field(r.source_tool), Field(r.source_file));
      out += JobCells(r);
      out += fmt::format("{},{},{},{},{:.6f},{:.6f},{:.3f},{:.3f},{:.3f},{:.3f},{:.3f},{:.3f},{:.3f},{}\n",
                         r.partial ? 1 : 0, name, d.bytes, d.ios, d.seconds,
                         d.mb_per_s, d.iops, d.lat.mean_us, d.lat.p50_us, d.lat.p90_us, d.lat.p99_us, d.lat.p999_us,
                         d.lat.max_us, Field(tags));
    }
  }
  return out;
}

}  // namespace nasperf
