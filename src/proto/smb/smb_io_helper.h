// Parallel SMB streams without threads: libsmbclient (Samba 4.17) aborts when two threads
// use two contexts at once, and Debian's library exports no thread support. So with
// --threads N over smb:// each worker's SMB session lives in a helper process of its own
// (this binary again, `nasperf smb-io-helper`, hidden), reached over a socket pair; the
// I/O buffers are shared memory, so data crosses once, as a memcpy on this side.
//
// Frames on the socket, all host byte order (both ends are this binary):
//   setup    parent -> helper: u32 length, then JSON {server, port, share, path, user,
//            domain, password, timeout_ms, slots, buffer_bytes}; the password never
//            appears in an argument or the environment
//   ready    helper -> parent: i32 error kind (0: connected, file open), u32 length, text
//   request  parent -> helper: HelperRequest; reply: i64 result (bytes moved or -errno)
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "nasperf/engine.h"
#include "nasperf/status.h"
#include "base/scoped_fd.h"

namespace nasperf {

struct HelperRequest {
  uint64_t offset = 0;
  uint32_t length = 0;
  uint32_t slot = 0;
  uint32_t op = 0;  // HelperOp
  uint32_t reserved = 0;
};
enum HelperOp : uint32_t { kHelperRead = 0, kHelperWrite = 1, kHelperSync = 2 };

// The helper side: serves one session on `socket` with the buffers in `shared_memory`
// until the parent closes the socket. Returns the process's exit status; a malformed
// frame is one line on stderr and exit 2. The caller (the smb-io-helper command) ignores
// Ctrl-C, which the parent handles, and asks to end with its parent.
int RunSmbIoHelper(int socket, int shared_memory);

// The parent side: one helper process, its socket and the shared buffers.
class SmbHelperProcess {
 public:
  SmbHelperProcess() = default;
  SmbHelperProcess(const SmbHelperProcess&) = delete;
  SmbHelperProcess& operator=(const SmbHelperProcess&) = delete;
  ~SmbHelperProcess() { Stop(); }

  // Starts the helper, which connects to `file`'s server and opens it; returns when it
  // has (or with its error). `slots` buffers of `buffer_bytes` each.
  Status Start(const RemoteFile& file, uint32_t slots, uint64_t buffer_bytes);
  std::byte* buffer(uint32_t slot) const { return memory_ + static_cast<size_t>(slot) * buffer_bytes_; }
  // One request, answered: bytes moved or -errno (-EPIPE when the helper is gone or
  // silent past the timeout).
  int64_t Call(const HelperRequest& request);
  // Closes the socket, which ends the helper, and waits for it.
  void Stop();

 private:
  ScopedFd socket_;
  pid_t pid_ = -1;
  std::byte* memory_ = nullptr;
  size_t memory_bytes_ = 0;
  uint64_t buffer_bytes_ = 0;
  int timeout_ms_ = 0;
};

}  // namespace nasperf
