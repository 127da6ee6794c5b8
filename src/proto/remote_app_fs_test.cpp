// RemoteAppFs's own rules, over primitives backed by a temp dir (no server needed): a
// workspace name that exists is skipped, only own names are touched, every directory on
// a path must be one this run made, cleanup removes deepest first and leaves the rest.
#include "proto/remote_app_fs.h"

#include <dirent.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <cerrno>
#include <fstream>

#include "target/local_app_file.h"
#include "testing/test_support.h"

namespace nasperf {
namespace {

using testing::DirEntries;
using testing::ReadWholeFile;
using testing::TempDir;

Status Errno(const char* what, const std::string& path) { return Status::Io(std::string(what) + " " + path, errno); }

// Paths as a server would take them ("/dir/ws/a"), below `root`.
class PathOps final : public RemoteAppOps {
 public:
  explicit PathOps(std::string root) : root_(std::move(root)) {}
  Result<RemoteStat> Stat(const std::string& path) override {
    struct stat st {};
    RemoteStat out;
    if (::lstat(At(path).c_str(), &st) != 0) {
      if (errno == ENOENT) return out;
      return Errno("stat", path);
    }
    out.exists = true;
    out.is_dir = S_ISDIR(st.st_mode);
    out.is_regular = S_ISREG(st.st_mode);
    out.size_bytes = static_cast<uint64_t>(st.st_size);
    out.file_id = st.st_ino;
    return out;
  }
  Status MakeDir(const std::string& path) override {
    ++mkdirs;
    return ::mkdir(At(path).c_str(), 0755) == 0 ? Status::Ok() : Errno("mkdir", path);
  }
  Status RemoveDir(const std::string& path) override {
    return ::rmdir(At(path).c_str()) == 0 ? Status::Ok() : Errno("rmdir", path);
  }
  Status Unlink(const std::string& path) override {
    return ::unlink(At(path).c_str()) == 0 ? Status::Ok() : Errno("unlink", path);
  }
  Result<std::unique_ptr<AppFile>> Open(const std::string& path, bool create, bool write) override {
    int flags = O_NOFOLLOW | O_CLOEXEC | (write ? O_RDWR : O_RDONLY) | (create ? O_CREAT | O_EXCL : 0);
    int fd = ::open(At(path).c_str(), flags, 0644);
    if (fd < 0) return Errno("open", path);
    return std::unique_ptr<AppFile>(new LocalAppFile(fd, path));
  }
  Status Rename(const std::string& from, const std::string& to) override {
    return ::rename(At(from).c_str(), At(to).c_str()) == 0 ? Status::Ok() : Errno("rename", from);
  }
  Status SetTimes(const std::string& path, int64_t) override { return Status::Ok(); }
  Result<std::vector<AppDirEntry>> List(const std::string& path) override {
    if (::access(At(path).c_str(), F_OK) != 0) return Errno("list", path);
    std::vector<AppDirEntry> out;
    for (const std::string& name : DirEntries(At(path))) out.push_back(AppDirEntry{name});
    return out;
  }
  Result<AppSpace> Space(const std::string&) override { return AppSpace{100, 50}; }
  std::string ClientCacheNote() const override { return "nothing to drop: a test"; }
  int mkdirs = 0;

 private:
  std::string At(const std::string& path) const { return root_ + path; }
  std::string root_;
};

std::unique_ptr<AppFileSystem> Open(const TempDir& dir, PathOps** ops_out = nullptr) {
  auto ops = std::make_unique<PathOps>(dir.path());
  if (ops_out) *ops_out = ops.get();
  Result<std::unique_ptr<AppFileSystem>> fs = OpenRemoteAppFs(std::move(ops), "fake://server/share", "/", false);
  EXPECT_TRUE(fs.ok()) << fs.status().message();
  return fs.ok() ? std::move(fs).value() : nullptr;
}

TEST(RemoteAppFs, MakesAWorkspaceAndCleansUpDeepestFirst) {
  TempDir dir;
  auto fs = Open(dir);
  ASSERT_TRUE(fs);
  ASSERT_EQ(dir.Entries().size(), 1u);
  EXPECT_EQ(dir.Entries()[0].rfind(".nasperf-", 0), 0u);
  ASSERT_TRUE(fs->MakeDir("a").ok());
  ASSERT_TRUE(fs->MakeDir("a/b").ok());
  ASSERT_TRUE(fs->Create("a/b/f").ok());
  ASSERT_TRUE(fs->Create("g").ok());
  ASSERT_TRUE(fs->RemoveWorkspace().ok());
  EXPECT_TRUE(dir.Entries().empty());
  EXPECT_TRUE(fs->RemoveWorkspace().ok());
}

TEST(RemoteAppFs, DirectoriesOnThePathMustBeOwn) {
  TempDir dir;
  auto fs = Open(dir);
  ASSERT_TRUE(fs);
  const std::string ws = dir.Sub(dir.Entries()[0]);
  ASSERT_EQ(::mkdir((ws + "/theirs").c_str(), 0755), 0);
  ASSERT_EQ(::symlink("/tmp", (ws + "/link").c_str()), 0);
  EXPECT_EQ(fs->Create("theirs/f").status().kind(), ErrorKind::kBadInput);
  EXPECT_EQ(fs->Create("link/f").status().kind(), ErrorKind::kBadInput);
  EXPECT_EQ(fs->MakeDir("link/d").kind(), ErrorKind::kBadInput);
  EXPECT_EQ(fs->OpenRead("link/x").status().kind(), ErrorKind::kBadInput);
  EXPECT_FALSE(fs->OpenRead("link").ok());  // the stat says: not a regular file
  EXPECT_TRUE(DirEntries(ws + "/theirs").empty());
}

TEST(RemoteAppFs, NamesItDidNotCreateAreLeftAlone) {
  TempDir dir;
  auto fs = Open(dir);
  ASSERT_TRUE(fs);
  const std::string ws = dir.Sub(dir.Entries()[0]);
  std::ofstream(ws + "/theirs") << "keep";
  ASSERT_TRUE(fs->Create("mine").ok());
  EXPECT_EQ(fs->Remove("theirs").kind(), ErrorKind::kBadInput);
  EXPECT_EQ(fs->OpenWrite("theirs").status().kind(), ErrorKind::kBadInput);
  EXPECT_EQ(fs->SetTimes("theirs", 0).kind(), ErrorKind::kBadInput);
  EXPECT_EQ(fs->Rename("mine", "theirs").kind(), ErrorKind::kBadInput);
  EXPECT_EQ(fs->Rename("theirs", "x").kind(), ErrorKind::kBadInput);
  EXPECT_EQ(ReadWholeFile(ws + "/theirs"), "keep");
  EXPECT_FALSE(fs->RemoveWorkspace().ok());  // not empty: said, not forced
  fs.reset();
  EXPECT_EQ(DirEntries(ws), std::vector<std::string>{"theirs"});
}

TEST(RemoteAppFs, AnExistingWorkspaceNameIsSkipped) {
  TempDir dir;
  PathOps* ops = nullptr;
  auto first = Open(dir);
  ASSERT_TRUE(first);
  std::string name = dir.Entries()[0];
  size_t at = name.rfind("-app") + 4, dot = name.rfind('.');
  const int n = std::stoi(name.substr(at, dot - at));
  const std::string next = name.substr(0, at) + std::to_string(n + 1) + name.substr(dot);
  ASSERT_EQ(::mkdir(dir.Sub(next).c_str(), 0700), 0);
  std::ofstream(dir.Sub(next) + "/theirs") << "keep";
  auto second = Open(dir, &ops);
  ASSERT_TRUE(second);
  EXPECT_EQ(ops->mkdirs, 2);  // the taken name, then a free one
  second.reset();
  EXPECT_EQ(ReadWholeFile(dir.Sub(next) + "/theirs"), "keep");
}

}  // namespace
}  // namespace nasperf
