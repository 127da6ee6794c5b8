// Import entry point: reads and decodes the file, rejects what is not text, picks the
// importer (given or detected) and stamps every run with its source.
#include "import/import.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <optional>

#include "import/bounded_read.h"
#include "import/import_util.h"
#include "import/run_checks.h"
#include "import/text_encoding.h"

namespace nasperf {

using import_detail::BadFile;
using import_detail::Guess;
using import_detail::SourceText;

namespace {

const char* Expected(ImportFormat format) {
  switch (format) {
    case ImportFormat::kFio:
      return "fio --output-format=json output";
    case ImportFormat::kIozone:
      return "an iozone -a report or its -R Excel section";
    case ImportFormat::kCrystalDiskMark:
      return "a CrystalDiskMark text export (its \"Save as text\")";
    case ImportFormat::kAuto:
      break;
  }
  return "fio JSON, an iozone report or a CrystalDiskMark text export";
}

Result<std::string> ReadAll(const std::string& path, ImportFormat format) {
  Result<std::string> bytes = ReadBoundedFile(path);
  if (!bytes.ok()) return BadFile(path, bytes.status().message(), Expected(format));
  return bytes;
}

void AppendUtf8(uint32_t cp, std::string* out) {
  if (cp < 0x80) {
    *out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    *out += static_cast<char>(0xC0 | (cp >> 6));
    *out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    *out += static_cast<char>(0xE0 | (cp >> 12));
    *out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    *out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    *out += static_cast<char>(0xF0 | (cp >> 18));
    *out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    *out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    *out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

std::string FromUtf16(std::string_view bytes, bool little_endian) {
  std::string out;
  auto unit = [&](size_t i) -> uint32_t {
    auto lo = static_cast<unsigned char>(bytes[little_endian ? i : i + 1]);
    auto hi = static_cast<unsigned char>(bytes[little_endian ? i + 1 : i]);
    return (hi << 8) | lo;
  };
  for (size_t i = 0; i + 1 < bytes.size(); i += 2) {
    uint32_t u = unit(i);
    if (u >= 0xD800 && u < 0xDC00 && i + 3 < bytes.size() && unit(i + 2) >= 0xDC00 && unit(i + 2) < 0xE000) {
      u = 0x10000 + ((u - 0xD800) << 10) + (unit(i + 2) - 0xDC00);
      i += 2;
    } else if (u >= 0xD800 && u < 0xE000) {
      u = 0xFFFD;  // an unpaired surrogate
    }
    AppendUtf8(u, &out);
  }
  return out;
}

// UTF-16 without a byte order mark: in ASCII-heavy text every other byte is zero.
int GuessUtf16(std::string_view bytes) {  // 1 = little endian, -1 = big endian, 0 = neither
  if (bytes.size() < 4 || bytes.size() % 2 != 0) return 0;
  size_t n = std::min<size_t>(bytes.size(), 4096) / 2 * 2, zero_even = 0, zero_odd = 0;
  for (size_t i = 0; i < n; ++i) {
    if (bytes[i] != 0) continue;
    if (i % 2)
      ++zero_odd;
    else
      ++zero_even;
  }
  size_t half = n / 2;
  if (zero_odd * 10 >= half * 9 && zero_even * 10 < half) return 1;
  if (zero_even * 10 >= half * 9 && zero_odd * 10 < half) return -1;
  return 0;
}

// Undoes byte order marks, UTF-16 and CRLF; refuses binary data. Notes say what was undone.
Status Decode(const std::string& path, ImportFormat format, std::string bytes, SourceText* src,
              std::vector<std::string>* notes) {
  std::string_view view(bytes);
  std::string text;
  if (view.substr(0, 3) == "\xEF\xBB\xBF") {
    text = std::string(view.substr(3));
  } else if (view.substr(0, 2) == "\xFF\xFE" || view.substr(0, 2) == "\xFE\xFF" || GuessUtf16(view) != 0) {
    bool has_bom = view.substr(0, 2) == "\xFF\xFE" || view.substr(0, 2) == "\xFE\xFF";
    bool little = has_bom ? view[0] == '\xFF' : GuessUtf16(view) == 1;
    text = FromUtf16(view.substr(has_bom ? 2 : 0), little);
    notes->push_back(std::string("decoded from UTF-16") + (little ? "LE" : "BE") +
                     " (CrystalDiskMark 7 saves its text exports that way)");
  } else {
    text = std::move(bytes);
  }
  std::string clean;
  clean.reserve(text.size());
  size_t line = 1;
  for (size_t i = 0; i < text.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    if (c == '\r') {  // CRLF and lone CR both end a line
      if (i + 1 < text.size() && text[i + 1] == '\n') continue;
      c = '\n';
    }
    bool control = (c < 0x20 && c != '\n' && c != '\t' && c != '\v' && c != '\f') || c == 0x7F;
    if (control) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "0x%02X", c);
      return BadFile(path, "line " + std::to_string(line) + ": binary data (byte " + hex + ")", Expected(format));
    }
    if (c == '\n') ++line;
    clean += static_cast<char>(c);
  }
  if (size_t bad = import_detail::InvalidUtf8At(clean); bad != std::string_view::npos) {
    // The Japanese CrystalDiskMark writes its Profile and Comment lines in Shift-JIS: that
    // is normal, decode it. Any other file is UTF-8 (or UTF-16) or it is refused here,
    // rather than stored and failing later.
    const bool cdm = format == ImportFormat::kCrystalDiskMark ||
                     (format == ImportFormat::kAuto && clean.find("CrystalDiskMark") != std::string::npos);
    std::optional<std::string> decoded = cdm ? import_detail::DecodeCp932(clean) : std::nullopt;
    if (!decoded) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "0x%02X", static_cast<unsigned char>(clean[bad]));
      const size_t bad_line = 1 + static_cast<size_t>(std::count(clean.begin(), clean.begin() + bad, '\n'));
      return BadFile(path,
                     "line " + std::to_string(bad_line) + ": not UTF-8 text (byte " + hex + ")" +
                         (cdm ? ", nor Shift-JIS" : "") + "; save it as UTF-8",
                     Expected(format));
    }
    clean = std::move(*decoded);
    notes->push_back("decoded from Shift-JIS (CP932), as the Japanese CrystalDiskMark saves it");
  }
  if (import_detail::Trim(clean).empty())
    return BadFile(path, clean.empty() ? "line 1: the file is empty" : "line 1: the file holds only white space",
                   Expected(format));
  src->path = path;
  src->SetText(std::move(clean));
  return Status::Ok();
}

Result<std::vector<RunResult>> ImportDecoded(const SourceText& src, ImportFormat format) {
  if (format == ImportFormat::kAuto) {
    switch (import_detail::GuessFormat(src)) {
      case Guess::kFio:
        format = ImportFormat::kFio;
        break;
      case Guess::kIozone:
        format = ImportFormat::kIozone;
        break;
      case Guess::kCrystalDiskMark:
        format = ImportFormat::kCrystalDiskMark;
        break;
      case Guess::kUnknown: {
        size_t first = 0;
        while (first + 1 < src.lines.size() && import_detail::Trim(src.lines[first]).empty()) ++first;
        return import_detail::BadLine(
            src, first + 1,
            "does not look like fio JSON, an iozone report or a CrystalDiskMark text export (it begins " +
                import_detail::Quote(import_detail::Trim(src.lines[first])) + ")",
            "the output of one of those tools");
      }
    }
  }
  switch (format) {
    case ImportFormat::kFio:
      return import_detail::ImportFio(src);
    case ImportFormat::kIozone:
      return import_detail::ImportIozone(src);
    default:
      return import_detail::ImportCrystalDiskMark(src);
  }
}

}  // namespace

Result<ImportFormat> ParseImportFormat(const std::string& text) {
  using import_detail::EqualsIgnoreCase;
  if (EqualsIgnoreCase(text, "auto")) return ImportFormat::kAuto;
  if (EqualsIgnoreCase(text, "fio")) return ImportFormat::kFio;
  if (EqualsIgnoreCase(text, "iozone")) return ImportFormat::kIozone;
  if (EqualsIgnoreCase(text, "cdm") || EqualsIgnoreCase(text, "crystaldiskmark")) return ImportFormat::kCrystalDiskMark;
  return Status::BadInput("import format " + import_detail::Quote(text) +
                          " is not one of auto, fio, iozone, cdm (or crystaldiskmark)");
}

Result<std::vector<RunResult>> ImportFile(const std::string& path, ImportFormat format) {
  try {
    Result<std::string> bytes = ReadAll(path, format);
    if (!bytes.ok()) return bytes.status();
    SourceText src;
    std::vector<std::string> decode_notes;
    Status decoded = Decode(path, format, std::move(bytes).value(), &src, &decode_notes);
    if (!decoded.ok()) return decoded;
    Result<std::vector<RunResult>> runs = ImportDecoded(src, format);
    if (!runs.ok()) return runs;
    for (size_t i = 0; i < runs.value().size(); ++i)
      if (Status s = CheckImportedRun(runs.value()[i]); !s.ok())
        return BadFile(path, "run " + std::to_string(i + 1) + " (" + import_detail::Quote(runs.value()[i].name) + "): " + s.message(),
                       Expected(format));
    for (RunResult& run : runs.value()) {
      run.source_file = path;
      run.notes.insert(run.notes.end(), decode_notes.begin(), decode_notes.end());
    }
    return runs;
  } catch (const std::exception& e) {
    // The importers check before they touch; this is the backstop for the rule "never throws".
    return BadFile(path, "could not be read (" + import_detail::Quote(e.what()) + ")", Expected(format));
  } catch (...) {
    return BadFile(path, "could not be read", Expected(format));
  }
}

}  // namespace nasperf
