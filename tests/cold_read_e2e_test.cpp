// E2E: a buffered read is called cold only when it was checked: the files are dropped
// from the page cache and measured with mincore after they are laid out, just before the
// clock; on tmpfs, where the file is the cache, the run is marked cached and says why.
#include <linux/magic.h>
#include <sys/vfs.h>

#include <string>
#include <vector>

#include "cli_harness.h"

namespace nasperf::e2e {
namespace {

using nlohmann::json;

bool OnRamFs(const std::string& dir) {
  struct statfs fs {};
  if (::statfs(dir.c_str(), &fs) != 0) return false;
  return fs.f_type == TMPFS_MAGIC || fs.f_type == RAMFS_MAGIC;
}

json OneRun(const std::vector<std::string>& args) {
  json doc = NasperfJson(args);
  if (!doc.contains("runs") || doc["runs"].size() != 1) {
    ADD_FAILURE() << "expected one run: " << doc.dump(2);
    return json::object();
  }
  return doc["runs"][0];
}

// The issue's first repeat of `run DIR --rw read` on tmpfs printed "at most 0.0 % of the
// data stayed cached": nothing had been measured, and on tmpfs nothing can be dropped.
TEST(ColdReadE2eTest, AReadOnTmpfsIsMarkedCachedNotCold) {
  TempDir dir("/dev/shm");
  if (!dir.ok() || !OnRamFs(dir.path())) NASPERF_SKIP_OR_FAIL("/dev/shm is not a tmpfs here");
  const std::vector<std::string> args = {"run", dir.path(), "--rw", "read", "--bs", "64k", "--size", "4m"};
  std::vector<std::string> with_json = args;
  with_json.push_back("--json");
  json run = OneRun(with_json);
  ASSERT_TRUE(run.contains("notes")) << run.dump(2);
  const std::string notes = run["notes"].dump();
  EXPECT_TRUE(Contains(notes, "tmpfs: the file lives in RAM; every read is cached")) << notes;
  EXPECT_FALSE(Contains(notes, "stayed cached")) << "a cold read claimed on tmpfs: " << notes;
  EXPECT_EQ(run.value("cached", json()), json(true)) << run.dump(2);

  CliResult table = RunNasperf(args);
  ASSERT_EQ(table.exit_code, 0) << table.err;
  EXPECT_TRUE(Contains(table.out, "note: tmpfs: the file lives in RAM; every read is cached")) << table.out;
  EXPECT_TRUE(NasperfFiles(dir.path()).empty());
}

// On a disk-backed directory the one repeat's check measures the file as laid out.
TEST(ColdReadE2eTest, AReadOnDiskReportsTheResidencyMeasuredAfterTheLayout) {
  TempDir dir;  // /tmp
  if (!dir.ok() || OnRamFs(dir.path())) NASPERF_SKIP_OR_FAIL("/tmp is not disk-backed here");
  json run = OneRun({"run", dir.path(), "--rw", "read", "--bs", "64k", "--size", "4m", "--json"});
  ASSERT_TRUE(run.contains("notes")) << run.dump(2);
  const std::string notes = run["notes"].dump();
  EXPECT_TRUE(Contains(notes, "after the files were laid out")) << notes;
  EXPECT_TRUE(Contains(notes, "mincore found at most")) << notes;
  EXPECT_TRUE(Contains(notes, "of the 4 MiB")) << "the measured amount is the file's: " << notes;
  EXPECT_FALSE(Contains(notes, "not checked")) << notes;
  // fsync + DONTNEED empties an ext4 file's cache: the check says so, and the run is cold.
  EXPECT_EQ(run.value("cached", json()), json(false)) << run.dump(2);
}

}  // namespace
}  // namespace nasperf::e2e
