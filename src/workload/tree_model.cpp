// The tree generator: sizes fitted by bisection on mu, directories by depth and preferential
// attachment, files dealt to directories with larger ones nearer the top.
#include "workload/tree_model.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>

#include "workload/dataset_bytes.h"
#include "workload/offsets.h"
#include "workload/run_seed.h"

namespace nasperf {
namespace {

constexpr uint64_t kMiB = uint64_t{1} << 20;

struct Preset {
  const char* name;
  uint64_t files;
  uint64_t bytes;
};

// win7-system is seed 003's Acronis image of a Windows 7 partition; small-files a folder of
// documents; media a photo and music library.
constexpr Preset kPresets[] = {
    {"win7-system", 73'836, 14'173'392'077},  // 13.2 GiB
    {"small-files", 3'000, 100'000'000},      // 100 MB
    {"media", 36'000, 15'000'000'000},        // 15 GB
};

// The independent random streams of one tree (each its own generator, so changing how one
// part draws does not move the others).
enum class TreeStream : uint64_t { kSizes = 1, kRoles, kDepths, kParents, kWeights, kPlacement, kOrder };

// Our own draws on FastRandom rather than <random>'s distributions, whose output differs
// between standard libraries: the same seed must give the same tree everywhere.
class Draws {
 public:
  Draws(uint64_t seed, TreeStream stream) : random_(SplitMix64(SplitMix64(seed) ^ static_cast<uint64_t>(stream))) {}
  double Uniform() { return static_cast<double>(random_.Next() >> 11) * 0x1.0p-53; }              // [0, 1)
  double OpenUniform() { return (static_cast<double>(random_.Next() >> 11) + 0.5) * 0x1.0p-53; }  // (0, 1)
  double Normal() {  // Box-Muller, one of the pair
    return std::sqrt(-2 * std::log(OpenUniform())) * std::cos(2 * M_PI * Uniform());
  }
  uint32_t Poisson(double lambda) {  // Knuth's: fine for the small lambdas used here
    const double limit = std::exp(-lambda);
    uint32_t k = 0;
    for (double p = OpenUniform(); p > limit; p *= OpenUniform()) ++k;
    return k;
  }
  uint64_t Below(uint64_t bound) { return random_.Below(bound); }

 private:
  FastRandom random_;
};

// Each file's place in the size model: empty, the lognormal body (its z) or the tail (its
// Pareto multiplier). Drawn once; bisection only moves mu.
struct SizeDraw {
  enum Kind : uint8_t { kEmpty, kBody, kTail } kind = kBody;
  double value = 0;
};

std::vector<SizeDraw> DrawSizes(const TreeParams& p, uint64_t& empty_files, uint64_t& tail_files) {
  const uint64_t n = p.files;
  empty_files = static_cast<uint64_t>(std::llround(static_cast<double>(n) * p.empty_share));
  tail_files =
      std::min<uint64_t>(n - empty_files, static_cast<uint64_t>(std::llround(static_cast<double>(n) * p.tail_share)));
  // Exact counts (a shuffle picks which), so a scaled tree keeps the shares.
  std::vector<uint64_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  Draws roles(p.seed, TreeStream::kRoles);
  for (uint64_t i = n; i > 1; --i) std::swap(order[i - 1], order[roles.Below(i)]);
  std::vector<SizeDraw> draws(n);
  Draws sizes(p.seed, TreeStream::kSizes);
  for (uint64_t i = 0; i < n; ++i) draws[i].value = sizes.Normal();
  for (uint64_t k = 0; k < empty_files; ++k) draws[order[k]].kind = SizeDraw::kEmpty;
  for (uint64_t k = empty_files; k < empty_files + tail_files; ++k) {
    SizeDraw& d = draws[order[k]];
    d.kind = SizeDraw::kTail;
    d.value = std::min(std::pow(sizes.OpenUniform(), -1 / p.tail_alpha), p.tail_cap);
  }
  return draws;
}

// A file's size at `mu`: never more than the whole target, never 0 unless empty.
uint64_t SizeAt(const SizeDraw& d, double mu, const TreeParams& p) {
  if (d.kind == SizeDraw::kEmpty) return 0;
  const double ln = d.kind == SizeDraw::kBody ? mu + p.sigma * d.value : mu + 3 * p.sigma + std::log(d.value);
  const double cap = static_cast<double>(p.target_bytes);
  const double bytes = ln > std::log(cap) ? cap : std::exp(ln);
  return std::max<uint64_t>(1, static_cast<uint64_t>(std::llround(bytes)));
}

uint64_t TotalAt(const std::vector<SizeDraw>& draws, double mu, const TreeParams& p) {
  uint64_t total = 0;
  for (const SizeDraw& d : draws) total += SizeAt(d, mu, p);
  return total;
}

// Bisection on mu: every size grows with mu, so the total does; stops within 0.1 %.
double FitMu(const std::vector<SizeDraw>& draws, const TreeParams& p) {
  double lo = p.mu - 60, hi = p.mu + 60;
  const double target = static_cast<double>(p.target_bytes);
  for (int i = 0; i < 200; ++i) {
    const double mid = (lo + hi) / 2;
    const double total = static_cast<double>(TotalAt(draws, mid, p));
    if (std::fabs(total - target) <= target * 0.001) return mid;
    (total < target ? lo : hi) = mid;
  }
  return (lo + hi) / 2;
}

std::string Numbered(const char* prefix, uint64_t index, const char* suffix) {
  char name[40];
  std::snprintf(name, sizeof name, "%s%05llu%s", prefix, static_cast<unsigned long long>(index), suffix);
  return name;
}

// Directories, parents first: depths 1 + Poisson, sorted and kept contiguous (a level needs
// one above it), each parent chosen one level up by subdirectories + 2.
std::vector<TreeDir> MakeDirs(const TreeParams& p, uint64_t created) {
  Draws depth_draws(p.seed, TreeStream::kDepths);
  std::vector<uint32_t> depths(created);
  for (uint32_t& d : depths) d = 1 + depth_draws.Poisson(p.dir_depth_poisson);
  std::sort(depths.begin(), depths.end());
  for (uint64_t i = 0; i < created; ++i) depths[i] = std::min<uint32_t>(depths[i], i ? depths[i - 1] + 1 : 1);

  std::vector<TreeDir> dirs(created);
  Draws parents(p.seed, TreeStream::kParents);
  // The urn of the level above: each directory (index into dirs, -1 the root) appears
  // twice, plus once per child given so far; a draw from it is the preferential choice.
  std::vector<int64_t> above{-1, -1}, level;
  uint32_t current = 1;
  for (uint64_t i = 0; i < created; ++i) {
    if (depths[i] != current) {
      above.swap(level);
      level.clear();
      current = depths[i];
    }
    const int64_t parent = above[parents.Below(above.size())];
    above.push_back(parent);
    const std::string name = Numbered("dir", i, "");
    dirs[i].path = parent < 0 ? name : dirs[parent].path + "/" + name;
    dirs[i].depth = current;
    level.push_back(static_cast<int64_t>(i));
    level.push_back(static_cast<int64_t>(i));
  }
  return dirs;
}

// Which directory each file goes to (0 the root, k dirs[k - 1]): lognormal weights, so some
// directories are crowded and some hold none, as on real disks.
std::vector<uint64_t> PlaceFiles(const TreeParams& p, uint64_t dirs_with_root) {
  Draws weights(p.seed, TreeStream::kWeights);
  std::vector<double> cumulative(dirs_with_root);
  double sum = 0;
  for (double& c : cumulative) c = sum += std::exp(weights.Normal());
  Draws placement(p.seed, TreeStream::kPlacement);
  std::vector<uint64_t> where(p.files);
  for (uint64_t& w : where) {
    const double at = placement.Uniform() * sum;
    w = static_cast<uint64_t>(std::upper_bound(cumulative.begin(), cumulative.end(), at) - cumulative.begin());
    w = std::min(w, dirs_with_root - 1);
  }
  std::sort(where.begin(), where.end());  // files listed directory by directory, in creation order
  return where;
}

double Quantile(const std::vector<uint64_t>& sorted, double q) {
  if (sorted.empty()) return 0;
  const size_t rank = static_cast<size_t>(std::ceil(q * static_cast<double>(sorted.size())));
  return static_cast<double>(sorted[std::clamp<size_t>(rank, 1, sorted.size()) - 1]);
}

}  // namespace

std::vector<std::string> TreePresetNames() {
  std::vector<std::string> names;
  for (const Preset& preset : kPresets) names.emplace_back(preset.name);
  return names;
}

Result<TreeParams> TreePreset(const std::string& name, double scale, uint64_t seed) {
  const Preset* found = nullptr;
  for (const Preset& preset : kPresets)
    if (name == preset.name) found = &preset;
  if (!found) {
    std::string known;
    for (const Preset& preset : kPresets) known += std::string(known.empty() ? "" : ", ") + preset.name;
    return Status::BadInput("unknown tree preset '" + name + "' (known: " + known + ")");
  }
  if (!(scale > 0) || !std::isfinite(scale)) return Status::BadInput("--scale must be a number > 0");
  TreeParams p;
  p.preset = found->name;
  p.scale = scale;
  p.seed = seed;
  const double files = std::round(static_cast<double>(found->files) * scale);
  char scale_text[32];
  std::snprintf(scale_text, sizeof scale_text, "%g", scale);
  if (files < 1) return Status::BadInput(std::string("--scale ") + scale_text + " leaves no files in " + name);
  if (files > static_cast<double>(kMaxTreeFiles))
    return Status::BadInput(std::string("--scale ") + scale_text + " makes more than " + std::to_string(kMaxTreeFiles) +
                            " files");
  p.files = static_cast<uint64_t>(files);
  p.target_bytes = static_cast<uint64_t>(std::llround(static_cast<double>(found->bytes) * scale));
  return p;
}

TreeStats TreeStatsOf(const std::vector<TreeFile>& files, uint64_t dirs, const std::vector<TreeDir>& dir_list) {
  TreeStats s;
  s.files = files.size();
  s.dirs = dirs;
  std::vector<uint64_t> sizes;
  sizes.reserve(files.size());
  uint64_t over_1mib = 0, depth_sum = 0;
  for (const TreeFile& f : files) {
    sizes.push_back(f.size_bytes);
    s.bytes += f.size_bytes;
    if (f.size_bytes == 0) ++s.empty_files;
    if (f.size_bytes > kMiB) over_1mib += f.size_bytes;
    depth_sum += f.depth;
    s.max_depth = std::max(s.max_depth, f.depth);
  }
  std::sort(sizes.begin(), sizes.end());
  s.median_bytes = Quantile(sizes, 0.5);
  s.p90_bytes = Quantile(sizes, 0.9);
  s.p99_bytes = Quantile(sizes, 0.99);
  s.max_bytes = sizes.empty() ? 0 : static_cast<double>(sizes.back());
  if (!files.empty()) {
    s.mean_bytes = static_cast<double>(s.bytes) / static_cast<double>(files.size());
    s.mean_file_depth = static_cast<double>(depth_sum) / static_cast<double>(files.size());
  }
  s.share_over_1mib = s.bytes ? static_cast<double>(over_1mib) / static_cast<double>(s.bytes) : 0;
  s.files_per_dir = static_cast<double>(files.size()) / static_cast<double>(dirs + 1);
  uint64_t dir_depth_sum = 0;
  for (const TreeDir& d : dir_list) {
    dir_depth_sum += d.depth;
    s.max_depth = std::max(s.max_depth, d.depth);
  }
  if (!dir_list.empty()) s.mean_dir_depth = static_cast<double>(dir_depth_sum) / static_cast<double>(dir_list.size());
  return s;
}

Result<TreePlan> GenerateTree(const TreeParams& p) {
  if (p.files == 0) return Status::BadInput("a tree needs at least one file");
  if (p.files > kMaxTreeFiles)
    return Status::BadInput("a tree of more than " + std::to_string(kMaxTreeFiles) + " files");
  uint64_t empty_files = 0, tail_files = 0;
  std::vector<SizeDraw> draws = DrawSizes(p, empty_files, tail_files);
  const uint64_t non_empty = p.files - empty_files;
  if (p.target_bytes < non_empty)
    return Status::BadInput("a tree of " + std::to_string(p.target_bytes) + " bytes cannot hold " +
                            std::to_string(non_empty) + " non-empty files");
  const double mu = FitMu(draws, p);
  std::vector<uint64_t> sizes(p.files);
  for (uint64_t i = 0; i < p.files; ++i) sizes[i] = SizeAt(draws[i], mu, p);
  const uint64_t total = std::accumulate(sizes.begin(), sizes.end(), uint64_t{0});
  const double target = static_cast<double>(p.target_bytes);
  if (std::fabs(static_cast<double>(total) - target) > target * 0.01)
    return Status::BadInput("cannot fit " + std::to_string(p.files) + " files to " + std::to_string(p.target_bytes) +
                            " bytes within 1 %");

  TreePlan plan;
  plan.params = p;
  const uint64_t dirs_with_root =
      std::max<uint64_t>(1, static_cast<uint64_t>(std::llround(static_cast<double>(p.files) / p.files_per_dir)));
  plan.dirs = MakeDirs(p, dirs_with_root - 1);
  const std::vector<uint64_t> where = PlaceFiles(p, dirs_with_root);

  plan.files.resize(p.files);
  for (uint64_t i = 0; i < p.files; ++i) {
    TreeFile& f = plan.files[i];
    const std::string name = Numbered("file", i, ".dat");
    f.path = where[i] == 0 ? name : plan.dirs[where[i] - 1].path + "/" + name;
    f.depth = where[i] == 0 ? 0 : plan.dirs[where[i] - 1].depth;
  }
  // Larger files nearer the top: sizes largest first to files shallowest first, where
  // "shallow" is the depth plus noise, so the order is a tendency, not a rule.
  std::sort(sizes.begin(), sizes.end(), std::greater<>());
  Draws noise(p.seed, TreeStream::kOrder);
  std::vector<std::pair<double, uint64_t>> keys(p.files);
  for (uint64_t i = 0; i < p.files; ++i) keys[i] = {plan.files[i].depth + p.depth_noise * noise.Normal(), i};
  std::sort(keys.begin(), keys.end());
  for (uint64_t k = 0; k < p.files; ++k) plan.files[keys[k].second].size_bytes = sizes[k];

  plan.stats = TreeStatsOf(plan.files, plan.dirs.size(), plan.dirs);
  plan.stats.tail_files = tail_files;
  plan.stats.mu_fitted = mu;
  plan.stats.target_bytes = target;
  return plan;
}

std::string TreeDigest(const TreePlan& plan) {
  DatasetDigest digest;
  for (const TreeDir& d : plan.dirs) digest.AddDir(d.path);
  std::vector<std::byte> scratch(kMiB);
  for (uint64_t i = 0; i < plan.files.size(); ++i) {
    digest.AddFile(plan.files[i].path, plan.files[i].size_bytes);
    digest.UpdateGenerated(plan.params.seed, i, plan.files[i].size_bytes, scratch.data(), scratch.size());
  }
  return digest.Finish();
}

AppDataset DatasetOf(const TreePlan& plan, const std::string& digest) {
  AppDataset d;
  d.generator = kTreeGenerator;
  d.preset = plan.params.preset;
  d.scale = plan.params.scale;
  d.seed = plan.params.seed;
  d.files = plan.stats.files;
  d.dirs = plan.stats.dirs;
  d.bytes = plan.stats.bytes;
  d.median_bytes = plan.stats.median_bytes;
  d.mean_bytes = plan.stats.mean_bytes;
  d.p90_bytes = plan.stats.p90_bytes;
  d.p99_bytes = plan.stats.p99_bytes;
  d.share_over_1mib = plan.stats.share_over_1mib;
  d.digest = digest;
  return d;
}

}  // namespace nasperf
