// What a rank sends rank 0 when its run ends: its host and NIC, its start on CLOCK_REALTIME,
// its run as nasperf's own JSON and its latency histograms' buckets (which the JSON does not
// carry: the directions', then a paced run's service times' and each per-size row's), and
// its cold-read note. Length-prefixed parts; decoding checks every length against the bytes.
#pragma once

#include <string>

#include <optional>

#include "cluster/rank_merge.h"
#include "suite/app/op_timings.h"
#include "nasperf/status.h"

namespace nasperf {

std::string EncodeRankRun(const RankRun& run);
// BadInput naming the fault for anything EncodeRankRun could not have made.
Result<RankRun> DecodeRankRun(const std::string& bytes);

// An app run's rank result: EncodeRankRun's, and the run's per-operation histograms, each
// under its name (none when `op_times` is null; decoded as nullopt then).
std::string EncodeAppRankRun(const RankRun& run, const OpHistograms* op_times);
Result<RankRun> DecodeAppRankRun(const std::string& bytes, std::optional<OpHistograms>* op_times);

}  // namespace nasperf
