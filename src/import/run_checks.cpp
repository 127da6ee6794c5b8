// CheckImportedRun; see run_checks.h.
#include "import/run_checks.h"
#include "model/job_validate.h"

#include <cmath>
#include <string>

#include <fmt/format.h>

namespace nasperf {
namespace {

// A figure: finite, 0 or more, at most `max`.
Status Figure(const std::string& field, double value, double max) {
  if (std::isfinite(value) && value >= 0 && value <= max) return Status::Ok();
  return Status::BadInput(fmt::format("{}: {:g} is not a measured figure (expected 0 to {:g})", field, value, max));
}

Status CheckDirection(const std::string& name, const DirectionResult& d) {
  constexpr double kMaxIops = 1e10, kMaxLatUs = 1e12, kMaxSeconds = 1e8;
  const std::pair<const char*, double> figures[] = {
      {"mb_per_s", d.mb_per_s},        {"iops", d.iops},        {"seconds", d.seconds},
      {"lat_us.mean", d.lat.mean_us},  {"lat_us.p50", d.lat.p50_us}, {"lat_us.p90", d.lat.p90_us},
      {"lat_us.p99", d.lat.p99_us},    {"lat_us.p999", d.lat.p999_us}, {"lat_us.max", d.lat.max_us}};
  for (const auto& [field, value] : figures) {
    const std::string f = field;
    double max = f == "mb_per_s" ? kMaxImportedMbPerS : f == "iops" ? kMaxIops : f == "seconds" ? kMaxSeconds : kMaxLatUs;
    if (Status s = Figure(name + "." + f, value, max); !s.ok()) return s;
  }
  return Status::Ok();
}

bool HasControl(const std::string& text) {
  for (unsigned char c : text)
    if (c < 0x20 || c == 0x7F) return true;
  return false;
}

}  // namespace

Status CheckImportedRun(const RunResult& run) {
  // A network test moves no file: its size is 0.
  if (Status s = ValidateJobLimits(run.job, run.engine != "net"); !s.ok()) return Status::BadInput("job: " + s.message());
  if (run.read)
    if (Status s = CheckDirection("read", *run.read); !s.ok()) return s;
  if (run.write)
    if (Status s = CheckDirection("write", *run.write); !s.ok()) return s;
  if (Status s = Figure("cpu.user_pct", run.cpu.user_pct, 1e6); !s.ok()) return s;
  if (Status s = Figure("cpu.sys_pct", run.cpu.sys_pct, 1e6); !s.ok()) return s;
  for (const Sample& sample : run.samples) {
    if (Status s = Figure("samples.t_s", sample.t_s, 1e8); !s.ok()) return s;
    if (Status s = Figure("samples.read_mb_per_s", sample.read_mb_per_s, kMaxImportedMbPerS); !s.ok()) return s;
    if (Status s = Figure("samples.write_mb_per_s", sample.write_mb_per_s, kMaxImportedMbPerS); !s.ok()) return s;
  }
  // `results list` prints these on the run's one line.
  for (const auto& [field, text] : {std::pair<const char*, const std::string&>{"name", run.name},
                                    {"test", run.test}, {"target", run.target}})
    if (HasControl(text)) return Status::BadInput(std::string(field) + ": holds a control character (a newline?)");
  for (const auto& [k, v] : run.tags)
    if (k.empty() || HasControl(k) || HasControl(v))
      return Status::BadInput("tags: '" + k + "' holds a control character (a newline?) or is empty");
  return Status::Ok();
}

}  // namespace nasperf
