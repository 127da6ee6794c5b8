// nasperf's own job file (`run --job FILE`, TOML) read into a JobFile: [global] holds the
// defaults, every other table is one job named by its header; keys are run's options
// without the dashes. Bad input is one BadInput line "FILE:LINE: ...".
#pragma once

#include <string>
#include <string_view>

#include "model/job_file.h"
#include "nasperf/status.h"

namespace nasperf {

// The key that puts a job in a group rather than naming an option of run.
inline constexpr const char* kJobGroupKey = "group";

// `text` is the file's content, `path` only names it in messages. Jobs come in file order,
// each with [global]'s settings first, then its own. Values become text as typed after the
// option: strings as they are, integers and floats in decimal, booleans "true"/"false".
// Refused: non-ASCII bytes (toml++ 3.3.0 reaches undefined behaviour on some; strings may
// spell them as \uXXXX escapes), TOML syntax errors, keys outside a table, values that are
// arrays or tables (a job is one level deep), and an empty group name.
Result<JobFile> ReadTomlJobFile(std::string_view text, const std::string& path);

}  // namespace nasperf
