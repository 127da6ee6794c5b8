// `nasperf agent`'s accept loop: binds, hands each connection to its own thread (up to a
// cap), and on shutdown stops accepting, cancels jobs and joins every thread.
#include "agent/agent_server.h"

#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>

#include <cerrno>
#include <list>
#include <thread>

#include "wire/agent_client.h"
#include "agent/agent_session.h"
#include "wire/auth.h"
#include "net/net_service.h"
#include "base/signals.h"

namespace nasperf {
namespace {

std::string AddressText(const sockaddr_storage& ss) {
  char host[INET6_ADDRSTRLEN] = "?";
  uint16_t port = 0;
  if (ss.ss_family == AF_INET) {
    const auto* a = reinterpret_cast<const sockaddr_in*>(&ss);
    ::inet_ntop(AF_INET, &a->sin_addr, host, sizeof host);
    port = ntohs(a->sin_port);
    return std::string(host) + ":" + std::to_string(port);
  }
  const auto* a = reinterpret_cast<const sockaddr_in6*>(&ss);
  ::inet_ntop(AF_INET6, &a->sin6_addr, host, sizeof host);
  port = ntohs(a->sin6_port);
  return "[" + std::string(host) + "]:" + std::to_string(port);
}

struct Worker {
  std::thread thread;
  std::shared_ptr<std::atomic<bool>> done = std::make_shared<std::atomic<bool>>(false);
};

}  // namespace

struct AgentServer::Impl {
  explicit Impl(AgentContext* c) : ctx(c) {}
  std::unique_ptr<AgentContext> ctx;
  std::unique_ptr<NetService> net = std::make_unique<NetService>();
  ScopedFd listen_fd;
  std::string bound;
  uint16_t port = 0;
};

Result<std::unique_ptr<AgentServer>> AgentServer::Listen(const AgentServerOptions& options) {
  Result<AgentAddress> address = ParseAgentAddress(options.listen, kDefaultPort, true);
  if (!address.ok()) return Status::BadInput("--listen: " + address.status().message());
  if (options.insecure && !IsLoopbackHost(address.value().host))
    return Status::BadInput("--insecure is only allowed on a loopback listen address, not " + options.listen);
  if (options.token.empty() && !options.insecure)
    return Status::BadInput("no token: give --token-file FILE (or --insecure on a loopback address)");
  Result<RootDir> root = RootDir::Open(options.root);
  if (!root.ok()) return root.status();
  Result<DeviceAllowList> devices =
      DeviceAllowList::Make(options.allow_devices, options.allow_volume_members, root.value().real_path());
  if (!devices.ok()) return devices.status();

  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE;
  addrinfo* found = nullptr;
  const std::string& host = address.value().host;
  int rc = ::getaddrinfo(host == "*" ? nullptr : host.c_str(), std::to_string(address.value().port).c_str(), &hints,
                         &found);
  if (rc != 0) return Status::BadInput("--listen " + options.listen + ": " + ::gai_strerror(rc));
  ScopedFd fd;
  Status failure = Status::Unavailable("--listen " + options.listen + ": no usable address");
  for (addrinfo* ai = found; ai && !fd.valid(); ai = ai->ai_next) {
    ScopedFd s(::socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol));
    int one = 1;
    if (!s.valid()) continue;
    ::setsockopt(s.get(), SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (::bind(s.get(), ai->ai_addr, ai->ai_addrlen) != 0 || ::listen(s.get(), 128) != 0) {
      failure = ErrnoStatus("--listen", options.listen, errno, ErrorKind::kUnavailable);
      continue;
    }
    fd = std::move(s);
  }
  ::freeaddrinfo(found);
  if (!fd.valid()) return failure;

  auto* ctx = new AgentContext(options, std::move(root).value(), std::move(devices).value());
  auto impl = std::make_unique<Impl>(ctx);
  ctx->net = impl->net.get();
  sockaddr_storage ss{};
  socklen_t len = sizeof ss;
  ::getsockname(fd.get(), reinterpret_cast<sockaddr*>(&ss), &len);
  impl->bound = AddressText(ss);
  impl->port = ss.ss_family == AF_INET ? ntohs(reinterpret_cast<sockaddr_in*>(&ss)->sin_port)
                                       : ntohs(reinterpret_cast<sockaddr_in6*>(&ss)->sin6_port);
  impl->listen_fd = std::move(fd);
  return std::unique_ptr<AgentServer>(new AgentServer(std::move(impl)));
}

AgentServer::AgentServer(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
AgentServer::~AgentServer() = default;
std::string AgentServer::bound_address() const { return impl_->bound; }
uint16_t AgentServer::bound_port() const { return impl_->port; }
const std::string& AgentServer::root() const { return impl_->ctx->root.real_path(); }
std::vector<std::string> AgentServer::allowed_devices() const {
  std::vector<std::string> out;
  for (const AllowedDevice& d : impl_->ctx->devices.devices()) out.push_back(d.path);
  return out;
}

Status AgentServer::Serve(const std::atomic<bool>& stop, bool watch_signals) {
  AgentContext& ctx = *impl_->ctx;
  std::list<Worker> workers;
  uint64_t next_id = 1;
  auto reap = [&workers] {
    for (auto it = workers.begin(); it != workers.end();) {
      if (it->done->load()) {
        it->thread.join();
        it = workers.erase(it);
      } else {
        ++it;
      }
    }
  };
  while (!stop.load() && !(watch_signals && InterruptRequested())) {
    reap();
    pollfd p{impl_->listen_fd.get(), POLLIN, 0};
    if (::poll(&p, 1, 200) <= 0) continue;
    sockaddr_storage peer{};
    socklen_t len = sizeof peer;
    ScopedFd conn(::accept4(impl_->listen_fd.get(), reinterpret_cast<sockaddr*>(&peer), &len, SOCK_CLOEXEC));
    if (!conn.valid()) continue;  // the peer gave up, or out of descriptors for a moment
    int one = 1;
    ::setsockopt(conn.get(), IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    const SteadyTime accepted_at = std::chrono::steady_clock::now();
    if (static_cast<int>(workers.size()) >= ctx.options.max_connections) {
      SendFrame(conn.get(), MessageType::kError,
                {{"code", "busy"}, {"message", "the agent serves its maximum number of connections"}},
                accepted_at + std::chrono::milliseconds(500));
      continue;
    }
    Worker& w = workers.emplace_back();
    w.thread = std::thread([&ctx, fd = std::move(conn), id = next_id++, accepted_at, done = w.done,
                            who = AddressText(peer)]() mutable {
      ServeConnection(ctx, std::move(fd), id, accepted_at, who);
      done->store(true);
    });
  }
  // Stop accepting, then cancel: jobs see shutting_down within 50 ms, remove their files
  // and send their partial JobDone; every connection thread ends.
  impl_->listen_fd.reset();
  ctx.shutting_down.store(true);
  for (Worker& w : workers) w.thread.join();
  return Status::Ok();
}

}  // namespace nasperf
