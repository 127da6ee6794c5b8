// nasperf's own result document (`--json` output, `results export --json`) read back for
// `results import`, checked as strictly as another tool's file.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "nasperf/result.h"
#include "nasperf/status.h"

namespace nasperf {

// The runs of the nasperf document at `path` (a regular file of at most 256 MiB, nested at
// most 64 levels, every run checked by CheckImportedRun), with ids cleared for a new
// database. `named`: the user said --format nasperf, so any failure is this importer's
// BadInput; otherwise nullopt when the file is not nasperf's (let import/ say what it is).
// Never throws.
std::optional<Result<std::vector<RunResult>>> ImportNasperfDocument(const std::string& path, bool named);

}  // namespace nasperf
