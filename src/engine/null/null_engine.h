// null: completes every I/O at once without touching storage; measures nasperf itself.
#pragma once

#include "engine/completion_queue.h"
#include "nasperf/engine.h"

namespace nasperf {

class NullEngine final : public Engine {
 public:
  const char* name() const override { return "null"; }
  EngineCaps caps() const override { return {.asynchronous = true, .fixed_buffers = false}; }
  Status open(const EngineOpenParams& params) override {
    done_.Reserve(params.queue_depth);
    return Status::Ok();
  }
  Result<size_t> submit(std::span<const IoRequest> requests) override {
    size_t accepted = 0;
    for (const IoRequest& r : requests) {
      if (done_.Full()) break;
      done_.Push({r.slot, static_cast<int64_t>(r.length)});
      ++accepted;
    }
    return accepted;
  }
  Result<size_t> reap(std::span<IoCompletion> out, size_t, std::chrono::microseconds) override {
    return done_.PopInto(out);
  }
  Status sync() override { return Status::Ok(); }
  void close() override {}

 private:
  CompletionQueue done_;
};

}  // namespace nasperf
