// ForwardingEngine: an engine that hands every call to the engine it wraps. Wrappers
// (fault injection, cancellation, test recording) derive from it and override only the
// calls they change, so each says in a few lines what it adds.
#pragma once

#include <memory>

#include "nasperf/engine.h"

namespace nasperf {

class ForwardingEngine : public Engine {
 public:
  explicit ForwardingEngine(std::unique_ptr<Engine> inner) : inner_(std::move(inner)) {}
  const char* name() const override { return inner_->name(); }
  EngineCaps caps() const override { return inner_->caps(); }
  Status open(const EngineOpenParams& params) override { return inner_->open(params); }
  Result<size_t> submit(std::span<const IoRequest> requests) override { return inner_->submit(requests); }
  Result<size_t> reap(std::span<IoCompletion> out, size_t min_complete, std::chrono::microseconds timeout) override {
    return inner_->reap(out, min_complete, timeout);
  }
  Status sync() override { return inner_->sync(); }
  void close() override { inner_->close(); }

 private:
  std::unique_ptr<Engine> inner_;
};

}  // namespace nasperf
