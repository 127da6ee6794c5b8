// NfsAppOps and NfsAppFile: the RemoteAppOps of an NFS export, through libnfs.
#include "proto/nfs/nfs_app_fs.h"

#include <fcntl.h>
#include <nfsc/libnfs.h>
#include <sys/stat.h>
#include <sys/time.h>

#include <algorithm>
#include <cerrno>

#include "proto/nfs/nfs_session.h"
#include "proto/remote_app_fs.h"
#include "proto/session_pool.h"

namespace nasperf {
namespace {

constexpr uint32_t kNfs3Reg = 1, kNfs3Dir = 2;  // ftype3 (RFC 1813)

using Pool = SessionPool<NfsLocation>;

class NfsAppFile final : public AppFile {
 public:
  NfsAppFile(Pool::Lease lease, nfsfh* fh, std::string path)
      : lease_(std::move(lease)), fh_(fh), path_(std::move(path)) {}
  ~NfsAppFile() override { (void)Close(); }
  Result<size_t> Write(const void* data, size_t bytes) override {
    return Done("write", nfs_write(Ctx(), fh_, bytes, data));
  }
  Result<size_t> Read(void* data, size_t bytes) override { return Done("read", nfs_read(Ctx(), fh_, bytes, data)); }
  Result<size_t> PWrite(const void* data, size_t bytes, uint64_t offset) override {
    return Done("pwrite", nfs_pwrite(Ctx(), fh_, offset, bytes, data));
  }
  Result<size_t> PRead(void* data, size_t bytes, uint64_t offset) override {
    return Done("pread", nfs_pread(Ctx(), fh_, offset, bytes, data));
  }
  Status Sync() override {  // NFS COMMIT
    if (!fh_) return Status::Io(path_ + ": file already closed", EBADF);
    if (int rc = nfs_fsync(Ctx(), fh_); rc != 0) return NfsStatus(lease_->session, "fsync", path_, rc);
    return Status::Ok();
  }
  Status Close() override {
    if (!fh_) return Status::Ok();
    nfsfh* fh = fh_;
    fh_ = nullptr;
    if (int rc = nfs_close(Ctx(), fh); rc != 0) return NfsStatus(lease_->session, "close", path_, rc);
    return Status::Ok();
  }

 private:
  nfs_context* Ctx() const { return lease_->session.get(); }
  Result<size_t> Done(const char* what, int rc) const {
    if (!fh_) return Status::Io(path_ + ": file already closed", EBADF);
    if (rc < 0) return NfsStatus(lease_->session, what, path_, rc);
    return static_cast<size_t>(rc);
  }
  Pool::Lease lease_;  // the mount the handle belongs to, held while the file is open
  nfsfh* fh_ = nullptr;
  std::string path_;
};

class NfsAppOps final : public RemoteAppOps {
 public:
  explicit NfsAppOps(std::unique_ptr<Pool> pool) : pool_(std::move(pool)) {}

  Result<RemoteStat> Stat(const std::string& path) override {
    return With([&](NfsLocation& at) -> Result<RemoteStat> {
      nfs_stat_64 st{};
      RemoteStat out;
      if (int rc = nfs_lstat64(at.session.get(), path.c_str(), &st); rc != 0) {
        if (rc == -ENOENT) return out;
        return NfsStatus(at.session, "stat", path, rc);
      }
      out.exists = true;
      out.is_dir = S_ISDIR(st.nfs_mode);
      out.is_regular = S_ISREG(st.nfs_mode);
      out.size_bytes = st.nfs_size;
      out.file_id = st.nfs_ino;
      return out;
    });
  }
  Status MakeDir(const std::string& path) override {
    return Call("mkdir", path, [&](nfs_context* c) { return nfs_mkdir(c, path.c_str()); });
  }
  Status RemoveDir(const std::string& path) override {
    return Call("rmdir", path, [&](nfs_context* c) { return nfs_rmdir(c, path.c_str()); });
  }
  Status Unlink(const std::string& path) override {
    return Call("remove", path, [&](nfs_context* c) { return nfs_unlink(c, path.c_str()); });
  }
  Status Rename(const std::string& from, const std::string& to) override {
    return Call("rename", from, [&](nfs_context* c) { return nfs_rename(c, from.c_str(), to.c_str()); });
  }
  Status SetTimes(const std::string& path, int64_t mtime_unix_ns) override {
    struct timeval times[2];
    times[1].tv_sec = static_cast<time_t>(mtime_unix_ns / 1000000000);
    times[1].tv_usec = static_cast<suseconds_t>((mtime_unix_ns % 1000000000) / 1000);
    times[0] = times[1];  // NFSv3 SETATTR sets both or the server's time; the same for both
    // lutimes: the name itself, never what a link names.
    return Call("set times of", path, [&](nfs_context* c) { return nfs_lutimes(c, path.c_str(), times); });
  }
  Result<std::unique_ptr<AppFile>> Open(const std::string& path, bool create, bool write) override {
    Result<Pool::Lease> lease = pool_->Borrow();
    if (!lease.ok()) return lease.status();
    int flags = O_NOFOLLOW | (write ? (create ? O_RDWR : O_WRONLY) : O_RDONLY) | (create ? O_CREAT | O_EXCL : 0);
    nfsfh* fh = nullptr;
    if (int rc = nfs_open2(lease.value()->session.get(), path.c_str(), flags, 0644, &fh); rc != 0)
      return NfsStatus(lease.value()->session, create ? "create" : "open", path, rc);
    return std::unique_ptr<AppFile>(new NfsAppFile(std::move(lease).value(), fh, path));
  }
  Result<std::vector<AppDirEntry>> List(const std::string& path) override {
    return With([&](NfsLocation& at) -> Result<std::vector<AppDirEntry>> {
      nfsdir* dir = nullptr;
      if (int rc = nfs_opendir(at.session.get(), path.c_str(), &dir); rc != 0)
        return NfsStatus(at.session, "list", path, rc);
      std::vector<AppDirEntry> out;
      while (nfsdirent* e = nfs_readdir(at.session.get(), dir)) {
        std::string name = e->name;
        if (name == "." || name == "..") continue;
        AppDirEntry entry;
        entry.name = std::move(name);
        entry.is_dir = e->type == kNfs3Dir;
        entry.is_special = e->type != kNfs3Dir && e->type != kNfs3Reg;
        entry.size_bytes = e->type == kNfs3Reg ? e->size : 0;
        entry.mtime_unix_ns = static_cast<int64_t>(e->mtime.tv_sec) * 1000000000 + e->mtime_nsec;
        out.push_back(std::move(entry));
      }
      nfs_closedir(at.session.get(), dir);
      std::sort(out.begin(), out.end(), [](const AppDirEntry& a, const AppDirEntry& b) { return a.name < b.name; });
      return out;
    });
  }
  Result<AppSpace> Space(const std::string& path) override {
    return With([&](NfsLocation& at) -> Result<AppSpace> {
      nfs_statvfs_64 vfs{};
      if (int rc = nfs_statvfs64(at.session.get(), path.c_str(), &vfs); rc != 0)
        return NfsStatus(at.session, "statvfs", path, rc);
      const uint64_t unit = vfs.f_frsize ? vfs.f_frsize : vfs.f_bsize;
      return AppSpace{vfs.f_blocks * unit, vfs.f_bavail * unit};
    });
  }
  std::string ClientCacheNote() const override {
    return "nothing to drop: libnfs keeps no cache of file data on this machine";
  }

 private:
  template <typename F>
  auto With(F f) -> decltype(f(std::declval<NfsLocation&>())) {
    Result<Pool::Lease> lease = pool_->Borrow();
    if (!lease.ok()) return lease.status();
    return f(*lease.value());
  }
  template <typename F>
  Status Call(const char* what, const std::string& path, F f) {
    Result<Pool::Lease> lease = pool_->Borrow();
    if (!lease.ok()) return lease.status();
    int rc = f(lease.value()->session.get());
    if (rc == 0) return Status::Ok();
    Status s = NfsStatus(lease.value()->session, what, path, rc);
    // Keep errno for the callers that branch on it (a workspace name taken, a name gone).
    if (rc == -EEXIST || rc == -ENOENT) return Status::Io(s.message(), -rc);
    return s;
  }
  std::unique_ptr<Pool> pool_;
};

}  // namespace

Result<std::unique_ptr<AppFileSystem>> MakeNfsAppFs(const ProtocolUrl& url, const TargetOptions& options) {
  Result<NfsLocation> first = MountNfsUrl(url, options.connect_timeout_ms);
  if (!first.ok()) return first.status();
  const std::string directory = first.value().directory;
  // Later mounts take the export the first one found.
  ProtocolUrl same = url;
  auto pool =
      std::make_unique<Pool>([same, timeout = options.connect_timeout_ms]() -> Result<std::unique_ptr<NfsLocation>> {
        Result<NfsLocation> more = MountNfsUrl(same, timeout);
        if (!more.ok()) return more.status();
        return std::make_unique<NfsLocation>(std::move(more).value());
      });
  pool->Add(std::make_unique<NfsLocation>(std::move(first).value()));
  return OpenRemoteAppFs(std::make_unique<NfsAppOps>(std::move(pool)), url.display(), directory, options.keep_on_exit);
}

}  // namespace nasperf
