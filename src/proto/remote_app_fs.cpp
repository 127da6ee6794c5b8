// RemoteAppFs: workspace, own names and cleanup over a protocol's RemoteAppOps.
#include "proto/remote_app_fs.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <optional>

#include "base/signals.h"
#include "target/own_file.h"

namespace nasperf {
namespace {

constexpr int kWorkspaceTries = 100;

struct Node {
  bool dir = false;
  uint64_t file_id = 0;
};

std::string ParentOf(const std::string& rel) {
  size_t slash = rel.rfind('/');
  return slash == std::string::npos ? "" : rel.substr(0, slash);
}

class RemoteAppFs final : public AppFileSystem {
 public:
  RemoteAppFs(std::unique_ptr<RemoteAppOps> ops, std::string description, std::string workspace, bool keep)
      : ops_(std::move(ops)), description_(std::move(description)), ws_(std::move(workspace)), keep_(keep) {}
  ~RemoteAppFs() override {
    if (!keep_) (void)RemoveWorkspace();
  }
  std::string description() const override { return description_; }
  std::string workspace() const override { return description_ + " " + ws_; }

  Status MakeDir(const std::string& rel) override {
    if (Status s = CheckWrite(rel); !s.ok()) return s;
    if (Status s = ops_->MakeDir(Path(rel)); !s.ok()) return s;
    Remember(rel, true);
    return Status::Ok();
  }
  Result<std::unique_ptr<AppFile>> Create(const std::string& rel) override {
    if (Status s = CheckWrite(rel); !s.ok()) return s;
    Result<std::unique_ptr<AppFile>> file = ops_->Open(Path(rel), true, true);
    if (file.ok()) Remember(rel, false);
    return file;
  }
  Result<std::unique_ptr<AppFile>> OpenRead(const std::string& rel) override {
    if (Status s = CheckInside(rel); !s.ok()) return s;
    if (Status s = CheckRegular(rel, std::nullopt); !s.ok()) return s;
    return ops_->Open(Path(rel), false, false);
  }
  Result<std::unique_ptr<AppFile>> OpenWrite(const std::string& rel) override {
    if (Status s = CheckWrite(rel); !s.ok()) return s;
    Result<Node> own = OwnNode(rel, false, "OpenWrite");
    if (!own.ok()) return own.status();
    if (Status s = CheckRegular(rel, own.value()); !s.ok()) return s;
    return ops_->Open(Path(rel), false, true);
  }
  Status SetTimes(const std::string& rel, int64_t mtime_unix_ns) override {
    if (Status s = CheckWrite(rel); !s.ok()) return s;
    if (Result<Node> own = OwnNode(rel, std::nullopt, "SetTimes"); !own.ok()) return own.status();
    return ops_->SetTimes(Path(rel), mtime_unix_ns);
  }
  Status Rename(const std::string& from_rel, const std::string& to_rel) override {
    if (Status s = CheckWrite(from_rel); !s.ok()) return s;
    if (Status s = CheckWrite(to_rel); !s.ok()) return s;
    Result<Node> from = OwnNode(from_rel, false, "Rename");
    if (!from.ok()) return from.status();
    bool replaces_own = false;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      auto it = own_.find(to_rel);
      if (it != own_.end() && it->second.dir)
        return Status::BadInput("Rename " + Path(from_rel) + " over " + Path(to_rel) + ": that is a directory");
      replaces_own = it != own_.end();
    }
    if (!replaces_own) {
      // The protocols' renames replace: a name this run did not create must not be there.
      Result<RemoteStat> to = ops_->Stat(Path(to_rel));
      if (!to.ok()) return to.status();
      if (to.value().exists)
        return Status::BadInput("Rename " + Path(from_rel) + " to " + Path(to_rel) +
                                ": that name exists and is not this run's");
    }
    if (Status s = ops_->Rename(Path(from_rel), Path(to_rel)); !s.ok()) return s;
    std::lock_guard<std::mutex> lock(mutex_);
    own_.erase(from_rel);
    own_[to_rel] = from.value();
    return Status::Ok();
  }
  Result<std::vector<AppDirEntry>> List(const std::string& rel) override {
    if (!rel.empty()) {
      if (Status s = CheckInside(rel); !s.ok()) return s;
      if (Result<Node> own = OwnNode(rel, true, "List"); !own.ok()) return own.status();
    }
    return ops_->List(rel.empty() ? ws_ : Path(rel));
  }
  Status Remove(const std::string& rel) override { return RemoveOwn(rel, false, "Remove"); }
  Status RemoveDir(const std::string& rel) override { return RemoveOwn(rel, true, "RemoveDir"); }
  Result<AppSpace> Space() override { return ops_->Space(ws_); }
  // The protocol libraries read and write through to the server: nothing of the files is
  // kept on this machine, so there is nothing to drop and nothing left.
  Result<ClientCacheDrop> DropClientCache() override { return ClientCacheDrop{ops_->ClientCacheNote(), true}; }

  Status RemoveWorkspace() override {
    std::vector<std::pair<std::string, Node>> nodes;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (removed_) return Status::Ok();
      nodes.assign(own_.begin(), own_.end());
    }
    auto depth = [](const std::string& s) { return std::count(s.begin(), s.end(), '/'); };
    std::stable_sort(nodes.begin(), nodes.end(),
                     [&](const auto& a, const auto& b) { return depth(a.first) > depth(b.first); });
    Status first;
    size_t left = 0;
    for (const auto& [rel, node] : nodes) {
      Status s = Unlink(rel, node);
      if (s.ok()) {
        std::lock_guard<std::mutex> lock(mutex_);
        own_.erase(rel);
      } else if (++left == 1) {
        first = s;
      }
    }
    if (first.ok()) {
      // Only an empty directory goes: what this run did not create keeps it standing.
      Status s = ops_->RemoveDir(ws_);
      if (!s.ok() && s.err() != ENOENT) first = s;
    }
    if (!first.ok())
      return Status::Io("cleanup of " + workspace() + " incomplete (" + std::to_string(left) +
                            " of nasperf's entries left): " + first.message(),
                        first.err());
    std::lock_guard<std::mutex> lock(mutex_);
    removed_ = true;
    return Status::Ok();
  }

 private:
  std::string Path(const std::string& rel) const { return ws_ + "/" + rel; }

  // Every directory on the way must be one this run made: no RPC per component, and no
  // name below the workspace that someone else put there (a link) is gone through.
  Status CheckInside(const std::string& rel) const {
    if (Status s = CheckAppPath(rel); !s.ok()) return s;
    std::string parent = ParentOf(rel);
    if (parent.empty()) return Status::Ok();
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = own_.find(parent);
    if (it == own_.end() || !it->second.dir)
      return Status::BadInput(Path(rel) + ": its directory " + parent + " is not one this run created");
    return Status::Ok();
  }
  Status CheckWrite(const std::string& rel) const {
    if (Status s = CheckInside(rel); !s.ok()) return s;
    if (InterruptRequested()) return Status::Interrupted();
    return Status::Ok();
  }
  // The name must be a regular file (a link, device or directory is refused), and with
  // `own`, still the file this run created where the server reports file ids.
  Status CheckRegular(const std::string& rel, std::optional<Node> own) const {
    Result<RemoteStat> st = ops_->Stat(Path(rel));
    if (!st.ok()) return st.status();
    if (!st.value().exists) return Status::BadInput(Path(rel) + ": no such file");
    if (!st.value().is_regular) return Status::Io("open " + Path(rel) + ": not a regular file; not touched");
    if (own && own->file_id && st.value().file_id && own->file_id != st.value().file_id)
      return Status::Io("open " + Path(rel) + ": no longer the file nasperf created there; not touched");
    return Status::Ok();
  }
  // No file id is asked for here: that would be one more round trip inside every timed
  // create and mkdir. The name is in a workspace this run made; removal still checks the
  // kind of what it removes.
  void Remember(const std::string& rel, bool dir) {
    std::lock_guard<std::mutex> lock(mutex_);
    own_[rel] = Node{dir, 0};
  }
  Result<Node> OwnNode(const std::string& rel, std::optional<bool> want_dir, const char* operation) const {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = own_.find(rel);
    if (it == own_.end())
      return Status::BadInput(std::string(operation) + " " + Path(rel) +
                              ": not a name this run created (nasperf touches only its own files)");
    if (want_dir && it->second.dir != *want_dir)
      return Status::BadInput(std::string(operation) + " " + Path(rel) + ": not a " +
                              (*want_dir ? "directory" : "file") + " this run created");
    return it->second;
  }
  Status RemoveOwn(const std::string& rel, bool dir, const char* operation) {
    if (Status s = CheckInside(rel); !s.ok()) return s;
    Result<Node> own = OwnNode(rel, dir, operation);
    if (!own.ok()) return own.status();
    if (Status s = Unlink(rel, own.value()); !s.ok()) return s;
    std::lock_guard<std::mutex> lock(mutex_);
    own_.erase(rel);
    return Status::Ok();
  }
  Status Unlink(const std::string& rel, const Node& node) {
    Result<RemoteStat> st = ops_->Stat(Path(rel));
    if (!st.ok()) return st.status();
    if (!st.value().exists) return Status::Ok();
    if ((node.file_id && st.value().file_id && node.file_id != st.value().file_id) || st.value().is_dir != node.dir)
      return Status::Io("not removed: " + Path(rel) + " is no longer what nasperf created there");
    Status s = node.dir ? ops_->RemoveDir(Path(rel)) : ops_->Unlink(Path(rel));
    return s.ok() || s.err() == ENOENT ? Status::Ok() : s;
  }

  std::unique_ptr<RemoteAppOps> ops_;
  std::string description_;
  std::string ws_;  // the workspace's full path inside the share or export
  bool keep_ = false;
  mutable std::mutex mutex_;  // guards own_ and removed_
  std::map<std::string, Node> own_;
  bool removed_ = false;
};

}  // namespace

Result<std::unique_ptr<AppFileSystem>> OpenRemoteAppFs(std::unique_ptr<RemoteAppOps> ops, std::string description,
                                                       const std::string& directory, bool keep_on_exit) {
  Result<RemoteStat> dir = ops->Stat(directory.empty() ? "/" : directory);
  if (!dir.ok()) return dir.status();
  if (!dir.value().is_dir) return Status::BadInput("TARGET: " + description + " is not a directory");
  static std::atomic<uint32_t> counter{0};
  const std::string base = directory == "/" ? "" : directory;
  for (int tries = 0; tries < kWorkspaceTries; ++tries) {
    std::string ws = base + "/" + OwnFileName("app" + std::to_string(counter.fetch_add(1)), "dir");
    Status made = ops->MakeDir(ws);
    if (!made.ok() && made.err() == EEXIST) continue;  // never reused
    if (!made.ok()) return made;
    return std::unique_ptr<AppFileSystem>(new RemoteAppFs(std::move(ops), std::move(description), ws, keep_on_exit));
  }
  return Status::Io("TARGET: no free workspace name in " + description + " after " + std::to_string(kWorkspaceTries) +
                    " tries");
}

}  // namespace nasperf
