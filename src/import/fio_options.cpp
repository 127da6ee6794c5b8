// fio job options → JobSpec; see fio_options.h. Defaults are fio's, not nasperf's.
#include "import/fio_options.h"

#include <cctype>
#include <cmath>

#include "base/units.h"
#include "import/import_util.h"

namespace nasperf::import_detail {
namespace {

std::string Lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

const std::string* Find(const FioOptions& options, std::initializer_list<const char*> names) {
  for (const char* name : names) {
    auto it = options.find(name);
    if (it != options.end()) return &it->second;
  }
  return nullptr;
}

// fio's booleans: numbers, true/false, yes/no, on/off; a flag given without a value is set.
std::optional<bool> FioBool(const std::string& value) {
  std::string v = Lower(Trim(value));
  if (v.empty() || v == "true" || v == "yes" || v == "on") return true;
  if (v == "false" || v == "no" || v == "off") return false;
  uint64_t n = 0;
  if (ParseUnsigned(v, &n)) return n != 0;
  return std::nullopt;
}

std::optional<uint64_t> FioUnsigned(const std::string& value) {
  uint64_t n = 0;
  if (ParseUnsigned(Trim(value), &n)) return n;
  return std::nullopt;
}

// fio's "rw" may carry an offset modifier ("randread:8"); readwrite is an alias of rw.
std::optional<AccessPattern> FioPattern(const std::string& value) {
  std::string v = Lower(Trim(value.substr(0, value.find(':'))));
  if (v == "readwrite") v = "rw";
  return ParseAccessPattern(v);
}

bool IsSyncEngine(const std::string& engine) {
  return engine == "psync" || engine == "sync" || engine == "vsync" || engine == "pvsync" || engine == "pvsync2";
}

// rw (fio's default: read) and the read share of a mixed pattern.
void ReadPattern(const FioOptions& options, JobSpec* spec, std::vector<std::string>* notes) {
  spec->rw = AccessPattern::kRead;  // fio's default
  if (const std::string* v = Find(options, {"rw", "readwrite"})) {
    if (std::optional<AccessPattern> rw = FioPattern(*v)) {
      spec->rw = *rw;
    } else {
      notes->push_back("fio rw=" + *v + " has no nasperf equivalent; recorded as read");
    }
  }
  if (const std::string* v = Find(options, {"rwmixread"}); v && FioUnsigned(*v) && *FioUnsigned(*v) <= 100) {
    spec->read_mix_pct = static_cast<int>(*FioUnsigned(*v));
  } else if (const std::string* w = Find(options, {"rwmixwrite"}); w && FioUnsigned(*w) && *FioUnsigned(*w) <= 100) {
    spec->read_mix_pct = 100 - static_cast<int>(*FioUnsigned(*w));
  }
}

void ReadBlockSize(const FioOptions& options, unsigned kb_base, JobSpec* spec, std::vector<std::string>* notes) {
  spec->bs = 4096;  // fio's default block size
  if (const std::string* v = Find(options, {"bs", "blocksize"})) {
    // "4k" for all directions, or "read,write[,trim]" sizes.
    std::string first = v->substr(0, v->find(','));
    if (std::optional<uint64_t> bs = ParseFioSize(first, kb_base); bs && *bs > 0) {
      spec->bs = *bs;
      if (first != *v) notes->push_back("fio bs=" + *v + " differs per direction; the first (read) size is recorded");
    } else {
      notes->push_back("fio bs=" + *v + " is not a single size; 4 KiB (fio's default) recorded");
    }
  }
  if (Find(options, {"bsrange", "blocksize_range", "bssplit"}))
    notes->push_back("fio mixed block sizes (bsrange/bssplit); bs is only the base size");
}

// iodepth and numjobs, at least 1 each.
void ReadDepthAndJobs(const FioOptions& options, JobSpec* spec) {
  if (const std::string* v = Find(options, {"iodepth"})) spec->qd = static_cast<uint32_t>(FioUnsigned(*v).value_or(1));
  if (const std::string* v = Find(options, {"numjobs"}))
    spec->threads = static_cast<uint32_t>(FioUnsigned(*v).value_or(1));
  if (spec->qd == 0) spec->qd = 1;
  if (spec->threads == 0) spec->threads = 1;
}

void ReadSize(const FioOptions& options, unsigned kb_base, FioJob* job, std::vector<std::string>* notes) {
  if (const std::string* v = Find(options, {"size", "filesize"})) {
    if (std::optional<uint64_t> size = ParseFioSize(*v, kb_base)) {
      job->spec.size = *size;
      job->size_known = true;
    } else {
      notes->push_back("fio size=" + *v + " is not an absolute size");
    }
  }
}

// The engine as fio ran it; after ReadDepthAndJobs, whose depth a synchronous engine ignores.
void ReadEngine(const FioOptions& options, FioJob* job, std::vector<std::string>* notes) {
  if (const std::string* v = Find(options, {"ioengine"})) {
    job->engine = *v;
  } else {
    job->engine = "psync";
    notes->push_back("ioengine not given: fio's default on Linux, psync, assumed");
  }
  job->spec.engine = job->engine;
  if (IsSyncEngine(job->engine) && job->spec.qd > 1)
    notes->push_back("fio's " + job->engine + " engine is synchronous: the queue depth in effect was 1, not iodepth=" +
                     std::to_string(job->spec.qd));
}

// runtime, time_based and ramp_time.
void ReadTiming(const FioOptions& options, JobSpec* spec, std::vector<std::string>* notes) {
  if (const std::string* v = Find(options, {"runtime", "timeout"})) {
    if (Result<double> t = ParseDuration(std::string(Trim(*v))); t.ok()) {
      spec->time_s = t.value();
    } else {
      notes->push_back("fio runtime=" + *v + " not understood");
    }
  }
  if (const std::string* v = Find(options, {"time_based"})) spec->time_based = FioBool(*v).value_or(true);
  if (const std::string* v = Find(options, {"ramp_time"})) {
    if (Result<double> t = ParseDuration(std::string(Trim(*v))); t.ok()) spec->ramp_s = t.value();
  }
}

// filename, relative to directory when both are given.
void ReadTarget(const FioOptions& options, FioJob* job) {
  const std::string* dir = Find(options, {"directory"});
  if (const std::string* file = Find(options, {"filename"})) {
    job->target = (dir && !file->empty() && file->front() != '/') ? *dir + "/" + *file : *file;
  } else if (dir) {
    job->target = *dir;
  }
}

}  // namespace

std::optional<uint64_t> ParseFioSize(std::string_view text, unsigned kb_base) {
  text = Trim(text);
  size_t i = 0;
  while (i < text.size() && (std::isdigit(static_cast<unsigned char>(text[i])) || text[i] == '.')) ++i;
  double number = 0;
  if (!ParsePlainDecimal(text.substr(0, i), &number)) return std::nullopt;
  std::string suffix = Lower(text.substr(i));
  int power = 0;
  double base = kb_base;
  if (!suffix.empty()) {
    const std::string units = "kmgtp";
    size_t u = units.find(suffix[0]);
    if (u == std::string::npos) return std::nullopt;
    power = static_cast<int>(u) + 1;
    std::string rest = suffix.substr(1);
    if (rest == "ib") {
      base = kb_base == 1000 ? 1024 : 1000;  // fio's "opposite units" in compatibility mode
    } else if (!rest.empty() && rest != "b") {
      return std::nullopt;
    }
  }
  double bytes = std::round(number * std::pow(base, power));
  if (bytes < 0 || bytes > 1.8e19) return std::nullopt;
  return static_cast<uint64_t>(bytes);
}

FioJob JobFromFioOptions(const FioOptions& options, std::vector<std::string>* notes) {
  FioJob job;
  JobSpec& spec = job.spec;
  unsigned kb_base = 1024;
  if (const std::string* v = Find(options, {"kb_base"}); v && Trim(*v) == "1000") kb_base = 1000;
  // In this order: the notes follow it.
  ReadPattern(options, &spec, notes);
  ReadBlockSize(options, kb_base, &spec, notes);
  ReadDepthAndJobs(options, &spec);
  ReadSize(options, kb_base, &job, notes);
  if (const std::string* v = Find(options, {"direct"})) spec.direct = FioBool(*v).value_or(false);
  if (const std::string* v = Find(options, {"buffered"}); v && FioBool(*v) == false) spec.direct = true;
  ReadEngine(options, &job, notes);
  ReadTiming(options, &spec, notes);
  if (const std::string* v = Find(options, {"end_fsync"}); v && FioBool(*v) == true) spec.fsync = true;
  if (const std::string* v = Find(options, {"fsync", "fdatasync"}); v && FioBool(*v) == true)
    notes->push_back("fio synced every " + *v + " writes; nasperf's fsync flag only covers a final sync");
  ReadTarget(options, &job);
  return job;
}

}  // namespace nasperf::import_detail
