// The frame codec: round trips, split delivery, and every malformed-frame case.
#include "wire/wire.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

namespace nasperf {
namespace {

std::string Header(const char* magic, uint16_t version, uint16_t type, uint32_t length, uint32_t reserved) {
  std::string h(magic, 4);
  h += static_cast<char>(version >> 8);
  h += static_cast<char>(version);
  h += static_cast<char>(type >> 8);
  h += static_cast<char>(type);
  for (int i = 3; i >= 0; --i) h += static_cast<char>(length >> (8 * i));
  for (int i = 3; i >= 0; --i) h += static_cast<char>(reserved >> (8 * i));
  return h;
}

Status DecodeError(const std::string& bytes) {
  FrameDecoder d;
  d.Feed(bytes);
  Result<std::optional<Frame>> r = d.Next();
  EXPECT_FALSE(r.ok()) << "decoded what should be refused";
  EXPECT_TRUE(d.failed());
  return r.status();
}

TEST(WireTest, RoundTripsEveryKnownType) {
  for (uint16_t t = 0; t < 100; ++t) {
    if (!IsKnownMessageType(t)) continue;
    nlohmann::json payload = {{"k", t}, {"text", "ü"}};
    Result<std::string> bytes = EncodeFrame(static_cast<MessageType>(t), payload);
    ASSERT_TRUE(bytes.ok());
    EXPECT_EQ(bytes.value().substr(0, 4), "NPRF");
    FrameDecoder d;
    d.Feed(bytes.value());
    Result<std::optional<Frame>> f = d.Next();
    ASSERT_TRUE(f.ok()) << f.status().message();
    ASSERT_TRUE(f.value().has_value());
    EXPECT_EQ(static_cast<uint16_t>(f.value()->type), t);
    EXPECT_EQ(f.value()->payload, payload);
  }
}

TEST(WireTest, DecodesByteByByteAndBackToBack) {
  std::string bytes = EncodeFrame(MessageType::kPing, nlohmann::json::object()).value() +
                      EncodeFrame(MessageType::kJobSample, {{"t_s", 1}}).value();
  FrameDecoder d;
  std::vector<Frame> frames;
  for (char c : bytes) {
    d.Feed(&c, 1);
    while (true) {
      Result<std::optional<Frame>> f = d.Next();
      ASSERT_TRUE(f.ok()) << f.status().message();
      if (!f.value()) break;
      frames.push_back(*f.value());
    }
  }
  ASSERT_EQ(frames.size(), 2u);
  EXPECT_EQ(frames[0].type, MessageType::kPing);
  EXPECT_EQ(frames[1].type, MessageType::kJobSample);
  EXPECT_EQ(frames[1].payload["t_s"], 1);
}

TEST(WireTest, IncompleteFrameWaitsForMore) {
  std::string bytes = EncodeFrame(MessageType::kPing, {{"a", 1}}).value();
  FrameDecoder d;
  d.Feed(bytes.substr(0, bytes.size() - 1));
  Result<std::optional<Frame>> f = d.Next();
  ASSERT_TRUE(f.ok());
  EXPECT_FALSE(f.value().has_value());
}

TEST(WireTest, RefusesBadMagicAtOnce) {
  {
    FrameDecoder d;
    d.Feed("GET / HTTP/1.1\r\n");
    Result<std::optional<Frame>> r = d.Next();
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.status().message().find("bad magic"), std::string::npos);
  }
  // Two wrong bytes are enough: garbage is not buffered waiting for a header.
  FrameDecoder d;
  d.Feed("NX");
  EXPECT_FALSE(d.Next().ok());
}

TEST(WireTest, RefusesOtherVersion) {
  Status s = DecodeError(Header("NPRF", kProtocolVersion + 1, 50, 2, 0) + "{}");
  EXPECT_EQ(s.kind(), ErrorKind::kBadInput);
  EXPECT_NE(s.message().find(fmt::format("version {}", kProtocolVersion + 1)), std::string::npos) << s.message();
}

TEST(WireTest, RefusesOversizedLengthBeforeThePayload) {
  Status s = DecodeError(Header("NPRF", kProtocolVersion, 50, kMaxPayload + 1, 0));
  EXPECT_NE(s.message().find("over the 1048576 limit"), std::string::npos) << s.message();
}

TEST(WireTest, AcceptsExactlyTheLimit) {
  std::string body = "{\"x\":\"" + std::string(kMaxPayload - 8, 'a') + "\"}";
  ASSERT_EQ(body.size(), kMaxPayload);
  FrameDecoder d;
  d.Feed(Header("NPRF", kProtocolVersion, 50, kMaxPayload, 0) + body);
  Result<std::optional<Frame>> f = d.Next();
  ASSERT_TRUE(f.ok()) << f.status().message();
  EXPECT_TRUE(f.value().has_value());
}

TEST(WireTest, RefusesNonZeroReserved) {
  EXPECT_NE(DecodeError(Header("NPRF", kProtocolVersion, 50, 2, 7) + "{}").message().find("reserved"), std::string::npos);
}

TEST(WireTest, RefusesUnknownTypes) {
  for (uint16_t t : {0, 6, 9, 12, 28, 37, 44, 52, 65535})
    EXPECT_NE(DecodeError(Header("NPRF", kProtocolVersion, t, 2, 0) + "{}").message().find("unknown message type"),
              std::string::npos)
        << t;
}

TEST(WireTest, RefusesPayloadsThatAreNotJsonObjects) {
  for (std::string body : {"[1,2]", "42", "\"s\"", "{\"a\":", "not json", "null"}) {
    Status s = DecodeError(Header("NPRF", kProtocolVersion, 50, static_cast<uint32_t>(body.size()), 0) + body);
    EXPECT_NE(s.message().find("not a JSON object"), std::string::npos) << body << ": " << s.message();
  }
}

TEST(WireTest, RefusesPayloadsNestedDeeperThanTheLimit) {
  // 100,000 levels (200 KB, under the 1 MiB limit) used to parse, then crash whatever
  // walked the tree recursively.
  for (size_t levels : {size_t{65}, size_t{100000}}) {
    std::string body = "{\"a\":" + std::string(levels, '[') + std::string(levels, ']') + "}";
    Status s = DecodeError(Header("NPRF", kProtocolVersion, 30, static_cast<uint32_t>(body.size()), 0) + body);
    EXPECT_NE(s.message().find("JobStart payload: nested deeper than 64 levels"), std::string::npos)
        << levels << ": " << s.message();
  }
  std::string ok_body = "{\"a\":" + std::string(63, '[') + std::string(63, ']') + "}";
  FrameDecoder d;
  d.Feed(Header("NPRF", kProtocolVersion, 30, static_cast<uint32_t>(ok_body.size()), 0) + ok_body);
  Result<std::optional<Frame>> f = d.Next();
  ASSERT_TRUE(f.ok()) << f.status().message();
  EXPECT_TRUE(f.value().has_value());
}

TEST(WireTest, StaysFailedAfterAnError) {
  FrameDecoder d;
  d.Feed("XXXX");
  EXPECT_FALSE(d.Next().ok());
  d.Feed(EncodeFrame(MessageType::kPing, nlohmann::json::object()).value());
  EXPECT_FALSE(d.Next().ok());
}

TEST(WireTest, EncodeRefusesNonObjectsAndOversize) {
  EXPECT_FALSE(EncodeFrame(MessageType::kPing, nlohmann::json::array()).ok());
  EXPECT_FALSE(EncodeFrame(MessageType::kPing, {{"x", std::string(kMaxPayload, 'a')}}).ok());
}

TEST(WireTest, TakeBufferedReturnsBytesAfterTheFrame) {
  FrameDecoder d;
  d.Feed(EncodeFrame(MessageType::kDataAttached, nlohmann::json::object()).value() + "raw");
  ASSERT_TRUE(d.Next().value().has_value());
  EXPECT_EQ(d.TakeBuffered(), "raw");
}

}  // namespace
}  // namespace nasperf
