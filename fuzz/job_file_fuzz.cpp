// libFuzzer target: nasperf's TOML job file (run --job FILE, any bytes). Bad input must be
// one BadInput line naming the file; a file that reads has named jobs whose settings all
// have a key and a line in the file.
#include <cstdlib>

#include "fuzz_input.h"
#include "jobfile/toml_job_file.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  nasperf::Result<nasperf::JobFile> file = nasperf::ReadTomlJobFile(nasperf::fuzz::AsText(data, size), "fuzz.toml");
  if (!file.ok()) {
    const std::string& message = file.status().message();
    if (file.status().kind() != nasperf::ErrorKind::kBadInput || message.rfind("fuzz.toml:", 0) != 0 ||
        message.find('\n') != std::string::npos)
      std::abort();
    return 0;
  }
  for (const nasperf::FileJob& job : file.value().jobs) {
    if (job.name.empty() || job.line < 1) std::abort();
    for (const nasperf::JobSetting& s : job.settings)
      if (s.key.empty() || s.line < 1) std::abort();
  }
  return 0;
}
