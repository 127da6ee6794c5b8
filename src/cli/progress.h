// A live progress line on stderr, shown only when stdout and stderr are both terminals:
// output redirected to a file or a pipe gets none of it.
#pragma once

#include <string>

#include "nasperf/result.h"

namespace nasperf {

class ProgressLine {
 public:
  explicit ProgressLine(bool wanted);
  void SetLabel(std::string label) { label_ = std::move(label); }
  void Show(const Sample& sample);
  // The label alone, with `detail` after it (for steps too short to have samples).
  void ShowLabel(const std::string& detail);
  void Clear();

 private:
  bool enabled_;
  bool shown_ = false;
  std::string label_;
};

}  // namespace nasperf
