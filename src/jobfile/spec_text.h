// The text of a job file another tool wrote (fio job file, Iometer .icf) as numbered lines,
// refused in one line when it is not text: a NUL or other control byte, or a line longer
// than the readers allow. Shared by fio_job_file and iometer_spec.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "nasperf/status.h"

namespace nasperf {

// fio's own limit on a job file's line (its man page: 8192 bytes); Iometer's lines are
// shorter still.
constexpr size_t kMaxSpecLineBytes = 8192;
// A job file or a configuration is kilobytes; the CLI reads at most this much of one.
constexpr size_t kMaxSpecFileBytes = size_t{1} << 20;

struct SpecLine {
  int number = 0;         // 1-based
  std::string_view text;  // without the line end (\n or \r\n); points into the parsed text
};

// Splits `text` into lines. BadInput "PATH:LINE: ..." for a byte that is not text (a
// control byte other than tab, or CR not before LF) or a line over kMaxSpecLineBytes.
// `what` names the format in the message ("a fio job file").
Result<std::vector<SpecLine>> SplitSpecLines(std::string_view text, const std::string& path, const char* what);

// Leading and trailing blanks (space, tab) removed.
std::string_view TrimBlanks(std::string_view text);

// "PATH:LINE: message", the one form of every reader's refusal.
Status SpecError(const std::string& path, int line, const std::string& message);

}  // namespace nasperf
