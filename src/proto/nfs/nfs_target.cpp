// NfsTarget: checks, file set-up and clean-up over one synchronous libnfs session.
#include "proto/nfs/nfs_target.h"
#include "proto/nfs/nfs_engine.h"

#include <fcntl.h>
#include <nfsc/libnfs.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

#include "base/units.h"
#include "target/file_layout.h"
#include "target/own_file.h"

namespace nasperf {

NfsTarget::~NfsTarget() {
  if (files_.empty()) return;
  auto unlink_all = [this] {
    bool all = true;
    for (const OwnFile& f : files_) all = nfs_unlink(location_->session.get(), f.path.c_str()) == 0 && all;
    return all;
  };
  if (location_ && unlink_all()) return;
  // The session died mid-run (or never was): one fresh mount, best effort, so the
  // server keeps none of our files.
  location_.reset();
  Result<NfsLocation> again = MountNfsUrl(url_, timeout_ms_);
  if (!again.ok()) return;
  location_.emplace(std::move(again).value());
  unlink_all();
}

Status NfsTarget::Connect() {
  if (location_) return Status::Ok();
  Result<NfsLocation> location = MountNfsUrl(url_, timeout_ms_);
  if (!location.ok()) return location.status();
  location_.emplace(std::move(location).value());
  return Status::Ok();
}

Status NfsTarget::Check(const JobSpec& job) {
  if (job.engine != "auto" && job.engine != "nfs")
    return Status::BadInput("--engine: nfs:// targets always use the nfs engine (libnfs); drop --engine " + job.engine);
  if (Status s = Connect(); !s.ok()) return s;
  nfs_context* nfs = location_->session.get();
  const std::string& dir = location_->directory;
  nfs_stat_64 st{};
  if (int rc = nfs_stat64(nfs, dir.c_str(), &st); rc != 0)
    return NfsStatus(location_->session, "stat", url_.display(), rc);
  if (!S_ISDIR(st.nfs_mode)) return Status::BadInput("TARGET: " + url_.display() + " is not a directory");
  Result<uint64_t> free_bytes = FreeBytes();
  uint64_t want = job.size * job.threads;
  if (free_bytes.ok() && free_bytes.value() > 0 && want > free_bytes.value())
    return Status::BadInput("--size: " + std::to_string(job.threads) + " x " + FormatSize(job.size) + " needs " +
                            FormatSize(want) + " but " + url_.display() + " has only " +
                            FormatSize(free_bytes.value()) + " free");
  return Status::Ok();
}

Result<uint64_t> NfsTarget::FreeBytes() {
  if (Status s = Connect(); !s.ok()) return s;
  nfs_statvfs_64 vfs{};
  if (int rc = nfs_statvfs64(location_->session.get(), location_->directory.c_str(), &vfs); rc != 0)
    return NfsStatus(location_->session, "statvfs", url_.display(), rc);
  if (vfs.f_blocks == 0) return uint64_t{0};  // the server does not say
  return vfs.f_bavail * (vfs.f_frsize ? vfs.f_frsize : vfs.f_bsize);
}

Status NfsTarget::CreateFile(uint32_t thread) {
  std::string dir = location_->directory == "/" ? "" : location_->directory;
  // A run-unique name (target/own_file.h), created with O_EXCL: another client's file of
  // the same directory is never opened, and only files_ is ever removed.
  std::string path = dir + "/" + OwnFileName(WorkerFileRole(number_, thread));
  nfsfh* fh = nullptr;
  if (int rc = nfs_open2(location_->session.get(), path.c_str(), O_CREAT | O_EXCL | O_WRONLY, 0600, &fh); rc != 0)
    return NfsStatus(location_->session, "create", path, rc);
  nfs_close(location_->session.get(), fh);
  files_.push_back({path, 0});
  return Status::Ok();
}

Status NfsTarget::StartNewFile() {
  if (Status s = Connect(); !s.ok()) return s;
  if (!files_.empty()) {
    if (int rc = nfs_unlink(location_->session.get(), files_[0].path.c_str()); rc != 0 && rc != -ENOENT)
      return NfsStatus(location_->session, "remove", files_[0].path, rc);
    files_.erase(files_.begin());
  }
  // The sweep's only file, so it is file 0 again.
  return CreateFile(0);
}

Status NfsTarget::EnsureData(uint64_t bytes, const BufferPattern& pattern) {
  if (Status s = Connect(); !s.ok()) return s;
  if (files_.empty()) {
    if (Status s = CreateFile(0); !s.ok()) return s;
  }
  OwnFile& own = files_[0];
  nfs_stat_64 st{};
  if (int rc = nfs_stat64(location_->session.get(), own.path.c_str(), &st); rc != 0)
    return NfsStatus(location_->session, "stat", own.path, rc);
  if (st.nfs_size >= bytes) {
    own.data_bytes = std::max(own.data_bytes, st.nfs_size);  // written by the test before
    return Status::Ok();
  }
  if (Status s = LayOut(own.path, bytes, pattern); !s.ok()) return s;
  own.data_bytes = bytes;
  return Status::Ok();
}

Status NfsTarget::LayOut(const std::string& path, uint64_t bytes, const BufferPattern& pattern) {
  nfs_context* nfs = location_->session.get();
  nfsfh* fh = nullptr;
  if (int rc = nfs_open(nfs, path.c_str(), O_WRONLY, &fh); rc != 0)
    return NfsStatus(location_->session, "open", path, rc);
  auto write = [&](uint64_t at, const std::byte* data, uint64_t len) -> Result<uint64_t> {
    int n = nfs_pwrite(nfs, fh, at, len, data);
    if (n > 0) return static_cast<uint64_t>(n);
    return NfsStatus(location_->session, "laying out", path + " at " + FormatSize(at), n < 0 ? n : -EIO);
  };
  Status status = WritePatternBlocks(bytes, pattern, write);
  if (status.ok()) {
    if (int rc = nfs_fsync(nfs, fh); rc != 0) status = NfsStatus(location_->session, "fsync", path, rc);
  }
  nfs_close(nfs, fh);
  return status;
}

Result<std::vector<WorkerFile>> NfsTarget::Open(const JobSpec& job) {
  if (Status s = Connect(); !s.ok()) return s;
  std::vector<WorkerFile> out;
  for (uint32_t t = 0; t < job.threads; ++t) {
    if (t == files_.size()) {
      if (Status s = CreateFile(t); !s.ok()) return s;
    }
    OwnFile& own = files_[t];
    // Only whole records are read, so a file of whole records is complete.
    if (DoesReads(job.rw) && own.data_bytes < job.size - job.size % job.bs) {
      if (Status s = LayOut(own.path, job.size, job.pattern); !s.ok()) return s;
      own.data_bytes = job.size;
    }
    auto remote = std::make_shared<RemoteFile>();
    remote->server = url_.host;
    remote->port = url_.port;
    remote->share = location_->export_path;
    remote->path = own.path;
    remote->connect_timeout_ms = timeout_ms_;
    out.push_back(WorkerFile{ScopedFd(), 0, job.size, std::move(remote)});
  }
  return out;
}

std::optional<ProtocolFacts> NfsTarget::protocol_facts() const {
  if (!location_) return std::nullopt;
  ProtocolFacts facts;
  facts.protocol = "NFS";
  facts.version = "3";  // NfsSession asks libnfs for NFSv3 only
  facts.server = url_.host.find(':') != std::string::npos ? "[" + url_.host + "]" : url_.host;
  if (url_.port) facts.server += ":" + std::to_string(url_.port);
  facts.share = location_->export_path;
  if (location_->directory != "/") facts.options.emplace_back("directory", location_->directory);
  facts.options.emplace_back("transport", "TCP");  // libnfs speaks NFS over TCP only
  nfs_context* nfs = location_->session.get();
  // Negotiated at mount (FSINFO's rtmax and wtmax): the largest single READ and WRITE.
  if (uint64_t readmax = nfs_get_readmax(nfs); readmax > 0) facts.options.emplace_back("max read", FormatSize(readmax));
  if (uint64_t writemax = nfs_get_writemax(nfs); writemax > 0)
    facts.options.emplace_back("max write", FormatSize(writemax));
  facts.options.emplace_back("client cache", "none (libnfs)");
  return facts;
}

Result<CacheDropReport> NfsTarget::DropCache(bool) {
  // Nothing on this side holds the data; what the NAS keeps in its RAM only --nas-ram
  // (or an agent) can tell.
  return CacheDropReport{"libnfs has no client cache (the NAS's own cache is not dropped)", 0, false, 0, ""};
}

TargetCaps NfsTarget::caps() const {
  return {.client_cache = false, .sweepable = true, .asynchronous = true, .shared_file = false};
}

Result<std::unique_ptr<Engine>> NfsTarget::MakeEngine(const JobSpec&) { return std::unique_ptr<Engine>(new NfsEngine()); }

}  // namespace nasperf
