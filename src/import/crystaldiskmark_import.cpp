// CrystalDiskMark text exports ("Save as text"), versions 5 to 8. One RunResult per test
// and direction, with MB/s (10^6 B/s), IOPS and mean latency (µs) exactly as printed.
//   CDM 7/8: "[Read]" / "[Write]" sections of "  SEQ    1MiB (Q=  8, T= 1):   545.113 MB/s
//            [    519.9 IOPS] < 15339.92 us>" (CDM 7 spells "Sequential" / "Random").
//   CDM 5/6: "  Random Read 4KiB (Q= 32,T= 1) :    33.730 MB/s [  8234.9 IOPS]".
#include <optional>
#include <regex>

#include "core/units.h"
#include "import/import_util.h"

namespace nasperf::import_detail {
namespace {

constexpr const char* kExpectResult =
    "a result line like '  SEQ    1MiB (Q=  8, T= 1):   545.113 MB/s [    519.9 IOPS] < 15339.92 us>'";

// The export's header and footer: what every test of the file shares.
struct CdmFacts {
  std::string version;  // "8.0.4"; empty for a pasted fragment without the header
  size_t header_line = 0;
  bool has_test_line = false;
  uint64_t size = 0;   // test file size
  std::string target;  // drive ("C:") or folder
  std::string runs;    // "5" from "(x5)"
  double measure_s = 0;
  std::vector<std::string> notes;
};

struct CdmResult {
  bool write = false;
  bool random = false;
  uint64_t bs = 0;
  uint32_t qd = 1, threads = 1;
  double mb_per_s = 0;
  std::optional<double> iops, lat_us;
  std::string label;  // "SEQ1M Q8T1"
};

// "4" "KiB" -> 4096; 0 (refused by the caller) for sizes no CrystalDiskMark offers.
uint64_t BlockBytes(const std::string& number, const std::string& unit) {
  uint64_t n = 0;
  if (!ParseUnsigned(number, &n) || n > (1u << 20)) return 0;
  return unit == "MiB" ? n << 20 : n << 10;
}

// Number fields as CrystalDiskMark prints them ("%9.3f"); false for anything else.
bool Figure(const std::string& text, double* value) { return ParsePlainDecimal(text, value); }

// Queue depths and thread counts; false beyond what any CrystalDiskMark setting offers.
bool Count(const std::string& text, uint32_t* value) {
  uint64_t n = 0;
  if (!ParseUnsigned(text, &n) || n == 0 || n > 65536) return false;
  *value = static_cast<uint32_t>(n);
  return true;
}

// The footer's "Key: value" lines (CDM 5/6 write "Key : value"); false for other lines.
bool ReadFooterLine(std::string_view t, CdmFacts* facts) {
  static const std::regex kKeyValue(R"(^(Profile|Test|Mode|Time|Date|OS|Comment)\s*:\s*(.*)$)");
  std::string line(t);
  std::smatch m;
  if (!std::regex_match(line, m, kKeyValue)) return false;
  std::string key = m[1], value = std::string(Trim(m[2].str()));
  if (key == "Test") {
    facts->has_test_line = true;
    std::smatch s;
    static const std::regex kSize(R"(^(\d+(?:\.\d+)?)\s*(GiB|MiB|KiB|GB|MB|KB))");
    if (std::regex_search(value, s, kSize))
      if (Result<uint64_t> size = ParseSize(s[1].str() + s[2].str()); size.ok()) facts->size = size.value();
    static const std::regex kRuns(R"(\(x(\d+)\))");
    if (std::regex_search(value, s, kRuns)) facts->runs = s[1];
    static const std::regex kTarget(R"(\[([^\]]+?):\s*\d+(?:\.\d+)?%)");
    if (std::regex_search(value, s, kTarget)) facts->target = s[1].length() == 1 ? s[1].str() + ":" : s[1].str();
    facts->notes.push_back("CrystalDiskMark test: " + value);
  } else if (key == "Time") {
    static const std::regex kMeasure(R"(Measure\s+(\d+)\s*sec)");
    std::smatch s;
    if (std::regex_search(value, s, kMeasure)) ParsePlainDecimal(s[1].str(), &facts->measure_s);
  } else if (key == "Date") {
    facts->notes.push_back("CrystalDiskMark date " + value + " (local time, zone not recorded)");
  } else if (key != "Mode" && !value.empty()) {
    std::string lower = key;
    for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    facts->notes.push_back(lower + ": " + value);
  }
  return true;
}

// One result line, or nullopt when the line is not a result at all. `section` is the
// current [Read]/[Write] section ('r', 'w', 'm' for [Mix], 0 before any).
Result<std::optional<CdmResult>> ReadResultLine(const SourceText& src, size_t n, char section) {
  static const std::regex kModern(
      R"(^\s*(SEQ|RND|Sequential|Random)\s+(\d+)(KiB|MiB)\s*\(Q=\s*(\d+),\s*T=\s*(\d+)\)\s*:\s*(\S+)\s+MB/s\s*\[\s*(\S+)\s+IOPS\s*\]\s*<\s*(\S+)\s+us\s*>\s*$)");
  static const std::regex kClassic(
      R"(^\s*(Sequential|Random)\s+(Read|Write)(?:\s+(\d+)(KiB))?\s*\((?:Q=\s*(\d+),\s*)?T=\s*(\d+)\)\s*:\s*(\S+)\s+MB/s(?:\s*\[\s*(\S+)\s+IOPS\s*\])?\s*$)");
  std::string line(src.lines[n - 1]);
  std::smatch m;
  CdmResult r;
  bool numbers_ok = true;
  if (std::regex_match(line, m, kModern)) {
    if (section == 0)
      return BadLine(src, n, "a result line outside a [Read] or [Write] section", "it under [Read] or [Write]");
    if (section == 'm') return std::optional<CdmResult>();  // [Mix]: handled by the caller's note
    r.write = section == 'w';
    r.random = m[1] == "RND" || m[1] == "Random";
    r.bs = BlockBytes(m[2], m[3]);
    double iops = 0, lat_us = 0;
    numbers_ok = Count(m[4], &r.qd) && Count(m[5], &r.threads) && Figure(m[6], &r.mb_per_s) && Figure(m[7], &iops) &&
                 Figure(m[8], &lat_us);
    r.iops = iops;
    r.lat_us = lat_us;
  } else if (std::regex_match(line, m, kClassic)) {
    r.write = m[2] == "Write";
    r.random = m[1] == "Random";
    // CrystalDiskMark 5/6 ran DiskSpd with -b128K for "Sequential (Q=..)", -b1M for "Sequential (T=1)".
    r.bs = r.random ? BlockBytes(m[3].matched ? m[3].str() : "4", "KiB") : (m[5].matched ? 128u << 10 : 1u << 20);
    numbers_ok = (!m[5].matched || Count(m[5], &r.qd)) && Count(m[6], &r.threads) && Figure(m[7], &r.mb_per_s);
    if (m[8].matched) {
      double iops = 0;
      numbers_ok = numbers_ok && Figure(m[8], &iops);
      r.iops = iops;
    }
  } else {
    std::string_view t = Trim(line);
    if (t.find("MB/s") == std::string_view::npos && t.find("(Q=") == std::string_view::npos)
      return std::optional<CdmResult>();
    return BadLine(src, n, "unreadable result line " + Quote(t), kExpectResult);
  }
  if (!numbers_ok || r.bs == 0 || r.bs > (1ull << 30))
    return BadLine(src, n, "a figure is not a plain number in " + Quote(Trim(line)), kExpectResult);
  r.label = SuiteTestLabel(r.random, r.bs, r.qd, r.threads);
  return std::optional<CdmResult>(r);
}

RunResult MakeRun(const CdmFacts& facts, const CdmResult& r) {
  RunResult run;
  run.source_tool = "crystaldiskmark";
  run.test = r.label;
  run.name = r.label + (r.write ? " write" : " read");
  run.target = facts.target;
  run.engine = "diskspd";  // CrystalDiskMark 5+ measures with Microsoft's DiskSpd
  JobSpec& job = run.job;
  job.rw = r.random ? (r.write ? AccessPattern::kRandWrite : AccessPattern::kRandRead)
                    : (r.write ? AccessPattern::kWrite : AccessPattern::kRead);
  job.bs = r.bs;
  job.qd = r.qd;
  job.threads = r.threads;
  job.size = facts.size ? facts.size : job.size;
  job.direct = true;  // DiskSpd -S: no OS cache
  job.engine = "diskspd";
  job.time_s = facts.measure_s;
  job.time_based = facts.measure_s > 0;
  DirectionResult d;
  d.mb_per_s = r.mb_per_s;
  if (r.iops) {
    d.iops = *r.iops;
  } else {
    d.iops = r.mb_per_s * 1e6 / static_cast<double>(r.bs);
    run.notes.push_back("IOPS derived from MB/s and the block size (this export prints no IOPS here)");
  }
  if (r.lat_us) d.lat.mean_us = *r.lat_us;
  run.notes.push_back(r.lat_us ? "CrystalDiskMark prints the mean latency only; percentiles and max are 0"
                               : "this export prints no latency; latency figures are 0");
  run.notes.push_back("CrystalDiskMark prints rates only: bytes, I/Os and seconds are 0");
  if (!facts.runs.empty())
    run.notes.push_back("the figure is the best of " + facts.runs + " runs (CrystalDiskMark keeps the maximum)");
  if (!facts.size) run.notes.push_back("test size not in the export; nasperf's default recorded");
  run.notes.push_back(facts.version.empty() ? "no CrystalDiskMark header: version unknown"
                                            : "measured by CrystalDiskMark " + facts.version);
  run.notes.insert(run.notes.end(), facts.notes.begin(), facts.notes.end());
  (r.write ? run.write : run.read) = d;
  return run;
}

}  // namespace

Result<std::vector<RunResult>> ImportCrystalDiskMark(const SourceText& src) {
  CdmFacts facts;
  std::vector<CdmResult> results;
  char section = 0;
  bool mix_skipped = false;
  static const std::regex kHeader(R"(^CrystalDiskMark\s+(\d+(?:\.\d+)*))");
  for (size_t n = 1; n <= src.lines.size(); ++n) {
    std::string_view t = Trim(src.lines[n - 1]);
    std::string line(t);
    std::smatch m;
    if (facts.version.empty() && std::regex_search(line, m, kHeader)) {
      facts.version = m[1];
      facts.header_line = n;
      continue;
    }
    if (StartsWith(t, "[Read]"))
      section = 'r';
    else if (StartsWith(t, "[Write]"))
      section = 'w';
    else if (StartsWith(t, "[Mix]"))
      section = 'm';
    // Section titles, the "* MB/s = 1,000,000 bytes/s" legend and "-----" rules.
    if (t.empty() || t.front() == '[' || t.front() == '*' || t.front() == '-') continue;
    if (ReadFooterLine(t, &facts)) continue;
    Result<std::optional<CdmResult>> r = ReadResultLine(src, n, section);
    if (!r.ok()) return r.status();
    if (r.value())
      results.push_back(*r.value());
    else if (section == 'm' && t.find("MB/s") != std::string_view::npos)
      mix_skipped = true;
  }
  if (results.empty())
    return BadLine(src, facts.header_line ? facts.header_line : 1,
                   "no CrystalDiskMark results found" + LooksLikeHint(src, Guess::kCrystalDiskMark), kExpectResult);
  if (facts.header_line && !facts.has_test_line)
    return BadLine(src, src.lines.size(), "the export ends before its \"Test:\" line (truncated file?)",
                   "a whole CrystalDiskMark text export");
  if (mix_skipped)
    facts.notes.push_back("the [Mix] section (one figure for reads and writes together) is not imported");
  std::vector<RunResult> runs;
  for (const CdmResult& r : results) runs.push_back(MakeRun(facts, r));
  return runs;
}

}  // namespace nasperf::import_detail
