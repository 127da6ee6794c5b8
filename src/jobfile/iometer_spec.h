// Iometer configuration files (`run --iometer FILE.icf --spec NAME`): one access
// specification of the file's 'ACCESS SPECIFICATIONS section read into a one-job JobFile:
// its lines' transfer sizes and shares become a block-size mix, % reads the read mix,
// % random the random share, delay and burst the think time and burst (a closed loop),
// align the alignment (0: the sector's, 512 B). As Iometer runs it: unbuffered (O_DIRECT),
// and every worker the spec is assigned to a thread with its own outstanding I/Os, the
// workers of one depth sharing one file; workers of different depths become one job per
// depth in one group. What differs from Iometer is a note of the job (FileJob::notes).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "model/job_file.h"
#include "nasperf/status.h"

namespace nasperf {

// The names of the file's access specifications, in file order.
Result<std::vector<std::string>> IometerSpecNames(std::string_view text, const std::string& path);

// The access specification called `spec`: one job, or one per queue depth. BadInput "PATH:LINE: ..." for a malformed
// section, a spec nasperf cannot run as written (a nonzero reply size; lines that differ
// in % random, delay, burst or alignment), and "PATH: no access specification 'X'; the
// file has 'A', 'B'" for an unknown name.
Result<JobFile> ParseIometerSpec(std::string_view text, const std::string& path, const std::string& spec);

}  // namespace nasperf
