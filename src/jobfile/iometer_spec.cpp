// ParseIometerSpec; see iometer_spec.h. The format is Iometer's own (its ICF files since
// version 1998.05.21): a comment line starting with ' names what the next line holds.
//   'Access specification name,default assignment
//   	NAME,NONE|ALL|DISK|NET
//   'size,% of size,% reads,% random,delay,burst,align,reply
//   	4096,50,67,100,0,1,0,0      (one line per transfer size, shares adding to 100)
// and in the 'MANAGER LIST, per worker, "'Number of outstanding IOs,..." and the
// "'Assigned access specs" it runs.
#include "jobfile/iometer_spec.h"

#include <algorithm>
#include <cctype>
#include <optional>

#include "jobfile/spec_text.h"

namespace nasperf {
namespace {

constexpr size_t kMaxSpecs = 1000;
constexpr size_t kMaxLinesPerSpec = 100;  // Iometer's own limit on a spec's lines
constexpr uint64_t kMaxField = uint64_t{1} << 40;

struct IcfLine {
  uint64_t size = 0, of_size = 0, reads = 0, random = 0, delay_ms = 0, burst = 0, align = 0, reply = 0;
  int line = 0;
};
struct IcfSpec {
  std::string name;
  int line = 0;
  std::vector<IcfLine> lines;
};
struct IcfWorker {
  std::string outstanding;  // the first field of the line after "'Number of outstanding IOs"
  int outstanding_line = 0;
  std::vector<std::string> assigned;
};
struct IcfFile {
  std::vector<IcfSpec> specs;
  std::vector<IcfWorker> workers;
};

bool StartsWithNoCase(std::string_view text, std::string_view prefix) {
  if (text.size() < prefix.size()) return false;
  for (size_t i = 0; i < prefix.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(text[i])) != std::tolower(static_cast<unsigned char>(prefix[i])))
      return false;
  return true;
}

std::optional<uint64_t> WholeNumber(std::string_view text) {
  if (text.empty() || text.size() > 13) return std::nullopt;
  uint64_t n = 0;
  for (char c : text) {
    if (!std::isdigit(static_cast<unsigned char>(c))) return std::nullopt;
    n = n * 10 + static_cast<uint64_t>(c - '0');
  }
  if (n > kMaxField) return std::nullopt;
  return n;
}

std::vector<std::string_view> SplitCommas(std::string_view text) {
  std::vector<std::string_view> out;
  size_t start = 0;
  for (;;) {
    size_t comma = text.find(',', start);
    out.push_back(
        TrimBlanks(text.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start)));
    if (comma == std::string_view::npos) return out;
    start = comma + 1;
  }
}

Result<IcfLine> ReadSpecLine(const SpecLine& l, const std::string& path) {
  static const char* const kFields[] = {"size", "% of size", "% reads", "% random", "delay", "burst", "align", "reply"};
  std::vector<std::string_view> fields = SplitCommas(TrimBlanks(l.text));
  if (fields.size() != 8)
    return SpecError(path, l.number,
                     "an access specification line has " + std::to_string(fields.size()) +
                         " fields, not 8 (size,% of size,% reads,% random,delay,burst,align,reply)");
  uint64_t v[8];
  for (size_t i = 0; i < 8; ++i) {
    std::optional<uint64_t> n = WholeNumber(fields[i]);
    if (!n)
      return SpecError(path, l.number,
                       std::string(kFields[i]) + ": '" + std::string(fields[i]) + "' is not a whole number");
    if (i >= 1 && i <= 3 && *n > 100)
      return SpecError(path, l.number, std::string(kFields[i]) + ": " + std::to_string(*n) + " is more than 100");
    v[i] = *n;
  }
  return IcfLine{v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], l.number};
}

// The 'ACCESS SPECIFICATIONS section from `i` (the line after its header) to its END.
Status ReadSpecs(const std::vector<SpecLine>& lines, size_t& i, const std::string& path, IcfFile& file) {
  IcfSpec* spec = nullptr;
  bool in_lines = false;
  for (; i < lines.size(); ++i) {
    const SpecLine& l = lines[i];
    std::string_view text = TrimBlanks(l.text);
    if (text.empty()) continue;
    if (StartsWithNoCase(text, "'END access specifications")) {
      ++i;
      return Status::Ok();
    }
    if (StartsWithNoCase(text, "'Access specification name")) {
      if (i + 2 >= lines.size()) break;
      const SpecLine& named = lines[++i];
      std::string name(TrimBlanks(TrimBlanks(named.text).substr(0, TrimBlanks(named.text).find(','))));
      if (name.empty()) return SpecError(path, named.number, "an access specification without a name");
      for (const IcfSpec& s : file.specs)
        if (s.name == name)
          return SpecError(path, named.number,
                           "a second access specification named '" + name + "' (the first is on line " +
                               std::to_string(s.line) + ")");
      if (file.specs.size() == kMaxSpecs)
        return SpecError(path, named.number, "more than " + std::to_string(kMaxSpecs) + " access specifications");
      const SpecLine& header = lines[++i];
      if (TrimBlanks(header.text).substr(0, 1) != "'")
        return SpecError(path, header.number,
                         "expected the line \"'size,% of size,% reads,% random,delay,burst,align,reply\"");
      file.specs.push_back({name, named.number, {}});
      spec = &file.specs.back();
      in_lines = true;
      continue;
    }
    if (text[0] == '\'' || !in_lines)
      return SpecError(path, l.number,
                       "unexpected line in the access specifications: '" + std::string(text.substr(0, 60)) + "'");
    if (spec->lines.size() == kMaxLinesPerSpec)
      return SpecError(path, l.number,
                       "more than " + std::to_string(kMaxLinesPerSpec) + " lines in one access specification");
    Result<IcfLine> line = ReadSpecLine(l, path);
    if (!line.ok()) return line.status();
    spec->lines.push_back(line.value());
  }
  const int last = lines.empty() ? 1 : lines.back().number;
  return SpecError(path, last, "the access specifications do not end ('END access specifications missing)");
}

// Workers' outstanding I/Os and assigned specs; anything else in the manager list is not
// nasperf's concern and is skipped.
void ReadWorkers(const std::vector<SpecLine>& lines, size_t i, IcfFile& file) {
  bool assigning = false;
  for (; i < lines.size(); ++i) {
    std::string_view text = TrimBlanks(lines[i].text);
    if (assigning) {
      if (!text.empty() && text[0] == '\'')
        assigning = false;
      else if (!text.empty())
        file.workers.back().assigned.emplace_back(text);
      if (assigning) continue;
    }
    if (StartsWithNoCase(text, "'Worker") && !StartsWithNoCase(text, "'Worker type")) {
      file.workers.emplace_back();
    } else if (StartsWithNoCase(text, "'Number of outstanding IOs") && !file.workers.empty() && i + 1 < lines.size()) {
      std::string_view values = TrimBlanks(lines[i + 1].text);
      file.workers.back().outstanding = std::string(TrimBlanks(values.substr(0, values.find(','))));
      file.workers.back().outstanding_line = lines[i + 1].number;
    } else if (StartsWithNoCase(text, "'Assigned access specs") && !file.workers.empty()) {
      assigning = true;
    }
  }
}

Result<IcfFile> ReadIcf(std::string_view text, const std::string& path) {
  Result<std::vector<SpecLine>> lines = SplitSpecLines(text, path, "an Iometer configuration");
  if (!lines.ok()) return lines.status();
  IcfFile file;
  size_t i = 0;
  while (i < lines.value().size() && !StartsWithNoCase(TrimBlanks(lines.value()[i].text), "'ACCESS SPECIFICATIONS"))
    ++i;
  if (i == lines.value().size())
    return Status::BadInput(path + ": no 'ACCESS SPECIFICATIONS section: is this an Iometer configuration (.icf)?");
  ++i;
  if (Status s = ReadSpecs(lines.value(), i, path, file); !s.ok()) return s;
  for (const IcfSpec& spec : file.specs) {
    uint64_t total = 0;
    for (const IcfLine& l : spec.lines) total += l.of_size;
    if (total != 100)
      return SpecError(
          path, spec.line,
          "access specification '" + spec.name + "': its % of size adds up to " + std::to_string(total) + ", not 100");
  }
  while (i < lines.value().size() && !StartsWithNoCase(TrimBlanks(lines.value()[i].text), "'MANAGER LIST")) ++i;
  ReadWorkers(lines.value(), i, file);
  return file;
}

using SizeMix = std::vector<std::pair<uint64_t, uint64_t>>;  // bytes, weight (any scale)

// "4096" or "4096/50:65536/50": the weights scaled to whole percent, or "" when they do
// not scale to whole percent exactly.
std::string MixText(SizeMix mix) {
  SizeMix merged;
  uint64_t total = 0;
  for (const auto& entry : mix) {  // not a structured binding: clang 14 cannot capture one
    if (entry.second == 0) continue;
    total += entry.second;
    auto same = std::find_if(merged.begin(), merged.end(), [&](const auto& m) { return m.first == entry.first; });
    if (same != merged.end())
      same->second += entry.second;
    else
      merged.push_back(entry);
  }
  if (merged.size() == 1) return std::to_string(merged[0].first);
  std::string out;
  for (const auto& [bytes, weight] : merged) {
    if (weight * 100 % total != 0) return "";
    out += (out.empty() ? "" : ":") + std::to_string(bytes) + "/" + std::to_string(weight * 100 / total);
  }
  return out;
}

class SpecTranslator {
 public:
  SpecTranslator(const IcfFile& file, const IcfSpec& spec, const std::string& path)
      : file_(file), spec_(spec), path_(path) {}

  // One job per queue depth among the spec's workers (one when they agree), in one group.
  Result<std::vector<FileJob>> Translate() {
    job_.name = spec_.name;
    job_.group = "0";
    job_.line = spec_.line;
    for (const IcfLine& l : spec_.lines)
      if (l.of_size > 0) lines_.push_back(l);
    for (Status (SpecTranslator::*step)() : {&SpecTranslator::Check, &SpecTranslator::Pattern, &SpecTranslator::Sizes,
                                             &SpecTranslator::Pacing, &SpecTranslator::Unbuffered}) {
      if (Status s = (this->*step)(); !s.ok()) return s;
    }
    return Workers();
  }

 private:
  Status Bad(int line, const std::string& message) const {
    return SpecError(path_, line, "access specification '" + spec_.name + "': " + message);
  }
  void Emit(const char* key, std::string value, int line) { job_.settings.push_back({key, std::move(value), line}); }

  // What nasperf has one of per job must be the same on every line.
  Status Same(uint64_t IcfLine::*field, const char* what) const {
    for (const IcfLine& l : lines_)
      if (l.*field != lines_[0].*field)
        return Bad(l.line, std::string("its lines differ in ") + what + " (" + std::to_string(l.*field) + " here, " +
                               std::to_string(lines_[0].*field) + " on line " + std::to_string(lines_[0].line) +
                               "); nasperf runs one " + what + " per job");
    return Status::Ok();
  }

  Status Check() {
    for (const IcfLine& l : spec_.lines) {
      if (l.reply != 0)
        return Bad(l.line, "a reply size (" + std::to_string(l.reply) +
                               " bytes) is not supported: replies are for Iometer's network workers");
      if (l.size == 0 && l.of_size > 0) return Bad(l.line, "a transfer size of 0 bytes");
    }
    for (auto [field, what] : {std::pair{&IcfLine::random, "% random"}, std::pair{&IcfLine::delay_ms, "delay"},
                               std::pair{&IcfLine::burst, "burst"}, std::pair{&IcfLine::align, "alignment"}})
      if (Status s = Same(field, what); !s.ok()) return s;
    return Status::Ok();
  }

  Status Pattern() {
    const IcfLine& first = lines_[0];
    uint64_t read_weight = 0;  // % of size x % reads, summed: 100 x the read share in %
    for (const IcfLine& l : lines_) read_weight += l.of_size * l.reads;
    if (read_weight % 100 != 0) return Bad(first.line, "its read share is not a whole percent");
    read_pct_ = read_weight / 100;
    const std::string prefix = first.random > 0 ? "rand" : "";
    const std::string rw = read_pct_ == 100 ? "read" : read_pct_ == 0 ? "write" : "rw";
    Emit("rw", rw == "rw" ? prefix + "rw" : prefix + rw, first.line);
    if (read_pct_ != 0 && read_pct_ != 100) Emit("mix", std::to_string(read_pct_), first.line);
    if (first.random > 0 && first.random < 100) Emit("random", std::to_string(first.random), first.line);
    return Status::Ok();
  }

  Status Sizes() {
    const int line = lines_[0].line;
    bool same_reads = true;
    for (const IcfLine& l : lines_) same_reads = same_reads && l.reads == lines_[0].reads;
    SizeMix all, reads, writes;
    for (const IcfLine& l : lines_) {
      all.emplace_back(l.size, l.of_size);
      reads.emplace_back(l.size, l.of_size * l.reads);
      writes.emplace_back(l.size, l.of_size * (100 - l.reads));
    }
    if (same_reads || read_pct_ == 0 || read_pct_ == 100) {
      const std::string text = MixText(same_reads ? all : read_pct_ == 100 ? reads : writes);
      if (text.empty()) return Bad(line, "its sizes' shares are not whole percents");
      Emit("bs", text, line);
      return Status::Ok();
    }
    // Lines that differ in % reads: each direction draws its own sizes, so the share of
    // every (size, direction) pair is the one the spec gives.
    const std::string read_text = MixText(reads), write_text = MixText(writes);
    if (read_text.empty() || write_text.empty())
      return Bad(line, "its lines' % reads give the reads' or the writes' sizes shares that are not whole percents");
    Emit("bs-read", read_text, line);
    Emit("bs-write", write_text, line);
    return Status::Ok();
  }

  Status Pacing() {
    const IcfLine& first = lines_[0];
    if (first.delay_ms > 0) {
      Emit("think", std::to_string(first.delay_ms) + "ms", first.line);
      if (first.burst > 1) Emit("burst", std::to_string(first.burst), first.line);
    }
    // Iometer's alignment 0 is the sector's (its default, 512 B); a job's own default would
    // be its smallest transfer size, which puts random I/Os on fewer, other offsets.
    Emit("align", first.align > 0 ? std::to_string(first.align) : "512", first.line);
    if (first.align == 0)
      job_.notes.push_back("the spec's alignment 0 (Iometer: sector boundaries) asks --align 512");
    return Status::Ok();
  }

  // Iometer opens its test file unbuffered (FILE_FLAG_NO_BUFFERING): so does the run.
  Status Unbuffered() {
    Emit("direct", "", spec_.line);
    job_.notes.push_back("Iometer's I/O is unbuffered, so the spec asks --direct (--buffered undoes it; the heading says which ran)");
    return Status::Ok();
  }

  // Every worker the spec is assigned to is a thread with its own outstanding I/Os, as in
  // Iometer; workers on one disk share its test file (iobw.tst), so a job's threads share
  // one file. Workers of different depths become jobs of one group, one per depth, run at
  // the same time; each job then has a file of its own. No worker: one thread, --qd.
  Result<std::vector<FileJob>> Workers() {
    struct Depth {
      uint64_t qd = 0;  // 0: the worker names none (--qd's default)
      uint32_t workers = 0;
      int line = 0;
    };
    std::vector<Depth> depths;
    for (const IcfWorker& w : file_.workers) {
      if (std::find(w.assigned.begin(), w.assigned.end(), spec_.name) == w.assigned.end()) continue;
      uint64_t qd = 0;
      if (w.outstanding_line != 0) {
        std::optional<uint64_t> n = WholeNumber(w.outstanding);
        if (!n || *n == 0 || *n > 65535)
          return SpecError(path_, w.outstanding_line,
                           "number of outstanding IOs: '" + w.outstanding + "' is not a depth 1..65535");
        qd = *n;
      }
      auto same = std::find_if(depths.begin(), depths.end(), [qd](const Depth& d) { return d.qd == qd; });
      if (same == depths.end()) depths.push_back({qd, 1, w.outstanding_line});
      else ++same->workers;
    }
    if (depths.empty()) return std::vector<FileJob>{job_};
    std::vector<FileJob> jobs;
    for (const Depth& d : depths) {
      FileJob job = job_;
      if (depths.size() > 1) job.name = spec_.name + " qd" + (d.qd ? std::to_string(d.qd) : std::string("-default"));
      const int line = d.line ? d.line : spec_.line;
      if (d.qd) job.settings.push_back({"qd", std::to_string(d.qd), line});
      if (d.workers > 1) {
        job.settings.push_back({"threads", std::to_string(d.workers), line});
        job.settings.push_back({"shared-file", "", line});
      }
      if (depths.size() > 1)
        job.notes.push_back("Iometer's workers of this spec have " + std::to_string(depths.size()) +
                            " queue depths: one job per depth, run together, each on a file of its own (Iometer's "
                            "workers share one test file)");
      jobs.push_back(std::move(job));
    }
    return jobs;
  }

  const IcfFile& file_;
  const IcfSpec& spec_;
  const std::string& path_;
  std::vector<IcfLine> lines_;  // those with a share above 0
  uint64_t read_pct_ = 0;
  FileJob job_;
};

std::string NameList(const IcfFile& file) {
  std::string out;
  for (const IcfSpec& s : file.specs) out += (out.empty() ? "'" : ", '") + s.name + "'";
  return out.empty() ? "none" : out;
}

}  // namespace

Result<std::vector<std::string>> IometerSpecNames(std::string_view text, const std::string& path) {
  Result<IcfFile> file = ReadIcf(text, path);
  if (!file.ok()) return file.status();
  std::vector<std::string> names;
  for (const IcfSpec& s : file.value().specs) names.push_back(s.name);
  return names;
}

Result<JobFile> ParseIometerSpec(std::string_view text, const std::string& path, const std::string& spec) {
  Result<IcfFile> file = ReadIcf(text, path);
  if (!file.ok()) return file.status();
  for (const IcfSpec& s : file.value().specs) {
    if (s.name != spec) continue;
    Result<std::vector<FileJob>> jobs = SpecTranslator(file.value(), s, path).Translate();
    if (!jobs.ok()) return jobs.status();
    JobFile out;
    out.path = path;
    out.format = "iometer";
    out.jobs = std::move(jobs).value();
    return out;
  }
  return Status::BadInput(path + ": no access specification '" + spec + "'; the file has " + NameList(file.value()));
}

}  // namespace nasperf
