// RemoteAppFs: the AppFileSystem (core/app_fs.h) of a protocol's share or export, written
// once over a handful of primitives (RemoteAppOps) each protocol folder implements
// (proto/smb/smb_app_fs, proto/nfs/nfs_app_fs): the workspace, the own-name bookkeeping,
// the path checks and the cleanup are the same whatever carries the bytes.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "core/app_fs.h"

namespace nasperf {

struct RemoteStat {
  bool exists = false;
  bool is_dir = false;
  bool is_regular = false;
  uint64_t size_bytes = 0;
  uint64_t file_id = 0;  // the server's inode or file id; 0: not reported
};

// One protocol's calls on full paths inside the share or export ("/dir/ws/a"). Thread-safe
// (a pool of sessions). Errors are Status values carrying errno where the library gives one.
class RemoteAppOps {
 public:
  virtual ~RemoteAppOps() = default;
  // Of the name itself where the protocol can (NFS LOOKUP); not found: exists = false.
  virtual Result<RemoteStat> Stat(const std::string& path) = 0;
  virtual Status MakeDir(const std::string& path) = 0;  // EEXIST (err()) when the name exists
  virtual Status RemoveDir(const std::string& path) = 0;
  virtual Status Unlink(const std::string& path) = 0;
  // `create`: exclusive (O_CREAT|O_EXCL); else an existing file, read-only or write-only.
  virtual Result<std::unique_ptr<AppFile>> Open(const std::string& path, bool create, bool write) = 0;
  virtual Status Rename(const std::string& from, const std::string& to) = 0;  // replaces `to`
  virtual Status SetTimes(const std::string& path, int64_t mtime_unix_ns) = 0;
  virtual Result<std::vector<AppDirEntry>> List(const std::string& path) = 0;
  virtual Result<AppSpace> Space(const std::string& path) = 0;
  // What DropClientCache says: the library's cache, or that it keeps none.
  virtual std::string ClientCacheNote() const = 0;
};

// Makes a fresh workspace `.nasperf-<host>-<pid>-<nonce>-app<N>.dir` in `directory` (a
// name that exists is never reused) and returns the file system in it. `description` is
// the URL as shown (no password).
Result<std::unique_ptr<AppFileSystem>> OpenRemoteAppFs(std::unique_ptr<RemoteAppOps> ops, std::string description,
                                                       const std::string& directory, bool keep_on_exit);

}  // namespace nasperf
