// libFuzzer target: one importer (fio JSON, iozone, CrystalDiskMark or auto-detect, chosen
// at build time by NASPERF_FUZZ_FORMAT) on any file content. Every outcome but a
// crash, a hang or a sanitizer report is fine; a result must carry finite figures.
#include <cmath>
#include <cstdlib>

#include "fuzz_input.h"
#include "import/import.h"

#ifndef NASPERF_FUZZ_FORMAT
#define NASPERF_FUZZ_FORMAT kAuto
#endif

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  nasperf::fuzz::MemoryFile file(data, size);
  if (!file.ok()) return 0;
  auto runs = nasperf::ImportFile(file.path(), nasperf::ImportFormat::NASPERF_FUZZ_FORMAT);
  if (!runs.ok()) return 0;
  for (const nasperf::RunResult& run : runs.value()) {
    for (const std::optional<nasperf::DirectionResult>* d : {&run.read, &run.write}) {
      if (!*d) continue;
      // An importer never stores an impossible figure: infinite, NaN or negative.
      const nasperf::DirectionResult& r = **d;
      if (!std::isfinite(r.mb_per_s) || r.mb_per_s < 0 || !std::isfinite(r.iops) || r.iops < 0) std::abort();
    }
  }
  return 0;
}
