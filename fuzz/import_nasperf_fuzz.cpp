// libFuzzer target: a file given to `results import --format nasperf` (nasperf's own
// --json document, perhaps edited by hand or by another program): read, depth-checked,
// decoded and checked exactly as the command does.
#include "fuzz_input.h"
#include "import/nasperf_import.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  nasperf::fuzz::MemoryFile file(data, size);
  if (!file.ok()) return 0;
  (void)nasperf::ImportNasperfDocument(file.path(), true);
  return 0;
}
