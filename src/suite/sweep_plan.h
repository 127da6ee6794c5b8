// What a sweep will run: file sizes, record sizes and tests, decided from the options,
// the RAM that can cache the data and the free space — before anything is written.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "nasperf/job.h"
#include "nasperf/status.h"

namespace nasperf {

// iozone's tests: write = a new file, rewrite = overwrite it, read = read it after its
// pages were dropped, reread = read it again at once, then random read and write.
enum class SweepTest { kWrite, kRewrite, kRead, kReread, kRandRead, kRandWrite };
inline constexpr SweepTest kAllSweepTests[] = {SweepTest::kWrite,  SweepTest::kRewrite,  SweepTest::kRead,
                                               SweepTest::kReread, SweepTest::kRandRead, SweepTest::kRandWrite};

const char* ToString(SweepTest test);
AccessPattern PatternOf(SweepTest test);
bool IsReadTest(SweepTest test);

// "write,read" -> those tests in the order they run (always kAllSweepTests' order).
Result<std::vector<SweepTest>> ParseSweepTests(const std::string& list);
// "4k,64k,1m" -> sizes, ascending, without repeats.
Result<std::vector<uint64_t>> ParseRecordList(const std::string& list);

struct SweepPlanInput {
  uint64_t min_bytes = 64 << 10;
  std::optional<uint64_t> max_bytes;  // nullopt: derive from the RAM and the free space
  std::vector<uint64_t> records = {64 << 10};
  std::vector<SweepTest> tests;
  uint64_t cache_ram_bytes = 0;  // client page cache + the NAS's RAM when known
  uint64_t free_bytes = 0;       // at the target, for one file at a time
  std::string target;            // for messages
};

struct SweepPlan {
  std::vector<uint64_t> sizes;    // file sizes, ascending
  std::vector<uint64_t> records;  // record sizes, ascending
  std::vector<SweepTest> tests;
  uint64_t max_bytes = 0;
  std::string max_reason;          // how --max was chosen, for the output
  std::vector<std::string> notes;  // skipped pairs, partial records, a sweep that cannot pass RAM
  // A (size, record) pair runs when the record fits in the file.
  bool Runs(uint64_t size, uint64_t record) const { return record <= size; }
  size_t PointCount() const;  // runs the sweep will make (per repeat)
};

// Free space a sweep leaves untouched: a full file system misbehaves, and others use it too.
inline constexpr double kFreeSpaceShare = 0.9;

// BadInput for min > max, a max beyond the free space, no runnable pair and the like.
Result<SweepPlan> PlanSweep(const SweepPlanInput& input);

// min, 2 min, 4 min ... up to max; max itself is added when the doubling misses it.
std::vector<uint64_t> DoublingSizes(uint64_t min_bytes, uint64_t max_bytes, bool include_max);

}  // namespace nasperf
