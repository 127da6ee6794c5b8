// The realistic directory tree of `nasperf tree gen` and the application workloads that
// stage one (issue 18: dir-copy, backup/restore): how many directories, where they sit, and
// each file's path and size — all from a seed, so the same seed gives the same tree.
//
// The model is the FAST 2007 five-year study of file-system metadata (Agrawal, Bolosky,
// Douceur, Lorch) as the Impressions generator uses it:
//   - file sizes lognormal, mu 9.48 and sigma 2.457 in ln(bytes) (median ~13 KiB), with a
//     rare Pareto tail (alpha 1.3, from the body's 99.87th percentile) for very large files;
//   - 1.7 % of files empty;
//   - ~10.2 files per directory (root included), directory depth 1 + Poisson(6), so the
//     mean depth of a file is ~7; a directory's parent is chosen one level up, in proportion
//     to its subdirectories + 2 (Impressions' preferential attachment);
//   - larger files nearer the top (sizes are dealt by depth with noise: a partial order);
//   - mu is shifted by bisection until the total is within 1 % of the target bytes (every
//     size, the tail too, scales with exp(mu), so the shape is kept).
// A file's content is FillDatasetBytes(seed, its index in `files`, offset)
// (workload/dataset_bytes.h).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "nasperf/app_result.h"
#include "nasperf/status.h"

namespace nasperf {

// Recorded with every dataset; bumped whenever the same parameters would give another tree.
inline constexpr char kTreeGenerator[] = "nasperf-tree 1";

struct TreeParams {
  std::string preset;  // "win7-system", "small-files", "media"; "" when custom
  double scale = 1;    // files and bytes are the preset's times this
  uint64_t seed = 1;
  uint64_t files = 0;         // how many files (empty ones included)
  uint64_t target_bytes = 0;  // total size the generator fits mu to (within 1 %)
  double mu = 9.48;           // starting ln(bytes) of the lognormal body (shifted to fit)
  double sigma = 2.457;
  double empty_share = 0.017;
  double tail_share = 0.001;  // files drawn from the Pareto tail
  double tail_alpha = 1.3;
  double tail_cap = 64;          // a tail file is at most this many times the tail's start
  double files_per_dir = 10.2;   // root included
  double dir_depth_poisson = 6;  // a directory's depth is 1 + Poisson(this)
  double depth_noise = 3;        // how loosely larger files sit nearer the top (in levels)
};

struct TreeDir {
  std::string path;    // '/'-separated, relative to the tree's root
  uint32_t depth = 0;  // 1 for a child of the root
};

struct TreeFile {
  std::string path;
  uint64_t size_bytes = 0;
  uint32_t depth = 0;  // directories above it: 0 in the root
};

// What the generator achieved (never what was asked). Sizes in bytes.
struct TreeStats {
  uint64_t files = 0, dirs = 0, bytes = 0;  // dirs: created ones, the root not counted
  uint64_t empty_files = 0, tail_files = 0;
  double median_bytes = 0, mean_bytes = 0, p90_bytes = 0, p99_bytes = 0, max_bytes = 0;
  double share_over_1mib = 0;  // of bytes, in files over 1 MiB
  double files_per_dir = 0;    // files / (dirs + 1): the root holds files too
  double mean_file_depth = 0, mean_dir_depth = 0;
  uint32_t max_depth = 0;
  double mu_fitted = 0;  // the mu that met the target
  double target_bytes = 0;
};

struct TreePlan {
  TreeParams params;
  std::vector<TreeDir> dirs;    // creation order: every parent before its children
  std::vector<TreeFile> files;  // file i's content is FillDatasetBytes(seed, i, ...)
  TreeStats stats;
};

// The presets' names, in the order help lists them.
std::vector<std::string> TreePresetNames();

// The parameters of preset `name` scaled by `scale` with `seed`; BadInput naming the preset
// when unknown, or the scale when it is not > 0 or makes a tree too small or too large.
Result<TreeParams> TreePreset(const std::string& name, double scale, uint64_t seed);

// Generates the tree. BadInput when the parameters cannot be met (no files, fewer target
// bytes than non-empty files, more than kMaxTreeFiles files).
inline constexpr uint64_t kMaxTreeFiles = 10'000'000;
Result<TreePlan> GenerateTree(const TreeParams& params);

// The statistics of a list of files (for the plan, and for a tree read back).
TreeStats TreeStatsOf(const std::vector<TreeFile>& files, uint64_t dirs, const std::vector<TreeDir>& dir_list);

// The digest of the plan's names, sizes and generated contents (DatasetDigest): reads no
// file, costs one pass of generation and SHA-256 over every byte.
std::string TreeDigest(const TreePlan& plan);

// The dataset record of a plan, as a run stores it; `digest` from TreeDigest or from hashing
// while staging ("" when not computed).
AppDataset DatasetOf(const TreePlan& plan, const std::string& digest);

}  // namespace nasperf
