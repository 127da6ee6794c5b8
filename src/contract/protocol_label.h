// How a protocol's label joins its name and negotiated version ("SMB 3.1.1", "NFSv3"):
// data that the scheme table (src/proto/schemes.cpp) registers at start-up, so that
// ProtocolFacts::label (include/nasperf/result.h) needs no protocol's name.
#pragma once

#include <string>

namespace nasperf {

// `protocol` ("NFS") is labelled protocol + joiner + version ("NFSv3"); a protocol with no
// joiner registered is labelled "PROTOCOL VERSION", or "PROTOCOL" when no version is known. Call before threads start (static initialisation); not thread-safe.
void SetProtocolVersionJoiner(const std::string& protocol, const std::string& joiner);

}  // namespace nasperf
