// E2E test harness: runs nasperf (fork/execv, no shell) with captured output, and checks its output;
// temp dirs, loop devices, mounts and the skip rule come from the test toolbox (src/testing/).
#pragma once

#include <gtest/gtest.h>
#include <sys/types.h>

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "testing/loop_device.h"
#include "testing/process.h"
#include "testing/skip.h"
#include "testing/temp_dir.h"

namespace nasperf::e2e {

// The toolbox's process runner, temp dirs, loop devices and skip rule (src/testing/),
// under the names the end-to-end tests use.
using CliResult = testing::ProcessResult;
using testing::BackgroundProcess;
using testing::DirEntries;
using testing::InCi;
using testing::IsRoot;
using testing::RunProgram;
using testing::ScopedLoopDevice;
using testing::ScopedMount;
using testing::StartProgram;
using testing::TempDir;

// Path of the nasperf binary under test (the NASPERF_BINARY compile definition).
const char* NasperfBinary();

// RunProgram on the nasperf binary.
CliResult RunNasperf(const std::vector<std::string>& args, double timeout_s = 60, const std::string& cwd = "");

// "nasperf a b c", for failure messages.
std::string Join(const std::vector<std::string>& args);
bool Contains(const std::string& text, const std::string& needle);
// Runs nasperf, expects exit 0 and one JSON document on stdout; {} (and a failure) otherwise.
nlohmann::json NasperfJson(const std::vector<std::string>& args, double timeout_s = 60);

// Starts nasperf like RunNasperf but returns at once.
BackgroundProcess StartNasperf(const std::vector<std::string>& args);

// Names (not paths) of the `.nasperf-*` entries in `dir`, sorted.
std::vector<std::string> NasperfFiles(const std::string& dir);
// Waits until a `.nasperf-*` file in `dir` exists (and, when min_bytes > 0, has at least
// that many bytes); returns its name, or "" after `timeout_s`.
std::string WaitForNasperfFile(const std::string& dir, double timeout_s, uint64_t min_bytes = 0);

// The lines of `text` (split on '\n'), without a trailing empty line.
std::vector<std::string> Lines(const std::string& text);
// Writes `bytes` to `path` (created or truncated, mode 0644); reads a file whole ("" if missing).
bool WriteFileBytes(const std::string& path, const std::string& bytes);
std::string ReadFileBytes(const std::string& path);
// The row of `nasperf compare --json` output labelled `label`, or nullptr.
const nlohmann::json* FindRow(const nlohmann::json& compare, const std::string& label);
// Bytes available on the file system holding `path` (statvfs f_bavail * f_frsize).
uint64_t FreeBytesAt(const std::string& path);

// Whether O_DIRECT opens are refused in `dir` (tries to create a probe file).
bool RefusesODirect(const std::string& dir);

// Parses stdout as one JSON document; a gtest failure (not an exception) when it is not.
::testing::AssertionResult ParseJson(const std::string& text, nlohmann::json* doc);

// The DESIGN.md result document: {"nasperf": {"version": "X.Y.Z"}, "runs": [...]}, every
// run with the fields and types DESIGN.md lists (extra fields are allowed: fields are
// added, never renamed) and a "read"/"write" object only for a direction that did I/O.
::testing::AssertionResult HasDocumentShape(const nlohmann::json& doc);
::testing::AssertionResult HasRunShape(const nlohmann::json& run);
// The figures of one run agree with each other: bytes == ios * bs, MB/s == bytes /
// seconds / 1e6 and IOPS == ios / seconds within 0.1 %, 0 <= p50 <= p90 <= p99 <= p999
// <= max, mean <= max, CPU percentages >= 0; and, from figures counted apart, Little's
// law: IOPS x mean latency (the I/Os in flight) <= qd x threads.
::testing::AssertionResult HasConsistentFigures(const nlohmann::json& run);
// Bytes moved in both directions together.
uint64_t TotalBytes(const nlohmann::json& run);

// Every line of a command's stderr is a warning, a note or a progress line: "warning" or
// "note" at the start (after an optional "nasperf: "), or a line redrawn with '\r'.
::testing::AssertionResult OnlyWarningsOrProgress(const std::string& err);

// Runs `sql` on the SQLite file at `path` (created when `create`) and returns the first
// column of each row, one a line, or "error: ..." with what SQLite said. Waits up to 10 s
// for a lock.
std::string SqliteQuery(const std::string& path, const std::string& sql, bool create);

}  // namespace nasperf::e2e

// The end-to-end tests' name for the toolbox's skip rule (testing/skip.h).
#define NASPERF_SKIP_OR_FAIL(reason) NASPERF_SKIP_OR_FAIL_IN_CI(reason)
