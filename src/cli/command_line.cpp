// RedactedCommandLine.
#include "cli/command_line.h"

#include <cctype>
#include <string_view>

namespace nasperf {
namespace {

bool IsSecretOption(std::string_view arg) {
  for (std::string_view secret : {"--password", "--token", "--pass", "--secret"})
    if (arg == secret) return true;
  return false;
}

bool IsAsciiLetter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool IsSchemeChar(char c) { return IsAsciiLetter(c) || (c >= '0' && c <= '9') || c == '+' || c == '.' || c == '-'; }

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) return false;
  return true;
}

// "scheme://user:password@..." -> "scheme://user:***@...". One pass over the argument:
// arguments are as long as the kernel allows, and a backtracking regex recursed once per
// character (a 50 KB argument overflowed the stack of every command).
std::string RedactUrlPassword(const std::string& arg) {
  if (arg.empty() || !IsAsciiLetter(arg[0])) return arg;
  size_t i = 1;
  while (i < arg.size() && IsSchemeChar(arg[i])) ++i;
  if (arg.compare(i, 3, "://") != 0) return arg;
  i += 3;
  while (i < arg.size() && arg[i] != '/' && arg[i] != ':' && arg[i] != '@') ++i;  // user
  if (i == arg.size() || arg[i] != ':') return arg;
  const size_t password = ++i;
  while (i < arg.size() && arg[i] != '@' && arg[i] != '/') ++i;
  if (i == arg.size() || arg[i] != '@') return arg;
  return arg.substr(0, password) + "***" + arg.substr(i);
}

// "--password=..." (or "token=", "pass=", "secret=", any case) -> "--password=***".
std::string RedactInlineSecret(const std::string& arg) {
  const size_t eq = arg.find('=');
  if (eq == std::string::npos) return arg;
  std::string_view key = std::string_view(arg).substr(0, eq);
  if (key.substr(0, 2) == "--") key.remove_prefix(2);
  for (std::string_view secret : {"password", "token", "pass", "secret"})
    if (EqualsIgnoreCase(key, secret)) return arg.substr(0, eq + 1) + "***";
  return arg;
}

std::string RedactOne(const std::string& arg) { return RedactInlineSecret(RedactUrlPassword(arg)); }

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
