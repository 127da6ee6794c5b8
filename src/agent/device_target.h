// A client's job on a device the agent allows (allowed_devices.h): the block-device
// target (target/existing_target.h) behind a gate that refuses every write and buffered
// read, and that checks each descriptor it hands out is the allowed device.
#pragma once

#include <string>

#include "agent/allowed_devices.h"
#include "core/target.h"
#include "target/existing_target.h"

namespace nasperf {

// Ok only for a raw read: rw read or randread, --direct, no --fsync, no --verify.
// BadInput with one line naming the device and what was refused otherwise.
Status CheckDeviceJobReadOnly(const JobSpec& job, const std::string& device);

class AllowedDeviceTarget final : public Target {
 public:
  explicit AllowedDeviceTarget(const AllowedDevice& device)
      : device_(device), inner_(device.path, true, device.size_bytes, TargetOptions{}) {}
  std::string description() const override { return device_.path; }
  std::optional<uint64_t> natural_size(uint32_t threads) const override { return inner_.natural_size(threads); }
  bool SupportsDirect(std::string* why) override { return inner_.SupportsDirect(why); }
  Status Check(const JobSpec& job) override;
  Result<std::vector<WorkerFile>> Open(const JobSpec& job) override;
  Result<CacheDropReport> DropCache(bool system_wide) override { return inner_.DropCache(system_wide); }
  std::string ReadHoleWarning(const JobSpec& job) override { return inner_.ReadHoleWarning(job); }

 private:
  const AllowedDevice& device_;  // lives in the agent's context, which outlives every job
  ExistingTarget inner_;
};

}  // namespace nasperf
