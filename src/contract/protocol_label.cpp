// ProtocolFacts::label and the joiners the scheme table registers.
#include "contract/protocol_label.h"

#include <map>

#include "nasperf/result.h"

namespace nasperf {
namespace {

std::map<std::string, std::string>& Joiners() {
  static std::map<std::string, std::string> joiners;
  return joiners;
}

}  // namespace

void SetProtocolVersionJoiner(const std::string& protocol, const std::string& joiner) { Joiners()[protocol] = joiner; }

std::string ProtocolFacts::label() const {
  auto it = Joiners().find(protocol);
  if (it != Joiners().end()) return protocol + it->second + version;
  return version.empty() ? protocol : protocol + " " + version;
}

}  // namespace nasperf
