// A job file's group as one figure: the runs that ran at the same time (job_group), their
// bytes and I/Os summed over the group's window, their latencies from merged histograms.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "nasperf/result.h"

namespace nasperf {

struct GroupTotals {
  std::string group;
  std::vector<std::string> jobs;  // job_name of each run, in the order given
  std::vector<int64_t> run_ids;   // 0 for a run not stored
  // The group's window: its jobs start together (a barrier after every prelude), so it
  // runs from that start to the end of its longest job (fio's group reporting does the
  // same: total bytes over the longest runtime).
  double seconds = 0;
  // Summed over the window; latency from the merged histograms, absent (zeros, and
  // latency_merged false) when any run of the direction has no histogram (older stores).
  std::optional<DirectionResult> read, write;
  bool latency_merged = true;
};

// The runs of `group` among `runs` (job_group == group), summed.
GroupTotals SumGroup(const std::vector<RunResult>& runs, const std::string& group);
// The groups the runs hold, in order of their first run; runs without a group are left out.
std::vector<std::string> GroupsOf(const std::vector<RunResult>& runs);
// {"group", "jobs": [...], "run_ids": [...], "seconds", "read": {...}, "write": {...},
//  "latency_merged"}: the document's "groups" entries (directions as in a run).
nlohmann::ordered_json GroupToJson(const GroupTotals& totals);

}  // namespace nasperf
