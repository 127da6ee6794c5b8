// IscsiSession: login and READ CAPACITY(16).
#include "proto/iscsi/iscsi_session.h"

#include <iscsi/iscsi.h>
#include <iscsi/scsi-lowlevel.h>
#include <unistd.h>

#include "base/tcp_connect.h"

namespace nasperf {

void IscsiSession::Destroy::operator()(iscsi_context* c) const {
  if (iscsi_is_logged_in(c)) iscsi_logout_sync(c);
  iscsi_destroy_context(c);
}

std::string IscsiSession::LastError() const {
  const char* e = context_ ? iscsi_get_error(context_.get()) : nullptr;
  std::string text = e ? e : "";
  // Some of libiscsi's messages end in a newline: an error stays one line.
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  return text.empty() ? "no detail from libiscsi" : text;
}

Result<IscsiSession> IscsiSession::Connect(const std::string& server, uint16_t port, const std::string& iqn, int lun,
                                           uint32_t timeout_ms, const std::string& chap_user,
                                           const std::string& chap_password) {
  if (Status s = CheckReachable("iscsi portal", server, port ? port : 3260, std::chrono::milliseconds(timeout_ms));
      !s.ok())
    return s;
  IscsiSession s;
  std::string initiator = "iqn.2026-11.org.nasperf:initiator-" + std::to_string(::getpid());
  s.context_.reset(iscsi_create_context(initiator.c_str()));
  if (!s.context_) return Status::Unavailable("iscsi: cannot create a libiscsi context");
  iscsi_set_targetname(s.get(), iqn.c_str());
  iscsi_set_session_type(s.get(), ISCSI_SESSION_NORMAL);
  iscsi_set_header_digest(s.get(), ISCSI_HEADER_DIGEST_NONE_CRC32C);
  if (!chap_user.empty() && iscsi_set_initiator_username_pwd(s.get(), chap_user.c_str(), chap_password.c_str()) != 0)
    return Status::BadInput("iscsi: cannot use CHAP user " + chap_user + ": " + s.LastError());
  iscsi_set_timeout(s.get(), static_cast<int>((timeout_ms + 999) / 1000));
  // libiscsi reconnects a logged-in session on any socket error, and retries a refused
  // reconnect forever: a run against a target that died hung in reap() (lab test
  // server_kill). A benchmark must report a dead server, not wait for it to come back.
  iscsi_set_noautoreconnect(s.get(), 1);
  std::string portal = (server.find(':') != std::string::npos ? "[" + server + "]" : server) + ":" +
                       std::to_string(port ? port : 3260);
  std::string where = "iscsi://" + portal + "/" + iqn + "/" + std::to_string(lun);
  if (iscsi_full_connect_sync(s.get(), portal.c_str(), lun) != 0) {
    std::string detail = s.LastError();
    // The portal answered and said no (unknown target, LUN, login refused): bad input.
    bool answered = detail.find("ogin") != std::string::npos || detail.find("LUN") != std::string::npos ||
                    detail.find("arget") != std::string::npos;
    bool unreachable = detail.find("connect") != std::string::npos || detail.find("imeout") != std::string::npos ||
                       detail.find("timed out") != std::string::npos || detail.find("refused") != std::string::npos;
    std::string message = where + ": " + detail;
    if (unreachable || !answered)
      return Status::Unavailable(message + " (connect timeout " + std::to_string((timeout_ms + 999) / 1000) + " s)");
    return Status::BadInput(message);
  }
  scsi_task* task = iscsi_readcapacity16_sync(s.get(), lun);
  if (!task || task->status != SCSI_STATUS_GOOD) {
    if (task) scsi_free_scsi_task(task);
    return Status::BadInput(where + ": READ CAPACITY(16) failed: " + s.LastError());
  }
  auto* capacity = static_cast<scsi_readcapacity16*>(scsi_datain_unmarshall(task));
  if (!capacity || capacity->block_length == 0) {
    scsi_free_scsi_task(task);
    return Status::BadInput(where + ": READ CAPACITY(16) returned nothing usable");
  }
  s.block_bytes_ = capacity->block_length;
  s.size_bytes_ = (capacity->returned_lba + 1) * capacity->block_length;
  s.lun_ = lun;
  scsi_free_scsi_task(task);
  return s;
}

}  // namespace nasperf
