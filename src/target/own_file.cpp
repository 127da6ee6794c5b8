// OwnFile and the names, marks and checks behind it.
#include "target/own_file.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <utility>

namespace nasperf {
namespace {

constexpr std::string_view kPrefix = ".nasperf-";
constexpr size_t kNonceDigits = 16;

bool IsAlnum(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'); }
bool AllOf(std::string_view s, bool (*ok)(char)) { return !s.empty() && std::all_of(s.begin(), s.end(), ok); }
bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsHex(char c) { return IsDigit(c) || (c >= 'a' && c <= 'f'); }
bool IsHostChar(char c) { return IsAlnum(c) || c == '.' || c == '_'; }

std::string BaseName(const std::string& path) {
  size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

uint64_t RandomBits() {
  uint64_t bits = 0;
  for (int tries = 0; tries < 100; ++tries) {
    ssize_t n = ::getrandom(&bits, sizeof bits, 0);
    if (n == static_cast<ssize_t>(sizeof bits)) return bits;
    if (n < 0 && errno != EINTR) break;
  }
  // No getrandom (very old kernel): time and PID still differ between the runs that
  // could meet in one directory.
  uint64_t now = static_cast<uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
  return now * 0x9E3779B97F4A7C15ull ^ static_cast<uint64_t>(::getpid()) << 32;
}

// The mark's value, read by descriptor: equal to `name`, or not there.
bool HasMark(int fd, std::string_view name) {
  char value[512];
  ssize_t n = ::fgetxattr(fd, kOwnMarkAttribute, value, sizeof value);
  return n >= 0 && std::string_view(value, static_cast<size_t>(n)) == name;
}

OwnershipCheck Verdict(Ownership verdict, std::string why, uint64_t size_bytes) {
  OwnershipCheck check;
  check.verdict = verdict;
  check.why = std::move(why);
  check.size_bytes = size_bytes;
  return check;
}

}  // namespace

const std::string& RunNonce() {
  static const std::string nonce = [] {
    static const char kDigits[] = "0123456789abcdef";
    uint64_t bits = RandomBits();
    std::string hex(kNonceDigits, '0');
    for (size_t i = 0; i < kNonceDigits; ++i) hex[i] = kDigits[(bits >> (4 * (kNonceDigits - 1 - i))) & 0xF];
    return hex;
  }();
  return nonce;
}

const std::string& FileNameHost() {
  static const std::string host = [] {
    char name[256] = {};
    std::string out;
    if (::gethostname(name, sizeof name - 1) == 0) out = name;
    for (char& c : out)
      if (!IsAlnum(c) && c != '.') c = '_';
    if (out.size() > 64) out.resize(64);
    return out.empty() ? std::string("host") : out;
  }();
  return host;
}

namespace {
// Set once, before any file is made, by a rank of many (SetOwnFileRank); -1: one process.
int own_file_rank = -1;
}  // namespace

void SetOwnFileRank(int rank) { own_file_rank = rank; }

std::string OwnFileName(std::string_view role, std::string_view extension) {
  const std::string rank = own_file_rank >= 0 ? "r" + std::to_string(own_file_rank) : "";
  return std::string(kPrefix) + FileNameHost() + "-" + std::to_string(::getpid()) + "-" + RunNonce() + "-" + rank +
         std::string(role) + "." + std::string(extension);
}

uint32_t NextOwnTargetNumber() {
  static std::atomic<uint32_t> next{0};
  return next.fetch_add(1, std::memory_order_relaxed);
}

std::string WorkerFileRole(uint32_t target_number, uint32_t thread) {
  std::string role = "t" + std::to_string(thread);
  return target_number == 0 ? role : "j" + std::to_string(target_number) + role;
}

std::optional<OwnFileNameParts> ParseOwnFileName(std::string_view name) {
  if (!name.starts_with(kPrefix)) return std::nullopt;
  std::string_view rest = name.substr(kPrefix.size());
  size_t dot = rest.find_last_of('.');
  if (dot == std::string_view::npos || !AllOf(rest.substr(dot + 1), IsAlnum)) return std::nullopt;
  rest = rest.substr(0, dot);
  // From the right: role, nonce, pid; what is left is the host (which has no '-').
  std::string_view fields[3];
  for (std::string_view& field : fields) {
    size_t dash = rest.find_last_of('-');
    if (dash == std::string_view::npos) return std::nullopt;
    field = rest.substr(dash + 1);
    rest = rest.substr(0, dash);
  }
  const std::string_view role = fields[0], nonce = fields[1], pid = fields[2], host = rest;
  if (!AllOf(role, IsAlnum) || nonce.size() != kNonceDigits || !AllOf(nonce, IsHex) || !AllOf(pid, IsDigit) ||
      pid.size() > 10 || !AllOf(host, IsHostChar))
    return std::nullopt;
  OwnFileNameParts parts;
  parts.host = std::string(host);
  parts.pid = std::stol(std::string(pid));
  parts.nonce = std::string(nonce);
  parts.role = std::string(role);
  return parts;
}

OwnershipCheck JudgeOwnFile(int fd, std::string_view name, bool* locked) {
  *locked = false;
  struct stat st {};
  if (::fstat(fd, &st) != 0) return Verdict(Ownership::kNotRegular, std::string("fstat: ") + std::strerror(errno), 0);
  const uint64_t size = S_ISREG(st.st_mode) ? static_cast<uint64_t>(st.st_size) : 0;
  if (!S_ISREG(st.st_mode))
    return Verdict(Ownership::kNotRegular, S_ISDIR(st.st_mode) ? "a directory" : "not a regular file", 0);
  // Every running nasperf holds a lock on each of its files, whatever the file system
  // keeps of the mark: a held lock means in use, however the file looks otherwise.
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    if (errno == EWOULDBLOCK) return Verdict(Ownership::kInUse, "in use by a running nasperf", size);
    return Verdict(Ownership::kInUse,
                   std::string("cannot tell whether a run holds it (flock: ") + std::strerror(errno) + ")", size);
  }
  *locked = true;
  if (st.st_nlink != 1)
    return Verdict(Ownership::kLinked, "it has " + std::to_string(st.st_nlink) + " hard links", size);
  if (st.st_uid != ::geteuid())
    return Verdict(Ownership::kOtherOwner, "owned by uid " + std::to_string(st.st_uid), size);
  std::optional<OwnFileNameParts> parts = ParseOwnFileName(name);
  if (!parts) return Verdict(Ownership::kBadName, "not a name this nasperf makes", size);
  if (!HasMark(fd, name))
    return Verdict(Ownership::kNoMark, std::string("no ownership mark (extended attribute ") + kOwnMarkAttribute + ")",
                   size);
  OwnershipCheck ours = Verdict(Ownership::kOurs, "made by nasperf", size);
  ours.parts = std::move(parts);
  return ours;
}

Result<OwnFile> OwnFile::Create(const std::string& directory, std::string_view role, mode_t mode,
                                std::string_view extension) {
  return CreateAt(AT_FDCWD, directory, role, mode, extension);
}

Result<OwnFile> OwnFile::CreateAt(int dir_fd, const std::string& directory, std::string_view role, mode_t mode,
                                  std::string_view extension) {
  std::string name = OwnFileName(role, extension);
  std::string path = directory + "/" + name;
  // Relative to the directory's descriptor when there is one, so a directory renamed or
  // swapped for a symbolic link after it was opened cannot redirect the file.
  ScopedFd dir;
  if (dir_fd != AT_FDCWD) {
    dir = ScopedFd(::fcntl(dir_fd, F_DUPFD_CLOEXEC, 0));
    if (!dir.valid()) return ErrnoStatus("dup directory of", path, errno);
  }
  std::string at_name = dir.valid() ? name : path;
  const int at = dir.valid() ? dir.get() : AT_FDCWD;
  // O_EXCL: never an existing file, and (with O_CREAT) never through a symbolic link.
  ScopedFd fd(::openat(at, at_name.c_str(), O_CREAT | O_EXCL | O_NOFOLLOW | O_WRONLY | O_CLOEXEC, mode));
  if (!fd.valid()) return ErrnoStatus("create", path, errno);
  // A file system without user extended attributes (ramfs, some FUSE) keeps no mark; the
  // run works, only `clean` cannot prove the file ours later.
  (void)::fsetxattr(fd.get(), kOwnMarkAttribute, name.data(), name.size(), 0);
  (void)::flock(fd.get(), LOCK_EX | LOCK_NB);
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0) {
    int err = errno;
    ::unlinkat(at, at_name.c_str(), 0);  // just made by us, O_EXCL
    return ErrnoStatus("fstat", path, err);
  }
  return OwnFile(std::move(path), std::move(dir), std::move(at_name), std::move(fd), st.st_dev, st.st_ino, true);
}

Result<OwnFile> OwnFile::Adopt(const std::string& path) {
  auto refuse = [&](const std::string& why) {
    return Status::BadInput("TARGET: " + path + " is not a file this nasperf made (" + why +
                            "); it writes only its own files (give a directory to write in)");
  };
  ScopedFd fd(::open(path.c_str(), O_RDWR | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC));
  if (!fd.valid()) {
    if (errno == ELOOP) return refuse("a symbolic link");
    return ErrnoStatus("TARGET: cannot open", path, errno, ErrorKind::kBadInput);
  }
  bool locked = false;
  OwnershipCheck check = JudgeOwnFile(fd.get(), BaseName(path), &locked);
  if (check.verdict != Ownership::kOurs) return refuse(check.why);
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0) return ErrnoStatus("fstat", path, errno);
  return OwnFile(path, ScopedFd(), path, std::move(fd), st.st_dev, st.st_ino, false);
}

OwnFile::OwnFile(OwnFile&& other) noexcept
    : path_(std::move(other.path_)),
      dir_fd_(std::move(other.dir_fd_)),
      at_name_(std::move(other.at_name_)),
      lock_fd_(std::move(other.lock_fd_)),
      dev_(other.dev_),
      ino_(other.ino_),
      created_(std::exchange(other.created_, false)) {}

OwnFile& OwnFile::operator=(OwnFile&& other) noexcept {
  if (this != &other) {
    (void)Remove();
    path_ = std::move(other.path_);
    dir_fd_ = std::move(other.dir_fd_);
    at_name_ = std::move(other.at_name_);
    lock_fd_ = std::move(other.lock_fd_);
    dev_ = other.dev_;
    ino_ = other.ino_;
    created_ = std::exchange(other.created_, false);
  }
  return *this;
}

OwnFile::~OwnFile() { (void)Remove(); }

Result<ScopedFd> OwnFile::Reopen(int flags) const {
  ScopedFd fd(::openat(at(), at_name_.c_str(), flags | O_NOFOLLOW | O_CLOEXEC));
  if (!fd.valid()) return ErrnoStatus("open", path_, errno);
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0) return ErrnoStatus("fstat", path_, errno);
  if (!S_ISREG(st.st_mode) || st.st_dev != dev_ || st.st_ino != ino_ || st.st_nlink != 1)
    return Status::Io("open " + path_ +
                      ": no longer the file nasperf created there (replaced or hard-linked); "
                      "not touched");
  return fd;
}

Status OwnFile::Remove() {
  if (!created_) return Status::Ok();
  created_ = false;
  // Unlinking goes by name: only while the name still leads to the inode we created.
  struct stat st {};
  Status status;
  if (::fstatat(at(), at_name_.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) {
    if (errno != ENOENT) status = ErrnoStatus("stat", path_, errno);
  } else if (st.st_dev != dev_ || st.st_ino != ino_) {
    status = Status::Io("not removed: " + path_ + " is no longer the file nasperf created");
  } else if (::unlinkat(at(), at_name_.c_str(), 0) != 0 && errno != ENOENT) {
    status = ErrnoStatus("unlink", path_, errno);
  }
  lock_fd_.reset();
  return status;
}

Result<std::vector<StaleFile>> FindStaleFiles(const std::string& directory) {
  ScopedFd dir_fd(::open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (!dir_fd.valid()) return ErrnoStatus("open directory", directory, errno, ErrorKind::kBadInput);
  DIR* dir = ::fdopendir(::dup(dir_fd.get()));
  if (dir == nullptr) return ErrnoStatus("read directory", directory, errno, ErrorKind::kBadInput);
  std::vector<std::string> names;
  while (dirent* entry = ::readdir(dir)) {
    std::string_view name = entry->d_name;
    if (name.starts_with(kPrefix)) names.emplace_back(name);
  }
  ::closedir(dir);
  std::sort(names.begin(), names.end());

  std::vector<StaleFile> stale;
  for (const std::string& name : names) {
    ScopedFd fd(::openat(dir_fd.get(), name.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC));
    if (!fd.valid()) {
      int err = errno;
      stale.push_back(
          {name, Verdict(err == ELOOP ? Ownership::kNotRegular : Ownership::kNoMark,
                         err == ELOOP ? "a symbolic link" : std::string("cannot open: ") + std::strerror(err), 0)});
      continue;
    }
    bool locked = false;
    OwnershipCheck check = JudgeOwnFile(fd.get(), name, &locked);
    if (check.verdict != Ownership::kInUse) stale.push_back({name, std::move(check)});
  }
  return stale;
}

Status RemoveStaleFile(const std::string& directory, const std::string& name) {
  ScopedFd dir_fd(::open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (!dir_fd.valid()) return ErrnoStatus("open directory", directory, errno, ErrorKind::kBadInput);
  ScopedFd fd(::openat(dir_fd.get(), name.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC));
  if (!fd.valid()) {
    if (errno == ELOOP) return Status::BadInput(directory + "/" + name + ": a symbolic link; left alone");
    return ErrnoStatus("open", directory + "/" + name, errno, ErrorKind::kBadInput);
  }
  bool locked = false;
  OwnershipCheck check = JudgeOwnFile(fd.get(), name, &locked);
  if (check.verdict != Ownership::kOurs)
    return Status::BadInput(directory + "/" + name + ": " + check.why + "; left alone");
  // Held locked from here: no nasperf can start using it. The name must still be the
  // inode just judged.
  struct stat by_fd {
  }, by_name{};
  if (::fstat(fd.get(), &by_fd) != 0 || ::fstatat(dir_fd.get(), name.c_str(), &by_name, AT_SYMLINK_NOFOLLOW) != 0 ||
      by_fd.st_dev != by_name.st_dev || by_fd.st_ino != by_name.st_ino)
    return Status::BadInput(directory + "/" + name + ": changed while being checked; left alone");
  if (::unlinkat(dir_fd.get(), name.c_str(), 0) != 0) return ErrnoStatus("unlink", directory + "/" + name, errno);
  return Status::Ok();
}

}  // namespace nasperf
