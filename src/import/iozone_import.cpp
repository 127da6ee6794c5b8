// iozone reports: the automatic-mode table (`iozone -a`: a row per file size × record
// size, a column per test) or, when that is absent, the -R "Excel output" section (a block
// per test, record sizes across, file sizes down). One RunResult per measured cell.
// Rates are KB/s with KB = 1024 bytes (iozone shifts bytes/s right by 10).
#include "import/iozone_import.h"

#include <fmt/format.h>

#include "base/units.h"

namespace nasperf::import_detail {
namespace {

// iozone's preamble: the unit of the figures and the conditions of the run.
IozoneHeader ReadHeader(const SourceText& src) {
  IozoneHeader h;
  for (std::string_view line : src.lines) {
    std::string_view t = Trim(line);
    if (StartsWith(t, "Output is in")) {
      h.unit_known = true;
      if (ContainsIgnoreCase(t, "microseconds"))
        h.unit = IozoneUnit::kUsPerOp;
      else if (ContainsIgnoreCase(t, "operations per second") || ContainsIgnoreCase(t, "ops/sec"))
        h.unit = IozoneUnit::kOpsPerSec;
      else
        h.unit = IozoneUnit::kKBps;
    } else if (StartsWith(t, "O_DIRECT feature enabled")) {
      h.direct = true;
    } else if (StartsWith(t, "Include fsync in write timing")) {
      h.fsync = true;
    } else if (StartsWith(t, "Command line used:")) {
      h.command_line = std::string(Trim(t.substr(18)));
    } else if (StartsWith(t, "Run began:")) {
      h.began = std::string(Trim(t.substr(10)));
    } else if (StartsWith(t, "Version $Revision:")) {
      std::string_view v = Trim(t.substr(18));  // "3.506 $"
      if (!v.empty() && v.back() == '$') v = Trim(v.substr(0, v.size() - 1));
      h.version = std::string(v);
    }
  }
  return h;
}

AccessPattern PatternOf(const std::string& test) {
  if (test == "random_read") return AccessPattern::kRandRead;
  if (test == "random_write") return AccessPattern::kRandWrite;
  return test.find("read") != std::string::npos ? AccessPattern::kRead : AccessPattern::kWrite;
}

RunResult MakeRun(const IozoneHeader& h, const IozonePoint& p) {
  RunResult run;
  run.source_tool = "iozone";
  run.test = p.test;
  run.name = "iozone " + p.test + " " + FormatSize(p.file_kb * 1024) + " " + FormatSize(p.rec_kb * 1024);
  run.command_line = h.command_line;
  JobSpec& job = run.job;
  job.rw = PatternOf(p.test);
  job.bs = p.rec_kb * 1024;
  job.size = p.file_kb * 1024;
  job.qd = 1;
  job.threads = 1;
  job.direct = h.direct;
  job.fsync = h.fsync && DoesWrites(job.rw);
  job.engine = "";  // iozone's own read()/write() loop, not a nasperf engine
  DirectionResult d;
  d.bytes = job.size / job.bs * job.bs;  // iozone moves whole records: one pass over the file
  d.ios = job.size / job.bs;
  double bytes_per_s = 0;
  switch (h.unit) {
    case IozoneUnit::kKBps:
      bytes_per_s = p.value * 1024;
      d.iops = bytes_per_s / static_cast<double>(job.bs);
      run.notes.push_back(
          fmt::format("iozone rate {} KB/s (KB = 1024 bytes); IOPS and seconds derived from it", p.value));
      break;
    case IozoneUnit::kOpsPerSec:
      d.iops = p.value;
      bytes_per_s = p.value * static_cast<double>(job.bs);
      run.notes.push_back("iozone -O rate in operations/s; MB/s and seconds derived from it");
      break;
    case IozoneUnit::kUsPerOp:
      d.lat.mean_us = p.value;
      d.iops = 1e6 / p.value;
      bytes_per_s = d.iops * static_cast<double>(job.bs);
      run.notes.push_back("iozone -N figure in microseconds per operation; MB/s, IOPS and seconds derived");
      break;
  }
  d.mb_per_s = bytes_per_s / 1e6;
  d.seconds = static_cast<double>(d.bytes) / bytes_per_s;
  if (!h.unit_known) run.notes.push_back("no \"Output is in\" line: iozone's default unit, KB/s, assumed");
  run.notes.push_back("bytes and I/Os are one pass over the file, as iozone does per test");
  if (p.test == "backward_read" || p.test == "stride_read")
    run.notes.push_back("iozone's " + p.test + " recorded as sequential read (no nasperf pattern for it)");
  if (!h.version.empty()) run.notes.push_back("measured by iozone " + h.version);
  if (!h.began.empty()) run.notes.push_back("iozone run began " + h.began + " (local time, zone not recorded)");
  (DoesReads(job.rw) ? run.read : run.write) = d;
  return run;
}

}  // namespace

Result<std::vector<RunResult>> ImportIozone(const SourceText& src) {
  if (Status s = CheckLineLengths(src, "an iozone -a report"); !s.ok()) return s;
  IozoneHeader header = ReadHeader(src);
  std::vector<IozonePoint> points;
  std::vector<std::string> notes;
  Status parsed = ParseIozoneTable(src, &points, &notes);
  if (parsed.ok() && points.empty()) parsed = ParseIozoneExcel(src, &points, &notes);
  if (!parsed.ok()) return parsed;
  if (points.empty()) {
    for (size_t i = 0; i < src.lines.size(); ++i)
      if (Trim(src.lines[i]).find("Children see throughput") != std::string_view::npos)
        return BadLine(src, i + 1, "iozone throughput-mode (-t) results are not supported",
                       "the iozone -a table or its -R Excel section");
    return BadLine(src, 1,
                   "no iozone table (\"kB  reclen   write ...\") and no Excel report (\"Writer report\") found" +
                       LooksLikeHint(src, Guess::kIozone),
                   "an iozone -a report or its -R Excel section");
  }
  std::vector<RunResult> runs;
  runs.reserve(points.size());
  for (const IozonePoint& p : points) {
    runs.push_back(MakeRun(header, p));
    runs.back().notes.insert(runs.back().notes.end(), notes.begin(), notes.end());
  }
  return runs;
}

}  // namespace nasperf::import_detail
