// Helpers shared by the importers; see import_util.h.
#include "import/import_util.h"

#include <cctype>
#include <charconv>
#include <ctime>

namespace nasperf::import_detail {

void SourceText::SetText(std::string decoded) {
  text = std::move(decoded);
  lines.clear();
  std::string_view all(text);
  size_t start = 0;
  while (start < all.size()) {
    size_t end = all.find('\n', start);
    if (end == std::string_view::npos) end = all.size();
    lines.push_back(all.substr(start, end - start));
    start = end + 1;
  }
}

std::string Quote(std::string_view text, size_t max_chars) {
  std::string out = "'";
  size_t n = text.size() <= max_chars ? text.size() : max_chars;
  // Never cut inside a UTF-8 sequence: back up over continuation bytes.
  while (n < text.size() && n > 0 && (static_cast<unsigned char>(text[n]) & 0xC0) == 0x80) --n;
  for (size_t i = 0; i < n; ++i) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    out += (c < 0x20 || c == 0x7F) ? '?' : static_cast<char>(c);
  }
  if (n < text.size()) out += "...";
  return out + "'";
}

namespace {

// The path goes into a one-line message, so a newline in a file name must not break it.
std::string SafePath(const std::string& path) {
  std::string out;
  for (unsigned char c : path) out += (c < 0x20 || c == 0x7F) ? '?' : static_cast<char>(c);
  return out;
}

bool IsCdmMarker(std::string_view line) {
  std::string_view t = Trim(line);
  if (StartsWith(t, "CrystalDiskMark ")) return true;
  return t.find("(Q=") != std::string_view::npos && t.find("MB/s") != std::string_view::npos;
}

bool IsIozoneMarker(std::string_view line) {
  std::string_view t = Trim(line);
  if (t.find("Iozone: Performance Test of File I/O") != std::string_view::npos) return true;
  if (StartsWith(t, "iozone test complete") || StartsWith(t, "Excel output is below")) return true;
  if (t.size() > 9 && t.front() == '"' && t.substr(t.size() - 8) == " report\"") return true;
  std::vector<Token> tokens = Tokenize(t);
  return tokens.size() >= 2 && EqualsIgnoreCase(tokens[0].text, "kB") && tokens[1].text == "reclen";
}

}  // namespace

Status BadLine(const SourceText& src, size_t line_no, const std::string& problem, const std::string& expected) {
  return Status::BadInput(SafePath(src.path) + ": line " + std::to_string(line_no) + ": " + problem + "; expected " +
                          expected);
}

Status BadField(const SourceText& src, const std::string& field, const std::string& problem,
                const std::string& expected) {
  return Status::BadInput(SafePath(src.path) + ": field " + field + ": " + problem + "; expected " + expected);
}

Status BadFile(const std::string& path, const std::string& problem, const std::string& expected) {
  return Status::BadInput(SafePath(path) + ": " + problem + "; expected " + expected);
}

Status CheckLineLengths(const SourceText& src, const std::string& expected) {
  for (size_t n = 0; n < src.lines.size(); ++n)
    if (src.lines[n].size() > kMaxTextLineBytes)
      return BadLine(src, n + 1,
                     "a line of " + std::to_string(src.lines[n].size()) + " bytes, longer than the " +
                         std::to_string(kMaxTextLineBytes >> 10) + " KiB any report line is (it begins " +
                         Quote(src.lines[n]) + ")",
                     expected);
  return Status::Ok();
}

Guess GuessFormat(const SourceText& src) {
  for (std::string_view line : src.lines) {
    std::string_view t = Trim(line);
    if (t.empty()) continue;
    if (t.front() == '{') return Guess::kFio;  // the only JSON format we read
    break;
  }
  for (std::string_view line : src.lines) {
    if (IsCdmMarker(line)) return Guess::kCrystalDiskMark;
    if (IsIozoneMarker(line)) return Guess::kIozone;
  }
  // fio sometimes prints notes ("note: both iodepth >= 1 and synchronous I/O engine ...")
  // on stdout ahead of the JSON document.
  for (size_t i = 0; i < src.lines.size() && i < 20; ++i)
    if (StartsWith(Trim(src.lines[i]), "{")) return Guess::kFio;
  return Guess::kUnknown;
}

const char* Describe(Guess guess) {
  switch (guess) {
    case Guess::kFio:
      return "fio JSON";
    case Guess::kIozone:
      return "an iozone report";
    case Guess::kCrystalDiskMark:
      return "a CrystalDiskMark text export";
    case Guess::kUnknown:
      break;
  }
  return "an unknown format";
}

std::string LooksLikeHint(const SourceText& src, Guess expected) {
  Guess guess = GuessFormat(src);
  if (guess == expected || guess == Guess::kUnknown) return "";
  return std::string("; this looks like ") + Describe(guess);
}

std::string FormatUtc(int64_t epoch_seconds) {
  std::time_t t = static_cast<std::time_t>(epoch_seconds);
  std::tm tm{};
  if (!gmtime_r(&t, &tm)) return "";
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

std::string_view Trim(std::string_view text) {
  size_t b = 0, e = text.size();
  while (b < e && std::isspace(static_cast<unsigned char>(text[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(text[e - 1]))) --e;
  return text.substr(b, e - b);
}

bool StartsWith(std::string_view text, std::string_view prefix) { return text.substr(0, prefix.size()) == prefix; }

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) return false;
  return true;
}

bool ContainsIgnoreCase(std::string_view text, std::string_view needle) {
  if (needle.size() > text.size()) return false;
  for (size_t i = 0; i + needle.size() <= text.size(); ++i)
    if (EqualsIgnoreCase(text.substr(i, needle.size()), needle)) return true;
  return false;
}

std::vector<Token> Tokenize(std::string_view line) {
  std::vector<Token> tokens;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && std::isspace(static_cast<unsigned char>(line[i]))) ++i;
    size_t start = i;
    while (i < line.size() && !std::isspace(static_cast<unsigned char>(line[i]))) ++i;
    if (i > start) tokens.push_back({line.substr(start, i - start), i});
  }
  return tokens;
}

bool ParseUnsigned(std::string_view text, uint64_t* value) {
  if (text.empty() || !std::isdigit(static_cast<unsigned char>(text[0]))) return false;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), *value);
  return ec == std::errc() && end == text.data() + text.size();
}

bool ParsePlainDecimal(std::string_view text, double* value) {
  // from_chars accepts exponents and "inf"; tool reports never print those, so reject them.
  bool digit = false, dot = false;
  for (char c : text) {
    if (std::isdigit(static_cast<unsigned char>(c))) {
      digit = true;
    } else if (c == '.' && !dot) {
      dot = true;
    } else {
      return false;
    }
  }
  if (!digit) return false;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), *value, std::chars_format::fixed);
  return ec == std::errc() && end == text.data() + text.size();
}

}  // namespace nasperf::import_detail
