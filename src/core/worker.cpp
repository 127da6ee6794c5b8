// The worker loop. Its shape — fill free slots, submit the batch, reap at least one —
// is liburing's prep/submit/reap and fio's queue/commit/getevents.
#include "core/worker.h"

#include <algorithm>
#include <vector>

#include "core/pacer.h"
#include "core/think_gate.h"
#include "core/verify_pass.h"
#include "base/clock.h"
#include "workload/io_shapes.h"
#include "workload/run_seed.h"

namespace nasperf {
namespace {

constexpr std::chrono::microseconds kReapTimeout{100000};  // bounds the reaction to Ctrl-C

Status CompletionError(const WorkerContext& ctx, IoDir dir, uint64_t offset, int64_t result, uint64_t expected) {
  const char* what = dir == IoDir::kRead ? "read" : "write";
  std::string where = std::string(what) + " of " + std::to_string(expected) + " B at offset " +
                      std::to_string(offset) + " on " + ctx.target_name;
  if (result < 0) return ErrnoStatus(where, "", static_cast<int>(-result));
  return Status::Io(where + ": short transfer of " + std::to_string(result) + " B");
}

// Ahead of the schedule or thinking, with nothing in flight: sleeps towards `until_ns`, at
// most one reap timeout at a time (Ctrl-C stays prompt) and never past the deadline.
void WaitForSchedule(const WorkerContext& ctx, uint64_t until_ns, uint64_t now_ns) {
  until_ns = std::min<uint64_t>(until_ns, now_ns + std::chrono::nanoseconds(kReapTimeout).count());
  if (ctx.deadline_ns) until_ns = std::min(until_ns, ctx.deadline_ns);
  if (until_ns <= now_ns) return;
  if (ctx.clock) ctx.clock->SleepNs(until_ns - now_ns);
  else PaceUntilNs(until_ns);
}

// Paced with I/Os in flight: wait for a completion no longer than to the next intended
// start (rounded up to the next microsecond), so the schedule is kept while reaping.
std::chrono::microseconds ReapTimeoutUntil(uint64_t until_ns, uint64_t now_ns) {
  if (until_ns <= now_ns) return std::chrono::microseconds(0);
  return std::min(kReapTimeout, std::chrono::microseconds((until_ns - now_ns + 999) / 1000));
}

// The loop itself, on the clock `now` reads: MonotonicNs() inlined in a real run, the
// runner's Clock in a test (RunWorker picks). One clock for every decision and every
// latency: the ramp, the deadline and each I/O's time all read the same one.
// `Shapes` is workload/io_shapes.h's FixedIoShapes (one size, today's offsets) or
// MixedIoShapes (size mixes, % random, distributions): chosen once, so a plain job pays
// nothing per I/O for what it does not use.
template <typename Now, typename Shapes>
void RunLoop(const WorkerContext& ctx, Engine& engine, const WorkerFile& file, BufferPool& buffers,
             WorkerProgress& progress, WorkerOutput& out, Now now_ns, Shapes shapes) {
  const JobSpec& job = *ctx.job;
  // A synchronous engine cannot have more than one I/O in flight; pretending otherwise
  // would only inflate the latency of every I/O after the first in a batch.
  const uint32_t depth = engine.caps().asynchronous ? job.qd : 1;
  const bool mixed = DoesReads(job.rw) && DoesWrites(job.rw);
  const IoDir only_dir = DoesReads(job.rw) ? IoDir::kRead : IoDir::kWrite;
  const uint32_t fixed_length = shapes.fixed_bytes();

  FastRandom mix_random(StreamSeed(ctx.run_seed, SeedStream::kMix, ctx.index));
  // The thread's index in the top bits keeps every thread's stamps apart.
  const uint64_t sequence_base = static_cast<uint64_t>(ctx.index) << 44;

  // Everything the loop touches is allocated here, once.
  std::vector<uint32_t> free_slots(depth);
  for (uint32_t i = 0; i < depth; ++i) free_slots[i] = depth - 1 - i;
  uint32_t free_count = depth;
  std::vector<uint64_t> submit_ns(depth), slot_offset(depth);
  std::vector<IoDir> slot_dir(depth);
  std::vector<uint32_t> slot_length(Shapes::kMixed ? depth : 0);
  std::vector<uint8_t> slot_size(Shapes::kMixed ? depth : 0);
  if constexpr (Shapes::kMixed) out.per_size.resize(PlanBlockSizes(job).sizes.size());
  std::vector<IoRequest> batch(depth);
  std::vector<IoCompletion> done(depth);

  uint64_t issued = 0;
  uint32_t inflight = 0;
  bool stopping = false;
  out.end_ns = now_ns();

  // Jobs with a rate: each I/O's intended start (core/pacer.h), which its latency is timed
  // from; the others time it from the submit. A ramp runs on a schedule of its own from
  // the loop's start; the measured schedule starts afresh when measuring starts, so what
  // the ramp fell behind by is not issued at once into the measured window.
  const bool scheduled = job.pacing.scheduled();
  Pacer pacer = scheduled ? Pacer(job.pacing, job.threads, out.end_ns) : Pacer();
  bool ramp_schedule = scheduled && ctx.measure_start_ns > out.end_ns;
  std::vector<uint64_t> intended_ns(scheduled ? depth : 0);
  const uint64_t* started_ns = scheduled ? intended_ns.data() : submit_ns.data();
  // Think time: the closed loop of core/think_gate.h, beside the schedule or alone.
  ThinkGate think(job.pacing);
  // Paced either way: the loop reads the clock before it fills, and the window given
  // ends at the deadline even when the thread sat idle at its end.
  const bool paced = scheduled || think.active();

  while (true) {
    if (!stopping && ctx.stop->requested()) {
      stopping = true;
      // A paced worker may be idle when told to stop: its window ran until now.
      if (paced) out.end_ns = std::max(out.end_ns, now_ns());
    }

    uint32_t n = 0;
    uint64_t wait_until_ns = 0;  // the next intended start or the end of a think, still ahead
    const uint64_t fill_now = paced ? now_ns() : 0;
    if (ramp_schedule && fill_now >= ctx.measure_start_ns) {
      pacer = Pacer(job.pacing, job.threads, ctx.measure_start_ns);
      ramp_schedule = false;
    }
    if (think.active()) think.Reaped(inflight, fill_now);
    while (!stopping && free_count > 0) {
      // Before the draw: an I/O drawn and then held back would be lost.
      if (!think.may_issue(fill_now)) {
        wait_until_ns = think.resume_ns();  // 0 while the burst drains: the reap waits
        break;
      }
      const uint64_t due_ns = scheduled ? pacer.due_ns() : 0;
      if (due_ns > fill_now) {
        wait_until_ns = due_ns;
        break;
      }
      IoDir dir = mixed ? (mix_random.Below(100) < static_cast<uint64_t>(job.read_mix_pct) ? IoDir::kRead : IoDir::kWrite)
                        : only_dir;
      IoShape io;
      if (!shapes.Next(dir, io)) break;  // a size-bound pass is over
      uint32_t slot = free_slots[--free_count];
      const uint64_t offset = io.offset;
      if (dir == IoDir::kWrite) {
        if (ctx.verify_seed) {  // verify runs one block size (refused with a mix)
          FillVerifyData(buffers.slot(slot), io.bytes, offset, ctx.verify_seed);
          ctx.written->Mark((offset - file.base_offset) / job.bs);
        } else {
          buffers.StampForWrite(slot, offset, ctx.run_seed, sequence_base + issued, io.bytes);
        }
      }
      slot_dir[slot] = dir;
      slot_offset[slot] = offset;
      if constexpr (Shapes::kMixed) {
        slot_length[slot] = io.bytes;
        slot_size[slot] = io.size_index;
      }
      batch[n++] = IoRequest{offset, io.bytes, dir, slot};
      ++issued;
      if (scheduled) {
        intended_ns[slot] = due_ns;
        pacer.Issued(io.bytes);
      }
      think.Issued();
    }
    // Waits end no later than the measured schedule's start and the deadline: the first
    // measured I/O is due at the one, and the window given ends at the other.
    if (wait_until_ns && ramp_schedule) wait_until_ns = std::min(wait_until_ns, ctx.measure_start_ns);
    if (wait_until_ns && ctx.deadline_ns) wait_until_ns = std::min(wait_until_ns, ctx.deadline_ns);
    if (n > 0) {
      uint64_t now = now_ns();
      for (uint32_t i = 0; i < n; ++i) submit_ns[batch[i].slot] = now;
      Result<size_t> accepted = engine.submit(std::span<const IoRequest>(batch.data(), n));
      if (!accepted.ok() || accepted.value() != n) {
        out.error = accepted.ok() ? Status::Io(std::string(engine.name()) + " engine refused queued I/O")
                                  : accepted.status();
        ctx.stop->Abort();
        break;  // unaccepted requests never reach the device; accepted ones are drained by close()
      }
      inflight += n;
    }
    if (inflight == 0) {
      if (wait_until_ns == 0) break;
      WaitForSchedule(ctx, wait_until_ns, fill_now);
      if (ctx.deadline_ns && now_ns() >= ctx.deadline_ns) {
        stopping = true;
        // Idle on schedule until the deadline: the window given ends there, not at the
        // last completion (which would count the I/Os over less time than they had).
        out.end_ns = std::max(out.end_ns, ctx.deadline_ns);
      }
      continue;
    }

    Result<size_t> reaped =
        engine.reap(std::span<IoCompletion>(done.data(), depth), 1,
                    wait_until_ns ? ReapTimeoutUntil(wait_until_ns, now_ns()) : kReapTimeout);
    if (!reaped.ok()) {
      out.error = reaped.status();
      ctx.stop->Abort();
      break;
    }
    uint64_t now = now_ns();
    for (size_t i = 0; i < reaped.value(); ++i) {
      const IoCompletion& c = done[i];
      const IoDir dir = slot_dir[c.slot];
      const uint32_t length = Shapes::kMixed ? slot_length[c.slot] : fixed_length;
      free_slots[free_count++] = c.slot;
      --inflight;
      if (c.result != static_cast<int64_t>(length)) {
        ++out.errors;
        if (out.error.ok()) out.error = CompletionError(ctx, dir, slot_offset[c.slot], c.result, length);
        stopping = true;
        ctx.stop->Abort();
        continue;
      }
      // The ramp: completed before measuring began or, scheduled, due on the ramp's schedule.
      if (now < ctx.measure_start_ns || (scheduled && intended_ns[c.slot] < ctx.measure_start_ns)) continue;
      // Scheduled: from the intended start (what the user waited); else from the submit.
      const uint64_t latency_ns = now - started_ns[c.slot];
      if (dir == IoDir::kRead) {
        out.read_latency.Record(latency_ns);
        out.read_bytes += length;
        ++out.read_ios;
      } else {
        out.write_latency.Record(latency_ns);
        out.write_bytes += length;
        ++out.write_ios;
      }
      if (scheduled) (dir == IoDir::kRead ? out.read_service : out.write_service)->Record(now - submit_ns[c.slot]);
      if constexpr (Shapes::kMixed) out.per_size[slot_size[c.slot]].Record(dir, length, latency_ns);
    }
    if (reaped.value() > 0) {
      out.end_ns = now;
      progress.read_bytes.store(out.read_bytes, std::memory_order_relaxed);
      progress.write_bytes.store(out.write_bytes, std::memory_order_relaxed);
      progress.ios.store(out.read_ios + out.write_ios, std::memory_order_relaxed);
    }
    if (ctx.deadline_ns && now >= ctx.deadline_ns) {
      stopping = true;
      if (paced) out.end_ns = std::max(out.end_ns, ctx.deadline_ns);
    }
  }

  // Writes are not done until they are durable: the fsync belongs inside the clock, however
  // the run ended normally (deadline, size, steady state, stonewall); an abort skips it.
  if (job.fsync && DoesWrites(job.rw) && out.error.ok() && !ctx.stop->aborted()) {
    if (Status s = engine.sync(); !s.ok()) {
      out.error = s;
      ctx.stop->Abort();
    }
    out.end_ns = now_ns();
  }

  // After the clock: a failed or interrupted run has nothing trustworthy to check.
  if (ctx.verify_seed && out.error.ok() && !ctx.stop->aborted()) {
    if (Status s = VerifyWrittenBlocks(ctx, engine, file, buffers, depth, out.verified_bytes); !s.ok()) {
      out.error = s;
      ctx.stop->Abort();
    }
  }
}

template <typename Shapes>
void RunWithClock(const WorkerContext& ctx, Engine& engine, const WorkerFile& file, BufferPool& buffers,
                  WorkerProgress& progress, WorkerOutput& out, Shapes shapes) {
  // A virtual call per I/O would cost on the hot path: a real run reads the vDSO directly.
  if (ctx.clock == nullptr) {
    RunLoop(ctx, engine, file, buffers, progress, out, [] { return MonotonicNs(); }, std::move(shapes));
  } else {
    Clock* clock = ctx.clock;
    RunLoop(ctx, engine, file, buffers, progress, out, [clock] { return clock->NowNs(); }, std::move(shapes));
  }
}

}  // namespace

void RunWorker(const WorkerContext& ctx, Engine& engine, const WorkerFile& file, BufferPool& buffers,
               WorkerProgress& progress, WorkerOutput& out) {
  const JobSpec& job = *ctx.job;
  const IoRegion region{file.base_offset, file.region_bytes, StreamSeed(ctx.run_seed, SeedStream::kOffsets, ctx.index),
                        StreamSeed(ctx.run_seed, SeedStream::kSizes, ctx.index),
                        StreamSeed(ctx.run_seed, SeedStream::kJumps, ctx.index)};
  if (UsesFixedShapes(job)) {
    RunWithClock(ctx, engine, file, buffers, progress, out, FixedIoShapes(job, region));
  } else {
    RunWithClock(ctx, engine, file, buffers, progress, out, MixedIoShapes(job, region));
  }
}

}  // namespace nasperf
