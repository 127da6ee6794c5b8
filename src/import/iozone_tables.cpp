// Reads the cells of an iozone report: the -a table, whose values are right-aligned under
// the header (tests not run are blank), and the -R Excel blocks, whose rows list values
// left to right by record size (0 marks a cell iozone skipped).
#include <algorithm>
#include <array>
#include <cctype>

#include "import/iozone_import.h"

namespace nasperf::import_detail {
namespace {

// iozone prints this header for its table, whatever tests ran (CONTROL_STRING3).
constexpr std::array<const char*, 15> kHeader = {"kB",     "reclen", "write",    "rewrite", "read",
                                                 "reread", "read",   "write",    "read",    "rewrite",
                                                 "read",   "fwrite", "frewrite", "fread",   "freread"};
constexpr std::array<const char*, 13> kTableTests = {
    "write",          "rewrite",     "read",   "reread",   "random_read", "random_write", "backward_read",
    "record_rewrite", "stride_read", "fwrite", "frewrite", "fread",       "freread"};
constexpr const char* kExpectRow = "a row of file size (kB), record length (kB) and rates under the header";
// Table values sit at the header's right edges, give or take iozone's wider fields.
constexpr size_t kEdgeSlack = 2;

bool IsTableHeader(std::string_view line) {
  std::vector<Token> t = Tokenize(line);
  return t.size() >= 2 && EqualsIgnoreCase(t[0].text, "kB") && t[1].text == "reclen";
}

bool IsEndOfTable(std::string_view t) {
  return StartsWith(t, "iozone test complete") || StartsWith(t, "Excel output is below");
}

// A quoted unsigned number as the Excel section prints sizes: "4", "65536".
bool ParseQuoted(std::string_view text, uint64_t* value) {
  return text.size() >= 3 && text.front() == '"' && text.back() == '"' &&
         ParseUnsigned(text.substr(1, text.size() - 2), value);
}

// The report title of an Excel block ("Re-writer report") as a test name, "" to skip it.
std::string ExcelTest(std::string_view title) {
  static const std::array<std::pair<const char*, const char*>, 21> kNames = {{
      {"Writer", "write"},
      {"Re-writer", "rewrite"},
      {"Reader", "read"},
      {"Re-Reader", "reread"},
      {"Random read", "random_read"},
      {"Random write", "random_write"},
      {"Backward read", "backward_read"},
      {"Record rewrite", "record_rewrite"},
      {"Stride read", "stride_read"},
      {"Fwrite", "fwrite"},
      {"Re-Fwrite", "frewrite"},
      {"Fread", "fread"},
      {"Re-Fread", "freread"},
      {"Pwrite", "pwrite"},
      {"Re-Pwrite", "repwrite"},
      {"Pread", "pread"},
      {"Re-Pread", "repread"},
      {"Pwritev", "pwritev"},
      {"Re-Pwritev", "repwritev"},
      {"Preadv", "preadv"},
      {"Re-Preadv", "repreadv"},
  }};
  for (const auto& [report, test] : kNames)
    if (EqualsIgnoreCase(title, report)) return test;
  return "";
}

// The Excel blocks the command line asks for ("-i 0 -i 2": write, rewrite, random read and
// write; no -i: tests 0 to 7), so that a file cut between two blocks is noticed. Empty when
// there is no command line or its -i options are not plain.
std::vector<std::string> ExpectedExcelTests(const SourceText& src) {
  static const std::array<std::vector<const char*>, 8> kByOption = {{{"write", "rewrite"},
                                                                     {"read", "reread"},
                                                                     {"random_read", "random_write"},
                                                                     {"backward_read"},
                                                                     {"record_rewrite"},
                                                                     {"stride_read"},
                                                                     {"fwrite", "frewrite"},
                                                                     {"fread", "freread"}}};
  for (std::string_view line : src.lines) {
    std::string_view t = Trim(line);
    if (!StartsWith(t, "Command line used:")) continue;
    std::vector<Token> args = Tokenize(t.substr(18));
    std::vector<uint64_t> tests;
    for (size_t i = 0; i < args.size(); ++i) {
      std::string_view a = args[i].text;
      uint64_t n = 0;
      if (a == "-i" && i + 1 < args.size() && ParseUnsigned(args[i + 1].text, &n)) {
        tests.push_back(n);
        ++i;
      } else if (StartsWith(a, "-i") && ParseUnsigned(a.substr(2), &n)) {
        tests.push_back(n);
      } else if (a.size() > 2 && a[0] == '-' && a[1] != '+' && a.find('i') != std::string_view::npos) {
        return {};  // "-Rai0" and the like: not worth guessing
      }
    }
    if (tests.empty())
      for (uint64_t n = 0; n < kByOption.size(); ++n) tests.push_back(n);
    std::vector<std::string> expected;
    for (uint64_t n : tests)
      if (n < kByOption.size())
        for (const char* test : kByOption[n]) expected.push_back(test);
    return expected;
  }
  return {};
}

// The column of `header` whose right edge is within kEdgeSlack of where `value` ends,
// looking right of column `previous` only; 0 when there is none.
size_t ColumnUnder(const std::vector<Token>& header, size_t previous, const Token& value) {
  for (size_t c = previous + 1; c < header.size(); ++c) {
    size_t distance =
        value.end_col > header[c].end_col ? value.end_col - header[c].end_col : header[c].end_col - value.end_col;
    if (distance <= kEdgeSlack) return c;
  }
  return 0;
}

Status CheckTableHeader(const SourceText& src, size_t h, const std::vector<Token>& header) {
  bool standard = header.size() == kHeader.size();
  for (size_t i = 0; standard && i < header.size(); ++i) standard = EqualsIgnoreCase(header[i].text, kHeader[i]);
  if (!standard)
    return BadLine(src, h + 1, "unexpected table header " + Quote(Trim(src.lines[h])),
                   "iozone's 'kB reclen write rewrite read reread read write read rewrite read fwrite frewrite "
                   "fread freread'");
  return Status::Ok();
}

// Row `n` of the table: a file size, a record length, then the rates of the tests that ran.
Status ParseTableRow(const SourceText& src, size_t n, const std::vector<Token>& header, const std::string& header_at,
                     std::vector<IozonePoint>* points) {
  std::vector<Token> tokens = Tokenize(src.lines[n]);
  uint64_t file_kb = 0, rec_kb = 0;
  if (tokens.size() < 2 || !ParseUnsigned(tokens[0].text, &file_kb) || !ParseUnsigned(tokens[1].text, &rec_kb) ||
      rec_kb == 0)
    return BadLine(src, n + 1, "the row does not start with a file size and a record length", kExpectRow);
  size_t values = tokens.size() - 2;
  if (values > kTableTests.size())
    return BadLine(
        src, n + 1,
        std::to_string(tokens.size()) + " columns, but " + header_at + " has " + std::to_string(kHeader.size()),
        "at most " + std::to_string(kHeader.size()) + " columns");
  size_t previous = 1;
  for (size_t v = 2; v < tokens.size(); ++v) {
    size_t col = v;  // a full row lines up one to one
    if (values < kTableTests.size()) {
      // Tests that did not run are blank: place the value by where it ends.
      col = ColumnUnder(header, previous, tokens[v]);
      if (col == 0)
        return BadLine(src, n + 1,
                       "the value " + Quote(tokens[v].text) + " ends at column " + std::to_string(tokens[v].end_col) +
                           ", under no column of " + header_at,
                       "values right-aligned under the header's columns");
    }
    previous = col;
    const char* test = kTableTests[col - 2];
    double value = 0;
    if (!ParsePlainDecimal(tokens[v].text, &value))
      return BadLine(src, n + 1, std::string("column '") + test + "': " + Quote(tokens[v].text) + " is not a number",
                     "a rate");
    if (value > 0) points->push_back({test, file_kb, rec_kb, value});
  }
  return Status::Ok();
}

// When the -R Excel section follows the table, says why its figures were not read twice.
void NoteExcelRepeat(const SourceText& src, size_t h, std::vector<std::string>* notes) {
  for (size_t n = h; n < src.lines.size(); ++n)
    if (StartsWith(Trim(src.lines[n]), "Excel output is below")) {
      notes->push_back("read from the -a table; the -R Excel section repeats it and was not read again");
      break;
    }
}

// '"Writer report"': the title line of an Excel block.
bool IsReportTitle(std::string_view t) {
  return t.size() > 9 && t.front() == '"' && t.substr(t.size() - 8) == " report\"";
}

// Every report of a run covers the same file sizes, up to -g's maximum when it is printed
// ("Using maximum file size of 32768 kilobytes."): fewer rows mean a cut file. 0: not printed.
uint64_t MaxFileKb(const SourceText& src) {
  uint64_t max_file_kb = 0;
  for (std::string_view line : src.lines) {
    std::vector<Token> t = Tokenize(line);
    if (t.size() >= 7 && Trim(line).rfind("Using maximum file size of", 0) == 0) ParseUnsigned(t[5].text, &max_file_kb);
  }
  return max_file_kb;
}

// One "<title> report" block of the Excel section, as read.
struct ExcelBlock {
  std::string_view title;
  size_t header_line = 0;      // index of the row of record sizes
  std::vector<uint64_t> recs;  // the record sizes, kB
  size_t rows = 0;
  size_t end = 0;  // index of the line that ended the rows (src.lines.size() at the end of the file)
  uint64_t last_file_kb = 0;
};

// The row of quoted record sizes: the first line that is not blank after the title at `n`.
Status ReadRecordSizes(const SourceText& src, size_t n, ExcelBlock* block) {
  size_t hl = n + 1;
  while (hl < src.lines.size() && Trim(src.lines[hl]).empty()) ++hl;
  block->header_line = hl;
  std::vector<Token> head = hl < src.lines.size() ? Tokenize(src.lines[hl]) : std::vector<Token>{};
  block->recs = std::vector<uint64_t>(head.size());
  std::vector<uint64_t>& recs = block->recs;
  bool ok = !head.empty();
  for (size_t i = 0; ok && i < head.size(); ++i) ok = ParseQuoted(head[i].text, &recs[i]) && recs[i] > 0;
  if (!ok)
    return BadLine(src, std::min(hl, src.lines.size() - 1) + 1,
                   "the " + Quote(block->title) + " report has no row of record sizes",
                   "record sizes in kB, quoted: \"4\"  \"8\"  \"16\" ...");
  return Status::Ok();
}

// The rows under the record sizes, up to a blank line or the next report's title: a quoted
// file size, then one rate per record size.
Status ReadExcelRows(const SourceText& src, const std::string& test, ExcelBlock* block,
                     std::vector<IozonePoint>* points) {
  const std::vector<uint64_t>& recs = block->recs;
  size_t r = block->header_line + 1;
  for (; r < src.lines.size(); ++r) {
    std::string_view row = Trim(src.lines[r]);
    if (row.empty() || (row.size() > 9 && row.substr(row.size() - 8) == " report\"")) break;
    std::vector<Token> cells = Tokenize(row);
    uint64_t file_kb = 0;
    if (!ParseQuoted(cells[0].text, &file_kb))
      return BadLine(src, r + 1, "the row does not start with a quoted file size", "\"<file kB>\" followed by rates");
    if (cells.size() - 1 > recs.size())
      return BadLine(src, r + 1,
                     std::to_string(cells.size() - 1) + " values, but the header at line " +
                         std::to_string(block->header_line + 1) + " lists " + std::to_string(recs.size()) +
                         " record sizes",
                     "at most one value per record size");
    for (size_t c = 1; c < cells.size(); ++c) {
      double value = 0;
      if (!ParsePlainDecimal(cells[c].text, &value))
        return BadLine(src, r + 1, Quote(cells[c].text) + " is not a number", "a rate");
      if (value > 0) points->push_back({test, file_kb, recs[c - 1], value});
    }
    block->last_file_kb = file_kb;
    ++block->rows;
  }
  block->end = r;
  return Status::Ok();
}

// A block with fewer rows than the first one, or stopping short of -g's maximum, was cut.
Status CheckBlockLength(const SourceText& src, const ExcelBlock& block, size_t first_rows,
                        const std::string& first_title, uint64_t max_file_kb) {
  bool short_of_max = max_file_kb > 0 && block.last_file_kb < max_file_kb;
  if (block.rows != first_rows || short_of_max) {
    std::string problem = "the " + Quote(block.title) + " report " +
                          (short_of_max ? "stops at the " + std::to_string(block.last_file_kb) + " kB file, short of " +
                                              std::to_string(max_file_kb) + " kB"
                                        : "has " + std::to_string(block.rows) + " rows where " + Quote(first_title) +
                                              " has " + std::to_string(first_rows));
    if (block.end >= src.lines.size()) problem += " (truncated file?)";
    return BadLine(src, block.end >= src.lines.size() ? src.lines.size() : block.end, problem,
                   "every report over the same file sizes");
  }
  return Status::Ok();
}

// Every block the command line asks for is there (see ExpectedExcelTests).
Status CheckExpectedReports(const SourceText& src, const std::vector<std::string>& seen) {
  for (const std::string& test : ExpectedExcelTests(src))
    if (std::find(seen.begin(), seen.end(), test) == seen.end())
      return BadLine(src, src.lines.size(),
                     "no report of the " + test + " test that the command line asks for (truncated file?)",
                     "the whole -R Excel section");
  return Status::Ok();
}

// iozone ends every row with a line end; a file that stops inside a row was cut.
Status CheckLastRowEnded(const SourceText& src, size_t blocks) {
  std::string_view last = Trim(src.lines.back());
  if (blocks > 0 && src.text.back() != '\n' && !last.empty() && last.front() == '"' &&
      last.substr(last.size() > 8 ? last.size() - 8 : 0) != " report\"")
    return BadLine(src, src.lines.size(), "the last row ends without a line end (truncated file?)",
                   "the whole -R Excel section");
  return Status::Ok();
}

}  // namespace

Status ParseIozoneTable(const SourceText& src, std::vector<IozonePoint>* points, std::vector<std::string>* notes) {
  size_t h = 0;
  while (h < src.lines.size() && !IsTableHeader(src.lines[h])) ++h;
  if (h == src.lines.size()) return Status::Ok();
  std::vector<Token> header = Tokenize(src.lines[h]);
  if (Status s = CheckTableHeader(src, h, header); !s.ok()) return s;
  const std::string header_at = "the header at line " + std::to_string(h + 1);
  bool complete = false;
  size_t rows = 0;
  for (size_t n = h + 1; n < src.lines.size(); ++n) {
    std::string_view t = Trim(src.lines[n]);
    if (IsEndOfTable(t)) {
      complete = StartsWith(t, "iozone test complete");
      break;
    }
    // Blank lines and iozone's warnings ("The test completed too quickly ...") sit between rows.
    if (t.empty() || !std::isdigit(static_cast<unsigned char>(t[0]))) continue;
    if (Status s = ParseTableRow(src, n, header, header_at, points); !s.ok()) return s;
    ++rows;
  }
  if (rows == 0) return BadLine(src, h + 1, "no rows under the table header", kExpectRow);
  if (!complete)
    return BadLine(src, src.lines.size(), "the table ends without \"iozone test complete.\" (truncated file?)",
                   "the whole iozone -a output");
  NoteExcelRepeat(src, h, notes);
  return Status::Ok();
}

Status ParseIozoneExcel(const SourceText& src, std::vector<IozonePoint>* points, std::vector<std::string>* notes) {
  size_t first_rows = 0, blocks = 0;
  std::string first_title;
  std::vector<std::string> seen;
  const uint64_t max_file_kb = MaxFileKb(src);
  for (size_t n = 0; n < src.lines.size(); ++n) {
    std::string_view t = Trim(src.lines[n]);
    if (!IsReportTitle(t)) continue;
    ExcelBlock block;
    block.title = t.substr(1, t.size() - 9);
    std::string test = ExcelTest(block.title);
    seen.push_back(test);
    if (test.empty()) {
      // CPU utilization blocks hold percentages, not rates.
      if (block.title.find("CPU utilization") == std::string_view::npos)
        notes->push_back("iozone report " + Quote(block.title) + " is not a known test; not imported");
      continue;
    }
    if (Status s = ReadRecordSizes(src, n, &block); !s.ok()) return s;
    if (Status s = ReadExcelRows(src, test, &block, points); !s.ok()) return s;
    if (blocks++ == 0) {
      first_rows = block.rows;
      first_title = std::string(block.title);
    }
    if (Status s = CheckBlockLength(src, block, first_rows, first_title, max_file_kb); !s.ok()) return s;
  }
  if (blocks > 0)
    if (Status s = CheckExpectedReports(src, seen); !s.ok()) return s;
  return CheckLastRowEnded(src, blocks);
}

}  // namespace nasperf::import_detail
