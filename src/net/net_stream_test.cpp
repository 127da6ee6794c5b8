// Unit tests of the net data path and NetService on loopback TCP sockets.
#include "net/net_stream.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <atomic>
#include <ctime>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "wire/wire.h"
#include "net/net_service.h"
#include "base/clock.h"

namespace nasperf::net {
namespace {

// A connected pair of loopback TCP sockets: {client, server}.
std::pair<ScopedFd, ScopedFd> LoopbackPair() {
  ScopedFd listener(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof(addr);
  EXPECT_EQ(::bind(listener.get(), reinterpret_cast<sockaddr*>(&addr), sizeof(addr)), 0);
  EXPECT_EQ(::listen(listener.get(), 4), 0);
  EXPECT_EQ(::getsockname(listener.get(), reinterpret_cast<sockaddr*>(&addr), &len), 0);
  ScopedFd client(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
  EXPECT_EQ(::connect(client.get(), reinterpret_cast<sockaddr*>(&addr), sizeof(addr)), 0);
  ScopedFd server(::accept4(listener.get(), nullptr, nullptr, SOCK_CLOEXEC));
  return {std::move(client), std::move(server)};
}

uint64_t InNs(double seconds) { return MonotonicNs() + static_cast<uint64_t>(seconds * 1e9); }

class SendModes : public ::testing::TestWithParam<SendMode> {};

TEST_P(SendModes, ReceiverCountsEveryByteTheSenderSent) {
  auto [client, server] = LoopbackPair();
  Result<SendSource> source = SendSource::Make(128 << 10, GetParam());
  ASSERT_TRUE(source.ok()) << source.status().message();
  ASSERT_TRUE(PrepareStreamSocket(client.get(), GetParam()).ok());
  ASSERT_TRUE(PrepareStreamSocket(server.get(), SendMode::kCopy).ok());
  std::atomic<bool> stop{false};
  std::atomic<uint64_t> sent{0}, received{0};
  StreamOutcome rx;
  std::thread receiver([&, fd = server.get()] {
    std::vector<char> buffer(256 << 10);
    rx = ReceiveLoop(fd, buffer.data(), buffer.size(), StreamLimits{InNs(10)}, stop, received);
  });
  StreamOutcome tx = SendLoop(client.get(), source.value(), StreamLimits{InNs(0.3)}, stop, sent);
  ::shutdown(client.get(), SHUT_WR);
  receiver.join();
  EXPECT_EQ(tx.end, StreamEnd::kDone) << tx.status.message();
  EXPECT_EQ(rx.end, StreamEnd::kDone) << rx.status.message();
  EXPECT_GT(sent.load(), 1u << 20);
  EXPECT_EQ(received.load(), sent.load());
  EXPECT_GT(tx.last_ns, tx.first_ns);
}

INSTANTIATE_TEST_SUITE_P(Net, SendModes,
                         ::testing::Values(SendMode::kCopy, SendMode::kSendfile, SendMode::kMsgZerocopy),
                         [](const auto& info) { return std::string(ToString(info.param)); });

TEST(NetStream, ReceiverStallsWhenNothingArrives) {
  auto [client, server] = LoopbackPair();
  ASSERT_TRUE(PrepareStreamSocket(server.get(), SendMode::kCopy).ok());
  std::atomic<bool> stop{false};
  std::atomic<uint64_t> received{0};
  char buffer[4096];
  uint64_t start = MonotonicNs();
  StreamOutcome rx = ReceiveLoop(server.get(), buffer, sizeof(buffer), StreamLimits{InNs(10), 500000000}, stop, received);
  double took_s = static_cast<double>(MonotonicNs() - start) / 1e9;
  EXPECT_EQ(rx.end, StreamEnd::kStalled);
  EXPECT_FALSE(rx.status.ok());
  EXPECT_LT(took_s, 1.0);
}

TEST(NetStream, StopEndsASenderWhoseReceiverDoesNotRead) {
  auto [client, server] = LoopbackPair();
  Result<SendSource> source = SendSource::Make(1 << 20, SendMode::kCopy);
  ASSERT_TRUE(source.ok());
  ASSERT_TRUE(PrepareStreamSocket(client.get(), SendMode::kCopy).ok());
  std::atomic<bool> stop{false};
  std::atomic<uint64_t> sent{0};
  std::thread stopper([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    stop = true;
  });
  StreamOutcome tx = SendLoop(client.get(), source.value(), StreamLimits{InNs(30)}, stop, sent);
  stopper.join();
  EXPECT_EQ(tx.end, StreamEnd::kStopped);
}

// The CPU time this thread has used (CLOCK_THREAD_CPUTIME_ID), in seconds.
double ThreadCpuSeconds() {
  timespec t{};
  ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) / 1e9;
}

void MakeNonBlocking(int fd) { ASSERT_EQ(::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK), 0); }

// Regression: ConnectTcp's sockets are non-blocking, and the stream loops spun a core on
// EAGAIN while the link (or a receiver that does not read) held them back. The socket here
// is made non-blocking as ConnectTcp leaves it; PrepareStreamSocket must undo that.
class HeldBackSender : public ::testing::TestWithParam<SendMode> {};

TEST_P(HeldBackSender, WaitsWithoutSpinning) {
  auto [client, server] = LoopbackPair();
  MakeNonBlocking(client.get());
  Result<SendSource> source = SendSource::Make(128 << 10, GetParam());
  ASSERT_TRUE(source.ok());
  ASSERT_TRUE(PrepareStreamSocket(client.get(), GetParam()).ok());
  std::atomic<bool> stop{false};
  std::atomic<uint64_t> sent{0};
  std::thread stopper([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(600));
    stop = true;
  });
  const double cpu0 = ThreadCpuSeconds();
  const uint64_t wall0 = MonotonicNs();
  StreamOutcome tx =
      SendLoop(client.get(), source.value(), StreamLimits{InNs(30)}, stop, sent, nullptr, GetParam());
  const double wall_s = static_cast<double>(MonotonicNs() - wall0) / 1e9, cpu_s = ThreadCpuSeconds() - cpu0;
  stopper.join();
  EXPECT_EQ(tx.end, StreamEnd::kStopped);
  EXPECT_GT(sent.load(), 0u);
  // Filling the buffers takes milliseconds; a spinning loop takes the whole wait.
  EXPECT_LT(cpu_s, 0.3 * wall_s) << "the sender used " << cpu_s << " s of CPU in " << wall_s << " s";
}

INSTANTIATE_TEST_SUITE_P(Net, HeldBackSender, ::testing::Values(SendMode::kCopy, SendMode::kSendfile),
                         [](const auto& info) { return std::string(ToString(info.param)); });

TEST(NetStream, AReceiverWithNothingToReadWaitsWithoutSpinning) {
  auto [client, server] = LoopbackPair();
  MakeNonBlocking(client.get());
  ASSERT_TRUE(PrepareStreamSocket(client.get(), SendMode::kCopy).ok());
  std::vector<char> buffer(128 << 10);
  std::atomic<bool> stop{false};
  std::atomic<uint64_t> received{0};
  const double cpu0 = ThreadCpuSeconds();
  const uint64_t wall0 = MonotonicNs();
  StreamOutcome rx = ReceiveLoop(client.get(), buffer.data(), buffer.size(), StreamLimits{InNs(0.6)}, stop, received);
  const double wall_s = static_cast<double>(MonotonicNs() - wall0) / 1e9, cpu_s = ThreadCpuSeconds() - cpu0;
  EXPECT_EQ(rx.end, StreamEnd::kTimeUp);
  EXPECT_LT(cpu_s, 0.3 * wall_s) << "the receiver used " << cpu_s << " s of CPU in " << wall_s << " s";
}

TEST(NetStream, SenderFailsWhenThePeerIsGone) {
  auto [client, server] = LoopbackPair();
  Result<SendSource> source = SendSource::Make(64 << 10, SendMode::kSendfile);
  ASSERT_TRUE(source.ok());
  ASSERT_TRUE(PrepareStreamSocket(client.get(), SendMode::kSendfile).ok());
  server.reset();
  std::atomic<bool> stop{false};
  std::atomic<uint64_t> sent{0};
  StreamOutcome tx = SendLoop(client.get(), source.value(), StreamLimits{InNs(10)}, stop, sent);
  EXPECT_EQ(tx.end, StreamEnd::kError);
  EXPECT_FALSE(tx.status.ok());
}

TEST(NetStream, TcpFactsOfALoopbackConnection) {
  auto [client, server] = LoopbackPair();
  TcpFacts facts = ReadTcpFacts(client.get());
  EXPECT_EQ(facts.interface, "lo");
  EXPECT_EQ(facts.local_address, "127.0.0.1");
  ASSERT_TRUE(facts.mss_bytes.has_value());
  EXPECT_GT(*facts.mss_bytes, 0);
  ASSERT_TRUE(facts.path_mtu_bytes.has_value());
  EXPECT_GE(*facts.path_mtu_bytes, 1280);  // lo's MTU (65536 by default)
  EXPECT_TRUE(facts.total_retrans.has_value());
  EXPECT_TRUE(facts.rtt_us.has_value());
  EXPECT_FALSE(LinkSpeedMbps("lo").has_value());
  EXPECT_FALSE(LinkSpeedMbps("../etc").has_value());
}

TEST(NetStream, LineRateText) {
  EXPECT_EQ(LineRateText(118.25, "eth0", 1000), "118.2 MB/s = 94.6 % of 1 GbE (eth0)");
  EXPECT_EQ(LineRateText(12.0, "eth1", 100), "12.0 MB/s = 96.0 % of 100 Mbit/s (eth1)");
  EXPECT_EQ(LineRateText(1200.0, "lo", std::nullopt), "1200.0 MB/s, link speed unknown (lo)");
  EXPECT_EQ(LinkName(2500), "2.5 GbE");
  EXPECT_EQ(LinkName(10000), "10 GbE");
}

TEST(NetStream, SendSourceRefusesSillySizes) {
  EXPECT_FALSE(SendSource::Make(0, SendMode::kCopy).ok());
  EXPECT_FALSE(SendSource::Make(1ull << 30, SendMode::kCopy).ok());
}

// ---------------------------------------------------------------------------------------
// NetService, driven the way the agent server drives it.

TEST(NetService, StartRefusesBadRequests) {
  NetService service;
  for (const char* bad : {R"({"dir":"sideways","streams":1,"seconds":1,"bs":65536})",
                          R"({"dir":"up","streams":0,"seconds":1,"bs":65536})",
                          R"({"dir":"up","streams":1,"seconds":"x","bs":65536})",
                          R"({"dir":"up","streams":1,"seconds":1,"bs":0})",
                          R"({"dir":"up","streams":1,"seconds":1,"bs":65536,"zerocopy":3})", R"([])"}) {
    Result<nlohmann::json> r = service.Start(nlohmann::json::parse(bad), 1);
    EXPECT_FALSE(r.ok()) << bad;
    if (!r.ok()) EXPECT_EQ(r.status().kind(), ErrorKind::kBadInput) << bad;
  }
}

// Reads the DataAttached frame the service sends first; leftover raw bytes go to `extra`.
bool ReadDataAttached(int fd, std::string* extra) {
  FrameDecoder decoder;
  char buffer[4096];
  for (;;) {
    ssize_t n = ::recv(fd, buffer, sizeof(buffer), 0);
    if (n <= 0) return false;
    decoder.Feed(buffer, static_cast<size_t>(n));
    auto next = decoder.Next();
    if (!next.ok()) return false;
    if (next.value()) {
      *extra = decoder.TakeBuffered();
      return next.value()->type == MessageType::kDataAttached;
    }
  }
}

TEST(NetService, UpAndDownStreamsAreCountedAndReported) {
  NetService service;
  Result<nlohmann::json> ready =
      service.Start(nlohmann::json{{"dir", "both"}, {"streams", 1}, {"seconds", 0.5}, {"omit", 0.2}, {"bs", 65536},
                                   {"zerocopy", true}}, 7);
  ASSERT_TRUE(ready.ok()) << ready.status().message();
  const std::string session = ready.value()["session"];
  EXPECT_EQ(session.size(), 32u);
  EXPECT_EQ(ready.value()["zerocopy"], "sendfile");
  std::atomic<bool> stop{false};

  auto [up_client, up_server] = LoopbackPair();
  auto [down_client, down_server] = LoopbackPair();
  std::thread up_agent([&, fd = std::move(up_server)]() mutable {
    EXPECT_TRUE(service.Attach({{"session", session}, {"stream", 0}, {"dir", "up"}}, std::move(fd), stop).ok());
  });
  std::thread down_agent([&, fd = std::move(down_server)]() mutable {
    EXPECT_TRUE(service.Attach({{"session", session}, {"stream", 0}, {"dir", "down"}}, std::move(fd), stop).ok());
  });

  std::string extra;
  ASSERT_TRUE(ReadDataAttached(up_client.get(), &extra));
  ASSERT_TRUE(ReadDataAttached(down_client.get(), &extra));
  EXPECT_TRUE(extra.empty()) << "the agent sent before the barrier";
  // The barrier: only another control connection's NetGo is refused; ours starts both.
  EXPECT_FALSE(service.Go({{"session", session}}, 8).ok());
  ASSERT_TRUE(service.Go({{"session", session}}, 7).ok());
  EXPECT_FALSE(service.Go({{"session", session}}, 7).ok()) << "a second NetGo";
  std::atomic<uint64_t> sent{0}, received{extra.size()};
  std::thread down_reader([&, &down_client = down_client] {
    ASSERT_TRUE(PrepareStreamSocket(down_client.get(), SendMode::kCopy).ok());
    std::vector<char> buffer(1 << 20);
    StreamOutcome rx = ReceiveLoop(down_client.get(), buffer.data(), buffer.size(), StreamLimits{InNs(5)}, stop, received);
    EXPECT_EQ(rx.end, StreamEnd::kDone) << rx.status.message();
    down_client.reset();
  });
  Result<SendSource> source = SendSource::Make(65536, SendMode::kCopy);
  ASSERT_TRUE(source.ok());
  ASSERT_TRUE(PrepareStreamSocket(up_client.get(), SendMode::kCopy).ok());
  StreamOutcome tx = SendLoop(up_client.get(), source.value(), StreamLimits{InNs(0.8)}, stop, sent);
  EXPECT_EQ(tx.end, StreamEnd::kDone);
  up_client.reset();
  down_reader.join();

  // Another control connection may not finish it.
  EXPECT_FALSE(service.Finish({{"session", session}}, 8).ok());
  Result<nlohmann::json> report = service.Finish({{"session", session}}, 7);
  ASSERT_TRUE(report.ok()) << report.status().message();
  up_agent.join();
  down_agent.join();
  const nlohmann::json& streams = report.value()["streams"];
  ASSERT_EQ(streams.size(), 2u) << report.value().dump();
  // The planned window: omit .. omit + seconds after the barrier (no proposal sent).
  EXPECT_EQ(report.value()["window"]["start_us"], 200000u);
  EXPECT_EQ(report.value()["window"]["end_us"], 700000u);
  EXPECT_EQ(streams[0]["dir"], "up");
  EXPECT_EQ(streams[0]["received_bytes"].get<uint64_t>(), sent.load());
  // Counted inside the window only: less than everything, and something.
  EXPECT_GT(streams[0]["bytes"].get<uint64_t>(), 0u);
  EXPECT_LT(streams[0]["bytes"].get<uint64_t>(), sent.load());
  EXPECT_EQ(streams[1]["dir"], "down");
  EXPECT_GT(streams[1]["sent_bytes"].get<uint64_t>(), 0u);
  EXPECT_GT(received.load(), streams[1]["sent_bytes"].get<uint64_t>());
  // Finished: the session is gone.
  EXPECT_FALSE(service.Finish({{"session", session}}, 7).ok());
}

TEST(NetService, AttachRefusesUnknownSessionsStreamsAndDirections) {
  NetService service;
  Result<nlohmann::json> ready =
      service.Start(nlohmann::json{{"dir", "up"}, {"streams", 2}, {"seconds", 1}, {"bs", 65536}}, 1);
  ASSERT_TRUE(ready.ok());
  const std::string session = ready.value()["session"];
  std::atomic<bool> stop{false};
  for (const nlohmann::json& bad : {nlohmann::json{{"session", "00"}, {"stream", 0}, {"dir", "up"}},
                                    nlohmann::json{{"session", session}, {"stream", 2}, {"dir", "up"}},
                                    nlohmann::json{{"session", session}, {"stream", 0}, {"dir", "down"}},
                                    nlohmann::json{{"session", session}, {"stream", -1}, {"dir", "up"}}}) {
    auto [client, server] = LoopbackPair();
    Status s = service.Attach(bad, std::move(server), stop);
    EXPECT_EQ(s.kind(), ErrorKind::kBadInput) << bad.dump();
  }
}

TEST(NetService, GoNeedsEveryStreamAttached) {
  NetService service;
  Result<nlohmann::json> ready =
      service.Start(nlohmann::json{{"dir", "up"}, {"streams", 2}, {"seconds", 1}, {"bs", 65536}}, 1);
  ASSERT_TRUE(ready.ok());
  Result<nlohmann::json> go = service.Go({{"session", ready.value()["session"]}}, 1);
  ASSERT_FALSE(go.ok());
  EXPECT_EQ(go.status().kind(), ErrorKind::kBadInput);
  EXPECT_NE(go.status().message().find("0 of 2 streams attached"), std::string::npos) << go.status().message();
  EXPECT_FALSE(service.Start(nlohmann::json{{"dir", "up"}, {"streams", 1}, {"seconds", 1}, {"omit", -1}, {"bs", 65536}}, 1).ok());
}

TEST(NetService, ClosedControlConnectionStopsItsStreams) {
  NetService service;
  Result<nlohmann::json> ready =
      service.Start(nlohmann::json{{"dir", "down"}, {"streams", 1}, {"seconds", 30}, {"bs", 65536}}, 3);
  ASSERT_TRUE(ready.ok());
  const std::string session = ready.value()["session"];
  std::atomic<bool> stop{false};
  auto [client, server] = LoopbackPair();
  uint64_t start = MonotonicNs();
  std::thread agent([&, fd = std::move(server)]() mutable {
    service.Attach({{"session", session}, {"stream", 0}, {"dir", "down"}}, std::move(fd), stop);
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  service.ConnectionClosed(3);
  agent.join();
  EXPECT_LT(static_cast<double>(MonotonicNs() - start) / 1e9, 3.0);
  EXPECT_FALSE(service.Finish({{"session", session}}, 3).ok());
}

}  // namespace
}  // namespace nasperf::net
