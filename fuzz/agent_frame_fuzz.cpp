// libFuzzer target: bytes as an agent or a client receives them after authentication —
// any number of frames — through the frame decoder and every message body's decoder.
// A hostile peer may send anything under the 1 MiB frame limit; nothing may crash.
#include "wire/messages.h"
#include "fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  (void)nasperf::DecodeAgentFrames(nasperf::fuzz::AsText(data, size));
  return 0;
}
