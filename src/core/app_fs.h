// File-level access for application workloads (issue 18: file copy, directory copy,
// backup/restore, video, photo album, office, fill levels): whole files created, written,
// read, renamed and removed by name, where a Job's engines move blocks at offsets. Every
// target kind serves it — a local directory (target/), smb:// and nfs:// (their plugins
// in proto/) and, through the agent, the NAS's own root — so a workload in suite/app/ is
// written once.
//
// Safety, the same promises as every other write nasperf makes:
//   - every path is relative to a workspace directory the file system created for this
//     run (`.nasperf-<run id>-app`, O_EXCL-like mkdir; never an existing directory), and
//     may not contain "..", an absolute part or an empty component: BadInput otherwise;
//   - Create is O_EXCL and no open follows a link (O_NOFOLLOW, or the protocol's equal);
//   - Remove/RemoveDir/Rename touch only names this AppFileSystem created in this run;
//   - the workspace and everything in it is removed when the AppFileSystem is destroyed,
//     on error and on Ctrl-C alike (RemoveWorkspace), unless keep_on_exit is set.
// A read-only view of an existing directory (`dir-copy --source DIR`) is OpenSourceTree:
// it refuses every write.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "nasperf/status.h"

namespace nasperf {

// One open file. Sequential: Write appends, Read continues where the last read ended;
// PRead/PWrite take an offset. Short transfers are returned as they happened.
class AppFile {
 public:
  virtual ~AppFile() = default;
  virtual Result<size_t> Write(const void* data, size_t bytes) = 0;
  virtual Result<size_t> Read(void* data, size_t bytes) = 0;  // 0 at end of file
  virtual Result<size_t> PWrite(const void* data, size_t bytes, uint64_t offset) = 0;
  virtual Result<size_t> PRead(void* data, size_t bytes, uint64_t offset) = 0;
  // Makes what was written durable (fsync, SMB flush, NFS COMMIT).
  virtual Status Sync() = 0;
  // Closing may report a deferred write error; a file is closed by its destructor too.
  virtual Status Close() = 0;
};

struct AppDirEntry {
  std::string name;
  bool is_dir = false;
  uint64_t size_bytes = 0;
  // Neither a regular file nor a directory (a symbolic link, FIFO, device): OpenRead
  // refuses it, so a copy of a source tree can skip it and say so.
  bool is_special = false;
  int64_t mtime_unix_ns = 0;  // last modification, as the file system keeps it (SetTimes sets it)
};

struct AppSpace {
  uint64_t total_bytes = 0;
  uint64_t free_bytes = 0;  // what an unprivileged writer may use
};

// Thread-safe: a workload's threads (dir-copy --threads) share one AppFileSystem; each
// AppFile is used by one thread at a time.
// What DropClientCache did. `emptied` is what a cache label may rest on: true only when,
// after the call, none of the workspace's file data is in this machine's memory as far as
// it can be checked (mincore below 1 % after the drop; a library that keeps no cache;
// no files yet). A RAM file system (tmpfs) is never emptied: its files live in RAM.
struct ClientCacheDrop {
  std::string note;
  bool emptied = false;
  bool evicted = false;  // pages were asked to leave (posix_fadvise ran), emptied or not
};

class AppFileSystem {
 public:
  virtual ~AppFileSystem() = default;
  // What the user named ("/mnt/nas", "smb://user@host/share"), password redacted.
  virtual std::string description() const = 0;
  // The workspace's path as the target names it (for messages and cleanup lines).
  virtual std::string workspace() const = 0;
  virtual Status MakeDir(const std::string& rel) = 0;  // one level; an existing name is an error
  virtual Result<std::unique_ptr<AppFile>> Create(const std::string& rel) = 0;  // exclusive
  virtual Result<std::unique_ptr<AppFile>> OpenRead(const std::string& rel) = 0;
  virtual Result<std::unique_ptr<AppFile>> OpenWrite(const std::string& rel) = 0;  // own files only
  virtual Status SetTimes(const std::string& rel, int64_t mtime_unix_ns) = 0;
  virtual Status Rename(const std::string& from_rel, const std::string& to_rel) = 0;  // replaces an own file
  virtual Result<std::vector<AppDirEntry>> List(const std::string& rel) = 0;  // "" = the workspace
  virtual Status Remove(const std::string& rel) = 0;
  virtual Status RemoveDir(const std::string& rel) = 0;  // empty, own directories only
  virtual Result<AppSpace> Space() = 0;  // of the volume the workspace is on
  // Drops this machine's cached copy of the workspace's files where there is one (a local
  // file system's page cache); says what it did, or that there is nothing to drop, and
  // whether the files' data is now out of this machine's memory.
  virtual Result<ClientCacheDrop> DropClientCache() = 0;
  // Removes everything this run created, deepest first; idempotent.
  virtual Status RemoveWorkspace() = 0;
};

// Checks a workspace-relative path: BadInput naming it when it is empty, absolute, has an
// empty, "." or ".." component, or a NUL. Every AppFileSystem calls it before any system call.
Status CheckAppPath(const std::string& rel);

// Writes all `bytes` of `data`, continuing after a short write; a write that moves nothing
// is an I/O error ("write made no progress").
Status WriteAll(AppFile& file, const void* data, size_t bytes);

}  // namespace nasperf
