// The data path of `nasperf net`, both ends: send a pre-filled block for a time, receive
// and count, and what the kernel knows about one TCP connection (TCP_INFO, MSS, MTU, NIC).
#pragma once

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "nasperf/status.h"
#include "net/stream_window.h"
#include "base/scoped_fd.h"

namespace nasperf::net {

// How a sender hands its bytes to the kernel.
//   kCopy:        send() of a user buffer (the kernel copies it into socket buffers).
//   kSendfile:    sendfile() from a memfd filled once: the socket references page-cache
//                 pages, no copy on the sending side.
//   kMsgZerocopy: send(MSG_ZEROCOPY) of a pinned user buffer, completions reaped from
//                 the socket's error queue.
enum class SendMode { kCopy, kSendfile, kMsgZerocopy };
const char* ToString(SendMode mode);  // "none" | "sendfile" | "msg_zerocopy"
std::optional<SendMode> ParseSendMode(const std::string& text);
// What a sender uses when zero-copy is wanted: sendfile (measured: docs/performance.md,
// "nasperf net against iperf3"); env NASPERF_NET_ZEROCOPY=sendfile|msg_zerocopy|none
// overrides it, for that comparison.
SendMode PreferredZeroCopyMode();
// The mode for one connected socket: kCopy when zero-copy is not wanted or the connection
// is on loopback (measured: there the receiver copies anyway and sendfile's splice path
// costs more than the copy it saves, ~520 vs ~750 MB/s), else PreferredZeroCopyMode().
// NASPERF_NET_ZEROCOPY forces a mode also on loopback.
SendMode ChooseSendMode(int fd, bool zerocopy_wanted);

// The bytes a sender sends, prepared once (never per send): `block_bytes` of a fixed
// non-zero pattern, in a buffer or a memfd depending on the mode.
class SendSource {
 public:
  static Result<SendSource> Make(uint64_t block_bytes, SendMode mode);
  SendMode mode() const { return mode_; }
  uint64_t block_bytes() const { return buffer_.size(); }
  const char* data() const { return buffer_.data(); }
  int memfd() const { return memfd_.get(); }

 private:
  SendMode mode_ = SendMode::kCopy;
  std::vector<char> buffer_;
  ScopedFd memfd_;
};

// When a stream loop stops on its own. Times are MonotonicNs() values.
struct StreamLimits {
  uint64_t end_ns = 0;            // the sender stops here; the receiver gives up here
  uint64_t stall_ns = 3000000000; // no byte moved for this long → "stalled" (link cut, peer gone)
};

// Why a loop ended.
enum class StreamEnd {
  kDone,     // sender: the time is up; receiver: EOF from the peer
  kStopped,  // `stop` was set
  kTimeUp,   // receiver: end_ns passed before EOF
  kStalled,  // nothing moved for stall_ns
  kError,    // the socket failed (reset, broken pipe, timed out); see the Status
};
const char* ToString(StreamEnd end);

struct StreamOutcome {
  StreamEnd end = StreamEnd::kDone;
  Status status;          // non-ok for kError and kStalled
  uint64_t first_ns = 0;  // first byte moved (0: none)
  uint64_t last_ns = 0;   // last byte moved
  uint64_t end_ns = 0;    // the loop returned
};

// When a stream stopped moving bytes, for ending the common window (stream_window.h): a
// receiver's last byte; a sender's loop end, or its last byte when it stalled or failed
// (a cut link: the kernel stopped taking bytes long before the loop gave up).
uint64_t StopNs(const StreamOutcome& outcome, bool receiver);

// Prepares a connected TCP socket for a stream loop: a short SO_SNDTIMEO/SO_RCVTIMEO so
// blocking calls come back to look at the clock and `stop`, TCP_USER_TIMEOUT so a cut
// link fails a sender in `user_timeout_ms`, and (kMsgZerocopy) SO_ZEROCOPY. kSendfile
// sets SIGPIPE to ignored for the process (sendfile cannot say MSG_NOSIGNAL).
Status PrepareStreamSocket(int fd, SendMode mode, unsigned user_timeout_ms = 3000);

// Sends `source`'s block over and over until limits.end_ns or `stop`; adds every byte
// the kernel accepted to `bytes` (relaxed). Allocates nothing; one syscall per block.
// `also_stop`, when given, is a second flag with the same meaning as `stop`.
// `log`, when given, gets (time, total sent) after every send, as ReceiveLoop's does.
StreamOutcome SendLoop(int fd, const SendSource& source, const StreamLimits& limits,
                       const std::atomic<bool>& stop, std::atomic<uint64_t>& bytes,
                       const std::atomic<bool>* also_stop = nullptr,
                       std::optional<SendMode> mode = std::nullopt,  // default source.mode()
                       ByteLog* log = nullptr);

// Receives into `buffer` until EOF, limits.end_ns or `stop`, adding to `bytes`. `log`,
// when given, gets (time, total) after every receive, the total starting from what
// `bytes` held on entry: what a window count is taken from (stream_window.h).
StreamOutcome ReceiveLoop(int fd, char* buffer, size_t buffer_bytes, const StreamLimits& limits,
                          const std::atomic<bool>& stop, std::atomic<uint64_t>& bytes,
                          const std::atomic<bool>* also_stop = nullptr, ByteLog* log = nullptr);

// What the kernel knows about one connection; unknown values stay nullopt / empty.
struct TcpFacts {
  std::optional<uint64_t> total_retrans;  // segments retransmitted (tcpi_total_retrans)
  std::optional<uint64_t> data_segs_out;  // data segments sent, retransmits included (tcpi_data_segs_out)
  std::optional<double> rtt_us;           // smoothed RTT (tcpi_rtt), microseconds
  std::optional<double> rttvar_us;        // its variation (tcpi_rttvar), microseconds
  std::optional<int> mss_bytes;           // TCP_MAXSEG
  std::optional<int> path_mtu_bytes;      // IP_MTU / IPV6_MTU
  std::string local_address;              // "198.18.0.1"
  std::string interface;                  // the local interface holding local_address ("lo")
};
TcpFacts ReadTcpFacts(int fd);

// The link speed of interface `name` in Mbit/s from /sys/class/net/NAME/speed; nullopt
// when the driver reports none (loopback, link down).
std::optional<int64_t> LinkSpeedMbps(const std::string& name);

// "1 GbE", "10 GbE", "100 Mbit/s".
std::string LinkName(int64_t speed_mbps);
// "118.2 MB/s = 94.6 % of 1 GbE" or "118.2 MB/s, link speed unknown (lo)".
std::string LineRateText(double mb_per_s, const std::string& interface, std::optional<int64_t> speed_mbps);

}  // namespace nasperf::net
