// NfsSession: libnfs context set-up, mounting, and finding the export in a URL.
#include "proto/nfs/nfs_session.h"

#include <nfsc/libnfs.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <vector>

#include "base/tcp_connect.h"

namespace nasperf {

void NfsSession::Destroy::operator()(nfs_context* c) const {
  // libnfs 4.0: a synchronous call (nfs_pwrite, nfs_unlink, ...) that fails because the
  // session died returns with its request still queued, and that request's callback data
  // lives on the returned call's stack. nfs_destroy_context() then "cancels" the request
  // by calling the callback, which writes to and formats from that dead stack frame:
  // nasperf crashed (SIGSEGV in nfs_set_error) when the server was killed while a file was
  // being laid out (lab test server_kill). A context with requests still queued has lost
  // its server anyway: leave it (memory and a dead socket, once per failed session)
  // rather than run callbacks into freed stack. It is kept on a list rather than dropped,
  // so the leak is deliberate and visible as such (LeakSanitizer reports only lost memory).
  if (nfs_queue_length(c) > 0) {
    static std::mutex abandoned_mutex;
    static std::vector<nfs_context*>* abandoned = new std::vector<nfs_context*>;
    std::lock_guard<std::mutex> lock(abandoned_mutex);
    abandoned->push_back(c);
    return;
  }
  nfs_destroy_context(c);
}

std::string NfsSession::LastError() const {
  const char* e = context_ ? nfs_get_error(context_.get()) : nullptr;
  return e && *e ? e : "no detail from libnfs";
}

Result<NfsSession> NfsSession::Mount(const std::string& server, uint16_t port, const std::string& export_path,
                                     uint32_t timeout_ms) {
  NfsSession s;
  s.origin_ = "nfs://" + server + (port != 0 ? ":" + std::to_string(port) : "") + export_path;
  s.context_.reset(nfs_init_context());
  if (!s.context_) return Status::Unavailable("nfs: cannot create a libnfs context");
  nfs_set_version(s.get(), 3);  // NFSv3: libnfs 4.0's NFSv4 is not usable (../shared/lab-notes.md)
  nfs_set_timeout(s.get(), static_cast<int>(timeout_ms));
  // A benchmark must see a dead server as an error, not wait for it forever.
  nfs_set_autoreconnect(s.get(), 0);
  if (port != 0) {
    // libnfs 4.0 sets the NFS port only through a URL's arguments.
    std::string options = "nfs://" + server + "/?nfsport=" + std::to_string(port);
    nfs_url* parsed = nfs_parse_url_incomplete(s.get(), options.c_str());
    if (!parsed) return Status::BadInput("nfs: cannot use port " + std::to_string(port) + ": " + s.LastError());
    nfs_destroy_url(parsed);
  }
  int rc = nfs_mount(s.get(), server.c_str(), export_path.c_str());
  if (rc != 0) {
    std::string detail = s.LastError();
    std::string message = s.origin_ + ": mount failed: " + detail;
    // A server that answered the MOUNT call with a refusal (MNT3ERR_NOENT, _ACCES, ...)
    // was given a wrong export: the user's input. Anything else (no route, refused
    // connection, no portmapper, timeout) means the server could not be reached.
    if (detail.find("MNT3ERR") == std::string::npos && detail.find("NFS3ERR") == std::string::npos)
      return Status::Unavailable(message);
    return Status::BadInput(message);
  }
  return s;
}

Result<NfsLocation> MountNfsUrl(const ProtocolUrl& url, uint32_t timeout_ms) {
  if (url.path.empty()) return Status::BadInput("TARGET: " + url.display() + " names no export (nfs://HOST/EXPORT/DIR)");
  // libnfs reports an absent server only as "nfs_service failed"; NFSv3 mounts start at
  // the portmapper (rpcbind), so that is where to knock.
  if (Status s = CheckReachable("nfs server (portmapper)", url.host, 111, std::chrono::milliseconds(timeout_ms));
      !s.ok())
    return s;
  // The URL does not say where the export ends and the directory begins: try the longest
  // path first, as a mount of a subdirectory would.
  Status first_failure;
  for (size_t k = url.path.size(); k >= 1; --k) {
    std::string export_path, directory;
    for (size_t i = 0; i < url.path.size(); ++i) (i < k ? export_path : directory) += "/" + url.path[i];
    Result<NfsSession> session = NfsSession::Mount(url.host, url.port, export_path, timeout_ms);
    if (session.ok()) return NfsLocation{std::move(session).value(), export_path, directory.empty() ? "/" : directory};
    if (first_failure.ok()) first_failure = session.status();
    if (session.status().kind() == ErrorKind::kUnavailable) return session.status();
  }
  return first_failure;
}

std::string NfsErrorDetail(const std::string& libnfs_text, int err) {
  std::string out;
  for (unsigned char c : libnfs_text) {
    if (c >= 0x20 && c < 0x7f) {
      out += static_cast<char>(c);
    } else if (out.size() < 200) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "\\x%02X", c);
      out += hex;
    }
  }
  if (err > 0) out += std::string(" (") + std::strerror(err) + ")";
  return out;
}

Status NfsStatus(const NfsSession& session, const std::string& what, const std::string& path, int result) {
  // Name the server: a path inside the export alone does not say where the failure was.
  std::string where = path.find("://") == std::string::npos ? session.origin() + path : path;
  int err = result < 0 ? -result : EIO;
  std::string detail = session.LastError();
  // libnfs's synchronous calls report a dead connection only as "nfs_service failed".
  if (detail == "nfs_service failed") detail = "connection to the server failed (" + detail + ")";
  std::string message = "nfs: " + what + " " + where + ": " + NfsErrorDetail(detail, result < 0 ? err : 0);
  if (err == ENOENT || err == EACCES || err == EPERM || err == ENOTDIR || err == EEXIST || err == EROFS)
    return Status::BadInput(message);
  return Status::Io(message, err);
}

}  // namespace nasperf
