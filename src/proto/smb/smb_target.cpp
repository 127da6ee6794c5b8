// SmbTarget: checks, file set-up and clean-up over one libsmbclient session, and the
// negotiated dialect from one NEGOTIATE exchange of our own.
#include "proto/smb/smb_target.h"
#include "proto/smb/smb_engine.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

#include "base/units.h"
#include "base/tcp_connect.h"
#include "target/file_layout.h"
#include "target/own_file.h"

namespace nasperf {

Result<std::unique_ptr<SmbTarget>> SmbTarget::Make(const ProtocolUrl& url, const TargetOptions& options) {
  if (url.path.empty()) return Status::BadInput("TARGET: " + url.display() + " names no share (smb://USER@HOST/SHARE/DIR)");
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
  ProtocolUrl shown = url;
  shown.user = endpoint.user;
  return std::unique_ptr<SmbTarget>(new SmbTarget(std::move(shown), std::move(endpoint), std::move(directory)));
}

SmbTarget::~SmbTarget() {
  if (files_.empty()) return;
  auto unlink_all = [this] {
    bool all = true;
    for (const OwnFile& f : files_) all = session_->Unlink(f.path) == 0 && all;
    return all;
  };
  if (session_ && unlink_all()) return;
  // The session died mid-run (or never was): one fresh connection, best effort, so the
  // share keeps none of our files.
  session_.reset();
  Result<SmbSession> again = SmbSession::Connect(endpoint_);
  if (!again.ok()) return;
  session_.emplace(std::move(again).value());
  unlink_all();
}

Status SmbTarget::Connect() {
  if (session_) return Status::Ok();
  const uint16_t port = endpoint_.port ? endpoint_.port : 445;
  if (Status s = CheckReachable("smb server", endpoint_.server, port, std::chrono::milliseconds(endpoint_.timeout_ms));
      !s.ok())
    return s;
  Result<SmbSession> session = SmbSession::Connect(endpoint_);
  if (!session.ok()) return session.status();
  session_.emplace(std::move(session).value());
  // libsmbclient does not say what it negotiated; the server makes the same choice for
  // the same offer (smb2_negotiate.h), so ask it once. Not knowing is not an error.
  Result<Smb2NegotiateFacts> facts =
      ProbeSmb2Negotiate(endpoint_.server, port, endpoint_.timeout_ms);
  if (facts.ok()) negotiated_ = facts.value();
  else negotiate_error_ = facts.status().message();
  return Status::Ok();
}

Status SmbTarget::Check(const JobSpec& job) {
  if (job.engine != "auto" && job.engine != "smb")
    return Status::BadInput("--engine: smb:// targets always use the smb engine (libsmbclient); drop --engine " + job.engine);
  if (Status s = Connect(); !s.ok()) return s;
  threads_ = job.threads;
  const std::string dir = directory_.empty() ? "/" : directory_;
  Result<bool> is_dir = session_->IsDirectory(dir);
  if (!is_dir.ok()) return is_dir.status();
  if (!is_dir.value()) return Status::BadInput("TARGET: " + url_.display() + " is not a directory");
  uint64_t free_bytes = session_->FreeBytes(dir);  // 0: not reported
  uint64_t want = job.size * job.threads;
  if (free_bytes > 0 && want > free_bytes)
    return Status::BadInput("--size: " + std::to_string(job.threads) + " x " + FormatSize(job.size) + " needs " +
                            FormatSize(want) + " but " + url_.display() + " has only " + FormatSize(free_bytes) +
                            " free");
  return Status::Ok();
}

Status SmbTarget::LayOut(const std::string& path, uint64_t bytes, const BufferPattern& pattern) {
  Result<_SMBCFILE*> file = session_->Open(path, O_WRONLY, 0);
  if (!file.ok()) return file.status();
  auto write = [&](uint64_t at, const std::byte* data, uint64_t len) -> Result<uint64_t> {
    ssize_t n = session_->WriteAt(file.value(), at, data, len);
    if (n > 0) return static_cast<uint64_t>(n);
    return SmbStatus(endpoint_, "laying out", path + " at " + FormatSize(at), n < 0 ? static_cast<int>(-n) : EIO);
  };
  Status status = WritePatternBlocks(bytes, pattern, write);
  Status closed = session_->Close(file.value());
  return status.ok() ? closed : status;
}

Result<std::vector<WorkerFile>> SmbTarget::Open(const JobSpec& job) {
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
    remote->server = endpoint_.server;
    remote->port = endpoint_.port;
    remote->share = endpoint_.share;
    remote->path = own.path;
    remote->user = endpoint_.user;
    remote->domain = endpoint_.domain;
    remote->password = endpoint_.password;
    remote->connect_timeout_ms = endpoint_.timeout_ms;
    out.push_back(WorkerFile{ScopedFd(), 0, job.size, std::move(remote)});
  }
  return out;
}

Status SmbTarget::CreateFile(uint32_t thread) {
  // A run-unique name (target/own_file.h), created with O_EXCL: another client's file of
  // the same directory is never opened, and only files_ is ever removed.
  std::string path = directory_ + "/" + OwnFileName(WorkerFileRole(number_, thread));
  Result<_SMBCFILE*> file = session_->Open(path, O_CREAT | O_EXCL | O_WRONLY, 0600);
  if (!file.ok()) return file.status();
  files_.push_back({path, 0});
  return session_->Close(file.value());
}

Status SmbTarget::StartNewFile() {
  if (Status s = Connect(); !s.ok()) return s;
  if (!files_.empty()) {
    if (int rc = session_->Unlink(files_[0].path); rc != 0 && rc != -ENOENT)
      return SmbStatus(endpoint_, "remove", files_[0].path, -rc);
    files_.erase(files_.begin());
  }
  // The sweep's only file, so it is file 0 again.
  return CreateFile(0);
}

Status SmbTarget::EnsureData(uint64_t bytes, const BufferPattern& pattern) {
  if (Status s = Connect(); !s.ok()) return s;
  if (files_.empty()) {
    if (Status s = CreateFile(0); !s.ok()) return s;
  }
  OwnFile& own = files_[0];
  Result<uint64_t> size = session_->FileBytes(own.path);
  if (!size.ok()) return size.status();
  if (size.value() >= bytes) {
    own.data_bytes = std::max(own.data_bytes, size.value());  // written by the test before
    return Status::Ok();
  }
  if (Status s = LayOut(own.path, bytes, pattern); !s.ok()) return s;
  own.data_bytes = bytes;
  return Status::Ok();
}

Result<uint64_t> SmbTarget::FreeBytes() {
  if (Status s = Connect(); !s.ok()) return s;
  return session_->FreeBytes(directory_.empty() ? "/" : directory_);
}

bool SmbTarget::SupportsFsync(std::string* why) const {
  // libsmbclient.h offers no smbc_fsync (no SMB2 FLUSH); closing the file makes the
  // writes visible to other clients, not durable, so it is no fsync either.
  if (why)
    *why = url_.display() + " has no flush: libsmbclient offers no fsync (SMB2 FLUSH) call, and closing the file "
                            "would not make the writes durable; drop --fsync";
  return false;
}

Result<CacheDropReport> SmbTarget::DropCache(bool) {
  return CacheDropReport{"libsmbclient has no client cache (the NAS's own cache is not dropped)", 0, false, 0, ""};
}

std::optional<ProtocolFacts> SmbTarget::protocol_facts() const {
  ProtocolFacts f;
  f.protocol = "SMB";
  f.server = endpoint_.server + (endpoint_.port ? ":" + std::to_string(endpoint_.port) : "");
  f.share = endpoint_.share;
  f.options.emplace_back("user", endpoint_.user.empty() ? "guest" : endpoint_.user);
  if (negotiated_) {
    const Smb2NegotiateFacts& n = *negotiated_;
    f.version = n.dialect_name;
    // Not required by either side: SMB 3.1.1 still signs the session set-up (smbstatus
    // says "partial"), the data is not signed.
    f.options.emplace_back("signing", n.signing_required ? "on (required by the server)"
                                                         : "off for data (neither side requires it)");
    std::string encryption = "off (not requested by nasperf)";
    if (!n.cipher.empty()) encryption += "; server offers " + n.cipher;
    else if (n.server_supports_encryption) encryption += "; server supports it";
    f.options.emplace_back("encryption", encryption);
    if (n.max_read_bytes) f.options.emplace_back("max read", FormatSize(n.max_read_bytes));
    if (n.max_write_bytes) f.options.emplace_back("max write", FormatSize(n.max_write_bytes));
  } else if (!negotiate_error_.empty()) {
    f.options.emplace_back("dialect", "unknown: " + negotiate_error_);
  }
  f.options.emplace_back("client", threads_ > 1 ? "libsmbclient, synchronous, " + std::to_string(threads_) +
                                                   " connections (one helper process each)"
                                             : std::string("libsmbclient, synchronous, one connection"));
  // libsmbclient has no flush call: what a write test measures reached the server, not
  // necessarily its disks.
  f.options.emplace_back("flush", "not available (libsmbclient): written data may still be in the NAS's RAM");
  return f;
}

TargetCaps SmbTarget::caps() const {
  return {.client_cache = false, .sweepable = true, .asynchronous = false, .shared_file = false};
}

Result<std::unique_ptr<Engine>> SmbTarget::MakeEngine(const JobSpec&) { return std::unique_ptr<Engine>(new SmbEngine()); }

}  // namespace nasperf
