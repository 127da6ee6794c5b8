// Naming what is stored: run ids ("12"), sweep ids ("s7"), diagnosis ids ("d3"), and the
// items a report or a listing groups runs into (a sweep, a quick suite, an import, a
// diagnosis, a single run).
#pragma once

#include <string>
#include <vector>

#include "nasperf/status.h"
#include "report/report_data.h"
#include "store/results_store.h"
#include "suite/sweep_summary.h"

namespace nasperf {

// "12" -> 12; BadInput naming the text otherwise.
Result<int64_t> ParseRunId(const std::string& text);

// "12" names run 12, "s7" names sweep 7 (every point of the sweep stored as invocation 7),
// "d3" diagnosis 3 (its steps are the runs tagged diagnosis=d3).
struct StoredId {
  bool sweep = false;
  int64_t id = 0;
  bool diagnosis = false;
};
Result<StoredId> ParseStoredId(const std::string& text);

// A sweep's summary and its points, oldest first; BadInput when there is no such sweep.
// A sweep killed before it stored its summary gets one rebuilt from its points.
struct StoredSweep {
  SweepSummary summary;
  std::vector<RunResult> points;
};
Result<StoredSweep> LoadSweep(ResultsStore& store, int64_t id, bool details);

// A diagnosis and its steps (the runs tagged diagnosis=dN), oldest first; BadInput
// "no diagnosis dN in DB" when there is none.
struct StoredDiagnosis {
  Diagnosis diagnosis;
  std::vector<RunResult> steps;
};
Result<StoredDiagnosis> LoadDiagnosisItem(ResultsStore& store, int64_t id, bool details);

// The items `ids` name, in that order (a run of a quick suite brings the suite, a step of a
// diagnosis the diagnosis).
Result<std::vector<ReportItem>> ItemsById(ResultsStore& store, const std::vector<StoredId>& ids);
// The items holding runs that match `filter`, oldest first; with `last` > 0 only the newest `last`.
Result<std::vector<ReportItem>> ItemsMatching(ResultsStore& store, const RunFilter& filter, size_t last);

}  // namespace nasperf
