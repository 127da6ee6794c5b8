// The client end of the agent protocol: addresses, the token, authenticated connections.
#include "wire/agent_client.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>

#include <fmt/format.h>

#include "wire/auth.h"
#include "wire/frame_socket.h"
#include "wire/messages.h"
#include "base/tcp_connect.h"
#include "nasperf/version.h"

namespace nasperf {
namespace {

using std::chrono::milliseconds;

SteadyTime After(milliseconds timeout) { return std::chrono::steady_clock::now() + timeout; }

Result<uint16_t> ParsePort(const std::string& text, const std::string& whole, bool allow_zero) {
  if (text.empty() || text.size() > 5 || text.find_first_not_of("0123456789") != std::string::npos)
    return Status::BadInput("agent address " + whole + ": port '" + text + "' is not a number 1-65535");
  unsigned long port = std::stoul(text);
  if ((port == 0 && !allow_zero) || port > 65535)
    return Status::BadInput("agent address " + whole + ": port " + text + " is not in 1-65535");
  return static_cast<uint16_t>(port);
}

// The agent's Error frame as a Status: the client's mistakes are bad input (exit 2).
Status ErrorFrameStatus(const AgentAddress& address, const nlohmann::json& payload) {
  // Type-checked: a code that is not a string must not throw in the client.
  Result<AgentMessage> error = DecodeMessage(Frame{MessageType::kError, payload});
  if (!error.ok()) return Status::Io("agent " + address.text() + ": " + error.status().message());
  const std::string& code = std::get<ErrorMsg>(error.value().body).code;
  const std::string& message = std::get<ErrorMsg>(error.value().body).message;
  std::string text = fmt::format("agent {}: {}: {}", address.text(), code, message);
  if (code == "bad_request" || code == "path") return Status::BadInput(text);
  return Status::Io(text);
}

}  // namespace

std::string AgentAddress::text() const {
  if (host.find(':') != std::string::npos) return fmt::format("[{}]:{}", host, port);
  return fmt::format("{}:{}", host, port);
}

Result<AgentAddress> ParseAgentAddress(const std::string& text, uint16_t default_port, bool allow_port_zero) {
  AgentAddress address{"", default_port};
  std::string port;
  if (!text.empty() && text.front() == '[') {
    size_t close = text.find(']');
    if (close == std::string::npos) return Status::BadInput("agent address " + text + ": missing ']'");
    address.host = text.substr(1, close - 1);
    std::string rest = text.substr(close + 1);
    if (!rest.empty()) {
      if (rest.front() != ':') return Status::BadInput("agent address " + text + ": expected ':PORT' after ']'");
      port = rest.substr(1);
      if (port.empty()) return Status::BadInput("agent address " + text + ": empty port");
    }
  } else if (std::count(text.begin(), text.end(), ':') > 1) {
    address.host = text;  // a bare IPv6 address
  } else if (size_t colon = text.find(':'); colon != std::string::npos) {
    address.host = text.substr(0, colon);
    port = text.substr(colon + 1);
    if (port.empty()) return Status::BadInput("agent address " + text + ": empty port");
  } else {
    address.host = text;
  }
  if (address.host.empty()) return Status::BadInput("agent address '" + text + "': expected HOST[:PORT]");
  const bool v6 = address.host.find(':') != std::string::npos;
  for (char c : address.host) {
    bool ok = std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-' || c == '_' || (v6 && (c == ':' || c == '%'));
    if (!ok) return Status::BadInput("agent address '" + text + "': '" + std::string(1, c) + "' cannot be in a host name");
  }
  if (!port.empty()) {
    Result<uint16_t> p = ParsePort(port, text, allow_port_zero);
    if (!p.ok()) return p.status();
    address.port = p.value();
  }
  return address;
}

Result<std::string> LoadClientToken(const std::string& token_file) {
  if (!token_file.empty()) return LoadTokenFile(token_file);
  if (const char* env = std::getenv("NASPERF_TOKEN"); env && *env) return std::string(env);
  return std::string();
}

Result<AgentConnection> AgentConnection::Connect(const AgentAddress& address, const std::string& token,
                                                 std::string_view role, milliseconds timeout) {
  const SteadyTime deadline = After(timeout);
  Result<ScopedFd> fd = ConnectTcp("agent", address.host, address.port, timeout);
  if (!fd.ok()) return fd.status();
  AgentConnection conn(std::move(fd).value(), address);

  Result<std::string> client_nonce = RandomHex(kNonceBytes);
  if (!client_nonce.ok()) return client_nonce.status();
  nlohmann::json hello = {{"role", role}, {"client_nonce", client_nonce.value()}, {"client", "nasperf " NASPERF_VERSION}};
  if (Status s = SendFrame(conn.fd(), MessageType::kHello, hello, deadline); !s.ok()) return s;
  auto remaining = [&] { return std::chrono::duration_cast<milliseconds>(deadline - std::chrono::steady_clock::now()); };
  Result<Frame> challenge = conn.Receive(remaining());
  if (!challenge.ok()) return challenge.status();
  if (challenge.value().type != MessageType::kChallenge)
    return Status::Io("agent " + address.text() + ": expected Challenge, got " + MessageTypeName(challenge.value().type));
  Result<AgentMessage> challenge_body = DecodeMessage(challenge.value());
  if (!challenge_body.ok()) return Status::Io("agent " + address.text() + ": " + challenge_body.status().message());
  const std::string& server_nonce_hex = std::get<ChallengeMsg>(challenge_body.value().body).server_nonce_hex;
  Result<std::string> server_nonce = HexToBytes(server_nonce_hex, kNonceBytes, "Challenge.server_nonce");
  if (!server_nonce.ok()) return Status::Io("agent " + address.text() + ": " + server_nonce.status().message());
  std::string client_nonce_bytes = HexToBytes(client_nonce.value(), kNonceBytes, "nonce").value();
  nlohmann::json auth = {{"mac", ClientMac(token, role, server_nonce.value(), client_nonce_bytes)}};
  if (Status s = SendFrame(conn.fd(), MessageType::kAuth, auth, deadline); !s.ok()) return s;
  Result<Frame> ok = conn.Receive(remaining());
  if (!ok.ok()) return ok.status();
  if (ok.value().type != MessageType::kAuthOk)
    return Status::Io("agent " + address.text() + ": expected AuthOk, got " + MessageTypeName(ok.value().type));
  Result<AgentMessage> ok_body = DecodeMessage(ok.value());
  if (!ok_body.ok()) return Status::Io("agent " + address.text() + ": " + ok_body.status().message());
  // The agent proves it knows the token too: an impostor cannot produce this MAC.
  if (!MacMatches(AgentMac(token, client_nonce_bytes, server_nonce.value()), std::get<AuthOkMsg>(ok_body.value().body).mac_hex))
    return Status::Io("agent " + address.text() + ": auth: the agent's proof does not match the token (impostor?)");
  return conn;
}

Status AgentConnection::Send(MessageType type, const nlohmann::json& payload) {
  return SendFrame(fd_.get(), type, payload, After(milliseconds(10000)));
}

Result<Frame> AgentConnection::Receive(milliseconds timeout) {
  ReadOutcome got = ReadFrame(fd_.get(), decoder_, After(timeout));
  if (got.end == ReadEnd::kTimeout)
    return Status::Io(fmt::format("agent {}: no answer within {:g} s", address_.text(), timeout.count() / 1000.0));
  if (got.end != ReadEnd::kFrame) return Status::Io("agent " + address_.text() + ": " + got.status.message());
  if (got.frame.type == MessageType::kError) return ErrorFrameStatus(address_, got.frame.payload);
  return std::move(got.frame);
}

Result<std::optional<Frame>> AgentConnection::TryReceive(milliseconds timeout) {
  ReadOutcome got = ReadFrame(fd_.get(), decoder_, After(timeout));
  if (got.end == ReadEnd::kTimeout) return std::optional<Frame>();
  if (got.end != ReadEnd::kFrame) return Status::Io("agent " + address_.text() + ": " + got.status.message());
  if (got.frame.type == MessageType::kError) return ErrorFrameStatus(address_, got.frame.payload);
  return std::optional<Frame>(std::move(got.frame));
}

Result<Frame> AgentConnection::Request(MessageType type, const nlohmann::json& payload, MessageType expected,
                                       milliseconds timeout) {
  if (Status s = Send(type, payload); !s.ok()) return Status::Io("agent " + address_.text() + ": " + s.message());
  Result<Frame> reply = Receive(timeout);
  if (!reply.ok()) return reply;
  if (reply.value().type != expected)
    return Status::Io(fmt::format("agent {}: expected {}, got {}", address_.text(), MessageTypeName(expected),
                                  MessageTypeName(reply.value().type)));
  return reply;
}

}  // namespace nasperf
