// Non-blocking connect with poll() until a deadline, over every address of a name.
#include "base/tcp_connect.h"

#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <memory>

#include <fmt/format.h>

namespace nasperf {

std::string HostPort(const std::string& host, uint16_t port) {
  return (host.find(':') != std::string::npos ? "[" + host + "]" : host) + ":" + std::to_string(port);
}

Result<ScopedFd> ConnectTcp(const std::string& peer, const std::string& host, uint16_t port,
                            std::chrono::milliseconds timeout) {
  const std::string where = HostPort(host, port);
  auto fail = [&](const std::string& why) {
    return Status::Unavailable(fmt::format("{} {}: {} (connect timeout {:g} s)", peer, where, why,
                                           static_cast<double>(timeout.count()) / 1000.0));
  };
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  if (int rc = ::getaddrinfo(host.c_str(), std::to_string(port).c_str(), &hints, &found); rc != 0)
    return Status::Unavailable(fmt::format("{} {}: cannot resolve the name: {}", peer, where, ::gai_strerror(rc)));
  std::unique_ptr<addrinfo, decltype(&::freeaddrinfo)> owner(found, &::freeaddrinfo);
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  Status last = fail("no address");
  for (addrinfo* ai = found; ai; ai = ai->ai_next) {
    ScopedFd fd(::socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK, ai->ai_protocol));
    if (!fd.valid()) {
      last = fail(std::string("socket: ") + std::strerror(errno));
      continue;
    }
    if (::connect(fd.get(), ai->ai_addr, ai->ai_addrlen) != 0 && errno != EINPROGRESS) {
      last = fail(std::strerror(errno));
      continue;
    }
    int n;
    do {
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
      pollfd p{fd.get(), POLLOUT, 0};
      n = ::poll(&p, 1, static_cast<int>(std::clamp<long long>(left.count(), 0, 1 << 30)));
    } while (n < 0 && errno == EINTR);
    if (n == 0) return fail("no answer to connect");
    int err = 0;
    socklen_t len = sizeof err;
    if (n < 0 || ::getsockopt(fd.get(), SOL_SOCKET, SO_ERROR, &err, &len) != 0 || err != 0) {
      last = fail(std::strerror(err ? err : errno));
      continue;
    }
    int one = 1;
    ::setsockopt(fd.get(), IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    return fd;
  }
  return last;
}

Status CheckReachable(const std::string& peer, const std::string& host, uint16_t port,
                      std::chrono::milliseconds timeout) {
  Result<ScopedFd> fd = ConnectTcp(peer, host, port, timeout);
  return fd.ok() ? Status::Ok() : fd.status();
}

}  // namespace nasperf
