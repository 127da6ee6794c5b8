// `quick` as a suite: CrystalDiskMark's default set (SEQ1M Q8T1, SEQ1M Q1T1, RND4K Q32T1,
// RND4K Q1T1, each read then write) on one test file, planned from the user's base job
// and run on a JobSite, each test one stored run. Its table is cli/report's.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "nasperf/job.h"
#include "nasperf/result.h"
#include "suite/job_site.h"
#include "suite/run_session.h"

namespace nasperf {

struct QuickTest {
  const char* label;
  bool random;
  uint64_t bs;
  uint32_t qd;
};

inline constexpr QuickTest kQuickTests[] = {
    {"SEQ1M Q8T1", false, 1 << 20, 8},
    {"SEQ1M Q1T1", false, 1 << 20, 1},
    {"RND4K Q32T1", true, 4096, 32},
    {"RND4K Q1T1", true, 4096, 1},
};

struct QuickPlan {
  std::vector<JobSpec> jobs;       // kQuickTests in order, each read then write
  bool direct = false;             // O_DIRECT where the file system supports it
  std::vector<std::string> notes;  // why not, when it does not
};

// Every job of the set from `base` (time_based off: one pass of the file per test),
// each validated and checked on the site's target; writes nothing. `hole_warning` gets
// the target's read-hole warning for the first read job (once), also when a later job
// fails its check.
Result<QuickPlan> PlanQuick(const JobSpec& base, JobSite& site, std::string* hole_warning);

struct QuickOutcome {
  std::vector<RunResult> results;  // in plan order; fewer when it stopped early
  Status status;
};

// Runs the plan's jobs in order through `session`, stopping at the first failure. `name`
// is --name (else each run is named after its test, "SEQ1M Q8T1 read").
QuickOutcome RunQuick(const QuickPlan& plan, RunSession& session, const std::string& name);

// The kQuickTests entry the plan's job `i` belongs to.
inline const QuickTest& QuickTestOf(size_t i) { return kQuickTests[i / 2]; }

}  // namespace nasperf
