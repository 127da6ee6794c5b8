// The pacing core of `nasperf app video`: one stream's chunks issued on a fixed schedule
// against a player's buffer, timed on a Clock (base/clock.h) so a test can run it on a
// fake one. It knows nothing of files: a ChunkIo moves each chunk.
//
// The model, for one stream of `rate_bytes_per_s` in chunks of `chunk_bytes`:
//   - chunk k's intended start is start + k x interval, interval = chunk_bytes / rate; the
//     stream issues it then (or at once, when the chunk before it finished late), one
//     chunk in flight;
//   - latency is timed from the intended start, not from the actual issue, so a stall
//     also counts against the chunks queued behind it (no coordinated omission); service
//     time, from the actual issue, is kept beside it;
//   - the player starts buffer_ns after the stream starts and plays chunk k at
//     intended_k + buffer_ns, plus every pause so far. A chunk not done by then is a
//     deadline miss: the buffer ran dry, playback pauses until the chunk is done (the
//     player rebuffers), and every later chunk is played that much later. stall_ns is the
//     total pause. A recorder is the same with the roles turned: its buffer fills while a
//     write is late, and stall_ns is how long it could not take the camera's data.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>

#include "base/clock.h"
#include "nasperf/status.h"
#include "stats/histogram.h"

namespace nasperf {

// Moves chunk `index` of a stream (a read or a write of chunk_bytes). Called once per
// chunk on the stream's thread; a failure stops the stream.
class ChunkIo {
 public:
  virtual ~ChunkIo() = default;
  virtual Status Transfer(uint64_t index) = 0;
};

struct PacingPlan {
  uint64_t rate_bytes_per_s = 5'000'000;  // 40 Mbit/s
  uint64_t chunk_bytes = 1 << 20;
  uint64_t chunks = 0;                 // chunks in the stream
  uint64_t buffer_ns = 2'000'000'000;  // the player's buffer: 2 s

  // Nanoseconds between intended starts.
  double interval_ns() const { return static_cast<double>(chunk_bytes) * 1e9 / static_cast<double>(rate_bytes_per_s); }
  uint64_t IntendedStartNs(uint64_t index) const {
    return static_cast<uint64_t>(static_cast<double>(index) * interval_ns());
  }
};

// What one stream measured. The histograms are allocated before the clock starts.
struct PacingOutcome {
  uint64_t chunks_done = 0;
  uint64_t deadline_misses = 0;
  uint64_t stall_ns = 0;
  uint64_t elapsed_ns = 0;  // stream start to the last chunk's end
  std::unique_ptr<LatencyHistogram> latency = std::make_unique<LatencyHistogram>();  // from intended start
  std::unique_ptr<LatencyHistogram> service = std::make_unique<LatencyHistogram>();  // from actual issue
  Status status;  // the first failure, or why it stopped early
};

// Runs one stream from `start_ns` (clock time; the first chunk's intended start) to its
// last chunk, or until Ctrl-C (Interrupted) or `stop` (may be null) becomes true — another
// stream failed. Sleeps on `clock` until each intended start; allocates nothing per chunk.
void RunPacedStream(Clock& clock, uint64_t start_ns, const PacingPlan& plan, ChunkIo& io, const std::atomic<bool>* stop,
                    PacingOutcome& out);

// The buffer model alone, for one finished chunk: updates misses and stall from its
// intended start and when it was done (ns after the stream start).
void ScoreChunk(const PacingPlan& plan, uint64_t intended_ns, uint64_t done_ns, PacingOutcome& out);

}  // namespace nasperf
