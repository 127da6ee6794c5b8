// GeneratedCopyTree: TreePlan's directories and files as a CopyTree.
#include "suite/app/app_tree.h"

#include "workload/tree_model.h"

namespace nasperf {

Result<CopyTree> GeneratedCopyTree(const std::string& preset, double scale, uint64_t seed) {
  Result<TreeParams> params = TreePreset(preset, scale, seed);
  if (!params.ok()) return Status::BadInput("dir-copy: " + params.status().message());
  Result<TreePlan> plan = GenerateTree(params.value());
  if (!plan.ok()) return Status::BadInput("dir-copy: " + plan.status().message());
  CopyTree tree;
  for (const TreeDir& d : plan.value().dirs) tree.dirs.push_back(d.path);
  // A fixed time in the past: the copies get it from SetTimes, as a restore keeps mtimes.
  constexpr int64_t kMTimeNs = 1'262'304'000'000'000'000;  // 2010-01-01T00:00:00Z
  for (size_t i = 0; i < plan.value().files.size(); ++i) {
    const TreeFile& f = plan.value().files[i];
    tree.files.push_back({f.path, f.size_bytes, i, kMTimeNs + static_cast<int64_t>(i)});
    tree.total_bytes += f.size_bytes;
  }
  // The digest costs a pass over every byte; the record says "" until one is computed.
  tree.dataset = DatasetOf(plan.value(), "");
  tree.generated = true;
  return tree;
}

}  // namespace nasperf
