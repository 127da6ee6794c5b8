// Typed bodies of the agent protocol's messages, decoded from a frame's JSON with every
// field's type and size checked before anything uses it. No sockets: the decoders take
// bytes or frames, so a fuzzer can drive them (fuzz/agent_frame_fuzz.cpp calls
// DecodeAgentFrames).
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "wire/wire.h"
#include "nasperf/job.h"
#include "nasperf/status.h"

namespace nasperf {

// Limits on strings a peer may send; longer is refused, not truncated.
inline constexpr size_t kMaxDirBytes = 4096;           // PATH_MAX
inline constexpr size_t kMaxNameBytes = 1024;          // a run's label
inline constexpr size_t kMaxWordBytes = 64;            // rw, engine, pattern, role, suite, codes
inline constexpr size_t kMaxMessageBytes = 64 * 1024;  // an Error's message

struct HelloMsg {
  std::string role;              // "control" | "data"
  std::string client_nonce_hex;  // 2 * kNonceBytes hex digits (content checked by auth)
};
struct AuthMsg {
  std::string mac_hex;
};
struct ChallengeMsg {
  std::string server_nonce_hex;
  std::string agent;  // "nasperf 0.1.0"
};
struct AuthOkMsg {
  std::string mac_hex;
};
struct ErrorMsg {
  std::string code;
  std::string message;
};
// JobStart's "sweep" object (suite "sweep"): what the client's options asked, parsed.
struct SweepStartMsg {
  uint64_t min_bytes = 0;
  std::optional<uint64_t> max_bytes;
  std::vector<uint64_t> records;   // 1..kMaxSweepRecords record sizes
  std::vector<std::string> tests;  // 1..6 test names ("write", "read", ...), checked by the agent
  std::optional<uint64_t> nas_ram_bytes;
  bool drop_caches = false;
};
inline constexpr size_t kMaxSweepRecords = 64;

// suite "app": one application workload (`nasperf app NAME`) run on the agent's own
// directories. Options are the subcommand's own, by long name without dashes, each value
// as typed ("" for a flag); the agent checks every one against its list for NAME.
struct AppStartMsg {
  std::string workload;  // "file-copy", "dir-copy", "backup", "restore", "video", ...
  std::vector<std::pair<std::string, std::string>> options;
};
inline constexpr size_t kMaxAppOptions = 32;

struct JobStartMsg {
  std::string suite = "run";  // "run" | "sweep" | "app"
  SweepStartMsg sweep;        // suite "sweep" only
  AppStartMsg app;            // suite "app" only (its "job" is then optional)
  JobSpec job;  // validated (JobSpec::Validate), repeat applied
  std::string dir = ".";
  std::string name;
  bool direct_fallback = false;
  bool check = false;
};
// Bodies whose fields their one consumer checks as it reads them (NetService for
// NetStart/NetFinish/DataAttach; the client's run decoder for JobDone ...): an object
// within the frame's depth limit.
struct ObjectMsg {
  nlohmann::json payload;
};
// Ping, Pong, InventoryGet, JobCancel, TelemetryStart, TelemetryStop: nothing is read.
struct EmptyMsg {};

using MessageBody =
    std::variant<EmptyMsg, HelloMsg, AuthMsg, ChallengeMsg, AuthOkMsg, ErrorMsg, JobStartMsg, ObjectMsg>;

struct AgentMessage {
  MessageType type = MessageType::kPing;
  MessageBody body;
};

// A frame's payload to its typed body: BadInput naming the message and the field
// ("JobStart: \"dir\" must be a string of at most 4096 bytes") when a field is missing,
// of the wrong type, negative, out of range or too long. Never throws.
Result<AgentMessage> DecodeMessage(const Frame& frame);

// Raw bytes (any number of frames, as read from a socket after authentication) through
// FrameDecoder and DecodeMessage: every complete frame's message, or the first error.
// Trailing bytes of an incomplete frame are ignored. Never throws; allocates at most
// what the bytes and one frame's limit allow.
Result<std::vector<AgentMessage>> DecodeAgentFrames(std::string_view bytes);

}  // namespace nasperf
