// A fixed-capacity FIFO of completions for engines that finish I/O inside submit().
#pragma once

#include <span>
#include <vector>

#include "nasperf/engine.h"

namespace nasperf {

class CompletionQueue {
 public:
  void Reserve(size_t capacity) {
    items_.assign(capacity, IoCompletion{});
    head_ = tail_ = count_ = 0;
  }
  bool Full() const { return count_ == items_.size(); }
  size_t size() const { return count_; }
  // Wrapping by comparison, not modulo: a division per I/O shows up at null-engine rates.
  void Push(IoCompletion c) {
    items_[tail_] = c;
    if (++tail_ == items_.size()) tail_ = 0;
    ++count_;
  }
  size_t PopInto(std::span<IoCompletion> out) {
    size_t n = out.size() < count_ ? out.size() : count_;
    for (size_t i = 0; i < n; ++i) {
      out[i] = items_[head_];
      if (++head_ == items_.size()) head_ = 0;
    }
    count_ -= n;
    return n;
  }

 private:
  std::vector<IoCompletion> items_;
  size_t head_ = 0, tail_ = 0, count_ = 0;
};

}  // namespace nasperf
