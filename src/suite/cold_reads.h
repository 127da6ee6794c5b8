// Reads after writes start cold: in each repeat of a buffered job that reads, once the
// target's files are opened and laid out and just before the clock starts, they are
// dropped from the page cache (as fio's invalidate=1 does) and what stayed cached is
// measured with mincore, so a cached read is never reported as a cold one. Nothing
// measured is "not checked"; on tmpfs or ramfs the file is the cache and the run is cached.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "nasperf/job.h"
#include "nasperf/result.h"
#include "core/target.h"

namespace nasperf {

class ColdReads {
 public:
  ColdReads(Target& target, bool system_wide) : target_(target), system_wide_(system_wide) {}
  // The runner's before_clock hook for `job`; empty when the job needs no drop (direct
  // I/O, writes only, null:).
  std::function<Status()> HookFor(const JobSpec& job);
  // What the hook found, in the words the run's notes use: "page cache dropped ...;
  // mincore found at most 0.0 % of the 4 MiB still cached", "... not checked", or why
  // every read is cached. Empty when the hook did not run. Resets for the next job.
  std::string TakeNote();
  // TakeNote's note added to `run`, and run.cached set from the check: true on tmpfs or
  // ramfs and when 1 % or more stayed cached, false when the check found it cold;
  // untouched when nothing was checked.
  void AddTo(RunResult& run);

  // The drop itself, for a suite that decides when to drop (a sweep, before each repeat
  // of a read that follows a write): drops the target's files and records what stayed.
  Status Drop();
  // Drops that succeeded since construction, and the most any of them left cached (%).
  uint32_t drops() const { return drops_; }
  double max_resident_pct() const { return max_resident_pct_; }
  // Whether every read since construction started cold: dropped, and less than
  // kColdResidentPct of the file stayed cached.
  bool FoundCold() const { return drops_ > 0 && max_resident_pct_ < kColdResidentPct; }

  // Below this share of the file still resident after a drop, a read counts as cold.
  static constexpr double kColdResidentPct = 1.0;

 private:
  std::optional<bool> Cached() const;

  Target& target_;
  bool system_wide_;
  bool ran_ = false;
  bool all_checked_ = true;  // every drop measured something
  CacheDropReport worst_;
  uint32_t drops_ = 0;
  double max_resident_pct_ = 0;
};

}  // namespace nasperf
