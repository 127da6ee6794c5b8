// AllowedDeviceTarget: raw reads only, on descriptors proved to be the allowed device.
#include "agent/device_target.h"

namespace nasperf {

Status CheckDeviceJobReadOnly(const JobSpec& job, const std::string& device) {
  auto refuse = [&device](const std::string& what) {
    return Status::BadInput("device " + device + " is read-only on this agent: " + what +
                            " is refused (raw reads only: --rw read or randread with --direct)");
  };
  if (DoesWrites(job.rw)) return refuse(std::string("--rw ") + ToString(job.rw));
  if (job.verify) return refuse("--verify");
  if (job.fsync) return refuse("--fsync");
  if (!job.direct) return refuse("a buffered read (no --direct)");
  return Status::Ok();
}

Status AllowedDeviceTarget::Check(const JobSpec& job) {
  if (Status s = CheckDeviceJobReadOnly(job, device_.path); !s.ok()) return s;
  // The device is the one allowed at start before the block-device target looks at it.
  Result<ScopedFd> fd = OpenAllowedDevice(device_, OpenFlagsFor(job));
  if (!fd.ok())
    return fd.status().kind() == ErrorKind::kBadInput ? fd.status()
                                                      : Status::BadInput("TARGET: cannot " + fd.status().message());
  return inner_.Check(job);
}

Result<std::vector<WorkerFile>> AllowedDeviceTarget::Open(const JobSpec& job) {
  if (Status s = CheckDeviceJobReadOnly(job, device_.path); !s.ok()) return s;
  Result<std::vector<WorkerFile>> files = inner_.Open(job);
  if (!files.ok()) return files.status();
  // Each worker's own descriptor, as the engine will use it.
  for (const WorkerFile& f : files.value())
    if (Status s = CheckIsAllowedDevice(f.fd.get(), device_); !s.ok()) return s;
  return files;
}

}  // namespace nasperf
