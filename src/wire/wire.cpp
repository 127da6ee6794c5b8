// The frame codec of docs/agent-protocol.md.
#include "wire/wire.h"

#include <fmt/format.h>

#include "base/bounded_json.h"

namespace nasperf {
namespace {

constexpr char kMagic[4] = {'N', 'P', 'R', 'F'};

void PutBe16(char* p, uint16_t v) {
  p[0] = static_cast<char>(v >> 8);
  p[1] = static_cast<char>(v);
}
void PutBe32(char* p, uint32_t v) {
  for (int i = 0; i < 4; ++i) p[i] = static_cast<char>(v >> (24 - 8 * i));
}
uint16_t GetBe16(const char* p) {
  return static_cast<uint16_t>((static_cast<uint8_t>(p[0]) << 8) | static_cast<uint8_t>(p[1]));
}
uint32_t GetBe32(const char* p) {
  uint32_t v = 0;
  for (int i = 0; i < 4; ++i) v = (v << 8) | static_cast<uint8_t>(p[i]);
  return v;
}

}  // namespace

bool IsKnownMessageType(uint16_t v) {
  return (v >= 1 && v <= 5) || v == 10 || v == 11 || (v >= 20 && v <= 27) || (v >= 30 && v <= 36) ||
         (v >= 40 && v <= 43) || v == 50 || v == 51;
}

std::string MessageTypeName(MessageType type) {
  switch (type) {
    case MessageType::kHello: return "Hello";
    case MessageType::kChallenge: return "Challenge";
    case MessageType::kAuth: return "Auth";
    case MessageType::kAuthOk: return "AuthOk";
    case MessageType::kError: return "Error";
    case MessageType::kInventoryGet: return "InventoryGet";
    case MessageType::kInventory: return "Inventory";
    case MessageType::kNetStart: return "NetStart";
    case MessageType::kNetReady: return "NetReady";
    case MessageType::kDataAttach: return "DataAttach";
    case MessageType::kDataAttached: return "DataAttached";
    case MessageType::kNetFinish: return "NetFinish";
    case MessageType::kNetReport: return "NetReport";
    case MessageType::kNetGo: return "NetGo";
    case MessageType::kNetGoing: return "NetGoing";
    case MessageType::kJobStart: return "JobStart";
    case MessageType::kJobSample: return "JobSample";
    case MessageType::kJobDone: return "JobDone";
    case MessageType::kJobCancel: return "JobCancel";
    case MessageType::kJobRunStart: return "JobRunStart";
    case MessageType::kJobRun: return "JobRun";
    case MessageType::kJobProgress: return "JobProgress";
    case MessageType::kTelemetryStart: return "TelemetryStart";
    case MessageType::kTelemetrySample: return "TelemetrySample";
    case MessageType::kTelemetryStop: return "TelemetryStop";
    case MessageType::kTelemetryDone: return "TelemetryDone";
    case MessageType::kPing: return "Ping";
    case MessageType::kPong: return "Pong";
  }
  return fmt::format("type {}", static_cast<uint16_t>(type));
}

Result<std::string> EncodeFrame(MessageType type, const nlohmann::json& payload) {
  if (!payload.is_object()) return Status::BadInput("frame payload is not a JSON object");
  // Replace invalid UTF-8 rather than throw: a path or message from the OS may hold any bytes.
  std::string body = payload.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  if (body.size() > kMaxPayload)
    return Status::BadInput(fmt::format("frame payload {} bytes over the {} limit", body.size(), kMaxPayload));
  std::string frame(kHeaderBytes, '\0');
  std::copy(kMagic, kMagic + 4, frame.begin());
  PutBe16(&frame[4], kProtocolVersion);
  PutBe16(&frame[6], static_cast<uint16_t>(type));
  PutBe32(&frame[8], static_cast<uint32_t>(body.size()));
  frame += body;
  return frame;
}

void FrameDecoder::Feed(const char* data, size_t size) {
  if (failed_) return;
  // Drop what earlier frames used before growing, so the buffer stays one frame long.
  if (consumed_ > 0) {
    buffer_.erase(0, consumed_);
    consumed_ = 0;
  }
  buffer_.append(data, size);
}

Result<std::optional<Frame>> FrameDecoder::Next() {
  if (failed_) return failure_;
  auto fail = [this](std::string message) -> Result<std::optional<Frame>> {
    failed_ = true;
    failure_ = Status::BadInput("protocol error: " + std::move(message));
    return failure_;
  };
  const size_t available = buffer_.size() - consumed_;
  if (available < kHeaderBytes) {
    // Refuse a wrong magic as soon as the bytes that are in disagree with it: garbage is
    // dropped at once instead of waiting for 16 bytes that may never come.
    for (size_t i = 0; i < std::min<size_t>(available, 4); ++i)
      if (buffer_[consumed_ + i] != kMagic[i]) return fail("bad magic (not a nasperf agent frame)");
    return std::optional<Frame>();
  }
  const char* h = buffer_.data() + consumed_;
  if (!std::equal(kMagic, kMagic + 4, h)) return fail("bad magic (not a nasperf agent frame)");
  uint16_t version = GetBe16(h + 4);
  // Both ends must be the same nasperf: say so, since an older peer is the usual cause.
  if (version != kProtocolVersion)
    return fail(fmt::format("protocol version {}, expected {} (the agent and the client must run the same nasperf "
                            "version)",
                            version, kProtocolVersion));
  uint16_t type = GetBe16(h + 6);
  uint32_t length = GetBe32(h + 8);
  if (length > kMaxPayload) return fail(fmt::format("payload {} bytes over the {} limit", length, kMaxPayload));
  if (GetBe32(h + 12) != 0) return fail("reserved header field is not 0");
  if (!IsKnownMessageType(type)) return fail(fmt::format("unknown message type {}", type));
  if (available < kHeaderBytes + length) return std::optional<Frame>();
  Frame frame;
  frame.type = static_cast<MessageType>(type);
  // Depth-bounded: a payload nested 100,000 deep would otherwise parse, then blow the
  // stack of whatever walks it recursively (a copy, a dump, a comparison).
  Result<nlohmann::json> payload = ParseBoundedJson(std::string_view(h + kHeaderBytes, length), kMaxPayloadDepth,
                                                    MessageTypeName(frame.type) + " payload");
  if (!payload.ok() && FindJsonTooDeep(std::string_view(h + kHeaderBytes, length), kMaxPayloadDepth) != std::string_view::npos)
    return fail(payload.status().message());
  if (!payload.ok() || !payload.value().is_object())
    return fail(fmt::format("{} payload is not a JSON object", MessageTypeName(frame.type)));
  frame.payload = std::move(payload).value();
  consumed_ += kHeaderBytes + length;
  return std::optional<Frame>(std::move(frame));
}

std::string FrameDecoder::TakeBuffered() {
  std::string rest = buffer_.substr(consumed_);
  buffer_.clear();
  consumed_ = 0;
  return rest;
}

}  // namespace nasperf
