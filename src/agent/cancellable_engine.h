// An engine wrapper that fails the next batch once a stop flag is set: how the agent
// cancels a job the runner is running, since the runner's own stop flag is private to it.
// One relaxed atomic load per batch; nothing per I/O.
#pragma once

#include <atomic>
#include <memory>

#include "nasperf/engine.h"

namespace nasperf {

class CancellableEngine final : public Engine {
 public:
  CancellableEngine(std::unique_ptr<Engine> inner, const std::atomic<bool>& cancel)
      : inner_(std::move(inner)), cancel_(cancel) {}
  const char* name() const override { return inner_->name(); }
  EngineCaps caps() const override { return inner_->caps(); }
  Status open(const EngineOpenParams& params) override { return inner_->open(params); }
  Result<size_t> submit(std::span<const IoRequest> requests) override {
    if (cancel_.load(std::memory_order_relaxed)) return Status::Io("cancelled: the client went away or asked to stop");
    return inner_->submit(requests);
  }
  Result<size_t> reap(std::span<IoCompletion> out, size_t min_complete, std::chrono::microseconds timeout) override {
    return inner_->reap(out, min_complete, timeout);
  }
  Status sync() override { return inner_->sync(); }
  void close() override { inner_->close(); }

 private:
  std::unique_ptr<Engine> inner_;
  const std::atomic<bool>& cancel_;
};

}  // namespace nasperf
