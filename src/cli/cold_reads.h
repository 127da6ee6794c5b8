// Reads after writes start cold: before each repeat of a buffered job that reads, the
// target's files are dropped from the page cache (as fio's invalidate=1 does), and what
// stayed cached is measured, so a cached read is never reported as a cold one.
#pragma once

#include <functional>
#include <string>

#include "nasperf/job.h"
#include "nasperf/result.h"
#include "target/target.h"

namespace nasperf {

class ColdReads {
 public:
  ColdReads(Target& target, bool system_wide) : target_(target), system_wide_(system_wide) {}
  // The runner's before_repeat hook for `job`; empty when the job needs no drop
  // (direct I/O, writes only, null:).
  std::function<Status(uint32_t)> HookFor(const JobSpec& job);
  // "page cache dropped before each repeat (...); at most 0.0 % stayed cached" after a
  // job whose hook ran; empty otherwise. Resets for the next job.
  std::string TakeNote();

 private:
  Target& target_;
  bool system_wide_;
  bool dropped_ = false;
  CacheDropReport worst_;
};

}  // namespace nasperf
