// The data path of `nasperf net`: send and receive loops, socket preparation, TCP facts.
#include "net/net_stream.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <ifaddrs.h>
#include <linux/errqueue.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/mman.h>
#include <sys/sendfile.h>
#include <sys/socket.h>

#include <cerrno>
#include <cstdlib>
#include <csignal>
#include <cstring>
#include <fstream>

#include <fmt/format.h>

#include "base/clock.h"
#include "net/tcp_segments.h"

#ifndef SO_ZEROCOPY
#define SO_ZEROCOPY 60
#endif
#ifndef MSG_ZEROCOPY
#define MSG_ZEROCOPY 0x4000000
#endif

namespace nasperf::net {
namespace {

// How long one blocking send/recv may wait before the loop looks at the clock and `stop`.
constexpr int kWakeMs = 200;

// Reaps MSG_ZEROCOPY completions without blocking. The block never changes, so nothing
// waits for them; they must only be drained so the socket's option memory does not fill.
void ReapZeroCopy(int fd) {
  alignas(cmsghdr) char control[128];
  for (;;) {
    msghdr msg{};
    msg.msg_control = control;
    msg.msg_controllen = sizeof(control);
    if (::recvmsg(fd, &msg, MSG_ERRQUEUE | MSG_DONTWAIT) < 0) return;
  }
}

StreamOutcome Fail(StreamOutcome out, const char* what, int err) {
  out.end = StreamEnd::kError;
  out.end_ns = MonotonicNs();
  out.status = Status::Io(fmt::format("{}: {}", what, std::strerror(err)), err);
  return out;
}

// Shared end-of-iteration checks; true when the loop must end (with `out` set).
bool Stalled(StreamOutcome& out, uint64_t now, uint64_t since_ns, const StreamLimits& limits) {
  if (now - since_ns < limits.stall_ns) return false;
  out.end = StreamEnd::kStalled;
  out.end_ns = now;
  out.status = Status::Io(fmt::format("no data moved for {:.0f} s: the link or the peer is gone",
                                      static_cast<double>(limits.stall_ns) / 1e9));
  return true;
}

}  // namespace

const char* ToString(SendMode mode) {
  switch (mode) {
    case SendMode::kSendfile: return "sendfile";
    case SendMode::kMsgZerocopy: return "msg_zerocopy";
    default: return "none";
  }
}

std::optional<SendMode> ParseSendMode(const std::string& text) {
  if (text == "none") return SendMode::kCopy;
  if (text == "sendfile") return SendMode::kSendfile;
  if (text == "msg_zerocopy") return SendMode::kMsgZerocopy;
  return std::nullopt;
}

// NASPERF_NET_ZEROCOPY=sendfile|msg_zerocopy|none overrides the measured choice, so that
// the modes can be compared; anything else is ignored.
static std::optional<SendMode> ForcedMode() {
  static const std::optional<SendMode> forced = [] {
    const char* env = std::getenv("NASPERF_NET_ZEROCOPY");
    return env ? ParseSendMode(env) : std::nullopt;
  }();
  return forced;
}

SendMode PreferredZeroCopyMode() { return ForcedMode().value_or(SendMode::kSendfile); }

SendMode ChooseSendMode(int fd, bool zerocopy_wanted) {
  if (!zerocopy_wanted) return SendMode::kCopy;
  if (ForcedMode()) return *ForcedMode();
  sockaddr_storage local{};
  socklen_t len = sizeof(local);
  if (::getsockname(fd, reinterpret_cast<sockaddr*>(&local), &len) == 0) {
    if (local.ss_family == AF_INET &&
        (ntohl(reinterpret_cast<sockaddr_in*>(&local)->sin_addr.s_addr) >> 24) == 127)
      return SendMode::kCopy;
    if (local.ss_family == AF_INET6 && IN6_IS_ADDR_LOOPBACK(&reinterpret_cast<sockaddr_in6*>(&local)->sin6_addr))
      return SendMode::kCopy;
  }
  return PreferredZeroCopyMode();
}

uint64_t StopNs(const StreamOutcome& outcome, bool receiver) {
  if (receiver || outcome.end == StreamEnd::kStalled || outcome.end == StreamEnd::kError) return outcome.last_ns;
  return outcome.end_ns;
}

const char* ToString(StreamEnd end) {
  switch (end) {
    case StreamEnd::kDone: return "done";
    case StreamEnd::kStopped: return "stopped";
    case StreamEnd::kTimeUp: return "time up";
    case StreamEnd::kStalled: return "stalled";
    default: return "error";
  }
}

Result<SendSource> SendSource::Make(uint64_t block_bytes, SendMode mode) {
  if (block_bytes == 0 || block_bytes > (64ull << 20))
    return Status::BadInput(fmt::format("block size {} B is out of range (1 B .. 64 MiB)", block_bytes));
  SendSource source;
  source.mode_ = mode;
  source.buffer_.resize(block_bytes);
  // A non-repeating byte pattern, so nothing on the path can compress it away.
  uint64_t x = 0x9E3779B97F4A7C15ull;
  for (char& c : source.buffer_) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    c = static_cast<char>(x);
  }
  if (mode == SendMode::kSendfile) {
    int fd = ::memfd_create("nasperf-net", MFD_CLOEXEC);
    if (fd < 0) return ErrnoStatus("memfd_create", "nasperf-net", errno);
    source.memfd_ = ScopedFd(fd);
    size_t done = 0;
    while (done < source.buffer_.size()) {
      ssize_t n = ::write(fd, source.buffer_.data() + done, source.buffer_.size() - done);
      if (n < 0) return ErrnoStatus("write", "memfd", errno);
      done += static_cast<size_t>(n);
    }
  }
  return source;
}

Status PrepareStreamSocket(int fd, SendMode mode, unsigned user_timeout_ms) {
  // Blocking, with the timeouts below: the loops wait in send/sendfile/recv for room or
  // data. ConnectTcp hands its sockets over non-blocking (it connects with a deadline); left
  // so, every call on a full or empty buffer failed with EAGAIN at once and the stream's
  // thread spun a core (measured at 1 Gbit/s: 11.9 CPU-seconds per GB against iperf3's 0.2).
  const int flags = ::fcntl(fd, F_GETFL);
  if (flags < 0 || ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0) return ErrnoStatus("fcntl", "O_NONBLOCK", errno);
  timeval tv{0, kWakeMs * 1000};
  if (::setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv)) != 0 ||
      ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) != 0)
    return ErrnoStatus("setsockopt", "SO_SNDTIMEO/SO_RCVTIMEO", errno);
  if (::setsockopt(fd, IPPROTO_TCP, TCP_USER_TIMEOUT, &user_timeout_ms, sizeof(user_timeout_ms)) != 0)
    return ErrnoStatus("setsockopt", "TCP_USER_TIMEOUT", errno);
  // sendfile() has no MSG_NOSIGNAL: a peer gone mid-send must be EPIPE, not SIGPIPE.
  if (mode == SendMode::kSendfile) std::signal(SIGPIPE, SIG_IGN);
  if (mode == SendMode::kMsgZerocopy) {
    int one = 1;
    if (::setsockopt(fd, SOL_SOCKET, SO_ZEROCOPY, &one, sizeof(one)) != 0)
      return ErrnoStatus("setsockopt", "SO_ZEROCOPY", errno);
  }
  return Status::Ok();
}

StreamOutcome SendLoop(int fd, const SendSource& source, const StreamLimits& limits, const std::atomic<bool>& stop,
                       std::atomic<uint64_t>& bytes, const std::atomic<bool>* also_stop,
                       std::optional<SendMode> mode_override, ByteLog* log) {
  StreamOutcome out;
  uint64_t total = bytes.load(std::memory_order_relaxed);
  const size_t block = source.block_bytes();
  const int memfd = source.memfd();
  SendMode mode = mode_override.value_or(source.mode());
  if (mode == SendMode::kSendfile && memfd < 0) mode = SendMode::kCopy;  // no memfd made
  uint64_t progress_ns = MonotonicNs();
  uint32_t sends_since_reap = 0;
  for (;;) {
    if (stop.load(std::memory_order_relaxed) || (also_stop && also_stop->load(std::memory_order_relaxed))) {
      out.end = StreamEnd::kStopped;
      out.end_ns = MonotonicNs();
      return out;
    }
    ssize_t n;
    if (mode == SendMode::kSendfile) {
      off_t offset = 0;
      n = ::sendfile(fd, memfd, &offset, block);
    } else if (mode == SendMode::kMsgZerocopy) {
      n = ::send(fd, source.data(), block, MSG_NOSIGNAL | MSG_ZEROCOPY);
      if (++sends_since_reap >= 16 || (n < 0 && errno == ENOBUFS)) {
        ReapZeroCopy(fd);
        sends_since_reap = 0;
      }
    } else {
      n = ::send(fd, source.data(), block, MSG_NOSIGNAL);
    }
    const uint64_t now = MonotonicNs();
    if (n > 0) total += static_cast<uint64_t>(n);
    if (log) log->Record(now, total);
    if (n > 0) {
      bytes.fetch_add(static_cast<uint64_t>(n), std::memory_order_relaxed);
      if (out.first_ns == 0) out.first_ns = now;
      out.last_ns = progress_ns = now;
    } else if (n < 0 && errno != EAGAIN && errno != EINTR && errno != ENOBUFS) {
      return Fail(out, "send", errno);
    }
    if (now >= limits.end_ns) {
      out.end = StreamEnd::kDone;
      out.end_ns = now;
      return out;
    }
    if (Stalled(out, now, progress_ns, limits)) return out;
  }
}

StreamOutcome ReceiveLoop(int fd, char* buffer, size_t buffer_bytes, const StreamLimits& limits,
                          const std::atomic<bool>& stop, std::atomic<uint64_t>& bytes,
                          const std::atomic<bool>* also_stop, ByteLog* log) {
  StreamOutcome out;
  uint64_t progress_ns = MonotonicNs();
  uint64_t total = bytes.load(std::memory_order_relaxed);
  for (;;) {
    if (stop.load(std::memory_order_relaxed) || (also_stop && also_stop->load(std::memory_order_relaxed))) {
      out.end = StreamEnd::kStopped;
      out.end_ns = MonotonicNs();
      return out;
    }
    ssize_t n = ::recv(fd, buffer, buffer_bytes, 0);
    const uint64_t now = MonotonicNs();
    if (n > 0) total += static_cast<uint64_t>(n);
    if (log) log->Record(now, total);
    if (n > 0) {
      bytes.fetch_add(static_cast<uint64_t>(n), std::memory_order_relaxed);
      if (out.first_ns == 0) out.first_ns = now;
      out.last_ns = progress_ns = now;
    } else if (n == 0) {
      out.end = StreamEnd::kDone;
      out.end_ns = now;
      return out;
    } else if (errno != EAGAIN && errno != EINTR) {
      return Fail(out, "recv", errno);
    }
    if (now >= limits.end_ns) {
      out.end = StreamEnd::kTimeUp;
      out.end_ns = now;
      return out;
    }
    if (Stalled(out, now, progress_ns, limits)) return out;
  }
}

TcpFacts ReadTcpFacts(int fd) {
  TcpFacts facts;
  tcp_info info{};
  socklen_t len = sizeof(info);
  if (::getsockopt(fd, IPPROTO_TCP, TCP_INFO, &info, &len) == 0 &&
      len >= offsetof(tcp_info, tcpi_total_retrans) + sizeof(info.tcpi_total_retrans)) {
    facts.total_retrans = info.tcpi_total_retrans;
    facts.rtt_us = info.tcpi_rtt;
    facts.rttvar_us = info.tcpi_rttvar;
  }
  facts.data_segs_out = DataSegmentsOut(fd);
  int mss = 0;
  len = sizeof(mss);
  if (::getsockopt(fd, IPPROTO_TCP, TCP_MAXSEG, &mss, &len) == 0 && mss > 0) facts.mss_bytes = mss;

  sockaddr_storage local{};
  len = sizeof(local);
  if (::getsockname(fd, reinterpret_cast<sockaddr*>(&local), &len) != 0) return facts;
  int mtu = 0;
  len = sizeof(mtu);
  bool v6 = local.ss_family == AF_INET6;
  if (::getsockopt(fd, v6 ? IPPROTO_IPV6 : IPPROTO_IP, v6 ? IPV6_MTU : IP_MTU, &mtu, &len) == 0 && mtu > 0)
    facts.path_mtu_bytes = mtu;

  char text[INET6_ADDRSTRLEN] = {};
  const void* addr = v6 ? static_cast<const void*>(&reinterpret_cast<sockaddr_in6*>(&local)->sin6_addr)
                        : static_cast<const void*>(&reinterpret_cast<sockaddr_in*>(&local)->sin_addr);
  if (::inet_ntop(local.ss_family, addr, text, sizeof(text))) facts.local_address = text;

  ifaddrs* list = nullptr;
  if (::getifaddrs(&list) != 0) return facts;
  for (ifaddrs* it = list; it; it = it->ifa_next) {
    if (!it->ifa_addr || it->ifa_addr->sa_family != local.ss_family) continue;
    bool same = v6 ? std::memcmp(&reinterpret_cast<sockaddr_in6*>(it->ifa_addr)->sin6_addr, addr, 16) == 0
                   : std::memcmp(&reinterpret_cast<sockaddr_in*>(it->ifa_addr)->sin_addr, addr, 4) == 0;
    if (same) {
      facts.interface = it->ifa_name;
      break;
    }
  }
  ::freeifaddrs(list);
  return facts;
}

std::optional<int64_t> LinkSpeedMbps(const std::string& name) {
  if (name.empty() || name.find('/') != std::string::npos) return std::nullopt;
  std::ifstream in("/sys/class/net/" + name + "/speed");
  long long speed = 0;
  if (!(in >> speed) || speed <= 0) return std::nullopt;  // lo: EINVAL; link down: -1
  return speed;
}

std::string LinkName(int64_t speed_mbps) {
  if (speed_mbps >= 1000 && speed_mbps % 1000 == 0) return fmt::format("{} GbE", speed_mbps / 1000);
  if (speed_mbps >= 1000) return fmt::format("{:g} GbE", static_cast<double>(speed_mbps) / 1000);
  return fmt::format("{} Mbit/s", speed_mbps);
}

std::string LineRateText(double mb_per_s, const std::string& interface, std::optional<int64_t> speed_mbps) {
  if (!speed_mbps)
    return fmt::format("{:.1f} MB/s, link speed unknown ({})", mb_per_s, interface.empty() ? "?" : interface);
  double line_mb_per_s = static_cast<double>(*speed_mbps) / 8.0;  // Mbit/s → MB/s (10^6 B/s)
  return fmt::format("{:.1f} MB/s = {:.1f} % of {} ({})", mb_per_s, 100.0 * mb_per_s / line_mb_per_s,
                     LinkName(*speed_mbps), interface);
}

}  // namespace nasperf::net
