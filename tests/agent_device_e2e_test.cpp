// E2E tests of `agent --allow-device` / `--allow-volume-members` and `run --on HOST /dev/X`:
// an allowed device is read raw and measured; any other device, any write and any
// symlink to a device is refused with one line and logged. Issue 17, item 5.
#include <linux/magic.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include <memory>
#include <string>
#include <vector>

#include "agent_test_support.h"
#include "testing/process.h"
#include "testing/sizes.h"

namespace nasperf::e2e {
namespace {

using nlohmann::json;
using std::chrono::milliseconds;

using testing::kMiB;

// Data that is not zeros, so a read that changed nothing is seen to change nothing.
std::string DeviceContent(uint64_t bytes) {
  std::string content(bytes, '\0');
  for (size_t i = 0; i < content.size(); i += 4096) content[i] = static_cast<char>(1 + i / 4096 % 250);
  return content;
}

// A loop device over a 16 MiB image, a root and a token; the agent is started by each test
// (StartWith) with the options it needs.
class AgentDeviceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!IsRoot()) NASPERF_SKIP_OR_FAIL("needs root to attach a loop device");
    ASSERT_TRUE(dir_.ok());
    backing_ = dir_.Sub("disk.img");
    content_ = DeviceContent(16 * kMiB);
    ASSERT_TRUE(WriteFileBytes(backing_, content_));
    loop_ = std::make_unique<ScopedLoopDevice>(backing_);
    if (!loop_->ok()) NASPERF_SKIP_OR_FAIL("cannot attach a loop device: " + loop_->error());
    root_ = dir_.Sub("root");
    ASSERT_EQ(::mkdir(root_.c_str(), 0700), 0);
    token_file_ = MakeTokenFile(dir_);
  }
  void TearDown() override {
    if (agent_.process.running()) StopAgent();
    if (check_content_ && loop_ && loop_->ok())
      EXPECT_TRUE(ReadFileBytes(backing_) == content_) << "the device was changed";
  }

  void StartWith(const std::vector<std::string>& extra) {
    agent_ = StartAgent(root_, token_file_, extra);
    ASSERT_NE(agent_.port, 0) << "no start line from the agent: '" << agent_.start_line << "'";
  }
  // Stops the agent (SIGTERM: a clean stop) and returns its log.
  std::string StopAgent() {
    agent_.process.Signal(SIGTERM);
    CliResult r = agent_.process.Finish(10);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return r.err;
  }
  CliResult RunOn(const std::string& target, const std::vector<std::string>& job) {
    std::vector<std::string> args = {"run",          "--on",      agent_.address(), target,
                                     "--token-file", token_file_, "--no-store"};
    args.insert(args.end(), job.begin(), job.end());
    return RunNasperf(args, 60);
  }
  // The client's refusal: exit 2, one line naming `needle`, nothing on stdout.
  void ExpectRefused(const std::string& target, const std::vector<std::string>& job, const std::string& needle) {
    CliResult r = RunOn(target, job);
    EXPECT_EQ(r.exit_code, 2) << target << " " << Join(job) << "\n" << r.err;
    EXPECT_EQ(Lines(r.err).size(), 1u) << target << " " << Join(job) << "\n" << r.err;
    EXPECT_TRUE(Contains(r.err, needle)) << target << " " << Join(job) << "\n" << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
  }
  const std::string& device() const { return loop_->device(); }

  TempDir dir_;
  bool check_content_ = true;  // false once a test mounts the device (mounting writes to it)
  std::string backing_, content_, root_, token_file_;
  std::unique_ptr<ScopedLoopDevice> loop_;
  RunningAgent agent_;
};

TEST_F(AgentDeviceTest, AllowedDeviceIsReadRawAndMeasured) {
  StartWith({"--allow-device", device()});
  EXPECT_TRUE(Contains(agent_.start_line, device())) << agent_.start_line;
  CliResult r = RunOn(device(), {"--rw", "read", "--bs", "1m", "--direct", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json doc;
  ASSERT_TRUE(ParseJson(r.out, &doc));
  ASSERT_TRUE(HasDocumentShape(doc));
  const json& run = doc["runs"][0];
  EXPECT_TRUE(HasConsistentFigures(run));
  EXPECT_EQ(run["job"]["size"], 16 * kMiB) << "the default size is the allowed device's size";
  EXPECT_EQ(run["job"]["direct"], true);
  EXPECT_EQ(run["read"]["bytes"], 16 * kMiB);
  EXPECT_GT(run["read"]["mb_per_s"].get<double>(), 0);
  EXPECT_FALSE(run.contains("write"));
  EXPECT_EQ(run.value("measured_on", ""), "nas");
  EXPECT_TRUE(Contains(run["target"].get<std::string>(), ":" + device())) << run["target"];
  EXPECT_EQ(run["inventory"]["target"]["kind"], "block_device") << run["inventory"].dump(2);

  CliResult random = RunOn(device(), {"--rw", "randread", "--bs", "4k", "--size", "4m", "--direct"});
  ASSERT_EQ(random.exit_code, 0) << random.err;
  EXPECT_TRUE(Contains(random.out, "MB/s")) << random.out;
  EXPECT_TRUE(Contains(random.out, "randread")) << random.out;
  const std::string log = StopAgent();
  EXPECT_TRUE(Contains(log, "job read on device " + device())) << log;
  EXPECT_TRUE(DirEntries(root_).empty());
}

TEST_F(AgentDeviceTest, InventoryListsTheAllowedDevices) {
  StartWith({"--allow-device", device()});
  Result<AgentConnection> conn = ConnectControl(agent_.port);
  ASSERT_TRUE(conn.ok()) << conn.status().message();
  Result<Frame> inv =
      conn.value().Request(MessageType::kInventoryGet, json::object(), MessageType::kInventory, milliseconds(10000));
  ASSERT_TRUE(inv.ok()) << inv.status().message();
  const json& devices = inv.value().payload["allowed_devices"];
  ASSERT_EQ(devices.size(), 1u) << inv.value().payload.dump(2);
  EXPECT_EQ(devices[0]["path"], device());
  EXPECT_EQ(devices[0]["name"], device().substr(device().rfind('/') + 1));
  EXPECT_EQ(devices[0]["size_bytes"], 16 * kMiB);
  EXPECT_EQ(devices[0]["allowed_by"], "--allow-device");
}

TEST_F(AgentDeviceTest, AnotherDeviceIsRefusedAndLogged) {
  const std::string other_backing = dir_.Sub("other.img");
  ASSERT_TRUE(WriteFileBytes(other_backing, DeviceContent(4 * kMiB)));
  ScopedLoopDevice other(other_backing);
  if (!other.ok()) NASPERF_SKIP_OR_FAIL("cannot attach a second loop device: " + other.error());
  StartWith({"--allow-device", device()});
  ExpectRefused(other.device(), {"--rw", "read", "--bs", "1m", "--direct"}, "not allowed on this agent");
  ExpectRefused("/etc/passwd", {"--rw", "read", "--bs", "4k", "--direct"}, "not allowed on this agent");
  const std::string log = StopAgent();
  EXPECT_TRUE(Contains(log, "refused: device " + other.device() + " is not allowed")) << log;
}

TEST_F(AgentDeviceTest, NoDeviceIsReadableWithoutAllowDevice) {
  StartWith({});
  ExpectRefused(device(), {"--rw", "read", "--bs", "1m", "--direct"}, "this agent allows no devices");
}

TEST_F(AgentDeviceTest, EveryWriteToAnAllowedDeviceIsRefusedAndLogged) {
  StartWith({"--allow-device", device()});
  const std::vector<std::vector<std::string>> jobs = {
      {"--rw", "write", "--bs", "1m", "--direct"},
      {"--rw", "randwrite", "--bs", "4k", "--direct"},
      {"--rw", "rw", "--bs", "4k", "--direct"},
      {"--rw", "randrw", "--bs", "4k", "--direct"},
      {"--rw", "write", "--bs", "1m", "--direct", "--verify"},
      {"--rw", "write", "--bs", "1m", "--direct", "--fsync"},
      {"--rw", "write", "--bs", "1m", "--direct", "--allow-destructive", device()},
  };
  for (const std::vector<std::string>& job : jobs) ExpectRefused(device(), job, "read-only on this agent");
  // A read is raw or nothing: a buffered read of a device would be the agent's page cache.
  ExpectRefused(device(), {"--rw", "read", "--bs", "1m"}, "--direct");
  const std::string log = StopAgent();
  EXPECT_TRUE(Contains(log, "refused: device " + device() + " is read-only on this agent: --rw write")) << log;
  EXPECT_TRUE(Contains(log, "--rw randwrite")) << log;
  EXPECT_FALSE(Contains(log, "job write")) << log;
}

// A symlink in the root to an allowed device names no device: a relative name goes to the
// root (which refuses symlinks) and an absolute one is not on the allow list.
TEST_F(AgentDeviceTest, SymlinkInTheRootToTheDeviceIsRefused) {
  ASSERT_EQ(::symlink(device().c_str(), (root_ + "/disk").c_str()), 0);
  const std::string outside = dir_.Sub("outside-link");
  ASSERT_EQ(::symlink(device().c_str(), outside.c_str()), 0);
  StartWith({"--allow-device", device()});
  ExpectRefused("disk", {"--rw", "read", "--bs", "1m", "--direct"}, "symlink");
  ExpectRefused(root_ + "/disk", {"--rw", "read", "--bs", "1m", "--direct"}, "not allowed on this agent");
  ExpectRefused(outside, {"--rw", "read", "--bs", "1m", "--direct"}, "not allowed on this agent");
  ExpectRefused("/dev/../" + device().substr(1), {"--rw", "read", "--bs", "1m", "--direct"},
                "not allowed on this agent");
}

// The administrator may name the device by a symlink (/dev/disk/by-id/...): it is
// resolved once, at start, and clients name either.
TEST_F(AgentDeviceTest, AdministratorsSymlinkIsResolvedAtStart) {
  const std::string alias = dir_.Sub("alias");
  ASSERT_EQ(::symlink(device().c_str(), alias.c_str()), 0);
  StartWith({"--allow-device", alias});
  EXPECT_TRUE(Contains(agent_.start_line, device())) << agent_.start_line;
  CliResult r = RunOn(device(), {"--rw", "read", "--bs", "1m", "--size", "2m", "--direct"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
}

TEST_F(AgentDeviceTest, AllowVolumeMembersAllowsTheDeviceUnderTheRoot) {
  if (!testing::HaveCommand("mkfs.ext4")) NASPERF_SKIP_OR_FAIL("mkfs.ext4 not installed (e2fsprogs)");
  testing::ShellResult mkfs = testing::Shell("mkfs.ext4 -q -F " + device());
  ASSERT_EQ(mkfs.exit_code, 0) << mkfs.output;
  check_content_ = false;  // mounting and unmounting write the file system's superblock
  const std::string mnt = dir_.Sub("mnt");
  ASSERT_EQ(::mkdir(mnt.c_str(), 0700), 0);
  testing::ScopedMount mount(device(), mnt, "ext4", 0, "");
  ASSERT_TRUE(mount.ok()) << mount.error();
  root_ = mnt;
  StartWith({"--allow-volume-members"});
  EXPECT_TRUE(Contains(agent_.start_line, device())) << agent_.start_line;
  CliResult r = RunOn(device(), {"--rw", "read", "--bs", "1m", "--size", "4m", "--direct", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json doc;
  ASSERT_TRUE(ParseJson(r.out, &doc));
  EXPECT_EQ(doc["runs"][0]["read"]["bytes"], 4 * kMiB);
  StopAgent();
}

TEST(AgentDeviceStartTest, AllowDeviceOnANonBlockPathIsOneLineAtStart) {
  TempDir dir;
  ASSERT_TRUE(dir.ok());
  const std::string token = MakeTokenFile(dir);
  const std::string file = dir.Sub("plain");
  ASSERT_TRUE(WriteFileBytes(file, "x"));
  struct Case {
    std::vector<std::string> extra;
    std::string needle;
  };
  for (const Case& c : std::vector<Case>{{{"--allow-device", file}, "not a block device"},
                                         {{"--allow-device", dir.path()}, "not a block device"},
                                         {{"--allow-device", dir.Sub("missing")}, "--allow-device"},
                                         {{"--allow-device", "/dev/null"}, "not a block device"}}) {
    std::vector<std::string> args = {"agent", "--listen", "127.0.0.1:0", "--root", dir.path(), "--token-file", token};
    args.insert(args.end(), c.extra.begin(), c.extra.end());
    CliResult r = RunNasperf(args, 20);
    EXPECT_EQ(r.exit_code, 2) << Join(args) << "\n" << r.err;
    EXPECT_EQ(Lines(r.err).size(), 1u) << Join(args) << "\n" << r.err;
    EXPECT_TRUE(Contains(r.err, c.needle)) << Join(args) << "\n" << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
  }
}

TEST(AgentDeviceStartTest, AllowVolumeMembersWithoutMemberDevicesIsOneLineAtStart) {
  TempDir dir;
  ASSERT_TRUE(dir.ok());
  const std::string token = MakeTokenFile(dir);
  struct statfs fs {};
  if (::statfs("/dev/shm", &fs) != 0 || fs.f_type != TMPFS_MAGIC) NASPERF_SKIP_OR_FAIL("/dev/shm is not a tmpfs here");
  CliResult r = RunNasperf(
      {"agent", "--listen", "127.0.0.1:0", "--root", "/dev/shm", "--token-file", token, "--allow-volume-members"}, 20);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(Lines(r.err).size(), 1u) << r.err;
  EXPECT_TRUE(Contains(r.err, "--allow-volume-members")) << r.err;
  EXPECT_TRUE(Contains(r.err, "no member block devices")) << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
}

}  // namespace
}  // namespace nasperf::e2e
