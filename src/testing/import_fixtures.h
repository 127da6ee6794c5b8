// Helpers the importers' tests share: their fixtures sit in src/import/testdata.
#pragma once

#include <string>
#include <string_view>

#include "nasperf/result.h"
#include "testing/test_support.h"

namespace nasperf::testing {

// The path of a fixture in src/import/testdata.
inline std::string TestData(const std::string& name) { return TestDataFile(NASPERF_SOURCE_DIR "/src/import/", name); }

// Whether one of the run's notes contains `text`.
inline bool HasNote(const RunResult& run, std::string_view text) {
  for (const std::string& note : run.notes)
    if (note.find(text) != std::string::npos) return true;
  return false;
}

}  // namespace nasperf::testing
