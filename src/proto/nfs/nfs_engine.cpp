// NfsEngine: submit queues libnfs async calls; reap drives libnfs's event loop.
#include "proto/nfs/nfs_engine.h"

#include <fcntl.h>
#include <nfsc/libnfs.h>

#include <cerrno>
#include <cstring>

#include "proto/event_loop.h"

namespace nasperf {

Status NfsEngine::open(const EngineOpenParams& params) {
  if (!params.remote) return Status::BadInput("the nfs engine needs an nfs:// target");
  const RemoteFile& r = *params.remote;
  Result<NfsSession> session = NfsSession::Mount(r.server, r.port, r.share, r.connect_timeout_ms);
  if (!session.ok()) return session.status();
  session_.emplace(std::move(session).value());
  path_ = r.path;
  where_ = "nfs://" + r.server + (r.port ? ":" + std::to_string(r.port) : "") + r.share + r.path;
  if (int rc = nfs_open(session_->get(), path_.c_str(), O_RDWR, &file_); rc != 0)
    return NfsStatus(*session_, "open", path_, rc);
  buffers_ = params.buffers;
  pending_.assign(params.queue_depth, Pending{this, 0, false});
  for (uint32_t i = 0; i < params.queue_depth; ++i) pending_[i].slot = i;
  done_.Reserve(params.queue_depth);
  return Status::Ok();
}

void NfsEngine::OnDone(int status, struct nfs_context*, void* data, void* private_data) {
  Pending& p = *static_cast<Pending*>(private_data);
  NfsEngine& e = *p.engine;
  // libnfs 4.0 hands read data in its own buffer: one copy into the slot's buffer.
  if (p.read && status > 0) std::memcpy(e.buffers_[p.slot], data, static_cast<size_t>(status));
  e.done_.Push({p.slot, status});
  --e.inflight_;
}

Result<size_t> NfsEngine::submit(std::span<const IoRequest> requests) {
  size_t accepted = 0;
  for (const IoRequest& r : requests) {
    Pending& p = pending_[r.slot];
    p.read = r.dir == IoDir::kRead;
    int rc = p.read ? nfs_pread_async(session_->get(), file_, r.offset, r.length, &NfsEngine::OnDone, &p)
                    : nfs_pwrite_async(session_->get(), file_, r.offset, r.length, buffers_[r.slot],
                                       &NfsEngine::OnDone, &p);
    if (rc != 0) {
      done_.Push({r.slot, -EIO});  // could not even be queued: the session is gone
    } else {
      ++inflight_;
    }
    ++accepted;
  }
  return accepted;
}

Status NfsEngine::Service(int timeout_ms) {
  nfs_context* nfs = session_->get();
  Status s = ServiceOnce(nfs_get_fd(nfs), static_cast<short>(nfs_which_events(nfs)), timeout_ms,
                         [nfs](int revents) { return nfs_service(nfs, revents); }, where_);
  // One line that names the server: the session is gone (autoreconnect is off, NfsSession).
  if (!s.ok() && s.kind() == ErrorKind::kIo)
    return Status::Io(where_ + ": connection to the server failed: " + session_->LastError());
  return s;
}

Result<size_t> NfsEngine::reap(std::span<IoCompletion> out, size_t min_complete, std::chrono::microseconds timeout) {
  return ReapByPolling(done_, inflight_, out, min_complete, timeout, [this](int wait_ms) { return Service(wait_ms); });
}

Status NfsEngine::sync() {
  if (int rc = nfs_fsync(session_->get(), file_); rc != 0) return NfsStatus(*session_, "fsync", path_, rc);
  return Status::Ok();
}

void NfsEngine::close() {
  if (file_ && session_) nfs_close(session_->get(), file_);
  file_ = nullptr;
  session_.reset();  // unmounts nothing on the server; the context and socket go
}

}  // namespace nasperf
