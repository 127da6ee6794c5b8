// A test engine that wraps any engine and records what the worker asked of it: every
// request's offset and direction, and the bytes of the first writes, so tests can check
// what was submitted (offsets, mix, write data) without strace. Test code: allocates.
#pragma once

#include <memory>
#include <mutex>
#include <vector>

#include "core/runner.h"
#include "engine/forwarding_engine.h"
#include "proto/engine_registry.h"

namespace nasperf::testing {

struct RecordedIo {
  uint64_t offset;
  IoDir dir;
  std::vector<std::byte> data;  // writes among the first `keep_write_data` only
};

// One list of requests per engine made (per worker thread and repeat), in the order made.
struct IoRecording {
  std::mutex mu;
  std::vector<std::vector<RecordedIo>> engines;
  size_t keep_write_data = 0;  // how many writes per engine keep their bytes
};

class RecordingEngine final : public ForwardingEngine {
 public:
  RecordingEngine(std::unique_ptr<Engine> inner, IoRecording* recording) : ForwardingEngine(std::move(inner)), rec_(recording) {
    std::lock_guard<std::mutex> lock(rec_->mu);
    index_ = rec_->engines.size();
    rec_->engines.emplace_back();
  }
  Status open(const EngineOpenParams& p) override {
    buffers_ = p.buffers;
    return ForwardingEngine::open(p);
  }
  Result<size_t> submit(std::span<const IoRequest> requests) override {
    std::lock_guard<std::mutex> lock(rec_->mu);
    std::vector<RecordedIo>& ios = rec_->engines[index_];
    for (const IoRequest& r : requests) {
      RecordedIo io{r.offset, r.dir, {}};
      if (r.dir == IoDir::kWrite && writes_kept_ < rec_->keep_write_data) {
        io.data.assign(buffers_[r.slot], buffers_[r.slot] + r.length);
        ++writes_kept_;
      }
      ios.push_back(std::move(io));
    }
    return ForwardingEngine::submit(requests);
  }

 private:
  IoRecording* rec_;
  size_t index_ = 0;
  size_t writes_kept_ = 0;
  std::span<std::byte*> buffers_;
};

// Hooks whose engines record into `recording`.
inline RunHooks RecordingHooks(IoRecording* recording) {
  RunHooks hooks;
  hooks.make_engine = [recording](const std::string& name) -> Result<std::unique_ptr<Engine>> {
    Result<std::unique_ptr<Engine>> inner = MakeEngine(name);
    if (!inner.ok()) return inner.status();
    return std::unique_ptr<Engine>(new RecordingEngine(std::move(inner).value(), recording));
  };
  return hooks;
}

}  // namespace nasperf::testing
