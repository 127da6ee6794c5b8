// SumGroup and its JSON.
#include "model/group_totals.h"

#include <algorithm>
#include <memory>

#include "model/run_json.h"
#include "stats/histogram.h"
#include "stats/latency_summary.h"

namespace nasperf {
namespace {

// One direction of every run of the group: bytes and I/Os summed, rates over `seconds`.
std::optional<DirectionResult> SumDirection(const std::vector<const DirectionResult*>& parts, double seconds,
                                            bool* merged) {
  if (parts.empty()) return std::nullopt;
  DirectionResult d;
  auto histogram = std::make_shared<LatencyHistogram>();
  for (const DirectionResult* p : parts) {
    d.bytes += p->bytes;
    d.ios += p->ios;
    d.errors += p->errors;
    if (p->histogram)
      histogram->Merge(*p->histogram);
    else
      *merged = false;
  }
  d.seconds = seconds;
  if (seconds > 0) {
    d.mb_per_s = static_cast<double>(d.bytes) / seconds / 1e6;
    d.iops = static_cast<double>(d.ios) / seconds;
  }
  if (*merged) {
    d.lat = LatencySummaryOf(*histogram);
    d.histogram = std::move(histogram);
  }
  return d;
}

}  // namespace

GroupTotals SumGroup(const std::vector<RunResult>& runs, const std::string& group) {
  GroupTotals t;
  t.group = group;
  std::vector<const DirectionResult*> reads, writes;
  for (const RunResult& r : runs) {
    if (r.job_group != group) continue;
    t.jobs.push_back(r.job_name);
    t.run_ids.push_back(r.id);
    if (DidIo(r.read)) {
      reads.push_back(&*r.read);
      t.seconds = std::max(t.seconds, r.read->seconds);
    }
    if (DidIo(r.write)) {
      writes.push_back(&*r.write);
      t.seconds = std::max(t.seconds, r.write->seconds);
    }
  }
  t.read = SumDirection(reads, t.seconds, &t.latency_merged);
  t.write = SumDirection(writes, t.seconds, &t.latency_merged);
  return t;
}

std::vector<std::string> GroupsOf(const std::vector<RunResult>& runs) {
  std::vector<std::string> groups;
  for (const RunResult& r : runs)
    if (!r.job_group.empty() && std::find(groups.begin(), groups.end(), r.job_group) == groups.end())
      groups.push_back(r.job_group);
  return groups;
}

nlohmann::ordered_json GroupToJson(const GroupTotals& t) {
  nlohmann::ordered_json j;
  j["group"] = t.group;
  j["jobs"] = t.jobs;
  j["run_ids"] = t.run_ids;
  j["seconds"] = t.seconds;
  if (t.read) j["read"] = DirectionToJson(*t.read);
  if (t.write) j["write"] = DirectionToJson(*t.write);
  j["latency_merged"] = t.latency_merged;
  return j;
}

}  // namespace nasperf
