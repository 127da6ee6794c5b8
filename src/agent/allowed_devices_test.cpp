// Tests of the agent's device allow list and its raw read-only target on loop devices:
// names match as strings, every open is checked by descriptor, writes never open.
#include "agent/allowed_devices.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>

#include "agent/agent_job.h"
#include "agent/device_target.h"
#include "testing/loop_device.h"
#include "testing/skip.h"
#include "wire/messages.h"

namespace nasperf {
namespace {

constexpr uint64_t kBytes = 4ull << 20;

JobSpec RawRead() {
  JobSpec job;
  job.rw = AccessPattern::kRead;
  job.bs = 1 << 20;
  job.size = kBytes;
  job.direct = true;
  return job;
}

class AllowedDevicesTest : public testing::LoopDeviceTest {
 protected:
  void SetUp() override {
    testing::LoopDeviceTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    a_ = Attach("a.img", kBytes);
    b_ = Attach("b.img", kBytes);
    if (a_.empty() || b_.empty()) NASPERF_SKIP_OR_FAIL_IN_CI("cannot attach loop devices: " + error());
  }
  AllowedDevice Allowed(const std::string& path) {
    Result<DeviceAllowList> list = DeviceAllowList::Make({path}, false, dir());
    EXPECT_TRUE(list.ok()) << list.status().message();
    return list.ok() ? list.value().devices().front() : AllowedDevice{};
  }
  std::string a_, b_;
};

TEST_F(AllowedDevicesTest, MakeDescribesEachDeviceOnceAndRefusesWhatIsNotABlockDevice) {
  Result<DeviceAllowList> list = DeviceAllowList::Make({a_, a_, b_}, false, dir());
  ASSERT_TRUE(list.ok()) << list.status().message();
  ASSERT_EQ(list.value().devices().size(), 2u);
  const AllowedDevice& d = list.value().devices().front();
  EXPECT_EQ(d.path, a_);
  EXPECT_EQ(d.name, a_.substr(a_.rfind('/') + 1));
  EXPECT_EQ(d.size_bytes, kBytes);
  EXPECT_EQ(d.allowed_by, "--allow-device");

  const std::string file = dir() + "/plain";
  std::ofstream(file) << "x";
  for (const std::string& bad : {file, dir(), std::string("/dev/null"), dir() + "/missing"}) {
    Result<DeviceAllowList> refused = DeviceAllowList::Make({a_, bad}, false, dir());
    ASSERT_FALSE(refused.ok()) << bad;
    EXPECT_EQ(refused.status().kind(), ErrorKind::kBadInput);
    EXPECT_NE(refused.status().message().find("--allow-device"), std::string::npos) << refused.status().message();
    EXPECT_NE(refused.status().message().find(bad), std::string::npos) << refused.status().message();
  }
}

TEST_F(AllowedDevicesTest, FindMatchesNamesAsStringsNeverThroughASymlink) {
  const std::string alias = dir() + "/alias", other = dir() + "/other";
  ASSERT_EQ(::symlink(a_.c_str(), alias.c_str()), 0);
  ASSERT_EQ(::symlink(a_.c_str(), other.c_str()), 0);
  Result<DeviceAllowList> list = DeviceAllowList::Make({alias}, false, dir());
  ASSERT_TRUE(list.ok()) << list.status().message();
  EXPECT_TRUE(list.value().Find(a_).ok());
  EXPECT_TRUE(list.value().Find(alias).ok());
  for (const std::string& refused : {other, b_, a_ + "/", "/dev/../" + a_.substr(1)}) {
    Result<const AllowedDevice*> found = list.value().Find(refused);
    ASSERT_FALSE(found.ok()) << refused;
    EXPECT_NE(found.status().message().find("not allowed"), std::string::npos) << found.status().message();
  }
}

// The device node's number is what was allowed: a node that now names another device (or
// a character device, or a symlink) is refused at open.
TEST_F(AllowedDevicesTest, OpenChecksTheDescriptorIsTheDeviceAllowedAtStart) {
  AllowedDevice a = Allowed(a_);
  Result<ScopedFd> fd = OpenAllowedDevice(a, O_RDONLY | O_DIRECT);
  ASSERT_TRUE(fd.ok()) << fd.status().message();

  AllowedDevice swapped = a;
  swapped.rdev = Allowed(b_).rdev;
  Result<ScopedFd> other = OpenAllowedDevice(swapped, O_RDONLY);
  ASSERT_FALSE(other.ok());
  EXPECT_NE(other.status().message().find("no longer the device"), std::string::npos) << other.status().message();

  AllowedDevice character = a;
  character.path = "/dev/null";
  EXPECT_FALSE(OpenAllowedDevice(character, O_RDONLY).ok());

  AllowedDevice link = a;
  link.path = dir() + "/node-now-a-link";
  ASSERT_EQ(::symlink(a_.c_str(), link.path.c_str()), 0);
  Result<ScopedFd> through = OpenAllowedDevice(link, O_RDONLY);
  ASSERT_FALSE(through.ok());
  EXPECT_NE(through.status().message().find("symlink"), std::string::npos) << through.status().message();
}

TEST_F(AllowedDevicesTest, OpenForWritingIsRefusedBeforeAnyOpen) {
  AllowedDevice a = Allowed(a_);
  for (int flags : {O_RDWR, O_WRONLY, O_RDWR | O_DIRECT}) {
    Result<ScopedFd> fd = OpenAllowedDevice(a, flags);
    ASSERT_FALSE(fd.ok());
    EXPECT_EQ(fd.status().kind(), ErrorKind::kBadInput);
    EXPECT_NE(fd.status().message().find("read-only"), std::string::npos) << fd.status().message();
  }
}

TEST_F(AllowedDevicesTest, TheTargetRunsRawReadsOnlyOnTheAllowedDevice) {
  AllowedDevice a = Allowed(a_);
  AllowedDeviceTarget target(a);
  EXPECT_EQ(target.natural_size(2), kBytes / 2);
  ASSERT_TRUE(target.Check(RawRead()).ok());
  Result<std::vector<WorkerFile>> files = target.Open(RawRead());
  ASSERT_TRUE(files.ok()) << files.status().message();
  ASSERT_EQ(files.value().size(), 1u);
  EXPECT_EQ(::fcntl(files.value()[0].fd.get(), F_GETFL) & O_ACCMODE, O_RDONLY);

  for (AccessPattern rw :
       {AccessPattern::kWrite, AccessPattern::kRandWrite, AccessPattern::kReadWrite, AccessPattern::kRandReadWrite}) {
    JobSpec job = RawRead();
    job.rw = rw;
    EXPECT_FALSE(target.Check(job).ok()) << ToString(rw);
    EXPECT_FALSE(target.Open(job).ok()) << ToString(rw);
  }
  JobSpec buffered = RawRead(), fsync = RawRead(), verify = RawRead();
  buffered.direct = false;
  fsync.fsync = true;
  verify.verify = true;
  for (const JobSpec& job : {buffered, fsync, verify}) EXPECT_FALSE(target.Check(job).ok());
}

TEST_F(AllowedDevicesTest, PrepareJobResolvesAnAbsoluteDirAgainstTheListNeverTheRoot) {
  Result<RootDir> root = RootDir::Open(dir());
  ASSERT_TRUE(root.ok());
  Result<DeviceAllowList> list = DeviceAllowList::Make({a_}, false, dir());
  ASSERT_TRUE(list.ok());
  auto start = [](const std::string& dir, const char* rw, bool direct) {
    Frame frame{
        MessageType::kJobStart,
        {{"job", {{"rw", rw}, {"bs", 1 << 20}, {"qd", 1}, {"threads", 1}, {"size", 1 << 20}, {"direct", direct}}},
         {"dir", dir}}};
    return std::get<JobStartMsg>(DecodeMessage(frame).value().body);
  };
  bool path_error = false;
  Result<AgentJobRequest> ok = PrepareJob(start(a_, "read", true), root.value(), list.value(), &path_error);
  ASSERT_TRUE(ok.ok()) << ok.status().message();
  ASSERT_NE(ok.value().device, nullptr);
  EXPECT_EQ(ok.value().device->path, a_);

  Result<AgentJobRequest> other = PrepareJob(start(b_, "read", true), root.value(), list.value(), &path_error);
  EXPECT_FALSE(other.ok());
  EXPECT_TRUE(path_error);
  Result<AgentJobRequest> write = PrepareJob(start(a_, "write", true), root.value(), list.value(), &path_error);
  EXPECT_FALSE(write.ok());
  EXPECT_FALSE(path_error) << "a write is a refused request, not a refused path";
  Result<AgentJobRequest> none = PrepareJob(start(a_, "read", true), root.value(), DeviceAllowList(), &path_error);
  EXPECT_FALSE(none.ok());
  EXPECT_TRUE(path_error);
}

}  // namespace
}  // namespace nasperf
