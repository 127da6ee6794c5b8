// The completions a test engine has ready, handed to reap() in order: the one FIFO the
// fake engines of the runner, pacing and sync tests share.
#pragma once

#include <algorithm>
#include <deque>
#include <span>

#include "nasperf/engine.h"

namespace nasperf::testing {

// Moves up to out.size() completions from the front of `ready` into `out`; how many.
inline size_t TakeReady(std::deque<IoCompletion>& ready, std::span<IoCompletion> out) {
  const size_t n = std::min(out.size(), ready.size());
  for (size_t i = 0; i < n; ++i) {
    out[i] = ready.front();
    ready.pop_front();
  }
  return n;
}

}  // namespace nasperf::testing
