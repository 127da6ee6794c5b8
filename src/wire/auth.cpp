// HMAC-SHA256 challenge-response and token files (docs/agent-protocol.md, Authentication).
#include "wire/auth.h"

#include <arpa/inet.h>
#include <nettle/hmac.h>
#include <nettle/memops.h>
#include <sys/random.h>

#include <cerrno>
#include <vector>

#include <fmt/format.h>

#include "base/secret_file.h"

namespace nasperf {
namespace {

// Nettle's HMAC rather than OpenSSL's: the same HMAC-SHA256, from a library a tenth of
// libcrypto's size, which every nasperf process would otherwise map (docs/architecture.md,
// the lean start).
std::string Hmac(std::string_view key, std::string_view message) {
  // An empty key (insecure mode) needs a valid pointer all the same.
  static const uint8_t kEmpty = 0;
  const uint8_t* key_ptr = key.empty() ? &kEmpty : reinterpret_cast<const uint8_t*>(key.data());
  hmac_sha256_ctx ctx;
  hmac_sha256_set_key(&ctx, key.size(), key_ptr);
  if (!message.empty()) hmac_sha256_update(&ctx, message.size(), reinterpret_cast<const uint8_t*>(message.data()));
  uint8_t out[SHA256_DIGEST_SIZE];
  hmac_sha256_digest(&ctx, SHA256_DIGEST_SIZE, out);
  return BytesToHex(std::string_view(reinterpret_cast<const char*>(out), sizeof out));
}

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

Result<std::string> RandomHex(size_t bytes) {
  std::vector<unsigned char> buf(bytes);
  // The kernel's CSPRNG; getrandom returns at most 32 MiB a call and may be interrupted.
  for (size_t done = 0; done < bytes;) {
    ssize_t got = ::getrandom(buf.data() + done, bytes - done, 0);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return ErrnoStatus("getrandom", "", errno, ErrorKind::kUnavailable);
    done += static_cast<size_t>(got);
  }
  return BytesToHex(std::string_view(reinterpret_cast<const char*>(buf.data()), bytes));
}

std::string BytesToHex(std::string_view bytes) {
  static const char kDigits[] = "0123456789abcdef";
  std::string hex;
  hex.reserve(bytes.size() * 2);
  for (unsigned char c : bytes) {
    hex += kDigits[c >> 4];
    hex += kDigits[c & 15];
  }
  return hex;
}

Result<std::string> HexToBytes(std::string_view hex, size_t bytes, std::string_view what) {
  if (hex.size() != bytes * 2)
    return Status::BadInput(fmt::format("{}: expected {} hex digits, got {} characters", what, bytes * 2, hex.size()));
  std::string out(bytes, '\0');
  for (size_t i = 0; i < bytes; ++i) {
    int hi = HexValue(hex[2 * i]), lo = HexValue(hex[2 * i + 1]);
    if (hi < 0 || lo < 0) return Status::BadInput(fmt::format("{}: not hexadecimal", what));
    out[i] = static_cast<char>(hi << 4 | lo);
  }
  return out;
}

std::string ClientMac(std::string_view token, std::string_view role, std::string_view server_nonce,
                      std::string_view client_nonce) {
  std::string message = "nasperf-auth-v1\n";
  message.append(role).append("\n").append(server_nonce).append(client_nonce);
  return Hmac(token, message);
}

std::string AgentMac(std::string_view token, std::string_view client_nonce, std::string_view server_nonce) {
  std::string message = "nasperf-agent-v1\n";
  message.append(client_nonce).append(server_nonce);
  return Hmac(token, message);
}

bool MacMatches(std::string_view expected_hex, std::string_view received_hex) {
  if (expected_hex.size() != received_hex.size()) return false;
  // In constant time: how much of a guess matched must not show in how long this takes.
  return memeql_sec(expected_hex.data(), received_hex.data(), expected_hex.size()) != 0;
}

Result<std::string> LoadTokenFile(const std::string& path) {
  Result<std::string> token = ReadSecretFile(path, "token file");
  if (!token.ok()) return token;
  if (token.value().size() < kMinTokenBytes)
    return Status::BadInput(
        fmt::format("token file {} holds {} bytes, at least {} are needed", path, token.value().size(), kMinTokenBytes));
  return token;
}

bool IsLoopbackHost(const std::string& host) {
  if (host == "localhost") return true;
  in_addr v4{};
  if (::inet_pton(AF_INET, host.c_str(), &v4) == 1) return (ntohl(v4.s_addr) >> 24) == 127;
  in6_addr v6{};
  if (::inet_pton(AF_INET6, host.c_str(), &v6) == 1) return IN6_IS_ADDR_LOOPBACK(&v6);
  return false;
}

}  // namespace nasperf
