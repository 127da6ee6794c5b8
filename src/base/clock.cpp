// Wall-clock timestamps for stored runs.
#include "base/clock.h"

#include <ctime>

namespace nasperf {

std::string UtcTimestamp() {
  std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

}  // namespace nasperf
