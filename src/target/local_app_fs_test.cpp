// The local AppFileSystem's safety promises (core/app_fs.h): a fresh workspace, no link
// followed anywhere, only own names touched, everything removed on error and Ctrl-C.
#include "target/local_app_fs.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <csignal>
#include <fstream>

#include "base/signals.h"
#include "testing/test_support.h"

namespace nasperf {
namespace {

using testing::DirEntries;
using testing::ReadWholeFile;
using testing::TempDir;

void WriteFile(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

std::unique_ptr<AppFileSystem> Open(const TempDir& dir, bool keep = false) {
  Result<std::unique_ptr<AppFileSystem>> fs = OpenLocalAppFileSystem(dir.path(), keep);
  EXPECT_TRUE(fs.ok()) << fs.status().message();
  return fs.ok() ? std::move(fs).value() : nullptr;
}

Status WriteAll(AppFileSystem& fs, const std::string& rel, const std::string& text) {
  Result<std::unique_ptr<AppFile>> file = fs.Create(rel);
  if (!file.ok()) return file.status();
  Result<size_t> n = file.value()->Write(text.data(), text.size());
  if (!n.ok()) return n.status();
  return file.value()->Close();
}

TEST(LocalAppFs, MakesAFreshWorkspaceAndRemovesEverythingItMade) {
  TempDir dir;
  auto fs = Open(dir);
  ASSERT_TRUE(fs);
  std::vector<std::string> entries = dir.Entries();
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_EQ(entries[0].rfind(".nasperf-", 0), 0u) << entries[0];
  EXPECT_NE(entries[0].find("-app"), std::string::npos) << entries[0];
  EXPECT_EQ(fs->workspace(), dir.Sub(entries[0]));
  ASSERT_TRUE(fs->MakeDir("a").ok());
  ASSERT_TRUE(fs->MakeDir("a/b").ok());
  ASSERT_TRUE(WriteAll(*fs, "a/b/f", "hello").ok());
  ASSERT_TRUE(WriteAll(*fs, "top", "x").ok());
  EXPECT_EQ(ReadWholeFile(fs->workspace() + "/a/b/f"), "hello");
  fs.reset();
  EXPECT_TRUE(dir.Entries().empty());
}

TEST(LocalAppFs, TwoFileSystemsNeverShareAWorkspace) {
  TempDir dir;
  auto one = Open(dir), two = Open(dir);
  ASSERT_TRUE(one && two);
  EXPECT_NE(one->workspace(), two->workspace());
  EXPECT_EQ(dir.Entries().size(), 2u);
}

TEST(LocalAppFs, AnExistingNameIsNeverReusedAsTheWorkspace) {
  TempDir dir;
  auto first = Open(dir);
  ASSERT_TRUE(first);
  // The next names this process would pick are taken (one a directory, one a link).
  std::string name = first->workspace().substr(dir.path().size() + 1);
  size_t at = name.rfind("-app") + 4, dot = name.rfind('.');
  const int n = std::stoi(name.substr(at, dot - at));
  auto named = [&](int k) { return name.substr(0, at) + std::to_string(k) + name.substr(dot); };
  ASSERT_EQ(::mkdir(dir.Sub(named(n + 1)).c_str(), 0700), 0);
  ASSERT_EQ(::symlink("/tmp", dir.Sub(named(n + 2)).c_str()), 0);
  WriteFile(dir.Sub(named(n + 1)) + "/theirs", "keep");
  auto second = Open(dir);
  ASSERT_TRUE(second);
  EXPECT_EQ(second->workspace(), dir.Sub(named(n + 3)));
  second.reset();
  EXPECT_EQ(ReadWholeFile(dir.Sub(named(n + 1)) + "/theirs"), "keep");
  struct stat st {};
  EXPECT_EQ(::lstat(dir.Sub(named(n + 2)).c_str(), &st), 0);
  EXPECT_TRUE(S_ISLNK(st.st_mode));
}

TEST(LocalAppFs, ALinkPlantedInsideTheWorkspaceIsNeverFollowed) {
  TempDir dir, outside;
  WriteFile(outside.Sub("precious"), "data");
  auto fs = Open(dir);
  ASSERT_TRUE(fs);
  ASSERT_EQ(::symlink(outside.path().c_str(), (fs->workspace() + "/dirlink").c_str()), 0);
  ASSERT_EQ(::symlink(outside.Sub("precious").c_str(), (fs->workspace() + "/filelink").c_str()), 0);
  // As a parent: no open, mkdir, create or list goes through it.
  EXPECT_FALSE(fs->Create("dirlink/new").ok());
  EXPECT_FALSE(fs->MakeDir("dirlink/sub").ok());
  EXPECT_FALSE(fs->OpenRead("dirlink/precious").ok());
  EXPECT_FALSE(fs->List("dirlink").ok());
  // As the file itself.
  Result<std::unique_ptr<AppFile>> read = fs->OpenRead("filelink");
  ASSERT_FALSE(read.ok());
  EXPECT_NE(read.status().message().find("symbolic link"), std::string::npos) << read.status().message();
  EXPECT_FALSE(fs->Create("filelink").ok());
  EXPECT_FALSE(fs->OpenWrite("filelink").ok());
  EXPECT_FALSE(fs->SetTimes("filelink", 0).ok());
  Result<std::vector<AppDirEntry>> list = fs->List("");
  ASSERT_TRUE(list.ok());
  ASSERT_EQ(list.value().size(), 2u);
  EXPECT_TRUE(list.value()[0].is_special && !list.value()[0].is_dir);
  fs.reset();
  EXPECT_EQ(DirEntries(outside.path()), std::vector<std::string>{"precious"});
  EXPECT_EQ(ReadWholeFile(outside.Sub("precious")), "data");
}

TEST(LocalAppFs, AnOwnDirectorySwappedForALinkIsNotFollowed) {
  TempDir dir, outside;
  auto fs = Open(dir);
  ASSERT_TRUE(fs);
  ASSERT_TRUE(fs->MakeDir("d").ok());
  ASSERT_EQ(::rmdir((fs->workspace() + "/d").c_str()), 0);
  ASSERT_EQ(::symlink(outside.path().c_str(), (fs->workspace() + "/d").c_str()), 0);
  EXPECT_FALSE(fs->Create("d/f").ok());
  EXPECT_FALSE(fs->MakeDir("d/e").ok());
  EXPECT_FALSE(fs->RemoveDir("d").ok());  // a link now, not the directory made
  EXPECT_TRUE(outside.Entries().empty());
}

// The parent cache (a tree's files come a directory at a time) holds a descriptor of the
// directory, never its name: one swapped for a link after its first use still leads nowhere
// outside.
TEST(LocalAppFs, AParentSwappedForALinkAfterItWasUsedIsStillNotFollowed) {
  TempDir dir, outside;
  auto fs = Open(dir);
  ASSERT_TRUE(fs);
  ASSERT_TRUE(fs->MakeDir("d").ok());
  ASSERT_TRUE(WriteAll(*fs, "d/first", "1").ok());  // "d" is now a cached parent
  ASSERT_EQ(::rename((fs->workspace() + "/d").c_str(), (fs->workspace() + "/moved").c_str()), 0);
  ASSERT_EQ(::symlink(outside.path().c_str(), (fs->workspace() + "/d").c_str()), 0);
  (void)WriteAll(*fs, "d/second", "2");  // into the directory made, wherever it is now, or refused
  EXPECT_TRUE(outside.Entries().empty());
  ASSERT_EQ(::unlink((fs->workspace() + "/d").c_str()), 0);
  ASSERT_EQ(::rename((fs->workspace() + "/moved").c_str(), (fs->workspace() + "/d").c_str()), 0);
  fs.reset();
  EXPECT_TRUE(outside.Entries().empty());
}

TEST(LocalAppFs, ADirectoryRemovedAndMadeAgainTakesTheNewFiles) {
  TempDir dir;
  auto fs = Open(dir);
  ASSERT_TRUE(fs);
  ASSERT_TRUE(fs->MakeDir("d").ok());
  ASSERT_TRUE(WriteAll(*fs, "d/f", "old").ok());
  ASSERT_TRUE(fs->Remove("d/f").ok());
  ASSERT_TRUE(fs->RemoveDir("d").ok());
  ASSERT_TRUE(fs->MakeDir("d").ok());
  Status made = WriteAll(*fs, "d/g", "new");
  ASSERT_TRUE(made.ok()) << made.message() << " (a descriptor of the removed d was reused)";
  EXPECT_EQ(ReadWholeFile(fs->workspace() + "/d/g"), "new");
  fs.reset();
  EXPECT_TRUE(dir.Entries().empty());
}

// A rank SIGKILLed under mpirun leaves its workspace: rank 0 removes it by the rank's
// prefix, but only directories and one-link regular files; a link stays, and is named.
TEST(LocalAppFs, ALostProcesssWorkspacesGoButNothingThatIsNotPlainlyItsOwn) {
  TempDir dir, outside;
  const std::string prefix = ".nasperf-host-41-0123456789abcdef-";
  const std::string whole = dir.Sub(prefix + "r1app0.dir"), linked = dir.Sub(prefix + "r1app1.dir");
  const std::string other = dir.Sub(".nasperf-host-42-fedcba9876543210-r2app0.dir");
  for (const std::string& d : {whole, whole + "/a", whole + "/a/b", linked, other}) ASSERT_EQ(::mkdir(d.c_str(), 0700), 0);
  WriteFile(whole + "/a/b/file.bin", "data");
  WriteFile(whole + "/empty", "");
  WriteFile(linked + "/file.bin", "data");
  WriteFile(outside.Sub("keep"), "user data");
  ASSERT_EQ(::symlink(outside.path().c_str(), (linked + "/link").c_str()), 0);
  ASSERT_EQ(::link(outside.Sub("keep").c_str(), (linked + "/hard").c_str()), 0);
  WriteFile(other + "/file.bin", "another process's");
  std::string left;
  EXPECT_EQ(RemoveLostWorkspaces(dir.path(), prefix, &left), 1);
  EXPECT_EQ(::access(whole.c_str(), F_OK), -1) << "its own workspace went whole";
  EXPECT_EQ(::access((linked + "/file.bin").c_str(), F_OK), -1) << "its own file went";
  EXPECT_EQ(::access((linked + "/link").c_str(), F_OK), 0) << "a link stays";
  EXPECT_EQ(ReadWholeFile(outside.Sub("keep")), "user data");
  EXPECT_EQ(ReadWholeFile(other + "/file.bin"), "another process's") << "another prefix is not touched";
  EXPECT_NE(left.find(linked + "/link"), std::string::npos) << left;
  EXPECT_NE(left.find(linked + "/hard"), std::string::npos) << left;
  EXPECT_EQ(RemoveLostWorkspaces(dir.path(), "", &left), 0) << "no prefix, nothing";
}

TEST(LocalAppFs, PathsThatLeaveTheWorkspaceAreBadInputAndWriteNothing) {
  TempDir dir;
  auto fs = Open(dir);
  ASSERT_TRUE(fs);
  for (const std::string bad : std::vector<std::string>{"../x", "/tmp/x", "a/../../x", "", "a//b"}) {
    EXPECT_EQ(fs->Create(bad).status().kind(), ErrorKind::kBadInput) << bad;
    EXPECT_EQ(fs->MakeDir(bad).kind(), ErrorKind::kBadInput) << bad;
    EXPECT_EQ(fs->OpenRead(bad).status().kind(), ErrorKind::kBadInput) << bad;
    EXPECT_EQ(fs->Rename("x", bad).kind(), ErrorKind::kBadInput) << bad;
  }
  EXPECT_EQ(dir.Entries().size(), 1u);
  EXPECT_TRUE(DirEntries(fs->workspace()).empty());
}

TEST(LocalAppFs, ExistingNamesAreErrors) {
  TempDir dir;
  auto fs = Open(dir);
  ASSERT_TRUE(fs);
  ASSERT_TRUE(fs->MakeDir("d").ok());
  EXPECT_EQ(fs->MakeDir("d").err(), EEXIST);
  ASSERT_TRUE(WriteAll(*fs, "f", "one").ok());
  EXPECT_EQ(fs->Create("f").status().err(), EEXIST);
  EXPECT_EQ(ReadWholeFile(fs->workspace() + "/f"), "one");
}

TEST(LocalAppFs, NamesItDidNotCreateAreNeverChangedOrRemoved) {
  TempDir dir;
  auto fs = Open(dir);
  ASSERT_TRUE(fs);
  const std::string ws = fs->workspace();
  WriteFile(ws + "/theirs", "keep");
  ASSERT_EQ(::mkdir((ws + "/theirdir").c_str(), 0700), 0);
  ASSERT_TRUE(WriteAll(*fs, "mine", "new").ok());
  EXPECT_EQ(fs->Remove("theirs").kind(), ErrorKind::kBadInput);
  EXPECT_EQ(fs->RemoveDir("theirdir").kind(), ErrorKind::kBadInput);
  EXPECT_EQ(fs->OpenWrite("theirs").status().kind(), ErrorKind::kBadInput);
  EXPECT_EQ(fs->SetTimes("theirs", 0).kind(), ErrorKind::kBadInput);
  EXPECT_EQ(fs->Rename("theirs", "moved").kind(), ErrorKind::kBadInput);
  Status over = fs->Rename("mine", "theirs");
  EXPECT_EQ(over.kind(), ErrorKind::kBadInput) << over.message();
  EXPECT_EQ(ReadWholeFile(ws + "/theirs"), "keep");
  EXPECT_EQ(ReadWholeFile(ws + "/mine"), "new");
  // Cleanup removes its own and leaves the rest, saying so.
  Status cleanup = fs->RemoveWorkspace();
  EXPECT_FALSE(cleanup.ok());
  EXPECT_NE(cleanup.message().find("incomplete"), std::string::npos) << cleanup.message();
  fs.reset();
  EXPECT_EQ(DirEntries(ws), (std::vector<std::string>{"theirdir", "theirs"}));
  EXPECT_EQ(ReadWholeFile(ws + "/theirs"), "keep");
}

TEST(LocalAppFs, AFileReplacedUnderItsNameIsNotRemoved) {
  TempDir dir;
  auto fs = Open(dir);
  ASSERT_TRUE(fs);
  const std::string ws = fs->workspace();
  ASSERT_TRUE(WriteAll(*fs, "f", "mine").ok());
  // Moved aside rather than deleted, so the new file cannot get the old inode number.
  ASSERT_EQ(::rename((ws + "/f").c_str(), (ws + "/aside").c_str()), 0);
  WriteFile(ws + "/f", "someone else's");
  Status removed = fs->Remove("f");
  EXPECT_FALSE(removed.ok());
  EXPECT_NE(removed.message().find("no longer"), std::string::npos) << removed.message();
  EXPECT_FALSE(fs->OpenWrite("f").ok());
  fs.reset();
  EXPECT_EQ(ReadWholeFile(ws + "/f"), "someone else's");
}

TEST(LocalAppFs, RenameReplacesAnOwnFileAndRemoveTakesOnlyOwnNames) {
  TempDir dir;
  auto fs = Open(dir);
  ASSERT_TRUE(fs);
  ASSERT_TRUE(WriteAll(*fs, "doc", "old").ok());
  ASSERT_TRUE(WriteAll(*fs, "doc.tmp", "new").ok());
  ASSERT_TRUE(fs->Rename("doc.tmp", "doc").ok());
  EXPECT_EQ(ReadWholeFile(fs->workspace() + "/doc"), "new");
  EXPECT_EQ(fs->Remove("doc.tmp").kind(), ErrorKind::kBadInput);  // no longer a name of ours
  EXPECT_TRUE(fs->Remove("doc").ok());
  EXPECT_EQ(fs->Remove("doc").kind(), ErrorKind::kBadInput);
  ASSERT_TRUE(fs->MakeDir("d").ok());
  EXPECT_EQ(fs->Remove("d").kind(), ErrorKind::kBadInput);  // a directory, not a file
  EXPECT_TRUE(fs->RemoveDir("d").ok());
  EXPECT_TRUE(DirEntries(fs->workspace()).empty());
}

TEST(LocalAppFs, CleansUpAfterAnErrorAndIsIdempotent) {
  TempDir dir;
  auto fs = Open(dir);
  ASSERT_TRUE(fs);
  ASSERT_TRUE(fs->MakeDir("a").ok());
  ASSERT_TRUE(WriteAll(*fs, "a/f", "x").ok());
  EXPECT_FALSE(fs->Create("a/f").ok());  // the error a workload stops at
  EXPECT_FALSE(fs->Create("missing/f").ok());
  EXPECT_TRUE(fs->RemoveWorkspace().ok());
  EXPECT_TRUE(dir.Entries().empty());
  EXPECT_TRUE(fs->RemoveWorkspace().ok());
  fs.reset();
  EXPECT_TRUE(dir.Entries().empty());
}

TEST(LocalAppFs, CtrlCStopsNewWorkAndTheUnwindRemovesTheWorkspace) {
  InstallInterruptHandler();
  ClearInterrupt();
  TempDir dir;
  auto fs = Open(dir);
  ASSERT_TRUE(fs);
  ASSERT_TRUE(fs->MakeDir("a").ok());
  ASSERT_TRUE(WriteAll(*fs, "a/f", "x").ok());
  std::raise(SIGINT);
  ASSERT_TRUE(InterruptRequested());
  EXPECT_EQ(fs->Create("a/g").status().kind(), ErrorKind::kInterrupted);
  EXPECT_EQ(fs->MakeDir("b").kind(), ErrorKind::kInterrupted);
  fs.reset();  // what the unwind after Ctrl-C does
  ClearInterrupt();
  EXPECT_TRUE(dir.Entries().empty());
}

TEST(LocalAppFs, KeepOnExitLeavesTheWorkspace) {
  TempDir dir;
  auto fs = Open(dir, true);
  ASSERT_TRUE(fs);
  ASSERT_TRUE(WriteAll(*fs, "f", "x").ok());
  const std::string ws = fs->workspace();
  fs.reset();
  EXPECT_EQ(ReadWholeFile(ws + "/f"), "x");
}

TEST(LocalAppFs, DropClientCacheSaysWhatItDid) {
  TempDir dir;
  auto fs = Open(dir);
  ASSERT_TRUE(fs);
  Result<ClientCacheDrop> none = fs->DropClientCache();
  ASSERT_TRUE(none.ok());
  EXPECT_NE(none.value().note.find("nothing to drop"), std::string::npos) << none.value().note;
  EXPECT_TRUE(none.value().emptied);
  ASSERT_TRUE(WriteAll(*fs, "f", std::string(1 << 16, 'x')).ok());
  Result<ClientCacheDrop> done = fs->DropClientCache();
  ASSERT_TRUE(done.ok()) << done.status().message();
  const std::string& note = done.value().note;
  EXPECT_NE(note.find("1 file"), std::string::npos) << note;
  if (note.find("only in RAM") != std::string::npos) {
    EXPECT_FALSE(done.value().emptied) << note;  // tmpfs: the file is still in RAM
  } else {
    EXPECT_NE(note.find("posix_fadvise(DONTNEED)"), std::string::npos) << note;
    // emptied is mincore's verdict: under 1 % of the bytes still resident.
    const size_t at = note.find(" % still");
    ASSERT_NE(at, std::string::npos) << note;
    const double still_pct = std::stod(note.substr(note.rfind(' ', at - 1) + 1));
    EXPECT_EQ(done.value().emptied, still_pct < 1.0) << note;
    EXPECT_TRUE(done.value().evicted) << note;
  }
}

TEST(LocalAppFs, SpaceIsTheVolumes) {
  TempDir dir;
  auto fs = Open(dir);
  ASSERT_TRUE(fs);
  Result<AppSpace> space = fs->Space();
  ASSERT_TRUE(space.ok());
  EXPECT_GT(space.value().total_bytes, 0u);
  EXPECT_LE(space.value().free_bytes, space.value().total_bytes);
}

TEST(LocalAppFs, TheSourceTreeIsReadOnlyAndFollowsNoLink) {
  TempDir src, outside;
  ASSERT_EQ(::mkdir(src.Sub("sub").c_str(), 0700), 0);
  WriteFile(src.Sub("sub/f"), "content");
  WriteFile(outside.Sub("secret"), "s");
  ASSERT_EQ(::symlink(outside.Sub("secret").c_str(), src.Sub("link").c_str()), 0);
  ASSERT_EQ(::symlink(outside.path().c_str(), src.Sub("dirlink").c_str()), 0);
  Result<std::unique_ptr<AppFileSystem>> opened = OpenSourceTree(src.path());
  ASSERT_TRUE(opened.ok()) << opened.status().message();
  AppFileSystem& fs = *opened.value();
  EXPECT_EQ(fs.workspace(), src.path());
  Result<std::vector<AppDirEntry>> top = fs.List("");
  ASSERT_TRUE(top.ok());
  ASSERT_EQ(top.value().size(), 3u);  // dirlink, link, sub
  EXPECT_TRUE(top.value()[0].is_special);
  EXPECT_TRUE(top.value()[2].is_dir);
  Result<std::unique_ptr<AppFile>> file = fs.OpenRead("sub/f");
  ASSERT_TRUE(file.ok());
  char buf[16] = {};
  EXPECT_EQ(file.value()->Read(buf, sizeof buf).value(), 7u);
  EXPECT_FALSE(fs.OpenRead("link").ok());
  EXPECT_FALSE(fs.OpenRead("dirlink/secret").ok());
  EXPECT_FALSE(fs.List("dirlink").ok());
  Status create = fs.Create("new").status();
  EXPECT_EQ(create.kind(), ErrorKind::kBadInput);
  EXPECT_NE(create.message().find("Create"), std::string::npos) << create.message();
  for (const auto& [status, op] :
       std::vector<std::pair<Status, std::string>>{{fs.MakeDir("d"), "MakeDir"},
                                                   {fs.OpenWrite("sub/f").status(), "OpenWrite"},
                                                   {fs.SetTimes("sub/f", 0), "SetTimes"},
                                                   {fs.Rename("sub/f", "g"), "Rename"},
                                                   {fs.Remove("sub/f"), "Remove"},
                                                   {fs.RemoveDir("sub"), "RemoveDir"}}) {
    EXPECT_EQ(status.kind(), ErrorKind::kBadInput) << op;
    EXPECT_NE(status.message().find(op), std::string::npos) << status.message();
  }
  Result<ClientCacheDrop> drop = fs.DropClientCache();
  ASSERT_TRUE(drop.ok()) << drop.status().message();
  EXPECT_NE(drop.value().note.find("1 file"), std::string::npos) << drop.value().note;
  EXPECT_TRUE(fs.RemoveWorkspace().ok());
  opened = Status::Ok();  // destroys the view
  EXPECT_EQ(DirEntries(src.path()), (std::vector<std::string>{"dirlink", "link", "sub"}));
  EXPECT_EQ(ReadWholeFile(src.Sub("sub/f")), "content");
}

TEST(LocalAppFs, ASourceThatIsNotADirectoryIsBadInput) {
  TempDir dir;
  WriteFile(dir.Sub("file"), "x");
  EXPECT_EQ(OpenSourceTree(dir.Sub("file")).status().kind(), ErrorKind::kBadInput);
  EXPECT_EQ(OpenSourceTree(dir.Sub("missing")).status().kind(), ErrorKind::kBadInput);
  EXPECT_EQ(OpenLocalAppFileSystem(dir.Sub("file"), false).status().kind(), ErrorKind::kBadInput);
}

}  // namespace
}  // namespace nasperf
