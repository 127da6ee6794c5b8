// An NFS export as a target (nfs://HOST[:PORT]/EXPORT/DIR), through libnfs (NFSv3, user
// space: this machine needs no kernel NFS client). Like a local directory: one
// .nasperf-<host>-<pid>-<nonce>-t<thread>.dat file per worker in DIR, removed when the target is destroyed;
// a sweep works on the first.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "proto/nfs/nfs_session.h"
#include "proto/url.h"
#include "core/target.h"
#include "target/own_file.h"

namespace nasperf {

class NfsTarget final : public SweepableTarget {
 public:
  NfsTarget(ProtocolUrl url, uint32_t connect_timeout_ms)
      : url_(std::move(url)), timeout_ms_(connect_timeout_ms) {}
  ~NfsTarget() override;
  std::string description() const override { return url_.display(); }
  const char* required_engine() const override { return "nfs"; }
  TargetCaps caps() const override;
  Result<std::unique_ptr<Engine>> MakeEngine(const JobSpec& job) override;
  // libnfs keeps no client cache: every I/O reaches the server, as with O_DIRECT.
  bool SupportsDirect(std::string* why) override { return true; }
  Status Check(const JobSpec& job) override;
  Result<std::vector<WorkerFile>> Open(const JobSpec& job) override;
  Result<CacheDropReport> DropCache(bool system_wide) override;
  // NFSv3 to HOST[:PORT], the export that mounted, the transport and the server's
  // negotiated maximum read and write sizes; nullopt until Check has connected.
  std::optional<ProtocolFacts> protocol_facts() const override;

  Status StartNewFile() override;
  Status EnsureData(uint64_t bytes, const BufferPattern& pattern) override;
  Result<uint64_t> FreeBytes() override;
  bool client_caches() const override { return false; }

 private:
  Status Connect();
  // Creates worker `thread`'s file, empty (the next one: files_ grows by one).
  Status CreateFile(uint32_t thread);
  Status LayOut(const std::string& path, uint64_t bytes, const BufferPattern& pattern);

  ProtocolUrl url_;
  uint32_t timeout_ms_;
  std::optional<NfsLocation> location_;
  struct OwnFile {
    std::string path;          // inside the export
    uint64_t data_bytes = 0;   // bytes written with real data
  };
  std::vector<OwnFile> files_;
  uint32_t number_ = NextOwnTargetNumber();  // its files' names differ from other targets' (own_file.h)
};

}  // namespace nasperf
