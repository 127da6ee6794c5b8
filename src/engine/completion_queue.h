// A fixed-capacity FIFO of completions for engines that finish I/O inside submit().
#pragma once

#include <span>
#include <vector>

#include "nasperf/engine.h"

namespace nasperf {

class CompletionQueue {
 public:
  void Reserve(size_t capacity) { items_.assign(capacity, IoCompletion{}); }
  bool Full() const { return count_ == items_.size(); }
  void Push(IoCompletion c) {
    items_[(head_ + count_) % items_.size()] = c;
    ++count_;
  }
  size_t PopInto(std::span<IoCompletion> out) {
    size_t n = out.size() < count_ ? out.size() : count_;
    for (size_t i = 0; i < n; ++i) {
      out[i] = items_[head_];
      head_ = (head_ + 1) % items_.size();
    }
    count_ -= n;
    return n;
  }

 private:
  std::vector<IoCompletion> items_;
  size_t head_ = 0, count_ = 0;
};

}  // namespace nasperf
