// How the rules write figures in their sentences: MB/s and % rounded to whole units.
#pragma once

#include <fmt/format.h>

#include <string>

namespace nasperf::diagnose {

inline std::string Mb(double mb_per_s) { return fmt::format("{:.0f} MB/s", mb_per_s); }
inline std::string Pct(double pct) { return fmt::format("{:.0f} %", pct); }

}  // namespace nasperf::diagnose
