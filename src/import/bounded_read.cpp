// ReadBoundedFile; see bounded_read.h.
#include "import/bounded_read.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "base/scoped_fd.h"

namespace nasperf {
namespace {

std::string Limit(size_t max_bytes) {
  return max_bytes % (size_t{1} << 20) == 0 ? std::to_string(max_bytes >> 20) + " MiB"
                                            : std::to_string(max_bytes) + " bytes";
}

}  // namespace

Result<std::string> ReadBoundedFile(const std::string& path, size_t max_bytes) {
  // O_NONBLOCK: opening a FIFO without a writer would wait forever; the type is checked
  // on the descriptor (fstat), so nothing can be swapped in between.
  ScopedFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK));
  if (fd.get() < 0) return Status::BadInput(std::string("cannot open: ") + std::strerror(errno));
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0) return Status::BadInput(std::string("cannot stat: ") + std::strerror(errno));
  if (!S_ISREG(st.st_mode)) {
    const char* kind = S_ISDIR(st.st_mode)    ? "a directory"
                       : S_ISFIFO(st.st_mode) ? "a FIFO"
                       : S_ISCHR(st.st_mode)  ? "a character device"
                       : S_ISBLK(st.st_mode)  ? "a block device"
                       : S_ISSOCK(st.st_mode) ? "a socket"
                                              : "not a file";
    return Status::BadInput(std::string("is ") + kind + ", not a regular file (import reads regular files of at most " +
                            Limit(max_bytes) + ")");
  }
  if (static_cast<uint64_t>(st.st_size) > max_bytes)
    return Status::BadInput(std::to_string(st.st_size) + " bytes is more than the " + Limit(max_bytes) +
                            " a report can be");
  std::string bytes;
  bytes.reserve(static_cast<size_t>(st.st_size));
  char buf[65536];
  for (;;) {
    ssize_t n = ::read(fd.get(), buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return Status::BadInput(std::string("cannot read: ") + std::strerror(errno));
    if (n == 0) break;
    bytes.append(buf, static_cast<size_t>(n));
    if (bytes.size() > max_bytes) return Status::BadInput("grew past " + Limit(max_bytes) + " while read");
  }
  return bytes;
}

}  // namespace nasperf
