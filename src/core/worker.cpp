// The worker loop. Its shape — fill free slots, submit the batch, reap at least one —
// is liburing's prep/submit/reap and fio's queue/commit/getevents.
#include "core/worker.h"

#include <vector>

#include "core/verify_pass.h"
#include "base/clock.h"
#include "workload/offsets.h"
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

}  // namespace

void RunWorker(const WorkerContext& ctx, Engine& engine, const WorkerFile& file, BufferPool& buffers,
               WorkerProgress& progress, WorkerOutput& out) {
  const JobSpec& job = *ctx.job;
  // A synchronous engine cannot have more than one I/O in flight; pretending otherwise
  // would only inflate the latency of every I/O after the first in a batch.
  const uint32_t depth = engine.caps().asynchronous ? job.qd : 1;
  const bool mixed = DoesReads(job.rw) && DoesWrites(job.rw);
  const IoDir only_dir = DoesReads(job.rw) ? IoDir::kRead : IoDir::kWrite;
  const uint32_t length = static_cast<uint32_t>(job.bs);

  OffsetGenerator offsets(IsRandom(job.rw), file.base_offset, file.region_bytes, job.bs,
                          StreamSeed(ctx.run_seed, SeedStream::kOffsets, ctx.index));
  FastRandom mix_random(StreamSeed(ctx.run_seed, SeedStream::kMix, ctx.index));
  // The thread's index in the top bits keeps every thread's stamps apart.
  const uint64_t sequence_base = static_cast<uint64_t>(ctx.index) << 44;
  const uint64_t to_issue = job.time_based ? UINT64_MAX : offsets.blocks();

  // Everything the loop touches is allocated here, once.
  std::vector<uint32_t> free_slots(depth);
  for (uint32_t i = 0; i < depth; ++i) free_slots[i] = depth - 1 - i;
  uint32_t free_count = depth;
  std::vector<uint64_t> submit_ns(depth), slot_offset(depth);
  std::vector<IoDir> slot_dir(depth);
  std::vector<IoRequest> batch(depth);
  std::vector<IoCompletion> done(depth);

  uint64_t issued = 0;
  uint32_t inflight = 0;
  bool stopping = false;
  out.end_ns = MonotonicNs();

  while (true) {
    if (!stopping && ctx.stop->load(std::memory_order_relaxed)) stopping = true;

    uint32_t n = 0;
    while (!stopping && free_count > 0 && issued < to_issue) {
      uint32_t slot = free_slots[--free_count];
      IoDir dir = mixed ? (mix_random.Below(100) < static_cast<uint64_t>(job.read_mix_pct) ? IoDir::kRead : IoDir::kWrite)
                        : only_dir;
      uint64_t offset = offsets.Next();
      if (dir == IoDir::kWrite) {
        if (ctx.verify_seed) {
          FillVerifyData(buffers.slot(slot), length, offset, ctx.verify_seed);
          ctx.written->Mark((offset - file.base_offset) / job.bs);
        } else {
          buffers.StampForWrite(slot, offset, ctx.run_seed, sequence_base + issued);
        }
      }
      slot_dir[slot] = dir;
      slot_offset[slot] = offset;
      batch[n++] = IoRequest{offset, length, dir, slot};
      ++issued;
    }
    if (n > 0) {
      uint64_t now = MonotonicNs();
      for (uint32_t i = 0; i < n; ++i) submit_ns[batch[i].slot] = now;
      Result<size_t> accepted = engine.submit(std::span<const IoRequest>(batch.data(), n));
      if (!accepted.ok() || accepted.value() != n) {
        out.error = accepted.ok() ? Status::Io(std::string(engine.name()) + " engine refused queued I/O")
                                  : accepted.status();
        ctx.stop->store(true, std::memory_order_relaxed);
        break;  // unaccepted requests never reach the device; accepted ones are drained by close()
      }
      inflight += n;
    }
    if (inflight == 0) break;

    Result<size_t> reaped = engine.reap(std::span<IoCompletion>(done.data(), depth), 1, kReapTimeout);
    if (!reaped.ok()) {
      out.error = reaped.status();
      ctx.stop->store(true, std::memory_order_relaxed);
      break;
    }
    uint64_t now = MonotonicNs();
    for (size_t i = 0; i < reaped.value(); ++i) {
      const IoCompletion& c = done[i];
      const IoDir dir = slot_dir[c.slot];
      free_slots[free_count++] = c.slot;
      --inflight;
      if (c.result != static_cast<int64_t>(length)) {
        ++out.errors;
        if (out.error.ok()) out.error = CompletionError(ctx, dir, slot_offset[c.slot], c.result, length);
        stopping = true;
        ctx.stop->store(true, std::memory_order_relaxed);
        continue;
      }
      if (now < ctx.measure_start_ns) continue;  // ramp
      if (dir == IoDir::kRead) {
        out.read_latency.Record(now - submit_ns[c.slot]);
        out.read_bytes += length;
        ++out.read_ios;
      } else {
        out.write_latency.Record(now - submit_ns[c.slot]);
        out.write_bytes += length;
        ++out.write_ios;
      }
    }
    if (reaped.value() > 0) {
      out.end_ns = now;
      progress.read_bytes.store(out.read_bytes, std::memory_order_relaxed);
      progress.write_bytes.store(out.write_bytes, std::memory_order_relaxed);
    }
    if (ctx.deadline_ns && now >= ctx.deadline_ns) stopping = true;
  }

  // Writes are not done until they are durable: the fsync belongs inside the clock.
  if (job.fsync && DoesWrites(job.rw) && out.error.ok() && !ctx.stop->load(std::memory_order_relaxed)) {
    if (Status s = engine.sync(); !s.ok()) {
      out.error = s;
      ctx.stop->store(true, std::memory_order_relaxed);
    }
    out.end_ns = MonotonicNs();
  }

  // After the clock: a failed or interrupted run has nothing trustworthy to check.
  if (ctx.verify_seed && out.error.ok() && !ctx.stop->load(std::memory_order_relaxed)) {
    if (Status s = VerifyWrittenBlocks(ctx, engine, file, buffers, depth, out.verified_bytes); !s.ok()) {
      out.error = s;
      ctx.stop->store(true, std::memory_order_relaxed);
    }
  }
}

}  // namespace nasperf
