// An AppFileSystem in memory, for unit tests of application workloads: exclusive create,
// parents that must exist, own-files-only writes, a Space() the test sets, and hooks to
// damage a file (verify tests) or fail an operation (error paths). Not thread-safe beyond
// one mutex around every call, which is all a copy test with --threads needs.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>

#include "core/app_fs.h"

namespace nasperf::testing {

class MemoryAppFs final : public AppFileSystem {
 public:
  std::string description() const override { return "memory:"; }
  std::string workspace() const override { return "memory:/.nasperf-test-app"; }

  Status MakeDir(const std::string& rel) override {
    std::lock_guard lock(mu_);
    if (!ParentExists(rel)) return Status::Io("mkdir " + rel + ": no parent");
    if (dirs_.count(rel) || files_.count(rel)) return Status::Io("mkdir " + rel + ": exists");
    dirs_.insert(rel);
    return Status::Ok();
  }
  Result<std::unique_ptr<AppFile>> Create(const std::string& rel) override {
    std::lock_guard lock(mu_);
    if (fail_create_ == rel) return Status::Io("injected failure");
    if (!ParentExists(rel)) return Status::Io("create " + rel + ": no parent");
    if (dirs_.count(rel) || files_.count(rel)) return Status::Io("create " + rel + ": exists");
    files_[rel] = std::make_shared<std::string>();
    ++creates_;
    return std::unique_ptr<AppFile>(new File(this, files_[rel]));
  }
  Result<std::unique_ptr<AppFile>> OpenRead(const std::string& rel) override {
    std::lock_guard lock(mu_);
    auto it = files_.find(rel);
    if (it == files_.end()) return Status::Io("open " + rel + ": no such file");
    return std::unique_ptr<AppFile>(new File(this, it->second));
  }
  Result<std::unique_ptr<AppFile>> OpenWrite(const std::string& rel) override { return OpenRead(rel); }
  Status SetTimes(const std::string& rel, int64_t mtime_unix_ns) override {
    std::lock_guard lock(mu_);
    if (!files_.count(rel)) return Status::Io("set times " + rel + ": no such file");
    mtimes_[rel] = mtime_unix_ns;
    return Status::Ok();
  }
  Status Rename(const std::string& from, const std::string& to) override {
    std::lock_guard lock(mu_);
    auto it = files_.find(from);
    if (it == files_.end()) return Status::Io("rename " + from + ": no such file");
    files_[to] = it->second;
    files_.erase(it);
    return Status::Ok();
  }
  Result<std::vector<AppDirEntry>> List(const std::string& rel) override {
    std::lock_guard lock(mu_);
    std::vector<AppDirEntry> out;
    const std::string prefix = rel.empty() ? "" : rel + "/";
    auto direct = [&](const std::string& name) {
      return name.rfind(prefix, 0) == 0 && name.size() > prefix.size() &&
             name.find('/', prefix.size()) == std::string::npos;
    };
    for (const std::string& d : dirs_)
      if (direct(d)) out.push_back({d.substr(prefix.size()), true, 0});
    for (const auto& [name, data] : files_)
      if (direct(name)) out.push_back({name.substr(prefix.size()), false, data->size()});
    return out;
  }
  Status Remove(const std::string& rel) override {
    std::lock_guard lock(mu_);
    return files_.erase(rel) ? Status::Ok() : Status::Io("remove " + rel + ": no such file");
  }
  Status RemoveDir(const std::string& rel) override {
    std::lock_guard lock(mu_);
    return dirs_.erase(rel) ? Status::Ok() : Status::Io("rmdir " + rel + ": no such directory");
  }
  Result<AppSpace> Space() override { return space_; }
  Result<ClientCacheDrop> DropClientCache() override { return ClientCacheDrop{"nothing to drop (memory)", false}; }  // its files live in RAM
  Status RemoveWorkspace() override {
    std::lock_guard lock(mu_);
    files_.clear();
    dirs_.clear();
    return Status::Ok();
  }

  // Test hooks.
  void SetSpace(AppSpace space) { space_ = space; }
  void FailCreateOf(const std::string& rel) { fail_create_ = rel; }
  Status sync_status;  // what every Sync returns (a share that cannot sync: Unavailable)
  // Flips one byte of `rel` at `offset` (a corrupted copy).
  void Corrupt(const std::string& rel, size_t offset) { (*files_.at(rel))[offset] ^= 0x40; }
  const std::string* Data(const std::string& rel) const {
    auto it = files_.find(rel);
    return it == files_.end() ? nullptr : it->second.get();
  }
  bool HasDir(const std::string& rel) const { return dirs_.count(rel) > 0; }
  size_t file_count() const { return files_.size(); }
  size_t creates() const { return creates_; }
  int64_t MTime(const std::string& rel) const { return mtimes_.count(rel) ? mtimes_.at(rel) : 0; }

 private:
  class File final : public AppFile {
   public:
    File(MemoryAppFs* fs, std::shared_ptr<std::string> data) : fs_(fs), data_(std::move(data)) {}
    Result<size_t> Write(const void* d, size_t n) override {
      Result<size_t> r = PWrite(d, n, pos_);
      if (r.ok()) pos_ += r.value();
      return r;
    }
    Result<size_t> Read(void* d, size_t n) override {
      Result<size_t> r = PRead(d, n, pos_);
      if (r.ok()) pos_ += r.value();
      return r;
    }
    Result<size_t> PWrite(const void* d, size_t n, uint64_t off) override {
      std::lock_guard lock(fs_->mu_);
      if (data_->size() < off + n) data_->resize(off + n);
      std::memcpy(data_->data() + off, d, n);
      return n;
    }
    Result<size_t> PRead(void* d, size_t n, uint64_t off) override {
      std::lock_guard lock(fs_->mu_);
      if (off >= data_->size()) return size_t{0};
      n = std::min<size_t>(n, data_->size() - off);
      std::memcpy(d, data_->data() + off, n);
      return n;
    }
    Status Sync() override {
      ++fs_->syncs;
      return fs_->sync_status;
    }
    Status Close() override { return Status::Ok(); }

   private:
    MemoryAppFs* fs_;
    std::shared_ptr<std::string> data_;
    uint64_t pos_ = 0;
  };

  bool ParentExists(const std::string& rel) const {
    size_t slash = rel.rfind('/');
    return slash == std::string::npos || dirs_.count(rel.substr(0, slash));
  }

  std::mutex mu_;
  std::set<std::string> dirs_;
  std::map<std::string, std::shared_ptr<std::string>> files_;
  std::map<std::string, int64_t> mtimes_;
  AppSpace space_{uint64_t{1} << 40, uint64_t{1} << 39};
  std::string fail_create_;
  size_t creates_ = 0;

 public:
  std::atomic<size_t> syncs{0};
};

}  // namespace nasperf::testing
