// Helpers shared by unit tests: the toolbox's temp dirs and skip rule, and test data files.
#pragma once

#include <cstdlib>
#include <string>

#include "testing/skip.h"
#include "testing/temp_dir.h"

namespace nasperf::testing {

// The whole content of a file ("" when it cannot be read).
std::string ReadWholeFile(const std::string& path);
// A fixture beside a test source: TestDataFile(__FILE__, "x.json") -> "<dir of it>/testdata/x.json".
std::string TestDataFile(const std::string& source_file, const std::string& name);

}  // namespace nasperf::testing
