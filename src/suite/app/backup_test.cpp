// Backup and restore on an in-memory AppFileSystem: the image holds every entry with its
// headers and padding, --image-ratio stores B/R bytes, and a restore unpacks exactly the tree.
#include "suite/app/backup.h"

#include <gtest/gtest.h>

#include <cstring>
#include <map>
#include <mutex>

#include "suite/app/backup_image.h"
#include "workload/dataset_bytes.h"

namespace nasperf {
namespace {

// Files as byte strings, directories as a set; PWrite/PRead at any offset. Thread-safe.
class MemoryFs final : public AppFileSystem {
 public:
  struct Data {
    std::mutex mutex;
    std::map<std::string, std::string> files;
    std::map<std::string, bool> dirs;
  };
  class File final : public AppFile {
   public:
    File(Data& d, std::string name) : d_(d), name_(std::move(name)) {}
    Result<size_t> Write(const void* data, size_t bytes) override {
      Result<size_t> n = PWrite(data, bytes, pos_);
      pos_ += bytes;
      return n;
    }
    Result<size_t> Read(void* data, size_t bytes) override {
      Result<size_t> n = PRead(data, bytes, pos_);
      if (n.ok()) pos_ += n.value();
      return n;
    }
    Result<size_t> PWrite(const void* data, size_t bytes, uint64_t offset) override {
      std::lock_guard lock(d_.mutex);
      std::string& f = d_.files[name_];
      if (f.size() < offset + bytes) f.resize(offset + bytes);
      std::memcpy(f.data() + offset, data, bytes);
      return bytes;
    }
    Result<size_t> PRead(void* data, size_t bytes, uint64_t offset) override {
      std::lock_guard lock(d_.mutex);
      const std::string& f = d_.files[name_];
      if (offset >= f.size()) return size_t{0};
      const size_t n = std::min<uint64_t>(bytes, f.size() - offset);
      std::memcpy(data, f.data() + offset, n);
      return n;
    }
    Status Sync() override { return Status::Ok(); }
    Status Close() override { return Status::Ok(); }

   private:
    Data& d_;
    std::string name_;
    uint64_t pos_ = 0;
  };

  std::string description() const override { return "memory"; }
  std::string workspace() const override { return "memory:/ws"; }
  Status MakeDir(const std::string& rel) override {
    if (rel.empty() || rel[0] == '/' || rel.find("..") != std::string::npos) return Status::BadInput(rel);
    d.dirs[rel] = true;
    return Status::Ok();
  }
  Result<std::unique_ptr<AppFile>> Create(const std::string& rel) override {
    if (rel.empty() || rel[0] == '/' || rel.find("..") != std::string::npos) return Status::BadInput(rel);
    if (d.files.count(rel)) return Status::Io(rel + ": exists");
    d.files[rel];
    return std::unique_ptr<AppFile>(new File(d, rel));
  }
  Result<std::unique_ptr<AppFile>> OpenRead(const std::string& rel) override {
    if (!d.files.count(rel)) return Status::Io(rel + ": missing");
    return std::unique_ptr<AppFile>(new File(d, rel));
  }
  Result<std::unique_ptr<AppFile>> OpenWrite(const std::string& rel) override { return OpenRead(rel); }
  Status SetTimes(const std::string&, int64_t) override { return Status::Ok(); }
  Status Rename(const std::string&, const std::string&) override { return Status::Ok(); }
  Result<std::vector<AppDirEntry>> List(const std::string& rel) override {
    std::vector<AppDirEntry> out;
    const std::string prefix = rel.empty() ? "" : rel + "/";
    auto direct = [&](const std::string& p) {
      return p.rfind(prefix, 0) == 0 && p.size() > prefix.size() && p.find('/', prefix.size()) == std::string::npos;
    };
    for (const auto& [p, unused] : d.dirs)
      if (direct(p)) out.push_back({p.substr(prefix.size()), true, 0});
    for (const auto& [p, bytes] : d.files)
      if (direct(p)) out.push_back({p.substr(prefix.size()), false, bytes.size()});
    return out;
  }
  Status Remove(const std::string& rel) override { return d.files.erase(rel) ? Status::Ok() : Status::Io("missing"); }
  Status RemoveDir(const std::string& rel) override { return Status::Ok(); }
  Result<AppSpace> Space() override { return AppSpace{1ull << 40, 1ull << 40}; }
  Result<ClientCacheDrop> DropClientCache() override { return ClientCacheDrop{"nothing to drop", false}; }  // its files live in RAM
  Status RemoveWorkspace() override { return Status::Ok(); }

  Data d;
};

// A source tree of a few directories and files of awkward sizes (0, 1, 511, 512, 3 MiB + 7).
void FillSource(MemoryFs& src) {
  src.d.dirs["a"] = true;
  src.d.dirs["a/b"] = true;
  src.d.dirs["c"] = true;
  auto content = [](size_t n, char seed) {
    std::string s(n, '\0');
    for (size_t i = 0; i < n; ++i) s[i] = static_cast<char>(seed + i * 7 + (i >> 9));
    return s;
  };
  src.d.files["empty"] = "";
  src.d.files["a/one"] = content(1, 'x');
  src.d.files["a/b/odd"] = content(511, 'y');
  src.d.files["a/b/block"] = content(512, 'z');
  src.d.files["c/big"] = content(3 * (1 << 20) + 7, 'q');
}

uint64_t SourceBytes(const MemoryFs& src) {
  uint64_t n = 0;
  for (const auto& [p, bytes] : src.d.files) n += bytes.size();
  return n;
}

TEST(Backup, PacksEveryEntryIntoOneImageAndRestoresItExactly) {
  MemoryFs src, nas, scratch;
  FillSource(src);
  uint64_t skipped = 0;
  Result<std::unique_ptr<BackupSource>> source = SourceTreeOf(src, &skipped);
  ASSERT_TRUE(source.ok()) << source.status().message();
  EXPECT_EQ(source.value()->entries().size(), 8u);
  // Parents before children.
  EXPECT_EQ(source.value()->entries()[0].path, "a");
  EXPECT_EQ(source.value()->entries()[1].path, "a/b");

  BackupPlan plan;
  Result<BackupFigures> b = RunBackup(nas, "image", *source.value(), plan);
  ASSERT_TRUE(b.ok()) << b.status().message();
  EXPECT_EQ(b.value().files, 5u);
  EXPECT_EQ(b.value().dirs, 3u);
  EXPECT_EQ(b.value().source_bytes, SourceBytes(src));
  // 9 headers, contents padded: 0 + 512 + 512 + 512 + (3 MiB + 512).
  const uint64_t image = 9 * 512 + 512 + 512 + 512 + 3 * (1 << 20) + 512;
  EXPECT_EQ(b.value().image_bytes, image);
  EXPECT_EQ(ImageBytes(source.value()->entries(), 1), image);
  EXPECT_EQ(nas.d.files["image"].size(), image);
  EXPECT_EQ(b.value().chunks, 4u);  // 3 MiB + 6 KiB in 1 MiB writes

  Result<BackupFigures> r = RunRestore(nas, "image", &scratch, plan);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r.value().files, 5u);
  EXPECT_EQ(r.value().source_bytes, SourceBytes(src));
  EXPECT_EQ(scratch.d.files, src.d.files);
  EXPECT_EQ(scratch.d.dirs, src.d.dirs);

  // The null sink parses the same image and keeps nothing.
  Result<BackupFigures> null_sink = RunRestore(nas, "image", nullptr, plan);
  ASSERT_TRUE(null_sink.ok());
  EXPECT_EQ(null_sink.value().files, 5u);
}

TEST(Backup, AnImageRatioStoresTheFirstBOverRBytes) {
  MemoryFs src, nas, scratch;
  FillSource(src);
  uint64_t skipped = 0;
  std::unique_ptr<BackupSource> source = std::move(SourceTreeOf(src, &skipped).value());
  BackupPlan plan;
  plan.image_ratio = 2;
  Result<BackupFigures> b = RunBackup(nas, "image", *source, plan);
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(b.value().source_bytes, SourceBytes(src));  // the seed's MB/s counts the source
  EXPECT_EQ(b.value().image_bytes, ImageBytes(source->entries(), 2));
  EXPECT_LT(b.value().image_bytes, ImageBytes(source->entries(), 1) / 2 + 9 * 1024);
  Result<BackupFigures> r = RunRestore(nas, "image", &scratch, plan);
  ASSERT_TRUE(r.ok());
  // Half of each file (rounded up) comes back: what was stored.
  EXPECT_EQ(scratch.d.files["c/big"], src.d.files["c/big"].substr(0, (3 * (1 << 20) + 8) / 2));
  EXPECT_EQ(scratch.d.files["a/one"], src.d.files["a/one"]);
}

TEST(Backup, AGeneratedTreeRestoresToItsDatasetBytes) {
  Result<TreeParams> params = TreePreset("small-files", 0.02, 11);
  ASSERT_TRUE(params.ok()) << params.status().message();
  Result<TreePlan> tree = GenerateTree(params.value());
  ASSERT_TRUE(tree.ok());
  std::unique_ptr<BackupSource> source = GeneratedTreeOf(tree.value());
  MemoryFs nas, scratch;
  BackupPlan plan;
  ASSERT_TRUE(RunBackup(nas, "image", *source, plan).ok());
  Result<BackupFigures> r = RunRestore(nas, "image", &scratch, plan);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r.value().files, tree.value().files.size());
  EXPECT_EQ(r.value().dirs, tree.value().dirs.size());
  EXPECT_EQ(r.value().source_bytes, tree.value().stats.bytes);
  for (size_t i = 0; i < tree.value().files.size(); ++i) {
    const TreeFile& f = tree.value().files[i];
    std::string want(f.size_bytes, '\0');
    FillDatasetBytes(reinterpret_cast<std::byte*>(want.data()), want.size(), 11, i, 0);
    ASSERT_EQ(scratch.d.files[f.path], want) << f.path;
  }
}

TEST(Backup, BadRatiosAndLongPathsAreBadInput) {
  BackupPlan plan;
  plan.image_ratio = 0.5;
  EXPECT_EQ(CheckBackup({}, plan).kind(), ErrorKind::kBadInput);
  plan.image_ratio = 1;
  EXPECT_TRUE(CheckBackup({}, plan).ok());
  EXPECT_EQ(CheckBackup({{std::string(600, 'a'), false, 1}}, plan).kind(), ErrorKind::kBadInput);
}

TEST(BackupImage, AHeaderRoundTripsAndADamagedOneIsRefused) {
  std::byte block[kImageBlockBytes];
  ImageHeader h{ImageEntryType::kFile, "dir/file.txt", 12345, 6173};
  ASSERT_TRUE(EncodeImageHeader(h, block).ok());
  Result<ImageHeader> back = DecodeImageHeader(block);
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back.value().path, "dir/file.txt");
  EXPECT_EQ(back.value().size_bytes, 12345u);
  EXPECT_EQ(back.value().stored_bytes, 6173u);
  block[0] = std::byte{'X'};
  EXPECT_EQ(DecodeImageHeader(block).status().kind(), ErrorKind::kBadInput);
}

}  // namespace
}  // namespace nasperf
