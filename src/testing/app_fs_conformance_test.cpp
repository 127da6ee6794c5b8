// The AppFileSystem conformance suite: every implementation (core/app_fs.h) keeps the
// contract the application workloads rely on.
//   local  a workspace in a temp dir: always runs.
//   smb    NASPERF_TEST_SMB_URL (smb://USER@HOST/SHARE/DIR, password in NASPERF_PASSWORD)
//   nfs    NASPERF_TEST_NFS_URL (nfs://HOST/EXPORT/DIR)
// A protocol whose URL is not set is skipped (the lab is not started here; CI sets them
// with the lab); one set but unreachable skips on a user's machine and fails under CI.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "core/app_fs.h"
#include "proto/open_app_fs.h"
#include "testing/test_support.h"

namespace nasperf {
namespace {

using testing::TempDir;

class AppFsConformance : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    std::string target;
    TargetOptions options;
    options.connect_timeout_ms = 3000;
    if (GetParam() == "local") {
      dir_ = std::make_unique<TempDir>();
      target = dir_->path();
    } else {
      const std::string var = GetParam() == "smb" ? "NASPERF_TEST_SMB_URL" : "NASPERF_TEST_NFS_URL";
      const char* url = std::getenv(var.c_str());
      if (!url || !*url) GTEST_SKIP() << var << " is not set: no " << GetParam() << " server to test against";
      target = url;
      if (const char* pw = std::getenv("NASPERF_PASSWORD")) options.password = pw;
    }
    Result<std::unique_ptr<AppFileSystem>> fs = OpenAppFileSystem(target, options);
    if (!fs.ok() && GetParam() != "local" && fs.status().kind() == ErrorKind::kUnavailable)
      NASPERF_SKIP_OR_FAIL_IN_CI(fs.status().message());
    ASSERT_TRUE(fs.ok()) << fs.status().message();
    fs_ = std::move(fs).value();
  }

  // Creates `rel` holding `bytes`, written in pieces of at most 64 KiB.
  void Put(const std::string& rel, const std::string& bytes) {
    Result<std::unique_ptr<AppFile>> file = fs_->Create(rel);
    ASSERT_TRUE(file.ok()) << file.status().message();
    for (size_t at = 0; at < bytes.size();) {
      Result<size_t> n = file.value()->Write(bytes.data() + at, std::min<size_t>(65536, bytes.size() - at));
      ASSERT_TRUE(n.ok()) << n.status().message();
      ASSERT_GT(n.value(), 0u);
      at += n.value();
    }
    ASSERT_TRUE(file.value()->Close().ok());
  }
  std::string Get(const std::string& rel) {
    Result<std::unique_ptr<AppFile>> file = fs_->OpenRead(rel);
    EXPECT_TRUE(file.ok()) << file.status().message();
    if (!file.ok()) return "";
    std::string out;
    char buf[65536];
    while (true) {
      Result<size_t> n = file.value()->Read(buf, sizeof buf);
      EXPECT_TRUE(n.ok()) << n.status().message();
      if (!n.ok() || n.value() == 0) break;
      out.append(buf, n.value());
    }
    return out;
  }
  std::vector<std::string> Names(const std::string& rel) {
    Result<std::vector<AppDirEntry>> list = fs_->List(rel);
    EXPECT_TRUE(list.ok()) << list.status().message();
    std::vector<std::string> names;
    if (list.ok())
      for (const AppDirEntry& e : list.value()) names.push_back(e.name);
    return names;
  }

  std::unique_ptr<TempDir> dir_;
  std::unique_ptr<AppFileSystem> fs_;
};

std::string Pattern(size_t bytes, char seed) {
  std::string s(bytes, '\0');
  for (size_t i = 0; i < bytes; ++i) s[i] = static_cast<char>(seed + i * 7 + (i >> 12));
  return s;
}

TEST_P(AppFsConformance, WhatIsWrittenReadsBack) {
  const std::string data = Pattern(300000, 'a');
  Put("f", data);
  EXPECT_EQ(Get("f"), data);
  Result<std::unique_ptr<AppFile>> file = fs_->OpenRead("f");
  ASSERT_TRUE(file.ok());
  char piece[100];
  Result<size_t> n = file.value()->PRead(piece, sizeof piece, 123456);
  ASSERT_TRUE(n.ok()) << n.status().message();
  ASSERT_EQ(n.value(), sizeof piece);
  EXPECT_EQ(std::string(piece, sizeof piece), data.substr(123456, sizeof piece));
  // Rewriting an own file in place, and durability where the protocol offers it.
  Result<std::unique_ptr<AppFile>> writer = fs_->OpenWrite("f");
  ASSERT_TRUE(writer.ok()) << writer.status().message();
  ASSERT_TRUE(writer.value()->PWrite("XYZ", 3, 10).ok());
  Status sync = writer.value()->Sync();
  EXPECT_TRUE(sync.ok() || sync.kind() == ErrorKind::kUnavailable) << sync.message();
  ASSERT_TRUE(writer.value()->Close().ok());
  EXPECT_EQ(Get("f").substr(8, 7), data.substr(8, 2) + "XYZ" + data.substr(13, 2));
}

TEST_P(AppFsConformance, DirectoryTreesListAndRefuseExistingNames) {
  ASSERT_TRUE(fs_->MakeDir("a").ok());
  ASSERT_TRUE(fs_->MakeDir("a/b").ok());
  ASSERT_TRUE(fs_->MakeDir("a/b/c").ok());
  Put("a/b/c/leaf", "x");
  Put("a/b/file", Pattern(5000, 'q'));
  EXPECT_FALSE(fs_->MakeDir("a/b").ok());
  EXPECT_FALSE(fs_->Create("a/b/file").ok());
  EXPECT_EQ(Get("a/b/file"), Pattern(5000, 'q'));
  Result<std::vector<AppDirEntry>> list = fs_->List("a/b");
  ASSERT_TRUE(list.ok()) << list.status().message();
  ASSERT_EQ(list.value().size(), 2u);
  EXPECT_EQ(list.value()[0].name, "c");
  EXPECT_TRUE(list.value()[0].is_dir);
  EXPECT_EQ(list.value()[1].name, "file");
  EXPECT_FALSE(list.value()[1].is_dir);
  EXPECT_EQ(list.value()[1].size_bytes, 5000u);
  EXPECT_EQ(Names(""), std::vector<std::string>{"a"});
}

TEST_P(AppFsConformance, RenameReplacesAnOwnFile) {
  Put("doc", "old version");
  Put("doc.tmp", "new version");
  ASSERT_TRUE(fs_->Rename("doc.tmp", "doc").ok());
  EXPECT_EQ(Get("doc"), "new version");
  EXPECT_EQ(Names(""), std::vector<std::string>{"doc"});
}

TEST_P(AppFsConformance, SetTimesSetsTheModificationTime) {
  Put("t", "x");
  const int64_t when_ns = int64_t{1000000000} * 1000000000;  // 2001-09-09
  ASSERT_TRUE(fs_->SetTimes("t", when_ns).ok());
  Result<std::vector<AppDirEntry>> list = fs_->List("");
  ASSERT_TRUE(list.ok());
  ASSERT_EQ(list.value().size(), 1u);
  // Whole seconds: SMB keeps 100 ns, NFSv3 SETATTR takes microseconds here.
  EXPECT_EQ(list.value()[0].mtime_unix_ns / 1000000000, when_ns / 1000000000);
}

TEST_P(AppFsConformance, RemoveTakesOwnNamesOnly) {
  ASSERT_TRUE(fs_->MakeDir("d").ok());
  Put("d/f", "x");
  EXPECT_EQ(fs_->Remove("never-made").kind(), ErrorKind::kBadInput);
  EXPECT_FALSE(fs_->RemoveDir("d").ok());  // not empty
  ASSERT_TRUE(fs_->Remove("d/f").ok());
  ASSERT_TRUE(fs_->RemoveDir("d").ok());
  EXPECT_TRUE(Names("").empty());
  EXPECT_EQ(fs_->Create("../escape").status().kind(), ErrorKind::kBadInput);
}

TEST_P(AppFsConformance, SpaceIsReported) {
  Result<AppSpace> space = fs_->Space();
  ASSERT_TRUE(space.ok()) << space.status().message();
  EXPECT_GT(space.value().total_bytes, 0u);
  EXPECT_LE(space.value().free_bytes, space.value().total_bytes);
  Result<ClientCacheDrop> drop = fs_->DropClientCache();
  ASSERT_TRUE(drop.ok()) << drop.status().message();
  EXPECT_FALSE(drop.value().note.empty());
}

TEST_P(AppFsConformance, CleanupLeavesNothing) {
  ASSERT_TRUE(fs_->MakeDir("x").ok());
  ASSERT_TRUE(fs_->MakeDir("x/y").ok());
  Put("x/y/z", Pattern(70000, 'z'));
  Put("top", "t");
  Status removed = fs_->RemoveWorkspace();
  ASSERT_TRUE(removed.ok()) << removed.message();
  EXPECT_FALSE(fs_->List("").ok());  // the workspace itself is gone
  EXPECT_TRUE(fs_->RemoveWorkspace().ok());
  fs_.reset();
  if (dir_) EXPECT_TRUE(dir_->Entries().empty());
}

INSTANTIATE_TEST_SUITE_P(Every, AppFsConformance, ::testing::Values("local", "smb", "nfs"),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace nasperf
