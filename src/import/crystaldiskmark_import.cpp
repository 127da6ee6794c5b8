// CrystalDiskMark text exports ("Save as text"), versions 5 to 8. One RunResult per test
// and direction, with MB/s (10^6 B/s), IOPS and mean latency (µs) exactly as printed.
//   CDM 7/8: "[Read]" / "[Write]" sections of "  SEQ    1MiB (Q=  8, T= 1):   545.113 MB/s
//            [    519.9 IOPS] < 15339.92 us>" (CDM 7 spells "Sequential" / "Random").
//   CDM 5/6: "  Random Read 4KiB (Q= 32,T= 1) :    33.730 MB/s [  8234.9 IOPS]".
#include <cctype>
#include <initializer_list>
#include <optional>
#include <string_view>

#include "base/units.h"
#include "import/import_util.h"

namespace nasperf::import_detail {
namespace {

constexpr const char* kExpectResult =
    "a result line like '  SEQ    1MiB (Q=  8, T= 1):   545.113 MB/s [    519.9 IOPS] < 15339.92 us>'";

// A cursor over one line, for the fixed shapes CrystalDiskMark prints. Hand-written, one
// pass: std::regex recursed once per character and a long footer line overflowed the stack.
struct Scan {
  std::string_view s;
  size_t i = 0;

  bool End() const { return i == s.size(); }
  static bool Space(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }
  static bool Digit(char c) { return c >= '0' && c <= '9'; }
  // \s*
  void Spaces() {
    while (i < s.size() && Space(s[i])) ++i;
  }
  // \s+
  bool SomeSpaces() {
    const size_t start = i;
    Spaces();
    return i > start;
  }
  bool Lit(std::string_view text) {
    if (s.substr(i, text.size()) != text) return false;
    i += text.size();
    return true;
  }
  // \d+
  bool Digits(std::string* out) {
    const size_t start = i;
    while (i < s.size() && Digit(s[i])) ++i;
    if (out) *out = std::string(s.substr(start, i - start));
    return i > start;
  }
  // \S+
  bool Token(std::string* out) {
    const size_t start = i;
    while (i < s.size() && !Space(s[i])) ++i;
    *out = std::string(s.substr(start, i - start));
    return i > start;
  }
  // One of `choices`, the first that matches.
  bool OneOf(std::initializer_list<std::string_view> choices, std::string* out) {
    for (std::string_view c : choices)
      if (Lit(c)) {
        *out = std::string(c);
        return true;
      }
    return false;
  }
  // \d+(\.\d+)? — a number as CrystalDiskMark prints sizes and percentages.
  bool Decimal(std::string* out) {
    const size_t start = i;
    if (!Digits(nullptr)) return false;
    const size_t whole_end = i;
    if (Lit(".") && !Digits(nullptr)) i = whole_end;
    if (out) *out = std::string(s.substr(start, i - start));
    return true;
  }
};

// "(x5)" anywhere in `value`: the number of runs.
std::string FindRuns(std::string_view value) {
  for (size_t at = value.find("(x"); at != std::string_view::npos; at = value.find("(x", at + 1)) {
    Scan c{value, at + 2};
    std::string n;
    if (c.Digits(&n) && c.Lit(")")) return n;
  }
  return "";
}

// "[Z: 42% (...)]" anywhere in `value`: what precedes the first ':' (within the brackets)
// that is followed by a percentage. A '[' that fails spares the scan of those after it up to
// the next ']': they would see the same colons. Linear.
std::string FindTarget(std::string_view value) {
  size_t open = value.find('[');
  while (open != std::string_view::npos) {
    size_t close = value.find(']', open + 1);
    size_t end = close == std::string_view::npos ? value.size() : close;
    for (size_t colon = value.find(':', open + 2); colon < end; colon = value.find(':', colon + 1)) {
      Scan c{value, colon + 1};
      c.Spaces();
      if (c.Decimal(nullptr) && c.Lit("%")) return std::string(value.substr(open + 1, colon - open - 1));
    }
    open = close == std::string_view::npos ? close : value.find('[', close + 1);
  }
  return "";
}

// "Measure 5 sec" anywhere in `value`: the seconds.
std::string FindMeasure(std::string_view value) {
  for (size_t at = value.find("Measure"); at != std::string_view::npos; at = value.find("Measure", at + 1)) {
    Scan c{value, at + 7};
    std::string n;
    if (c.SomeSpaces() && c.Digits(&n) && (c.Spaces(), c.Lit("sec"))) return n;
  }
  return "";
}

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
  Scan line{t};
  std::string key;
  if (!line.OneOf({"Profile", "Test", "Mode", "Time", "Date", "OS", "Comment"}, &key)) return false;
  line.Spaces();
  if (!line.Lit(":")) return false;
  std::string value = std::string(Trim(t.substr(line.i)));
  if (key == "Test") {
    facts->has_test_line = true;
    Scan size{value};
    std::string number, unit;
    if (size.Decimal(&number) && (size.Spaces(), size.OneOf({"GiB", "MiB", "KiB", "GB", "MB", "KB"}, &unit)))
      if (Result<uint64_t> bytes = ParseSize(number + unit); bytes.ok()) facts->size = bytes.value();
    if (std::string runs = FindRuns(value); !runs.empty()) facts->runs = runs;
    if (std::string target = FindTarget(value); !target.empty())
      facts->target = target.size() == 1 ? target + ":" : target;
    facts->notes.push_back("CrystalDiskMark test: " + value);
  } else if (key == "Time") {
    if (std::string measure = FindMeasure(value); !measure.empty()) ParsePlainDecimal(measure, &facts->measure_s);
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
// CDM 7/8: "  SEQ    1MiB (Q=  8, T= 1):   545.113 MB/s [    519.9 IOPS] < 15339.92 us>".
struct ModernLine {
  std::string kind, bs, unit, qd, threads, mb_per_s, iops, lat_us;
};
bool ParseModern(std::string_view line, ModernLine* m) {
  Scan c{line};
  c.Spaces();
  return c.OneOf({"SEQ", "RND", "Sequential", "Random"}, &m->kind) && c.SomeSpaces() && c.Digits(&m->bs) &&
         c.OneOf({"KiB", "MiB"}, &m->unit) && (c.Spaces(), c.Lit("(Q=")) && (c.Spaces(), c.Digits(&m->qd)) &&
         c.Lit(",") && (c.Spaces(), c.Lit("T=")) && (c.Spaces(), c.Digits(&m->threads)) && c.Lit(")") &&
         (c.Spaces(), c.Lit(":")) && (c.Spaces(), c.Token(&m->mb_per_s)) && c.SomeSpaces() && c.Lit("MB/s") &&
         (c.Spaces(), c.Lit("[")) && (c.Spaces(), c.Token(&m->iops)) && c.SomeSpaces() && c.Lit("IOPS") &&
         (c.Spaces(), c.Lit("]")) && (c.Spaces(), c.Lit("<")) && (c.Spaces(), c.Token(&m->lat_us)) &&
         c.SomeSpaces() && c.Lit("us") && (c.Spaces(), c.Lit(">")) && (c.Spaces(), c.End());
}

// CDM 5/6: "  Random Read 4KiB (Q= 32,T= 1) :    33.730 MB/s [  8234.9 IOPS]"; the block
// size, the queue depth and the IOPS are each optional.
struct ClassicLine {
  std::string kind, direction, bs, qd, threads, mb_per_s, iops;
  bool has_bs = false, has_qd = false, has_iops = false;
};
bool ParseClassic(std::string_view line, ClassicLine* m) {
  Scan c{line};
  c.Spaces();
  if (!c.OneOf({"Sequential", "Random"}, &m->kind) || !c.SomeSpaces() || !c.OneOf({"Read", "Write"}, &m->direction))
    return false;
  Scan bs = c;
  if (bs.SomeSpaces() && bs.Digits(&m->bs) && bs.Lit("KiB")) {
    m->has_bs = true;
    c = bs;
  }
  c.Spaces();
  if (!c.Lit("(")) return false;
  Scan qd = c;
  if (qd.Lit("Q=") && (qd.Spaces(), qd.Digits(&m->qd)) && qd.Lit(",")) {
    qd.Spaces();
    m->has_qd = true;
    c = qd;
  }
  if (!c.Lit("T=") || (c.Spaces(), !c.Digits(&m->threads)) || !c.Lit(")") || (c.Spaces(), !c.Lit(":")) ||
      (c.Spaces(), !c.Token(&m->mb_per_s)) || !c.SomeSpaces() || !c.Lit("MB/s"))
    return false;
  Scan iops = c;
  if ((iops.Spaces(), iops.Lit("[")) && (iops.Spaces(), iops.Token(&m->iops)) && iops.SomeSpaces() &&
      iops.Lit("IOPS") && (iops.Spaces(), iops.Lit("]"))) {
    m->has_iops = true;
    c = iops;
  }
  c.Spaces();
  return c.End();
}

// One result line, or nullopt when the line is not a result at all. `section` is the
// current [Read]/[Write] section ('r', 'w', 'm' for [Mix], 0 before any).
Result<std::optional<CdmResult>> ReadResultLine(const SourceText& src, size_t n, char section) {
  std::string_view line = src.lines[n - 1];
  CdmResult r;
  bool numbers_ok = true;
  ModernLine modern;
  ClassicLine classic;
  if (ParseModern(line, &modern)) {
    if (section == 0)
      return BadLine(src, n, "a result line outside a [Read] or [Write] section", "it under [Read] or [Write]");
    if (section == 'm') return std::optional<CdmResult>();  // [Mix]: handled by the caller's note
    r.write = section == 'w';
    r.random = modern.kind == "RND" || modern.kind == "Random";
    r.bs = BlockBytes(modern.bs, modern.unit);
    double iops = 0, lat_us = 0;
    numbers_ok = Count(modern.qd, &r.qd) && Count(modern.threads, &r.threads) && Figure(modern.mb_per_s, &r.mb_per_s) &&
                 Figure(modern.iops, &iops) && Figure(modern.lat_us, &lat_us);
    r.iops = iops;
    r.lat_us = lat_us;
  } else if (ParseClassic(line, &classic)) {
    r.write = classic.direction == "Write";
    r.random = classic.kind == "Random";
    // CrystalDiskMark 5/6 ran DiskSpd with -b128K for "Sequential (Q=..)", -b1M for "Sequential (T=1)".
    r.bs = r.random ? BlockBytes(classic.has_bs ? classic.bs : "4", "KiB") : (classic.has_qd ? 128u << 10 : 1u << 20);
    numbers_ok = (!classic.has_qd || Count(classic.qd, &r.qd)) && Count(classic.threads, &r.threads) &&
                 Figure(classic.mb_per_s, &r.mb_per_s);
    if (classic.has_iops) {
      double iops = 0;
      numbers_ok = numbers_ok && Figure(classic.iops, &iops);
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
  if (Status s = CheckLineLengths(src, "a CrystalDiskMark text export"); !s.ok()) return s;
  CdmFacts facts;
  std::vector<CdmResult> results;
  char section = 0;
  bool mix_skipped = false;
  for (size_t n = 1; n <= src.lines.size(); ++n) {
    std::string_view t = Trim(src.lines[n - 1]);
    if (facts.version.empty()) {  // "CrystalDiskMark 8.0.4 x64 (C) ..."
      Scan header{t};
      std::string part;
      if (header.Lit("CrystalDiskMark") && header.SomeSpaces() && header.Digits(&part)) {
        std::string version = part;
        for (Scan dot = header; dot.Lit(".") && dot.Digits(&part); header = dot) version += "." + part;
        facts.version = version;
        facts.header_line = n;
        continue;
      }
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
