// BuildDiskTable / DiskTableLines: disk models' figures from tagged runs, with the spec's
// cost, power and interface ceiling.
#include "report/disk_table.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "base/json_or_null.h"
#include "stats/confidence.h"

namespace nasperf {

namespace {

constexpr uint64_t kMinSequentialBs = 128 * 1024;
constexpr uint64_t kRandomBs = 4096;

struct Collected {
  std::vector<double> values;
  int runs = 0;
};

struct ModelRuns {
  Collected seq_read, seq_write, rand_read, rand_write;
};

// Each repeat's figure, or the run's own when it was not repeated.
void Collect(const RunResult& r, bool read, bool iops, Collected* out) {
  const std::optional<DirectionResult>& d = read ? r.read : r.write;
  if (!DidIo(d)) return;
  if (r.repeats.empty()) {
    out->values.push_back(iops ? d->iops : d->mb_per_s);
  } else {
    for (const RepeatFigures& f : r.repeats)
      out->values.push_back(read ? (iops ? f.read_iops : f.read_mb_per_s) : (iops ? f.write_iops : f.write_mb_per_s));
  }
  ++out->runs;
}

DiskFigure Figure(const Collected& c) {
  DiskFigure f;
  if (!c.values.empty()) f.value = Median(c.values);
  f.runs = c.runs;
  return f;
}

void HoldAgainstCeiling(const std::optional<InterfaceCeiling>& ceiling, DiskFigure* f) {
  if (!ceiling || !f->value) return;
  f->above_ceiling = *f->value > ceiling->mb_per_s;
  f->at_ceiling = !f->above_ceiling && *f->value >= kAtCeilingShare * ceiling->mb_per_s;
}

std::string Mark(const DiskFigure& f) { return f.above_ceiling ? "!" : f.at_ceiling ? "*" : ""; }

std::string Cell(const DiskFigure& f, const char* format) {
  return f.value ? fmt::format(fmt::runtime(format), *f.value) + Mark(f) : "-";
}

std::string Cell(const std::optional<double>& v, const char* format) {
  return v ? fmt::format(fmt::runtime(format), *v) : "-";
}

nlohmann::ordered_json Json(const DiskFigure& f) {
  nlohmann::ordered_json j;
  j["value"] = f.value ? nlohmann::ordered_json(*f.value) : nlohmann::ordered_json(nullptr);
  j["runs"] = f.runs;
  j["at_ceiling"] = f.at_ceiling;
  j["above_ceiling"] = f.above_ceiling;
  return j;
}

}  // namespace

DiskTable BuildDiskTable(const std::vector<RunResult>& runs, const std::vector<DiskSpec>& specs) {
  DiskTable table;
  std::map<std::string, ModelRuns> by_model;
  for (const RunResult& r : runs) {
    auto tag = r.tags.find("disk");
    if (tag == r.tags.end() || tag->second.empty()) continue;
    if (r.partial || r.cached.value_or(false)) {
      ++table.runs_left_out;
      continue;
    }
    ModelRuns& m = by_model[tag->second];
    switch (r.job.rw) {
      case AccessPattern::kRead:
        if (r.job.bs >= kMinSequentialBs) Collect(r, true, false, &m.seq_read);
        break;
      case AccessPattern::kWrite:
        if (r.job.bs >= kMinSequentialBs) Collect(r, false, false, &m.seq_write);
        break;
      case AccessPattern::kRandRead:
        if (r.job.bs == kRandomBs) Collect(r, true, true, &m.rand_read);
        break;
      case AccessPattern::kRandWrite:
        if (r.job.bs == kRandomBs) Collect(r, false, true, &m.rand_write);
        break;
      default:
        break;  // mixed jobs say nothing about either direction alone
    }
  }
  for (const auto& [model, m] : by_model) {
    DiskRow row;
    row.model = model;
    row.seq_read_mb_per_s = Figure(m.seq_read);
    row.seq_write_mb_per_s = Figure(m.seq_write);
    row.rand_read_iops = Figure(m.rand_read);
    row.rand_write_iops = Figure(m.rand_write);
    auto spec = std::find_if(specs.begin(), specs.end(), [&row](const DiskSpec& s) { return s.model == row.model; });
    if (spec != specs.end()) {
      row.spec = *spec;
      if (spec->price && spec->capacity_gb) row.cost_per_gb = *spec->price / *spec->capacity_gb;
      if (spec->active_watts && row.seq_read_mb_per_s.value)
        row.mb_per_s_per_watt = *row.seq_read_mb_per_s.value / *spec->active_watts;
      if (spec->active_watts && row.rand_read_iops.value)
        row.iops_per_watt = *row.rand_read_iops.value / *spec->active_watts;
      HoldAgainstCeiling(spec->interface, &row.seq_read_mb_per_s);
      HoldAgainstCeiling(spec->interface, &row.seq_write_mb_per_s);
    }
    table.rows.push_back(std::move(row));
  }
  for (const DiskSpec& s : specs)
    if (!by_model.count(s.model)) table.specs_without_runs.push_back(s.model);
  return table;
}

std::vector<std::string> DiskTableLines(const DiskTable& table) {
  std::vector<std::string> lines;
  if (table.rows.empty()) {
    lines.push_back("no stored runs are tagged disk=MODEL (run ... --tag disk=MODEL)");
  } else {
    size_t width = 5;
    for (const DiskRow& row : table.rows) width = std::max(width, row.model.size());
    std::string format = "{:<" + std::to_string(width) +
                         "}  {:>10}  {:>10}  {:>10}  {:>10}  {:>4}  {:<20}  {:>8}  {:>8}  {:>11}  {:>7}  {:>7}";
    auto line = [&](auto&&... cells) {
      std::string text = fmt::format(fmt::runtime(format), cells...);
      text.erase(text.find_last_not_of(' ') + 1);
      lines.push_back(std::move(text));
    };
    line("MODEL", "SEQ READ", "SEQ WRITE", "4K READ", "4K WRITE", "RUNS", "INTERFACE", "CEILING", "PRICE/GB",
         "IDLE/ACT W", "MB/s/W", "IOPS/W");
    line("", "MB/s", "MB/s", "IOPS", "IOPS", "", "", "MB/s", "", "", "", "");
    bool any_at = false, any_above = false;
    for (const DiskRow& row : table.rows) {
      const DiskSpec* spec = row.spec ? &*row.spec : nullptr;
      int runs =
          row.seq_read_mb_per_s.runs + row.seq_write_mb_per_s.runs + row.rand_read_iops.runs + row.rand_write_iops.runs;
      std::string watts = spec && (spec->idle_watts || spec->active_watts)
                              ? Cell(spec->idle_watts, "{:.1f}") + "/" + Cell(spec->active_watts, "{:.1f}")
                              : "-";
      line(row.model, Cell(row.seq_read_mb_per_s, "{:.1f}"), Cell(row.seq_write_mb_per_s, "{:.1f}"),
           Cell(row.rand_read_iops, "{:.0f}"), Cell(row.rand_write_iops, "{:.0f}"), runs,
           spec && spec->interface ? spec->interface->label : "-",
           spec && spec->interface ? fmt::format("{:.0f}", spec->interface->mb_per_s) : "-",
           Cell(row.cost_per_gb, "{:.4f}"), watts, Cell(row.mb_per_s_per_watt, "{:.1f}"),
           Cell(row.iops_per_watt, "{:.1f}"));
      for (const DiskFigure* f : {&row.seq_read_mb_per_s, &row.seq_write_mb_per_s}) {
        any_at = any_at || f->at_ceiling;
        any_above = any_above || f->above_ceiling;
      }
    }
    lines.push_back("");
    lines.push_back(
        "SEQ = read/write with blocks of 128 KiB or more, 4K = randread/randwrite of 4 KiB; each the median of "
        "the runs' repeats. MB/s = 10^6 B/s.");
    lines.push_back("MB/s/W = sequential read MB/s per active watt; IOPS/W = 4K random read IOPS per active watt.");
    for (const DiskRow& row : table.rows) {
      if (!row.spec || !row.spec->interface) continue;
      const InterfaceCeiling& c = *row.spec->interface;
      for (const auto& [name, f] : {std::pair{"sequential read", &row.seq_read_mb_per_s},
                                    std::pair{"sequential write", &row.seq_write_mb_per_s}}) {
        if (f->at_ceiling)
          lines.push_back(
              fmt::format("* {}: {} {:.1f} MB/s sits at the {} ceiling ({:.0f} % of {:.0f} MB/s): the "
                          "interface may be what limits it",
                          row.model, name, *f->value, c.label, 100 * *f->value / c.mb_per_s, c.mb_per_s));
        if (f->above_ceiling)
          lines.push_back(
              fmt::format("! {}: {} {:.1f} MB/s is above what {} carries ({:.0f} MB/s): a cache served "
                          "it, or the spec's interface is wrong",
                          row.model, name, *f->value, c.label, c.mb_per_s));
      }
    }
  }
  for (const std::string& model : table.specs_without_runs)
    lines.push_back(fmt::format("the spec names \"{}\", but no stored run is tagged disk={}", model, model));
  if (table.runs_left_out > 0)
    lines.push_back(fmt::format("{} tagged run{} left out: partial, or served by a cache", table.runs_left_out,
                                table.runs_left_out == 1 ? "" : "s"));
  return lines;
}

nlohmann::ordered_json DiskTableJson(const DiskTable& table) {
  nlohmann::ordered_json disks = nlohmann::ordered_json::array();
  for (const DiskRow& row : table.rows) {
    nlohmann::ordered_json j;
    j["model"] = row.model;
    j["seq_read_mb_per_s"] = Json(row.seq_read_mb_per_s);
    j["seq_write_mb_per_s"] = Json(row.seq_write_mb_per_s);
    j["rand_read_iops"] = Json(row.rand_read_iops);
    j["rand_write_iops"] = Json(row.rand_write_iops);
    const DiskSpec* spec = row.spec ? &*row.spec : nullptr;
    j["price"] = spec ? OrNullJson(spec->price) : nullptr;
    j["capacity_gb"] = spec ? OrNullJson(spec->capacity_gb) : nullptr;
    j["idle_watts"] = spec ? OrNullJson(spec->idle_watts) : nullptr;
    j["active_watts"] = spec ? OrNullJson(spec->active_watts) : nullptr;
    j["interface"] = spec && spec->interface ? nlohmann::ordered_json(spec->interface->name) : nullptr;
    j["ceiling_mb_per_s"] = spec && spec->interface ? nlohmann::ordered_json(spec->interface->mb_per_s) : nullptr;
    j["cost_per_gb"] = OrNullJson(row.cost_per_gb);
    j["mb_per_s_per_watt"] = OrNullJson(row.mb_per_s_per_watt);
    j["iops_per_watt"] = OrNullJson(row.iops_per_watt);
    disks.push_back(std::move(j));
  }
  nlohmann::ordered_json out;
  out["disks"] = std::move(disks);
  out["specs_without_runs"] = table.specs_without_runs;
  out["runs_left_out"] = table.runs_left_out;
  return out;
}

}  // namespace nasperf
