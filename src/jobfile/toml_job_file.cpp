// ReadTomlJobFile: the TOML job file, read with toml++ into a JobFile.
#include "jobfile/toml_job_file.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

// toml++ header-only and without exceptions in this one file, with its assertions off in
// every build: the same reasons as report/disk_spec.cpp (errors as values; 3.3.0 asserts
// preconditions its parser then reports anyway, marzer/tomlplusplus#301, and under NDEBUG
// with clang an assertion becomes __builtin_assume, undefined behaviour).
#define TOML_HEADER_ONLY 1
#define TOML_EXCEPTIONS 0
#pragma push_macro("NDEBUG")
#undef NDEBUG
#define TOML_ASSERT(expr) static_cast<void>(0)
#include <toml++/toml.h>
#pragma pop_macro("NDEBUG")

#include "base/ascii_text.h"

namespace nasperf {
namespace {

constexpr const char* kGlobal = "global";

// A name or value from the file as it may appear in the one-line message: control
// characters (a quoted key may hold a newline) and non-ASCII bytes as \xNN.
std::string Printable(std::string_view text) {
  std::string out;
  for (unsigned char c : text) {
    if (c < 0x20 || c >= 0x7f)
      out += fmt::format("\\x{:02x}", c);
    else
      out += static_cast<char>(c);
  }
  return out;
}

Status Bad(const std::string& file, int64_t line, const std::string& what) {
  return Status::BadInput(fmt::format("{}:{}: {}", Printable(file), line, what));
}

int LineOf(const toml::node& node) { return static_cast<int>(node.source().begin.line); }

// A value as it would be typed after its option.
Result<std::string> ValueText(const std::string& file, std::string_view table, std::string_view key,
                              const toml::node& value) {
  if (const auto* s = value.as_string()) return s->get();
  if (const auto* i = value.as_integer()) return std::to_string(i->get());
  if (const auto* b = value.as_boolean()) return std::string(b->get() ? "true" : "false");
  if (const auto* f = value.as_floating_point()) {
    if (!std::isfinite(f->get()))
      return Bad(file, LineOf(value),
                 fmt::format("key '{}' in [{}]: not a finite number", Printable(key), Printable(table)));
    return fmt::format("{}", f->get());
  }
  return Bad(file, LineOf(value),
             fmt::format("key '{}' in [{}]: {} value; a key takes a string, a number or true/false (a job is [NAME] "
                         "and its keys, one level deep)",
                         Printable(key), Printable(table),
                         value.is_table()   ? "a table"
                         : value.is_array() ? "an array"
                                            : "an unsupported"));
}

// One table's keys in file order; `group` goes to *group (when given), the rest to settings.
Status ReadSettings(const std::string& file, std::string_view table_name, const toml::table& table,
                    std::vector<JobSetting>& settings, std::string* group) {
  std::vector<JobSetting> own;
  for (auto&& [key, value] : table) {
    const toml::node& item = value;  // clang 14 cannot capture a structured binding
    // TOML allows a quoted empty key (""); no option has an empty name.
    if (key.str().empty())
      return Bad(file, LineOf(item), fmt::format("an empty key in [{}]: a key is an option's name", Printable(table_name)));
    Result<std::string> text = ValueText(file, table_name, key.str(), item);
    if (!text.ok()) return text.status();
    if (key.str() == kJobGroupKey) {
      if (text.value().empty())
        return Bad(file, LineOf(item), fmt::format("key 'group' in [{}]: an empty group name", Printable(table_name)));
      *group = text.value();
      continue;
    }
    own.push_back({std::string(key.str()), std::move(text).value(), LineOf(item)});
  }
  // toml++ keeps a table's keys sorted by name; the file's order is the user's.
  std::stable_sort(own.begin(), own.end(), [](const JobSetting& a, const JobSetting& b) { return a.line < b.line; });
  settings.insert(settings.end(), own.begin(), own.end());
  return Status::Ok();
}

}  // namespace

Result<JobFile> ReadTomlJobFile(std::string_view text, const std::string& path) {
  // toml++ 3.3.0 reaches __builtin_unreachable on some non-ASCII characters outside a
  // string (report/disk_spec.cpp's fuzzer found one): refused before it sees them.
  if (std::optional<int64_t> line = LineOfFirstNonAscii(text))
    return Bad(path, *line, "a non-ASCII character: a job file is ASCII (write others in strings as \\uXXXX)");
  toml::parse_result parsed = toml::parse(text, path);
  if (!parsed) {
    const toml::parse_error& error = parsed.error();
    return Bad(path, static_cast<int64_t>(error.source().begin.line), Printable(error.description()));
  }
  const toml::table& root = parsed.table();
  JobFile out;
  out.path = path;
  out.format = "nasperf";
  std::vector<JobSetting> global;
  std::string global_group;
  struct Named {
    std::string_view name;
    const toml::table* table;
    int line;
  };
  std::vector<Named> jobs;
  for (auto&& [key, value] : root) {
    const toml::table* table = value.as_table();
    if (table == nullptr)
      return Bad(path, LineOf(value),
                 fmt::format("key '{}' outside a table: defaults go under [global], a job's keys under [NAME]",
                             Printable(key.str())));
    if (key.str() == kGlobal) {
      if (Status s = ReadSettings(path, kGlobal, *table, global, &global_group); !s.ok()) return s;
      continue;
    }
    if (key.str().empty()) return Bad(path, LineOf(value), "a job's name (its table header) is empty");
    jobs.push_back({key.str(), table, LineOf(value)});
  }
  std::stable_sort(jobs.begin(), jobs.end(), [](const Named& a, const Named& b) { return a.line < b.line; });
  for (const Named& named : jobs) {
    FileJob job;
    job.name = std::string(named.name);
    job.line = named.line;
    job.group = global_group;
    job.settings = global;
    if (Status s = ReadSettings(path, named.name, *named.table, job.settings, &job.group); !s.ok()) return s;
    out.jobs.push_back(std::move(job));
  }
  return out;
}

}  // namespace nasperf
