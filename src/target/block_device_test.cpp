// Tests of block-device probing and the destructive-write gate, on real loop devices.
#include "target/block_device.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <utility>

#include "testing/loop_device.h"
#include "testing/process.h"
#include "testing/skip.h"

namespace nasperf {
namespace {

namespace fs = std::filesystem;

constexpr uint64_t kImageBytes = 64ull << 20;

using testing::HaveCommand;
using testing::Shell;

// Each test gets a fresh, zero-filled loop device over a sparse file in its own temp dir
// (testing/loop_device.h); TearDown runs after fatal failures too, so nothing stays
// mounted or attached.
class LoopDeviceTest : public testing::LoopDeviceTest {
 protected:
  void SetUp() override {
    testing::LoopDeviceTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    dir_ = dir();
    device_ = Attach("disk.img", kImageBytes);
    if (device_.empty()) NASPERF_SKIP_OR_FAIL_IN_CI(error());
  }

  // A skip here returns only from this helper: callers check IsSkipped().
  void MakeExt4() {
    if (!HaveCommand("mkfs.ext4")) NASPERF_SKIP_OR_FAIL_IN_CI("mkfs.ext4 not installed (e2fsprogs)");
    testing::ShellResult mkfs = Shell("mkfs.ext4 -q -F " + device_);
    ASSERT_EQ(mkfs.exit_code, 0) << mkfs.output;
  }

  // An MBR with one Linux partition, written by hand so the test needs no sfdisk.
  void WriteMbr() {
    std::array<unsigned char, 512> sector{};
    unsigned char* entry = &sector[446];
    entry[4] = 0x83;  // Linux
    auto put32 = [](unsigned char* at, uint32_t value) {
      for (int i = 0; i < 4; ++i) at[i] = static_cast<unsigned char>(value >> (8 * i));
    };
    put32(entry + 8, 2048);                           // first LBA
    put32(entry + 12, kImageBytes / 512 - 2048);      // sectors
    sector[510] = 0x55;
    sector[511] = 0xAA;
    int fd = open(device_.c_str(), O_WRONLY);
    ASSERT_GE(fd, 0) << std::strerror(errno);
    EXPECT_EQ(pwrite(fd, sector.data(), sector.size(), 0), 512);
    EXPECT_EQ(fsync(fd), 0);
    close(fd);
  }

  std::string dir_;
  std::string device_;
};

void ExpectRefused(const Status& status, const std::string& device, const std::string& reason) {
  EXPECT_EQ(status.kind(), ErrorKind::kBadInput) << status.message();
  EXPECT_NE(status.message().find("refusing to write to " + device), std::string::npos) << status.message();
  EXPECT_NE(status.message().find(reason), std::string::npos) << status.message();
}

TEST_F(LoopDeviceTest, BlankDeviceIsRefusedWhenNotNamed) {
  ExpectRefused(CheckDestructiveWriteAllowed(device_, {}), device_, "--allow-destructive");
  ExpectRefused(CheckDestructiveWriteAllowed(device_, {"/dev/null", dir_}), device_, "--allow-destructive");
}

TEST_F(LoopDeviceTest, BlankDeviceIsAllowedWhenNamed) {
  Status status = CheckDestructiveWriteAllowed(device_, {device_});
  EXPECT_TRUE(status.ok()) << status.message();
}

TEST_F(LoopDeviceTest, SymlinkNamesTheSameDevice) {
  std::string link = dir_ + "/disk-link";
  fs::create_symlink(device_, link);
  Status by_link = CheckDestructiveWriteAllowed(device_, {link});
  EXPECT_TRUE(by_link.ok()) << by_link.message();
  Status to_link = CheckDestructiveWriteAllowed(link, {device_});
  EXPECT_TRUE(to_link.ok()) << to_link.message();
}

TEST_F(LoopDeviceTest, Ext4IsRefused) {
  ASSERT_NO_FATAL_FAILURE(MakeExt4());
  if (IsSkipped()) return;
  ExpectRefused(CheckDestructiveWriteAllowed(device_, {device_}), device_, "ext4");
}

TEST_F(LoopDeviceTest, PartitionTableIsRefused) {
  ASSERT_NO_FATAL_FAILURE(WriteMbr());
  ExpectRefused(CheckDestructiveWriteAllowed(device_, {device_}), device_, "dos partition table");
}

// The first MiB wiped (protective MBR and primary GPT header gone), the backup header in
// the last sector kept: libblkid sees nothing, the partitions' data is still there.
TEST_F(LoopDeviceTest, BackupGptHeaderIsRefused) {
  int fd = open(device_.c_str(), O_WRONLY);
  ASSERT_GE(fd, 0) << std::strerror(errno);
  EXPECT_EQ(pwrite(fd, "EFI PART", 8, kImageBytes - 512), 8);
  EXPECT_EQ(fsync(fd), 0);
  close(fd);
  ExpectRefused(CheckDestructiveWriteAllowed(device_, {device_}), device_, "backup GPT header");
}

TEST_F(LoopDeviceTest, MountedIsRefused) {
  ASSERT_NO_FATAL_FAILURE(MakeExt4());
  if (IsSkipped()) return;
  std::string target = Mount(device_, "ext4");
  if (target.empty()) NASPERF_SKIP_OR_FAIL_IN_CI("mount failed: " + error());
  ExpectRefused(CheckDestructiveWriteAllowed(device_, {device_}), device_, "mounted on " + target);
}

TEST_F(LoopDeviceTest, ExclusiveOpenElsewhereIsRefused) {
  int holder = open(device_.c_str(), O_RDONLY | O_EXCL);
  ASSERT_GE(holder, 0) << std::strerror(errno);
  ExpectRefused(CheckDestructiveWriteAllowed(device_, {device_}), device_, "in use");
  close(holder);
}

TEST_F(LoopDeviceTest, ProbeReportsSizeAndBlockSizes) {
  Result<BlockDeviceInfo> info = ProbeBlockDevice(device_);
  ASSERT_TRUE(info.ok()) << info.status().message();
  EXPECT_EQ(info.value().size_bytes, kImageBytes);
  EXPECT_EQ(info.value().logical_block_bytes, 512u);
  EXPECT_GE(info.value().physical_block_bytes, 512u);
  EXPECT_TRUE(IsBlockDevice(device_));
}

class PlainFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(tmp_.ok()) << std::strerror(errno);
    dir_ = tmp_.path();
    file_ = dir_ + "/file";
    std::ofstream(file_) << "data";
  }
  testing::TempDir tmp_;
  std::string dir_;
  std::string file_;
};

// A sparse image with `signature` written at `offset`.
bool ImageHasBackupGpt(const std::string& path, uint64_t offset, const char* signature) {
  std::ofstream(path, std::ios::trunc).close();
  fs::resize_file(path, kImageBytes);
  int fd = open(path.c_str(), O_RDWR);
  if (fd < 0) return false;
  if (signature != nullptr) {
    EXPECT_EQ(pwrite(fd, signature, 8, static_cast<off_t>(offset)), 8);
  }
  bool found = HasBackupGptHeader(fd, kImageBytes);
  close(fd);
  return found;
}

TEST_F(PlainFileTest, BackupGptHeaderInTheLastSectorIsFound) {
  const std::string image = dir_ + "/disk.img";
  EXPECT_TRUE(ImageHasBackupGpt(image, kImageBytes - 512, "EFI PART")) << "512-byte sectors";
  EXPECT_TRUE(ImageHasBackupGpt(image, kImageBytes - 4096, "EFI PART")) << "4096-byte sectors";
  EXPECT_FALSE(ImageHasBackupGpt(image, 0, nullptr)) << "a blank image";
  EXPECT_FALSE(ImageHasBackupGpt(image, kImageBytes - 1024, "EFI PART")) << "not at a last sector";
  EXPECT_FALSE(ImageHasBackupGpt(image, kImageBytes - 512, "EFI PARU")) << "another signature";
  EXPECT_FALSE(HasBackupGptHeader(-1, kImageBytes));
  EXPECT_FALSE(HasBackupGptHeader(0, 100)) << "smaller than a sector";
}

TEST_F(PlainFileTest, IsNotABlockDevice) {
  EXPECT_FALSE(IsBlockDevice(file_));
  EXPECT_FALSE(IsBlockDevice(dir_));
  EXPECT_FALSE(IsBlockDevice(dir_ + "/missing"));
}

TEST_F(PlainFileTest, WriteCheckRefusesRegularFileAndMissingPath) {
  ExpectRefused(CheckDestructiveWriteAllowed(file_, {file_}), file_, "not a block device");
  EXPECT_EQ(CheckDestructiveWriteAllowed(dir_ + "/missing", {}).kind(), ErrorKind::kBadInput);
}

TEST_F(PlainFileTest, ProbeRefusesRegularFileAndMissingPath) {
  EXPECT_EQ(ProbeBlockDevice(file_).status().kind(), ErrorKind::kBadInput);
  EXPECT_EQ(ProbeBlockDevice(dir_ + "/missing").status().kind(), ErrorKind::kBadInput);
}

}  // namespace
}  // namespace nasperf
