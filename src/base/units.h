// Parsing and printing of sizes and durations, with the units DESIGN.md fixes:
// k/m/g/t and KiB/MiB/GiB/TiB are binary, KB/MB/GB/TB decimal, a bare number is bytes.
#pragma once

#include <cstdint>
#include <string>

#include "nasperf/status.h"

namespace nasperf {

// "4k" -> 4096, "1MB" -> 1000000, "512" -> 512. BadInput on anything else.
Result<uint64_t> ParseSize(const std::string& text);
// "10" and "10s" -> 10, "500ms" -> 0.5, "2m" -> 120, "1h" -> 3600. BadInput otherwise.
Result<double> ParseDuration(const std::string& text);
// 1048576 -> "1 MiB", 1500 -> "1500 B": exact binary units when they divide evenly.
std::string FormatSize(uint64_t bytes);
// Sizes that are rarely whole units, like RAM: "23.4 GiB" (one decimal from 1 GiB up),
// "256 MiB" below.
std::string FormatApproxSize(uint64_t bytes);

}  // namespace nasperf
