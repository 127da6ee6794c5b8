// nasperf's own files: run-unique names, exclusive creation, the ownership mark, and
// writes and removal only of the very file this run created (never through a link).
#pragma once

#include <fcntl.h>
#include <sys/types.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "nasperf/status.h"
#include "base/scoped_fd.h"

namespace nasperf {

// This process's run nonce: 64 bits from getrandom(2) as 16 hex digits, drawn once. With
// the PID and the host name it makes names unique across processes, containers (where
// every PID may be 1) and hosts sharing one NFS or SMB directory.
const std::string& RunNonce();
// This machine's host name as it appears in file names: letters, digits and '.', others
// become '_'; at most 64 characters; "host" when it has none.
const std::string& FileNameHost();

// ".nasperf-<host>-<pid>-<nonce>-<role>.<extension>". `role` and `extension`: letters and
// digits only ("t0", "sweep", "probe3"; "dat", "tmp"), so the name parses back.
std::string OwnFileName(std::string_view role, std::string_view extension = "dat");
// Under mpirun: every later OwnFileName's role starts with "r<rank>" (".nasperf-host-pid-
// nonce-r3t0.dat"), so a rank's files say whose they are. Call once, before any file is
// made; not thread-safe.
void SetOwnFileRank(int rank);

// The role of a worker thread's file: "t<thread>" for the first target this process makes
// files for, "j<N>t<thread>" for the N-th after it. A job file runs several targets in one
// process, on one directory perhaps: each takes its number once (NextOwnTargetNumber) so
// their names cannot collide (O_EXCL would refuse the second, "File exists").
uint32_t NextOwnTargetNumber();
std::string WorkerFileRole(uint32_t target_number, uint32_t thread);

struct OwnFileNameParts {
  std::string host;
  long pid = 0;
  std::string nonce;
  std::string role;
};
// The parts of a name OwnFileName made; nullopt for any other name (old-style
// ".nasperf-<pid>-0.dat" included).
std::optional<OwnFileNameParts> ParseOwnFileName(std::string_view name);

// Every own file carries this extended attribute, set on the creating descriptor, whose
// value is the file's name. With owner, type and link count it proves nasperf made the
// file: its data cannot, since jobs overwrite every byte of it.
inline constexpr const char* kOwnMarkAttribute = "user.nasperf.own";

// Why an existing file is or is not nasperf's to write or remove.
enum class Ownership {
  kOurs,        // a regular file, one link, our uid, a name OwnFileName makes, the mark
  kInUse,       // all of that, but a running nasperf holds it (its flock)
  kNotRegular,  // a symbolic link, directory, device, FIFO ...
  kLinked,      // more than one hard link: another name shares the data
  kOtherOwner,  // another uid owns it
  kBadName,     // not a name OwnFileName makes
  kNoMark,      // no (or a wrong) ownership mark: not provably nasperf's
};

struct OwnershipCheck {
  Ownership verdict = Ownership::kNoMark;
  std::string why;  // for kOurs "made by nasperf"; otherwise what disqualifies it
  uint64_t size_bytes = 0;
  std::optional<OwnFileNameParts> parts;
};

// Judges the file open at `fd`, named `name` (its last path component), by the
// descriptor, never by path. `lock` is set to whether flock(LOCK_EX|LOCK_NB) was taken
// (then it stays held on `fd`); a locked file is kInUse.
OwnershipCheck JudgeOwnFile(int fd, std::string_view name, bool* locked);

// One file this process created (Create) or took over (Adopt), remembered by device and
// inode, so every later open and the removal touch that file and no other one that
// took its name. Holds flock(LOCK_EX) on it while alive, so other runs and `clean` see
// it in use. A created file is removed when the object dies; an adopted one is kept.
class OwnFile {
 public:
  // Creates directory/OwnFileName(role, extension) with O_CREAT|O_EXCL|O_NOFOLLOW, marks
  // and locks it. The error carries errno (Status::err()).
  static Result<OwnFile> Create(const std::string& directory, std::string_view role, mode_t mode = 0600,
                                std::string_view extension = "dat");
  // The same inside the directory open at `dir_fd` (kept as a duplicate): every later
  // open and the removal go relative to it (openat, unlinkat), never by path string.
  // `directory` only names it in messages and path().
  static Result<OwnFile> CreateAt(int dir_fd, const std::string& directory, std::string_view role,
                                  mode_t mode = 0600, std::string_view extension = "dat");
  // Takes over an existing file for writing: opened with O_NOFOLLOW, judged by its
  // descriptor (JudgeOwnFile); BadInput naming the reason unless kOurs.
  static Result<OwnFile> Adopt(const std::string& path);

  OwnFile(OwnFile&& other) noexcept;
  OwnFile& operator=(OwnFile&& other) noexcept;
  OwnFile(const OwnFile&) = delete;
  OwnFile& operator=(const OwnFile&) = delete;
  ~OwnFile();

  const std::string& path() const { return path_; }
  // Opens the file again (`flags` | O_NOFOLLOW | O_CLOEXEC) and checks by the new
  // descriptor that it is still the same regular file with one link.
  Result<ScopedFd> Reopen(int flags) const;
  // Unlinks the name if it still is this file (a created file only; an adopted one is
  // never removed). Idempotent.
  Status Remove();

 private:
  OwnFile(std::string path, ScopedFd dir_fd, std::string at_name, ScopedFd lock_fd, dev_t dev, ino_t ino,
          bool created)
      : path_(std::move(path)),
        dir_fd_(std::move(dir_fd)),
        at_name_(std::move(at_name)),
        lock_fd_(std::move(lock_fd)),
        dev_(dev),
        ino_(ino),
        created_(created) {}
  int at() const { return dir_fd_.valid() ? dir_fd_.get() : AT_FDCWD; }
  std::string path_;
  ScopedFd dir_fd_;      // the directory's descriptor, or none: at_name_ is then the path
  std::string at_name_;  // the name relative to dir_fd_ (or the path)
  ScopedFd lock_fd_;  // holds the flock
  dev_t dev_ = 0;
  ino_t ino_ = 0;
  bool created_ = false;
};

// A `.nasperf-*` entry found in a directory, judged (see JudgeOwnFile), not in use.
struct StaleFile {
  std::string name;
  OwnershipCheck check;
};
// Every `.nasperf-*` entry of `directory` that no running nasperf holds, sorted by name.
// Reads only (opens with O_NOFOLLOW|O_NONBLOCK, takes and drops a lock).
Result<std::vector<StaleFile>> FindStaleFiles(const std::string& directory);
// Removes directory/name when it is kOurs (judged by descriptor, locked, and the name
// still leads to that inode right before the unlink). BadInput with the reason otherwise.
Status RemoveStaleFile(const std::string& directory, const std::string& name);

}  // namespace nasperf
