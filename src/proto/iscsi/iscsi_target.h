// An iSCSI LUN as a target (iscsi://HOST[:PORT]/IQN/LUN), through libiscsi: block-level,
// like a raw local device. Writes destroy what the LUN holds, so they need
// --allow-destructive naming the URL, and no I/O goes past the LUN's capacity.
#pragma once

#include <optional>
#include <string>

#include "proto/iscsi/iscsi_session.h"
#include "target/holes.h"
#include "proto/url.h"
#include "core/target.h"

namespace nasperf {

// Rank `rank` of `ranks`'s region of a LUN of `size_bytes` (all of it for one process), in
// whole blocks of at least 4 KiB; BadInput naming `lun` when the LUN is too small to share.
Result<RankRegion> LunRegion(const std::string& lun, uint64_t size_bytes, uint32_t block_bytes, uint32_t rank,
                             uint32_t ranks);

class IscsiTarget final : public Target {
 public:
  IscsiTarget(ProtocolUrl url, std::string iqn, int lun, const TargetOptions& options)
      : url_(std::move(url)), iqn_(std::move(iqn)), lun_(lun), options_(options) {}
  std::string description() const override { return url_.display(); }
  const char* required_engine() const override { return "iscsi"; }
  TargetCaps caps() const override;
  Result<std::unique_ptr<Engine>> MakeEngine(const JobSpec& job) override;
  std::optional<uint64_t> natural_size(uint32_t threads) const override;
  // No client cache exists on this side: every I/O reaches the target.
  bool SupportsDirect(std::string* why) override { return true; }
  Status Check(const JobSpec& job) override;
  Result<std::vector<WorkerFile>> Open(const JobSpec& job) override;
  Result<CacheDropReport> DropCache(bool) override {
    return CacheDropReport{"libiscsi has no client cache (the target's own cache is not dropped)", 0, false, 0, ""};
  }

  // iSCSI to HOST[:PORT], "IQN/LUN", the LUN's capacity and block size; nullopt until
  // Check (or natural_size) has logged in.
  std::optional<ProtocolFacts> protocol_facts() const override;
  // A LUN may be thin: a read of blocks never written may not touch its disks.
  std::string ReadHoleWarning(const JobSpec& job) override {
    return DoesReads(job.rw) ? DeviceMayHaveHolesWarning("the LUN " + url_.display()) : "";
  }

  // Under mpirun each rank its own region of the LUN; nullopt for one process.
  std::optional<RankRegion> shared_region() const override;

  // Parses iscsi://HOST[:PORT]/IQN/LUN; bad URLs are BadInput.
  static Result<std::unique_ptr<Target>> Make(const ProtocolUrl& url, const TargetOptions& options);

 private:
  Status Connect() const;
  // This process's part of the logged-in LUN: all of it, or its rank's region.
  Result<RankRegion> Region() const;

  ProtocolUrl url_;
  std::string iqn_;
  int lun_;
  TargetOptions options_;
  mutable std::optional<IscsiSession> session_;
};

}  // namespace nasperf
