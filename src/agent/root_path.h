// Root confinement: every path a client names is resolved beneath the agent's --root.
#pragma once

#include <string>

#include "nasperf/status.h"
#include "platform/scoped_fd.h"

namespace nasperf {

class RootDir {
 public:
  // Opens `path` (must be a directory); BadInput naming it otherwise.
  static Result<RootDir> Open(const std::string& path);

  // A client's relative directory ("" or "." is the root itself) to the absolute real
  // path of that directory, resolved by the kernel beneath the root (openat2 with
  // RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS): absolute paths, ".." components and
  // symlinks leading out are refused with BadInput naming the path. Thread-safe.
  // The answer is a path string because targets open by path; a symlink swapped in
  // after this check could still redirect it, which only the agent's own user can do.
  Result<std::string> Resolve(const std::string& relative) const;

  const std::string& real_path() const { return real_path_; }

 private:
  RootDir(ScopedFd fd, std::string real_path) : fd_(std::move(fd)), real_path_(std::move(real_path)) {}
  ScopedFd fd_;
  std::string real_path_;
};

}  // namespace nasperf
