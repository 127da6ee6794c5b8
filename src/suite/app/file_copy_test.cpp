// file-copy's plan (presets, scale, bad input), its space check, and a whole run on
// in-memory ends: figures consistent with each other, the run begun and finished on the
// sink, the timeline kept, every file removed afterwards, the cache state as checked.
#include "suite/app/file_copy.h"

#include <gtest/gtest.h>

#include "testing/memory_app_fs.h"

namespace nasperf {
namespace {

using testing::MemoryAppFs;

class CopyRecordingSink final : public RunSink {
 public:
  Status Begin(RunResult& run) override {
    ++begun;
    run.id = 7;
    return Status::Ok();
  }
  Status Finish(RunResult& run, const RunResult&) override {
    finished.push_back(run);
    return Status::Ok();
  }
  int begun = 0;
  std::vector<RunResult> finished;
};

TEST(FileCopyPlan, PresetsAndScale) {
  Result<FileCopyPlan> dvd = PlanFileCopy("dvd-folder", 0, 1, 0);
  ASSERT_TRUE(dvd.ok()) << dvd.status().message();
  EXPECT_EQ(dvd.value().files.size(), 38u);
  EXPECT_EQ(dvd.value().total_bytes, 4'680'843'264u);
  Result<FileCopyPlan> large = PlanFileCopy("large", 0, 1, uint64_t{8} << 30);
  ASSERT_TRUE(large.ok());
  ASSERT_EQ(large.value().files.size(), 1u);
  EXPECT_EQ(large.value().total_bytes, uint64_t{16} << 30);
  Result<FileCopyPlan> one = PlanFileCopy("", kFileCopyDefaultBytes, 0.001, 0);
  ASSERT_TRUE(one.ok());
  EXPECT_EQ(one.value().total_bytes, 4294967u);
  Result<FileCopyPlan> tiny = PlanFileCopy("dvd-folder", 0, 1e-9, 0);
  ASSERT_TRUE(tiny.ok());
  for (const CopyFile& f : tiny.value().files) EXPECT_GE(f.size_bytes, 1u) << f.rel;
}

TEST(FileCopyPlan, BadInputNamesTheFault) {
  EXPECT_EQ(PlanFileCopy("dvd", 0, 1, 0).status().message(), "file-copy: unknown --preset dvd (dvd-folder, large)");
  EXPECT_EQ(PlanFileCopy("", 1, 0, 0).status().message(), "file-copy: --scale must be above 0, got 0");
  EXPECT_EQ(PlanFileCopy("", 1, -2, 0).status().kind(), ErrorKind::kBadInput);
  EXPECT_EQ(PlanFileCopy("", 0, 1, 0).status().message(), "file-copy: --size must be above 0");
  EXPECT_EQ(PlanFileCopy("large", 0, 1, 0).status().kind(), ErrorKind::kBadInput);
}

TEST(FileCopy, ATooSmallDestinationIsRefusedBeforeAnythingIsWritten) {
  MemoryAppFs to;
  to.SetSpace({1 << 20, 1000});
  FileCopyPlan plan = PlanFileCopy("", 4096, 1, 0).value();
  Status s = CheckFileCopySpace({nullptr, &to}, plan);
  EXPECT_EQ(s.kind(), ErrorKind::kBadInput);
  EXPECT_EQ(s.message(), "file-copy: destination memory: is too small: 4 KiB needed, 1000 B free");
  EXPECT_EQ(to.creates(), 0u);
  EXPECT_TRUE(CheckFileCopySpace({nullptr, nullptr}, plan).ok());
}

// An SMB share cannot sync (libsmbclient has no flush call): the copy to it and the
// staging on it end at the close and say so, with no fsync row. Both ended the run with
// "flush ...: libsmbclient has no flush call" before.
TEST(FileCopy, ADestinationThatCannotSyncIsCopiedToTheLastCloseAndSaysSo) {
  MemoryAppFs from, to;
  from.sync_status = to.sync_status = Status::Unavailable("smb: libsmbclient has no flush call");
  FileCopyPlan plan = PlanFileCopy("", 3u << 20, 1, 0).value();
  FileCopyOptions options;
  options.seed = 5;
  CopyRecordingSink sink;
  NoProgress progress;
  AppRunOutcome out = RunFileCopy({&from, &to}, plan, options, sink, progress, AppRunLabels{});
  ASSERT_TRUE(out.status.ok()) << out.status.message();
  const RunResult& run = sink.finished.at(0);
  EXPECT_EQ(run.app->bytes, 3u << 20);
  for (const AppOpLatency& op : run.app->ops) EXPECT_NE(op.op, "fsync");
  EXPECT_EQ(run.app->write_flush, "none");  // asked, but the target has no flush: not flushed
  bool said = false;
  for (const std::string& n : run.notes) said |= n == "no flush: smb: libsmbclient has no flush call; timed to the last close";
  EXPECT_TRUE(said) << ::testing::PrintToString(run.notes);
  // Any other flush failure still ends the run.
  MemoryAppFs broken;
  broken.sync_status = Status::Io("fsync: EIO");
  CopyRecordingSink sink2;
  EXPECT_FALSE(RunFileCopy({nullptr, &broken}, plan, options, sink2, progress, AppRunLabels{}).status.ok());
}

TEST(FileCopy, ARunRecordsConsistentFiguresAndRemovesItsFiles) {
  MemoryAppFs from, to;
  FileCopyPlan plan = PlanFileCopy("dvd-folder", 0, 0.001, 0).value();
  FileCopyOptions options;
  options.seed = 11;
  options.from = "memory:a";
  options.to = "memory:b";
  options.cache.client_ram_bytes = uint64_t{1} << 30;
  size_t copied_files = 0;
  options.after_copy = [&] { copied_files = to.file_count(); };
  CopyRecordingSink sink;
  NoProgress progress;
  AppRunLabels labels;
  labels.name = "file-copy";
  AppRunOutcome out = RunFileCopy({&from, &to}, plan, options, sink, progress, labels);
  ASSERT_TRUE(out.status.ok()) << out.status.message();
  ASSERT_EQ(sink.begun, 1);
  ASSERT_EQ(sink.finished.size(), 1u);
  const RunResult& run = sink.finished[0];
  EXPECT_EQ(run.id, 7);
  EXPECT_FALSE(run.partial);
  ASSERT_TRUE(run.app.has_value());
  const AppFigures& a = *run.app;
  EXPECT_EQ(a.workload, "file-copy");
  EXPECT_EQ(a.files, 38u);
  EXPECT_EQ(a.bytes, plan.total_bytes);
  EXPECT_GT(a.elapsed_s, 0);
  EXPECT_DOUBLE_EQ(a.mb_per_s, a.bytes / a.elapsed_s / 1e6);
  EXPECT_DOUBLE_EQ(a.files_per_s.value_or(-1), a.files / a.elapsed_s);
  // The memory ends keep their files in RAM, which no drop empties, and 1 GiB of this
  // machine's RAM holds the data: warm (it read "cold" when "nothing to drop" counted).
  EXPECT_EQ(a.cache_state, "warm");
  ASSERT_TRUE(a.dataset.has_value());
  EXPECT_EQ(a.dataset->seed, 11u);
  EXPECT_EQ(a.dataset->bytes, plan.total_bytes);
  ASSERT_TRUE(run.write.has_value());
  ASSERT_TRUE(run.read.has_value());
  EXPECT_EQ(run.write->bytes, plan.total_bytes);
  EXPECT_FALSE(run.samples.empty());  // at least the last, partial second
  EXPECT_EQ(copied_files, 38u);
  EXPECT_EQ(to.file_count(), 0u);
  EXPECT_EQ(from.file_count(), 0u);
  EXPECT_EQ(to.syncs.load(), 38u);
  EXPECT_EQ(a.write_flush, "fsync_in_clock");
}

TEST(FileCopy, WithoutSyncNothingIsFlushed) {
  MemoryAppFs to;
  FileCopyOptions options;
  options.sync = false;
  CopyRecordingSink sink;
  NoProgress progress;
  ASSERT_TRUE(
      RunFileCopy({nullptr, &to}, PlanFileCopy("", 5000, 1, 0).value(), options, sink, progress, {}).status.ok());
  EXPECT_EQ(to.syncs.load(), 0u);
  for (const AppOpLatency& o : sink.finished[0].app->ops) EXPECT_NE(o.op, "fsync");
  EXPECT_EQ(sink.finished[0].app->write_flush, "none");
}

// A copy to the null sink writes nothing: it has no flush state to state.
TEST(FileCopy, ACopyToTheNullSinkHasNoWriteFlushState) {
  MemoryAppFs from;
  CopyRecordingSink sink;
  NoProgress progress;
  ASSERT_TRUE(RunFileCopy({&from, nullptr}, PlanFileCopy("", 5000, 1, 0).value(), FileCopyOptions{}, sink, progress, {})
                  .status.ok());
  EXPECT_EQ(sink.finished[0].app->write_flush, "");
}

TEST(FileCopy, AFailedCopyIsStoredPartialWithItsErrorAndCleansUp) {
  MemoryAppFs to;
  FileCopyPlan plan = PlanFileCopy("dvd-folder", 0, 0.0001, 0).value();
  to.FailCreateOf(plan.files[3].rel);
  CopyRecordingSink sink;
  NoProgress progress;
  AppRunOutcome out = RunFileCopy({nullptr, &to}, plan, {}, sink, progress, {});
  EXPECT_EQ(out.status.kind(), ErrorKind::kIo);
  ASSERT_EQ(sink.finished.size(), 1u);
  EXPECT_TRUE(sink.finished[0].partial);
  EXPECT_EQ(sink.finished[0].error, "create VTS_01_4.VOB: injected failure");
  EXPECT_EQ(sink.finished[0].app->files, 3u);
  EXPECT_EQ(to.file_count(), 0u);
}

TEST(CacheState, ColdWarmOrUnknownAsChecked) {
  CacheFacts f;
  f.data_bytes = 100;
  EXPECT_EQ(CacheStateOf(f), "unknown");  // nothing known, nothing dropped
  f.client_ram_bytes = 1000;
  EXPECT_EQ(CacheStateOf(f), "warm");
  f.data_bytes = 1001;
  EXPECT_EQ(CacheStateOf(f), "cold");
  f.remote_end = true;  // the server's RAM not known: it may hold it
  EXPECT_EQ(CacheStateOf(f), "unknown");
  f.nas_ram_bytes = 500;
  EXPECT_EQ(CacheStateOf(f), "warm");
  f.data_bytes = 1501;
  EXPECT_EQ(CacheStateOf(f), "cold");
  f.data_bytes = 100;
  f.client_dropped = true;  // dropped here only: the server may still hold it
  EXPECT_EQ(CacheStateOf(f), "unknown");
  f.nas_dropped = true;
  EXPECT_EQ(CacheStateOf(f), "cold");
  // A local copy whose drop evicted pages but left some resident: neither cold nor warm.
  CacheFacts partly;
  partly.data_bytes = 100;
  partly.client_ram_bytes = 1000;
  partly.client_evicted_some = true;
  EXPECT_EQ(CacheStateOf(partly), "unknown");
}

// DropClientCaches: cold needs every end emptied; a RAM end (never emptied) keeps it warm.
TEST(CacheState, DropClientCachesNeedsEveryEndEmptied) {
  testing::MemoryAppFs ram;  // its files live in RAM: never emptied
  CacheFacts f;
  f.data_bytes = 100;
  f.client_ram_bytes = 1000;
  std::vector<std::string> notes;
  DropClientCaches({&ram, nullptr}, f, notes);
  EXPECT_FALSE(f.client_dropped);
  EXPECT_EQ(CacheStateOf(f), "warm");
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_EQ(notes[0], "cache drop on memory:: nothing to drop (memory)");
  CacheFacts none;
  DropClientCaches({nullptr, nullptr}, none, notes);
  EXPECT_FALSE(none.client_dropped);  // no end at all is not a drop
}

}  // namespace
}  // namespace nasperf
