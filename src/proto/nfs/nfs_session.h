// One libnfs context with an export mounted (NFSv3), shared by the NFS target (file
// set-up and clean-up, synchronous calls) and the NFS engine (one per worker thread).
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "nasperf/status.h"
#include "proto/url.h"

struct nfs_context;

namespace nasperf {

class NfsSession {
 public:
  // Connects to `server` (port 0: the portmapper's NFS port) and mounts `export_path`
  // within `timeout_ms`; every later call on the context times out after that too.
  // Unreachable server: Unavailable; refused mount: BadInput.
  static Result<NfsSession> Mount(const std::string& server, uint16_t port, const std::string& export_path,
                                  uint32_t timeout_ms);
  nfs_context* get() const { return context_.get(); }
  // libnfs's text for the last failure on this context.
  std::string LastError() const;
  // "nfs://HOST[:PORT]/EXPORT": what error messages name.
  const std::string& origin() const { return origin_; }

 private:
  struct Destroy {
    void operator()(nfs_context* c) const;
  };
  std::unique_ptr<nfs_context, Destroy> context_;
  std::string origin_;
};

// Where an nfs:// URL points: the export (the longest leading part of the path the server
// agrees to mount) and the directory inside it, with that export mounted.
struct NfsLocation {
  NfsSession session;
  std::string export_path;  // "/bench"
  std::string directory;    // "/" or "/sub/dir", inside the export
};
Result<NfsLocation> MountNfsUrl(const ProtocolUrl& url, uint32_t timeout_ms);

// "-errno from libnfs" as a Status naming the operation and path.
Status NfsStatus(const NfsSession& session, const std::string& what, const std::string& path, int result);

// libnfs's error text made fit for one line, with the errno's own words after it: libnfs
// 4.0's async write callback formats its error code as a string ("pwrite call failed
// with \"\x1C\"" for ENOSPC, 28), so its text alone can be garbage. `err` 0: none known.
std::string NfsErrorDetail(const std::string& libnfs_text, int err);

}  // namespace nasperf
