// libFuzzer target: fio job files (run --fio-job FILE, any bytes). Bad input must be one
// BadInput line naming the file; a file that reads has named jobs in groups, whose
// settings are `run` option names with a line in the file.
#include <cstdlib>

#include "fuzz_input.h"
#include "jobfile/fio_job_file.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  nasperf::Result<nasperf::JobFile> file = nasperf::ParseFioJobFile(nasperf::fuzz::AsText(data, size), "fuzz.fio");
  if (!file.ok()) {
    const std::string& message = file.status().message();
    if (file.status().kind() != nasperf::ErrorKind::kBadInput || message.rfind("fuzz.fio", 0) != 0 ||
        message.find('\n') != std::string::npos)
      std::abort();
    return 0;
  }
  if (file.value().jobs.empty() || file.value().format != "fio") std::abort();
  for (const nasperf::FileJob& job : file.value().jobs) {
    if (job.name.empty() || job.group.empty() || job.line < 1) std::abort();
    for (const nasperf::JobSetting& s : job.settings)
      if (s.key.empty() || s.line < 1) std::abort();
  }
  return 0;
}
