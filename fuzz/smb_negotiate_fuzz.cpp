// libFuzzer target: an SMB2 NEGOTIATE response as a server (or an attacker posing as one)
// may send it. The parser must never read outside the message.
#include <span>

#include "proto/smb/smb2_negotiate.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  (void)nasperf::ParseSmb2NegotiateResponse(std::span<const uint8_t>(data, size), "fuzz:445");
  return 0;
}
