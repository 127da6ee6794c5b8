// HMAC-SHA256 challenge-response and token files (docs/agent-protocol.md, Authentication).
#include "wire/auth.h"

#include <arpa/inet.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>

#include <vector>

#include <fmt/format.h>

#include "base/secret_file.h"

namespace nasperf {
namespace {

std::string Hmac(std::string_view key, std::string_view message) {
  unsigned char out[EVP_MAX_MD_SIZE];
  unsigned int out_len = 0;
  // An empty key (insecure mode) needs a valid pointer all the same.
  static const unsigned char kEmpty = 0;
  const void* key_ptr = key.empty() ? static_cast<const void*>(&kEmpty) : key.data();
  HMAC(EVP_sha256(), key_ptr, static_cast<int>(key.size()), reinterpret_cast<const unsigned char*>(message.data()),
       message.size(), out, &out_len);
  return BytesToHex(std::string_view(reinterpret_cast<const char*>(out), out_len));
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
  if (RAND_bytes(buf.data(), static_cast<int>(bytes)) != 1)
    return Status::Unavailable("OpenSSL RAND_bytes failed: no random nonce");
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
  return CRYPTO_memcmp(expected_hex.data(), received_hex.data(), expected_hex.size()) == 0;
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
