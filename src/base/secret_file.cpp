// ReadSecretFile: open without following links, check the mode, read at most 64 KiB.
#include "base/secret_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

#include <fmt/format.h>

#include "base/scoped_fd.h"

namespace nasperf {

Result<std::string> ReadSecretFile(const std::string& path, const std::string& what) {
  ScopedFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW));
  if (!fd.valid()) return ErrnoStatus(what, path, errno, ErrorKind::kBadInput);
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0) return ErrnoStatus(what, path, errno, ErrorKind::kBadInput);
  if (!S_ISREG(st.st_mode)) return Status::BadInput(what + " " + path + " is not a regular file");
  if (st.st_mode & 077)
    return Status::BadInput(fmt::format("{} {} has mode {:04o}: readable or writable by group or others "
                                        "(chmod 600 {})",
                                        what, path, st.st_mode & 07777, path));
  constexpr size_t kMaxBytes = 65536;
  std::string secret;
  char buf[4096];
  ssize_t n;
  while ((n = ::read(fd.get(), buf, sizeof buf)) > 0) {
    secret.append(buf, static_cast<size_t>(n));
    if (secret.size() > kMaxBytes) return Status::BadInput(what + " " + path + " is larger than 64 KiB");
  }
  if (n < 0) return ErrnoStatus(what, path, errno, ErrorKind::kBadInput);
  if (!secret.empty() && secret.back() == '\n') secret.pop_back();
  if (!secret.empty() && secret.back() == '\r') secret.pop_back();
  return secret;
}

}  // namespace nasperf
