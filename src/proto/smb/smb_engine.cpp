// SmbEngine: each request completes inside submit(), like psync.
#include "proto/smb/smb_engine.h"

#include <fcntl.h>

#include <cerrno>
#include <cstring>

namespace nasperf {

Status SmbEngine::open(const EngineOpenParams& params) {
  if (!params.remote) return Status::BadInput("the smb engine needs an smb:// target");
  const RemoteFile& r = *params.remote;
  buffers_ = params.buffers;
  done_.Reserve(params.queue_depth);
  path_ = r.path;
  // Samba 4.17's libsmbclient aborts (talloc, inside tevent) when two threads use two
  // contexts at once: with several workers each session lives in a helper process.
  if (params.workers > 1) {
    helper_ = std::make_unique<SmbHelperProcess>();
    return helper_->Start(r, static_cast<uint32_t>(params.buffers.size()), params.buffer_bytes);
  }
  SmbEndpoint endpoint{r.server, r.port, r.share, r.domain, r.user, r.password, r.connect_timeout_ms};
  Result<SmbSession> session = SmbSession::Connect(endpoint);
  if (!session.ok()) return session.status();
  session_.emplace(std::move(session).value());
  Result<_SMBCFILE*> file = session_->Open(path_, O_RDWR, 0);
  if (!file.ok()) return file.status();
  file_ = file.value();
  return Status::Ok();
}

Result<size_t> SmbEngine::submit(std::span<const IoRequest> requests) {
  size_t accepted = 0;
  for (const IoRequest& r : requests) {
    if (done_.Full()) break;
    const bool write = r.dir == IoDir::kWrite;
    int64_t result;
    if (helper_) {
      // The session is in the helper process: data crosses through its shared buffer.
      std::byte* shared = helper_->buffer(r.slot);
      if (write) std::memcpy(shared, buffers_[r.slot], r.length);
      result = helper_->Call({r.offset, r.length, r.slot, write ? kHelperWrite : kHelperRead, 0});
      if (!write && result > 0) std::memcpy(buffers_[r.slot], shared, static_cast<size_t>(result));
    } else {
      result = session_->Transfer(file_, write, r.offset, buffers_[r.slot], r.length);
    }
    done_.Push({r.slot, result});
    ++accepted;
  }
  return accepted;
}

Result<size_t> SmbEngine::reap(std::span<IoCompletion> out, size_t, std::chrono::microseconds) {
  return done_.PopInto(out);
}

Status SmbEngine::sync() {
  // libsmbclient has no fsync (no SMB2 FLUSH call), and closing the handle makes the
  // writes visible, not durable: SmbTarget refuses --fsync before a job starts, and an
  // engine asked anyway says so rather than pretend.
  return Status::BadInput("--fsync: libsmbclient offers no flush (fsync) for " + path_);
}

void SmbEngine::close() {
  helper_.reset();
  if (file_ && session_) session_->Close(file_);
  file_ = nullptr;
  session_.reset();
}

}  // namespace nasperf
