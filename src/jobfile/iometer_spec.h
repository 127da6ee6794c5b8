// Iometer configuration files (`run --iometer FILE.icf --spec NAME`): one access
// specification of the file's 'ACCESS SPECIFICATIONS section read into a one-job JobFile:
// its lines' transfer sizes and shares become a block-size mix, % reads the read mix,
// % random the random share, delay and burst the think time and burst, align the
// alignment; the outstanding I/Os of the first worker it is assigned to the queue depth.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "model/job_file.h"
#include "nasperf/status.h"

namespace nasperf {

// The names of the file's access specifications, in file order.
Result<std::vector<std::string>> IometerSpecNames(std::string_view text, const std::string& path);

// The access specification called `spec`. BadInput "PATH:LINE: ..." for a malformed
// section, a spec nasperf cannot run as written (a nonzero reply size; lines that differ
// in % random, delay, burst or alignment), and "PATH: no access specification 'X'; the
// file has 'A', 'B'" for an unknown name.
Result<JobFile> ParseIometerSpec(std::string_view text, const std::string& path, const std::string& spec);

}  // namespace nasperf
