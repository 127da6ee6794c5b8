// A live progress line on stderr, shown only when stderr is a terminal.
#pragma once

#include <string>

#include "nasperf/result.h"

namespace nasperf {

class ProgressLine {
 public:
  explicit ProgressLine(bool wanted);
  void SetLabel(std::string label) { label_ = std::move(label); }
  void Show(const Sample& sample);
  void Clear();

 private:
  bool enabled_;
  bool shown_ = false;
  std::string label_;
};

}  // namespace nasperf
