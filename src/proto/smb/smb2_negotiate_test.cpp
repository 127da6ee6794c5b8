// SMB2 NEGOTIATE: request bytes, hand-built responses (good and malformed), a fake server on
// loopback, and — when smbd is installed — a real Samba on a private config.
#include "proto/smb/smb2_negotiate.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <thread>

#include <gtest/gtest.h>

#include "base/scoped_fd.h"
#include "testing/test_support.h"

extern char** environ;

namespace nasperf {
namespace {

using Bytes = std::vector<uint8_t>;

uint16_t Le16(const Bytes& b, size_t at) { return static_cast<uint16_t>(b[at] | (b[at + 1] << 8)); }
uint32_t Le32(const Bytes& b, size_t at) { return Le16(b, at) | (uint32_t{Le16(b, at + 2)} << 16); }
void Set16(Bytes& b, size_t at, uint16_t v) {
  b[at] = static_cast<uint8_t>(v);
  b[at + 1] = static_cast<uint8_t>(v >> 8);
}
void Set32(Bytes& b, size_t at, uint32_t v) {
  Set16(b, at, static_cast<uint16_t>(v));
  Set16(b, at + 2, static_cast<uint16_t>(v >> 16));
}
void Append16(Bytes& b, uint16_t v) {
  b.push_back(static_cast<uint8_t>(v));
  b.push_back(static_cast<uint8_t>(v >> 8));
}

struct Context {
  uint16_t type;
  Bytes data;
};
Context Preauth() {
  Bytes d;
  Append16(d, 1);   // one hash
  Append16(d, 32);  // salt bytes
  Append16(d, 0x0001);
  d.resize(d.size() + 32, 0xAB);
  return {1, d};
}
Context Encryption(uint16_t cipher) {
  Bytes d;
  Append16(d, 1);
  Append16(d, cipher);
  return {2, d};
}

// A NEGOTIATE response as a server would send it (without the transport header).
struct Response {
  uint16_t dialect = 0x0311;
  uint16_t security_mode = 0x1;
  uint32_t capabilities = 0x7;
  uint32_t nt_status = 0;
  uint16_t command = 0;
  uint32_t flags = 0x1;
  uint16_t structure_size = 65;
  size_t security_bytes = 74;  // a SPNEGO blob's worth
  std::vector<Context> contexts;

  Bytes Build() const {
    Bytes m(128, 0);
    m[0] = 0xFE, m[1] = 'S', m[2] = 'M', m[3] = 'B';
    Set16(m, 4, 64);
    Set32(m, 8, nt_status);
    Set16(m, 12, command);
    Set16(m, 14, 1);
    Set32(m, 16, flags);
    Set16(m, 64, structure_size);
    Set16(m, 66, security_mode);
    Set16(m, 68, dialect);
    Set16(m, 70, static_cast<uint16_t>(contexts.size()));
    Set32(m, 88, capabilities);
    Set32(m, 92, 8 << 20);
    Set32(m, 96, 4 << 20);
    Set32(m, 100, 2 << 20);
    Set16(m, 120, 128);
    Set16(m, 122, static_cast<uint16_t>(security_bytes));
    m.resize(128 + security_bytes, 0x60);
    if (!contexts.empty()) {
      m.resize((m.size() + 7) & ~size_t{7}, 0);
      Set32(m, 124, static_cast<uint32_t>(m.size()));
      for (size_t i = 0; i < contexts.size(); ++i) {
        if (i > 0) m.resize((m.size() + 7) & ~size_t{7}, 0);
        Append16(m, contexts[i].type);
        Append16(m, static_cast<uint16_t>(contexts[i].data.size()));
        m.resize(m.size() + 4, 0);
        m.insert(m.end(), contexts[i].data.begin(), contexts[i].data.end());
      }
    }
    return m;
  }
};

Response Smb311() {
  Response r;
  r.contexts = {Preauth(), Encryption(0x0002)};
  return r;
}

Result<Smb2NegotiateFacts> Parse(const Bytes& m) { return ParseSmb2NegotiateResponse(m, "nas:445"); }

// The error must be Io, one line, and contain `words`.
void ExpectMalformed(const Bytes& m, const std::string& words) {
  Result<Smb2NegotiateFacts> r = Parse(m);
  ASSERT_FALSE(r.ok()) << "accepted; expected: " << words;
  EXPECT_EQ(r.status().kind(), ErrorKind::kIo);
  EXPECT_NE(r.status().message().find(words), std::string::npos) << r.status().message();
  EXPECT_EQ(r.status().message().rfind("smb: nas:445 ", 0), 0u) << r.status().message();
  EXPECT_EQ(r.status().message().find('\n'), std::string::npos);
}

// ---- The request

TEST(Smb2Negotiate, RequestHasFramingDialectsAndAlignedContexts) {
  std::array<uint8_t, 32> salt;
  std::array<uint8_t, 16> guid;
  for (int i = 0; i < 32; ++i) salt[i] = static_cast<uint8_t>(0xA0 + i);
  for (int i = 0; i < 16; ++i) guid[i] = static_cast<uint8_t>(0x10 + i);
  const Bytes f = BuildSmb2NegotiateRequest(salt, guid);
  ASSERT_GE(f.size(), 4u + 64 + 36);
  // Direct-TCP transport header: 0x00 and a 24-bit big-endian length of the rest.
  EXPECT_EQ(f[0], 0);
  EXPECT_EQ((size_t{f[1]} << 16 | size_t{f[2]} << 8 | f[3]), f.size() - 4);
  const Bytes m(f.begin() + 4, f.end());
  EXPECT_EQ(Bytes(m.begin(), m.begin() + 4), (Bytes{0xFE, 'S', 'M', 'B'}));
  EXPECT_EQ(Le16(m, 4), 64);                 // header StructureSize
  EXPECT_EQ(Le16(m, 12), 0);                 // NEGOTIATE
  EXPECT_GE(Le16(m, 14), 1);                 // CreditRequest
  EXPECT_EQ(Le32(m, 16), 0u);                // a request
  EXPECT_EQ(Le32(m, 24) | Le32(m, 28), 0u);  // MessageId 0
  EXPECT_EQ(Le16(m, 64), 36);                // body StructureSize
  ASSERT_EQ(Le16(m, 66), 5);                 // DialectCount
  EXPECT_EQ(Le16(m, 68), 0x1);               // signing enabled, not required
  EXPECT_EQ(Le32(m, 72) & 0x40u, 0x40u);     // ENCRYPTION capability
  EXPECT_EQ(Bytes(m.begin() + 76, m.begin() + 92), Bytes(guid.begin(), guid.end()));
  std::vector<uint16_t> dialects;
  for (int i = 0; i < 5; ++i) dialects.push_back(Le16(m, 100 + 2 * i));
  EXPECT_EQ(dialects, (std::vector<uint16_t>{0x0202, 0x0210, 0x0300, 0x0302, 0x0311}));

  // Negotiate contexts: 8-byte aligned from the SMB2 header, inside the message.
  const uint32_t offset = Le32(m, 92);
  ASSERT_EQ(Le16(m, 96), 2);  // NegotiateContextCount
  EXPECT_EQ(offset % 8, 0u);
  EXPECT_GE(offset, 110u);  // after the dialects
  size_t pos = offset;
  std::vector<uint16_t> types;
  for (int i = 0; i < 2; ++i) {
    pos = (pos + 7) & ~size_t{7};
    ASSERT_LE(pos + 8, m.size());
    const uint16_t type = Le16(m, pos), length = Le16(m, pos + 2);
    ASSERT_LE(pos + 8 + length, m.size());
    types.push_back(type);
    if (type == 1) {
      EXPECT_EQ(Le16(m, pos + 8), 1);        // one hash algorithm
      EXPECT_EQ(Le16(m, pos + 10), 32);      // salt bytes
      EXPECT_EQ(Le16(m, pos + 12), 0x0001);  // SHA-512
      EXPECT_EQ(Bytes(m.begin() + pos + 14, m.begin() + pos + 46), Bytes(salt.begin(), salt.end()));
      EXPECT_EQ(length, 38);
    } else if (type == 2) {
      const uint16_t count = Le16(m, pos + 8);
      ASSERT_GE(count, 2);
      EXPECT_EQ(length, 2 + 2 * count);
      std::vector<uint16_t> ciphers;
      for (int c = 0; c < count; ++c) ciphers.push_back(Le16(m, pos + 10 + 2 * c));
      EXPECT_EQ(ciphers.front(), 0x0002);                                           // AES-128-GCM preferred
      EXPECT_NE(std::find(ciphers.begin(), ciphers.end(), 0x0001), ciphers.end());  // AES-128-CCM
    }
    pos += 8 + length;
  }
  EXPECT_EQ(types, (std::vector<uint16_t>{1, 2}));
  EXPECT_EQ(pos, m.size());  // nothing after the last context
}

// ---- Good responses

TEST(Smb2Negotiate, Parses311WithPreauthAndEncryptionContexts) {
  Result<Smb2NegotiateFacts> r = Parse(Smb311().Build());
  ASSERT_TRUE(r.ok()) << r.status().message();
  const Smb2NegotiateFacts& f = r.value();
  EXPECT_EQ(f.dialect, 0x0311);
  EXPECT_EQ(f.dialect_name, "3.1.1");
  EXPECT_TRUE(f.signing_enabled);
  EXPECT_FALSE(f.signing_required);
  EXPECT_EQ(f.cipher, "AES-128-GCM");
  EXPECT_TRUE(f.server_supports_encryption);
  EXPECT_EQ(f.max_transact_bytes, 8u << 20);
  EXPECT_EQ(f.max_read_bytes, 4u << 20);
  EXPECT_EQ(f.max_write_bytes, 2u << 20);
  EXPECT_EQ(Smb2NegotiateSummary(f), "SMB 3.1.1, signing not required, encryption AES-128-GCM");
}

TEST(Smb2Negotiate, Parses311WithNoCommonCipherAndUnknownContexts) {
  Response r = Smb311();
  r.contexts = {Context{8, {1, 0, 2, 0}}, Preauth(), Encryption(0), Context{0x100, Bytes(16, 0)}};
  Result<Smb2NegotiateFacts> f = Parse(r.Build());
  ASSERT_TRUE(f.ok()) << f.status().message();
  EXPECT_EQ(f.value().cipher, "");
  EXPECT_FALSE(f.value().server_supports_encryption);
}

TEST(Smb2Negotiate, Parses302WithEncryptionCapability) {
  Response r;
  r.dialect = 0x0302;
  r.capabilities = 0x40 | 0x4;
  Result<Smb2NegotiateFacts> f = Parse(r.Build());
  ASSERT_TRUE(f.ok()) << f.status().message();
  EXPECT_EQ(f.value().dialect_name, "3.0.2");
  EXPECT_TRUE(f.value().server_supports_encryption);
  EXPECT_EQ(f.value().cipher, "AES-128-CCM");
}

TEST(Smb2Negotiate, Parses21WithSigningRequired) {
  Response r;
  r.dialect = 0x0210;
  r.security_mode = 0x3;
  r.capabilities = 0x40;  // meaningless before 3.0
  Result<Smb2NegotiateFacts> f = Parse(r.Build());
  ASSERT_TRUE(f.ok()) << f.status().message();
  EXPECT_EQ(f.value().dialect_name, "2.1");
  EXPECT_TRUE(f.value().signing_required);
  EXPECT_FALSE(f.value().server_supports_encryption);
  EXPECT_EQ(f.value().cipher, "");
  EXPECT_EQ(Smb2NegotiateSummary(f.value()), "SMB 2.1, signing required, no encryption");
}

// ---- Malformed responses: one line each, never out of bounds

TEST(Smb2Negotiate, RejectsShortAndForeignFrames) {
  ExpectMalformed({}, "shorter than a protocol id");
  Bytes m = Smb311().Build();
  ExpectMalformed(Bytes(m.begin(), m.begin() + 40), "shorter than an SMB2 header");
  ExpectMalformed(Bytes(m.begin(), m.begin() + 100), "too short for a NEGOTIATE response");
  Bytes smb1 = m;
  smb1[0] = 0xFF;
  ExpectMalformed(smb1, "SMB1");
  Bytes other = m;
  other[1] = 'X';
  ExpectMalformed(other, "protocol id");
}

TEST(Smb2Negotiate, RejectsWrongCommandRequestAndStructureSize) {
  Response r = Smb311();
  r.command = 1;
  ExpectMalformed(r.Build(), "not a NEGOTIATE response");
  r = Smb311();
  r.flags = 0;  // our own request echoed back
  ExpectMalformed(r.Build(), "not a response");
  r = Smb311();
  r.structure_size = 9;
  ExpectMalformed(r.Build(), "structure size 9, not 65");
}

TEST(Smb2Negotiate, ShowsNtStatusInHex) {
  Response r;
  r.nt_status = 0xC00000BB;
  r.structure_size = 9;  // an error response body
  Result<Smb2NegotiateFacts> f = Parse(r.Build());
  ASSERT_FALSE(f.ok());
  EXPECT_EQ(f.status().kind(), ErrorKind::kIo);
  EXPECT_NE(f.status().message().find("NT status 0xC00000BB"), std::string::npos) << f.status().message();
}

TEST(Smb2Negotiate, RejectsDialectsNotOffered) {
  Response r;
  r.dialect = 0x02FF;
  ExpectMalformed(r.Build(), "wildcard dialect 0x02FF");
  r.dialect = 0x0300 + 0x20;
  ExpectMalformed(r.Build(), "dialect 0x0320 that was not offered");
}

TEST(Smb2Negotiate, RejectsSecurityBufferOutside) {
  Bytes m = Smb311().Build();
  Set16(m, 122, 0xFFFF);
  ExpectMalformed(m, "security buffer past the end");
  m = Smb311().Build();
  Set16(m, 120, 64);
  ExpectMalformed(m, "inside the fixed part");
}

TEST(Smb2Negotiate, RejectsContextListOverrunning) {
  Bytes m = Smb311().Build();
  Set32(m, 124, static_cast<uint32_t>(m.size()) + 8);  // first context past the end
  ExpectMalformed(m, "negotiate context 1 of 2 starts past the end");
  m = Smb311().Build();
  Set32(m, 124, 0xFFFFFFF8u);  // no wrap-around
  ExpectMalformed(m, "past the end");
  m = Smb311().Build();
  Set32(m, 124, 0);
  ExpectMalformed(m, "negotiate contexts at offset 0, inside the fixed part");
  m = Smb311().Build();
  Set16(m, 70, 3);  // one more context than there is
  ExpectMalformed(m, "negotiate context 3 of 3 starts past the end");
  m = Smb311().Build();
  Set16(m, m.size() - 10, 200);  // the last context's DataLength
  ExpectMalformed(m, "negotiate context 2 of 2 runs past the end");
}

TEST(Smb2Negotiate, RejectsBadContextContents) {
  Response r = Smb311();
  r.contexts = {Encryption(0x0002)};
  ExpectMalformed(r.Build(), "without a preauth integrity context");
  r.contexts = {Preauth(), Encryption(0x0009)};
  ExpectMalformed(r.Build(), "cipher 0x0009 that was not offered");
  Context two = Encryption(0x0002);
  two.data[0] = 2;
  r.contexts = {Preauth(), two};
  ExpectMalformed(r.Build(), "2 ciphers");
  Context salty = Preauth();
  salty.data[2] = 200;  // salt longer than the context
  r.contexts = {salty};
  ExpectMalformed(r.Build(), "overruns its length");
  r.contexts = {Preauth(), Preauth()};
  ExpectMalformed(r.Build(), "two preauth");
}

// Every truncation and many single-byte changes: an answer, never a crash (ASan/UBSan).
TEST(Smb2Negotiate, SurvivesEveryTruncationAndByteFlip) {
  const Bytes m = Smb311().Build();
  for (size_t n = 0; n < m.size(); ++n) EXPECT_FALSE(Parse(Bytes(m.begin(), m.begin() + n)).ok()) << n;
  for (size_t i = 0; i < m.size(); ++i) {
    for (uint8_t v : {0x00, 0x07, 0x80, 0xFF}) {
      Bytes changed = m;
      changed[i] = v;
      Result<Smb2NegotiateFacts> r = Parse(changed);
      if (!r.ok()) {
        EXPECT_EQ(r.status().message().find('\n'), std::string::npos);
      }
    }
  }
}

// ---- Over TCP on 127.0.0.1

// A one-connection server on an ephemeral loopback port: reads one request frame, then
// sends `reply` verbatim (unless `answer` is false) and waits for the client to close.
class FakeServer {
 public:
  FakeServer(Bytes reply, bool answer) : reply_(std::move(reply)), answer_(answer) {
    listener_ = ScopedFd(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof addr;
    EXPECT_EQ(::bind(listener_.get(), reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
    EXPECT_EQ(::listen(listener_.get(), 1), 0);
    EXPECT_EQ(::getsockname(listener_.get(), reinterpret_cast<sockaddr*>(&addr), &len), 0);
    port_ = ntohs(addr.sin_port);
    thread_ = std::thread([this] { Serve(); });
  }
  ~FakeServer() { Finish(); }
  uint16_t port() const { return port_; }
  // Waits for the serving thread (which ends once the client closed) and gives what it read.
  Bytes Finish() {
    if (thread_.joinable()) thread_.join();
    return request_;
  }

 private:
  // Every wait is bounded: the thread ends within ~5 s whatever the client does.
  bool ReadSome(int fd, Bytes& into) {
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, 5000) <= 0) return false;
    uint8_t buf[4096];
    ssize_t n = ::recv(fd, buf, sizeof buf, 0);
    if (n <= 0) return false;
    into.insert(into.end(), buf, buf + n);
    return true;
  }
  void Serve() {
    pollfd p{listener_.get(), POLLIN, 0};
    if (::poll(&p, 1, 5000) <= 0) return;
    ScopedFd conn(::accept4(listener_.get(), nullptr, nullptr, SOCK_CLOEXEC));
    if (!conn.valid()) return;
    while (request_.size() < 4 || request_.size() < 4 + (size_t{request_[1]} << 16 | request_[2] << 8 | request_[3]))
      if (!ReadSome(conn.get(), request_)) return;
    if (answer_) ::send(conn.get(), reply_.data(), reply_.size(), MSG_NOSIGNAL);
    Bytes rest;
    while (ReadSome(conn.get(), rest)) {
    }
  }
  Bytes reply_;
  bool answer_;
  ScopedFd listener_;
  uint16_t port_ = 0;
  Bytes request_;
  std::thread thread_;
};

Bytes Framed(const Bytes& m, size_t claimed) {
  Bytes f(4 + m.size(), 0);
  f[1] = static_cast<uint8_t>(claimed >> 16);
  f[2] = static_cast<uint8_t>(claimed >> 8);
  f[3] = static_cast<uint8_t>(claimed);
  std::copy(m.begin(), m.end(), f.begin() + 4);
  return f;
}
Bytes Framed(const Bytes& m) { return Framed(m, m.size()); }

TEST(Smb2NegotiateProbe, ReturnsTheFactsOfACannedReply) {
  FakeServer server(Framed(Smb311().Build()), true);
  Result<Smb2NegotiateFacts> f = ProbeSmb2Negotiate("127.0.0.1", server.port(), 3000);
  ASSERT_TRUE(f.ok()) << f.status().message();
  EXPECT_EQ(f.value().dialect_name, "3.1.1");
  EXPECT_EQ(f.value().cipher, "AES-128-GCM");
  EXPECT_TRUE(f.value().server_supports_encryption);
  EXPECT_FALSE(f.value().signing_required);
  const Bytes request = server.Finish();
  ASSERT_GT(request.size(), 4u + 64);
  EXPECT_EQ(Le16(request, 4 + 12), 0);      // NEGOTIATE
  EXPECT_EQ(Le16(request, 4 + 64 + 2), 5);  // five dialects
}

TEST(Smb2NegotiateProbe, TimesOutWhenTheServerNeverAnswers) {
  FakeServer server({}, false);
  const auto start = std::chrono::steady_clock::now();
  Result<Smb2NegotiateFacts> f = ProbeSmb2Negotiate("127.0.0.1", server.port(), 300);
  const auto took = std::chrono::steady_clock::now() - start;
  ASSERT_FALSE(f.ok());
  EXPECT_EQ(f.status().kind(), ErrorKind::kUnavailable);
  EXPECT_NE(f.status().message().find("127.0.0.1:" + std::to_string(server.port())), std::string::npos);
  EXPECT_NE(f.status().message().find("no answer to NEGOTIATE"), std::string::npos) << f.status().message();
  EXPECT_NE(f.status().message().find("0.3 s"), std::string::npos) << f.status().message();
  EXPECT_GE(took, std::chrono::milliseconds(250));
  EXPECT_LT(took, std::chrono::milliseconds(2000));
}

TEST(Smb2NegotiateProbe, ClosedPortIsUnreachable) {
  // Bound but not listening: connecting is refused, and no one else can take the port meanwhile.
  ScopedFd holder(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof addr;
  ASSERT_EQ(::bind(holder.get(), reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
  ASSERT_EQ(::getsockname(holder.get(), reinterpret_cast<sockaddr*>(&addr), &len), 0);
  const uint16_t port = ntohs(addr.sin_port);
  Result<Smb2NegotiateFacts> f = ProbeSmb2Negotiate("127.0.0.1", port, 1000);
  ASSERT_FALSE(f.ok());
  EXPECT_EQ(f.status().kind(), ErrorKind::kUnavailable);
  EXPECT_EQ(f.status().message(), "smb 127.0.0.1:" + std::to_string(port) + ": Connection refused (connect timeout 1 s)");
}

TEST(Smb2NegotiateProbe, RejectsOversizedTruncatedAndNonSessionReplies) {
  {
    FakeServer server(Framed({}, 0x010001), true);
    Result<Smb2NegotiateFacts> f = ProbeSmb2Negotiate("127.0.0.1", server.port(), 3000);
    ASSERT_FALSE(f.ok());
    EXPECT_EQ(f.status().kind(), ErrorKind::kIo);
    EXPECT_NE(f.status().message().find("more than 64 KiB"), std::string::npos) << f.status().message();
  }
  {
    Bytes m = Smb311().Build();
    FakeServer server(Framed(Bytes(m.begin(), m.begin() + 100), m.size()), true);
    // The server keeps the connection open: the missing bytes never come.
    Result<Smb2NegotiateFacts> f = ProbeSmb2Negotiate("127.0.0.1", server.port(), 300);
    ASSERT_FALSE(f.ok());
    EXPECT_NE(f.status().message().find("incomplete after 104 bytes"), std::string::npos) << f.status().message();
  }
  {
    Bytes f85 = Framed(Smb311().Build());
    f85[0] = 0x85;
    FakeServer server(f85, true);
    Result<Smb2NegotiateFacts> f = ProbeSmb2Negotiate("127.0.0.1", server.port(), 3000);
    ASSERT_FALSE(f.ok());
    EXPECT_NE(f.status().message().find("transport header type 0x85"), std::string::npos) << f.status().message();
  }
}

// ---- A real Samba on 127.0.0.1, private config and state, its own port

uint16_t FreeLoopbackPort() {
  ScopedFd s(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof addr;
  if (::bind(s.get(), reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) return 0;
  if (::getsockname(s.get(), reinterpret_cast<sockaddr*>(&addr), &len) != 0) return 0;
  return ntohs(addr.sin_port);
}

bool Listening(uint16_t port) {
  ScopedFd s(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = htons(port);
  return ::connect(s.get(), reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0;
}

// smbd in the foreground under `dir`; stopped by its PID when the object dies.
class PrivateSmbd {
 public:
  PrivateSmbd(const std::string& dir, uint16_t port) : out_(dir + "/smbd.out") {
    const std::string conf = dir + "/smb.conf";
    for (const char* sub : {"lock", "state", "cache", "private", "pid", "ncalrpc", "binddns", "log", "share"})
      std::filesystem::create_directories(dir + "/" + sub);
    std::ofstream(conf) << "[global]\n"
                        << "server role = standalone server\n"
                        << "disable netbios = yes\n"
                        << "smb ports = " << port << "\n"
                        << "interfaces = 127.0.0.1/8\n"
                        << "bind interfaces only = yes\n"
                        << "lock directory = " << dir << "/lock\n"
                        << "state directory = " << dir << "/state\n"
                        << "cache directory = " << dir << "/cache\n"
                        << "private dir = " << dir << "/private\n"
                        << "pid directory = " << dir << "/pid\n"
                        << "ncalrpc dir = " << dir << "/ncalrpc\n"
                        << "binddns dir = " << dir << "/binddns\n"
                        << "log file = " << dir << "/log/log.%m\n"
                        << "passdb backend = tdbsam:" << dir << "/private/passdb.tdb\n"
                        << "load printers = no\nprinting = bsd\nprintcap name = /dev/null\ndisable spoolss = yes\n"
                        << "[bench]\npath = " << dir << "/share\nread only = yes\nguest ok = yes\n";
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, out_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&actions, 1, 2);
    std::vector<std::string> args = {"/usr/sbin/smbd", "--foreground", "--no-process-group",
                                     "--debug-stdout", "-s",           conf};
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    // Its own process group: smbd started with --no-process-group signals its whole group
    // when it stops, which would otherwise be this test and whatever runs it.
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
    posix_spawnattr_setpgroup(&attr, 0);
    if (posix_spawn(&pid_, argv[0], &actions, &attr, argv.data(), environ) != 0) pid_ = -1;
    posix_spawnattr_destroy(&attr);
    posix_spawn_file_actions_destroy(&actions);
  }
  ~PrivateSmbd() {
    if (pid_ <= 0) return;
    ::kill(pid_, SIGTERM);
    for (int i = 0; i < 100; ++i) {
      if (::waitpid(pid_, nullptr, WNOHANG) == pid_) return;
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, nullptr, 0);
  }
  bool Running() {
    if (pid_ <= 0) return false;
    if (::waitpid(pid_, nullptr, WNOHANG) == pid_) {
      pid_ = -1;
      return false;
    }
    return true;
  }
  std::string Output() const { return testing::ReadWholeFile(out_); }

 private:
  std::string out_;
  pid_t pid_ = -1;
};

TEST(Smb2NegotiateSmbd, RealSambaAnswers311WithoutRequiredSigning) {
  if (::access("/usr/sbin/smbd", X_OK) != 0) NASPERF_SKIP_OR_FAIL_IN_CI("/usr/sbin/smbd is not installed");
  testing::TempDir dir;
  ASSERT_FALSE(dir.path().empty());
  const uint16_t port = FreeLoopbackPort();
  ASSERT_NE(port, 0);
  PrivateSmbd smbd(dir.path(), port);
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (!Listening(port)) {
    ASSERT_TRUE(smbd.Running()) << "smbd exited:\n" << smbd.Output();
    ASSERT_LT(std::chrono::steady_clock::now(), give_up) << "smbd did not listen on " << port << ":\n" << smbd.Output();
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  Result<Smb2NegotiateFacts> f = ProbeSmb2Negotiate("127.0.0.1", port, 5000);
  ASSERT_TRUE(f.ok()) << f.status().message();
  EXPECT_EQ(f.value().dialect, 0x0311);
  EXPECT_TRUE(f.value().signing_enabled);
  EXPECT_FALSE(f.value().signing_required);
  EXPECT_TRUE(f.value().server_supports_encryption);
  EXPECT_FALSE(f.value().cipher.empty());
  EXPECT_GE(f.value().max_read_bytes, 65536u);
  std::cout << "smbd: " << Smb2NegotiateSummary(f.value()) << ", caps 0x" << std::hex << f.value().capabilities
            << std::dec << ", max read/write/transact " << f.value().max_read_bytes << "/" << f.value().max_write_bytes
            << "/" << f.value().max_transact_bytes << "\n";
}

}  // namespace
}  // namespace nasperf
