// The pacing core of `nasperf app video`: the schedule, the two latencies and the buffer model.
#include "suite/app/video_pacing.h"

#include "base/signals.h"

namespace nasperf {

void ScoreChunk(const PacingPlan& plan, uint64_t intended_ns, uint64_t done_ns, PacingOutcome& out) {
  // The player plays this chunk buffer_ns after its intended start, later by every pause
  // so far; done after that, the buffer was empty and playback waits for it.
  const uint64_t needed_ns = intended_ns + plan.buffer_ns + out.stall_ns;
  if (done_ns > needed_ns) {
    ++out.deadline_misses;
    out.stall_ns += done_ns - needed_ns;
  }
}

void RunPacedStream(Clock& clock, uint64_t start_ns, const PacingPlan& plan, ChunkIo& io, const std::atomic<bool>* stop,
                    PacingOutcome& out) {
  uint64_t end_ns = start_ns;
  for (uint64_t k = 0; k < plan.chunks; ++k) {
    if (InterruptRequested()) {
      out.status = Status::Interrupted();
      break;
    }
    if (stop && stop->load(std::memory_order_relaxed)) break;
    const uint64_t intended_ns = start_ns + plan.IntendedStartNs(k);
    uint64_t issue_ns = clock.NowNs();
    if (issue_ns < intended_ns) {
      clock.SleepNs(intended_ns - issue_ns);
      issue_ns = clock.NowNs();
    }
    Status s = io.Transfer(k);
    const uint64_t done_ns = clock.NowNs();
    end_ns = done_ns;
    if (!s.ok()) {
      out.status = s;
      break;
    }
    out.latency->Record(done_ns - intended_ns);
    out.service->Record(done_ns - issue_ns);
    ScoreChunk(plan, intended_ns - start_ns, done_ns - start_ns, out);
    ++out.chunks_done;
  }
  out.elapsed_ns = end_ns - start_ns;
}

}  // namespace nasperf
