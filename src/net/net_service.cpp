// NetService: sessions of `nasperf net` on the agent, their data streams and the report.
#include "net/net_service.h"

#include <sys/socket.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <optional>
#include <vector>

#include <fmt/format.h>

#include "wire/auth.h"
#include "wire/frame_socket.h"
#include "wire/wire.h"
#include "net/net_session.h"
#include "net/net_stream.h"
#include "net/stream_window.h"
#include "base/clock.h"
#include "report/telemetry_text.h"
#include "sysinfo/telemetry/telemetry.h"

namespace nasperf {
namespace {

constexpr uint32_t kMaxStreams = 128;
constexpr double kMaxSeconds = 3600;
constexpr double kMaxOmitSeconds = 60;
// An attached stream waits this long for NetGo (every stream attached) before it gives up.
constexpr auto kGoWait = std::chrono::seconds(30);
constexpr size_t kMaxSessions = 64;
// An up stream may run this long past the session's seconds before the agent gives up.
constexpr uint64_t kGraceNs = 5000000000ull;
// Finish waits at most this long for streams still running.
constexpr auto kFinishWait = std::chrono::seconds(5);


// A DataAttach payload, checked.
struct AttachRequest {
  std::string session;
  uint64_t stream = 0;
  bool up = false;  // else down
};

Result<AttachRequest> ParseDataAttach(const nlohmann::json& request) {
  if (!request.is_object()) return Status::BadInput("DataAttach: payload is not an object");
  const auto id = request.find("session");
  const auto stream = request.find("stream");
  const auto dir = request.find("dir");
  if (id == request.end() || !id->is_string()) return Status::BadInput("DataAttach: \"session\" missing");
  if (stream == request.end() || !stream->is_number_integer() || stream->get<int64_t>() < 0)
    return Status::BadInput("DataAttach: \"stream\" must be an integer >= 0");
  if (dir == request.end() || !dir->is_string() || (*dir != "up" && *dir != "down"))
    return Status::BadInput("DataAttach: \"dir\" must be \"up\" or \"down\"");
  return AttachRequest{id->get<std::string>(), stream->get<uint64_t>(), *dir == "up"};
}

// The request's slot, marked attached and counted as running; BadInput when there is no
// such stream, it is attached already, or the session has finished.
Result<NetStreamSlot*> ClaimSlot(NetSession& session, const AttachRequest& attach) {
  std::vector<NetStreamSlot>& slots = attach.up ? session.up : session.down;
  const uint64_t index = attach.stream;
  if (index >= slots.size())
    return Status::BadInput(
        fmt::format("DataAttach: no {} stream {} in this session", attach.up ? "up" : "down", index));
  NetStreamSlot& slot = slots[index];
  if (slot.attached.exchange(true)) return Status::BadInput(fmt::format("DataAttach: stream {} already attached", index));
  {
    std::lock_guard<std::mutex> lock(session.mutex);
    if (session.stop) return Status::BadInput("DataAttach: session finished");
    ++session.running;
  }
  return &slot;
}

// No byte moves before the barrier: a stream attached early must not get a head start
// over one attached late.
Status WaitForBarrier(NetSession& session, const std::atomic<bool>& stop, uint64_t* barrier_ns) {
  std::unique_lock<std::mutex> lock(session.mutex);
  const auto give_up = std::chrono::steady_clock::now() + kGoWait;
  while (session.barrier_ns == 0 && !session.stop && !stop && std::chrono::steady_clock::now() < give_up)
    session.changed.wait_for(lock, std::chrono::milliseconds(100));
  *barrier_ns = session.barrier_ns;
  if (*barrier_ns == 0) return Status::Io("the test was not started (no NetGo)");
  return Status::Ok();
}

// Up: reads and counts until EOF, a stop, or the window's end plus grace.
net::StreamOutcome ReceiveUp(int fd, NetSession& session, NetStreamSlot& slot, const net::Window& planned,
                             const std::atomic<bool>& stop) {
  std::vector<char> buffer(std::clamp<uint64_t>(session.bs, 128 << 10, 4 << 20));
  net::StreamLimits limits{planned.end_ns + kGraceNs, 5000000000ull};
  return net::ReceiveLoop(fd, buffer.data(), buffer.size(), limits, session.stop, slot.bytes, &stop, &slot.log);
}

// Down: sends until the window's end plus net::kSendTailNs, then lets the client close first.
net::StreamOutcome SendDown(int fd, NetSession& session, NetStreamSlot& slot, const net::Window& planned,
                            net::SendMode mode, const std::atomic<bool>& stop) {
  net::StreamLimits limits{planned.end_ns + net::kSendTailNs, 5000000000ull};
  net::StreamOutcome outcome =
      net::SendLoop(fd, *session.source, limits, session.stop, slot.bytes, &stop, mode, &slot.log);
  // Our side is done; let the client see EOF and close its own, so no reset cuts
  // the bytes still in flight.
  ::shutdown(fd, SHUT_WR);
  char sink[4096];
  const uint64_t drain_end = MonotonicNs() + 2000000000ull;
  while (MonotonicNs() < drain_end && !session.stop && !stop) {
    ssize_t n = ::recv(fd, sink, sizeof(sink), 0);
    if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) break;
  }
  return outcome;
}

// Records how the stream ended, for NetReport, and wakes Finish.
void EndStream(NetSession& session, NetStreamSlot& slot, const net::StreamOutcome& outcome, const Status& status,
               bool up, net::SendMode mode) {
  {
    std::lock_guard<std::mutex> lock(session.mutex);
    // When the stream stopped moving bytes: the common window ends at the first such stop.
    slot.stop_ns = net::StopNs(outcome, up);
    slot.ended = true;
    slot.end = status.ok() ? net::ToString(outcome.end) : status.message();
    if (!up) slot.send_mode = net::ToString(mode);
    --session.running;
  }
  session.changed.notify_all();
}

// "window_end_us", when given: where the client's streams stopped.
Status ReadWindowEnd(const nlohmann::json& request, std::optional<uint64_t>* client_end_us) {
  if (auto it = request.find("window_end_us"); it != request.end()) {
    if (!it->is_number_unsigned()) return Status::BadInput("NetFinish: \"window_end_us\" must be an integer >= 0");
    *client_end_us = it->get<uint64_t>();
  }
  return Status::Ok();
}

// Lets the streams end on their own (bounded), then stops the rest; `lock` holds session.mutex.
void StopStreams(NetSession& session, std::unique_lock<std::mutex>& lock) {
  session.changed.wait_for(lock, kFinishWait, [&] { return session.running == 0; });
  session.stop = true;
  session.changed.wait_for(lock, std::chrono::seconds(1), [&] { return session.running == 0; });
}

// One window for every stream of both ends: planned at the barrier, ended where the
// client's streams stopped (its proposal) or where one of ours did, if earlier.
// Under session.mutex.
net::Window CommonWindow(const NetSession& session, std::optional<uint64_t> client_end_us) {
  const uint64_t barrier = session.barrier_ns;
  net::Window w = net::PlannedWindow(barrier, session.omit_s, session.seconds);
  std::vector<uint64_t> stops;
  if (barrier == 0) stops.push_back(0);
  if (client_end_us) stops.push_back(net::NsAt(barrier, *client_end_us));
  for (const auto* slots : {&session.up, &session.down})
    for (const NetStreamSlot& slot : *slots) stops.push_back(slot.ended ? slot.stop_ns : 0);
  return net::EndAtFirstStop(w, stops);
}

// NetReport's entries for `slots` (dir "up" or "down"), appended to `streams`. Under
// the session's mutex.
void AddStreams(const std::vector<NetStreamSlot>& slots, const char* dir, uint64_t barrier, const net::Window& w,
                nlohmann::json* streams) {
  const bool up = dir == std::string("up");
  for (size_t i = 0; i < slots.size(); ++i) {
    const NetStreamSlot& slot = slots[i];
    nlohmann::json entry{{"stream", i},
                         {"dir", dir},
                         {"end", slot.attached ? (slot.ended ? slot.end : "did not end") : "not attached"},
                         {"stop_us", slot.ended ? net::UsAfter(barrier, slot.stop_ns) : 0}};
    // Only the ended stream's log may be read: its thread no longer writes it.
    const uint64_t in_window = slot.ended ? slot.log.BytesIn(w) : 0;
    if (up) {
      entry["bytes"] = in_window;  // received inside the window: the figure
      entry["received_bytes"] = slot.bytes.load();
    } else {
      entry["sent_bytes"] = in_window;  // sent inside the window (socket buffers included)
      entry["send"] = slot.send_mode;
    }
    streams->push_back(entry);
  }
}

nlohmann::json StopTelemetry(NetSession& session) {
  nlohmann::json telemetry = session.telemetry ? nlohmann::json(session.telemetry->Stop()) : nlohmann::json::object();
  // A NetReport must fit one frame: a very long test keeps its summary, not its series.
  if (telemetry.dump().size() > kMaxPayload / 2 && telemetry.contains("samples"))
    telemetry["samples"] = nlohmann::json::array();
  return telemetry;
}

}  // namespace

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
  if (auto omit = request.find("omit"); omit != request.end()) {
    if (!omit->is_number() || !(omit->get<double>() >= 0) || omit->get<double>() > kMaxOmitSeconds)
      return Status::BadInput(fmt::format("NetStart: \"omit\" must be a number in [0, {}]", kMaxOmitSeconds));
    session->omit_s = omit->get<double>();
  }
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
  Result<std::string> id = RandomHex(16);
  if (!id.ok()) return id.status();
  session->id = id.value();
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (sessions_.size() >= kMaxSessions)
      return Status::Unavailable(fmt::format("too many net sessions at once ({})", kMaxSessions));
    sessions_[session->id] = session;
  }
  session->telemetry = std::make_unique<sysinfo::telemetry::TelemetrySampler>(SummariseTelemetry);
  session->telemetry->Start();
  return nlohmann::json{{"session", session->id}, {"zerocopy", net::ToString(session->mode)}};
}

Status NetService::Attach(const nlohmann::json& request, ScopedFd socket, const std::atomic<bool>& stop) {
  Result<AttachRequest> parsed = ParseDataAttach(request);
  if (!parsed.ok()) return parsed.status();
  const AttachRequest& attach = parsed.value();
  std::shared_ptr<NetSession> session;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = sessions_.find(attach.session);
    if (it == sessions_.end()) return Status::BadInput("DataAttach: unknown or finished session");
    session = it->second;
  }
  Result<NetStreamSlot*> claimed = ClaimSlot(*session, attach);
  if (!claimed.ok()) return claimed.status();
  NetStreamSlot& slot = *claimed.value();
  const bool up = attach.up;
  const int fd = socket.get();
  net::StreamOutcome outcome;
  const net::SendMode mode =
      up ? net::SendMode::kCopy : net::ChooseSendMode(fd, session->mode != net::SendMode::kCopy);
  Status status = net::PrepareStreamSocket(fd, mode);
  if (status.ok()) {
    status = SendFrame(fd, MessageType::kDataAttached, nlohmann::json::object(),
                       std::chrono::steady_clock::now() + std::chrono::seconds(5));
  }
  uint64_t barrier_ns = 0;
  if (status.ok()) status = WaitForBarrier(*session, stop, &barrier_ns);
  if (status.ok()) {
    const net::Window planned = net::PlannedWindow(barrier_ns, session->omit_s, session->seconds);
    outcome = up ? ReceiveUp(fd, *session, slot, planned, stop) : SendDown(fd, *session, slot, planned, mode, stop);
    status = outcome.status;
  }
  EndStream(*session, slot, outcome, status, up, mode);
  // The stream's own end (a peer gone mid-test) is reported in NetReport, not as a failure
  // of the data connection.
  return Status::Ok();
}

Result<nlohmann::json> NetService::Go(const nlohmann::json& request, uint64_t control_id) {
  if (!request.is_object() || !request.contains("session") || !request["session"].is_string())
    return Status::BadInput("NetGo: \"session\" missing");
  std::shared_ptr<NetSession> session;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = sessions_.find(request["session"].get<std::string>());
    if (it == sessions_.end() || it->second->control_id != control_id)
      return Status::BadInput("NetGo: unknown or finished session");
    session = it->second;
  }
  size_t attached = 0, wanted = session->up.size() + session->down.size();
  for (const auto* slots : {&session->up, &session->down})
    for (const NetStreamSlot& slot : *slots) attached += slot.attached ? 1 : 0;
  if (attached != wanted)
    return Status::BadInput(fmt::format("NetGo: {} of {} streams attached", attached, wanted));
  {
    std::lock_guard<std::mutex> lock(session->mutex);
    if (session->barrier_ns != 0) return Status::BadInput("NetGo: the test already started");
    session->barrier_ns = MonotonicNs();
  }
  session->changed.notify_all();
  return nlohmann::json::object();
}

Result<nlohmann::json> NetService::Finish(const nlohmann::json& request, uint64_t control_id) {
  if (!request.is_object() || !request.contains("session") || !request["session"].is_string())
    return Status::BadInput("NetFinish: \"session\" missing");
  std::optional<uint64_t> client_end_us;
  if (Status s = ReadWindowEnd(request, &client_end_us); !s.ok()) return s;
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
  nlohmann::json window;
  {
    std::unique_lock<std::mutex> lock(session->mutex);
    StopStreams(*session, lock);
    const uint64_t barrier = session->barrier_ns;
    const net::Window w = CommonWindow(*session, client_end_us);
    window = {{"start_us", net::UsAfter(barrier, w.start_ns)}, {"end_us", net::UsAfter(barrier, w.end_ns)}};
    AddStreams(session->up, "up", barrier, w, &streams);
    AddStreams(session->down, "down", barrier, w, &streams);
  }
  nlohmann::json telemetry = StopTelemetry(*session);
  return nlohmann::json{{"window", window}, {"streams", streams}, {"telemetry", std::move(telemetry)}};
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
