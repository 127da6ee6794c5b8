// Authentication of docs/agent-protocol.md: nonces, the two HMAC-SHA256 proofs, constant
// time comparison, and loading a token file safely. Pure functions; thread-safe.
#pragma once

#include <string>
#include <string_view>

#include "nasperf/status.h"

namespace nasperf {

inline constexpr size_t kNonceBytes = 32;
inline constexpr size_t kSessionBytes = 16;
inline constexpr size_t kMinTokenBytes = 16;

// `bytes` random bytes (OpenSSL RAND_bytes) as lower-case hex. Unavailable if RAND fails.
Result<std::string> RandomHex(size_t bytes);
// Hex text to bytes; BadInput unless it is exactly `bytes` bytes of hex.
Result<std::string> HexToBytes(std::string_view hex, size_t bytes, std::string_view what);
std::string BytesToHex(std::string_view bytes);

// The client's proof: HMAC-SHA256(token, "nasperf-auth-v1\n" role "\n" server_nonce client_nonce),
// nonces as raw bytes; returned as 64 hex digits.
std::string ClientMac(std::string_view token, std::string_view role, std::string_view server_nonce,
                      std::string_view client_nonce);
// The agent's proof: HMAC-SHA256(token, "nasperf-agent-v1\n" client_nonce server_nonce).
std::string AgentMac(std::string_view token, std::string_view client_nonce, std::string_view server_nonce);
// Constant-time comparison (CRYPTO_memcmp) of an expected MAC with a received hex text of
// any length: a wrong length is simply a mismatch.
bool MacMatches(std::string_view expected_hex, std::string_view received_hex);

// A token file: refused (BadInput, one line naming the file) when missing, readable or
// writable by group or others, or shorter than kMinTokenBytes after removing one trailing
// newline. Returns the token.
Result<std::string> LoadTokenFile(const std::string& path);

// Whether `host` (a literal address, or "localhost") is a loopback address.
bool IsLoopbackHost(const std::string& host);

}  // namespace nasperf
