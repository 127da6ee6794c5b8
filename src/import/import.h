// Imports runs measured by other tools (fio JSON, iozone reports, CrystalDiskMark text
// exports) as RunResults, so that they sit on the same tables and charts as native runs.
#pragma once

#include <string>
#include <vector>

#include "nasperf/result.h"
#include "nasperf/status.h"

namespace nasperf {

enum class ImportFormat { kAuto, kFio, kIozone, kCrystalDiskMark };

// "auto", "fio", "iozone", "cdm" or "crystaldiskmark" (any case). BadInput otherwise.
Result<ImportFormat> ParseImportFormat(const std::string& text);

// Reads one file and returns one RunResult per measured job or point, with source_tool
// ("fio" | "iozone" | "crystaldiskmark") and source_file (`path` as given) set, figures
// exactly as the tool printed them converted to nasperf's units (MB/s = 10^6 B/s, µs),
// and a note for every figure that had to be derived or approximated.
// Anything it cannot read — missing, empty, binary, truncated, another tool's file —
// gives BadInput with one line naming the file, the line number or JSON field, and what
// was expected. Never throws. Thread-safe (no shared state).
Result<std::vector<RunResult>> ImportFile(const std::string& path, ImportFormat format);

}  // namespace nasperf
