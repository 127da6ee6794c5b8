// fio job files (`run --fio-job FILE`): the common subset of fio's INI job files read into
// a JobFile of `run` settings, converted exactly to nasperf's units; every other fio key
// is refused by name ("FILE:LINE: fio key 'verify' is not supported"), never guessed at.
#pragma once

#include <string>
#include <string_view>

#include "model/job_file.h"
#include "nasperf/status.h"

namespace nasperf {

// `text` is the file's content, `path` its name in messages. Sections: [global] (defaults
// for the jobs below it; there may be several) and one [name] per job. Jobs run at the
// same time unless `stonewall` starts a new group (groups "0", "1", ... as fio numbers
// them). BadInput "PATH:LINE: ..." naming the key for anything not understood.
Result<JobFile> ParseFioJobFile(std::string_view text, const std::string& path);

}  // namespace nasperf
