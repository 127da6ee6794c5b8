// BindJobFile: a job file's settings through run's option descriptors.
#include "cli/job_file_jobs.h"

#include <map>

namespace nasperf {
namespace {

// A name or value from the file as it may appear in the one-line message.
std::string Printable(const std::string& text) {
  std::string out;
  for (unsigned char c : text) {
    if (c < 0x20 || c >= 0x7f) {
      static const char* kHex = "0123456789abcdef";
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 15];
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

Status Bad(const JobFile& file, int line, const std::string& key, const std::string& what) {
  return Status::BadInput(Printable(file.path) + ":" + std::to_string(line) + ": key '" + Printable(key) +
                          "': " + what);
}

// run's options that belong to the command, not to one job: said so rather than "unknown".
constexpr const char* kCommandKeys[] = {"job", "on", "agent", "token-file", "json", "db", "name", "tag", "no-store"};

Status GiveFlag(const JobFile& file, const JobSetting& s, bool* on) {
  if (s.value.empty() || s.value == "true") {
    *on = true;
  } else if (s.value == "false") {
    *on = false;
  } else {
    return Bad(file, s.line, s.key, "--" + s.key + " is a flag: true or false, not '" + Printable(s.value) + "'");
  }
  return Status::Ok();
}

Status Give(const JobFile& file, const JobSetting& s, BoundFileJob& job) {
  const std::string option = "--" + s.key;
  if (const JobOption* descriptor = FindJobOption(option)) {
    if (!descriptor->value_name) {
      bool on = false;
      if (Status st = GiveFlag(file, s, &on); !st.ok()) return st;
      if (on) job.input.Give(option, "");
    } else {
      job.input.Give(option, s.value);
    }
    if (job.input.given_.empty() || job.input.given_.back().option != descriptor)
      return Status::Ok();  // "" = not given
    if (const Status& parsed = job.input.given_.back().parsed; !parsed.ok())
      return Bad(file, s.line, s.key, parsed.message());
    return Status::Ok();
  }
  if (s.key == "target") {
    if (s.value.empty()) return Bad(file, s.line, s.key, "an empty target");
    job.input.target = s.value;
  } else if (s.key == "drop-caches") {
    return GiveFlag(file, s, &job.input.drop_caches);
  } else if (s.key == "allow-destructive") {
    job.input.allow_destructive = {s.value};
  } else if (s.key == "user") {
    job.protocol.user = s.value;
  } else if (s.key == "password-file") {
    job.protocol.password_file = s.value;
  } else if (s.key == "connect-timeout") {
    job.protocol.connect_timeout = s.value;
  } else {
    for (const char* key : kCommandKeys)
      if (s.key == key)
        return Bad(file, s.line, s.key,
                   "an option of the whole command, not of one job: give --" + s.key + " on the command line");
    return Bad(file, s.line, s.key, "unknown option of run");
  }
  return Status::Ok();
}

}  // namespace

Result<std::vector<BoundFileJob>> BindJobFile(const JobFile& file, const std::string& default_target) {
  if (file.jobs.empty())
    return Status::BadInput(Printable(file.path) + ": no jobs (a job file holds one table per job: [NAME])");
  std::vector<BoundFileJob> out;
  std::map<std::string, int> names;
  for (const FileJob& fj : file.jobs) {
    if (auto [it, fresh] = names.emplace(fj.name, fj.line); !fresh)
      return Status::BadInput(Printable(file.path) + ":" + std::to_string(fj.line) + ": job '" + Printable(fj.name) +
                              "' again (first at line " + std::to_string(it->second) + "); job names are unique");
    BoundFileJob job;
    job.name = fj.name;
    job.group = fj.group.empty() ? kDefaultJobGroup : fj.group;
    job.line = fj.line;
    job.input.target = default_target;
    job.input.file_notes = fj.notes;
    // The last setting of a key counts: [global]'s, then the job's own over it.
    std::map<std::string, size_t> last;
    for (size_t i = 0; i < fj.settings.size(); ++i) last[fj.settings[i].key] = i;
    for (size_t i = 0; i < fj.settings.size(); ++i) {
      if (last[fj.settings[i].key] != i) continue;
      if (Status s = Give(file, fj.settings[i], job); !s.ok()) return s;
    }
    out.push_back(std::move(job));
  }
  return out;
}

Status JobFileError(const JobFile& file, const BoundFileJob& job, const Status& what) {
  const std::string message =
      Printable(file.path) + ":" + std::to_string(job.line) + ": job '" + Printable(job.name) + "': " + what.message();
  switch (what.kind()) {
    case ErrorKind::kNone:
      return what;
    case ErrorKind::kBadInput:
      return Status::BadInput(message);
    case ErrorKind::kUnavailable:
      return Status::Unavailable(message);
    case ErrorKind::kInterrupted:
      return what;
    default:
      return Status::Io(message, what.err());
  }
}

}  // namespace nasperf
