// Bounded socket I/O for the agent protocol.
#include "wire/frame_socket.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>

#include <algorithm>
#include <cerrno>

namespace nasperf {
namespace {

using std::chrono::milliseconds;

int MsUntil(SteadyTime deadline, int cap_ms) {
  auto left = std::chrono::duration_cast<milliseconds>(deadline - std::chrono::steady_clock::now()).count();
  return static_cast<int>(std::clamp<long long>(left, 0, cap_ms));
}

}  // namespace

Status SendAll(int fd, std::string_view bytes, SteadyTime deadline) {
  size_t sent = 0;
  while (sent < bytes.size()) {
    ssize_t n = ::send(fd, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL | MSG_DONTWAIT);
    if (n > 0) {
      sent += static_cast<size_t>(n);
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK) return ErrnoStatus("send", "agent connection", errno);
    pollfd p{fd, POLLOUT, 0};
    int ms = MsUntil(deadline, 1 << 30);
    if (ms == 0 || ::poll(&p, 1, ms) == 0) return Status::Io("send on agent connection: timed out");
  }
  return Status::Ok();
}

Status SendFrame(int fd, MessageType type, const nlohmann::json& payload, SteadyTime deadline) {
  Result<std::string> frame = EncodeFrame(type, payload);
  if (!frame.ok()) return frame.status();
  return SendAll(fd, frame.value(), deadline);
}

ReadOutcome ReadFrame(int fd, FrameDecoder& decoder, SteadyTime deadline, const std::atomic<bool>* stop) {
  char buf[64 * 1024];
  while (true) {
    Result<std::optional<Frame>> next = decoder.Next();
    if (!next.ok()) return {ReadEnd::kProtocolError, {}, next.status()};
    if (next.value()) return {ReadEnd::kFrame, std::move(*next.value()), Status::Ok()};
    if (stop && stop->load(std::memory_order_relaxed)) return {ReadEnd::kStopped, {}, Status::Interrupted()};
    int ms = MsUntil(deadline, 100);
    if (ms == 0 && std::chrono::steady_clock::now() >= deadline)
      return {ReadEnd::kTimeout, {}, Status::Io("timed out waiting for the agent protocol peer")};
    pollfd p{fd, POLLIN, 0};
    int n = ::poll(&p, 1, ms);
    if (n < 0 && errno != EINTR) return {ReadEnd::kSocketError, {}, ErrnoStatus("poll", "agent connection", errno)};
    if (n <= 0) continue;
    ssize_t got = ::recv(fd, buf, sizeof buf, MSG_DONTWAIT);
    if (got == 0) return {ReadEnd::kClosed, {}, Status::Io("connection closed by peer")};
    if (got < 0) {
      if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) continue;
      if (errno == ECONNRESET) return {ReadEnd::kClosed, {}, Status::Io("connection reset by peer")};
      return {ReadEnd::kSocketError, {}, ErrnoStatus("recv", "agent connection", errno)};
    }
    decoder.Feed(buf, static_cast<size_t>(got));
  }
}

}  // namespace nasperf
