// A fully populated AppFigures (every field set, none at its default), for the codec's
// round trip and for tests of whoever stores or renders an application run.
#pragma once

#include "nasperf/app_result.h"

namespace nasperf::testing {

inline AppFigures FullAppFigures() {
  AppFigures a;
  a.workload = "dir-copy";
  a.from = "generated:win7-system";
  a.to = "smb://bench@198.18.0.2/bench";
  a.elapsed_s = 12.5;
  a.bytes = 283'467'841;
  a.files = 1477;
  a.mb_per_s = 22.677427;
  a.files_per_s = 118.16;
  a.source_mb_per_s = 23.5;
  a.threads = 8;
  a.cache_state = "cold";
  a.write_flush = kWriteFlushInClock;
  a.fill_pct = 33.0;
  a.small_file_penalty = 4.25;
  a.ops = {{"mkdir", 145, 310.5, 250, 1900, 4100},
           {"create", 1477, 820.25, 640, 5100, 9000},
           {"write", 2950, 2100, 1800, 9800, 22000},
           {"setattr", 1477, 95, 80, 400, 1200},
           {"close", 1477, 150, 120, 700, 3100}};
  a.streams = {{0, "play", 2400, 0, 0, 1850.5}, {1, "record", 2390, 3, 0.75, 91000}};
  a.max_streams = 2;
  a.ops_per_s = 12.5;
  AppDataset d;
  d.generator = "nasperf-tree 1";
  d.preset = "win7-system";
  d.scale = 0.02;
  d.seed = 18446744073709551557ull;  // above 2^63: a seed is any 64-bit value
  d.files = 1477;
  d.dirs = 145;
  d.bytes = 283'467'841;
  d.median_bytes = 13120;
  d.mean_bytes = 191921.3;
  d.p90_bytes = 262144;
  d.p99_bytes = 3.1e6;
  d.share_over_1mib = 0.71;
  d.digest = "sha256:9f2c";
  a.dataset = d;
  return a;
}

}  // namespace nasperf::testing
