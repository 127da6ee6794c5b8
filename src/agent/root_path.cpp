// Resolving client paths beneath the agent's root with openat2(RESOLVE_BENEATH).
#include "agent/root_path.h"

#include <fcntl.h>
#include <linux/openat2.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstring>
#include <vector>

namespace nasperf {
namespace {

constexpr int kDirFlags = O_RDONLY | O_DIRECTORY | O_CLOEXEC;

Result<std::string> RealPathOfFd(int fd, const std::string& what) {
  char buf[PATH_MAX];
  std::string link = "/proc/self/fd/" + std::to_string(fd);
  ssize_t n = ::readlink(link.c_str(), buf, sizeof buf - 1);
  if (n < 0) return ErrnoStatus("resolve", what, errno);
  return std::string(buf, static_cast<size_t>(n));
}

std::vector<std::string> Components(const std::string& path) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= path.size()) {
    size_t end = path.find('/', start);
    if (end == std::string::npos) end = path.size();
    out.push_back(path.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

bool HasDotDot(const std::string& path) {
  for (const std::string& c : Components(path))
    if (c == "..") return true;
  return false;
}

Status RefusalFor(const std::string& rel, int err) {
  if (err == ELOOP) return Status::BadInput("path " + rel + ": a symlink is refused (name the real directory)");
  if (err == EXDEV) return Status::BadInput("path " + rel + ": leads out of --root (symlink)");
  if (err == ENOTDIR) return Status::BadInput("path " + rel + ": not a directory");
  return ErrnoStatus("path", rel, err, ErrorKind::kBadInput);
}

// Kernels before 5.6 have no openat2: one component at a time from the root's fd, each
// opened O_NOFOLLOW, so no symlink is ever followed and ".." was refused before.
Result<ScopedFd> WalkNoFollow(int root_fd, const std::string& rel) {
  ScopedFd dir(::openat(root_fd, ".", kDirFlags));
  if (!dir.valid()) return RefusalFor(rel, errno);
  for (const std::string& c : Components(rel)) {
    if (c.empty() || c == ".") continue;
    ScopedFd next(::openat(dir.get(), c.c_str(), kDirFlags | O_NOFOLLOW));
    if (!next.valid()) return RefusalFor(rel, errno);
    dir = std::move(next);
  }
  return dir;
}

}  // namespace

Result<RootDir> RootDir::Open(const std::string& path) {
  ScopedFd fd(::open(path.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
  if (!fd.valid()) return ErrnoStatus("--root", path, errno, ErrorKind::kBadInput);
  Result<std::string> real = RealPathOfFd(fd.get(), path);
  if (!real.ok()) return Status::BadInput(real.status().message());
  return RootDir(std::move(fd), std::move(real).value());
}

Result<ResolvedDir> RootDir::Resolve(const std::string& relative) const {
  const std::string rel = relative.empty() ? "." : relative;
  if (rel.find('\0') != std::string::npos) return Status::BadInput("path: contains a NUL byte");
  if (rel.size() > PATH_MAX) return Status::BadInput("path: longer than " + std::to_string(PATH_MAX) + " bytes");
  if (rel.front() == '/') return Status::BadInput("path " + rel + ": absolute paths are refused (relative to --root)");
  if (HasDotDot(rel)) return Status::BadInput("path " + rel + ": '..' is refused (paths stay inside --root)");
  open_how how{};
  how.flags = kDirFlags;
  how.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS;
  long rc = -1;
  int err = 0;
  // EAGAIN: a rename elsewhere raced the lookup; the kernel asks to try again.
  for (int attempt = 0; attempt < 16; ++attempt) {
    rc = ::syscall(SYS_openat2, fd_.get(), rel.c_str(), &how, sizeof how);
    err = rc < 0 ? errno : 0;
    if (rc >= 0 || err != EAGAIN) break;
  }
  ScopedFd dir;
  if (rc >= 0) {
    dir = ScopedFd(static_cast<int>(rc));
  } else if (err == ENOSYS) {
    Result<ScopedFd> walked = WalkNoFollow(fd_.get(), rel);
    if (!walked.ok()) return walked.status();
    dir = std::move(walked).value();
  } else {
    return RefusalFor(rel, err);
  }
  Result<std::string> real = RealPathOfFd(dir.get(), rel);
  if (!real.ok()) return real.status();
  return ResolvedDir{std::move(dir), std::move(real).value()};
}

}  // namespace nasperf
