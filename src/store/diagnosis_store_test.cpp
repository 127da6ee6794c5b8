// Results store: diagnoses — the id reserved at the start, the document round trip, a
// diagnosis that never finished, damaged and missing ones, and the migration to schema 8.
#include <gtest/gtest.h>

#include "store/results_store.h"
#include "store/schema.h"
#include "testing/diagnosis_fixture.h"
#include "testing/pci_nic_diagnosis.h"
#include "testing/test_support.h"

namespace nasperf {
namespace {

using testing::TempDir;

TEST(DiagnosisStore, StoresTheDocumentUnderTheIdBeginReserved) {
  TempDir dir;
  Result<ResultsStore> store = ResultsStore::Open(dir.path() + "/results.db");
  ASSERT_TRUE(store.ok()) << store.status().message();
  Diagnosis d = testing::PciNicDiagnosis();
  Result<int64_t> id = store.value().BeginDiagnosis(d.started_at, d.command_line, d.evidence.target);
  ASSERT_TRUE(id.ok()) << id.status().message();
  EXPECT_EQ(id.value(), 1);
  d.id = id.value();
  ASSERT_TRUE(store.value().FinishDiagnosis(d).ok());
  Result<Diagnosis> back = store.value().LoadDiagnosis(d.id);
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(back.value(), d);
  EXPECT_FALSE(back.value().partial);

  // Every field of the diagnosis and its evidence survives the store, under its new id.
  Diagnosis full = testing::FullDiagnosisFixture();
  full.id = store.value().BeginDiagnosis(full.started_at, full.command_line, full.evidence.target).value();
  EXPECT_EQ(full.id, 2);
  ASSERT_TRUE(store.value().FinishDiagnosis(full).ok());
  Result<Diagnosis> full_back = store.value().LoadDiagnosis(full.id);
  ASSERT_TRUE(full_back.ok()) << full_back.status().message();
  EXPECT_EQ(full_back.value(), full);
}

TEST(DiagnosisStore, ADiagnosisThatNeverFinishedIsListedAsPartial) {
  TempDir dir;
  Result<ResultsStore> store = ResultsStore::Open(dir.path() + "/results.db");
  ASSERT_TRUE(store.ok());
  Diagnosis done = testing::PciNicDiagnosis();
  done.id = store.value().BeginDiagnosis(done.started_at, done.command_line, done.evidence.target).value();
  ASSERT_TRUE(store.value().FinishDiagnosis(done).ok());
  int64_t killed =
      store.value().BeginDiagnosis("2026-12-01T19:00:00Z", "nasperf diagnose /mnt/nas", "/mnt/nas").value();
  EXPECT_EQ(killed, 2);
  Result<std::vector<Diagnosis>> all = store.value().ListDiagnoses();
  ASSERT_TRUE(all.ok()) << all.status().message();
  ASSERT_EQ(all.value().size(), 2u);
  // Newest first.
  const Diagnosis& k = all.value()[0];
  EXPECT_EQ(k.id, killed);
  EXPECT_TRUE(k.partial);
  EXPECT_EQ(k.started_at, "2026-12-01T19:00:00Z");
  EXPECT_EQ(k.command_line, "nasperf diagnose /mnt/nas");
  EXPECT_EQ(k.evidence.target, "/mnt/nas");
  EXPECT_EQ(k.error, "the diagnosis ended before it stored its findings");
  EXPECT_TRUE(k.waterfall.empty());
  EXPECT_EQ(all.value()[1], done);
}

TEST(DiagnosisStore, MissingAndDamagedDiagnosesAreBadInputNamingThem) {
  TempDir dir;
  const std::string path = dir.path() + "/results.db";
  Result<ResultsStore> store = ResultsStore::Open(path);
  ASSERT_TRUE(store.ok());
  Result<Diagnosis> missing = store.value().LoadDiagnosis(9);
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().kind(), ErrorKind::kBadInput);
  EXPECT_EQ(missing.status().message(), "no diagnosis d9 in " + path);
  Diagnosis ghost = testing::PciNicDiagnosis();
  ghost.id = 9;
  Status finish = store.value().FinishDiagnosis(ghost);
  EXPECT_EQ(finish.kind(), ErrorKind::kBadInput);
  EXPECT_NE(finish.message().find("no diagnosis d9"), std::string::npos) << finish.message();

  int64_t id = store.value().BeginDiagnosis("2026-12-01T18:00:00Z", "nasperf diagnose x", "x").value();
  Result<SqliteDb> raw = SqliteDb::Open(path, false);
  ASSERT_TRUE(raw.ok());
  ASSERT_TRUE(raw.value().Exec("UPDATE diagnoses SET document = '{not json' WHERE id = 1").ok());
  Result<Diagnosis> damaged = store.value().LoadDiagnosis(id);
  ASSERT_FALSE(damaged.ok());
  EXPECT_EQ(damaged.status().kind(), ErrorKind::kBadInput);
  EXPECT_EQ(damaged.status().message(), "diagnosis d1 in " + path + ": its stored document is not JSON");
  ASSERT_TRUE(raw.value().Exec("UPDATE diagnoses SET document = '{\"waterfall\": 5}' WHERE id = 1").ok());
  damaged = store.value().LoadDiagnosis(id);
  ASSERT_FALSE(damaged.ok());
  EXPECT_EQ(damaged.status().kind(), ErrorKind::kBadInput);
  EXPECT_EQ(damaged.status().message().rfind("diagnosis d1 in " + path + ": ", 0), 0u) << damaged.status().message();
}

TEST(DiagnosisStore, MigratesSchemaV7KeepingItsRunsAndAddingDiagnoses) {
  TempDir dir;
  std::string path = dir.path() + "/v7.db";
  std::string fixture = testing::TestDataFile(__FILE__, "schema_v7.sql");
  {
    Result<SqliteDb> db = SqliteDb::Open(path, true);
    ASSERT_TRUE(db.ok());
    std::string sql = testing::ReadWholeFile(fixture);
    ASSERT_FALSE(sql.empty()) << fixture;
    ASSERT_TRUE(db.value().Exec(sql).ok());
    ASSERT_EQ(db.value().QueryInt("PRAGMA user_version").value(), 7);
  }
  Result<ResultsStore> store = ResultsStore::Open(path);
  ASSERT_TRUE(store.ok()) << store.status().message();
  Result<std::vector<RunResult>> runs = store.value().List({});
  ASSERT_TRUE(runs.ok()) << runs.status().message();
  ASSERT_EQ(runs.value().size(), 3u);
  EXPECT_EQ(store.value().Load(3).value().name, "v4 agent run");
  EXPECT_EQ(store.value().Load(3).value().measured_on, "nas");
  Result<std::vector<Diagnosis>> none = store.value().ListDiagnoses();
  ASSERT_TRUE(none.ok()) << none.status().message();
  EXPECT_TRUE(none.value().empty());
  Diagnosis d = testing::PciNicDiagnosis();
  d.id = store.value().BeginDiagnosis(d.started_at, d.command_line, d.evidence.target).value();
  EXPECT_EQ(d.id, 1);
  ASSERT_TRUE(store.value().FinishDiagnosis(d).ok());
  EXPECT_EQ(store.value().LoadDiagnosis(1).value(), d);

  Result<SqliteDb> raw = SqliteDb::Open(path, false);
  EXPECT_EQ(raw.value().QueryInt("PRAGMA user_version").value(), kSchemaVersion);
  EXPECT_GE(kSchemaVersion, 8);
}

}  // namespace
}  // namespace nasperf
