// ScopedMount, ScopedLoopDevice (the loop ioctls: no losetup needed) and the
// LoopDeviceTest fixture.
#include "testing/loop_device.h"

#include <fcntl.h>
#include <linux/loop.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "testing/skip.h"

namespace nasperf::testing {

ScopedMount::ScopedMount(const std::string& source, const std::string& dir, const std::string& fstype,
                         unsigned long flags, const std::string& data)
    : dir_(dir) {
  if (::mount(source.c_str(), dir.c_str(), fstype.c_str(), flags, data.empty() ? nullptr : data.c_str()) == 0) {
    mounted_ = true;
  } else {
    error_ = "mount -t " + fstype + " on " + dir + ": " + std::strerror(errno);
  }
}

ScopedMount::~ScopedMount() {
  if (!mounted_) return;
  if (::umount2(dir_.c_str(), 0) != 0) ::umount2(dir_.c_str(), MNT_DETACH);
}

ScopedLoopDevice::ScopedLoopDevice(const std::string& backing_file) {
  int backing = ::open(backing_file.c_str(), O_RDWR | O_CLOEXEC);
  if (backing < 0) {
    error_ = "open " + backing_file + ": " + std::strerror(errno);
    return;
  }
  int control = ::open("/dev/loop-control", O_RDWR | O_CLOEXEC);
  if (control < 0) {
    error_ = std::string("open /dev/loop-control: ") + std::strerror(errno);
    ::close(backing);
    return;
  }
  for (int attempt = 0; attempt < 20 && fd_ < 0; ++attempt) {
    int n = ::ioctl(control, LOOP_CTL_GET_FREE);
    if (n < 0) {
      error_ = std::string("LOOP_CTL_GET_FREE: ") + std::strerror(errno);
      break;
    }
    std::string dev = "/dev/loop" + std::to_string(n);
    int fd = ::open(dev.c_str(), O_RDWR | O_CLOEXEC);
    if (fd < 0) {
      error_ = "open " + dev + ": " + std::strerror(errno);
      break;
    }
    loop_config config{};
    config.fd = static_cast<uint32_t>(backing);
    config.info.lo_flags = LO_FLAGS_AUTOCLEAR;  // detached when the last fd closes
    int rc = ::ioctl(fd, LOOP_CONFIGURE, &config);
    if (rc != 0 && errno == EINVAL) rc = ::ioctl(fd, LOOP_SET_FD, backing);  // kernels before 5.8
    if (rc == 0) {
      fd_ = fd;
      device_ = dev;
      error_.clear();
    } else {
      error_ = "attach " + dev + ": " + std::strerror(errno);
      ::close(fd);
      if (errno != EBUSY) break;  // EBUSY: another process took it first, try the next
    }
  }
  ::close(control);
  ::close(backing);
}

ScopedLoopDevice::~ScopedLoopDevice() {
  if (fd_ < 0) return;
  ::ioctl(fd_, LOOP_CLR_FD, 0);
  ::close(fd_);
}

void LoopDeviceTest::SetUp() {
  if (!IsRoot()) NASPERF_SKIP_OR_FAIL_IN_CI("needs root to attach loop devices");
  ASSERT_TRUE(dir_.ok()) << "mkdtemp: " << std::strerror(errno);
}

void LoopDeviceTest::TearDown() {
  UnmountAll();
  while (!loops_.empty()) loops_.pop_back();
}

void LoopDeviceTest::UnmountAll() {
  while (!mounts_.empty()) mounts_.pop_back();
}

std::string LoopDeviceTest::Attach(const std::string& image_name, uint64_t bytes) {
  const std::string image = dir_.Sub(image_name);
  std::ofstream(image).close();
  std::error_code ec;
  std::filesystem::resize_file(image, bytes, ec);
  if (ec) {
    error_ = "resize " + image + ": " + ec.message();
    return "";
  }
  auto loop = std::make_unique<ScopedLoopDevice>(image);
  if (!loop->ok()) {
    error_ = "loop device over " + image + ": " + loop->error();
    return "";
  }
  loops_.push_back(std::move(loop));
  return loops_.back()->device();
}

std::string LoopDeviceTest::Mount(const std::string& device, const std::string& fstype,
                                  const std::string& point_name) {
  const std::string point = dir_.Sub(point_name);
  std::error_code ec;
  std::filesystem::create_directories(point, ec);
  auto mount = std::make_unique<ScopedMount>(device, point, fstype, 0, "");
  if (!mount->ok()) {
    error_ = mount->error();
    return "";
  }
  mounts_.push_back(std::move(mount));
  return point;
}

}  // namespace nasperf::testing
