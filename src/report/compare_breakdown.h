// The parts of `results compare` beyond the totals: the per-rank breakdown of
// many-clients runs, the per-size rows of block-size mixes and the pacing facts of paced
// runs, each with one plain line when the columns cannot be lined up.
#pragma once

#include <vector>

#include "report/compare.h"

namespace nasperf {

// The sections for these columns, in the order ranks, per size, pacing; a section only
// when some column's run has its data. Each looks at a column's run when the column holds
// one run (a quick set is never a many-clients, mixed-size or paced run).
std::vector<CompareSection> CompareBreakdowns(const std::vector<CompareColumn>& columns);

// A paced run's latency is timed from each I/O's intended start, a closed loop's from its
// submit: in the latency rows, the cells of columns paced otherwise than the first keep
// their figure but lose their % and verdict (caveat "paced" / "closed loop"), and one note
// says why. Returns that note, empty when every column is paced alike.
std::string FlagPacedLatency(const std::vector<CompareColumn>& columns, std::vector<CompareRow>& rows);

}  // namespace nasperf
