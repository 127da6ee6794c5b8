// The state of one `nasperf net` session on the agent, shared by NetService's control
// calls and its data streams' threads; private to net_service.cpp.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "net/net_stream.h"
#include "sysinfo/telemetry/telemetry.h"

namespace nasperf {

struct NetStreamSlot {
  std::atomic<bool> attached{false};
  std::atomic<uint64_t> bytes{0};  // all moved: received (up) or sent (down)
  net::ByteLog log;      // what `bytes` was when; written by the stream's thread only
  uint64_t stop_ns = 0;  // up: last byte received; down: the send loop returned; 0: none
  bool ended = false;    // the stream's thread is done with `log`; under NetSession::mutex
  std::string end;       // how it ended; under NetSession::mutex
  std::string send_mode;  // down streams: how the agent sent; under NetSession::mutex
};

struct NetSession {
  std::string id;
  uint64_t control_id = 0;
  std::string dir;  // up | down | both
  uint32_t streams = 1;
  double seconds = 10;
  double omit_s = 0;
  uint64_t bs = 0;
  net::SendMode mode = net::SendMode::kCopy;
  std::optional<net::SendSource> source;  // for down streams; read-only once made
  std::vector<NetStreamSlot> up, down;
  std::atomic<bool> stop{false};
  std::mutex mutex;
  std::condition_variable changed;
  int running = 0;  // attached streams not yet ended; under mutex
  // The start barrier (NetGo): every stream starts moving bytes here, and the window is
  // planned from it. 0 until NetGo; under mutex.
  uint64_t barrier_ns = 0;
  // The NAS's CPU, interrupts, disks and sensors while the test runs (issue 6: every net
  // test is sampled); stopped by Finish, or with the session when the client goes.
  std::unique_ptr<sysinfo::telemetry::TelemetrySampler> telemetry;
};

}  // namespace nasperf
