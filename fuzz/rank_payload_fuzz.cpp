// libFuzzer target: a rank's result as rank 0 receives it from another rank under mpirun
// (run's and app's payloads). A peer's bytes may be anything; nothing may crash.
#include <optional>
#include <string>

#include "cluster/rank_payload.h"
#include "fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string bytes(nasperf::fuzz::AsText(data, size));
  (void)nasperf::DecodeRankRun(bytes);
  std::optional<nasperf::OpHistograms> ops;
  (void)nasperf::DecodeAppRankRun(bytes, &ops);
  return 0;
}
