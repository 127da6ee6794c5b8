// SmbAppOps and SmbAppFile: the RemoteAppOps of an SMB share, through libsmbclient.
#include "proto/smb/smb_app_fs.h"

#include <fcntl.h>
#include <libsmbclient.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/time.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <mutex>

#include "base/tcp_connect.h"
#include "proto/remote_app_fs.h"
#include "proto/session_pool.h"
#include "proto/smb/smb_session.h"

namespace nasperf {
namespace {

using Pool = SessionPool<SmbSession>;

// libsmbclient is not safe to call from two threads at once even on separate contexts: it
// keeps process-wide state (talloc stack frames, the tevent glue), and Debian's build
// exports no smbc_thread_posix() to guard it. Four video streams, one context each,
// crashed in tevent_loop_once within seconds. So an SMB AppFileSystem makes one library
// call at a time, process-wide. Concurrent streams and copy threads still overlap their
// own work between calls; their requests take turns on the wire.
std::unique_lock<std::mutex> OneCallAtATime() {
  static std::mutex mutex;
  return std::unique_lock<std::mutex>(mutex);
}

int Errno() { return errno ? errno : EIO; }

// SmbStatus, keeping errno where callers branch on it (a name taken, a name gone).
Status SmbError(const SmbEndpoint& endpoint, const char* what, const std::string& path, int err) {
  Status s = SmbStatus(endpoint, what, path, err);
  if (err == EEXIST || err == ENOENT) return Status::Io(s.message(), err);
  return s;
}

class SmbAppFile final : public AppFile {
 public:
  SmbAppFile(Pool::Lease lease, SMBCFILE* file, std::string path)
      : lease_(std::move(lease)), file_(file), path_(std::move(path)) {}
  ~SmbAppFile() override { (void)Close(); }
  Result<size_t> Write(const void* data, size_t bytes) override {
    Result<size_t> n = PWrite(data, bytes, offset_);
    if (n.ok()) offset_ += n.value();
    return n;
  }
  Result<size_t> Read(void* data, size_t bytes) override {
    Result<size_t> n = PRead(data, bytes, offset_);
    if (n.ok()) offset_ += n.value();
    return n;
  }
  Result<size_t> PWrite(const void* data, size_t bytes, uint64_t offset) override {
    if (!file_) return Status::Io(path_ + ": file already closed", EBADF);
    auto one = OneCallAtATime();
    return Done("write", lease_->WriteAt(file_, offset, data, bytes));
  }
  Result<size_t> PRead(void* data, size_t bytes, uint64_t offset) override {
    if (!file_) return Status::Io(path_ + ": file already closed", EBADF);
    auto one = OneCallAtATime();
    return Done("read", lease_->ReadAt(file_, offset, data, bytes));
  }
  // libsmbclient has no flush call (SMB2 FLUSH is not exposed): said, never faked.
  Status Sync() override {
    return Status::Unavailable("smb: " + path_ + ": libsmbclient has no flush call, so nasperf cannot sync a file");
  }
  Status Close() override {
    if (!file_) return Status::Ok();
    SMBCFILE* f = file_;
    file_ = nullptr;
    auto one = OneCallAtATime();
    return lease_->Close(f);
  }

 private:
  Result<size_t> Done(const char* what, ssize_t n) const {
    if (n < 0) return SmbError(lease_->endpoint(), what, path_, static_cast<int>(-n));
    return static_cast<size_t>(n);
  }
  Pool::Lease lease_;  // the context the file belongs to, held while it is open
  SMBCFILE* file_ = nullptr;
  std::string path_;
  uint64_t offset_ = 0;
};

class SmbAppOps final : public RemoteAppOps {
 public:
  explicit SmbAppOps(std::unique_ptr<Pool> pool) : pool_(std::move(pool)) {}

  Result<RemoteStat> Stat(const std::string& path) override {
    Result<Pool::Lease> s = pool_->Borrow();
    if (!s.ok()) return s.status();
    auto one = OneCallAtATime();
    SmbSession& smb = *s.value();
    std::string url = smb.UrlFor(path);
    struct stat st {};
    errno = 0;
    RemoteStat out;
    if (smbc_getFunctionStat(smb.get())(smb.get(), url.c_str(), &st) != 0) {
      int err = Errno();
      if (err == ENOENT) return out;
      return SmbError(smb.endpoint(), "stat", path, err);
    }
    out.exists = true;
    out.is_dir = S_ISDIR(st.st_mode);
    out.is_regular = S_ISREG(st.st_mode);
    out.size_bytes = static_cast<uint64_t>(st.st_size);
    out.file_id = static_cast<uint64_t>(st.st_ino);
    return out;
  }
  Status MakeDir(const std::string& path) override {
    return Call("mkdir", path,
                [&](SmbSession& s, const char* url) { return smbc_getFunctionMkdir(s.get())(s.get(), url, 0755); });
  }
  Status RemoveDir(const std::string& path) override {
    return Call("rmdir", path,
                [&](SmbSession& s, const char* url) { return smbc_getFunctionRmdir(s.get())(s.get(), url); });
  }
  Status Unlink(const std::string& path) override {
    return Call("remove", path,
                [&](SmbSession& s, const char* url) { return smbc_getFunctionUnlink(s.get())(s.get(), url); });
  }
  Status Rename(const std::string& from, const std::string& to) override {
    return Call("rename", from, [&](SmbSession& s, const char* url) {
      std::string to_url = s.UrlFor(to);
      return smbc_getFunctionRename(s.get())(s.get(), url, s.get(), to_url.c_str());
    });
  }
  Status SetTimes(const std::string& path, int64_t mtime_unix_ns) override {
    struct timeval times[2];
    times[1].tv_sec = static_cast<time_t>(mtime_unix_ns / 1000000000);
    times[1].tv_usec = static_cast<suseconds_t>((mtime_unix_ns % 1000000000) / 1000);
    times[0] = times[1];
    return Call("set times of", path,
                [&](SmbSession& s, const char* url) { return smbc_getFunctionUtimes(s.get())(s.get(), url, times); });
  }
  Result<std::unique_ptr<AppFile>> Open(const std::string& path, bool create, bool write) override {
    Result<Pool::Lease> lease = pool_->Borrow();
    if (!lease.ok()) return lease.status();
    auto one = OneCallAtATime();
    int flags = (write ? (create ? O_RDWR : O_WRONLY) : O_RDONLY) | (create ? O_CREAT | O_EXCL : 0);
    Result<SMBCFILE*> file = lease.value()->Open(path, flags, 0644);
    if (!file.ok()) return file.status();
    return std::unique_ptr<AppFile>(new SmbAppFile(std::move(lease).value(), file.value(), path));
  }
  Result<std::vector<AppDirEntry>> List(const std::string& path) override {
    Result<Pool::Lease> lease = pool_->Borrow();
    if (!lease.ok()) return lease.status();
    auto one = OneCallAtATime();
    SmbSession& smb = *lease.value();
    std::string url = smb.UrlFor(path);
    errno = 0;
    SMBCFILE* dir = smbc_getFunctionOpendir(smb.get())(smb.get(), url.c_str());
    if (!dir) return SmbError(smb.endpoint(), "list", path, Errno());
    std::vector<AppDirEntry> out;
    while (struct smbc_dirent* e = smbc_getFunctionReaddir(smb.get())(smb.get(), dir)) {
      std::string name(e->name);
      if (name == "." || name == "..") continue;
      AppDirEntry entry;
      entry.name = name;
      entry.is_dir = e->smbc_type == SMBC_DIR;
      entry.is_special = e->smbc_type != SMBC_DIR && e->smbc_type != SMBC_FILE;
      if (e->smbc_type == SMBC_FILE || e->smbc_type == SMBC_DIR) {
        struct stat st {};
        std::string file_url = smb.UrlFor(path + "/" + name);
        if (smbc_getFunctionStat(smb.get())(smb.get(), file_url.c_str(), &st) == 0) {
          if (e->smbc_type == SMBC_FILE) entry.size_bytes = static_cast<uint64_t>(st.st_size);
          entry.mtime_unix_ns = static_cast<int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
        }
      }
      out.push_back(std::move(entry));
    }
    smbc_getFunctionClosedir(smb.get())(smb.get(), dir);
    std::sort(out.begin(), out.end(), [](const AppDirEntry& a, const AppDirEntry& b) { return a.name < b.name; });
    return out;
  }
  Result<AppSpace> Space(const std::string& path) override {
    Result<Pool::Lease> lease = pool_->Borrow();
    if (!lease.ok()) return lease.status();
    auto one = OneCallAtATime();
    SmbSession& smb = *lease.value();
    std::string url = smb.UrlFor(path);
    struct statvfs vfs {};
    if (smbc_getFunctionStatVFS(smb.get())(smb.get(), const_cast<char*>(url.c_str()), &vfs) != 0)
      return SmbError(smb.endpoint(), "statvfs", path, Errno());
    // The unit as SmbSession::FreeBytes reads it (Samba's f_bsize x f_frsize).
    uint64_t unit = vfs.f_frsize && vfs.f_frsize < vfs.f_bsize ? uint64_t{vfs.f_bsize} * vfs.f_frsize
                                                               : (vfs.f_frsize ? vfs.f_frsize : vfs.f_bsize);
    return AppSpace{static_cast<uint64_t>(vfs.f_blocks) * unit, static_cast<uint64_t>(vfs.f_bavail) * unit};
  }
  std::string ClientCacheNote() const override {
    return "nothing to drop: libsmbclient keeps no cache of file data on this machine";
  }

 private:
  template <typename F>
  Status Call(const char* what, const std::string& path, F f) {
    Result<Pool::Lease> lease = pool_->Borrow();
    if (!lease.ok()) return lease.status();
    auto one = OneCallAtATime();
    SmbSession& smb = *lease.value();
    std::string url = smb.UrlFor(path);
    errno = 0;
    if (f(smb, url.c_str()) == 0) return Status::Ok();
    return SmbError(smb.endpoint(), what, path, Errno());
  }
  std::unique_ptr<Pool> pool_;
};

}  // namespace

Result<std::unique_ptr<AppFileSystem>> MakeSmbAppFs(const ProtocolUrl& url, const TargetOptions& options) {
  if (url.path.empty())
    return Status::BadInput("TARGET: " + url.display() + " names no share (smb://USER@HOST/SHARE/DIR)");
  SmbEndpoint endpoint;
  endpoint.server = url.host;
  endpoint.port = url.port;
  endpoint.share = url.path[0];
  endpoint.domain = url.domain;
  endpoint.user = options.user.empty() ? url.user : options.user;
  endpoint.password = options.password;
  endpoint.timeout_ms = options.connect_timeout_ms;
  std::string directory;
  for (size_t i = 1; i < url.path.size(); ++i) directory += "/" + url.path[i];
  if (Status s = CheckReachable("smb server", endpoint.server, endpoint.port ? endpoint.port : 445,
                                std::chrono::milliseconds(endpoint.timeout_ms));
      !s.ok())
    return s;
  Result<SmbSession> first = SmbSession::Connect(endpoint);
  if (!first.ok()) return first.status();
  auto pool = std::make_unique<Pool>([endpoint]() -> Result<std::unique_ptr<SmbSession>> {
    auto one = OneCallAtATime();
    Result<SmbSession> more = SmbSession::Connect(endpoint);
    if (!more.ok()) return more.status();
    return std::make_unique<SmbSession>(std::move(more).value());
  });
  pool->Add(std::make_unique<SmbSession>(std::move(first).value()));
  ProtocolUrl shown = url;
  shown.user = endpoint.user;
  return OpenRemoteAppFs(std::make_unique<SmbAppOps>(std::move(pool)), shown.display(),
                         directory.empty() ? "/" : directory, options.keep_on_exit);
}

}  // namespace nasperf
