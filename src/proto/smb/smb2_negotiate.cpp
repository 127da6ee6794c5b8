// SMB2 NEGOTIATE: the request (MS-SMB2 2.2.3), the response (2.2.4) and one probe over TCP.
#include "proto/smb/smb2_negotiate.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <memory>

#include <fmt/format.h>
#include <openssl/rand.h>

#include "base/scoped_fd.h"
#include "base/tcp_connect.h"

namespace nasperf {
namespace {

using Clock = std::chrono::steady_clock;

constexpr size_t kHeaderBytes = 64;           // SMB2 sync header
constexpr size_t kRequestFixedBytes = 36;     // NEGOTIATE request up to Dialects[]
constexpr size_t kResponseFixedBytes = 64;    // NEGOTIATE response up to Buffer
constexpr size_t kMaxReplyBytes = 64 * 1024;  // a NEGOTIATE reply is a few hundred bytes
constexpr uint16_t kCommandNegotiate = 0;
constexpr uint32_t kFlagServerToRedir = 0x1;
constexpr uint16_t kSigningEnabled = 0x1, kSigningRequired = 0x2;
constexpr uint32_t kCapDfs = 0x1, kCapLeasing = 0x2, kCapLargeMtu = 0x4, kCapEncryption = 0x40;
constexpr uint16_t kPreauthContext = 0x0001, kEncryptionContext = 0x0002;
constexpr uint16_t kHashSha512 = 0x0001;
constexpr uint16_t kDialect311 = 0x0311, kDialectWildcard = 0x02FF;
// Preference order, as libsmbclient's "client smb encrypt ciphers" default.
constexpr uint16_t kCiphers[] = {0x0002, 0x0001, 0x0004, 0x0003};

size_t AlignUp8(size_t n) { return (n + 7) & ~size_t{7}; }

void Put16(std::vector<uint8_t>& out, size_t at, uint16_t v) {
  out[at] = static_cast<uint8_t>(v);
  out[at + 1] = static_cast<uint8_t>(v >> 8);
}
void Put32(std::vector<uint8_t>& out, size_t at, uint32_t v) {
  for (int i = 0; i < 4; ++i) out[at + i] = static_cast<uint8_t>(v >> (8 * i));
}

// Little-endian reads; callers have checked the bounds.
uint16_t Get16(std::span<const uint8_t> in, size_t at) { return static_cast<uint16_t>(in[at] | (in[at + 1] << 8)); }
uint32_t Get32(std::span<const uint8_t> in, size_t at) { return Get16(in, at) | (uint32_t{Get16(in, at + 2)} << 16); }
uint64_t Get64(std::span<const uint8_t> in, size_t at) { return Get32(in, at) | (uint64_t{Get32(in, at + 4)} << 32); }

std::string CipherName(uint16_t cipher) {
  switch (cipher) {
    case 0x0001:
      return "AES-128-CCM";
    case 0x0002:
      return "AES-128-GCM";
    case 0x0003:
      return "AES-256-CCM";
    case 0x0004:
      return "AES-256-GCM";
    default:
      return fmt::format("0x{:04X}", cipher);
  }
}

std::string NtStatusName(uint32_t status) {
  switch (status) {
    case 0xC00000BB:
      return " (STATUS_NOT_SUPPORTED: no dialect in common)";
    case 0xC000000D:
      return " (STATUS_INVALID_PARAMETER)";
    case 0xC0000022:
      return " (STATUS_ACCESS_DENIED)";
    case 0xC00000CA:
      return " (STATUS_NETWORK_ACCESS_DENIED)";
    case 0xC0000205:
      return " (STATUS_INSUFF_SERVER_RESOURCES)";
    default:
      return "";
  }
}

// The one shape of every bad-reply error.
Status Malformed(std::string_view peer, std::string_view why) {
  return Status::Io(fmt::format("smb: {} sent a malformed NEGOTIATE response ({})", peer, why));
}

// The 3.1.1 negotiate context list; fills facts.cipher and server_supports_encryption.
Status ParseContexts(std::span<const uint8_t> msg, uint64_t offset, uint16_t count, std::string_view peer,
                     Smb2NegotiateFacts& facts) {
  if (count > 0 && offset < kHeaderBytes + kResponseFixedBytes)
    return Malformed(peer, fmt::format("negotiate contexts at offset {}, inside the fixed part", offset));
  bool saw_preauth = false, saw_encryption = false;
  uint64_t pos = offset;
  for (uint32_t i = 0; i < count; ++i) {
    if (i > 0) pos = AlignUp8(pos);
    if (pos + 8 > msg.size())
      return Malformed(peer, fmt::format("negotiate context {} of {} starts past the end", i + 1, count));
    const uint16_t type = Get16(msg, pos);
    const uint16_t length = Get16(msg, pos + 2);
    const size_t data = pos + 8;
    if (data + length > msg.size())
      return Malformed(peer, fmt::format("negotiate context {} of {} runs past the end", i + 1, count));
    if (type == kPreauthContext) {
      if (saw_preauth) return Malformed(peer, "two preauth integrity contexts");
      saw_preauth = true;
      if (length < 4) return Malformed(peer, "preauth integrity context too short");
      const uint16_t hashes = Get16(msg, data), salt_bytes = Get16(msg, data + 2);
      if (hashes != 1)
        return Malformed(peer, fmt::format("preauth integrity context with {} hash algorithms, not 1", hashes));
      if (4u + 2u * hashes + salt_bytes > length)
        return Malformed(peer, "preauth integrity context overruns its length");
      if (Get16(msg, data + 4) != kHashSha512)
        return Malformed(peer, fmt::format("preauth hash 0x{:04X} that was not offered", Get16(msg, data + 4)));
    } else if (type == kEncryptionContext) {
      if (saw_encryption) return Malformed(peer, "two encryption contexts");
      saw_encryption = true;
      if (length < 2) return Malformed(peer, "encryption context too short");
      const uint16_t ciphers = Get16(msg, data);
      if (ciphers != 1) return Malformed(peer, fmt::format("encryption context with {} ciphers, not 1", ciphers));
      if (length < 4) return Malformed(peer, "encryption context overruns its length");
      const uint16_t cipher = Get16(msg, data + 2);
      if (cipher != 0) {  // 0: no cipher in common
        if (std::find(std::begin(kCiphers), std::end(kCiphers), cipher) == std::end(kCiphers))
          return Malformed(peer, fmt::format("cipher 0x{:04X} that was not offered", cipher));
        facts.cipher = CipherName(cipher);
        facts.server_supports_encryption = true;
      }
    }
    // Other contexts (signing, compression, POSIX ...) answer nothing we asked: skipped.
    pos = data + length;
  }
  if (!saw_preauth) return Malformed(peer, "dialect 3.1.1 without a preauth integrity context");
  return Status::Ok();
}

}  // namespace

std::string Smb2DialectName(uint16_t dialect) {
  switch (dialect) {
    case 0x0202:
      return "2.0.2";
    case 0x0210:
      return "2.1";
    case 0x0300:
      return "3.0";
    case 0x0302:
      return "3.0.2";
    case 0x0311:
      return "3.1.1";
    default:
      return fmt::format("0x{:04X}", dialect);
  }
}

std::string Smb2NegotiateSummary(const Smb2NegotiateFacts& facts) {
  std::string text =
      "SMB " + facts.dialect_name + (facts.signing_required ? ", signing required" : ", signing not required");
  if (!facts.cipher.empty()) return text + ", encryption " + facts.cipher;
  return text + (facts.server_supports_encryption ? ", encryption supported" : ", no encryption");
}

std::vector<uint8_t> BuildSmb2NegotiateRequest(std::span<const uint8_t, 32> salt,
                                               std::span<const uint8_t, 16> client_guid) {
  constexpr size_t kDialectCount = std::size(kSmb2Dialects);
  constexpr size_t kCipherCount = std::size(kCiphers);
  // Offsets count from the SMB2 header; the transport header comes before it.
  const size_t dialects_at = kHeaderBytes + kRequestFixedBytes;
  const size_t preauth_at = AlignUp8(dialects_at + 2 * kDialectCount);
  const size_t preauth_data = 2 + 2 + 2 + salt.size();  // counts, one hash, salt
  const size_t encryption_at = AlignUp8(preauth_at + 8 + preauth_data);
  const size_t encryption_data = 2 + 2 * kCipherCount;
  const size_t message_bytes = encryption_at + 8 + encryption_data;  // no padding after the last

  std::vector<uint8_t> frame(4 + message_bytes, 0);
  frame[1] = static_cast<uint8_t>(message_bytes >> 16);  // frame[0] = 0: a session message
  frame[2] = static_cast<uint8_t>(message_bytes >> 8);
  frame[3] = static_cast<uint8_t>(message_bytes);
  const size_t h = 4;  // where the SMB2 header starts in `frame`

  frame[h + 0] = 0xFE, frame[h + 1] = 'S', frame[h + 2] = 'M', frame[h + 3] = 'B';
  Put16(frame, h + 4, kHeaderBytes);  // StructureSize
  Put16(frame, h + 12, kCommandNegotiate);
  Put16(frame, h + 14, 1);  // CreditRequest; MessageId, TreeId, SessionId stay 0

  const size_t b = h + kHeaderBytes;
  Put16(frame, b + 0, kRequestFixedBytes);  // StructureSize: 36 whatever follows
  Put16(frame, b + 2, kDialectCount);
  Put16(frame, b + 4, kSigningEnabled);
  Put32(frame, b + 8, kCapDfs | kCapLeasing | kCapLargeMtu | kCapEncryption);
  std::copy(client_guid.begin(), client_guid.end(), frame.begin() + b + 12);
  Put32(frame, b + 28, static_cast<uint32_t>(preauth_at));  // NegotiateContextOffset
  Put16(frame, b + 32, 2);                                  // NegotiateContextCount
  for (size_t i = 0; i < kDialectCount; ++i) Put16(frame, h + dialects_at + 2 * i, kSmb2Dialects[i]);

  const size_t p = h + preauth_at;
  Put16(frame, p + 0, kPreauthContext);
  Put16(frame, p + 2, preauth_data);
  Put16(frame, p + 8, 1);             // HashAlgorithmCount
  Put16(frame, p + 10, salt.size());  // SaltLength
  Put16(frame, p + 12, kHashSha512);
  std::copy(salt.begin(), salt.end(), frame.begin() + p + 14);

  const size_t e = h + encryption_at;
  Put16(frame, e + 0, kEncryptionContext);
  Put16(frame, e + 2, encryption_data);
  Put16(frame, e + 8, kCipherCount);
  for (size_t i = 0; i < kCipherCount; ++i) Put16(frame, e + 10 + 2 * i, kCiphers[i]);
  return frame;
}

Result<Smb2NegotiateFacts> ParseSmb2NegotiateResponse(std::span<const uint8_t> msg, std::string_view peer) {
  if (msg.size() < 4) return Malformed(peer, fmt::format("{} bytes, shorter than a protocol id", msg.size()));
  if (msg[0] == 0xFF && msg[1] == 'S' && msg[2] == 'M' && msg[3] == 'B')
    return Malformed(peer, "an SMB1 reply to an SMB2 request");
  if (msg[0] != 0xFE || msg[1] != 'S' || msg[2] != 'M' || msg[3] != 'B')
    return Malformed(
        peer, fmt::format("protocol id {:02X} {:02X} {:02X} {:02X}, not FE 'SMB'", msg[0], msg[1], msg[2], msg[3]));
  if (msg.size() < kHeaderBytes)
    return Malformed(peer, fmt::format("{} bytes, shorter than an SMB2 header", msg.size()));
  if (Get16(msg, 4) != kHeaderBytes)
    return Malformed(peer, fmt::format("header structure size {}, not 64", Get16(msg, 4)));
  const uint16_t command = Get16(msg, 12);
  const uint32_t flags = Get32(msg, 16);
  if (command != kCommandNegotiate)
    return Malformed(peer, fmt::format("not a NEGOTIATE response: command {}", command));
  if (!(flags & kFlagServerToRedir)) return Malformed(peer, "not a response: the server-to-client flag is clear");
  if (const uint32_t nt_status = Get32(msg, 8); nt_status != 0)
    return Status::Io(
        fmt::format("smb: {} refused NEGOTIATE with NT status 0x{:08X}{}", peer, nt_status, NtStatusName(nt_status)));
  if (const uint64_t id = Get64(msg, 24); id != 0) return Malformed(peer, fmt::format("message id {}, not 0", id));
  if (msg.size() < kHeaderBytes + kResponseFixedBytes)
    return Malformed(peer, fmt::format("{} bytes, too short for a NEGOTIATE response", msg.size()));

  const size_t b = kHeaderBytes;
  if (Get16(msg, b) != 65) return Malformed(peer, fmt::format("structure size {}, not 65", Get16(msg, b)));
  Smb2NegotiateFacts facts;
  facts.dialect = Get16(msg, b + 4);
  if (facts.dialect == kDialectWildcard) return Malformed(peer, "wildcard dialect 0x02FF, an answer to SMB1");
  if (std::find(std::begin(kSmb2Dialects), std::end(kSmb2Dialects), facts.dialect) == std::end(kSmb2Dialects))
    return Malformed(peer, fmt::format("dialect 0x{:04X} that was not offered", facts.dialect));
  facts.dialect_name = Smb2DialectName(facts.dialect);
  const uint16_t security_mode = Get16(msg, b + 2);
  facts.signing_enabled = security_mode & kSigningEnabled;
  facts.signing_required = security_mode & kSigningRequired;
  facts.capabilities = Get32(msg, b + 24);
  facts.max_transact_bytes = Get32(msg, b + 28);
  facts.max_read_bytes = Get32(msg, b + 32);
  facts.max_write_bytes = Get32(msg, b + 36);

  const uint16_t security_offset = Get16(msg, b + 56), security_bytes = Get16(msg, b + 58);
  if (security_bytes > 0) {
    if (security_offset < kHeaderBytes + kResponseFixedBytes)
      return Malformed(peer, fmt::format("security buffer at offset {}, inside the fixed part", security_offset));
    if (size_t{security_offset} + security_bytes > msg.size()) return Malformed(peer, "security buffer past the end");
  }

  if (facts.dialect == kDialect311) {
    Status contexts = ParseContexts(msg, Get32(msg, b + 60), Get16(msg, b + 6), peer, facts);
    if (!contexts.ok()) return contexts;
  } else if ((facts.dialect == 0x0300 || facts.dialect == 0x0302) && (facts.capabilities & kCapEncryption)) {
    facts.server_supports_encryption = true;
    facts.cipher = CipherName(0x0001);  // 3.0 and 3.0.2 encrypt with AES-128-CCM only
  }
  return facts;
}

// ---- The probe: one connection, one request, one reply.
namespace {

struct Probe {
  std::string where;    // HOST:PORT, IPv6 in brackets
  std::string timeout;  // "0.3 s"
  Clock::time_point deadline;

  Status Unreachable(std::string_view why) const {
    return Status::Unavailable(fmt::format("smb: {}: {} (timeout {})", where, why, timeout));
  }
  int MsLeft() const {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    return static_cast<int>(std::clamp<long long>(left, 0, 1 << 30));
  }
  // poll() for `events` until the deadline: >0 ready, 0 timed out, <0 error (errno set).
  int Wait(int fd, short events) const {
    while (true) {
      pollfd p{fd, events, 0};
      int n = ::poll(&p, 1, MsLeft());
      if (n < 0 && errno == EINTR) continue;
      return n;
    }
  }

  Status Send(int fd, std::span<const uint8_t> bytes) const {
    size_t sent = 0;
    while (sent < bytes.size()) {
      ssize_t n = ::send(fd, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL | MSG_DONTWAIT);
      if (n > 0) {
        sent += static_cast<size_t>(n);
        continue;
      }
      if (n < 0 && errno == EINTR) continue;
      if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
        return Unreachable(std::string("send: ") + std::strerror(errno));
      if (Wait(fd, POLLOUT) <= 0) return Unreachable("could not send NEGOTIATE");
    }
    return Status::Ok();
  }

  // Exactly out.size() bytes; `so_far` bytes of the reply came before them.
  Status Read(int fd, std::span<uint8_t> out, size_t so_far, size_t reply_bytes) const {
    size_t got = 0;
    while (got < out.size()) {
      ssize_t n = ::recv(fd, out.data() + got, out.size() - got, MSG_DONTWAIT);
      if (n > 0) {
        got += static_cast<size_t>(n);
        continue;
      }
      const int err = n < 0 ? errno : 0;
      if (n < 0 && err == EINTR) continue;
      if (n == 0 || (err != EAGAIN && err != EWOULDBLOCK)) {
        if (so_far + got > 0 && reply_bytes > 0)
          return Malformed(where, fmt::format("reply cut short: {} of {} bytes", so_far + got - 4, reply_bytes));
        if (so_far + got > 0) return Malformed(where, "reply cut short inside the transport header");
        return Unreachable(n == 0 ? "closed the connection without answering NEGOTIATE"
                                  : "no answer to NEGOTIATE: " + std::string(std::strerror(err)));
      }
      int w = Wait(fd, POLLIN);
      if (w == 0) {
        if (so_far + got == 0) return Unreachable("no answer to NEGOTIATE");
        return Unreachable(fmt::format("NEGOTIATE reply incomplete after {} bytes", so_far + got));
      }
      if (w < 0) return Unreachable(std::string("poll: ") + std::strerror(errno));
    }
    return Status::Ok();
  }
};

}  // namespace

Result<Smb2NegotiateFacts> ProbeSmb2Negotiate(const std::string& host, uint16_t port, uint32_t timeout_ms) {
  if (port == 0) port = 445;
  Probe probe;
  probe.where = HostPort(host, port);
  probe.timeout = fmt::format("{:g} s", timeout_ms / 1000.0);
  probe.deadline = Clock::now() + std::chrono::milliseconds(timeout_ms);

  std::array<uint8_t, 32> salt{};
  std::array<uint8_t, 16> guid{};
  if (RAND_bytes(salt.data(), salt.size()) != 1 || RAND_bytes(guid.data(), guid.size()) != 1)
    return Status::Unavailable("smb: OpenSSL RAND_bytes failed: no random salt for NEGOTIATE");
  const std::vector<uint8_t> request = BuildSmb2NegotiateRequest(salt, guid);

  Result<ScopedFd> fd = ConnectTcp("smb", host, port, std::chrono::milliseconds(timeout_ms));
  if (!fd.ok()) return fd.status();
  if (Status sent = probe.Send(fd.value().get(), request); !sent.ok()) return sent;

  std::array<uint8_t, 4> transport{};
  if (Status got = probe.Read(fd.value().get(), transport, 0, 0); !got.ok()) return got;
  if (transport[0] != 0)
    return Malformed(probe.where, fmt::format("transport header type 0x{:02X}, not 0", transport[0]));
  const size_t length = (size_t{transport[1]} << 16) | (size_t{transport[2]} << 8) | transport[3];
  if (length == 0) return Malformed(probe.where, "an empty reply");
  if (length > kMaxReplyBytes)
    return Malformed(probe.where, fmt::format("a reply of {} bytes, more than 64 KiB", length));
  std::vector<uint8_t> reply(length);
  if (Status got = probe.Read(fd.value().get(), reply, transport.size(), length); !got.ok()) return got;
  return ParseSmb2NegotiateResponse(reply, probe.where);
}

}  // namespace nasperf
