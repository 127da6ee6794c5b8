// Host facts that can change a result: CPU, memory, OS and kernel, network interfaces.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace nasperf::sysinfo {

// {"hostname", "cpu": {...}, "memory": {...}, "os": {...}, "nics": [...]}; unknown values are null.
// `root` prefixes /proc, /sys and /etc (tests point it at a fake tree; "" is the real system);
// hostname, kernel and arch always come from uname(2). Reads only; needs no privileges.
nlohmann::ordered_json GatherHost(const std::string& root = "");

// {"model", "cores_logical", "cores_physical", "governor", "mhz_max"}: cores_physical counts
// distinct (package, core) pairs among online CPUs; governor is "mixed" when CPUs differ.
nlohmann::ordered_json GatherCpu(const std::string& root = "");

// {"total_bytes", "page_cache_bytes", "available_bytes"} from meminfo: MemTotal, Cached
// (what the page cache holds now) and MemAvailable (what it could grow to without swapping).
nlohmann::ordered_json GatherMemory(const std::string& root = "");

}  // namespace nasperf::sysinfo
