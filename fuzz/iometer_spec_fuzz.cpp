// libFuzzer target: Iometer configurations (run --iometer FILE --spec NAME, any bytes).
// Bad input must be one BadInput line naming the file; every spec the file names either
// reads as one job of that name or is refused in one line, and so is a name it lacks.
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
  if (file.value().jobs.size() != 1 || file.value().jobs[0].name != spec) std::abort();
  for (const nasperf::JobSetting& s : file.value().jobs[0].settings)
    if (s.key.empty() || s.line < 1) std::abort();
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
