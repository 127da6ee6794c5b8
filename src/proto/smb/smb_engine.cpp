// SmbEngine: each request completes inside submit(), like psync.
#include "proto/smb/smb_engine.h"

#include <fcntl.h>

#include <cerrno>

namespace nasperf {

Status SmbEngine::open(const EngineOpenParams& params) {
  if (!params.remote) return Status::BadInput("the smb engine needs an smb:// target");
  const RemoteFile& r = *params.remote;
  SmbEndpoint endpoint{r.server, r.port, r.share, r.domain, r.user, r.password, r.connect_timeout_ms};
  Result<SmbSession> session = SmbSession::Connect(endpoint);
  if (!session.ok()) return session.status();
  session_.emplace(std::move(session).value());
  path_ = r.path;
  Result<_SMBCFILE*> file = session_->Open(path_, O_RDWR, 0);
  if (!file.ok()) return file.status();
  file_ = file.value();
  buffers_ = params.buffers;
  done_.Reserve(params.queue_depth);
  return Status::Ok();
}

Result<size_t> SmbEngine::submit(std::span<const IoRequest> requests) {
  size_t accepted = 0;
  for (const IoRequest& r : requests) {
    if (done_.Full()) break;
    std::byte* buf = buffers_[r.slot];
    // libsmbclient moves the whole length unless the file ends or the session fails.
    uint64_t moved = 0;
    int64_t result = 0;
    while (moved < r.length) {
      ssize_t n = r.dir == IoDir::kRead ? session_->ReadAt(file_, r.offset + moved, buf + moved, r.length - moved)
                                        : session_->WriteAt(file_, r.offset + moved, buf + moved, r.length - moved);
      if (n < 0) {
        result = n;
        break;
      }
      if (n == 0) break;
      moved += static_cast<uint64_t>(n);
    }
    done_.Push({r.slot, result < 0 ? result : static_cast<int64_t>(moved)});
    ++accepted;
  }
  return accepted;
}

Result<size_t> SmbEngine::reap(std::span<IoCompletion> out, size_t, std::chrono::microseconds) {
  return done_.PopInto(out);
}

Status SmbEngine::sync() {
  // libsmbclient has no fsync (no SMB2 FLUSH call): closing the handle is the most it
  // offers, and it makes the server's writes visible, not durable. The target's notes
  // say so; reopen so the engine stays usable.
  if (Status s = session_->Close(file_); !s.ok()) {
    file_ = nullptr;
    return s;
  }
  Result<_SMBCFILE*> file = session_->Open(path_, O_RDWR, 0);
  file_ = file.ok() ? file.value() : nullptr;
  return file.status();
}

void SmbEngine::close() {
  if (file_ && session_) session_->Close(file_);
  file_ = nullptr;
  session_.reset();
}

}  // namespace nasperf
