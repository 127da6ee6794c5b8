// A live progress line on stderr, shown only when stdout and stderr are both terminals:
// output redirected to a file or a pipe gets none of it.
#pragma once

#include <string>

#include "nasperf/result.h"
#include "suite/run_sink.h"

namespace nasperf {

class ProgressLine final : public SuiteProgress {
 public:
  explicit ProgressLine(bool wanted);
  void SetLabel(std::string label) override { label_ = std::move(label); }
  void Show(const Sample& sample) override;
  // The label alone, with `detail` after it (for steps too short to have samples).
  void ShowLabel(const std::string& detail) override;
  void Clear() override;

 private:
  bool enabled_;
  bool shown_ = false;
  std::string label_;
};

}  // namespace nasperf
