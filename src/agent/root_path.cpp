// Resolving client paths beneath the agent's root with openat2(RESOLVE_BENEATH).
#include "agent/root_path.h"

#include <fcntl.h>
#include <linux/openat2.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>

namespace nasperf {
namespace {

Result<std::string> RealPathOfFd(int fd, const std::string& what) {
  char buf[PATH_MAX];
  std::string link = "/proc/self/fd/" + std::to_string(fd);
  ssize_t n = ::readlink(link.c_str(), buf, sizeof buf - 1);
  if (n < 0) return ErrnoStatus("resolve", what, errno);
  return std::string(buf, static_cast<size_t>(n));
}

bool HasDotDot(const std::string& path) {
  size_t start = 0;
  while (start <= path.size()) {
    size_t end = path.find('/', start);
    if (end == std::string::npos) end = path.size();
    if (path.compare(start, end - start, "..") == 0 && end - start == 2) return true;
    start = end + 1;
  }
  return false;
}

}  // namespace

Result<RootDir> RootDir::Open(const std::string& path) {
  ScopedFd fd(::open(path.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
  if (!fd.valid()) return ErrnoStatus("--root", path, errno, ErrorKind::kBadInput);
  Result<std::string> real = RealPathOfFd(fd.get(), path);
  if (!real.ok()) return Status::BadInput(real.status().message());
  return RootDir(std::move(fd), std::move(real).value());
}

Result<std::string> RootDir::Resolve(const std::string& relative) const {
  const std::string rel = relative.empty() ? "." : relative;
  if (rel.front() == '/') return Status::BadInput("path " + rel + ": absolute paths are refused (relative to --root)");
  if (HasDotDot(rel)) return Status::BadInput("path " + rel + ": '..' is refused (paths stay inside --root)");
  if (rel.find('\0') != std::string::npos) return Status::BadInput("path: contains a NUL byte");
  open_how how{};
  how.flags = O_PATH | O_DIRECTORY | O_CLOEXEC;
  how.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS;
  long rc = ::syscall(SYS_openat2, fd_.get(), rel.c_str(), &how, sizeof how);
  if (rc < 0) {
    int err = errno;
    if (err == EXDEV) return Status::BadInput("path " + rel + ": leads out of --root (symlink)");
    if (err == ENOTDIR) return Status::BadInput("path " + rel + ": not a directory");
    if (err != ENOSYS) return ErrnoStatus("path", rel, err, ErrorKind::kBadInput);
    // Kernels before 5.6: resolve, then check that the real path is still under the root.
    std::string full = real_path_ + "/" + rel;
    char* real = ::realpath(full.c_str(), nullptr);
    if (!real) return ErrnoStatus("path", rel, errno, ErrorKind::kBadInput);
    std::string resolved(real);
    std::free(real);
    if (resolved != real_path_ && resolved.rfind(real_path_ == "/" ? "/" : real_path_ + "/", 0) != 0)
      return Status::BadInput("path " + rel + ": leads out of --root (symlink)");
    struct stat st {};
    if (::stat(resolved.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
      return Status::BadInput("path " + rel + ": not a directory");
    return resolved;
  }
  ScopedFd dir(static_cast<int>(rc));
  return RealPathOfFd(dir.get(), rel);
}

}  // namespace nasperf
