// Human-readable tables on stdout; every column states its unit.
#pragma once

#include <string>
#include <vector>

#include "nasperf/result.h"
#include "model/group_totals.h"

namespace nasperf {

// "protocol: NFSv3 to 198.18.0.2, export /bench (transport TCP, max read 1 MiB, ...)\n";
// empty for a run without protocol facts (local targets, imports, agents' runs).
std::string ProtocolLine(const RunResult& run);

// One run: a line per direction with MB/s, IOPS and latency percentiles.
std::string RunTable(const RunResult& run);

// --steady's outcome: "steady: reached at 12 s: ..." or "steady: not steady: ..."; empty
// when no rule was asked.
std::string SteadyLine(const RunResult& run);
// How a job's writes ended when the clock stopped (JobWriteFlush), in words: "flushed
// (fsync inside the clock)", "not flushed (page cache)", ...; "" when it wrote nothing.
std::string WriteFlushText(const RunResult& run);
// "writes: <WriteFlushText>\n", or "" (RunTable's line under the rows).
std::string WriteFlushLine(const RunResult& run);
// --steady's window as a row of RunTable ("steady window", or "last window" when it was
// not steady): the rule's one figure (MB/s or IOPS of read and write together), "-" in
// the columns it does not watch. Needs run.steady.
std::string SteadyWindowRow(const RunResult& run, int label_width);
// --repeat-until's outcome and the number of repeats it took; empty when not asked.
std::string RepeatUntilLine(const RunResult& run);

// A job file's group as one: "group all: 2 jobs (a, b) at the same time, 10.00 s window"
// and a line per direction (summed MB/s and IOPS, latency from the merged histograms).
std::string GroupTable(const GroupTotals& totals);

// What the writes carried (pattern, stamping, zstd ratio) and the run's seed; empty for
// an imported run without either.
std::string DataLine(const RunResult& run);

// "median of 3 repeats; 95 % CI ...; spread 2.1 %; each (MB/s): ..." or empty.
std::string RepeatsLine(const RunResult& run);

// CrystalDiskMark's layout: a row per test, read and write side by side; under the heading
// the ProtocolLine of the first run that has one.
// A row is labelled by what ran: the suite's test "SEQ1M Q8T1" on a synchronous engine
// shows as "SEQ1M Q1T1*", with a footnote naming the test and why.
struct QuickRow {
  std::string label;  // the suite's test, "SEQ1M Q8T1"
  const RunResult* read = nullptr;
  const RunResult* write = nullptr;
};
std::string QuickTable(const std::string& heading, const std::vector<QuickRow>& rows);

}  // namespace nasperf
