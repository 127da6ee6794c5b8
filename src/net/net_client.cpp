// RunNetTest: the client's side of `nasperf net` (docs/agent-protocol.md, "Data connections").
#include "net/net_client.h"

#include <sys/socket.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <memory>
#include <thread>

#include <fmt/format.h>

#include "base/clock.h"
#include "base/signals.h"

namespace nasperf::net {
namespace {

using std::chrono::milliseconds;

constexpr milliseconds kConnectTimeout{5000};
// A stream that moves nothing this long ends the test: a cut link or a dead agent. Short
// enough that, with the 1 s NetFinish wait below, the client is out within 5 s.
constexpr uint64_t kStallNs = 2500000000ull;
// A down stream may end this long after the test's end (agent clock started a little earlier).
constexpr uint64_t kDownGraceNs = 5000000000ull;

struct Stream {
  bool up = true;
  uint32_t index = 0;
  ScopedFd fd;
  std::string prefix;  // raw bytes read with the DataAttached frame
  SendMode mode = SendMode::kCopy;  // up streams: how this client sends
  std::atomic<uint64_t> bytes{0};
  ByteLog log;  // sent (up) or received (down) totals over time, for the window count
  StreamOutcome outcome;
  TcpFacts facts;
  std::string Label() const { return fmt::format("{} stream {}", up ? "up" : "down", index); }
};

// A test hook (tests/net_e2e_test.cpp): NASPERF_TEST_NET_LATE_ATTACH_MS=N waits N ms
// before the last stream attaches, as a slow handshake or a busy agent would.
std::chrono::milliseconds LateAttachDelay() {
  const char* env = std::getenv("NASPERF_TEST_NET_LATE_ATTACH_MS");
  const long ms = env ? std::strtol(env, nullptr, 10) : 0;
  return milliseconds(std::clamp<long>(ms, 0, 60000));
}

// What a stream's end means for the run: empty when it ended as planned.
std::string StreamProblem(const Stream& s, uint64_t end_ns, double seconds) {
  switch (s.outcome.end) {
    case StreamEnd::kError:
    case StreamEnd::kStalled: return s.Label() + ": " + s.outcome.status.message();
    case StreamEnd::kTimeUp: return s.Label() + ": the agent did not end the stream in time";
    case StreamEnd::kStopped: return "";
    case StreamEnd::kDone: break;
  }
  if (!s.up) {
    // The agent closes a down stream when its time is up; a much earlier EOF means it died.
    const uint64_t slack_ns = std::max<uint64_t>(500000000ull, static_cast<uint64_t>(seconds * 0.1e9));
    const uint64_t eof_ns = std::max(s.outcome.last_ns, s.outcome.first_ns);
    if (eof_ns + slack_ns < end_ns) return s.Label() + ": the agent closed it early";
  }
  return "";
}

// The counters that change during a stream (TCP_INFO), over what was read at its start.
void UpdateTcpInfo(int fd, TcpFacts& facts) {
  TcpFacts now = ReadTcpFacts(fd);
  if (now.total_retrans) facts.total_retrans = now.total_retrans;
  if (now.rtt_us) facts.rtt_us = now.rtt_us, facts.rttvar_us = now.rttvar_us;
}

}  // namespace

NetTestOutcome RunNetTest(const NetTestOptions& o) {
  NetTestOutcome out;
  NetTestResult& r = out.result;
  Result<AgentConnection> control = AgentConnection::Connect(o.address, o.token, "control", kConnectTimeout);
  if (!control.ok()) {
    out.status = control.status();
    return out;
  }
  nlohmann::json start{{"dir", o.dir},     {"streams", o.streams}, {"seconds", o.seconds},
                       {"omit", o.omit_s}, {"bs", o.bs},           {"zerocopy", o.zerocopy}};
  Result<Frame> ready = control.value().Request(MessageType::kNetStart, start, MessageType::kNetReady, kConnectTimeout);
  if (!ready.ok()) {
    out.status = ready.status();
    return out;
  }
  const nlohmann::json& ready_payload = ready.value().payload;
  if (!ready_payload.contains("session") || !ready_payload["session"].is_string()) {
    out.status = Status::Io("agent: NetReady without a session");
    return out;
  }
  const std::string session = ready_payload["session"];
  r.agent_send_mode = ready_payload.value("zerocopy", "none");

  const bool want_up = o.dir != "down", want_down = o.dir != "up";
  std::optional<SendSource> source;
  if (want_up) {
    SendMode mode = o.zerocopy ? PreferredZeroCopyMode() : SendMode::kCopy;
    Result<SendSource> made = SendSource::Make(o.bs, mode);
    if (!made.ok() && mode != SendMode::kCopy) made = SendSource::Make(o.bs, SendMode::kCopy);
    if (!made.ok()) {
      out.status = made.status();
      return out;
    }
    source = std::move(made).value();
    r.client_send_mode = ToString(source->mode());
  }

  // Data connections, all before any byte is timed.
  std::vector<std::unique_ptr<Stream>> streams;
  const size_t stream_count = (want_up ? o.streams : 0) + (want_down ? o.streams : 0);
  for (bool up : {true, false}) {
    if ((up && !want_up) || (!up && !want_down)) continue;
    for (uint32_t i = 0; i < o.streams; ++i) {
      if (streams.size() + 1 == stream_count) std::this_thread::sleep_for(LateAttachDelay());
      auto s = std::make_unique<Stream>();
      s->up = up;
      s->index = i;
      Result<AgentConnection> data = AgentConnection::Connect(o.address, o.token, "data", kConnectTimeout);
      if (!data.ok()) {
        out.status = Status::Io(fmt::format("data connection for {}: {}", s->Label(), data.status().message()));
        return out;
      }
      Result<Frame> attached =
          data.value().Request(MessageType::kDataAttach, {{"session", session}, {"stream", i}, {"dir", up ? "up" : "down"}},
                               MessageType::kDataAttached, kConnectTimeout);
      if (!attached.ok()) {
        out.status = Status::Io(fmt::format("attaching {}: {}", s->Label(), attached.status().message()));
        return out;
      }
      s->prefix = data.value().TakeBuffered();  // raw bytes before the barrier: not counted
      s->fd = data.value().ReleaseFd();
      s->mode = up ? ChooseSendMode(s->fd.get(), o.zerocopy) : SendMode::kCopy;
      if (up) r.client_send_mode = ToString(s->mode);
      if (Status p = PrepareStreamSocket(s->fd.get(), s->mode); !p.ok()) {
        out.status = p;
        return out;
      }
      // MTU, interface and link speed now, while the path is whole; TCP_INFO again at the end.
      s->facts = ReadTcpFacts(s->fd.get());
      if (streams.empty()) r.link_speed_mbps = LinkSpeedMbps(s->facts.interface);
      streams.push_back(std::move(s));
    }
  }

  // The start barrier: every stream is attached; one NetGo starts them all, on both
  // ends, and the window is planned from it.
  Result<Frame> going =
      control.value().Request(MessageType::kNetGo, {{"session", session}}, MessageType::kNetGoing, kConnectTimeout);
  if (!going.ok()) {
    out.status = going.status();
    return out;
  }
  const uint64_t start_ns = MonotonicNs();  // the barrier, on this client's clock
  const Window planned = PlannedWindow(start_ns, o.omit_s, o.seconds);
  const uint64_t end_ns = planned.end_ns;

  std::atomic<bool> stop{false};
  std::atomic<size_t> finished{0};
  std::vector<std::thread> threads;
  r.measured = true;
  for (auto& sp : streams) {
    threads.emplace_back([&, s = sp.get()] {
      if (s->up) {
        s->outcome = SendLoop(s->fd.get(), *source, StreamLimits{end_ns + kSendTailNs, kStallNs}, stop, s->bytes,
                              nullptr, s->mode, &s->log);
        UpdateTcpInfo(s->fd.get(), s->facts);
        ::shutdown(s->fd.get(), SHUT_WR);  // EOF: the agent stops counting
      } else {
        s->bytes.fetch_add(s->prefix.size(), std::memory_order_relaxed);
        s->log.Record(start_ns, s->prefix.size());  // before the window: never counted
        std::vector<char> buffer(std::clamp<uint64_t>(o.bs, 128 << 10, 4 << 20));
        s->outcome = ReceiveLoop(s->fd.get(), buffer.data(), buffer.size(),
                                 StreamLimits{end_ns + kDownGraceNs, kStallNs}, stop, s->bytes, nullptr, &s->log);
        UpdateTcpInfo(s->fd.get(), s->facts);
      }
      if (s->outcome.end == StreamEnd::kError || s->outcome.end == StreamEnd::kStalled) stop = true;
      finished.fetch_add(1);
    });
  }

  // The sampler: once a second, what every stream moved since the last look.
  uint64_t last_ns = start_ns, last_up = 0, last_down = 0;
  bool interrupted = false;
  auto take_sample = [&](uint64_t now) {
    uint64_t up = 0, down = 0;
    for (auto& s : streams) (s->up ? up : down) += s->bytes.load(std::memory_order_relaxed);
    const double interval_s = static_cast<double>(now - last_ns) / 1e9;
    Sample sample{static_cast<double>(now - start_ns) / 1e9, static_cast<double>(down - last_down) / interval_s / 1e6,
                  static_cast<double>(up - last_up) / interval_s / 1e6};
    r.samples.push_back(sample);
    if (o.on_sample) o.on_sample(sample);
    last_ns = now, last_up = up, last_down = down;
  };
  while (finished.load() < streams.size()) {
    std::this_thread::sleep_for(milliseconds(50));
    if (InterruptRequested() && !interrupted) interrupted = true, stop = true;
    const uint64_t now = MonotonicNs();
    if (now - last_ns >= 1000000000ull) take_sample(now);
  }
  for (std::thread& t : threads) t.join();
  const uint64_t done_ns = MonotonicNs();
  if (done_ns - last_ns >= 200000000ull && !r.samples.empty()) take_sample(done_ns);
  else if (r.samples.empty()) take_sample(done_ns);

  // What went wrong, if anything: the first stream that ended badly names it.
  std::string problem;
  for (auto& s : streams) {
    if (std::string p = StreamProblem(*s, end_ns, o.seconds); !p.empty()) {
      problem = p;
      break;
    }
  }
  for (auto& s : streams) s->fd.reset();  // closed before NetFinish: up streams see EOF

  // The window this client proposes: the planned one, ended where its first stream
  // stopped. The agent ends it earlier if one of its streams stopped first.
  std::vector<uint64_t> stops;
  for (auto& s : streams) stops.push_back(StopNs(s->outcome, !s->up));
  Window window = EndAtFirstStop(planned, stops);
  for (auto& s : streams)
    if (s->up) r.up_retrans += s->facts.total_retrans.value_or(0);
  if (!streams.empty()) r.facts = streams.front()->facts;

  const milliseconds finish_timeout = problem.empty() ? milliseconds(10000) : milliseconds(1000);
  Result<Frame> report =
      control.value().Request(MessageType::kNetFinish, {{"session", session}, {"window_end_us", UsAfter(start_ns, window.end_ns)}},
                              MessageType::kNetReport, finish_timeout);
  const nlohmann::json* agent_streams = nullptr;
  if (report.ok()) {
    const nlohmann::json& p = report.value().payload;
    if (p.contains("telemetry") && p["telemetry"].is_object() && !p["telemetry"].empty()) r.telemetry = p["telemetry"];
    if (p.contains("streams") && p["streams"].is_array() && p.contains("window") && p["window"].is_object() &&
        p["window"].value("end_us", nlohmann::json()).is_number_unsigned()) {
      agent_streams = &p["streams"];
      // The agent's end is never later than ours (it starts from our proposal).
      window.end_ns = std::max(window.start_ns, std::min(window.end_ns, NsAt(start_ns, p["window"]["end_us"].get<uint64_t>())));
    }
  }
  r.window_start_s = static_cast<double>(window.start_ns - start_ns) / 1e9;
  r.window_end_s = static_cast<double>(window.end_ns - start_ns) / 1e9;

  // What the receiver counted inside the window: the agent for up, this client for down.
  NetDirection up_dir, down_dir;
  up_dir.seconds = down_dir.seconds = window.seconds();
  for (auto& s : streams) {
    NetStreamFigure f;
    f.up = s->up;
    f.index = s->index;
    f.end = ToString(s->outcome.end);
    if (s->up && agent_streams) {
      for (const nlohmann::json& st : *agent_streams) {
        if (!st.is_object() || st.value("dir", "") != "up" || st.value("stream", -1) != static_cast<int64_t>(s->index))
          continue;
        f.bytes = st.value("bytes", uint64_t{0});
        f.end = st.value("end", "done");
        if (f.end != "done" && r.agent_report_note.empty())
          r.agent_report_note = fmt::format("agent: up stream {} ended: {}", s->index, f.end);
      }
    } else {
      f.bytes = s->log.BytesIn(window);  // down: received here; up without a report: sent here
      f.receiver_counted = !s->up;
    }
    NetDirection& d = s->up ? up_dir : down_dir;
    d.bytes += f.bytes;
    d.receiver_counted = d.receiver_counted && f.receiver_counted;
    r.streams.push_back(f);
  }
  if (agent_streams) {
    for (const nlohmann::json& st : *agent_streams)
      if (st.is_object() && st.value("dir", "") == "down" && st.contains("send") && st["send"].is_string())
        r.agent_send_mode = st["send"];
  } else if (problem.empty()) {
    problem = "the agent did not report: " + (report.ok() ? std::string("no window in NetReport") : report.status().message());
  }
  if (want_up) r.up = up_dir;
  if (want_down) r.down = down_dir;

  const double ran_s = static_cast<double>(done_ns - start_ns) / 1e9;
  if (!problem.empty())
    out.status = Status::Io(fmt::format("network test stopped after {:.1f} s: {}", ran_s, problem));
  else if (interrupted)
    out.status = Status::Interrupted();
  return out;
}

}  // namespace nasperf::net
