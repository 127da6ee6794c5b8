// `nasperf app file-copy` (issue 18 item 1): files copied whole from one end to the other
// the way a copy tool does — one request at a time, 1 MiB each — timed from the first open
// to the last close with the flush inside; the source staged before the clock, untimed.
#pragma once

#include <string>
#include <vector>

#include "suite/app/app_run.h"
#include "suite/app/copy_loop.h"

namespace nasperf {

inline constexpr uint64_t kFileCopyDefaultBytes = uint64_t{4} << 30;  // one 4 GiB file

struct FileCopyPlan {
  std::string preset;  // "", "dvd-folder", "large"
  double scale = 1;
  std::vector<CopyFile> files;
  uint64_t total_bytes = 0;
};

// The files to copy: `preset` "dvd-folder" (38 files, 4,680,843,264 bytes: a DVD's
// VIDEO_TS, four 1 GiB VOBs, two shorter ones and 32 IFO/BUP files), "large" (one file of
// twice `client_ram_bytes`), or "" (one file of `size_bytes`); each size times `scale`
// (at least one byte). BadInput naming the fault: an unknown preset, scale <= 0, a size
// of 0, "large" with the client's RAM not known.
Result<FileCopyPlan> PlanFileCopy(const std::string& preset, uint64_t size_bytes, double scale,
                                  uint64_t client_ram_bytes);

// Checks, before anything is written, that the ends have room: the source for the staged
// files, the destination for the copy (Space()); BadInput "... too small ..." otherwise.
Status CheckFileCopySpace(const CopyEnds& ends, const FileCopyPlan& plan);

struct FileCopyOptions {
  uint64_t seed = 0;
  size_t request_bytes = kCopyRequestBytes;  // each read and write, one at a time (--request)
  CacheFacts cache;      // data_bytes and client_dropped are filled by the run
  std::string from, to;  // as named, for the figures
  // Flush each file before closing it (inside the clock); off: --no-flush. dir-copy's
  // reference file-copy follows dir-copy's own, so that the penalty compares like with like.
  bool sync = true;
  // Test hook, after the copy and before the files are removed (e2e tests corrupt here).
  std::function<void()> after_copy;
};

// Stages, drops the local caches, copies (timed, sampled), removes the copies and the
// staged files, and records it all as one run on `sink`.
AppRunOutcome RunFileCopy(const CopyEnds& ends, const FileCopyPlan& plan, const FileCopyOptions& options, RunSink& sink,
                          SuiteProgress& progress, const AppRunLabels& labels);

}  // namespace nasperf
