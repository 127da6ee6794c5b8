// NetService: sessions of `nasperf net` on the agent, their data streams and the report.
#include "net/net_service.h"

#include <openssl/rand.h>
#include <sys/socket.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <vector>

#include <fmt/format.h>

#include "agent/frame_socket.h"
#include "agent/wire.h"
#include "net/net_stream.h"
#include "platform/clock.h"
#include "sysinfo/telemetry/telemetry.h"

namespace nasperf {
namespace {

constexpr uint32_t kMaxStreams = 128;
constexpr double kMaxSeconds = 3600;
constexpr size_t kMaxSessions = 64;
// An up stream may run this long past the session's seconds before the agent gives up.
constexpr uint64_t kGraceNs = 5000000000ull;
// Finish waits at most this long for streams still running.
constexpr auto kFinishWait = std::chrono::seconds(5);

std::string RandomHex(size_t bytes) {
  std::vector<unsigned char> raw(bytes);
  if (RAND_bytes(raw.data(), static_cast<int>(raw.size())) != 1) {
    // Fall back to the clock only if OpenSSL cannot: ids must be unique, not secret.
    uint64_t x = MonotonicNs();
    for (auto& b : raw) b = static_cast<unsigned char>(x >>= 1);
  }
  std::string hex;
  for (unsigned char b : raw) hex += fmt::format("{:02x}", b);
  return hex;
}

}  // namespace

struct NetStreamSlot {
  std::atomic<bool> attached{false};
  std::atomic<uint64_t> bytes{0};
  double seconds = 0;   // DataAttached to the last byte; under NetSession::mutex
  std::string end;      // how it ended; under NetSession::mutex
  std::string send_mode;  // down streams: how the agent sent; under NetSession::mutex
};

struct NetSession {
  std::string id;
  uint64_t control_id = 0;
  std::string dir;  // up | down | both
  uint32_t streams = 1;
  double seconds = 10;
  uint64_t bs = 0;
  net::SendMode mode = net::SendMode::kCopy;
  std::optional<net::SendSource> source;  // for down streams; read-only once made
  std::vector<NetStreamSlot> up, down;
  std::atomic<bool> stop{false};
  std::mutex mutex;
  std::condition_variable changed;
  int running = 0;  // attached streams not yet ended; under mutex
  // The NAS's CPU, interrupts, disks and sensors while the test runs (issue 6: every net
  // test is sampled); stopped by Finish, or with the session when the client goes.
  std::unique_ptr<sysinfo::telemetry::TelemetrySampler> telemetry;
};

NetService::NetService() = default;
NetService::~NetService() {
  std::lock_guard<std::mutex> lock(mutex_);
  for (auto& [id, session] : sessions_) session->stop = true;
}

Result<nlohmann::json> NetService::Start(const nlohmann::json& request, uint64_t control_id) {
  if (!request.is_object()) return Status::BadInput("NetStart: payload is not an object");
  auto session = std::make_shared<NetSession>();
  session->control_id = control_id;
  const auto dir = request.find("dir");
  if (dir == request.end() || !dir->is_string() || (*dir != "up" && *dir != "down" && *dir != "both"))
    return Status::BadInput("NetStart: \"dir\" must be \"up\", \"down\" or \"both\"");
  session->dir = dir->get<std::string>();
  const auto streams = request.find("streams");
  if (streams == request.end() || !streams->is_number_integer() || streams->get<int64_t>() < 1 ||
      streams->get<int64_t>() > kMaxStreams)
    return Status::BadInput(fmt::format("NetStart: \"streams\" must be an integer 1..{}", kMaxStreams));
  session->streams = streams->get<uint32_t>();
  const auto seconds = request.find("seconds");
  if (seconds == request.end() || !seconds->is_number() || !(seconds->get<double>() > 0) ||
      seconds->get<double>() > kMaxSeconds)
    return Status::BadInput(fmt::format("NetStart: \"seconds\" must be a number in (0, {}]", kMaxSeconds));
  session->seconds = seconds->get<double>();
  const auto bs = request.find("bs");
  if (bs == request.end() || !bs->is_number_integer() || bs->get<int64_t>() < 1 || bs->get<int64_t>() > (64 << 20))
    return Status::BadInput("NetStart: \"bs\" must be an integer 1 .. 67108864 bytes");
  session->bs = bs->get<uint64_t>();
  bool zerocopy = true;
  if (auto zc = request.find("zerocopy"); zc != request.end()) {
    if (!zc->is_boolean()) return Status::BadInput("NetStart: \"zerocopy\" must be true or false");
    zerocopy = zc->get<bool>();
  }
  session->mode = zerocopy ? net::PreferredZeroCopyMode() : net::SendMode::kCopy;
  session->up = std::vector<NetStreamSlot>(session->dir != "down" ? session->streams : 0);
  session->down = std::vector<NetStreamSlot>(session->dir != "up" ? session->streams : 0);
  if (!session->down.empty()) {
    Result<net::SendSource> source = net::SendSource::Make(session->bs, session->mode);
    if (!source.ok() && session->mode != net::SendMode::kCopy) {
      session->mode = net::SendMode::kCopy;  // no memfd here: plain send still works
      source = net::SendSource::Make(session->bs, session->mode);
    }
    if (!source.ok()) return source.status();
    session->source = std::move(source).value();
  }
  session->id = RandomHex(16);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (sessions_.size() >= kMaxSessions)
      return Status::Unavailable(fmt::format("too many net sessions at once ({})", kMaxSessions));
    sessions_[session->id] = session;
  }
  session->telemetry = std::make_unique<sysinfo::telemetry::TelemetrySampler>();
  session->telemetry->Start();
  return nlohmann::json{{"session", session->id}, {"zerocopy", net::ToString(session->mode)}};
}

Status NetService::Attach(const nlohmann::json& request, ScopedFd socket, const std::atomic<bool>& stop) {
  if (!request.is_object()) return Status::BadInput("DataAttach: payload is not an object");
  const auto id = request.find("session");
  const auto stream = request.find("stream");
  const auto dir = request.find("dir");
  if (id == request.end() || !id->is_string()) return Status::BadInput("DataAttach: \"session\" missing");
  if (stream == request.end() || !stream->is_number_integer() || stream->get<int64_t>() < 0)
    return Status::BadInput("DataAttach: \"stream\" must be an integer >= 0");
  if (dir == request.end() || !dir->is_string() || (*dir != "up" && *dir != "down"))
    return Status::BadInput("DataAttach: \"dir\" must be \"up\" or \"down\"");
  std::shared_ptr<NetSession> session;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = sessions_.find(id->get<std::string>());
    if (it == sessions_.end()) return Status::BadInput("DataAttach: unknown or finished session");
    session = it->second;
  }
  const bool up = *dir == "up";
  std::vector<NetStreamSlot>& slots = up ? session->up : session->down;
  const auto index = stream->get<uint64_t>();
  if (index >= slots.size())
    return Status::BadInput(fmt::format("DataAttach: no {} stream {} in this session", dir->get<std::string>(), index));
  NetStreamSlot& slot = slots[index];
  if (slot.attached.exchange(true)) return Status::BadInput(fmt::format("DataAttach: stream {} already attached", index));
  {
    std::lock_guard<std::mutex> lock(session->mutex);
    if (session->stop) return Status::BadInput("DataAttach: session finished");
    ++session->running;
  }
  const int fd = socket.get();
  net::StreamOutcome outcome;
  uint64_t start_ns = MonotonicNs();
  const net::SendMode mode =
      up ? net::SendMode::kCopy : net::ChooseSendMode(fd, session->mode != net::SendMode::kCopy);
  Status status = net::PrepareStreamSocket(fd, mode);
  if (status.ok()) {
    status = SendFrame(fd, MessageType::kDataAttached, nlohmann::json::object(),
                       std::chrono::steady_clock::now() + std::chrono::seconds(5));
  }
  if (status.ok()) {
    start_ns = MonotonicNs();
    const uint64_t seconds_ns = static_cast<uint64_t>(session->seconds * 1e9);
    if (up) {
      std::vector<char> buffer(std::clamp<uint64_t>(session->bs, 128 << 10, 4 << 20));
      net::StreamLimits limits{start_ns + seconds_ns + kGraceNs, 5000000000ull};
      outcome = net::ReceiveLoop(fd, buffer.data(), buffer.size(), limits, session->stop, slot.bytes, &stop);
    } else {
      net::StreamLimits limits{start_ns + seconds_ns, 5000000000ull};
      outcome = net::SendLoop(fd, *session->source, limits, session->stop, slot.bytes, &stop, mode);
      // Our side is done; let the client see EOF and close its own, so no reset cuts
      // the bytes still in flight.
      ::shutdown(fd, SHUT_WR);
      char sink[4096];
      const uint64_t drain_end = MonotonicNs() + 2000000000ull;
      while (MonotonicNs() < drain_end && !session->stop && !stop) {
        ssize_t n = ::recv(fd, sink, sizeof(sink), 0);
        if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) break;
      }
    }
    status = outcome.status;
  }
  {
    std::lock_guard<std::mutex> lock(session->mutex);
    const uint64_t last = outcome.last_ns ? outcome.last_ns : start_ns;
    slot.seconds = static_cast<double>(last - start_ns) / 1e9;
    slot.end = status.ok() ? net::ToString(outcome.end) : status.message();
    if (!up) slot.send_mode = net::ToString(mode);
    --session->running;
  }
  session->changed.notify_all();
  // The stream's own end (a peer gone mid-test) is reported in NetReport, not as a failure
  // of the data connection.
  return Status::Ok();
}

Result<nlohmann::json> NetService::Finish(const nlohmann::json& request, uint64_t control_id) {
  if (!request.is_object() || !request.contains("session") || !request["session"].is_string())
    return Status::BadInput("NetFinish: \"session\" missing");
  std::shared_ptr<NetSession> session;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = sessions_.find(request["session"].get<std::string>());
    if (it == sessions_.end() || it->second->control_id != control_id)
      return Status::BadInput("NetFinish: unknown or finished session");
    session = it->second;
    sessions_.erase(it);  // no new data connection from here on
  }
  nlohmann::json streams = nlohmann::json::array();
  {
    std::unique_lock<std::mutex> lock(session->mutex);
    session->changed.wait_for(lock, kFinishWait, [&] { return session->running == 0; });
    session->stop = true;
    session->changed.wait_for(lock, std::chrono::seconds(1), [&] { return session->running == 0; });
    auto add = [&](const std::vector<NetStreamSlot>& slots, const char* dir) {
      for (size_t i = 0; i < slots.size(); ++i)
        streams.push_back({{"stream", i},
                           {"dir", dir},
                           {"bytes", slots[i].bytes.load()},
                           {"seconds", slots[i].seconds},
                           {"end", slots[i].attached ? slots[i].end : "not attached"}});
      if (dir == std::string("down"))
        for (size_t i = 0; i < slots.size(); ++i) streams[streams.size() - slots.size() + i]["send"] = slots[i].send_mode;
    };
    add(session->up, "up");
    add(session->down, "down");
  }
  nlohmann::json telemetry = session->telemetry ? nlohmann::json(session->telemetry->Stop()) : nlohmann::json::object();
  // A NetReport must fit one frame: a very long test keeps its summary, not its series.
  if (telemetry.dump().size() > kMaxPayload / 2 && telemetry.contains("samples"))
    telemetry["samples"] = nlohmann::json::array();
  return nlohmann::json{{"streams", streams}, {"telemetry", std::move(telemetry)}};
}

void NetService::ConnectionClosed(uint64_t control_id) {
  std::lock_guard<std::mutex> lock(mutex_);
  for (auto it = sessions_.begin(); it != sessions_.end();) {
    if (it->second->control_id == control_id) {
      it->second->stop = true;
      it = sessions_.erase(it);
    } else {
      ++it;
    }
  }
}

}  // namespace nasperf
