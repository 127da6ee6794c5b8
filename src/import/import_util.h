// Internals shared by the importers: the decoded file as lines, one-line BadInput messages,
// format guessing (for auto-detection and wrong-tool hints) and small strict parsers.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "nasperf/result.h"
#include "nasperf/status.h"

namespace nasperf::import_detail {

// A file's text as UTF-8 with '\n' line ends (CRLF and UTF-16 already undone).
struct SourceText {
  std::string path;  // as given: names the file in messages and in RunResult::source_file
  std::string text;
  std::vector<std::string_view> lines;  // views into text, without '\n'; lines[0] is line 1
  // Never empty when an importer runs: ImportFile refuses empty and blank files first.

  SourceText() = default;
  SourceText(const SourceText&) = delete;  // `lines` points into `text`
  SourceText& operator=(const SourceText&) = delete;
  void SetText(std::string decoded);
};

// Makes outside text safe for a one-line message: control bytes become '?', long text is
// cut with "...", and the result is put in single quotes.
std::string Quote(std::string_view text, size_t max_chars = 60);

// "<path>: line <n>: <problem>; expected <expected>" as BadInput.
Status BadLine(const SourceText& src, size_t line_no, const std::string& problem, const std::string& expected);
// "<path>: field <field>: <problem>; expected <expected>" as BadInput.
Status BadField(const SourceText& src, const std::string& field, const std::string& problem,
                const std::string& expected);
// "<path>: <problem>; expected <expected>" for problems of the whole file (cannot open).
Status BadFile(const std::string& path, const std::string& problem, const std::string& expected);

// Text reports have short lines (an iozone row is about 200 bytes); a longer one is not a
// report's, and refusing it up front keeps every later scan of a line cheap.
constexpr size_t kMaxTextLineBytes = 16 << 10;
// BadLine for the first line longer than kMaxTextLineBytes, else Ok.
Status CheckLineLengths(const SourceText& src, const std::string& expected);

enum class Guess { kUnknown, kFio, kIozone, kCrystalDiskMark };
// What the text most likely is, from markers each tool prints; kUnknown when none match.
Guess GuessFormat(const SourceText& src);
// "fio JSON", "an iozone report", "a CrystalDiskMark text export".
const char* Describe(Guess guess);
// "; this looks like <Describe(guess)>" when the guess differs from `expected`, else "".
std::string LooksLikeHint(const SourceText& src, Guess expected);

// Epoch seconds as ISO 8601 UTC: "2026-11-30T09:16:22Z".
std::string FormatUtc(int64_t epoch_seconds);

std::string_view Trim(std::string_view text);
bool StartsWith(std::string_view text, std::string_view prefix);
bool EqualsIgnoreCase(std::string_view a, std::string_view b);
bool ContainsIgnoreCase(std::string_view text, std::string_view needle);

// A whitespace-separated token and the column just past its last character (0-based),
// which is where right-aligned table values line up.
struct Token {
  std::string_view text;
  size_t end_col = 0;
};
std::vector<Token> Tokenize(std::string_view line);

// Strict parsers: the whole text must be the number (no sign, no spaces, no exponent).
bool ParseUnsigned(std::string_view text, uint64_t* value);
bool ParsePlainDecimal(std::string_view text, double* value);  // "545.113", "12"

// Importers: each reads an already decoded file. BadInput as described in import.h.
Result<std::vector<RunResult>> ImportFio(const SourceText& src);
Result<std::vector<RunResult>> ImportIozone(const SourceText& src);
Result<std::vector<RunResult>> ImportCrystalDiskMark(const SourceText& src);

}  // namespace nasperf::import_detail
