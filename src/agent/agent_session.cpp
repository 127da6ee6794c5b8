// A connection of `nasperf agent`: the handshake, then the control session or a data stream.
#include "agent/agent_session.h"

#include <unistd.h>

#include "agent/agent_handshake.h"
#include "agent/control_session.h"
#include "agent/session_common.h"
#include "net/net_service.h"

namespace nasperf {
namespace {

using std::chrono::milliseconds;

constexpr milliseconds kDataAttachTimeout{10000};

void ServeData(AgentContext& ctx, ScopedFd fd, FrameDecoder& decoder, const std::string& peer) {
  ReadOutcome got = ReadFrame(fd.get(), decoder, AgentNow() + kDataAttachTimeout, &ctx.shutting_down);
  if (got.end != ReadEnd::kFrame || got.frame.type != MessageType::kDataAttach) {
    std::string message = got.end == ReadEnd::kFrame
                              ? "expected DataAttach on a data connection, got " + MessageTypeName(got.frame.type)
                              : got.status.message();
    if (got.end == ReadEnd::kFrame || got.end == ReadEnd::kProtocolError || got.end == ReadEnd::kTimeout)
      SendFrame(fd.get(), MessageType::kError, AgentErrorPayload("protocol", message), AgentNow() + milliseconds(1000));
    AgentLog(peer, "data connection dropped: " + message);
    return;
  }
  if (!ctx.net) {
    SendFrame(fd.get(), MessageType::kError, AgentErrorPayload("failed", "this agent has no network test"),
              AgentNow() + kAgentSendTimeout);
    return;
  }
  if (!decoder.TakeBuffered().empty()) {
    // The client must wait for DataAttached before sending raw bytes.
    SendFrame(fd.get(), MessageType::kError, AgentErrorPayload("protocol", "data sent before DataAttached"),
              AgentNow() + kAgentSendTimeout);
    return;
  }
  // Attach owns and closes the socket; a duplicate lets us still answer a refused attach.
  ScopedFd answer(::dup(fd.get()));
  Status s = ctx.net->Attach(got.frame.payload, std::move(fd), ctx.shutting_down);
  if (!s.ok() && s.kind() == ErrorKind::kBadInput && answer.valid())
    SendFrame(answer.get(), MessageType::kError, AgentErrorPayload("bad_request", s.message()),
              AgentNow() + milliseconds(1000));
  if (!s.ok()) AgentLog(peer, "data stream: " + s.message());
}

}  // namespace

void ServeConnection(AgentContext& ctx, ScopedFd fd, uint64_t connection_id, SteadyTime accepted_at,
                     const std::string& peer) {
  FrameDecoder decoder;
  std::string role = Authenticate(ctx, fd.get(), decoder, accepted_at + ctx.options.auth_timeout, peer);
  if (role.empty()) return;
  if (role == "data") return ServeData(ctx, std::move(fd), decoder, peer);
  ControlSession session(ctx, fd.get(), decoder, connection_id, peer);
  session.Run();
}

}  // namespace nasperf
