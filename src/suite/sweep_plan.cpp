// PlanSweep and the sweep's vocabulary.
#include "suite/sweep_plan.h"

#include <algorithm>
#include <sstream>

#include <fmt/format.h>

#include "base/units.h"

namespace nasperf {
namespace {

std::vector<std::string> SplitList(const std::string& list) {
  std::vector<std::string> items;
  std::stringstream in(list);
  std::string item;
  while (std::getline(in, item, ',')) items.push_back(item);
  if (!list.empty() && list.back() == ',') items.push_back("");
  return items;
}

std::string SizeList(const std::vector<uint64_t>& sizes) {
  std::string out;
  for (uint64_t s : sizes) out += (out.empty() ? "" : ", ") + FormatSize(s);
  return out;
}

}  // namespace

const char* ToString(SweepTest test) {
  switch (test) {
    case SweepTest::kWrite: return "write";
    case SweepTest::kRewrite: return "rewrite";
    case SweepTest::kRead: return "read";
    case SweepTest::kReread: return "reread";
    case SweepTest::kRandRead: return "randread";
    case SweepTest::kRandWrite: return "randwrite";
  }
  return "?";
}

AccessPattern PatternOf(SweepTest test) {
  switch (test) {
    case SweepTest::kWrite:
    case SweepTest::kRewrite: return AccessPattern::kWrite;
    case SweepTest::kRead:
    case SweepTest::kReread: return AccessPattern::kRead;
    case SweepTest::kRandRead: return AccessPattern::kRandRead;
    case SweepTest::kRandWrite: return AccessPattern::kRandWrite;
  }
  return AccessPattern::kRead;
}

bool IsReadTest(SweepTest test) { return DoesReads(PatternOf(test)); }

Result<std::vector<SweepTest>> ParseSweepTests(const std::string& list) {
  std::vector<bool> wanted(std::size(kAllSweepTests), false);
  for (const std::string& name : SplitList(list)) {
    auto it = std::find_if(std::begin(kAllSweepTests), std::end(kAllSweepTests),
                           [&](SweepTest t) { return name == ToString(t); });
    if (it == std::end(kAllSweepTests))
      return Status::BadInput("--tests: '" + name +
                              "' is not a sweep test (write, rewrite, read, reread, randread, randwrite)");
    wanted[it - std::begin(kAllSweepTests)] = true;
  }
  std::vector<SweepTest> tests;
  for (size_t i = 0; i < wanted.size(); ++i)
    if (wanted[i]) tests.push_back(kAllSweepTests[i]);
  if (tests.empty()) return Status::BadInput("--tests: name at least one test");
  bool reread = std::find(tests.begin(), tests.end(), SweepTest::kReread) != tests.end();
  bool read = std::find(tests.begin(), tests.end(), SweepTest::kRead) != tests.end();
  if (reread && !read)
    return Status::BadInput("--tests: reread measures reading a file that was just read; add read");
  return tests;
}

Result<std::vector<uint64_t>> ParseRecordList(const std::string& list) {
  std::vector<uint64_t> records;
  for (const std::string& item : SplitList(list)) {
    Result<uint64_t> size = ParseSize(item);
    if (!size.ok() || size.value() == 0)
      return Status::BadInput("--record: '" + item + "' is not a record size (like 4k or 64k)");
    if (size.value() > (1ull << 30))
      return Status::BadInput("--record: " + FormatSize(size.value()) + " is larger than the 1 GiB limit");
    records.push_back(size.value());
  }
  if (records.empty()) return Status::BadInput("--record: give at least one record size");
  std::sort(records.begin(), records.end());
  records.erase(std::unique(records.begin(), records.end()), records.end());
  return records;
}

std::vector<uint64_t> DoublingSizes(uint64_t min_bytes, uint64_t max_bytes, bool include_max) {
  std::vector<uint64_t> sizes;
  for (uint64_t s = min_bytes; s <= max_bytes; s *= 2) {
    sizes.push_back(s);
    if (s > max_bytes / 2) break;  // the next doubling would pass max (or overflow)
  }
  if (include_max && (sizes.empty() || sizes.back() != max_bytes)) sizes.push_back(max_bytes);
  return sizes;
}

size_t SweepPlan::PointCount() const {
  size_t pairs = 0;
  for (uint64_t size : sizes)
    for (uint64_t record : records) pairs += Runs(size, record);
  return pairs * tests.size();
}

Result<SweepPlan> PlanSweep(const SweepPlanInput& in) {
  SweepPlan plan;
  plan.records = in.records;
  plan.tests = in.tests;
  if (in.min_bytes == 0) return Status::BadInput("--min: the smallest file must be at least 1 byte");
  const uint64_t usable = static_cast<uint64_t>(static_cast<double>(in.free_bytes) * kFreeSpaceShare);
  if (in.max_bytes) {
    plan.max_bytes = *in.max_bytes;
    if (plan.max_bytes < in.min_bytes)
      return Status::BadInput("--min " + FormatSize(in.min_bytes) + " is larger than --max " +
                              FormatSize(plan.max_bytes));
    if (plan.max_bytes > in.free_bytes)
      return Status::BadInput("--max: a " + FormatSize(plan.max_bytes) + " file does not fit: " + in.target +
                              " has " + FormatSize(in.free_bytes) + " free");
    plan.max_reason = "--max " + FormatSize(plan.max_bytes) + " as given";
    plan.sizes = DoublingSizes(in.min_bytes, plan.max_bytes, true);
  } else {
    const uint64_t twice_ram = 2 * in.cache_ram_bytes;
    plan.max_bytes = std::min(twice_ram, usable);
    if (plan.max_bytes < in.min_bytes)
      return Status::BadInput("--min: " + FormatSize(in.min_bytes) + " does not fit in the free space at " +
                              in.target + " (" + FormatSize(in.free_bytes) + ")");
    plan.sizes = DoublingSizes(in.min_bytes, plan.max_bytes, false);
    plan.max_bytes = plan.sizes.back();
    plan.max_reason = "--max " + FormatSize(plan.max_bytes) + " by default: ";
    plan.max_reason += twice_ram <= usable
                           ? "twice the " + FormatApproxSize(in.cache_ram_bytes) + " of RAM that can cache the file"
                           : "twice the RAM (" + FormatApproxSize(in.cache_ram_bytes) + ") capped by the free space at " +
                                 in.target + " (" + FormatSize(in.free_bytes) + ", of which a sweep uses at most " +
                                 fmt::format("{:.0f}", kFreeSpaceShare * 100) + " %)";
  }
  if (plan.max_bytes <= in.cache_ram_bytes)
    plan.notes.push_back("every file fits in the RAM that can cache it (" + FormatApproxSize(in.cache_ram_bytes) +
                         "): buffered points cannot show the uncached plateau; --direct or a larger --max would");

  std::vector<std::string> skipped, partial;
  for (uint64_t size : plan.sizes)
    for (uint64_t record : plan.records) {
      if (!plan.Runs(size, record)) skipped.push_back(FormatSize(size) + " with " + FormatSize(record));
      else if (size % record != 0) partial.push_back(FormatSize(size) + " with " + FormatSize(record));
    }
  if (plan.PointCount() == 0)
    return Status::BadInput("--record: every record is larger than every file (" + SizeList(plan.sizes) + ")");
  if (!skipped.empty()) {
    std::string list;
    for (const std::string& s : skipped) list += (list.empty() ? "" : "; ") + s;
    plan.notes.push_back("skipped (record larger than the file): " + list);
  }
  if (!partial.empty()) {
    std::string list;
    for (const std::string& s : partial) list += (list.empty() ? "" : "; ") + s;
    plan.notes.push_back("not a whole number of records, so only whole records are transferred: " + list);
  }
  return plan;
}

}  // namespace nasperf
