// DecodeMessage / DecodeAgentFrames: every field of a request checked for type, sign,
// range and size before use; bad bodies are one-line BadInput, never a throw or crash.
#include "wire/messages.h"

#include <gtest/gtest.h>

#include <string>

namespace nasperf {
namespace {

using nlohmann::json;

json GoodJob() { return {{"rw", "write"}, {"bs", 65536}, {"qd", 1}, {"threads", 1}, {"size", 1 << 20}}; }
json GoodStart() { return {{"job", GoodJob()}, {"dir", "sub"}, {"name", "n"}, {"suite", "run"}, {"repeat", 2}}; }

Result<AgentMessage> Decode(MessageType type, const json& payload) { return DecodeMessage(Frame{type, payload}); }

void ExpectRefused(const json& payload, const std::string& needle) {
  Result<AgentMessage> m = Decode(MessageType::kJobStart, payload);
  ASSERT_FALSE(m.ok()) << payload.dump();
  EXPECT_EQ(m.status().kind(), ErrorKind::kBadInput);
  EXPECT_NE(m.status().message().find(needle), std::string::npos) << payload.dump() << ": " << m.status().message();
  EXPECT_EQ(m.status().message().find('\n'), std::string::npos);
}

TEST(MessagesTest, GoodJobStartDecodes) {
  Result<AgentMessage> m = Decode(MessageType::kJobStart, GoodStart());
  ASSERT_TRUE(m.ok()) << m.status().message();
  const JobStartMsg& s = std::get<JobStartMsg>(m.value().body);
  EXPECT_EQ(s.dir, "sub");
  EXPECT_EQ(s.name, "n");
  EXPECT_EQ(s.job.repeat, 2u);
  EXPECT_EQ(s.job.bs, 65536u);
  EXPECT_FALSE(s.check);
  json minimal = {{"job", GoodJob()}};
  Result<AgentMessage> d = Decode(MessageType::kJobStart, minimal);
  ASSERT_TRUE(d.ok()) << d.status().message();
  EXPECT_EQ(std::get<JobStartMsg>(d.value().body).dir, ".");
}

TEST(MessagesTest, JobStartFieldsOfTheWrongTypeAreRefused) {
  for (const char* key : {"dir", "name", "suite"}) {
    for (const json& bad : {json::object(), json::array({1}), json(7), json(nullptr), json(true)}) {
      json p = GoodStart();
      p[key] = bad;
      ExpectRefused(p, std::string("\"") + key + "\" must be a string");
    }
  }
  for (const char* key : {"check", "direct_fallback"}) {
    json p = GoodStart();
    p[key] = "yes";  // used to throw nlohmann::type_error on the job thread
    ExpectRefused(p, std::string("\"") + key + "\" must be true or false");
  }
  json p = GoodStart();
  p["job"] = "write";
  ExpectRefused(p, "\"job\" must be an object");
  ExpectRefused(json{{"dir", "."}}, "missing \"job\"");
}

TEST(MessagesTest, NegativeOversizedAndTruncatingNumbersAreRefused) {
  struct Case {
    const char* key;
    json value;
  };
  for (const Case& c :
       {Case{"bs", -5}, Case{"bs", 0}, Case{"bs", 1.5}, Case{"bs", "64k"}, Case{"size", -1}, Case{"qd", 4294967297ull},
        Case{"threads", -1}, Case{"threads", 4294967296ull}, Case{"time_s", -1}, Case{"time_s", 1e300},
        Case{"ramp_s", "x"}, Case{"repeat", 0}, Case{"mix_read_pct", 101}, Case{"rw", 5}, Case{"engine", json::array()},
        Case{"pattern", json::object()}, Case{"direct", 1}}) {
    json p = GoodStart();
    p["job"][c.key] = c.value;
    ExpectRefused(p, std::string("\"") + c.key + "\"");
  }
  json p = GoodStart();
  p["repeat"] = -3;
  ExpectRefused(p, "\"repeat\" must be a whole number 1..1000");
  p["repeat"] = 1001;
  ExpectRefused(p, "\"repeat\"");
}

TEST(MessagesTest, OverlongStringsAreRefusedNotTruncated) {
  json p = GoodStart();
  p["dir"] = std::string(kMaxDirBytes + 1, 'a');
  ExpectRefused(p, "\"dir\" must be a string of at most 4096 bytes");
  p = GoodStart();
  p["name"] = std::string(kMaxNameBytes + 1, 'a');
  ExpectRefused(p, "\"name\"");
  p = GoodStart();
  p["suite"] = "diagnose";
  ExpectRefused(p, "suite \"diagnose\" is not supported");
}

json GoodSweep() { return {{"min_bytes", 65536}, {"records", {4096, 65536}}, {"tests", {"write", "read"}}}; }

TEST(MessagesTest, SweepStartIsDecodedWithItsFieldsChecked) {
  json p = GoodStart();
  p["suite"] = "sweep";
  p["sweep"] = GoodSweep();
  p["sweep"]["max_bytes"] = 1 << 20;
  Result<AgentMessage> m = Decode(MessageType::kJobStart, p);
  ASSERT_TRUE(m.ok()) << m.status().message();
  const JobStartMsg& start = std::get<JobStartMsg>(m.value().body);
  EXPECT_EQ(start.suite, "sweep");
  EXPECT_EQ(start.sweep.min_bytes, 65536u);
  EXPECT_EQ(start.sweep.max_bytes, std::optional<uint64_t>(1 << 20));
  EXPECT_EQ(start.sweep.records, (std::vector<uint64_t>{4096, 65536}));
  EXPECT_EQ(start.sweep.tests, (std::vector<std::string>{"write", "read"}));
  EXPECT_FALSE(start.sweep.nas_ram_bytes);

  p.erase("sweep");
  ExpectRefused(p, "needs a \"sweep\" object");
  p["sweep"] = GoodSweep();
  p["sweep"]["records"] = json::array();
  ExpectRefused(p, "\"records\" must be an array");
  p["sweep"] = GoodSweep();
  p["sweep"]["records"] = {-1};
  ExpectRefused(p, "\"records\" must hold whole numbers");
  p["sweep"] = GoodSweep();
  p["sweep"]["tests"] = {std::string(kMaxWordBytes + 1, 'w')};
  ExpectRefused(p, "\"tests\" must hold strings");
  p["sweep"] = GoodSweep();
  p["sweep"]["min_bytes"] = 0;
  ExpectRefused(p, "\"min_bytes\"");
}

TEST(MessagesTest, HandshakeBodiesAreTyped) {
  Result<AgentMessage> hello = Decode(MessageType::kHello, {{"role", "control"}, {"client_nonce", "ab"}});
  ASSERT_TRUE(hello.ok());
  EXPECT_EQ(std::get<HelloMsg>(hello.value().body).role, "control");
  EXPECT_FALSE(Decode(MessageType::kHello, {{"role", json::object()}, {"client_nonce", "ab"}}).ok());
  EXPECT_FALSE(Decode(MessageType::kHello, {{"role", "control"}}).ok());
  EXPECT_FALSE(Decode(MessageType::kAuth, {{"mac", 12}}).ok());
  EXPECT_FALSE(Decode(MessageType::kAuth, {{"mac", std::string(1000, 'a')}}).ok());
  EXPECT_TRUE(Decode(MessageType::kAuth, {{"mac", "00"}}).ok());
  EXPECT_FALSE(Decode(MessageType::kError, {{"code", json::array()}}).ok());
  EXPECT_TRUE(Decode(MessageType::kPing, {{"anything", json::array()}}).ok());
}

TEST(MessagesTest, DecodeAgentFramesTakesRawBytes) {
  std::string bytes = EncodeFrame(MessageType::kPing, json::object()).value() +
                      EncodeFrame(MessageType::kJobStart, GoodStart()).value();
  Result<std::vector<AgentMessage>> all = DecodeAgentFrames(bytes + bytes.substr(0, 10));
  ASSERT_TRUE(all.ok()) << all.status().message();
  ASSERT_EQ(all.value().size(), 2u);
  EXPECT_EQ(all.value()[1].type, MessageType::kJobStart);

  std::string deep =
      "{\"job\":" + GoodJob().dump() + ",\"suite\":" + std::string(100000, '[') + std::string(100000, ']') + "}";
  std::string header = EncodeFrame(MessageType::kJobStart, json::object()).value().substr(0, kHeaderBytes);
  for (int i = 0; i < 4; ++i) header[8 + i] = static_cast<char>(deep.size() >> (24 - 8 * i));
  Result<std::vector<AgentMessage>> refused = DecodeAgentFrames(header + deep);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("nested deeper than 64"), std::string::npos) << refused.status().message();
  EXPECT_FALSE(DecodeAgentFrames("garbage").ok());
}

}  // namespace
}  // namespace nasperf
