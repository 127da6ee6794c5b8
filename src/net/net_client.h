// The client end of `nasperf net`: one test against an agent — control session, data
// streams, per-second samples, the agent's report and the TCP facts of the connections.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "wire/agent_client.h"
#include "nasperf/result.h"
#include "nasperf/status.h"
#include "net/net_stream.h"

namespace nasperf::net {

struct NetTestOptions {
  AgentAddress address;
  std::string token;
  std::string dir = "up";  // up (client → agent) | down (agent → client) | both
  uint32_t streams = 1;    // per direction
  double seconds = 10;      // the counted window's length
  double omit_s = 1;        // not counted after the start barrier (slow start), like iperf3 -O
  uint64_t bs = 128 << 10;  // bytes per send
  bool zerocopy = true;     // sendfile (or MSG_ZEROCOPY) on the sending side
  // Called once a second with the latest sample (MB/s of this interval). May be empty.
  std::function<void(const Sample&)> on_sample;
};

// The figures of one direction as the receiver counted them, inside the common window.
struct NetDirection {
  uint64_t bytes = 0;
  double seconds = 0;           // the window's length
  bool receiver_counted = true; // false: the agent's count was lost, these are sent bytes
};

// One stream's count inside the common window.
struct NetStreamFigure {
  bool up = true;
  uint32_t index = 0;
  uint64_t bytes = 0;
  bool receiver_counted = true;  // as NetDirection
  std::string end;               // how the stream ended: "done", "stalled", an error
};

struct NetTestResult {
  bool measured = false;         // at least one data stream ran
  // The common window every stream was counted in, seconds after the start barrier (all
  // streams attached, one NetGo): omit_s .. omit_s + seconds, or less when a stream
  // stopped early (then it ends at the first stop; empty when that was inside the omit).
  double window_start_s = 0;
  double window_end_s = 0;
  std::vector<NetStreamFigure> streams;  // up streams first, then down
  std::optional<NetDirection> up;    // client → agent ("write")
  std::optional<NetDirection> down;  // agent → client ("read")
  std::vector<Sample> samples;       // write = client's sent, read = client's received, MB/s
  std::string client_send_mode;      // up: how this client sent ("sendfile", "none" ...)
  std::string agent_send_mode;       // down: what the agent chose
  TcpFacts facts;                    // of the first stream; retrans summed over streams
  // The local interface's link speed, read before the test (a cut link reports none).
  std::optional<int64_t> link_speed_mbps;
  uint64_t up_retrans = 0;           // client's (sender's) retransmits on up streams
  uint64_t up_segments = 0;          // the data segments those streams sent; 0 when not counted
  std::string agent_report_note;     // a stream the agent saw end early, or ""
  nlohmann::ordered_json telemetry;  // what the agent sampled on the NAS meanwhile; null if none
};

struct NetTestOutcome {
  NetTestResult result;
  Status status;  // why it stopped early (the run is then partial), ok otherwise
};

// Runs one test. Never blocks longer than a few seconds past `seconds` on a dead agent or
// a cut link. Failing before any data moved (no agent, refused token) → status only.
NetTestOutcome RunNetTest(const NetTestOptions& options);

}  // namespace nasperf::net
