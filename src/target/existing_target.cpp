// ExistingTarget: checks and regions for user files and block devices.
#include "target/existing_target.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

#include "base/units.h"
#include "target/block_device.h"
#include "target/file_layout.h"
#include "target/holes.h"
#include "target/page_cache.h"
#include "target/rank_region.h"

namespace nasperf {
namespace {

bool IsOwnFile(const std::string& path) {
  size_t slash = path.find_last_of('/');
  std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
  return base.rfind(".nasperf-", 0) == 0;
}

constexpr uint64_t kRankAlignBytes = 4096;

}  // namespace

ExistingTarget::ExistingTarget(std::string path, bool is_device, uint64_t size_bytes, TargetOptions options,
                               uint32_t block_bytes)
    : path_(std::move(path)),
      is_device_(is_device),
      size_bytes_(size_bytes),
      options_(std::move(options)),
      align_bytes_(std::max<uint64_t>(kRankAlignBytes, block_bytes)),
      region_{0, size_bytes} {
  if (options_.ranks > 1) region_ = RegionOfRank(size_bytes_, options_.rank, options_.ranks, align_bytes_);
}

std::optional<RankRegion> ExistingTarget::shared_region() const {
  if (options_.ranks <= 1) return std::nullopt;
  return region_;
}

Status ExistingTarget::AdoptForWrites() {
  if (own_) return Status::Ok();
  Result<OwnFile> adopted = OwnFile::Adopt(path_);
  if (!adopted.ok()) return adopted.status();
  own_.emplace(std::move(adopted).value());
  return Status::Ok();
}

std::optional<uint64_t> ExistingTarget::natural_size(uint32_t threads) const {
  return region_.bytes / (threads ? threads : 1);
}

bool ExistingTarget::SupportsDirect(std::string* why) {
  int fd = ::open(path_.c_str(), O_RDONLY | O_DIRECT | O_CLOEXEC);
  if (fd < 0) {
    if (why) *why = "the file system does not support O_DIRECT";
    return false;
  }
  ::close(fd);
  return true;
}

Status ExistingTarget::Check(const JobSpec& job) {
  if (Status s = CheckLocalEngine(job); !s.ok()) return s;
  if (options_.ranks > 1) {
    Result<RankRegion> mine = RankRegionOf("TARGET: " + path_, size_bytes_, options_.rank, options_.ranks, align_bytes_);
    if (!mine.ok()) return mine.status();
  }
  used_bytes_ = job.size * job.regions();
  if (DoesWrites(job.rw)) {
    if (is_device_) {
      if (Status s = CheckDestructiveWriteAllowed(path_, options_.allow_destructive); !s.ok()) return s;
    } else if (!IsOwnFile(path_)) {
      return Status::BadInput("TARGET: " + path_ +
                              " is an existing file that nasperf did not create; it only reads such files "
                              "(give a directory to write in)");
    } else if (Status s = AdoptForWrites(); !s.ok()) {
      return s;
    }
  }
  if (static_cast<double>(job.size) * job.regions() > static_cast<double>(region_.bytes)) {
    if (job.shared_file)
      return Status::BadInput("--size: " + FormatSize(job.size) + " (shared by the threads) is more than the " +
                              FormatSize(region_.bytes) + " of " + path_);
    if (options_.ranks > 1)
      return Status::BadInput("--size: " + std::to_string(job.threads) + " x " + FormatSize(job.size) +
                              " is more than the " + FormatSize(region_.bytes) + " each of " +
                              std::to_string(options_.ranks) + " ranks has of the " + FormatSize(size_bytes_) + " of " +
                              path_);
    return Status::BadInput("--size: " + std::to_string(job.threads) + " x " + FormatSize(job.size) + " is more than the " +
                            FormatSize(size_bytes_) + " of " + path_);
  }
  Result<ScopedFd> fd = OpenRegion(job);
  if (!fd.ok()) {
    if (job.direct && fd.status().err() == EINVAL)
      return Status::BadInput("--direct: the file system holding " + path_ + " does not support O_DIRECT; drop --direct");
    if (fd.status().kind() == ErrorKind::kBadInput) return fd.status();
    return Status::BadInput("TARGET: cannot " + fd.status().message());
  }
  return CheckDirectAlignment(job, job.direct ? DirectIoAlignment(fd.value().get()) : 0, path_);
}

Result<CacheDropReport> ExistingTarget::DropCache(bool system_wide) {
  return DropFromPageCache(path_, std::min(region_.offset_bytes + used_bytes_, size_bytes_), system_wide);
}

Result<ScopedFd> ExistingTarget::OpenRegion(const JobSpec& job) {
  // A write goes only to the proved file, by a descriptor checked to be that file.
  if (DoesWrites(job.rw) && !is_device_) {
    if (Status s = AdoptForWrites(); !s.ok()) return s;
    return own_->Reopen(OpenFlagsFor(job));
  }
  ScopedFd fd(::open(path_.c_str(), OpenFlagsFor(job)));
  if (!fd.valid()) return ErrnoStatus("open", path_, errno);
  return fd;
}

std::string ExistingTarget::ReadHoleWarning(const JobSpec& job) {
  if (!DoesReads(job.rw)) return "";
  if (is_device_) return DeviceMayHaveHolesWarning(path_);
  ScopedFd fd(::open(path_.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW));
  if (!fd.valid()) return "";
  const uint64_t length = std::min(job.size * job.regions(), region_.bytes);
  Result<bool> holes = RegionHasHoles(fd.get(), region_.offset_bytes, length);
  return holes.ok() && holes.value() ? FileHolesWarning(path_, length) : "";
}

Result<std::vector<WorkerFile>> ExistingTarget::Open(const JobSpec& job) {
  used_bytes_ = job.size * job.regions();
  std::vector<WorkerFile> out;
  for (uint32_t t = 0; t < job.threads; ++t) {
    Result<ScopedFd> fd = OpenRegion(job);
    if (!fd.ok()) return fd.status();
    // --shared-file: every thread over the same bytes, as fio's clones of one filename=.
    const uint64_t base = region_.offset_bytes + (job.shared_file ? 0 : job.size * t);
    out.push_back(WorkerFile{std::move(fd).value(), base, job.size, nullptr});
  }
  return out;
}

}  // namespace nasperf
