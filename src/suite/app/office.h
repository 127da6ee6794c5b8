// The office workload (issue 18 item 6, NASPT's "office productivity"): N simulated users,
// each with a folder of small documents (20 KB-2 MB, log-uniform, seeded), staged
// untimed; then, for --time on the runner's Clock, each user in turn opens and reads a
// document, safe-saves one (a temp file written, fsynced, renamed over the original, as
// word processors save), and browses its folder, thinking between operations. Reports
// ops/s and each operation's latency (open, read, write, fsync, rename, list).
//
// One operation is outstanding at a time, as in NASPT's office trace replayed by one
// process: with think times far above operation times the users' operations rarely
// overlap anyway, and users interleave by their think time in order of who is due first,
// so a run on a fake clock is exactly reproducible.
#pragma once

#include <cstdint>
#include <vector>

#include "base/clock.h"
#include "core/app_fs.h"
#include "nasperf/app_result.h"
#include "nasperf/status.h"
#include "suite/app/op_timings.h"

namespace nasperf {

struct OfficeOptions {
  uint32_t users = 4;
  double time_s = 30;       // timed phase, on the Clock
  uint32_t think_ms = 500;  // each user's pause between its operations
  uint32_t docs_per_user = 20;
  uint64_t seed = 0;
  uint64_t min_bytes = 20'000;       // a letter
  uint64_t max_bytes = 2'000'000;    // a report with pictures
  size_t request_bytes = 64u << 10;  // an office application's read and write size
};

struct OfficePlan {
  OfficeOptions options;
  std::vector<std::vector<uint64_t>> sizes;  // [user][document]
  uint64_t total_bytes = 0;
};

// BadInput for users < 1, time <= 0, docs_per_user < 1; the sizes from the seed.
Result<OfficePlan> PlanOffice(const OfficeOptions& options);

// Checks there is room (5 % free left; a save needs a document's size more), then writes
// each user's folder "uNN/" of documents (untimed).
Status StageOffice(AppFileSystem& fs, const OfficePlan& plan);

// The timed loop until time_s on `clock` (or Ctrl-C: Interrupted, figures so far in *out).
// A file system that cannot sync (Sync says Unavailable: libsmbclient has no flush) is
// saved to without the fsync, and `notes` says so; any other Sync failure ends the run.
// `histograms`: the operations' times as histograms too (for the merge of mpirun's ranks).
Status RunOffice(AppFileSystem& fs, const OfficePlan& plan, Clock& clock, AppFigures* out,
                 std::vector<std::string>* notes = nullptr, OpHistograms* histograms = nullptr);

// Every user's files as they stand: for tests and the run's own check.
std::string OfficeDocName(uint32_t user, uint32_t doc);
std::string OfficeUserDir(uint32_t user);

}  // namespace nasperf
