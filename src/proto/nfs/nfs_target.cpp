// NfsTarget: checks, file set-up and clean-up over one synchronous libnfs session.
#include "proto/nfs/nfs_target.h"

#include <fcntl.h>
#include <nfsc/libnfs.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/units.h"
#include "target/file_layout.h"

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
  nfs_statvfs_64 vfs{};
  if (nfs_statvfs64(nfs, dir.c_str(), &vfs) == 0 && vfs.f_blocks > 0) {
    uint64_t free_bytes = vfs.f_bavail * (vfs.f_frsize ? vfs.f_frsize : vfs.f_bsize);
    uint64_t want = job.size * job.threads;
    if (want > free_bytes)
      return Status::BadInput("--size: " + std::to_string(job.threads) + " x " + FormatSize(job.size) + " needs " +
                              FormatSize(want) + " but " + url_.display() + " has only " + FormatSize(free_bytes) +
                              " free");
  }
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
  nfs_context* nfs = location_->session.get();
  std::vector<WorkerFile> out;
  for (uint32_t t = 0; t < job.threads; ++t) {
    if (t == files_.size()) {
      std::string dir = location_->directory == "/" ? "" : location_->directory;
      std::string path = dir + "/.nasperf-" + std::to_string(::getpid()) + "-" + std::to_string(t) + ".dat";
      nfsfh* fh = nullptr;
      if (int rc = nfs_open2(nfs, path.c_str(), O_CREAT | O_EXCL | O_WRONLY, 0600, &fh); rc != 0)
        return NfsStatus(location_->session, "create", path, rc);
      nfs_close(nfs, fh);
      files_.push_back({path, 0});
    }
    OwnFile& own = files_[t];
    if (DoesReads(job.rw) && own.data_bytes < job.size) {
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
  return CacheDropReport{"none needed: libnfs has no client cache (the NAS's own cache is not dropped)", 0};
}

}  // namespace nasperf
