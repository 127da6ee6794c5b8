// dir-copy on in-memory ends: directories made parents first, every file copied with its
// times, consistent figures and per-operation latency, several threads, verify catching a
// corrupted copy, staging on a storage source, a --source listing, and everything removed.
#include "suite/app/dir_copy.h"

#include <gtest/gtest.h>

#include "suite/app/app_tree.h"
#include "suite/app/copy_data.h"
#include "workload/dataset_bytes.h"
#include "workload/tree_model.h"
#include "testing/memory_app_fs.h"

namespace nasperf {
namespace {

using testing::MemoryAppFs;

class DirCopyRecordingSink final : public RunSink {
 public:
  Status Begin(RunResult&) override { return Status::Ok(); }
  Status Finish(RunResult& run, const RunResult&) override {
    finished.push_back(run);
    return Status::Ok();
  }
  std::vector<RunResult> finished;
};

// 3 directories, 40 files of 0 to 3 KiB (some empty, one over the 1 MiB request).
CopyTree SmallTree() {
  CopyTree t;
  t.dirs = {"a", "a/b", "c"};
  const char* parents[] = {"", "a/", "a/b/", "c/"};
  for (uint64_t i = 0; i < 40; ++i) {
    CopyFile f;
    f.rel = std::string(parents[i % 4]) + "f" + std::to_string(i);
    f.size_bytes = i == 7 ? (uint64_t{1} << 20) + 17 : (i % 5) * 777;
    f.index = i;
    f.mtime_unix_ns = 1'600'000'000'000'000'000 + static_cast<int64_t>(i);
    t.total_bytes += f.size_bytes;
    t.files.push_back(f);
  }
  t.dataset.generator = "test";
  return t;
}

DirCopyOptions Options(uint32_t threads) {
  DirCopyOptions o;
  o.seed = 99;
  o.threads = threads;
  o.from = "generated:test";
  o.to = "memory:";
  return o;
}

TEST(DirCopy, CopiesEveryFileWithItsTimesAndConsistentFigures) {
  for (uint32_t threads : {1u, 4u}) {
    MemoryAppFs to;
    const CopyTree tree = SmallTree();
    DirCopyOptions options = Options(threads);
    bool all_there = true;
    options.after_copy = [&] {
      for (const std::string& d : tree.dirs) all_there &= to.HasDir(d);
      for (const CopyFile& f : tree.files) {
        std::string want(f.size_bytes, '\0');
        FillCopyBytes(99, f.index, 0, want.data(), want.size());
        all_there &= to.Data(f.rel) && *to.Data(f.rel) == want && to.MTime(f.rel) == f.mtime_unix_ns;
      }
    };
    options.file_copy_mb_per_s = 1e9;
    options.file_copy_source = "a test figure";
    DirCopyRecordingSink sink;
    NoProgress progress;
    AppRunOutcome out = RunDirCopy({nullptr, &to}, tree, options, sink, progress, {});
    ASSERT_TRUE(out.status.ok()) << out.status.message();
    EXPECT_TRUE(all_there) << threads;
    ASSERT_EQ(sink.finished.size(), 1u);
    const AppFigures& a = *sink.finished[0].app;
    EXPECT_EQ(a.workload, "dir-copy");
    EXPECT_EQ(a.threads, threads);
    EXPECT_EQ(a.files, 40u);
    EXPECT_EQ(a.bytes, tree.total_bytes);
    EXPECT_DOUBLE_EQ(a.mb_per_s, a.bytes / a.elapsed_s / 1e6);
    EXPECT_DOUBLE_EQ(a.files_per_s.value_or(-1), 40 / a.elapsed_s);
    ASSERT_TRUE(a.small_file_penalty.has_value());
    EXPECT_DOUBLE_EQ(*a.small_file_penalty, 1e9 / a.mb_per_s);
    std::map<std::string, uint64_t> counts;
    for (const AppOpLatency& o : a.ops) counts[o.op] = o.count;
    EXPECT_EQ(counts["mkdir"], 3u);
    EXPECT_EQ(counts["create"], 40u);
    EXPECT_EQ(counts["setattr"], 40u);
    EXPECT_EQ(counts["close"], 40u);
    EXPECT_EQ(counts["write"], 32u + 1u);  // 8 empty files write nothing; the big one twice
    // Each file flushed inside the clock by default, as file-copy does (issue 33 item 5:
    // dir-copy flushed nothing, and its page-cache figure was labelled "cache cold").
    EXPECT_EQ(counts["fsync"], 40u);
    EXPECT_EQ(to.syncs.load(), 40u);
    EXPECT_EQ(a.write_flush, "fsync_in_clock");
    ASSERT_TRUE(a.dataset.has_value());
    EXPECT_EQ(a.dataset->files, 40u);
    EXPECT_EQ(a.dataset->dirs, 3u);
    EXPECT_EQ(to.file_count(), 0u);
    EXPECT_FALSE(to.HasDir("a"));
  }
}

// --no-flush: robocopy's own way, every file closed unflushed, and the run says so.
TEST(DirCopy, NoFlushClosesEveryFileUnflushedAndSaysSo) {
  MemoryAppFs to;
  const CopyTree tree = SmallTree();
  DirCopyOptions options = Options(2);
  options.flush = false;
  DirCopyRecordingSink sink;
  NoProgress progress;
  ASSERT_TRUE(RunDirCopy({nullptr, &to}, tree, options, sink, progress, {}).status.ok());
  const RunResult& run = sink.finished.at(0);
  EXPECT_EQ(to.syncs.load(), 0u);
  for (const AppOpLatency& o : run.app->ops) EXPECT_NE(o.op, "fsync");
  EXPECT_EQ(run.app->write_flush, "none");
  bool said = false;
  for (const std::string& n : run.notes) said |= n.rfind("not flushed (--no-flush)", 0) == 0;
  EXPECT_TRUE(said) << ::testing::PrintToString(run.notes);
}

// The dataset record carries the digest of what the copy wrote (it was ""): for a
// generated tree it is the generator's own TreeDigest, and it is the hash of the bytes
// found at the destination.
TEST(DirCopy, ARunRecordsTheDigestOfWhatItWrote) {
  Result<CopyTree> tree = GeneratedCopyTree("small-files", 0.01, 42);
  ASSERT_TRUE(tree.ok()) << tree.status().message();
  MemoryAppFs to;
  DirCopyOptions options = Options(2);
  options.seed = 42;
  std::string written_digest;
  options.after_copy = [&] {
    DatasetDigest d;
    for (const std::string& dir : tree.value().dirs) d.AddDir(dir);
    for (const CopyFile& f : tree.value().files) {
      d.AddFile(f.rel, f.size_bytes);
      if (to.Data(f.rel)) d.Update(to.Data(f.rel)->data(), to.Data(f.rel)->size());
    }
    written_digest = d.Finish();
  };
  DirCopyRecordingSink sink;
  NoProgress progress;
  AppRunOutcome out = RunDirCopy({nullptr, &to}, tree.value(), options, sink, progress, {});
  ASSERT_TRUE(out.status.ok()) << out.status.message();
  const AppDataset& dataset = *sink.finished.at(0).app->dataset;
  EXPECT_EQ(dataset.seed, 42u);
  EXPECT_EQ(dataset.digest.rfind("sha256:", 0), 0u) << dataset.digest;
  EXPECT_EQ(dataset.digest, written_digest);
  TreePlan plan = GenerateTree(TreePreset("small-files", 0.01, 42).value()).value();
  EXPECT_EQ(dataset.digest, TreeDigest(plan));
}

TEST(DirCopy, VerifyPassesAndCatchesACorruptedCopy) {
  MemoryAppFs to;
  const CopyTree tree = SmallTree();
  DirCopyOptions options = Options(2);
  options.verify = true;
  DirCopyRecordingSink sink;
  NoProgress progress;
  ASSERT_TRUE(RunDirCopy({nullptr, &to}, tree, options, sink, progress, {}).status.ok());
  ASSERT_EQ(sink.finished[0].verified_bytes, tree.total_bytes);

  options.after_copy = [&] { to.Corrupt("a/f1", 500); };
  AppRunOutcome bad = RunDirCopy({nullptr, &to}, tree, options, sink, progress, {});
  EXPECT_EQ(bad.status.kind(), ErrorKind::kIo);
  EXPECT_EQ(bad.status.message(), "verify: a/f1 differs from the generated data at offset 500");
  EXPECT_TRUE(sink.finished[1].partial);
  EXPECT_FALSE(sink.finished[1].verified_bytes.has_value());
  EXPECT_EQ(to.file_count(), 0u);
}

TEST(DirCopy, AGeneratedTreeIsStagedOnAStorageSourceAndRemovedFromIt) {
  MemoryAppFs from, to;
  const CopyTree tree = SmallTree();
  DirCopyOptions options = Options(1);
  options.verify = true;
  size_t staged = 0;
  options.after_copy = [&] { staged = from.file_count(); };
  DirCopyRecordingSink sink;
  NoProgress progress;
  AppRunOutcome out = RunDirCopy({&from, &to}, tree, options, sink, progress, {});
  ASSERT_TRUE(out.status.ok()) << out.status.message();
  EXPECT_EQ(staged, 40u);
  EXPECT_EQ(sink.finished[0].read->bytes, tree.total_bytes);
  EXPECT_EQ(from.file_count(), 0u);
  EXPECT_EQ(to.file_count(), 0u);
}

TEST(DirCopy, ListsASourceTreeParentsFirst) {
  MemoryAppFs source;
  std::vector<unsigned char> buffer(4096);
  ASSERT_TRUE(source.MakeDir("x").ok());
  ASSERT_TRUE(source.MakeDir("x/y").ok());
  ASSERT_TRUE(StageFile(source, {"x/y/z", 10, 0, 0}, 1, buffer).ok());
  ASSERT_TRUE(StageFile(source, {"top", 5, 1, 0}, 1, buffer).ok());
  Result<CopyTree> tree = ListSourceTree(source);
  ASSERT_TRUE(tree.ok()) << tree.status().message();
  EXPECT_EQ(tree.value().dirs, (std::vector<std::string>{"x", "x/y"}));
  ASSERT_EQ(tree.value().files.size(), 2u);
  EXPECT_EQ(tree.value().files[0].rel, "top");
  EXPECT_EQ(tree.value().files[1].rel, "x/y/z");
  EXPECT_EQ(tree.value().total_bytes, 15u);
  EXPECT_FALSE(tree.value().generated);
  MemoryAppFs empty;
  EXPECT_EQ(ListSourceTree(empty).status().kind(), ErrorKind::kBadInput);
}

TEST(DirCopy, ATooSmallDestinationIsRefused) {
  MemoryAppFs to;
  to.SetSpace({1 << 30, 1000});
  EXPECT_EQ(CheckDirCopySpace({nullptr, &to}, SmallTree()).kind(), ErrorKind::kBadInput);
  EXPECT_EQ(to.creates(), 0u);
}

}  // namespace
}  // namespace nasperf
