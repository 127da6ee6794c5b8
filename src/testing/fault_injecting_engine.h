// A test engine: FaultInjectingEngine wraps any engine and turns chosen completions into
// errors (-EIO, -ENOSPC) or short transfers, so the runner's failure paths can be tested
// without broken hardware. Test code only (it lives in the test toolbox, not in engine/).
#pragma once

#include <memory>

#include "engine/forwarding_engine.h"

namespace nasperf::testing {

struct FaultPlan {
  uint64_t fail_after_ios = UINT64_MAX;  // completions that pass before the first fault
  int64_t fault_result = -5;             // -EIO; a positive value means a short transfer
};

class FaultInjectingEngine final : public ForwardingEngine {
 public:
  FaultInjectingEngine(std::unique_ptr<Engine> inner, FaultPlan plan) : ForwardingEngine(std::move(inner)), plan_(plan) {}
  Result<size_t> reap(std::span<IoCompletion> out, size_t min_complete, std::chrono::microseconds timeout) override {
    Result<size_t> n = ForwardingEngine::reap(out, min_complete, timeout);
    if (!n.ok()) return n;
    for (size_t i = 0; i < n.value(); ++i)
      if (completed_++ >= plan_.fail_after_ios) out[i].result = plan_.fault_result;
    return n;
  }

 private:
  FaultPlan plan_;
  uint64_t completed_ = 0;
};

}  // namespace nasperf::testing
