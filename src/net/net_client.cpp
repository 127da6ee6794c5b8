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
  if (now.data_segs_out) facts.data_segs_out = now.data_segs_out;
  if (now.rtt_us) facts.rtt_us = now.rtt_us, facts.rttvar_us = now.rttvar_us;
}

// One `nasperf net` test from the client's side, in the order it happens: the control
// handshake, every data connection attached, one start barrier, the streams and the
// sampler, the window both ends agree on, and the receiver's counts inside it.
class NetTest {
 public:
  explicit NetTest(const NetTestOptions& o) : o_(o), r_(out_.result) {}

  NetTestOutcome Run() {
    if (Status s = Handshake(); !s.ok()) return Failed(s);
    if (Status s = AttachStreams(); !s.ok()) return Failed(s);
    Result<Frame> going =
        control_->Request(MessageType::kNetGo, {{"session", session_}}, MessageType::kNetGoing, kConnectTimeout);
    if (!going.ok()) return Failed(going.status());
    start_ns_ = MonotonicNs();  // the barrier, on this client's clock
    planned_ = PlannedWindow(start_ns_, o_.omit_s, o_.seconds);
    RunStreams();
    std::string problem = FirstProblem();
    for (auto& s : streams_) s->fd.reset();  // closed before NetFinish: up streams see EOF
    Finish(problem);
    const double ran_s = static_cast<double>(done_ns_ - start_ns_) / 1e9;
    if (!problem.empty())
      out_.status = Status::Io(fmt::format("network test stopped after {:.1f} s: {}", ran_s, problem));
    else if (interrupted_)
      out_.status = Status::Interrupted();
    return std::move(out_);
  }

 private:
  NetTestOutcome Failed(Status s) {
    out_.status = std::move(s);
    return std::move(out_);
  }
  bool WantUp() const { return o_.dir != "down"; }
  bool WantDown() const { return o_.dir != "up"; }

  // The control connection, NetStart/NetReady, and the send source for up streams.
  Status Handshake() {
    Result<AgentConnection> control = AgentConnection::Connect(o_.address, o_.token, "control", kConnectTimeout);
    if (!control.ok()) return control.status();
    control_.emplace(std::move(control).value());
    nlohmann::json start{{"dir", o_.dir},     {"streams", o_.streams}, {"seconds", o_.seconds},
                         {"omit", o_.omit_s}, {"bs", o_.bs},           {"zerocopy", o_.zerocopy}};
    Result<Frame> ready = control_->Request(MessageType::kNetStart, start, MessageType::kNetReady, kConnectTimeout);
    if (!ready.ok()) return ready.status();
    const nlohmann::json& ready_payload = ready.value().payload;
    if (!ready_payload.contains("session") || !ready_payload["session"].is_string())
      return Status::Io("agent: NetReady without a session");
    session_ = ready_payload["session"];
    r_.agent_send_mode = ready_payload.value("zerocopy", "none");
    if (!WantUp()) return Status();
    SendMode mode = o_.zerocopy ? PreferredZeroCopyMode() : SendMode::kCopy;
    Result<SendSource> made = SendSource::Make(o_.bs, mode);
    if (!made.ok() && mode != SendMode::kCopy) made = SendSource::Make(o_.bs, SendMode::kCopy);
    if (!made.ok()) return made.status();
    source_ = std::move(made).value();
    r_.client_send_mode = ToString(source_->mode());
    return Status();
  }

  // Data connections, all before any byte is timed.
  Status AttachStreams() {
    const size_t stream_count = (WantUp() ? o_.streams : 0) + (WantDown() ? o_.streams : 0);
    for (bool up : {true, false}) {
      if ((up && !WantUp()) || (!up && !WantDown())) continue;
      for (uint32_t i = 0; i < o_.streams; ++i) {
        if (streams_.size() + 1 == stream_count) std::this_thread::sleep_for(LateAttachDelay());
        if (Status s = AttachStream(up, i); !s.ok()) return s;
      }
    }
    return Status();
  }

  Status AttachStream(bool up, uint32_t i) {
    auto s = std::make_unique<Stream>();
    s->up = up;
    s->index = i;
    Result<AgentConnection> data = AgentConnection::Connect(o_.address, o_.token, "data", kConnectTimeout);
    if (!data.ok()) return Status::Io(fmt::format("data connection for {}: {}", s->Label(), data.status().message()));
    Result<Frame> attached =
        data.value().Request(MessageType::kDataAttach, {{"session", session_}, {"stream", i}, {"dir", up ? "up" : "down"}},
                             MessageType::kDataAttached, kConnectTimeout);
    if (!attached.ok()) return Status::Io(fmt::format("attaching {}: {}", s->Label(), attached.status().message()));
    s->prefix = data.value().TakeBuffered();  // raw bytes before the barrier: not counted
    s->fd = data.value().ReleaseFd();
    s->mode = up ? ChooseSendMode(s->fd.get(), o_.zerocopy) : SendMode::kCopy;
    if (up) r_.client_send_mode = ToString(s->mode);
    if (Status p = PrepareStreamSocket(s->fd.get(), s->mode); !p.ok()) return p;
    // MTU, interface and link speed now, while the path is whole; TCP_INFO again at the end.
    s->facts = ReadTcpFacts(s->fd.get());
    if (streams_.empty()) r_.link_speed_mbps = LinkSpeedMbps(s->facts.interface);
    streams_.push_back(std::move(s));
    return Status();
  }

  void StreamBody(Stream* s) {
    const uint64_t end_ns = planned_.end_ns;
    if (s->up) {
      s->outcome = SendLoop(s->fd.get(), *source_, StreamLimits{end_ns + kSendTailNs, kStallNs}, stop_, s->bytes,
                            nullptr, s->mode, &s->log);
      UpdateTcpInfo(s->fd.get(), s->facts);
      ::shutdown(s->fd.get(), SHUT_WR);  // EOF: the agent stops counting
    } else {
      s->bytes.fetch_add(s->prefix.size(), std::memory_order_relaxed);
      s->log.Record(start_ns_, s->prefix.size());  // before the window: never counted
      std::vector<char> buffer(std::clamp<uint64_t>(o_.bs, 128 << 10, 4 << 20));
      s->outcome = ReceiveLoop(s->fd.get(), buffer.data(), buffer.size(),
                               StreamLimits{end_ns + kDownGraceNs, kStallNs}, stop_, s->bytes, nullptr, &s->log);
      UpdateTcpInfo(s->fd.get(), s->facts);
    }
    if (s->outcome.end == StreamEnd::kError || s->outcome.end == StreamEnd::kStalled) stop_ = true;
    finished_.fetch_add(1);
  }

  // Every stream on its own thread; this one samples once a second until all are done.
  void RunStreams() {
    std::vector<std::thread> threads;
    r_.measured = true;
    for (auto& sp : streams_) threads.emplace_back([this, s = sp.get()] { StreamBody(s); });
    last_ns_ = start_ns_;
    while (finished_.load() < streams_.size()) {
      std::this_thread::sleep_for(milliseconds(50));
      if (InterruptRequested() && !interrupted_) interrupted_ = true, stop_ = true;
      const uint64_t now = MonotonicNs();
      if (now - last_ns_ >= 1000000000ull) TakeSample(now);
    }
    for (std::thread& t : threads) t.join();
    done_ns_ = MonotonicNs();
    if (done_ns_ - last_ns_ >= 200000000ull && !r_.samples.empty()) TakeSample(done_ns_);
    else if (r_.samples.empty()) TakeSample(done_ns_);
  }

  // What every stream moved since the last look.
  void TakeSample(uint64_t now) {
    uint64_t up = 0, down = 0;
    for (auto& s : streams_) (s->up ? up : down) += s->bytes.load(std::memory_order_relaxed);
    const double interval_s = static_cast<double>(now - last_ns_) / 1e9;
    Sample sample{static_cast<double>(now - start_ns_) / 1e9, static_cast<double>(down - last_down_) / interval_s / 1e6,
                  static_cast<double>(up - last_up_) / interval_s / 1e6};
    r_.samples.push_back(sample);
    if (o_.on_sample) o_.on_sample(sample);
    last_ns_ = now, last_up_ = up, last_down_ = down;
  }

  // What went wrong, if anything: the first stream that ended badly names it.
  std::string FirstProblem() const {
    for (auto& s : streams_)
      if (std::string p = StreamProblem(*s, planned_.end_ns, o_.seconds); !p.empty()) return p;
    return "";
  }

  // NetFinish with the window this client proposes: the planned one, ended where its
  // first stream stopped. The agent ends it earlier if one of its streams stopped first.
  void Finish(std::string& problem) {
    std::vector<uint64_t> stops;
    for (auto& s : streams_) stops.push_back(StopNs(s->outcome, !s->up));
    Window window = EndAtFirstStop(planned_, stops);
    bool every_up_counted = true;
    for (auto& s : streams_) {
      if (!s->up) continue;
      r_.up_retrans += s->facts.total_retrans.value_or(0);
      if (s->facts.data_segs_out) r_.up_segments += *s->facts.data_segs_out;
      else every_up_counted = false;
    }
    if (!every_up_counted) r_.up_segments = 0;
    if (!streams_.empty()) r_.facts = streams_.front()->facts;

    const milliseconds finish_timeout = problem.empty() ? milliseconds(10000) : milliseconds(1000);
    Result<Frame> report = control_->Request(
        MessageType::kNetFinish, {{"session", session_}, {"window_end_us", UsAfter(start_ns_, window.end_ns)}},
        MessageType::kNetReport, finish_timeout);
    const nlohmann::json* agent_streams = nullptr;
    if (report.ok()) {
      const nlohmann::json& p = report.value().payload;
      if (p.contains("telemetry") && p["telemetry"].is_object() && !p["telemetry"].empty()) r_.telemetry = p["telemetry"];
      if (p.contains("streams") && p["streams"].is_array() && p.contains("window") && p["window"].is_object() &&
          p["window"].value("end_us", nlohmann::json()).is_number_unsigned()) {
        agent_streams = &p["streams"];
        // The agent's end is never later than ours (it starts from our proposal).
        window.end_ns =
            std::max(window.start_ns, std::min(window.end_ns, NsAt(start_ns_, p["window"]["end_us"].get<uint64_t>())));
      }
    }
    r_.window_start_s = static_cast<double>(window.start_ns - start_ns_) / 1e9;
    r_.window_end_s = static_cast<double>(window.end_ns - start_ns_) / 1e9;
    CountWindow(window, agent_streams);
    if (!agent_streams && problem.empty())
      problem = "the agent did not report: " + (report.ok() ? std::string("no window in NetReport") : report.status().message());
  }

  // What the receiver counted inside the window: the agent for up, this client for down.
  void CountWindow(const Window& window, const nlohmann::json* agent_streams) {
    NetDirection up_dir, down_dir;
    up_dir.seconds = down_dir.seconds = window.seconds();
    for (auto& s : streams_) {
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
          if (f.end != "done" && r_.agent_report_note.empty())
            r_.agent_report_note = fmt::format("agent: up stream {} ended: {}", s->index, f.end);
        }
      } else {
        f.bytes = s->log.BytesIn(window);  // down: received here; up without a report: sent here
        f.receiver_counted = !s->up;
      }
      NetDirection& d = s->up ? up_dir : down_dir;
      d.bytes += f.bytes;
      d.receiver_counted = d.receiver_counted && f.receiver_counted;
      r_.streams.push_back(f);
    }
    if (agent_streams) {
      for (const nlohmann::json& st : *agent_streams)
        if (st.is_object() && st.value("dir", "") == "down" && st.contains("send") && st["send"].is_string())
          r_.agent_send_mode = st["send"];
    }
    if (WantUp()) r_.up = up_dir;
    if (WantDown()) r_.down = down_dir;
  }

  const NetTestOptions& o_;
  NetTestOutcome out_;
  NetTestResult& r_;
  std::optional<AgentConnection> control_;
  std::string session_;
  std::optional<SendSource> source_;
  std::vector<std::unique_ptr<Stream>> streams_;
  uint64_t start_ns_ = 0, done_ns_ = 0;
  Window planned_{};
  std::atomic<bool> stop_{false};
  std::atomic<size_t> finished_{0};
  bool interrupted_ = false;
  uint64_t last_ns_ = 0, last_up_ = 0, last_down_ = 0;
};

}  // namespace

NetTestOutcome RunNetTest(const NetTestOptions& o) { return NetTest(o).Run(); }

}  // namespace nasperf::net
