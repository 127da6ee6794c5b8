// ErrnoStatus: the single constructor of errno-based errors.
#include "nasperf/status.h"

#include <cstring>

namespace nasperf {

Status ErrnoStatus(const std::string& what, const std::string& subject, int err, ErrorKind kind) {
  std::string message = what;
  if (!subject.empty()) message += " " + subject;
  message += ": ";
  message += std::strerror(err);
  switch (kind) {
    case ErrorKind::kBadInput: return Status::BadInput(std::move(message));
    case ErrorKind::kUnavailable: return Status::Unavailable(std::move(message));
    default: return Status::Io(std::move(message), err);
  }
}

}  // namespace nasperf
