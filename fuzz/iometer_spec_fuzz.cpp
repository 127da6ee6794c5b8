// libFuzzer target: Iometer configurations (run --iometer FILE --spec NAME, any bytes).
// Bad input must be one BadInput line naming the file; every spec the file names either
// reads as its job (one per queue depth of its workers) or is refused in one line, and so
// is a name it lacks.
#include <cstdlib>

#include "fuzz_input.h"
#include "jobfile/iometer_spec.h"

namespace {

void Check(const nasperf::Result<nasperf::JobFile>& file, const std::string& spec) {
  if (!file.ok()) {
    const std::string& message = file.status().message();
    if (file.status().kind() != nasperf::ErrorKind::kBadInput || message.rfind("fuzz.icf", 0) != 0 ||
        message.find('\n') != std::string::npos)
      std::abort();
    return;
  }
  // One job named after the spec, or one per queue depth of its workers ("SPEC qdN"), all
  // in one group.
  const std::vector<nasperf::FileJob>& jobs = file.value().jobs;
  if (jobs.empty()) std::abort();
  for (const nasperf::FileJob& job : jobs) {
    if (jobs.size() == 1 ? job.name != spec : job.name.rfind(spec + " qd", 0) != 0) std::abort();
    if (job.group != jobs[0].group) std::abort();
    for (const nasperf::JobSetting& s : job.settings)
      if (s.key.empty() || s.line < 1) std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text = nasperf::fuzz::AsText(data, size);
  nasperf::Result<std::vector<std::string>> names = nasperf::IometerSpecNames(text, "fuzz.icf");
  Check(nasperf::ParseIometerSpec(text, "fuzz.icf", "no such spec"), "no such spec");
  if (!names.ok()) return 0;
  for (size_t i = 0; i < names.value().size() && i < 8; ++i)
    Check(nasperf::ParseIometerSpec(text, "fuzz.icf", names.value()[i]), names.value()[i]);
  return 0;
}
