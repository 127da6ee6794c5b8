// An SMB share as a target (smb://[DOMAIN;]USER@HOST[:PORT]/SHARE/DIR), through
// libsmbclient: this machine needs no kernel SMB client. Like a local directory: one
// .nasperf-<host>-<pid>-<nonce>-t<thread>.dat file per worker in DIR, removed when the target is destroyed;
// a sweep works on the first.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "proto/smb/smb2_negotiate.h"
#include "proto/smb/smb_session.h"
#include "proto/url.h"
#include "core/target.h"
#include "target/own_file.h"

namespace nasperf {

class SmbTarget final : public SweepableTarget {
 public:
  // Needs a share in the URL; the user and password come from `options` (the URL's
  // user unless --user overrides it).
  static Result<std::unique_ptr<SmbTarget>> Make(const ProtocolUrl& url, const TargetOptions& options);
  ~SmbTarget() override;
  std::string description() const override { return url_.display(); }
  const char* required_engine() const override { return "smb"; }
  TargetCaps caps() const override;
  Result<std::unique_ptr<Engine>> MakeEngine(const JobSpec& job) override;
  // libsmbclient keeps no data cache on the client: every I/O reaches the server.
  bool SupportsDirect(std::string*) override { return true; }
  Status Check(const JobSpec& job) override;
  Result<std::vector<WorkerFile>> Open(const JobSpec& job) override;
  Result<CacheDropReport> DropCache(bool system_wide) override;
  // libsmbclient has no flush call: --fsync is refused rather than faked.
  bool SupportsFsync(std::string* why) const override;
  std::optional<ProtocolFacts> protocol_facts() const override;

  Status StartNewFile() override;
  Status EnsureData(uint64_t bytes, const BufferPattern& pattern) override;
  Result<uint64_t> FreeBytes() override;
  bool client_caches() const override { return false; }

 private:
  SmbTarget(ProtocolUrl url, SmbEndpoint endpoint, std::string directory)
      : url_(std::move(url)), endpoint_(std::move(endpoint)), directory_(std::move(directory)) {}
  Status Connect();
  // Creates worker `thread`'s file, empty (the next one: files_ grows by one).
  Status CreateFile(uint32_t thread);
  Status LayOut(const std::string& path, uint64_t bytes, const BufferPattern& pattern);

  ProtocolUrl url_;
  SmbEndpoint endpoint_;
  std::string directory_;  // inside the share: "" or "/sub/dir"
  std::optional<SmbSession> session_;
  std::optional<Smb2NegotiateFacts> negotiated_;
  std::string negotiate_error_;  // why the dialect is unknown, when it is
  struct OwnFile {
    std::string path;
    uint64_t data_bytes = 0;
  };
  std::vector<OwnFile> files_;
  uint32_t number_ = NextOwnTargetNumber();  // its files' names differ from other targets' (own_file.h)
  uint32_t threads_ = 1;  // of the last job checked: one connection each
};

}  // namespace nasperf
