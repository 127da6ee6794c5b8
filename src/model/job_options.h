// The job options as data: one descriptor per JobSpec option, read by the CLI binding
// (cli/job_options), the job's JSON codec (model/job_json), the CSV export and the README
// check. Adding an option is one entry in kJobOptions (job_options.cpp).
#pragma once

#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <string_view>

#include "nasperf/job.h"
#include "nasperf/status.h"

namespace nasperf {

struct JobOption {
  const char* name;         // as typed: "--qd"
  const char* value_name;   // the README's placeholder: "N", "read|write|..."; nullptr: a flag
  const char* help;         // the line `--help` shows
  const char* doc;          // the README's description
  const char* doc_default;  // the README's default column
  // The text that gives JobSpec{}'s value (a test holds the two together); nullptr when
  // the default is not a text (a flag, --size's target-dependent one, --seed's fresh one):
  // then an empty value means "not given".
  const char* default_text;
  // Text as typed -> the JobSpec field; BadInput naming the option. A flag gets "".
  Status (*parse)(const std::string& text, JobSpec& job);
  // The field's limits, for any job however made (CLI, JSON, import); nullptr: none.
  // `has_file`: false for a network test (no file, size 0). JobSpec::ValidateLimits runs them.
  Status (*validate)(const JobSpec& job, bool has_file);
  // The job object's key(s) in JSON document order (table order); to_json may add none
  // (e.g. "mix_read_pct" only for mixed patterns). from_json may throw nlohmann's exceptions
  // (a wrong type, a missing required key); JobFromJson turns them into BadInput.
  const char* json_key;
  void (*to_json)(const JobSpec& job, nlohmann::ordered_json& out);
  Status (*from_json)(const nlohmann::json& in, JobSpec& job);
  const char* csv_column;  // nullptr: not a CSV column
  std::string (*to_csv)(const JobSpec& job);
};

// Every job option, in the order of the JSON document's job object.
std::span<const JobOption> JobOptionTable();
// The option called `name` ("--qd"); nullptr when there is none.
const JobOption* FindJobOption(std::string_view name);

// "32" -> 32 for counts like --qd; BadInput naming `option` otherwise.
Result<uint64_t> ParseCount(const std::string& text, const std::string& option);

}  // namespace nasperf
