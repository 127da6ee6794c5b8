// The agent's side of the handshake: the token's MAC both ways over fresh nonces.
#include "agent/agent_handshake.h"

#include <optional>

#include "agent/session_common.h"
#include "nasperf/version.h"
#include "wire/auth.h"
#include "wire/messages.h"

namespace nasperf {

using std::chrono::milliseconds;

std::string Authenticate(AgentContext& ctx, int fd, FrameDecoder& decoder, SteadyTime deadline,
                         const std::string& peer) {
  auto refuse = [&](const std::string& code, const std::string& message) {
    SendFrame(fd, MessageType::kError, AgentErrorPayload(code, message), AgentNow() + milliseconds(1000));
    AgentLog(peer, "refused: " + message);
    return std::string();
  };
  auto read = [&](MessageType expected) -> std::optional<AgentMessage> {
    ReadOutcome got = ReadFrame(fd, decoder, deadline, &ctx.shutting_down);
    if (got.end == ReadEnd::kTimeout) {
      refuse("auth", "authentication did not finish within the time allowed");
      return std::nullopt;
    }
    if (got.end == ReadEnd::kProtocolError) {
      refuse("protocol", got.status.message());
      return std::nullopt;
    }
    if (got.end != ReadEnd::kFrame) return std::nullopt;
    if (got.frame.type != expected) {
      refuse("auth",
             "authenticate first: expected " + MessageTypeName(expected) + ", got " + MessageTypeName(got.frame.type));
      return std::nullopt;
    }
    Result<AgentMessage> message = DecodeMessage(got.frame);
    if (!message.ok()) {
      refuse("protocol", message.status().message());
      return std::nullopt;
    }
    return std::move(message).value();
  };

  std::optional<AgentMessage> hello = read(MessageType::kHello);
  if (!hello) return "";
  const HelloMsg& h = std::get<HelloMsg>(hello->body);
  const std::string role = h.role;
  if (role != "control" && role != "data") return refuse("protocol", "Hello.role must be \"control\" or \"data\"");
  Result<std::string> client_nonce = HexToBytes(h.client_nonce_hex, kNonceBytes, "Hello.client_nonce");
  if (!client_nonce.ok()) return refuse("protocol", client_nonce.status().message());
  Result<std::string> server_nonce_hex = RandomHex(kNonceBytes);
  if (!server_nonce_hex.ok()) return refuse("failed", server_nonce_hex.status().message());
  std::string server_nonce = HexToBytes(server_nonce_hex.value(), kNonceBytes, "nonce").value();
  if (!SendFrame(fd, MessageType::kChallenge,
                 {{"server_nonce", server_nonce_hex.value()}, {"agent", "nasperf " NASPERF_VERSION}}, deadline)
           .ok())
    return "";
  std::optional<AgentMessage> auth = read(MessageType::kAuth);
  if (!auth) return "";
  const std::string& mac = std::get<AuthMsg>(auth->body).mac_hex;
  if (!MacMatches(ClientMac(ctx.options.token, role, server_nonce, client_nonce.value()), mac))
    return refuse("auth", "wrong token (the MAC does not match)");
  if (!SendFrame(fd, MessageType::kAuthOk, {{"mac", AgentMac(ctx.options.token, client_nonce.value(), server_nonce)}},
                 deadline)
           .ok())
    return "";
  return role;
}

}  // namespace nasperf
