// One libsmbclient context connected to a share, shared by the SMB target (file set-up
// and clean-up) and the SMB engine (one per worker thread: libsmbclient contexts must not
// be shared between threads).
#pragma once

#include <sys/stat.h>
#include <sys/types.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "nasperf/status.h"

struct _SMBCCTX;
struct _SMBCFILE;

namespace nasperf {

// Where and as whom: everything a context needs. Credentials never leave this struct
// (the auth callback reads them); display() shows none.
struct SmbEndpoint {
  std::string server;
  uint16_t port = 0;  // 0: 445
  std::string share;
  std::string domain, user, password;  // empty user: guest
  uint32_t timeout_ms = 10000;
  // smb://[DOMAIN;]USER@HOST[:PORT]/SHARE, as shown in messages.
  std::string display() const;
};

class SmbSession {
 public:
  // Connects and checks the share by reading its root's attributes, within the timeout.
  // Unreachable server: Unavailable; wrong password, missing share: BadInput.
  static Result<SmbSession> Connect(const SmbEndpoint& endpoint);

  // A file inside the share ("/dir/f") as libsmbclient's URL.
  std::string UrlFor(const std::string& path) const;
  const SmbEndpoint& endpoint() const { return *endpoint_; }
  _SMBCCTX* get() const { return context_.get(); }

  // The calls nasperf makes, each a thin wrapper; failures carry errno.
  Result<_SMBCFILE*> Open(const std::string& path, int flags, mode_t mode) const;
  Status Close(_SMBCFILE* file) const;
  // Returns the bytes moved (short only at the end of a file) or -errno.
  ssize_t ReadAt(_SMBCFILE* file, uint64_t offset, void* buffer, size_t length) const;
  ssize_t WriteAt(_SMBCFILE* file, uint64_t offset, const void* buffer, size_t length) const;
  // One whole request: bytes moved (fewer only at the end of the file) or -errno.
  int64_t Transfer(_SMBCFILE* file, bool write, uint64_t offset, std::byte* buffer, size_t length) const;
  int Unlink(const std::string& path) const;  // 0 or -errno
  // Whether `path` is a directory, a file's size, and the share's free bytes (0: not reported).
  Result<bool> IsDirectory(const std::string& path) const;
  Result<uint64_t> FileBytes(const std::string& path) const;
  uint64_t FreeBytes(const std::string& path) const;

 private:
  Result<struct stat> Stat(const std::string& path) const;
  struct Destroy {
    void operator()(_SMBCCTX* c) const;
  };
  // Heap-held: the context's auth callback keeps its address while the session moves.
  std::unique_ptr<SmbEndpoint> endpoint_;
  std::unique_ptr<_SMBCCTX, Destroy> context_;
};

// A failed libsmbclient call as a Status naming the operation and path: a missing file or
// share, or a refused login, is the user's input (exit 2); no answer is Unavailable.
Status SmbStatus(const SmbEndpoint& endpoint, const std::string& what, const std::string& path, int err);

}  // namespace nasperf
