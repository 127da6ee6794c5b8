// The data segments one TCP connection has sent, from the kernel's own tcp_info: glibc's
// copy of the struct (netinet/tcp.h) stops before tcpi_data_segs_out, so this reads the
// kernel's (linux/tcp.h) in a file of its own — the two structs share a name.
#pragma once

#include <cstdint>
#include <optional>

namespace nasperf::net {

// tcpi_data_segs_out of the connection `fd` (Linux 4.6+); nullopt when the kernel has none.
std::optional<uint64_t> DataSegmentsOut(int fd);

}  // namespace nasperf::net
