// The office users: documents staged per user, then open+read, safe-save (temp, fsync,
// rename over) and browse in turn with think time on the clock, until --time.
#include "suite/app/office.h"

#include <gtest/gtest.h>

#include "base/signals.h"
#include "testing/fake_clock.h"
#include "testing/timed_memory_app_fs.h"

namespace nasperf {
namespace {

OfficeOptions SmallOffice() {
  OfficeOptions o;
  o.users = 2;
  o.docs_per_user = 3;
  o.time_s = 10;
  o.think_ms = 1000;
  o.seed = 3;
  return o;
}

const AppOpLatency* Op(const AppFigures& f, const std::string& name) {
  for (const AppOpLatency& op : f.ops)
    if (op.op == name) return &op;
  return nullptr;
}

TEST(Office, RefusesNoUsersAndNoTime) {
  OfficeOptions o = SmallOffice();
  o.users = 0;
  EXPECT_EQ(PlanOffice(o).status().kind(), ErrorKind::kBadInput);
  o = SmallOffice();
  o.time_s = 0;
  EXPECT_EQ(PlanOffice(o).status().kind(), ErrorKind::kBadInput);
}

TEST(Office, StagesEachUsersDocumentsBetweenTheBounds) {
  OfficePlan plan = PlanOffice(SmallOffice()).value();
  testing::TimedMemoryAppFs fs;
  ASSERT_TRUE(StageOffice(fs, plan).ok());
  EXPECT_EQ(fs.dirs().size(), 2u);
  ASSERT_EQ(fs.files().size(), 6u);
  for (const auto& [name, data] : fs.files()) {
    EXPECT_GE(data.size(), 20'000u) << name;
    EXPECT_LE(data.size(), 2'000'000u) << name;
  }
  EXPECT_EQ(fs.files().at(OfficeDocName(1, 2)).size(), plan.sizes[1][2]);
}

TEST(Office, UsersCycleOpenSaveBrowseWithThinkTimeUntilTheDeadline) {
  OfficePlan plan = PlanOffice(SmallOffice()).value();
  testing::FakeClock clock(UINT64_MAX, 0);
  testing::TimedMemoryAppFs fs(1ull << 40, &clock, 1000);
  ASSERT_TRUE(StageOffice(fs, plan).ok());
  const std::map<std::string, std::vector<uint8_t>> staged = fs.files();

  AppFigures f;
  ASSERT_TRUE(RunOffice(fs, plan, clock, &f).ok());
  EXPECT_EQ(f.workload, "office");
  EXPECT_EQ(f.threads, 2u);
  // 10 s, 1 s think after each operation (which takes microseconds here), two users
  // starting 0.5 s apart: each does 10 operations, cycling read, save, browse.
  ASSERT_NE(Op(f, "open"), nullptr);
  EXPECT_EQ(Op(f, "open")->count, 8u);  // each user: operations 1, 4, 7, 10
  EXPECT_EQ(Op(f, "read")->count, 8u);
  EXPECT_EQ(Op(f, "write")->count, 6u);  // 2, 5, 8
  EXPECT_EQ(Op(f, "fsync")->count, 6u);
  EXPECT_EQ(Op(f, "rename")->count, 6u);
  EXPECT_EQ(Op(f, "list")->count, 6u);  // 3, 6, 9
  EXPECT_EQ(fs.renames, 6);
  EXPECT_EQ(fs.syncs, 6);
  EXPECT_EQ(f.write_flush, "fsync_in_clock");  // every save fsynced before its rename
  EXPECT_DOUBLE_EQ(Op(f, "open")->p50_us, 1.0);
  EXPECT_NEAR(f.elapsed_s, 10.0, 1e-9);
  ASSERT_TRUE(f.ops_per_s.has_value());
  EXPECT_NEAR(*f.ops_per_s, 40.0 / f.elapsed_s, 1e-9);
  // The saves replaced documents in place: the same names, no temp file left, new bytes.
  ASSERT_EQ(fs.files().size(), staged.size());
  int changed = 0;
  for (const auto& [name, data] : fs.files()) {
    ASSERT_TRUE(staged.count(name)) << name;
    EXPECT_EQ(data.size(), staged.at(name).size()) << name;
    changed += data != staged.at(name);
  }
  EXPECT_GT(changed, 0);
}

// libsmbclient has no flush: an SMB share's Sync says Unavailable. The office then saves
// without it (write, close, rename), shows no fsync row, and says so; before, the first
// safe-save ended the run with the error.
TEST(Office, ATargetThatCannotSyncSavesWithoutItAndSaysSo) {
  OfficePlan plan = PlanOffice(SmallOffice()).value();
  testing::FakeClock clock(UINT64_MAX, 0);
  testing::TimedMemoryAppFs fs(1ull << 40, &clock, 1000);
  fs.sync_status = Status::Unavailable("smb: libsmbclient has no flush call");
  ASSERT_TRUE(StageOffice(fs, plan).ok());
  AppFigures f;
  std::vector<std::string> notes;
  Status s = RunOffice(fs, plan, clock, &f, &notes);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(Op(f, "fsync"), nullptr);
  ASSERT_NE(Op(f, "rename"), nullptr);
  EXPECT_EQ(Op(f, "rename")->count, 6u);
  EXPECT_EQ(fs.syncs, 1);  // asked once
  EXPECT_EQ(f.write_flush, "none");
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].find("without fsync"), std::string::npos) << notes[0];
  EXPECT_NE(notes[0].find("no flush call"), std::string::npos) << notes[0];
  // Any other failure of Sync still ends the run.
  testing::TimedMemoryAppFs broken(1ull << 40, &clock, 1000);
  broken.sync_status = Status::Io("fsync: EIO");
  ASSERT_TRUE(StageOffice(broken, plan).ok());
  AppFigures g;
  EXPECT_EQ(RunOffice(broken, plan, clock, &g).kind(), ErrorKind::kIo);
}

TEST(Office, StopsOnInterruptWithWhatItMeasured) {
  OfficePlan plan = PlanOffice(SmallOffice()).value();
  testing::FakeClock clock(UINT64_MAX, 0);
  testing::TimedMemoryAppFs fs(1ull << 40, &clock, 1000);
  ASSERT_TRUE(StageOffice(fs, plan).ok());
  InstallInterruptHandler();
  ClearInterrupt();
  fs.raise_sigint_at_rename = 1;  // Ctrl-C during the first user's first save
  AppFigures f;
  Status s = RunOffice(fs, plan, clock, &f);
  ClearInterrupt();
  EXPECT_EQ(s.kind(), ErrorKind::kInterrupted);
  // It stopped before the next operation: two reads and the one save, nothing after.
  ASSERT_NE(Op(f, "rename"), nullptr);
  EXPECT_EQ(Op(f, "rename")->count, 1u);
  EXPECT_EQ(Op(f, "open")->count, 2u);
  EXPECT_EQ(Op(f, "list"), nullptr);
  EXPECT_LT(f.elapsed_s, 2.0);
}

}  // namespace
}  // namespace nasperf
