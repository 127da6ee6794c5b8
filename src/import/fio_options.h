// fio job options (the strings of "global options" and "job options" in fio's JSON) read
// into a JobSpec with fio's own rules for sizes, defaults and option aliases.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "nasperf/job.h"

namespace nasperf::import_detail {

using FioOptions = std::map<std::string, std::string>;

// fio's size syntax: a number with an optional k/m/g/t/p suffix, itself optionally followed
// by "b" or "ib". With kb_base=1024 (fio's default) "k" and "kb" mean 1024 and, by fio's
// compatibility rule, "kib" means 1000; kb_base=1000 swaps the two. nullopt for anything
// else (percentages, ranges).
std::optional<uint64_t> ParseFioSize(std::string_view text, unsigned kb_base);

// What the options say about the job. `threads` is numjobs; the caller corrects it for
// fio's per-clone entries. Notes explain every default assumed and value not understood.
struct FioJob {
  JobSpec spec;
  std::string target;       // filename, or directory, when given
  bool size_known = false;  // false: spec.size still needs a value
  std::string engine;       // ioengine as fio ran it
};
FioJob JobFromFioOptions(const FioOptions& options, std::vector<std::string>* notes);

}  // namespace nasperf::import_detail
