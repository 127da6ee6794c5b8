// Tests for the tree generator: its size distribution against the model, the tree's shape,
// the fit to the target, determinism and scaling.
#include "workload/tree_model.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <set>

#include "workload/dataset_bytes.h"

namespace nasperf {
namespace {

constexpr uint64_t kTreeSeed = 20070213;  // fixed: the checks below are on one known sample
// The study's spread in ln(bytes); written here, not read from the parameters, so a changed
// default fails the distribution checks.
constexpr double kStudySigma = 2.457;

TreePlan Plan(const std::string& preset, double scale = 1, uint64_t seed = kTreeSeed) {
  auto params = TreePreset(preset, scale, seed);
  EXPECT_TRUE(params.ok()) << params.status().message();
  auto plan = GenerateTree(params.value());
  EXPECT_TRUE(plan.ok()) << plan.status().message();
  return plan.value();
}

double InverseNormal(double p) {  // bisection on the normal CDF: slow, exact enough
  double lo = -10, hi = 10;
  for (int i = 0; i < 200; ++i) {
    const double mid = (lo + hi) / 2;
    (0.5 * std::erfc(-mid / std::sqrt(2.0)) < p ? lo : hi) = mid;
  }
  return lo;
}

// The model's quantile q of all file sizes at the fitted mu: a share of files is empty, the
// tail lies above the body's 99.87th percentile, so below that the body alone decides.
double ModelQuantile(const TreePlan& plan, double q) {
  const double n = static_cast<double>(plan.stats.files);
  const double empty = static_cast<double>(plan.stats.empty_files) / n;
  const double body = 1 - empty - static_cast<double>(plan.stats.tail_files) / n;
  return std::exp(plan.stats.mu_fitted + kStudySigma * InverseNormal((q - empty) / body));
}

TEST(TreeModel, Win7SizesFollowTheLognormalModel) {
  // 73,836 files: a quantile's standard error in ln(bytes) is sigma * sqrt(q(1-q)/n) /
  // phi(z) — 0.011 at the median, 0.035 at p99. Tolerances are about four of those.
  const TreePlan plan = Plan("win7-system");
  const TreeStats& s = plan.stats;
  EXPECT_NEAR(std::log(s.median_bytes), std::log(ModelQuantile(plan, 0.5)), 0.05);
  EXPECT_NEAR(std::log(s.p90_bytes), std::log(ModelQuantile(plan, 0.9)), 0.08);
  EXPECT_NEAR(std::log(s.p99_bytes), std::log(ModelQuantile(plan, 0.99)), 0.15);
  // Fitting 13.2 GiB over 73,836 files (mean 192 kB, below the study's 268 kB) moves mu a
  // little down from 9.48, not far: the shape is the study's.
  EXPECT_LT(s.mu_fitted, 9.48);
  EXPECT_GT(s.mu_fitted, 8.5);
  // Median of the study's body is exp(9.48) ~ 13 kB; the fitted one stays of that order.
  EXPECT_GT(s.median_bytes, 3'000);
  EXPECT_LT(s.median_bytes, 20'000);
  EXPECT_GT(s.share_over_1mib, 0.3);  // most bytes sit in the few large files
  EXPECT_LT(s.share_over_1mib, 0.99);
}

TEST(TreeModel, Win7MatchesItsPresetCounts) {
  const TreeStats& s = Plan("win7-system").stats;
  EXPECT_EQ(s.files, 73'836u);
  EXPECT_NEAR(static_cast<double>(s.bytes), 13.2 * (1 << 30), 13.2 * (1 << 30) * 0.01);
  EXPECT_NEAR(s.mean_bytes, 13.2 * (1 << 30) / 73'836, 13.2 * (1 << 30) / 73'836 * 0.01);
}

TEST(TreeModel, EmptyShareIsOnePointSevenPercent) {
  const TreeStats& s = Plan("win7-system").stats;
  EXPECT_NEAR(static_cast<double>(s.empty_files) / static_cast<double>(s.files), 0.017, 0.0005);
  uint64_t zeros = 0;
  for (const TreeFile& f : Plan("win7-system").files) zeros += f.size_bytes == 0;
  EXPECT_EQ(zeros, s.empty_files);
}

TEST(TreeModel, TailHoldsTheVeryLargeFiles) {
  const TreePlan plan = Plan("win7-system");
  EXPECT_EQ(plan.stats.tail_files, 74u);  // 0.1 % of 73,836
  const double tail_start = std::exp(plan.stats.mu_fitted + 3 * plan.params.sigma);
  uint64_t above = 0;
  for (const TreeFile& f : plan.files) above += static_cast<double>(f.size_bytes) >= tail_start;
  // The tail's files plus the body's own share above its 99.87th percentile (~96 files).
  EXPECT_GE(above, plan.stats.tail_files);
  EXPECT_LT(above, plan.stats.tail_files + 200);
  EXPECT_GT(plan.stats.max_bytes, 10 * tail_start);
}

TEST(TreeModel, TenFilesPerDirectoryAndMeanDepthSeven) {
  for (const char* preset : {"win7-system", "media"}) {
    const TreeStats& s = Plan(preset).stats;
    EXPECT_NEAR(s.files_per_dir, 10.2, 0.05) << preset;
    EXPECT_NEAR(s.mean_file_depth, 7, 0.4) << preset;
    EXPECT_NEAR(s.mean_dir_depth, 7, 0.3) << preset;
    EXPECT_GT(s.max_depth, 12u) << preset;
  }
}

TEST(TreeModel, DirectoriesComeParentsFirstAndPathsAreUnique) {
  const TreePlan plan = Plan("small-files");
  std::set<std::string> made{""};
  for (const TreeDir& d : plan.dirs) {
    const auto slash = d.path.rfind('/');
    const std::string parent = slash == std::string::npos ? "" : d.path.substr(0, slash);
    EXPECT_TRUE(made.count(parent)) << d.path << " before its parent";
    EXPECT_EQ(d.depth, 1 + std::count(d.path.begin(), d.path.end(), '/')) << d.path;
    EXPECT_TRUE(made.insert(d.path).second) << d.path;
  }
  std::set<std::string> files;
  for (const TreeFile& f : plan.files) {
    const auto slash = f.path.rfind('/');
    EXPECT_TRUE(made.count(slash == std::string::npos ? "" : f.path.substr(0, slash))) << f.path;
    EXPECT_EQ(f.depth, std::count(f.path.begin(), f.path.end(), '/')) << f.path;
    EXPECT_TRUE(files.insert(f.path).second) << f.path;
    EXPECT_FALSE(made.count(f.path)) << f.path;
  }
}

TEST(TreeModel, LargerFilesSitNearerTheTop) {
  const TreePlan plan = Plan("win7-system");
  std::map<bool, std::pair<double, double>> sums;  // shallow? -> (bytes, files)
  for (const TreeFile& f : plan.files) {
    if (f.depth > 4 && f.depth < 9) continue;
    auto& s = sums[f.depth <= 4];
    s.first += static_cast<double>(f.size_bytes);
    s.second += 1;
  }
  const double shallow_mean = sums[true].first / sums[true].second;
  const double deep_mean = sums[false].first / sums[false].second;
  EXPECT_GT(shallow_mean, 3 * deep_mean);
}

TEST(TreeModel, EveryPresetAndScaleMeetsItsTotalWithinOnePercent) {
  for (const std::string& preset : TreePresetNames())
    for (double scale : {0.02, 0.1, 1.0}) {
      const TreePlan plan = Plan(preset, scale);
      EXPECT_NEAR(static_cast<double>(plan.stats.bytes), plan.stats.target_bytes, plan.stats.target_bytes * 0.01)
          << preset << " x" << scale;
    }
}

TEST(TreeModel, SameSeedSameTreeOtherSeedOtherTree) {
  const TreePlan a = Plan("small-files", 1, 7), b = Plan("small-files", 1, 7), c = Plan("small-files", 1, 8);
  ASSERT_EQ(a.files.size(), b.files.size());
  ASSERT_EQ(a.dirs.size(), b.dirs.size());
  for (size_t i = 0; i < a.dirs.size(); ++i) EXPECT_EQ(a.dirs[i].path, b.dirs[i].path);
  size_t same_sizes = 0;
  for (size_t i = 0; i < a.files.size(); ++i) {
    EXPECT_EQ(a.files[i].path, b.files[i].path);
    EXPECT_EQ(a.files[i].size_bytes, b.files[i].size_bytes);
    same_sizes += a.files[i].size_bytes == c.files[i].size_bytes;
  }
  EXPECT_LT(same_sizes, a.files.size() / 10);
  EXPECT_EQ(TreeDigest(a), TreeDigest(b));
  EXPECT_NE(TreeDigest(a), TreeDigest(c));
}

TEST(TreeModel, ScaleKeepsTheShape) {
  const TreePlan full = Plan("win7-system", 1), tenth = Plan("win7-system", 0.1);
  EXPECT_EQ(tenth.stats.files, 7'384u);
  EXPECT_NEAR(static_cast<double>(tenth.stats.bytes), 0.1 * static_cast<double>(full.stats.bytes),
              0.02 * 0.1 * static_cast<double>(full.stats.bytes));
  EXPECT_NEAR(tenth.stats.mu_fitted, full.stats.mu_fitted, 0.15);
  EXPECT_NEAR(std::log(tenth.stats.median_bytes), std::log(full.stats.median_bytes), 0.15);
  EXPECT_NEAR(tenth.stats.files_per_dir, full.stats.files_per_dir, 0.1);
  EXPECT_NEAR(tenth.stats.mean_file_depth, full.stats.mean_file_depth, 0.6);
  EXPECT_NEAR(static_cast<double>(tenth.stats.empty_files) / 7'384, 0.017, 0.001);
}

TEST(TreeModel, BadPresetsAndScalesAreRefused) {
  EXPECT_EQ(TreePreset("win8", 1, 1).status().kind(), ErrorKind::kBadInput);
  EXPECT_NE(TreePreset("win8", 1, 1).status().message().find("win8"), std::string::npos);
  for (double scale : {0.0, -1.0, double{NAN}, double{INFINITY}, 1e-9, 1e6})
    EXPECT_EQ(TreePreset("media", scale, 1).status().kind(), ErrorKind::kBadInput) << scale;
  TreeParams p;
  p.files = 100;
  p.target_bytes = 50;  // fewer bytes than non-empty files
  EXPECT_EQ(GenerateTree(p).status().kind(), ErrorKind::kBadInput);
}

TEST(TreeModel, DatasetRecordsWhatWasAchieved) {
  const TreePlan plan = Plan("small-files", 0.5, 99);
  const AppDataset d = DatasetOf(plan, "sha256:x");
  EXPECT_EQ(d.generator, "nasperf-tree 1");
  EXPECT_EQ(d.preset, "small-files");
  EXPECT_EQ(d.scale, 0.5);
  EXPECT_EQ(d.seed, 99u);
  EXPECT_EQ(d.files, plan.files.size());
  EXPECT_EQ(d.dirs, plan.dirs.size());
  uint64_t bytes = 0;
  for (const TreeFile& f : plan.files) bytes += f.size_bytes;
  EXPECT_EQ(d.bytes, bytes);
  EXPECT_EQ(d.median_bytes, plan.stats.median_bytes);
  EXPECT_EQ(d.digest, "sha256:x");
}

TEST(TreeModel, DigestCoversTheGeneratedContents) {
  // TreeDigest equals hashing the plan as a stager would, from FillDatasetBytes.
  const TreePlan plan = Plan("small-files", 0.01, 5);
  DatasetDigest digest;
  for (const TreeDir& d : plan.dirs) digest.AddDir(d.path);
  for (size_t i = 0; i < plan.files.size(); ++i) {
    std::vector<std::byte> content(plan.files[i].size_bytes);
    FillDatasetBytes(content.data(), content.size(), 5, i, 0);
    digest.AddFile(plan.files[i].path, content.size());
    digest.Update(content.data(), content.size());
  }
  EXPECT_EQ(TreeDigest(plan), digest.Finish());
}

}  // namespace
}  // namespace nasperf
