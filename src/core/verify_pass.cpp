// The read-back loop: the worker loop's shape (fill free slots, submit, reap), reads only.
#include "core/verify_pass.h"

#include <vector>

#include "base/units.h"

namespace nasperf {
namespace {

constexpr std::chrono::microseconds kReapTimeout{100000};  // bounds the reaction to Ctrl-C

}  // namespace

Status VerifyWrittenBlocks(const WorkerContext& ctx, Engine& engine, const WorkerFile& file, BufferPool& buffers,
                           uint32_t depth, uint64_t& verified_bytes) {
  const uint64_t bs = ctx.job->bs;
  const uint32_t length = static_cast<uint32_t>(bs);
  const WrittenBlocks& written = *ctx.written;
  std::vector<uint32_t> free_slots(depth);
  for (uint32_t i = 0; i < depth; ++i) free_slots[i] = depth - 1 - i;
  uint32_t free_count = depth, inflight = 0;
  std::vector<uint64_t> slot_offset(depth);
  std::vector<IoRequest> batch(depth);
  std::vector<IoCompletion> done(depth);
  uint64_t next_block = 0;

  auto where = [&](uint64_t offset) {
    return "verify: " + FormatSize(bs) + " block at offset " + std::to_string(offset) + " on " + ctx.target_name;
  };
  while (true) {
    const bool stopping = ctx.stop->aborted();  // a normal stop is what let this pass begin
    uint32_t n = 0;
    while (!stopping && free_count > 0 && next_block < written.blocks()) {
      if (!written.Written(next_block)) {
        ++next_block;
        continue;
      }
      const uint32_t slot = free_slots[--free_count];
      const uint64_t offset = file.base_offset + next_block++ * bs;
      slot_offset[slot] = offset;
      batch[n++] = IoRequest{offset, length, IoDir::kRead, slot};
    }
    if (n > 0) {
      Result<size_t> accepted = engine.submit(std::span<const IoRequest>(batch.data(), n));
      if (!accepted.ok()) return accepted.status();
      if (accepted.value() != n) return Status::Io(std::string(engine.name()) + " engine refused queued reads");
      inflight += n;
    }
    if (inflight == 0) return Status::Ok();
    Result<size_t> reaped = engine.reap(std::span<IoCompletion>(done.data(), depth), 1, kReapTimeout);
    if (!reaped.ok()) return reaped.status();
    for (size_t i = 0; i < reaped.value(); ++i) {
      const IoCompletion& c = done[i];
      const uint64_t offset = slot_offset[c.slot];
      free_slots[free_count++] = c.slot;
      --inflight;
      if (c.result < 0) return ErrnoStatus(where(offset) + ": read back", "", static_cast<int>(-c.result));
      if (c.result != static_cast<int64_t>(length))
        return Status::Io(where(offset) + ": read back " + std::to_string(c.result) + " B of " +
                          std::to_string(length));
      if (std::optional<uint64_t> bad = FirstMismatch(buffers.slot(c.slot), length, offset, ctx.verify_seed))
        return Status::Io(where(offset) + ": the 8 bytes at offset " + std::to_string(*bad) +
                          " are not what this run wrote there (data corrupted, misplaced or never written)");
      verified_bytes += length;
    }
  }
}

}  // namespace nasperf
