// The monotonic clock the runner uses, and wall-clock timestamps for stored runs.
#include "base/clock.h"

#include <chrono>
#include <ctime>
#include <thread>

namespace nasperf {
namespace {

class RealMonotonicClock final : public Clock {
 public:
  uint64_t NowNs() override { return MonotonicNs(); }
  void SleepNs(uint64_t ns) override { std::this_thread::sleep_for(std::chrono::nanoseconds(ns)); }
};

}  // namespace

Clock& MonotonicClock() {
  static RealMonotonicClock clock;
  return clock;
}

std::string UtcTimestamp() {
  std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

}  // namespace nasperf
