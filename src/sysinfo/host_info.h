// Host facts that can change a result: CPU, memory, OS and kernel, network interfaces.
#pragma once

#include <string>

#include "sysinfo/inventory_facts.h"

namespace nasperf::sysinfo {

// Hostname, CPU, memory, OS and NICs; unknown values are nullopt.
// `root` prefixes /proc, /sys and /etc (tests point it at a fake tree; "" is the real system);
// hostname, kernel and arch always come from uname(2). Reads only; needs no privileges.
HostInventory GatherHost(const std::string& root = "");

// cores_physical counts
// distinct (package, core) pairs among online CPUs; governor is "mixed" when CPUs differ.
CpuFacts GatherCpu(const std::string& root = "");

// From meminfo: total_bytes is MemTotal, page_cache_bytes Cached
// (what the page cache holds now), available_bytes MemAvailable (what it could grow to without swapping).
MemoryFacts GatherMemory(const std::string& root = "");

}  // namespace nasperf::sysinfo
