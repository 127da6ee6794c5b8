// ProgressLine: "\r"-rewritten status on a terminal; silent otherwise.
#include "cli/progress.h"

#include <unistd.h>

#include <cstdio>

namespace nasperf {

ProgressLine::ProgressLine(bool wanted)
    : enabled_(wanted && ::isatty(STDOUT_FILENO) && ::isatty(STDERR_FILENO)) {}

void ProgressLine::ShowLabel(const std::string& detail) {
  if (!enabled_) return;
  std::fprintf(stderr, "\r\033[K%s%s%s", label_.c_str(), detail.empty() ? "" : " — ", detail.c_str());
  std::fflush(stderr);
  shown_ = true;
}

void ProgressLine::Show(const Sample& s) {
  if (!enabled_) return;
  std::fprintf(stderr, "\r\033[K%s%s%.0f s: read %.1f MB/s, write %.1f MB/s", label_.c_str(),
               label_.empty() ? "" : " ", s.t_s, s.read_mb_per_s, s.write_mb_per_s);
  std::fflush(stderr);
  shown_ = true;
}

void ProgressLine::Clear() {
  if (enabled_ && shown_) std::fprintf(stderr, "\r\033[K");
  shown_ = false;
}

}  // namespace nasperf
