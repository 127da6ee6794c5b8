// IscsiEngine: submit queues SCSI tasks; reap drives libiscsi's event loop.
#include "proto/iscsi/iscsi_engine.h"


#include <cerrno>

#include "proto/event_loop.h"

namespace nasperf {

Status IscsiEngine::open(const EngineOpenParams& params) {
  if (!params.remote) return Status::BadInput("the iscsi engine needs an iscsi:// target");
  const RemoteFile& r = *params.remote;
  Result<IscsiSession> session =
      IscsiSession::Connect(r.server, r.port, r.share, std::stoi(r.path), r.connect_timeout_ms, r.user, r.password);
  if (!session.ok()) return session.status();
  session_.emplace(std::move(session).value());
  where_ = "iscsi://" + r.server + ":" + std::to_string(r.port ? r.port : 3260) + "/" + r.share + "/" + r.path;
  buffers_ = params.buffers;
  pending_.assign(params.queue_depth, Pending{this, 0, 0, {}});
  for (uint32_t i = 0; i < params.queue_depth; ++i) pending_[i].slot = i;
  done_.Reserve(params.queue_depth);
  return Status::Ok();
}

void IscsiEngine::OnDone(iscsi_context*, int status, void* command_data, void* private_data) {
  Pending& p = *static_cast<Pending*>(private_data);
  auto* task = static_cast<scsi_task*>(command_data);
  bool good = status == SCSI_STATUS_GOOD && task && task->status == SCSI_STATUS_GOOD;
  if (task) scsi_free_scsi_task(task);
  // libiscsi's own statuses say the transport failed, not the LUN: a dead server then reads
  // "Connection reset by peer" or "timed out" in the error line, not "Input/output error".
  int64_t failed = status == SCSI_STATUS_TIMEOUT                                     ? -ETIMEDOUT
                   : status == SCSI_STATUS_CANCELLED || status == SCSI_STATUS_ERROR ? -ECONNRESET
                                                                                    : -EIO;
  p.engine->done_.Push({p.slot, good ? static_cast<int64_t>(p.length) : failed});
  --p.engine->inflight_;
}

Result<size_t> IscsiEngine::submit(std::span<const IoRequest> requests) {
  const uint32_t block = session_->block_bytes();
  size_t accepted = 0;
  for (const IoRequest& r : requests) {
    Pending& p = pending_[r.slot];
    p.length = r.length;
    auto* data = reinterpret_cast<unsigned char*>(buffers_[r.slot]);
    scsi_task* task;
    if (r.dir == IoDir::kRead) {
      p.iov = scsi_iovec{data, r.length};
      task = iscsi_read16_iov_task(session_->get(), session_->lun(), r.offset / block, r.length,
                                   static_cast<int>(block), 0, 0, 0, 0, 0, &IscsiEngine::OnDone, &p, &p.iov, 1);
    } else {
      task = iscsi_write16_task(session_->get(), session_->lun(), r.offset / block, data, r.length,
                                static_cast<int>(block), 0, 0, 0, 0, 0, &IscsiEngine::OnDone, &p);
    }
    if (!task) {
      done_.Push({r.slot, -EIO});  // could not be queued: the session is gone
    } else {
      ++inflight_;
    }
    ++accepted;
  }
  return accepted;
}

Status IscsiEngine::Service(int timeout_ms) {
  iscsi_context* iscsi = session_->get();
  Status s = ServiceOnce(iscsi_get_fd(iscsi), static_cast<short>(iscsi_which_events(iscsi)), timeout_ms,
                         [iscsi](int revents) { return iscsi_service(iscsi, revents); }, "iscsi");
  // One line that names the server: the session is gone (libiscsi does not reconnect).
  if (!s.ok() && s.kind() == ErrorKind::kIo)
    return Status::Io(where_ + ": connection to the server failed: " + session_->LastError());
  return s;
}

Result<size_t> IscsiEngine::reap(std::span<IoCompletion> out, size_t min_complete,
                                 std::chrono::microseconds timeout) {
  return ReapByPolling(done_, inflight_, out, min_complete, timeout, [this](int wait_ms) { return Service(wait_ms); });
}

Status IscsiEngine::sync() {
  scsi_task* task = iscsi_synchronizecache16_sync(session_->get(), session_->lun(), 0, 0, 0, 0);
  bool good = task && task->status == SCSI_STATUS_GOOD;
  if (task) scsi_free_scsi_task(task);
  if (!good) return Status::Io(where_ + ": SYNCHRONIZE CACHE(16) failed: " + session_->LastError());
  return Status::Ok();
}

void IscsiEngine::close() { session_.reset(); }

}  // namespace nasperf
