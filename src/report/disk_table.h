// The table of `nasperf results disks`: per disk model (runs tagged disk=MODEL), its
// sequential and random figures, and what the spec file adds: cost per GB, MB/s and IOPS
// per watt, the interface ceiling and which figures sit at it. Pure: runs and specs in, rows out.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "nasperf/result.h"
#include "report/disk_spec.h"

namespace nasperf {

// A figure at or above this share of the interface's ceiling "sits at the ceiling": the
// interface, not the disk, may be what limits it (SATA 6G SSDs reach ~93 % of 600 MB/s).
inline constexpr double kAtCeilingShare = 0.85;

struct DiskFigure {
  std::optional<double> value;  // median over the runs' repeats (each run's own figure when not repeated)
  int runs = 0;                 // runs it came from
  bool at_ceiling = false;      // MB/s figures only: >= kAtCeilingShare of the interface's ceiling
  bool above_ceiling = false;   // more than the interface carries: a cache served it, or the spec is wrong
};

struct DiskRow {
  std::string model;
  DiskFigure seq_read_mb_per_s, seq_write_mb_per_s;  // rw read / write, bs >= 128 KiB
  DiskFigure rand_read_iops, rand_write_iops;        // randread / randwrite, bs 4 KiB
  std::optional<DiskSpec> spec;
  std::optional<double> cost_per_gb;        // price / capacity_gb
  std::optional<double> mb_per_s_per_watt;  // sequential read MB/s per active watt
  std::optional<double> iops_per_watt;      // 4k random read IOPS per active watt
};

struct DiskTable {
  std::vector<DiskRow> rows;                    // by model name
  std::vector<std::string> specs_without_runs;  // models the spec names that no run is tagged with
  int runs_left_out = 0;                        // tagged runs skipped: partial, or served by a cache
};

// Uses every run tagged `disk` that is complete and not marked cached.
DiskTable BuildDiskTable(const std::vector<RunResult>& runs, const std::vector<DiskSpec>& specs);

// The table and its notes, one line each (no trailing newline).
std::vector<std::string> DiskTableLines(const DiskTable& table);

// {"disks": [{"model", "seq_read_mb_per_s", ..., "interface", "ceiling_mb_per_s", ...}]}
nlohmann::ordered_json DiskTableJson(const DiskTable& table);

}  // namespace nasperf
