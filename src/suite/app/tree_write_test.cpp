// Tests for writing a generated tree and reading it back, on an in-memory AppFileSystem.
#include "suite/app/tree_write.h"

#include <gtest/gtest.h>

#include <cstring>
#include <map>
#include <set>

namespace nasperf {
namespace {

// Files as strings, directories as a set; enough of AppFileSystem for WriteTree/ReadBackTree.
class MemoryFs : public AppFileSystem {
 public:
  std::map<std::string, std::string> files;
  std::set<std::string> dirs{""};  // "" is the workspace

  class File : public AppFile {
   public:
    File(std::string& data) : data_(data) {}
    Result<size_t> Write(const void* p, size_t n) override {
      data_.append(static_cast<const char*>(p), n);
      return n;
    }
    Result<size_t> Read(void* p, size_t n) override {
      const size_t take = std::min(n, data_.size() - at_);
      std::memcpy(p, data_.data() + at_, take);
      at_ += take;
      return take;
    }
    Result<size_t> PWrite(const void*, size_t, uint64_t) override { return Status::Io("unused"); }
    Result<size_t> PRead(void*, size_t, uint64_t) override { return Status::Io("unused"); }
    Status Sync() override { return Status::Ok(); }
    Status Close() override { return Status::Ok(); }

   private:
    std::string& data_;
    size_t at_ = 0;
  };

  std::string description() const override { return "memory"; }
  std::string workspace() const override { return "mem"; }
  Status MakeDir(const std::string& rel) override {
    if (!dirs.count(Parent(rel))) return Status::Io("no parent of " + rel);
    return dirs.insert(rel).second ? Status::Ok() : Status::Io("exists: " + rel);
  }
  Result<std::unique_ptr<AppFile>> Create(const std::string& rel) override {
    if (files.count(rel)) return Status::Io("exists: " + rel);
    if (!dirs.count(Parent(rel))) return Status::Io("no parent of " + rel);
    return std::unique_ptr<AppFile>(new File(files[rel]));
  }
  Result<std::unique_ptr<AppFile>> OpenRead(const std::string& rel) override {
    if (!files.count(rel)) return Status::Io("no file " + rel);
    return std::unique_ptr<AppFile>(new File(files[rel]));
  }
  Result<std::unique_ptr<AppFile>> OpenWrite(const std::string& rel) override { return Status::Io("unused"); }
  Status SetTimes(const std::string&, int64_t) override { return Status::Ok(); }
  Status Rename(const std::string&, const std::string&) override { return Status::Io("unused"); }
  Result<std::vector<AppDirEntry>> List(const std::string&) override { return Status::Io("unused"); }
  Status Remove(const std::string&) override { return Status::Io("unused"); }
  Status RemoveDir(const std::string&) override { return Status::Io("unused"); }
  Result<AppSpace> Space() override { return AppSpace{}; }
  Result<ClientCacheDrop> DropClientCache() override { return ClientCacheDrop{"nothing", false}; }  // its files live in RAM
  Status RemoveWorkspace() override { return Status::Ok(); }

 private:
  static std::string Parent(const std::string& rel) {
    const auto slash = rel.rfind('/');
    return slash == std::string::npos ? "" : rel.substr(0, slash);
  }
};

TreePlan SmallPlan() {
  auto params = TreePreset("small-files", 0.05, 42);
  EXPECT_TRUE(params.ok());
  auto plan = GenerateTree(params.value());
  EXPECT_TRUE(plan.ok());
  return plan.value();
}

TEST(TreeWrite, WritesEveryDirectoryAndFileWithItsGeneratedContent) {
  const TreePlan plan = SmallPlan();
  MemoryFs fs;
  Result<TreeWriteResult> wrote = WriteTree(fs, plan, "small-files");
  ASSERT_TRUE(wrote.ok()) << wrote.status().message();
  EXPECT_EQ(wrote.value().files, plan.files.size());
  EXPECT_EQ(wrote.value().dirs, plan.dirs.size());
  EXPECT_EQ(wrote.value().bytes, plan.stats.bytes);
  EXPECT_EQ(fs.dirs.size(), plan.dirs.size() + 2);  // and the tree's root, and the workspace
  ASSERT_EQ(fs.files.size(), plan.files.size());
  for (const TreeFile& f : plan.files) EXPECT_EQ(fs.files["small-files/" + f.path].size(), f.size_bytes) << f.path;
  // The digest of what was written is the generator's, computed without writing.
  EXPECT_EQ(wrote.value().digest, TreeDigest(plan));
  Result<std::string> read = ReadBackTree(fs, plan, "small-files");
  ASSERT_TRUE(read.ok()) << read.status().message();
  EXPECT_EQ(read.value(), wrote.value().digest);
}

TEST(TreeWrite, ReadBackNamesTheFileAndByteThatDiffer) {
  const TreePlan plan = SmallPlan();
  MemoryFs fs;
  ASSERT_TRUE(WriteTree(fs, plan, "").ok());
  const TreeFile* big = &plan.files[0];
  for (const TreeFile& f : plan.files)
    if (f.size_bytes > big->size_bytes) big = &f;
  fs.files[big->path][100] ^= 1;
  Result<std::string> read = ReadBackTree(fs, plan, "");
  ASSERT_FALSE(read.ok());
  EXPECT_NE(read.status().message().find(big->path), std::string::npos) << read.status().message();
  EXPECT_NE(read.status().message().find("byte 100"), std::string::npos) << read.status().message();
}

TEST(TreeWrite, ReadBackRefusesAShortOrLongFile) {
  const TreePlan plan = SmallPlan();
  for (int longer : {0, 1}) {
    MemoryFs fs;
    ASSERT_TRUE(WriteTree(fs, plan, "").ok());
    std::string& data = fs.files[plan.files.back().path];
    if (longer)
      data += "x";
    else
      data.pop_back();
    EXPECT_FALSE(ReadBackTree(fs, plan, "").ok()) << (longer ? "longer" : "shorter");
  }
}

}  // namespace
}  // namespace nasperf
