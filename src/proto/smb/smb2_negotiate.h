// One SMB2 NEGOTIATE exchange of our own, to learn what libsmbclient does not tell: the
// dialect, whether the server requires signing, and which cipher it would encrypt with.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "nasperf/status.h"

namespace nasperf {

// The dialects libsmbclient (Samba 4.17) offers by default, lowest first; the request
// offers exactly these, so the server picks what libsmbclient will get.
inline constexpr uint16_t kSmb2Dialects[] = {0x0202, 0x0210, 0x0300, 0x0302, 0x0311};

// What a server's NEGOTIATE response says.
struct Smb2NegotiateFacts {
  uint16_t dialect = 0;          // 0x0311 ...
  std::string dialect_name;      // "3.1.1", "3.0.2", "3.0", "2.1", "2.0.2"
  bool signing_enabled = false;  // the server's SecurityMode
  bool signing_required = false;
  // 3.1.1: the cipher of the response's encryption context ("AES-128-GCM" ...), empty when
  // the server chose none. 3.0 and 3.0.2 with the ENCRYPTION capability: "AES-128-CCM", the
  // only cipher those dialects have. Otherwise empty.
  std::string cipher;
  bool server_supports_encryption = false;  // 3.0/3.0.2: ENCRYPTION capability; 3.1.1: a cipher was chosen
  uint32_t capabilities = 0;                // SMB2_GLOBAL_CAP_* bits as sent
  uint32_t max_read_bytes = 0, max_write_bytes = 0, max_transact_bytes = 0;
};

// "2.0.2", "2.1", "3.0", "3.0.2", "3.1.1"; "0xNNNN" for anything else.
std::string Smb2DialectName(uint16_t dialect);

// One line for output: "SMB 3.1.1, signing not required, encryption AES-128-GCM".
std::string Smb2NegotiateSummary(const Smb2NegotiateFacts& facts);

// The whole request frame, with its 4-byte Direct-TCP transport header: an SMB2 header
// (MessageId 0) and a NEGOTIATE offering kSmb2Dialects with signing enabled (not required),
// and, for 3.1.1, a preauth integrity context (SHA-512, `salt`) and an encryption context
// (AES-128-GCM, AES-128-CCM, AES-256-GCM, AES-256-CCM), each 8-byte aligned.
std::vector<uint8_t> BuildSmb2NegotiateRequest(std::span<const uint8_t, 32> salt,
                                               std::span<const uint8_t, 16> client_guid);

// Parses `message`: one SMB2 message as it follows the 4-byte transport header (it starts
// with 0xFE 'S' 'M' 'B'; offsets in it count from there). `peer` ("HOST:PORT") names the
// server in messages. Anything malformed, a dialect not offered, or an NT status other than
// 0 is Io, one line: "smb: HOST:PORT sent a malformed NEGOTIATE response (why)".
// Never reads outside `message`.
Result<Smb2NegotiateFacts> ParseSmb2NegotiateResponse(std::span<const uint8_t> message,
                                                      std::string_view peer = "the server");

// Connects to host:port (port 0: 445), sends one NEGOTIATE, reads exactly one framed reply
// (at most 64 KiB), parses it and closes. The whole exchange — connect, send and reply —
// ends within `timeout_ms` (name resolution aside). No answer in time, refused,
// unreachable, or closed before answering: Unavailable naming HOST:PORT and the timeout in
// seconds. A bad reply: Io as in ParseSmb2NegotiateResponse. Thread-safe.
Result<Smb2NegotiateFacts> ProbeSmb2Negotiate(const std::string& host, uint16_t port, uint32_t timeout_ms);

}  // namespace nasperf
