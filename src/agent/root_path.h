// Root confinement: every path a client names is resolved beneath the agent's --root.
#pragma once

#include <string>

#include "nasperf/status.h"
#include "base/scoped_fd.h"

namespace nasperf {

// A directory resolved beneath the root. Files are created and removed relative to `fd`
// (openat/unlinkat), never by path: a symlink swapped in after the resolve cannot
// redirect them.
struct ResolvedDir {
  ScopedFd fd;            // O_RDONLY | O_DIRECTORY
  std::string real_path;  // where it was when resolved: for messages and inventory only
};

class RootDir {
 public:
  // Opens `path` (must be a directory; the administrator's --root may be a symlink);
  // BadInput naming it otherwise.
  static Result<RootDir> Open(const std::string& path);

  // A client's relative directory ("" or "." is the root itself), opened by the kernel
  // beneath the root with openat2(RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS |
  // RESOLVE_NO_MAGICLINKS), or on kernels before 5.6 by an O_NOFOLLOW walk from the
  // root's fd. Absolute paths, ".." components and every symlink (even one that stays
  // inside) are refused with BadInput naming the path. Thread-safe.
  Result<ResolvedDir> Resolve(const std::string& relative) const;

  const std::string& real_path() const { return real_path_; }

 private:
  RootDir(ScopedFd fd, std::string real_path) : fd_(std::move(fd)), real_path_(std::move(real_path)) {}
  ScopedFd fd_;
  std::string real_path_;
};

}  // namespace nasperf
