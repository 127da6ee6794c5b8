// RedactedCommandLine.
#include "cli/command_line.h"

#include <regex>
#include <string_view>

namespace nasperf {
namespace {

bool IsSecretOption(std::string_view arg) {
  for (std::string_view secret : {"--password", "--token", "--pass", "--secret"})
    if (arg == secret) return true;
  return false;
}

std::string RedactOne(const std::string& arg) {
  static const std::regex url_password(R"(^([a-zA-Z][a-zA-Z0-9+.-]*://[^/:@]*:)[^@/]*@)");
  static const std::regex inline_secret(R"(^((--)?(password|token|pass|secret)=).*$)", std::regex::icase);
  std::string out = std::regex_replace(arg, url_password, "$1***@");
  return std::regex_replace(out, inline_secret, "$1***");
}

std::string Quote(const std::string& arg) {
  if (!arg.empty() && arg.find_first_of(" \t'\"\\$`*?") == std::string::npos) return arg;
  std::string out = "'";
  for (char c : arg) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

}  // namespace

std::string RedactedCommandLine(int argc, const char* const* argv) {
  std::string out;
  bool hide_next = false;
  for (int i = 0; i < argc; ++i) {
    std::string arg = argv[i];
    std::string shown = hide_next ? "***" : RedactOne(arg);
    hide_next = IsSecretOption(arg);
    if (!out.empty()) out += ' ';
    out += Quote(shown);
  }
  return out;
}

}  // namespace nasperf
