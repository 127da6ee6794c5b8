// libFuzzer target: the parsers of option values and command lines — sizes, durations,
// protocol URLs, import formats, compare's --line rates, every job option's descriptor
// (parse, then validate) — and the redaction of a stored command line. Each
// must give a value or a BadInput, never crash, hang or recurse per character.
#include "cli/command_line.h"
#include "base/units.h"
#include "fuzz_input.h"
#include "import/import.h"
#include "model/job_options.h"
#include "proto/url.h"
#include "report/compare.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::vector<std::string> words = nasperf::fuzz::SplitAtNul(data, size);
  std::vector<const char*> argv;
  for (const std::string& w : words) {
    (void)nasperf::ParseSize(w);
    (void)nasperf::ParseDuration(w);
    (void)nasperf::ParseImportFormat(w);
    (void)nasperf::ParseLineRate(w);
    if (nasperf::IsProtocolUrl(w)) (void)nasperf::ParseProtocolUrl(w);
    for (const nasperf::JobOption& option : nasperf::JobOptionTable()) {
      nasperf::JobSpec job;
      if (option.parse && option.parse(w, job).ok() && option.validate) (void)option.validate(job, true);
    }
    argv.push_back(w.c_str());
  }
  (void)nasperf::RedactedCommandLine(static_cast<int>(argv.size()), argv.data());
  return 0;
}
