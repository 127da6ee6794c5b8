// The agent protocol's frame codec (docs/agent-protocol.md, "Frames"): pure bytes in and
// out, no sockets, so every malformed-frame case is unit-testable.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "nasperf/status.h"

namespace nasperf {

// The one protocol version; both ends require an exact match (fio's FIO_SERVER_VER idea).
// 2: net streams start together at a NetGo barrier and are counted in one window.
// 3: JobStart "suite": "sweep"; the agent sends each point as JobRunStart and JobRun.
inline constexpr uint16_t kProtocolVersion = 3;
inline constexpr size_t kHeaderBytes = 16;
// Largest payload a frame may carry: 1 MiB. A larger length is a protocol error.
inline constexpr uint32_t kMaxPayload = 1u << 20;
// Deepest nesting of arrays/objects a payload may have; deeper is a protocol error,
// refused before a tree is built (base/bounded_json.h).
inline constexpr int kMaxPayloadDepth = 64;
// Default TCP port of `nasperf agent`.
inline constexpr uint16_t kDefaultPort = 7070;

// Message types; the numbers are the wire values (docs/agent-protocol.md).
enum class MessageType : uint16_t {
  kHello = 1,
  kChallenge = 2,
  kAuth = 3,
  kAuthOk = 4,
  kError = 5,
  kInventoryGet = 10,
  kInventory = 11,
  kNetStart = 20,
  kNetReady = 21,
  kDataAttach = 22,
  kDataAttached = 23,
  kNetFinish = 24,
  kNetReport = 25,
  kNetGo = 26,
  kNetGoing = 27,
  kJobStart = 30,
  kJobSample = 31,
  kJobDone = 32,
  kJobCancel = 33,
  kJobRunStart = 34,  // a suite's run about to start (its record, for the client's store)
  kJobRun = 35,       // a suite's run finished
  kJobProgress = 36,  // a suite's progress label
  kTelemetryStart = 40,
  kTelemetrySample = 41,
  kTelemetryStop = 42,
  kTelemetryDone = 43,
  kPing = 50,
  kPong = 51,
};

// True for the numbers in the table; anything else is an unknown type.
bool IsKnownMessageType(uint16_t value);
// "JobStart", or "type 99" for an unknown value; for messages.
std::string MessageTypeName(MessageType type);

struct Frame {
  MessageType type = MessageType::kPing;
  nlohmann::json payload = nlohmann::json::object();
};

// Header + JSON payload. Fails (BadInput) only when the payload is not an object or is
// larger than kMaxPayload.
Result<std::string> EncodeFrame(MessageType type, const nlohmann::json& payload);

// Incremental decoder: Feed() bytes as they arrive, Next() yields complete frames. The
// header is checked as soon as its 16 bytes are in, so an oversized length is refused
// before its payload is buffered. After the first error the decoder stays failed: the
// connection is to be dropped. Not thread-safe.
class FrameDecoder {
 public:
  void Feed(const char* data, size_t size);
  void Feed(std::string_view bytes) { Feed(bytes.data(), bytes.size()); }
  // A frame, std::nullopt when more bytes are needed, or a BadInput Status naming the
  // protocol error ("bad magic", "version 2, expected 1", "payload 2000000 bytes over
  // the 1048576 limit", "reserved field not 0", "unknown message type 99", "payload is
  // not a JSON object", "JobStart payload: nested deeper than 64 levels (at byte 80)").
  Result<std::optional<Frame>> Next();
  // Bytes buffered but not yet returned as frames (raw data after DataAttached, say).
  std::string TakeBuffered();
  bool failed() const { return failed_; }

 private:
  std::string buffer_;
  size_t consumed_ = 0;
  bool failed_ = false;
  Status failure_;
};

}  // namespace nasperf
