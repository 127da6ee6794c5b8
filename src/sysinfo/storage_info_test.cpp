// Tests of the target section on this machine's own file systems: a temp dir, a file, a
// missing path, URL targets.
#include "sysinfo/storage_info.h"

#include <gtest/gtest.h>
#include <sys/statvfs.h>

#include "model/inventory_json.h"
#include <fstream>
#include <sstream>

#include "sysinfo/sysfs_read.h"
#include "testing/test_support.h"

namespace nasperf::sysinfo {
namespace {

using nlohmann::ordered_json;

// The file system type /proc/self/mounts gives for `path`, read independently of mount_info.cpp:
// the last line whose mount point is the longest prefix of the path.
std::string MountsFsType(const std::string& path) {
  std::ifstream mounts("/proc/self/mounts");
  std::string line, best_point, best_type;
  while (std::getline(mounts, line)) {
    std::istringstream in(line);
    std::string source, point, type;
    in >> source >> point >> type;
    bool under = point == "/" || path == point || path.rfind(point + "/", 0) == 0;
    if (under && point.size() >= best_point.size()) {
      best_point = point;
      best_type = type;
    }
  }
  return best_type;
}

TEST(StorageInfo, TempDirNamesItsFileSystemAndFreeSpace) {
  nasperf::testing::TempDir dir;
  ordered_json target = InventoryToJson(GatherTarget(dir.path()));
  std::string canonical = *RealPath(dir.path());
  EXPECT_EQ(target["path"], canonical);
  EXPECT_EQ(target["kind"], "directory");
  ASSERT_TRUE(target["fs"]["type"].is_string()) << target.dump(2);
  EXPECT_EQ(target["fs"]["type"], MountsFsType(canonical));
  ASSERT_TRUE(target["fs"]["free_bytes"].is_number_unsigned());
  EXPECT_GT(target["fs"]["free_bytes"].get<uint64_t>(), 0u);
  EXPECT_GE(target["fs"]["total_bytes"].get<uint64_t>(), target["fs"]["free_bytes"].get<uint64_t>());
  EXPECT_TRUE(target["fs"]["mount_point"].is_string());
  EXPECT_TRUE(target["network"].is_null());
  // Every device the walk found has the stable keys.
  for (const ordered_json& device : target["devices"]) {
    for (const char* key : {"name", "kind", "model", "size_bytes", "rotational", "scheduler", "logical_block_bytes",
                            "physical_block_bytes", "backing_file", "slaves"}) {
      EXPECT_TRUE(device.contains(key)) << key;
    }
  }
  EXPECT_TRUE(target["raid"].contains("kind"));
}

TEST(StorageInfo, FileTargetIsOnTheSameFileSystemAsItsDirectory) {
  nasperf::testing::TempDir dir;
  std::string file = dir.path() + "/data.bin";
  std::ofstream(file) << "x";
  ordered_json of_file = InventoryToJson(GatherTarget(file));
  ordered_json of_dir = InventoryToJson(GatherTarget(dir.path()));
  EXPECT_EQ(of_file["kind"], "file");
  EXPECT_EQ(of_file["fs"]["type"], of_dir["fs"]["type"]);
  EXPECT_EQ(of_file["fs"]["mount_point"], of_dir["fs"]["mount_point"]);
  EXPECT_EQ(of_file["devices"], of_dir["devices"]);
}

TEST(StorageInfo, MissingPathHasNullFactsAndTheSameKeys) {
  ordered_json target = InventoryToJson(GatherTarget("/nonexistent/nasperf/path"));
  EXPECT_EQ(target["path"], "/nonexistent/nasperf/path");
  EXPECT_TRUE(target["kind"].is_null());
  for (const auto& [key, value] : target["fs"].items()) EXPECT_TRUE(value.is_null()) << key;
  EXPECT_EQ(target["devices"], ordered_json::array());
  EXPECT_TRUE(target["raid"]["kind"].is_null());
  nasperf::testing::TempDir dir;
  std::vector<std::string> keys, missing_keys;
  ordered_json existing = InventoryToJson(GatherTarget(dir.path()));
  for (const auto& [key, value] : existing.items()) keys.push_back(key);
  for (const auto& [key, value] : target.items()) missing_keys.push_back(key);
  EXPECT_EQ(keys, missing_keys);
}

TEST(StorageInfo, UrlTargetGivesTheRouteAndRedactsPasswords) {
  ordered_json target = InventoryToJson(GatherTarget("smb://alice:secret@127.0.0.1/public"));
  EXPECT_EQ(target["path"], "smb://alice:***@127.0.0.1/public");
  EXPECT_EQ(target["kind"], "url");
  EXPECT_EQ(target["network"]["server"], "127.0.0.1");
  EXPECT_EQ(target["network"]["address"], "127.0.0.1");
  EXPECT_EQ(target["network"]["nic"]["name"], "lo");
  EXPECT_EQ(target["devices"], ordered_json::array());
  EXPECT_EQ(target.dump().find("secret"), std::string::npos);
}

TEST(StorageInfo, RedactUrl) {
  EXPECT_EQ(RedactUrl("smb://u:p@h/s"), "smb://u:***@h/s");
  EXPECT_EQ(RedactUrl("smb://u@h/s"), "smb://u@h/s");
  EXPECT_EQ(RedactUrl("nfs://h:2049/export"), "nfs://h:2049/export");
  EXPECT_EQ(RedactUrl("smb://h/share@x:y"), "smb://h/share@x:y");
  EXPECT_EQ(RedactUrl("/tmp/a:b@c"), "/tmp/a:b@c");
}

}  // namespace
}  // namespace nasperf::sysinfo
