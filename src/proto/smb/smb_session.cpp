// SmbSession: a libsmbclient context per session, and errno to Status.
#include "proto/smb/smb_session.h"

#include <fcntl.h>
#include <libsmbclient.h>
#include <sys/stat.h>
#include <sys/statvfs.h>

#include <fmt/format.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace nasperf {

std::string SmbEndpoint::display() const {
  std::string out = "smb://";
  if (!user.empty()) out += (domain.empty() ? "" : domain + ";") + user + "@";
  out += server.find(':') != std::string::npos ? "[" + server + "]" : server;
  if (port) out += ":" + std::to_string(port);
  return out + "/" + share;
}

void SmbSession::Destroy::operator()(SMBCCTX* c) const { smbc_free_context(c, 1); }

std::string SmbSession::UrlFor(const std::string& path) const {
  // Credentials are given to the context, never put in the URL.
  std::string host = endpoint_->server.find(':') != std::string::npos ? "[" + endpoint_->server + "]" : endpoint_->server;
  if (endpoint_->port) host += ":" + std::to_string(endpoint_->port);
  return "smb://" + host + "/" + endpoint_->share + (path.empty() || path[0] != '/' ? "/" : "") + path;
}

Result<SmbSession> SmbSession::Connect(const SmbEndpoint& endpoint) {
  SmbSession s;
  s.endpoint_ = std::make_unique<SmbEndpoint>(endpoint);
  SMBCCTX* raw = smbc_new_context();
  if (!raw) return Status::Unavailable("smb: cannot create a libsmbclient context");
  smbc_setDebug(raw, 0);
  // Errors become one line of nasperf's; libsmbclient's own log goes nowhere.
  smbc_setLogCallback(raw, nullptr, [](void*, int, const char*) {});
  smbc_setTimeout(raw, static_cast<int>(endpoint.timeout_ms));
  // The dialects libsmbclient may offer, fixed so that the NEGOTIATE probe
  // (smb2_negotiate.h) offers the same and sees the same choice; SMB1 never.
  smbc_setOptionProtocols(raw, "SMB2_02", "SMB3_11");
  // A named user must log in as that user: a wrong password must not quietly become a
  // guest session measuring something else. No user: guest.
  smbc_setOptionNoAutoAnonymousLogin(raw, endpoint.user.empty() ? 0 : 1);
  smbc_setOptionUserData(raw, s.endpoint_.get());
  smbc_setFunctionAuthDataWithContext(
      raw, [](SMBCCTX* c, const char*, const char*, char* wg, int wglen, char* un, int unlen, char* pw, int pwlen) {
        const auto* e = static_cast<const SmbEndpoint*>(smbc_getOptionUserData(c));
        if (!e->domain.empty()) std::snprintf(wg, static_cast<size_t>(wglen), "%s", e->domain.c_str());
        std::snprintf(un, static_cast<size_t>(unlen), "%s", e->user.c_str());
        std::snprintf(pw, static_cast<size_t>(pwlen), "%s", e->password.c_str());
      });
  if (!smbc_init_context(raw)) {
    int err = errno;
    smbc_free_context(raw, 0);
    return Status::Unavailable(std::string("smb: cannot set up libsmbclient: ") + std::strerror(err));
  }
  s.context_.reset(raw);
  Result<bool> root = s.IsDirectory("/");
  // libsmbclient answers a refused login without a password with EINVAL.
  if (!root.ok() && root.status().err() == EINVAL && !endpoint.user.empty() && endpoint.password.empty())
    return Status::BadInput("smb: " + endpoint.display() + ": login as " + endpoint.user +
                            " refused with no password (give --password-file FILE or NASPERF_PASSWORD)");
  if (!root.ok()) return root.status();
  return s;
}

Result<SMBCFILE*> SmbSession::Open(const std::string& path, int flags, mode_t mode) const {
  std::string url = UrlFor(path);
  errno = 0;
  SMBCFILE* f = smbc_getFunctionOpen(get())(get(), url.c_str(), flags, mode);
  if (!f) return SmbStatus(*endpoint_, "open", path, errno ? errno : EIO);
  return f;
}

Status SmbSession::Close(SMBCFILE* file) const {
  if (smbc_getFunctionClose(get())(get(), file) != 0) return SmbStatus(*endpoint_, "close", "", errno ? errno : EIO);
  return Status::Ok();
}

ssize_t SmbSession::ReadAt(SMBCFILE* file, uint64_t offset, void* buffer, size_t length) const {
  // libsmbclient keeps the offset in the client: the seek sends nothing to the server.
  if (smbc_getFunctionLseek(get())(get(), file, static_cast<off_t>(offset), SEEK_SET) < 0) return -(errno ? errno : EIO);
  ssize_t n = smbc_getFunctionRead(get())(get(), file, buffer, length);
  return n < 0 ? -(errno ? errno : EIO) : n;
}

ssize_t SmbSession::WriteAt(SMBCFILE* file, uint64_t offset, const void* buffer, size_t length) const {
  if (smbc_getFunctionLseek(get())(get(), file, static_cast<off_t>(offset), SEEK_SET) < 0) return -(errno ? errno : EIO);
  ssize_t n = smbc_getFunctionWrite(get())(get(), file, buffer, length);
  return n < 0 ? -(errno ? errno : EIO) : n;
}

int64_t SmbSession::Transfer(SMBCFILE* file, bool write, uint64_t offset, std::byte* buffer, size_t length) const {
  // libsmbclient moves the whole length unless the file ends or the session fails.
  uint64_t moved = 0;
  while (moved < length) {
    ssize_t n = write ? WriteAt(file, offset + moved, buffer + moved, length - moved)
                      : ReadAt(file, offset + moved, buffer + moved, length - moved);
    if (n < 0) return n;
    if (n == 0) break;
    moved += static_cast<uint64_t>(n);
  }
  return static_cast<int64_t>(moved);
}

int SmbSession::Unlink(const std::string& path) const {
  std::string url = UrlFor(path);
  return smbc_getFunctionUnlink(get())(get(), url.c_str()) == 0 ? 0 : -(errno ? errno : EIO);
}

Result<struct stat> SmbSession::Stat(const std::string& path) const {
  std::string url = UrlFor(path);
  struct stat st {};
  errno = 0;
  if (smbc_getFunctionStat(get())(get(), url.c_str(), &st) != 0)
    return SmbStatus(*endpoint_, "stat", path, errno ? errno : EIO);
  return st;
}

Result<bool> SmbSession::IsDirectory(const std::string& path) const {
  Result<struct stat> st = Stat(path);
  if (!st.ok()) return st.status();
  return S_ISDIR(st.value().st_mode);
}

Result<uint64_t> SmbSession::FileBytes(const std::string& path) const {
  Result<struct stat> st = Stat(path);
  if (!st.ok()) return st.status();
  return static_cast<uint64_t>(st.value().st_size);
}

uint64_t SmbSession::FreeBytes(const std::string& path) const {
  std::string url = UrlFor(path);
  struct statvfs vfs {};
  if (smbc_getFunctionStatVFS(get())(get(), const_cast<char*>(url.c_str()), &vfs) != 0 || vfs.f_blocks == 0) return 0;
  // libsmbclient fills f_bsize with the bytes per sector and f_frsize with the sectors
  // per allocation unit (Samba 4.17), not the POSIX meaning: the unit is their product.
  uint64_t unit = vfs.f_frsize && vfs.f_frsize < vfs.f_bsize ? uint64_t{vfs.f_bsize} * vfs.f_frsize
                                                             : (vfs.f_frsize ? vfs.f_frsize : vfs.f_bsize);
  return static_cast<uint64_t>(vfs.f_bavail) * unit;
}

Status SmbStatus(const SmbEndpoint& endpoint, const std::string& what, const std::string& path, int err) {
  std::string where = endpoint.display() + (path.empty() || path == "/" ? "" : path);
  switch (err) {
    case EACCES:
    case EPERM:
      return Status::BadInput("smb: " + what + " " + where + ": access denied (wrong user or password, or no rights)");
    case ENOENT:
    case ENODEV:
      return Status::BadInput("smb: " + what + " " + where + ": no such share, file or directory");
    case ENOTDIR:
    case EEXIST:
    case EROFS:
      return Status::BadInput("smb: " + what + " " + where + ": " + std::strerror(err));
    case ECONNREFUSED:
    case ECONNABORTED:
    case EHOSTUNREACH:
    case ENETUNREACH:
    case ETIMEDOUT:
    case ETIME:
    case ECONNRESET:
    case EPIPE:
      return Status::Unavailable("smb: " + what + " " + where + ": " + std::strerror(err) +
                                 fmt::format(" (connect timeout {:g} s)", endpoint.timeout_ms / 1000.0));
    default:
      return Status::Io("smb: " + what + " " + where + ": " + std::strerror(err), err);
  }
}

}  // namespace nasperf
