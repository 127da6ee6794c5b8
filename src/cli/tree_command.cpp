// `nasperf tree gen`: parse, generate the plan, print what it is; with --to, write it to a
// workspace through AppFileSystem, read it back, and remove it.
#include "cli/tree_command.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <nlohmann/json.hpp>

#include "base/signals.h"
#include "base/units.h"
#include "cli/commands.h"
#include "cli/job_options.h"
#include "nasperf/version.h"
#include "proto/open_app_fs.h"
#include "suite/app/tree_write.h"
#include "workload/run_seed.h"
#include "workload/tree_model.h"

namespace nasperf {
namespace {

Result<uint64_t> ParseSeed(const std::string& text) {
  if (text.empty()) return NewRunSeed();
  const Status bad =
      Status::BadInput("--seed: '" + text + "' is not a whole number from 0 to " + std::to_string(kMaxSeed));
  if (text.find_first_not_of("0123456789") != std::string::npos || text.size() > 16) return bad;
  const uint64_t value = std::strtoull(text.c_str(), nullptr, 10);
  if (value > kMaxSeed) return bad;
  return value;
}

nlohmann::ordered_json PlanJson(const TreePlan& plan, const std::string& digest) {
  const TreeStats& s = plan.stats;
  nlohmann::ordered_json j;
  j["generator"] = kTreeGenerator;
  j["preset"] = plan.params.preset;
  j["scale"] = plan.params.scale;
  j["seed"] = plan.params.seed;
  j["files"] = s.files;
  j["dirs"] = s.dirs;
  j["bytes"] = s.bytes;
  j["target_bytes"] = plan.params.target_bytes;
  j["empty_files"] = s.empty_files;
  j["tail_files"] = s.tail_files;
  j["median_bytes"] = s.median_bytes;
  j["mean_bytes"] = s.mean_bytes;
  j["p90_bytes"] = s.p90_bytes;
  j["p99_bytes"] = s.p99_bytes;
  j["max_bytes"] = s.max_bytes;
  j["share_over_1mib"] = s.share_over_1mib;
  j["files_per_dir"] = s.files_per_dir;
  j["mean_file_depth"] = s.mean_file_depth;
  j["mean_dir_depth"] = s.mean_dir_depth;
  j["max_depth"] = s.max_depth;
  j["mu_fitted"] = s.mu_fitted;
  j["sigma"] = plan.params.sigma;
  if (!digest.empty()) j["digest"] = digest;
  return j;
}

std::string Approx(double bytes) { return FormatApproxSize(static_cast<uint64_t>(std::llround(bytes))); }

void PrintPlan(const TreePlan& plan, const std::string& digest) {
  const TreeStats& s = plan.stats;
  std::printf("tree %s x%g, seed %llu (%s)\n", plan.params.preset.c_str(), plan.params.scale,
              static_cast<unsigned long long>(plan.params.seed), kTreeGenerator);
  std::printf("  files       %llu (%llu empty, %llu from the Pareto tail)\n", static_cast<unsigned long long>(s.files),
              static_cast<unsigned long long>(s.empty_files), static_cast<unsigned long long>(s.tail_files));
  std::printf("  directories %llu below the root (%.2f files per directory, root included)\n",
              static_cast<unsigned long long>(s.dirs), s.files_per_dir);
  std::printf("  bytes       %llu (%s; target %llu, %+.2f %%)\n", static_cast<unsigned long long>(s.bytes),
              FormatApproxSize(s.bytes).c_str(), static_cast<unsigned long long>(plan.params.target_bytes),
              100 * (static_cast<double>(s.bytes) / s.target_bytes - 1));
  std::printf("  file sizes  median %.0f B, mean %.0f B, p90 %.0f B, p99 %.0f B, largest %s\n", s.median_bytes,
              s.mean_bytes, s.p90_bytes, s.p99_bytes, Approx(s.max_bytes).c_str());
  std::printf("  over 1 MiB  %.1f %% of the bytes\n", 100 * s.share_over_1mib);
  std::printf("  depth       files %.2f on average, directories %.2f, deepest %u\n", s.mean_file_depth,
              s.mean_dir_depth, s.max_depth);
  std::printf("  model       lognormal mu %.3f (fitted to the target), sigma %.3f ln(bytes)\n", s.mu_fitted,
              plan.params.sigma);
  if (!digest.empty()) std::printf("  digest      %s\n", digest.c_str());
}

// Writes the plan to a fresh workspace on `to`, reads it back, removes it. Returns the
// digest of what was written and read (they are equal, or this fails).
Result<std::string> WriteAndCheck(const TreeCommandOptions& o, const TreePlan& plan, std::string& where) {
  Result<TargetOptions> target_options = BuildTargetOptions(o.protocol, o.to);
  if (!target_options.ok()) return target_options.status();
  // Before the workspace exists: a Ctrl-C the moment it appears must still remove it.
  InstallInterruptHandler();  // Ctrl-C stops between requests; the workspace is removed on the way out
  // --keep leaves the workspace only when the tree was written and read back whole.
  target_options.value().keep_on_exit = o.keep;
  Result<std::unique_ptr<AppFileSystem>> opened = OpenAppFileSystem(o.to, target_options.value());
  if (!opened.ok()) return opened.status();
  AppFileSystem& fs = *opened.value();
  auto fail = [&](Status s) -> Result<std::string> {
    if (o.keep) (void)fs.RemoveWorkspace();
    return s;
  };
  where = fs.workspace() + "/" + plan.params.preset;
  Result<AppSpace> space = fs.Space();
  if (space.ok() && space.value().free_bytes < plan.stats.bytes)
    return fail(Status::BadInput("--to " + fs.description() + " has " + FormatApproxSize(space.value().free_bytes) +
                                 " free, too little for the tree's " + FormatApproxSize(plan.stats.bytes)));
  std::fprintf(stderr, "nasperf: writing the tree to %s\n", where.c_str());
  Result<TreeWriteResult> written = WriteTree(fs, plan, plan.params.preset);
  if (!written.ok()) return fail(written.status());
  Result<std::string> read = ReadBackTree(fs, plan, plan.params.preset);
  if (!read.ok()) return fail(read.status());
  if (read.value() != written.value().digest)
    return fail(Status::Io("read back " + where + ": digest " + read.value() + ", written " + written.value().digest));
  if (o.keep) return written.value().digest;
  Status removed = fs.RemoveWorkspace();
  if (!removed.ok()) return removed;
  return written.value().digest;
}

}  // namespace

CLI::App* AddTreeCommand(CLI::App& app, TreeCommandOptions& o) {
  CLI::App* tree = app.add_subcommand("tree", "realistic directory trees for the application workloads");
  tree->require_subcommand(1);
  CLI::App* gen = tree->add_subcommand(
      "gen",
      "a preset's tree and its statistics (a dry run); --to writes it to a workspace, reads it back, removes it");
  std::string presets;
  for (const std::string& name : TreePresetNames()) presets += (presets.empty() ? "" : " | ") + name;
  gen->add_option("--preset", o.preset, presets)->required();
  gen->add_option("--scale", o.scale, "files and bytes times F, the shape kept (default 1)");
  gen->add_option("--seed", o.seed, "the tree's seed: the same seed gives the same tree (default: a fresh one)");
  gen->add_option("--to", o.to, "DIR, smb://USER@HOST/SHARE/DIR or nfs://HOST/EXPORT/DIR: write, check, remove");
  gen->add_flag("--keep", o.keep,
                "--to: leave the tree there once read back (for cp, rsync or robocopy to copy; yours to remove)");
  gen->add_flag("--digest", o.digest, "a dry run also computes the digest of the contents (reads nothing)");
  gen->add_flag("--json", o.json, "JSON on stdout");
  AddProtocolOptions(*gen, o.protocol);
  return tree;
}

int TreeCommand(const TreeCommandOptions& o) {
  Result<double> scale = ParseScale(o.scale);
  if (!scale.ok()) return ReportFailure(scale.status());
  Result<uint64_t> seed = ParseSeed(o.seed);
  if (!seed.ok()) return ReportFailure(seed.status());
  Result<TreeParams> params = TreePreset(o.preset, scale.value(), seed.value());
  if (!params.ok()) return ReportFailure(params.status());
  Result<TreePlan> plan = GenerateTree(params.value());
  if (!plan.ok()) return ReportFailure(plan.status());

  std::string digest, where;
  if (o.keep && o.to.empty()) return ReportFailure(Status::BadInput("--keep needs --to (a dry run writes nothing)"));
  if (!o.to.empty()) {
    Result<std::string> written = WriteAndCheck(o, plan.value(), where);
    if (!written.ok()) return ReportFailure(written.status());
    digest = written.value();
  } else if (o.digest) {
    digest = TreeDigest(plan.value());
  }
  if (o.json) {
    nlohmann::ordered_json document;
    document["nasperf"]["version"] = NASPERF_VERSION;
    document["tree"] = PlanJson(plan.value(), digest);
    if (!o.to.empty())
      document["tree"]["written"] = {{"to", where}, {"read_back", "every byte as written"}, {"removed", !o.keep}};
    std::printf("%s\n", document.dump(2).c_str());
    return 0;
  }
  PrintPlan(plan.value(), digest);
  if (o.to.empty())
    std::printf("a plan only: nothing written (--to DIR writes it, reads it back and removes it)\n");
  else
    std::printf("wrote %llu files and %llu directories to %s, read every byte back as written, and %s\n",
                static_cast<unsigned long long>(plan.value().stats.files),
                static_cast<unsigned long long>(plan.value().stats.dirs), where.c_str(),
                o.keep ? "kept it (yours to remove: rm -r the .nasperf-* directory)" : "removed it");
  return 0;
}

}  // namespace nasperf
