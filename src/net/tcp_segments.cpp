#include "net/tcp_segments.h"

#include <linux/tcp.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <cstddef>

namespace nasperf::net {

std::optional<uint64_t> DataSegmentsOut(int fd) {
  tcp_info info{};
  socklen_t len = sizeof(info);
  if (::getsockopt(fd, IPPROTO_TCP, TCP_INFO, &info, &len) != 0) return std::nullopt;
  if (len < offsetof(tcp_info, tcpi_data_segs_out) + sizeof(info.tcpi_data_segs_out)) return std::nullopt;
  return info.tcpi_data_segs_out;
}

}  // namespace nasperf::net
