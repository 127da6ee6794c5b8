// An AppFileSystem in memory for the office, photo-album and fill tests, timed: each call
// advances a FakeClock by a set time (so latency figures are exact), and its free space
// falls as files grow (so a fill reaches a level); plus a Ctrl-C hook on rename.
// Files and folders in maps, with the safety rules' errors (exclusive create, parents that
// must exist, empty RemoveDir). Not thread-safe: these workloads make one call at a time.
#pragma once

#include <algorithm>
#include <csignal>
#include <cstring>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "core/app_fs.h"
#include "testing/fake_clock.h"

namespace nasperf::testing {

class TimedMemoryAppFs final : public AppFileSystem {
 public:
  explicit TimedMemoryAppFs(uint64_t total_bytes = 1ull << 40, FakeClock* clock = nullptr, uint64_t op_ns = 0)
      : total_bytes_(total_bytes), clock_(clock), op_ns_(op_ns) {}

  std::string description() const override { return "memory:"; }
  std::string workspace() const override { return "memory:/.nasperf-test-app"; }
  Status MakeDir(const std::string& rel) override {
    Tick();
    if (dirs_.count(rel) || files_.count(rel)) return Status::Io(rel + ": exists");
    if (!ParentExists(rel)) return Status::Io(rel + ": no parent");
    dirs_.insert(rel);
    return Status::Ok();
  }
  Result<std::unique_ptr<AppFile>> Create(const std::string& rel) override {
    Tick();
    if (files_.count(rel) || dirs_.count(rel)) return Status::Io(rel + ": exists (O_EXCL)");
    if (!ParentExists(rel)) return Status::Io(rel + ": no parent");
    files_[rel];
    ++creates;
    return std::unique_ptr<AppFile>(new File(*this, rel));
  }
  Result<std::unique_ptr<AppFile>> OpenRead(const std::string& rel) override {
    Tick();
    if (!files_.count(rel)) return Status::Io(rel + ": no such file");
    return std::unique_ptr<AppFile>(new File(*this, rel));
  }
  Result<std::unique_ptr<AppFile>> OpenWrite(const std::string& rel) override { return OpenRead(rel); }
  Status SetTimes(const std::string&, int64_t) override { return Status::Ok(); }
  Status Rename(const std::string& from, const std::string& to) override {
    Tick();
    auto it = files_.find(from);
    if (it == files_.end()) return Status::Io(from + ": no such file");
    if (dirs_.count(to)) return Status::Io(to + ": a folder");
    std::vector<uint8_t> data = std::move(it->second);
    files_.erase(it);
    files_[to] = std::move(data);
    ++renames;
    if (renames == raise_sigint_at_rename) std::raise(SIGINT);
    return Status::Ok();
  }
  Result<std::vector<AppDirEntry>> List(const std::string& rel) override {
    Tick();
    if (!rel.empty() && !dirs_.count(rel)) return Status::Io(rel + ": no such folder");
    std::vector<AppDirEntry> out;
    const std::string prefix = rel.empty() ? "" : rel + "/";
    for (const auto& [name, data] : files_)
      if (IsChild(prefix, name)) out.push_back({name.substr(prefix.size()), false, data.size()});
    for (const std::string& d : dirs_)
      if (IsChild(prefix, d)) out.push_back({d.substr(prefix.size()), true, 0});
    return out;
  }
  Status Remove(const std::string& rel) override {
    Tick();
    return files_.erase(rel) ? Status::Ok() : Status::Io(rel + ": no such file");
  }
  Status RemoveDir(const std::string& rel) override {
    Tick();
    Result<std::vector<AppDirEntry>> in = List(rel);
    if (!in.ok()) return in.status();
    if (!in.value().empty()) return Status::Io(rel + ": not empty");
    dirs_.erase(rel);
    return Status::Ok();
  }
  Result<AppSpace> Space() override {
    uint64_t used = base_used_bytes;
    for (const auto& [name, data] : files_) used += data.size();
    return AppSpace{total_bytes_, used >= total_bytes_ ? 0 : total_bytes_ - used};
  }
  Result<ClientCacheDrop> DropClientCache() override { return ClientCacheDrop{"nothing to drop in memory", false}; }  // its files live in RAM
  Status RemoveWorkspace() override {
    files_.clear();
    dirs_.clear();
    return Status::Ok();
  }

  const std::map<std::string, std::vector<uint8_t>>& files() const { return files_; }
  const std::set<std::string>& dirs() const { return dirs_; }
  uint64_t base_used_bytes = 0;  // what other users' files take on the volume
  int creates = 0, renames = 0, syncs = 0;
  int raise_sigint_at_rename = 0;  // a Ctrl-C just after this rename (1 = the first); 0: none
  Status sync_status;  // what every Sync returns (a file system that cannot sync: Unavailable)

 private:
  class File final : public AppFile {
   public:
    File(TimedMemoryAppFs& fs, std::string rel) : fs_(fs), rel_(std::move(rel)) {}
    Result<size_t> Write(const void* data, size_t bytes) override {
      Result<size_t> n = PWrite(data, bytes, at_);
      if (n.ok()) at_ += n.value();
      return n;
    }
    Result<size_t> Read(void* data, size_t bytes) override {
      Result<size_t> n = PRead(data, bytes, at_);
      if (n.ok()) at_ += n.value();
      return n;
    }
    Result<size_t> PWrite(const void* data, size_t bytes, uint64_t offset) override {
      fs_.Tick();
      std::vector<uint8_t>& f = fs_.files_.at(rel_);
      if (f.size() < offset + bytes) f.resize(offset + bytes);
      std::memcpy(f.data() + offset, data, bytes);
      return bytes;
    }
    Result<size_t> PRead(void* data, size_t bytes, uint64_t offset) override {
      fs_.Tick();
      const std::vector<uint8_t>& f = fs_.files_.at(rel_);
      if (offset >= f.size()) return size_t{0};
      const size_t n = std::min<size_t>(bytes, f.size() - offset);
      std::memcpy(data, f.data() + offset, n);
      return n;
    }
    Status Sync() override {
      fs_.Tick();
      ++fs_.syncs;
      return fs_.sync_status;
    }
    Status Close() override { return Status::Ok(); }

   private:
    TimedMemoryAppFs& fs_;
    std::string rel_;
    uint64_t at_ = 0;
  };

  void Tick() {
    if (clock_) clock_->AdvanceNs(op_ns_);
  }
  bool ParentExists(const std::string& rel) const {
    const size_t slash = rel.rfind('/');
    return slash == std::string::npos || dirs_.count(rel.substr(0, slash));
  }
  static bool IsChild(const std::string& prefix, const std::string& name) {
    return name.size() > prefix.size() && name.compare(0, prefix.size(), prefix) == 0 &&
           name.find('/', prefix.size()) == std::string::npos;
  }

  uint64_t total_bytes_;
  FakeClock* clock_;
  uint64_t op_ns_;
  std::map<std::string, std::vector<uint8_t>> files_;
  std::set<std::string> dirs_;
};

}  // namespace nasperf::testing
