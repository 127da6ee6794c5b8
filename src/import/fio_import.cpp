// fio --output-format=json (fio 3.x; json+ too): one RunResult per entry of "jobs", with
// fio's own figures: io_bytes, total_ios, runtime, bw_bytes, iops and clat_ns.
#include <algorithm>
#include <nlohmann/json.hpp>
#include <sstream>

#include "import/fio_options.h"
#include "import/import_util.h"
#include "base/bounded_json.h"

namespace nasperf::import_detail {
namespace {

using json = nlohmann::json;
constexpr const char* kExpectFio = "fio --output-format=json output";

// Line number (1-based) of byte `offset` of src.text, at most the last line.
size_t LineOf(const SourceText& src, size_t offset) {
  size_t line = 1;
  for (size_t i = 0; i < offset && i < src.text.size(); ++i) line += src.text[i] == '\n';
  return std::min(line, std::max<size_t>(src.lines.size(), 1));
}

// fio prints notes such as "note: both iodepth >= 1 and synchronous I/O engine are
// selected ..." on stdout, so a captured file can hold text around the JSON document.
Result<json> ParseDocument(const SourceText& src, std::vector<std::string>* notes) {
  size_t first = 0;
  while (first < src.lines.size() && !StartsWith(Trim(src.lines[first]), "{")) ++first;
  if (first == src.lines.size()) {
    size_t shown = 0;
    while (shown + 1 < src.lines.size() && Trim(src.lines[shown]).empty()) ++shown;
    return BadLine(src, shown + 1,
                   "no JSON object: the file begins " + Quote(Trim(src.lines[shown])) + LooksLikeHint(src, Guess::kFio),
                   kExpectFio);
  }
  if (first > 0)
    notes->push_back("skipped " + std::to_string(first) + " line(s) before the JSON, starting " +
                     Quote(Trim(src.lines[0])));
  size_t start = static_cast<size_t>(src.lines[first].data() - src.text.data());
  // Before parsing: a value nested 100,000 deep parses, then overflows the stack when
  // copied or dumped.
  if (size_t deep = FindJsonTooDeep(std::string_view(src.text).substr(start), kDefaultMaxJsonDepth);
      deep != std::string_view::npos)
    return BadLine(src, LineOf(src, start + deep),
                   "JSON nested more than " + std::to_string(kDefaultMaxJsonDepth) + " levels deep", kExpectFio);
  std::istringstream in(src.text.substr(start));
  json root;
  try {
    in >> root;  // stops after one document, so trailing text can be reported, not fatal
  } catch (const json::parse_error& e) {
    size_t at = start + (e.byte > 0 ? e.byte - 1 : 0);
    size_t line = LineOf(src, at);
    // Cut short: the parser ran out of input, or failed inside the last token (an unclosed
    // string, half a number). A whole but broken document ends in '}' or ']' instead.
    std::string_view after = std::string_view(src.text).substr(std::min(at + 1, src.text.size()));
    std::string_view all = Trim(src.text);
    bool at_end = Trim(after).empty() && !all.empty() && all.back() != '}' && all.back() != ']';
    if (std::string_view(e.what()).find("end of input") != std::string_view::npos || at_end)
      return BadLine(src, line, "the JSON document ends early (truncated file?)",
                     "a complete " + std::string(kExpectFio));
    return BadLine(src, line, "invalid JSON near " + Quote(Trim(src.lines[line - 1])), kExpectFio);
  } catch (const json::out_of_range& e) {  // 1e400: past a double's range
    return BadLine(src, first + 1, "a number in the JSON is out of range (" + Quote(e.what()) + ")", kExpectFio);
  }
  std::string rest((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (!Trim(rest).empty()) notes->push_back("ignored text after the JSON document: " + Quote(Trim(rest)));
  if (!root.is_object()) return BadLine(src, first + 1, "the JSON value is not an object", kExpectFio);
  return root;
}

// Reads obj[key] as a number; BadField (naming `where`.key) when absent or not a number.
Status Number(const SourceText& src, const json& obj, const std::string& where, const char* key, double* out) {
  auto it = obj.find(key);
  std::string field = where + "." + key;
  if (it == obj.end()) return BadField(src, field, "missing", "a number (fio 3.x JSON)");
  if (!it->is_number() || it->get<double>() < 0)
    return BadField(src, field, "is " + Quote(it->dump(), 30), "a non-negative number");
  *out = it->get<double>();
  return Status::Ok();
}

Status Unsigned(const SourceText& src, const json& obj, const std::string& where, const char* key, uint64_t* out) {
  auto it = obj.find(key);
  std::string field = where + "." + key;
  if (it == obj.end()) return BadField(src, field, "missing", "an integer (fio 3.x JSON)");
  if (!it->is_number_unsigned()) return BadField(src, field, "is " + Quote(it->dump(), 30), "a non-negative integer");
  *out = it->get<uint64_t>();
  return Status::Ok();
}

#define RETURN_IF_ERROR(expr)          \
  do {                                 \
    Status status_ = (expr);           \
    if (!status_.ok()) return status_; \
  } while (0)

// One direction ("read" or "write") of one job; left empty when it moved no bytes.
Status ImportDirection(const SourceText& src, const json& job, const std::string& where, const char* dir,
                       std::optional<DirectionResult>* out, std::vector<std::string>* notes) {
  std::string field = where + "." + dir;
  auto it = job.find(dir);
  if (it == job.end() || !it->is_object()) return BadField(src, field, "missing", "an object with fio's figures");
  const json& d = *it;
  uint64_t io_bytes = 0;
  RETURN_IF_ERROR(Unsigned(src, d, field, "io_bytes", &io_bytes));
  if (io_bytes == 0) return Status::Ok();
  DirectionResult r;
  r.bytes = io_bytes;
  double bw_bytes = 0, runtime_ms = 0;
  RETURN_IF_ERROR(Unsigned(src, d, field, "total_ios", &r.ios));
  RETURN_IF_ERROR(Number(src, d, field, "bw_bytes", &bw_bytes));
  RETURN_IF_ERROR(Number(src, d, field, "iops", &r.iops));
  RETURN_IF_ERROR(Number(src, d, field, "runtime", &runtime_ms));
  r.seconds = runtime_ms / 1000.0;
  r.mb_per_s = bw_bytes / 1e6;  // bw_bytes is B/s; fio's "bw" is KiB/s
  auto clat = d.find("clat_ns");
  if (clat == d.end() || !clat->is_object())
    return BadField(src, field + ".clat_ns", "missing", "an object (fio 3.x JSON)");
  uint64_t n = 0;
  if (clat->contains("N") && (*clat)["N"].is_number_unsigned()) n = (*clat)["N"].get<uint64_t>();
  if (n == 0) {
    notes->push_back(std::string(dir) + ": fio recorded no completion latencies (disable_clat or gtod_reduce)");
  } else {
    double mean_ns = 0, max_ns = 0;
    RETURN_IF_ERROR(Number(src, *clat, field + ".clat_ns", "mean", &mean_ns));
    RETURN_IF_ERROR(Number(src, *clat, field + ".clat_ns", "max", &max_ns));
    r.lat.mean_us = mean_ns / 1000.0;
    r.lat.max_us = max_ns / 1000.0;
    const std::pair<const char*, double*> wanted[] = {{"50.000000", &r.lat.p50_us},
                                                      {"90.000000", &r.lat.p90_us},
                                                      {"99.000000", &r.lat.p99_us},
                                                      {"99.900000", &r.lat.p999_us}};
    auto pct = clat->find("percentile");
    std::string missing;
    for (const auto& [key, dest] : wanted) {
      if (pct != clat->end() && pct->is_object() && pct->contains(key) && (*pct)[key].is_number()) {
        *dest = (*pct)[key].get<double>() / 1000.0;
      } else {
        missing += std::string(missing.empty() ? "" : ", ") + key;
      }
    }
    if (!missing.empty()) notes->push_back(std::string(dir) + ": fio gave no clat percentile " + missing + " (left 0)");
  }
  *out = r;
  return Status::Ok();
}

// obj[key] when it is a string, else "" (json::value would throw on a wrong type).
std::string StringAt(const json& obj, const char* key) {
  auto it = obj.find(key);
  return it != obj.end() && it->is_string() ? it->get<std::string>() : std::string();
}

FioOptions OptionsOf(const json& obj, const char* key) {
  FioOptions options;
  auto it = obj.find(key);
  if (it == obj.end() || !it->is_object()) return options;
  for (const auto& [name, value] : it->items())
    options[name] = value.is_string() ? value.get<std::string>() : value.dump();
  return options;
}

// One entry of "jobs"; `options` are the global options overlaid with the job's own.
Result<RunResult> ImportJob(const SourceText& src, const json& root, const json& job, const std::string& where,
                            const FioOptions& options, size_t clone, size_t clones) {
  RunResult run;
  run.source_tool = "fio";
  if (root.contains("fio version") && root["fio version"].is_string())
    run.notes.push_back("measured by " + root["fio version"].get<std::string>());
  auto name = job.find("jobname");
  if (name == job.end() || !name->is_string()) return BadField(src, where + ".jobname", "missing", "the job's name");
  run.name = name->get<std::string>();
  FioJob fio_job = JobFromFioOptions(options, &run.notes);
  run.job = fio_job.spec;
  run.engine = fio_job.engine;
  run.target = fio_job.target;
  if (clones > 1) {
    // numjobs=N without group_reporting: fio reports each clone of the job on its own.
    run.job.threads = 1;
    run.name += " #" + std::to_string(clone);
    run.notes.push_back("clone " + std::to_string(clone) + " of " + std::to_string(clones) +
                        " (fio numjobs without group_reporting reports each clone)");
  }
  RETURN_IF_ERROR(ImportDirection(src, job, where, "read", &run.read, &run.notes));
  RETURN_IF_ERROR(ImportDirection(src, job, where, "write", &run.write, &run.notes));
  if (auto trim = job.find("trim"); trim != job.end() && trim->is_object()) {
    auto bytes = trim->find("io_bytes");
    if (bytes != trim->end() && bytes->is_number_unsigned() && bytes->get<uint64_t>() > 0)
      run.notes.push_back("fio trim figures are not imported");
  }
  if (!fio_job.size_known) {
    uint64_t moved = (run.read ? run.read->bytes : 0) + (run.write ? run.write->bytes : 0);
    run.job.size = moved / run.job.threads;
    run.notes.push_back("size not in the job options: set to the bytes moved per thread");
  }
  run.job.read_mix_pct = DoesReads(run.job.rw) && DoesWrites(run.job.rw) ? run.job.read_mix_pct : 50;
  if (job.contains("usr_cpu") && job["usr_cpu"].is_number()) run.cpu.user_pct = job["usr_cpu"].get<double>();
  if (job.contains("sys_cpu") && job["sys_cpu"].is_number()) run.cpu.sys_pct = job["sys_cpu"].get<double>();
  if (job.contains("error") && job["error"].is_number_integer() && job["error"].get<int64_t>() != 0) {
    run.partial = true;
    run.error = "fio reported error " + std::to_string(job["error"].get<int64_t>()) + " for this job";
  }
  // fio stamps the report when the run has ended; its start is the job's elapsed time before.
  int64_t end_s = -1;
  if (root.contains("timestamp_ms") && root["timestamp_ms"].is_number_unsigned())
    end_s = static_cast<int64_t>(root["timestamp_ms"].get<uint64_t>() / 1000);
  else if (root.contains("timestamp") && root["timestamp"].is_number_unsigned())
    end_s = static_cast<int64_t>(root["timestamp"].get<uint64_t>());
  if (end_s >= 0) {
    int64_t elapsed =
        job.contains("elapsed") && job["elapsed"].is_number_unsigned() ? job["elapsed"].get<int64_t>() : 0;
    run.started_at = FormatUtc(end_s - elapsed);
    run.notes.push_back("started_at is fio's report time less the job's elapsed " + std::to_string(elapsed) +
                        " s (to the second)");
  }
  run.notes.push_back("latency is fio's completion latency (clat), without submission latency");
  return run;
}

#undef RETURN_IF_ERROR

}  // namespace

Result<std::vector<RunResult>> ImportFio(const SourceText& src) {
  std::vector<std::string> doc_notes;
  Result<json> parsed = ParseDocument(src, &doc_notes);
  if (!parsed.ok()) return parsed.status();
  const json& root = parsed.value();
  const char* list = "jobs";
  if (!root.contains("jobs") && root.contains("client_stats")) list = "client_stats";  // fio --client runs
  auto jobs = root.find(list);
  if (jobs == root.end()) {
    std::string why = root.contains("fio version") ? "missing" : "missing, and there is no \"fio version\" either";
    return BadField(src, "jobs", why, "the array of jobs of " + std::string(kExpectFio));
  }
  if (!jobs->is_array() || jobs->empty())
    return BadField(src, list, "is " + Quote(jobs->dump(), 30), "a non-empty array of jobs");
  // Entries per job name: numjobs=N gives N entries unless group_reporting folded them.
  std::map<std::string, size_t> entries, seen;
  for (const json& job : *jobs)
    if (job.is_object() && job.contains("jobname") && job["jobname"].is_string())
      ++entries[job["jobname"].get<std::string>()];
  std::vector<RunResult> runs;
  for (size_t i = 0; i < jobs->size(); ++i) {
    const json& job = (*jobs)[i];
    std::string where = std::string(list) + "[" + std::to_string(i) + "]";
    if (!job.is_object()) return BadField(src, where, "is not an object", "a job object");
    std::string name = StringAt(job, "jobname");
    if (name == "All clients") continue;  // fio --client's sum of the others
    FioOptions options = OptionsOf(root, "global options");
    for (const auto& [k, v] : OptionsOf(job, "job options")) options[k] = v;  // a job's own options win
    uint64_t numjobs = 1;
    if (options.count("numjobs")) ParseUnsigned(options["numjobs"], &numjobs);
    size_t clones = numjobs > 1 && entries[name] == numjobs ? numjobs : 1;
    Result<RunResult> run = ImportJob(src, root, job, where, options, ++seen[name], clones);
    if (!run.ok()) return run.status();
    run.value().notes.insert(run.value().notes.begin(), doc_notes.begin(), doc_notes.end());
    runs.push_back(std::move(run).value());
  }
  if (runs.empty()) return BadField(src, list, "holds no job results", "at least one job");
  return runs;
}

}  // namespace nasperf::import_detail
