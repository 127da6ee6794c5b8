// The telemetry tests' fixtures: captured /proc files in src/sysinfo/telemetry/testdata.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "testing/test_support.h"

namespace nasperf::testing {

// The text of a captured /proc file; a missing or empty fixture fails the test that asked.
inline std::string ProcFixture(const std::string& name) {
  std::string text = ReadWholeFile(TestDataFile(NASPERF_SOURCE_DIR "/src/sysinfo/telemetry/", name));
  EXPECT_FALSE(text.empty()) << name;
  return text;
}

}  // namespace nasperf::testing
