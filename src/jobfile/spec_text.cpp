// SplitSpecLines and the readers' shared helpers; see spec_text.h.
#include "jobfile/spec_text.h"

#include <cstdio>

namespace nasperf {

std::string_view TrimBlanks(std::string_view text) {
  size_t begin = text.find_first_not_of(" \t");
  if (begin == std::string_view::npos) return {};
  size_t end = text.find_last_not_of(" \t");
  return text.substr(begin, end - begin + 1);
}

Status SpecError(const std::string& path, int line, const std::string& message) {
  return Status::BadInput(path + ":" + std::to_string(line) + ": " + message);
}

Result<std::vector<SpecLine>> SplitSpecLines(std::string_view text, const std::string& path, const char* what) {
  std::vector<SpecLine> lines;
  size_t start = 0;
  int number = 1;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);  // a file saved on Windows (Iometer's)
    if (line.size() > kMaxSpecLineBytes)
      return SpecError(path, number,
                       "line of " + std::to_string(line.size()) + " bytes, more than the " +
                           std::to_string(kMaxSpecLineBytes) + " a line may have");
    for (unsigned char c : line) {
      if ((c < 0x20 && c != '\t') || c == 0x7F) {
        char hex[8];
        std::snprintf(hex, sizeof hex, "0x%02x", c);
        return SpecError(path, number, std::string("byte ") + hex + " is not text: is this " + what + "?");
      }
    }
    lines.push_back({number, line});
    start = end + 1;
    ++number;
  }
  return lines;
}

}  // namespace nasperf
