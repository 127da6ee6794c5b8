// An engine wrapper that fails the next batch once a stop flag is set: how the agent
// cancels a job the runner is running, since the runner's own stop flag is private to it.
// One relaxed atomic load per batch; nothing per I/O.
#pragma once

#include <atomic>
#include <memory>

#include "engine/forwarding_engine.h"

namespace nasperf {

class CancellableEngine final : public ForwardingEngine {
 public:
  CancellableEngine(std::unique_ptr<Engine> inner, const std::atomic<bool>& cancel)
      : ForwardingEngine(std::move(inner)), cancel_(cancel) {}
  Result<size_t> submit(std::span<const IoRequest> requests) override {
    if (cancel_.load(std::memory_order_relaxed)) return Status::Io("cancelled: the client went away or asked to stop");
    return ForwardingEngine::submit(requests);
  }

 private:
  const std::atomic<bool>& cancel_;
};

}  // namespace nasperf
