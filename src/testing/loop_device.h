// Loop devices and mounts for tests that need a real block device or file system (root):
// ScopedLoopDevice and ScopedMount undo themselves when destroyed, and LoopDeviceTest is
// a fixture that skips without root and detaches and unmounts all it made in TearDown,
// after fatal failures too.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "testing/temp_dir.h"

namespace nasperf::testing {

// A file system mounted with mount(2) for the duration of a test (needs CAP_SYS_ADMIN);
// unmounted (lazily if busy) when destroyed.
class ScopedMount {
 public:
  // `flags` are MS_* flags, `data` the fs options; error() says why when ok() is false.
  ScopedMount(const std::string& source, const std::string& dir, const std::string& fstype, unsigned long flags,
              const std::string& data);
  ScopedMount(const ScopedMount&) = delete;
  ScopedMount& operator=(const ScopedMount&) = delete;
  ~ScopedMount();
  bool ok() const { return mounted_; }
  const std::string& error() const { return error_; }

 private:
  std::string dir_;
  bool mounted_ = false;
  std::string error_;
};

// A loop block device backed by a file, attached with the loop ioctls (needs root);
// detached when destroyed.
class ScopedLoopDevice {
 public:
  explicit ScopedLoopDevice(const std::string& backing_file);
  ScopedLoopDevice(const ScopedLoopDevice&) = delete;
  ScopedLoopDevice& operator=(const ScopedLoopDevice&) = delete;
  ~ScopedLoopDevice();
  bool ok() const { return fd_ >= 0; }
  const std::string& device() const { return device_; }  // "/dev/loopN"
  const std::string& error() const { return error_; }

 private:
  int fd_ = -1;
  std::string device_;
  std::string error_;
};

// A fixture for tests on loop devices: SetUp skips (fails under CI) without root; Attach
// makes a sparse image in the test's own directory and attaches it; Mount mounts a
// device on a fresh directory there. TearDown unmounts, then detaches, in reverse order.
// A derived SetUp calls LoopDeviceTest::SetUp() first and returns when IsSkipped().
class LoopDeviceTest : public ::testing::Test {
 protected:
  void SetUp() override;
  void TearDown() override;
  // The device ("/dev/loopN") over a new zero-filled sparse image of `bytes` named
  // `image_name`; "" after a failure, which error() explains (the caller reports it or skips).
  std::string Attach(const std::string& image_name, uint64_t bytes);
  // Mounts `device` (a `fstype` file system) on dir() + "/" + `point_name`; the mount
  // point, or "" after a failure, which error() explains.
  std::string Mount(const std::string& device, const std::string& fstype, const std::string& point_name = "mnt");
  // Unmounts everything Mount mounted (newest first), before the test goes on.
  void UnmountAll();
  const std::string& dir() const { return dir_.path(); }
  const std::string& error() const { return error_; }

 private:
  TempDir dir_;
  std::vector<std::unique_ptr<ScopedLoopDevice>> loops_;
  std::vector<std::unique_ptr<ScopedMount>> mounts_;
  std::string error_;
};

}  // namespace nasperf::testing
