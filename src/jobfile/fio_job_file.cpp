// ParseFioJobFile; see fio_job_file.h. The sections are read first (fio's key=value lines,
// [global] inherited), then each job's fio keys become `run` settings in one place, so
// keys that depend on each other (rate and numjobs, runtime and time_based, bs and
// bssplit) are converted together.
#include "jobfile/fio_job_file.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <optional>
#include <vector>

#include "jobfile/fio_values.h"
#include "jobfile/spec_text.h"

namespace nasperf {
namespace {

constexpr size_t kMaxJobs = 256;
constexpr uint64_t kMaxDepth = 65535;
constexpr uint64_t kMaxNumjobs = 4096;
constexpr size_t kMaxSplitEntries = 64;  // fio's own limit per direction
// Past any storage, and small enough that x numjobs cannot overflow.
constexpr uint64_t kMaxRateBytesPerS = 1000000000000000;

// The fio keys nasperf reads, each with its aliases. Anything else is refused by name.
struct FioKey {
  const char* name;
  const char* alias;
};
constexpr FioKey kFioKeys[] = {
    {"rw", "readwrite"},
    {"rwmixread", nullptr},
    {"rwmixwrite", nullptr},
    {"bs", "blocksize"},
    {"bssplit", nullptr},
    {"iodepth", nullptr},
    {"numjobs", nullptr},
    {"size", nullptr},
    {"runtime", nullptr},
    {"time_based", nullptr},
    {"ramp_time", nullptr},
    {"direct", nullptr},
    {"buffered", nullptr},
    {"ioengine", nullptr},
    {"rate", nullptr},
    {"rate_iops", nullptr},
    {"thinktime", nullptr},
    {"thinktime_blocks", nullptr},
    {"random_distribution", nullptr},
    {"percentage_random", nullptr},
    {"filename", nullptr},
    {"directory", nullptr},
    {"name", nullptr},
    {"stonewall", "wait_for_previous"},
    // Keys that change how fio reports or what it prints, not the I/O: nasperf reports
    // every job and its group anyway, and its workers are always threads.
    {"new_group", nullptr},
    {"group_reporting", nullptr},
    {"description", nullptr},
    {"thread", nullptr},
    {"kb_base", nullptr},
};

const char* CanonicalKey(std::string_view key) {
  for (const FioKey& k : kFioKeys)
    if (key == k.name || (k.alias && key == k.alias)) return k.name;
  return nullptr;
}

struct FioValue {
  std::string written;  // the key as the file spells it (an alias, maybe)
  std::string value;
  int line = 0;
};
using FioKeys = std::map<std::string, FioValue>;  // by canonical key

struct FioSection {
  std::string name;
  int line = 0;
  FioKeys keys;  // the [global] keys above it, then its own
};

// The file's sections, [global] folded into each job below it.
Result<std::vector<FioSection>> ReadSections(std::string_view text, const std::string& path) {
  Result<std::vector<SpecLine>> lines = SplitSpecLines(text, path, "a fio job file");
  if (!lines.ok()) return lines.status();
  FioKeys global;
  FioKeys* current = nullptr;
  std::vector<FioSection> jobs;
  for (const SpecLine& l : lines.value()) {
    std::string_view line = TrimBlanks(l.text);
    if (line.empty() || line[0] == ';' || line[0] == '#') continue;
    if (line[0] == '[') {
      if (line.back() != ']') return SpecError(path, l.number, "a section header must end in ']'");
      std::string name(TrimBlanks(line.substr(1, line.size() - 2)));
      if (name.empty()) return SpecError(path, l.number, "a section needs a name: [global] or [job-name]");
      if (name == "global") {
        current = &global;
        continue;
      }
      for (const FioSection& job : jobs)
        if (job.name == name)
          return SpecError(path, l.number,
                           "a second job named '" + name + "' (the first is on line " + std::to_string(job.line) + ")");
      if (jobs.size() == kMaxJobs)
        return SpecError(path, l.number, "more than " + std::to_string(kMaxJobs) + " jobs in one file");
      jobs.push_back({name, l.number, global});
      current = &jobs.back().keys;
      continue;
    }
    const size_t eq = line.find('=');
    std::string key(TrimBlanks(line.substr(0, eq)));
    std::string value(eq == std::string_view::npos ? std::string_view() : TrimBlanks(line.substr(eq + 1)));
    if (key.empty()) return SpecError(path, l.number, "a line with a value but no fio key");
    if (key.rfind("include ", 0) == 0 || key == "include")
      return SpecError(path, l.number, "fio's include is not supported: put the jobs in one file");
    const char* canonical = CanonicalKey(key);
    if (!canonical) return SpecError(path, l.number, "fio key '" + key + "' is not supported");
    if (!current) return SpecError(path, l.number, "fio key '" + key + "' comes before any [section]");
    if (value.find('$') != std::string::npos)
      return SpecError(path, l.number, "fio key '" + key + "': environment variables ($...) are not expanded");
    (*current)[canonical] = {key, value, l.number};
  }
  if (jobs.empty()) return Status::BadInput(path + ": no job section ([name]) in this fio job file");
  return jobs;
}

// One job's fio keys -> its `run` settings.
class JobTranslator {
 public:
  JobTranslator(const FioSection& section, const std::string& path) : s_(section), path_(path) {}

  Result<FileJob> Translate() {
    job_.name = s_.name;
    job_.line = s_.line;
    if (const FioValue* v = Get("name"); v && !v->value.empty()) job_.name = v->value;
    for (Status (JobTranslator::*step)() :
         {&JobTranslator::KbBase, &JobTranslator::Pattern, &JobTranslator::Engine, &JobTranslator::DepthAndJobs,
          &JobTranslator::BlockSizes, &JobTranslator::Size, &JobTranslator::Timing, &JobTranslator::Direct,
          &JobTranslator::Rates, &JobTranslator::Think, &JobTranslator::Randomness, &JobTranslator::Target}) {
      if (Status s = (this->*step)(); !s.ok()) return s;
    }
    // libaio is not built in: the run says what it used instead, and where the two differ.
    if (libaio_)
      job_.notes.push_back(direct_ ? "ioengine=libaio requested, io_uring used"
                                   : "ioengine=libaio requested, io_uring used: fio's libaio is synchronous without "
                                     "direct=1, io_uring is not, so buffered figures can be higher than fio's");
    return job_;
  }

  // stonewall: this job waits for the ones above it.
  Result<bool> Stonewall() const {
    const FioValue* v = Get("stonewall");
    if (!v) return false;
    std::optional<bool> on = ParseFioBool(v->value);
    if (!on) return Bad(*v, "'" + v->value + "' is not 0 or 1");
    return *on;
  }

 private:
  const FioValue* Get(const char* key) const {
    auto it = s_.keys.find(key);
    return it == s_.keys.end() ? nullptr : &it->second;
  }
  Status Bad(const FioValue& v, const std::string& message) const {
    return SpecError(path_, v.line, "fio key '" + v.written + "': " + message);
  }
  void Emit(const char* key, std::string value, int line) { job_.settings.push_back({key, std::move(value), line}); }

  Status KbBase() {
    if (const FioValue* v = Get("kb_base"); v && v->value != "1024")
      return Bad(*v, "only fio's default, 1024, is supported (sizes like 4k are then 4096 bytes)");
    return Status::Ok();
  }

  Status Pattern() {
    const FioValue* v = Get("rw");
    if (!v) return Status::Ok();  // fio's default, read, is nasperf's too
    std::string rw = v->value;
    if (rw.find(':') != std::string::npos) return Bad(*v, "offset modifiers ('" + rw + "') are not supported");
    if (rw == "readwrite") rw = "rw";
    if (rw.find("trim") != std::string::npos) return Bad(*v, "trims are not supported");
    if (rw != "read" && rw != "write" && rw != "randread" && rw != "randwrite" && rw != "rw" && rw != "randrw")
      return Bad(*v, "'" + rw + "' is not read, write, randread, randwrite, rw or randrw");
    reads_ = rw == "read" || rw == "randread" || rw == "rw" || rw == "randrw";
    writes_ = rw != "read" && rw != "randread";
    random_ = rw.rfind("rand", 0) == 0;
    Emit("rw", rw, v->line);
    if (!(reads_ && writes_)) return Status::Ok();
    // fio: when both are given, the later one counts.
    const FioValue* r = Get("rwmixread");
    const FioValue* w = Get("rwmixwrite");
    const FioValue* mix = r && w ? (r->line >= w->line ? r : w) : (r ? r : w);
    if (!mix) return Status::Ok();
    std::optional<uint64_t> pct = ParseFioCount(mix->value, 100);
    if (!pct) return Bad(*mix, "'" + mix->value + "' is not a percentage 0..100");
    Emit("mix", std::to_string(mix == r ? *pct : 100 - *pct), mix->line);
    return Status::Ok();
  }

  Status Engine() {
    const FioValue* v = Get("ioengine");
    std::string engine = v ? v->value : "psync";  // fio's default on Linux
    libaio_ = engine == "libaio";
    if (libaio_) engine = "io_uring";  // the kernel's other asynchronous interface
    if (engine != "psync" && engine != "io_uring")
      return Bad(*v, "'" + v->value + "' is not supported (psync, io_uring, or libaio, which runs as io_uring)");
    sync_ = engine == "psync";
    Emit("engine", engine, v ? v->line : s_.line);
    return Status::Ok();
  }

  Status DepthAndJobs() {
    if (const FioValue* v = Get("iodepth")) {
      std::optional<uint64_t> qd = ParseFioCount(v->value, kMaxDepth);
      if (!qd || *qd == 0) return Bad(*v, "'" + v->value + "' is not a depth 1.." + std::to_string(kMaxDepth));
      // fio's man page: iodepth does not affect synchronous engines, which run at depth 1.
      if (!sync_) Emit("qd", std::to_string(*qd), v->line);
    }
    if (const FioValue* v = Get("numjobs")) {
      std::optional<uint64_t> n = ParseFioCount(v->value, kMaxNumjobs);
      if (!n || *n == 0) return Bad(*v, "'" + v->value + "' is not a count 1.." + std::to_string(kMaxNumjobs));
      numjobs_ = *n;
      Emit("threads", std::to_string(*n), v->line);
    }
    return Status::Ok();
  }

  // A bssplit entry list ("4k/10:64k/50:32k/") or a single bs as "SIZE" or "SIZE/W:SIZE/W".
  Result<std::string> SplitText(const FioValue& v, const std::string& text) {
    std::vector<std::pair<uint64_t, uint64_t>> entries;  // bytes, percent (0: blank)
    uint64_t given = 0;
    size_t blanks = 0;
    size_t start = 0;
    while (start <= text.size()) {
      size_t colon = text.find(':', start);
      std::string entry = text.substr(start, colon == std::string::npos ? std::string::npos : colon - start);
      start = colon == std::string::npos ? text.size() + 1 : colon + 1;
      const size_t slash = entry.find('/');
      std::optional<uint64_t> bytes = ParseFioSize(entry.substr(0, slash));
      if (!bytes || *bytes == 0) return Bad(v, "'" + entry.substr(0, slash) + "' is not a block size");
      uint64_t pct = 0;
      if (slash != std::string::npos && slash + 1 < entry.size()) {
        std::optional<uint64_t> p = ParseFioCount(entry.substr(slash + 1), 100);
        if (!p) return Bad(v, "'" + entry.substr(slash + 1) + "' is not a percentage 0..100");
        pct = *p;
        given += pct;
        if (pct == 0) continue;  // never issued
      } else {
        ++blanks;
      }
      if (entries.size() == kMaxSplitEntries)
        return Bad(v, "more than " + std::to_string(kMaxSplitEntries) + " block sizes");
      entries.emplace_back(*bytes, pct);
    }
    if (given > 100) return Bad(v, "the percentages add up to " + std::to_string(given) + ", more than 100");
    if (blanks == 0 && given != 100) return Bad(v, "the percentages add up to " + std::to_string(given) + ", not 100");
    // fio fills blank percentages evenly with what is left; nasperf's weights are whole.
    if (blanks > 0 && (100 - given) % blanks != 0)
      return Bad(v, "the " + std::to_string(100 - given) + " % left over does not split evenly over " +
                        std::to_string(blanks) + " sizes");
    for (auto& [bytes, pct] : entries)
      if (pct == 0) pct = (100 - given) / blanks;
    if (entries.empty()) return Bad(v, "no block size with a share above 0");
    // The same size twice is one entry of their summed share.
    std::vector<std::pair<uint64_t, uint64_t>> merged;
    for (const auto& e : entries) {
      auto same = std::find_if(merged.begin(), merged.end(), [&](const auto& m) { return m.first == e.first; });
      if (same != merged.end())
        same->second += e.second;
      else
        merged.push_back(e);
    }
    if (merged.size() == 1) return std::to_string(merged[0].first);
    std::string out;
    for (const auto& [bytes, pct] : merged)
      out += (out.empty() ? "" : ":") + std::to_string(bytes) + "/" + std::to_string(pct);
    return out;
  }

  // One direction's block sizes: its bssplit entry, else its bs entry, else fio's 4 KiB.
  Result<std::string> DirectionSizes(const std::string FioPerDirection::*dir, int* line) {
    if (const FioValue* v = Get("bssplit"); v && !(SplitFioPerDirection(v->value).*dir).empty()) {
      *line = v->line;
      return SplitText(*v, SplitFioPerDirection(v->value).*dir);
    }
    if (const FioValue* v = Get("bs"); v && !(SplitFioPerDirection(v->value).*dir).empty()) {
      *line = v->line;
      const std::string text = SplitFioPerDirection(v->value).*dir;
      std::optional<uint64_t> bytes = ParseFioSize(text);
      if (!bytes || *bytes == 0) return Bad(*v, "'" + text + "' is not a block size");
      return std::to_string(*bytes);
    }
    *line = s_.line;
    return std::string("4096");  // fio's default block size (nasperf's is 1 MiB)
  }

  Status BlockSizes() {
    int read_line = 0, write_line = 0;
    Result<std::string> read = DirectionSizes(&FioPerDirection::read, &read_line);
    if (!read.ok()) return read.status();
    Result<std::string> write = DirectionSizes(&FioPerDirection::write, &write_line);
    if (!write.ok()) return write.status();
    if (reads_ && writes_ && read.value() != write.value()) {
      Emit("bs-read", read.value(), read_line);
      Emit("bs-write", write.value(), write_line);
    } else if (reads_) {
      Emit("bs", read.value(), read_line);
    } else {
      Emit("bs", write.value(), write_line);
    }
    return Status::Ok();
  }

  Status Size() {
    const FioValue* v = Get("size");
    if (!v) return Status::Ok();  // fio then takes an existing file's size, as nasperf does
    if (v->value.find('%') != std::string::npos) return Bad(*v, "a share of the file's size is not supported");
    std::optional<uint64_t> bytes = ParseFioSize(v->value);
    if (!bytes || *bytes == 0) return Bad(*v, "'" + v->value + "' is not a size");
    Emit("size", std::to_string(*bytes), v->line);
    return Status::Ok();
  }

  Result<uint64_t> Time(const FioValue& v, uint64_t bare_unit_us) const {
    std::optional<uint64_t> us = ParseFioTime(v.value, bare_unit_us);
    if (!us) return Bad(v, "'" + v.value + "' is not a time (examples: 10, 10s, 500ms, 2m)");
    return *us;
  }

  Status Timing() {
    const FioValue* runtime = Get("runtime");
    const FioValue* time_based = Get("time_based");
    bool looping = false;
    if (time_based) {
      std::optional<bool> on = ParseFioBool(time_based->value);
      if (!on) return Bad(*time_based, "'" + time_based->value + "' is not 0 or 1");
      looping = *on;
    }
    if (runtime) {
      Result<uint64_t> us = Time(*runtime, 1000000);
      if (!us.ok()) return us.status();
      // nasperf's --time loops over the file; a single pass cut short has no option.
      if (!looping) return Bad(*runtime, "without time_based (one pass, cut short) is not supported: add time_based=1");
      if (us.value() == 0) return Bad(*runtime, "a time-based job needs a runtime above 0");
      Emit("time", ExactDecimal(us.value(), 6) + "s", runtime->line);
    } else if (looping) {
      return Bad(*time_based, "needs runtime (how long to loop)");
    }
    if (const FioValue* v = Get("ramp_time")) {
      Result<uint64_t> us = Time(*v, 1000000);
      if (!us.ok()) return us.status();
      if (us.value() > 0) Emit("ramp", ExactDecimal(us.value(), 6) + "s", v->line);
    }
    return Status::Ok();
  }

  Status Direct() {
    // direct=1 and buffered=0 say the same; the later line counts.
    const FioValue* direct = Get("direct");
    const FioValue* buffered = Get("buffered");
    const FioValue* v =
        direct && buffered ? (direct->line >= buffered->line ? direct : buffered) : (direct ? direct : buffered);
    if (!v) return Status::Ok();
    std::optional<bool> on = ParseFioBool(v->value);
    if (!on) return Bad(*v, "'" + v->value + "' is not 0 or 1");
    direct_ = *on == (v == direct);
    if (direct_) Emit("direct", "", v->line);
    return Status::Ok();
  }

  // The entry of a per-direction value for the job's one direction; a job that both reads
  // and writes must give none (fio caps each direction on its own, nasperf their total).
  Result<std::string> OneDirection(const FioValue& v) const {
    FioPerDirection per = SplitFioPerDirection(v.value);
    if (reads_ && writes_) {
      if (per.read.empty() && per.write.empty()) return std::string();
      return Bad(v, "on a job that reads and writes is not supported (fio paces each direction on its own)");
    }
    return reads_ ? per.read : per.write;
  }

  Status Rates() {
    if (const FioValue* v = Get("rate")) {
      Result<std::string> text = OneDirection(*v);
      if (!text.ok()) return text.status();
      if (!text.value().empty()) {
        std::optional<uint64_t> bytes_per_s = ParseFioSize(text.value());
        if (!bytes_per_s) return Bad(*v, "'" + text.value() + "' is not a rate in bytes/s (examples: 500k, 10m)");
        if (*bytes_per_s > kMaxRateBytesPerS) return Bad(*v, "'" + text.value() + "' is more than 1 PB/s");
        // fio paces every clone (numjobs) at `rate`; nasperf's --rate is the job's total,
        // in MB/s (10^6 bytes/s): exact, as decimal text.
        if (*bytes_per_s > 0) Emit("rate", ExactDecimal(*bytes_per_s * numjobs_, 6), v->line);
      }
    }
    if (const FioValue* v = Get("rate_iops")) {
      Result<std::string> text = OneDirection(*v);
      if (!text.ok()) return text.status();
      if (!text.value().empty()) {
        std::optional<uint64_t> iops = ParseFioCount(text.value(), 100000000);
        if (!iops) return Bad(*v, "'" + text.value() + "' is not a whole number of I/Os per second");
        if (*iops > 0) Emit("rate-iops", std::to_string(*iops * numjobs_), v->line);
      }
    }
    return Status::Ok();
  }

  Status Think() {
    const FioValue* v = Get("thinktime");
    if (!v) return Status::Ok();        // thinktime_blocks alone does nothing in fio either
    Result<uint64_t> us = Time(*v, 1);  // fio: a bare thinktime is in microseconds
    if (!us.ok()) return us.status();
    if (us.value() == 0) return Status::Ok();
    Emit("think", ExactDecimal(us.value(), 3) + "ms", v->line);
    if (const FioValue* b = Get("thinktime_blocks")) {
      std::optional<uint64_t> n = ParseFioCount(b->value, 1000000);
      if (!n || *n == 0) return Bad(*b, "'" + b->value + "' is not a count of I/Os above 0");
      if (*n > 1) Emit("burst", std::to_string(*n), b->line);
    }
    return Status::Ok();
  }

  // The read and write entries must agree on a job that does both (nasperf has one).
  Result<std::string> SharedEntry(const FioValue& v) const {
    FioPerDirection per = SplitFioPerDirection(v.value);
    if (reads_ && writes_ && per.read != per.write)
      return Bad(v, "differs for reads and writes, which is not supported");
    return reads_ ? per.read : per.write;
  }

  Status Randomness() {
    // fio applies both to random patterns only.
    if (const FioValue* v = Get("percentage_random"); v && random_) {
      Result<std::string> text = SharedEntry(*v);
      if (!text.ok()) return text.status();
      std::optional<uint64_t> pct = ParseFioCount(text.value(), 100);
      if (!pct) return Bad(*v, "'" + text.value() + "' is not a percentage 0..100");
      if (*pct < 100) Emit("random", std::to_string(*pct), v->line);
    }
    if (const FioValue* v = Get("random_distribution"); v && random_) {
      Result<std::string> text = SharedEntry(*v);
      if (!text.ok()) return text.status();
      Result<std::string> dist = Distribution(*v, text.value());
      if (!dist.ok()) return dist.status();
      if (!dist.value().empty()) Emit("dist", dist.value(), v->line);
    }
    return Status::Ok();
  }

  // fio's random_distribution -> --dist ("" for uniform).
  Result<std::string> Distribution(const FioValue& v, const std::string& text) const {
    if (text == "random") return std::string();
    const size_t colon = text.find(':');
    const std::string model = text.substr(0, colon);
    const std::string args = colon == std::string::npos ? "" : text.substr(colon + 1);
    if ((model == "zipf" || model == "pareto") && !args.empty()) {
      if (args.find(':') != std::string::npos)
        return Bad(v, "a distribution's centre ('" + text + "') is not supported");
      return model + ":" + args;
    }
    // zoned:A/R:B/S with A+B = 100 and R+S = 100 is a hot spot: A % of I/Os in the first R %.
    if (model == "zoned") {
      const size_t second = args.find(':');
      unsigned a = 0, r = 0, b = 0, s = 0;
      char end = 0;
      if (second != std::string::npos && std::sscanf(args.c_str(), "%u/%u:%u/%u%c", &a, &r, &b, &s, &end) == 4 &&
          a + b == 100 && r + s == 100 && r > 0 && s > 0)
        return "hotspot:" + std::to_string(a) + "/" + std::to_string(r);
      return Bad(v, "'" + text + "': only two zones that cover the file are supported (zoned:80/20:20/80)");
    }
    return Bad(v, "'" + text + "' is not supported (random, zipf:THETA, pareto:H, zoned:A/R:B/S)");
  }

  Status Target() {
    const FioValue* file = Get("filename");
    const FioValue* dir = Get("directory");
    for (const FioValue* v : {file, dir})
      if (v && v->value.find(':') != std::string::npos)
        return Bad(*v, "several files or directories (':') are not supported: give one");
    if (file && file->value.empty()) return Bad(*file, "an empty file name");
    if (file) {
      const bool relative = file->value.front() != '/';
      Emit("target", dir && relative && !dir->value.empty() ? dir->value + "/" + file->value : file->value, file->line);
      // fio's clones (numjobs) of a job with filename= all open that one file and do their
      // I/O over the same bytes; with directory= alone each clone has its own file.
      if (numjobs_ > 1) Emit("shared-file", "", file->line);
    } else if (dir && !dir->value.empty()) {
      Emit("target", dir->value, dir->line);
    }
    return Status::Ok();
  }

  const FioSection& s_;
  const std::string& path_;
  FileJob job_;
  bool reads_ = true, writes_ = false, random_ = false, sync_ = true, libaio_ = false, direct_ = false;
  uint64_t numjobs_ = 1;
};

}  // namespace

Result<JobFile> ParseFioJobFile(std::string_view text, const std::string& path) {
  Result<std::vector<FioSection>> sections = ReadSections(text, path);
  if (!sections.ok()) return sections.status();
  JobFile file;
  file.path = path;
  file.format = "fio";
  int group = 0;
  for (const FioSection& section : sections.value()) {
    JobTranslator translator(section, path);
    Result<bool> wall = translator.Stonewall();
    if (!wall.ok()) return wall.status();
    if (wall.value() && !file.jobs.empty()) ++group;
    Result<FileJob> job = translator.Translate();
    if (!job.ok()) return job.status();
    job.value().group = std::to_string(group);
    file.jobs.push_back(std::move(job).value());
  }
  return file;
}

}  // namespace nasperf
