// OpenAppFileSystem: a directory opens a workspace; what serves no files is one BadInput line.
#include "proto/open_app_fs.h"

#include <gtest/gtest.h>

#include <fstream>

#include "target/directory_target.h"
#include "target/null_target.h"
#include "testing/test_support.h"

namespace nasperf {
namespace {

using testing::TempDir;

TEST(OpenAppFileSystem, ADirectoryGetsAWorkspace) {
  TempDir dir;
  Result<std::unique_ptr<AppFileSystem>> fs = OpenAppFileSystem(dir.path(), TargetOptions{});
  ASSERT_TRUE(fs.ok()) << fs.status().message();
  EXPECT_EQ(fs.value()->description(), dir.path());
  EXPECT_EQ(dir.Entries().size(), 1u);
  fs = Status::Ok();
  EXPECT_TRUE(dir.Entries().empty());
}

TEST(OpenAppFileSystem, WhatServesNoFilesIsBadInput) {
  TempDir dir;
  std::ofstream(dir.Sub("file")) << "x";
  for (const std::string& target : {std::string("null:"), dir.Sub("file"), dir.Sub("missing"), std::string("")}) {
    Result<std::unique_ptr<AppFileSystem>> fs = OpenAppFileSystem(target, TargetOptions{});
    EXPECT_EQ(fs.status().kind(), ErrorKind::kBadInput) << target;
    EXPECT_EQ(fs.status().message().find('\n'), std::string::npos);
  }
  EXPECT_NE(OpenAppFileSystem("null:", {}).status().message().find("serves no files"), std::string::npos);
  EXPECT_EQ(dir.Entries(), std::vector<std::string>{"file"});
}

TEST(OpenAppFileSystem, TargetsSayWhetherTheyServeFiles) {
  TempDir dir;
  DirectoryTarget directory(dir.path());
  Result<std::unique_ptr<AppFileSystem>> fs = directory.OpenAppFileSystem();
  ASSERT_TRUE(fs.ok()) << fs.status().message();
  EXPECT_EQ(dir.Entries().size(), 1u);
  NullTarget null;
  Result<std::unique_ptr<AppFileSystem>> none = null.OpenAppFileSystem();
  EXPECT_EQ(none.status().kind(), ErrorKind::kUnavailable);
  EXPECT_NE(none.status().message().find("serves no files"), std::string::npos);
}

}  // namespace
}  // namespace nasperf
