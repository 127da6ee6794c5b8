// `nasperf app video`: N paced streams (play: reads of staged files; record: writes of new
// ones) on an AppFileSystem, scored by the player-buffer model of suite/app/video_pacing.h,
// and the search for the most streams a target sustains (--find-max). No printing, no store.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/clock.h"
#include "core/app_fs.h"
#include "nasperf/app_result.h"
#include "nasperf/result.h"
#include "nasperf/status.h"
#include "suite/app/video_pacing.h"

namespace nasperf {

enum class VideoMode { kPlay, kRecord, kMix };  // mix: even streams play, odd ones record

struct VideoPlan {
  uint32_t streams = 4;
  double time_s = 60;
  double rate_mbit = 40;  // Blu-ray's maximum video rate; Mbit = 10^6 bits
  VideoMode mode = VideoMode::kPlay;
  uint64_t chunk_bytes = 1 << 20;
  uint64_t buffer_ns = 2'000'000'000;
  bool find_max = false;
  uint32_t max_search_streams = 256;  // --max-streams: --find-max probes no more
  uint64_t seed = 0;

  uint64_t rate_bytes_per_s() const { return static_cast<uint64_t>(rate_mbit * 1e6 / 8); }
  // Chunks one stream moves in `seconds` (at least one).
  uint64_t ChunksFor(double seconds) const;
  bool PlaysStream(uint32_t index) const {
    return mode == VideoMode::kPlay || (mode == VideoMode::kMix && index % 2 == 0);
  }
  // --find-max's probes: a quarter of --time, at least two buffers' worth.
  double probe_s() const;
};

// Bad values: one line naming the option (streams < 1, rate <= 0 or not a number, time <= 0).
Status ValidateVideoPlan(const VideoPlan& plan);

// What one run of `streams` streams measured.
struct VideoProbe {
  uint32_t streams = 0;
  double time_s = 0;     // as planned
  double elapsed_s = 0;  // first chunk's intended start to the last chunk's end
  uint64_t read_bytes = 0, write_bytes = 0, read_chunks = 0, write_chunks = 0;
  uint64_t deadline_misses = 0;
  double stall_s = 0;
  std::vector<AppStream> per_stream;
  std::shared_ptr<LatencyHistogram> latency = std::make_shared<LatencyHistogram>();  // all chunks, from intended start
  std::shared_ptr<LatencyHistogram> service = std::make_shared<LatencyHistogram>();  // all chunks, from actual issue
  // Per direction, from intended start: the run's read and write latency.
  std::shared_ptr<LatencyHistogram> read_latency = std::make_shared<LatencyHistogram>();
  std::shared_ptr<LatencyHistogram> write_latency = std::make_shared<LatencyHistogram>();
  Status status;  // the first stream's failure, or Interrupted
  bool pass() const { return status.ok() && deadline_misses == 0; }
  // --find-max judges short probes, in which a player's startup buffer can carry streams
  // the target does not keep up with: a probe of T s with a B s buffer shows no miss up to
  // (1 + B/T) times what the target sustains (28 streams "passed" 4 s probes on a link
  // that carries 23). So a probe also has to keep pace: its last chunk done within one
  // chunk's interval (+2 % of T for timer slack) of the planned end.
  bool kept_pace(double chunk_interval_s) const { return elapsed_s <= time_s * 1.02 + chunk_interval_s; }
};

// Runs the streams on one AppFileSystem. Play files are staged (untimed) on first use and
// kept for later probes; record files are removed after each probe.
class VideoWorkload {
 public:
  VideoWorkload(AppFileSystem& fs, Clock& clock, VideoPlan plan) : fs_(fs), clock_(clock), plan_(std::move(plan)) {}

  // Bytes the workload writes for `streams` streams of `seconds`: staged play files plus
  // record files. Checked against Space() before anything is written.
  uint64_t BytesNeeded(uint32_t streams, double seconds) const;
  Status CheckSpace(uint32_t streams, double seconds);
  // Stages the play files of streams [0, streams) not staged yet, each holding `seconds`
  // of video, then drops this machine's cache of the play files (staged now or read by an
  // earlier probe); says what the drop did. Call before every probe.
  Result<std::string> Stage(uint32_t streams, double seconds);
  // Streams started together (each offset by a fraction of an interval so they do not
  // ask at once), one thread each, on the workload's clock.
  VideoProbe RunProbe(uint32_t streams, double seconds);

  const VideoPlan& plan() const { return plan_; }
  const std::string& cache_note() const { return cache_note_; }
  // The last drop before a probe: whether it left none of the play files in this
  // machine's memory (ClientCacheDrop), and whether it evicted some without emptying.
  bool cache_emptied() const { return cache_emptied_; }
  bool cache_evicted_some() const { return cache_evicted_some_; }

 private:
  std::string PlayName(uint32_t index) const;
  AppFileSystem& fs_;
  Clock& clock_;
  VideoPlan plan_;
  uint32_t staged_streams_ = 0;
  double staged_s_ = 0;
  uint32_t probes_ = 0;
  std::string cache_note_;
  bool cache_emptied_ = false, cache_evicted_some_ = false;
};

// --find-max's search: doubling from 1 until a probe fails (or `limit`), then bisection
// between the last pass and the first failure. `probe` says whether n streams kept up; an
// error stops the search. Returns the most streams that passed (0: not even one).
struct StreamSearch {
  uint32_t max_streams = 0;
  std::vector<std::pair<uint32_t, bool>> probes;  // in the order run
};
Result<StreamSearch> SearchMaxStreams(uint32_t limit, const std::function<Result<bool>(uint32_t)>& probe);

// The figures of a probe: AppFigures (streams, chunk latency from intended start and from
// issue, max_streams when searched) and the read/write directions of a run. `whose`
// starts the note on the streams ("rank 1's own: " under mpirun, whose merge lists all).
void FillVideoRun(const VideoPlan& plan, const VideoProbe& probe, const std::string& target,
                  std::optional<uint32_t> max_streams, RunResult& run, const std::string& whose = "");

}  // namespace nasperf
