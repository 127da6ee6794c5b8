// LocalAppFs: the workspace and source-tree AppFileSystem on a local directory.
#include "target/local_app_fs.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "base/signals.h"
#include "base/units.h"
#include "target/local_app_file.h"
#include "target/own_file.h"
#include "target/page_cache.h"

namespace nasperf {
namespace {

constexpr int kDirFlags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC;
constexpr int kWorkspaceTries = 100;

struct Node {
  bool dir = false;
  dev_t dev = 0;
  ino_t ino = 0;
};

size_t Depth(const std::string& rel) { return static_cast<size_t>(std::count(rel.begin(), rel.end(), '/')); }

// A directory's descriptor: owned when it was opened for one call, shared when it came
// from (or went into) the parent cache, else the workspace's.
struct Dir {
  ScopedFd owned;
  std::shared_ptr<ScopedFd> shared;
  int fd = -1;
};

// The last few parent directories resolved, by relative path. A tree is walked in order,
// so its files come a directory at a time: each then costs one openat instead of one per
// level of the path (a 7-deep tree took 40 openat per file copied before this). The
// descriptors were opened without following links, so a name swapped for a link later
// cannot redirect them. Anything that removes or renames a directory clears it.
class ParentCache {
 public:
  std::shared_ptr<ScopedFd> Find(const std::string& rel) {
    std::lock_guard<std::mutex> lock(mutex_);
    for (auto it = entries_.rbegin(); it != entries_.rend(); ++it)
      if (it->first == rel) return it->second;
    return nullptr;
  }
  void Keep(const std::string& rel, std::shared_ptr<ScopedFd> fd) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (entries_.size() >= kEntries) entries_.erase(entries_.begin());
    entries_.emplace_back(rel, std::move(fd));
  }
  void Clear() {
    std::lock_guard<std::mutex> lock(mutex_);
    entries_.clear();
  }

 private:
  static constexpr size_t kEntries = 16;  // a few per copy thread; a handful of descriptors
  std::mutex mutex_;
  std::vector<std::pair<std::string, std::shared_ptr<ScopedFd>>> entries_;  // oldest first
};

class LocalAppFs final : public AppFileSystem {
 public:
  LocalAppFs(ScopedFd parent, ScopedFd root, std::string description, std::string root_name, bool read_only,
             bool keep_on_exit)
      : parent_(std::move(parent)),
        root_(std::move(root)),
        description_(std::move(description)),
        root_name_(std::move(root_name)),
        read_only_(read_only),
        keep_on_exit_(keep_on_exit) {
    struct stat st {};
    if (::fstat(root_.get(), &st) == 0) root_node_ = Node{true, st.st_dev, st.st_ino};
  }
  ~LocalAppFs() override {
    if (!keep_on_exit_) (void)RemoveWorkspace();
  }

  std::string description() const override { return description_; }
  std::string workspace() const override { return read_only_ ? description_ : description_ + "/" + root_name_; }

  Status MakeDir(const std::string& rel) override {
    if (Status s = CheckWrite("MakeDir", rel); !s.ok()) return s;
    std::string leaf;
    Result<Dir> dir = OpenParent(rel, &leaf);
    if (!dir.ok()) return dir.status();
    if (::mkdirat(dir.value().fd, leaf.c_str(), 0755) != 0) return Fail("mkdir", rel, errno);
    return Remember(dir.value().fd, leaf, rel, true);
  }

  Result<std::unique_ptr<AppFile>> Create(const std::string& rel) override {
    if (Status s = CheckWrite("Create", rel); !s.ok()) return s;
    std::string leaf;
    Result<Dir> dir = OpenParent(rel, &leaf);
    if (!dir.ok()) return dir.status();
    // O_EXCL: never an existing name, and with O_CREAT never through a symbolic link.
    int fd = ::openat(dir.value().fd, leaf.c_str(), O_CREAT | O_EXCL | O_NOFOLLOW | O_RDWR | O_CLOEXEC, 0644);
    if (fd < 0) return Fail("create", rel, errno);
    auto file = std::make_unique<LocalAppFile>(fd, Path(rel));
    if (Status s = Remember(dir.value().fd, leaf, rel, false); !s.ok()) return s;
    return std::unique_ptr<AppFile>(std::move(file));
  }

  Result<std::unique_ptr<AppFile>> OpenRead(const std::string& rel) override {
    if (Status s = CheckAppPath(rel); !s.ok()) return s;
    if (Status s = CheckPresent(); !s.ok()) return s;
    Result<int> fd = OpenFile(rel, O_RDONLY, nullptr);
    if (!fd.ok()) return fd.status();
    if (read_only_) {
      std::lock_guard<std::mutex> lock(mutex_);
      read_.push_back(rel);
    }
    return std::unique_ptr<AppFile>(new LocalAppFile(fd.value(), Path(rel)));
  }

  Result<std::unique_ptr<AppFile>> OpenWrite(const std::string& rel) override {
    if (Status s = CheckWrite("OpenWrite", rel); !s.ok()) return s;
    Result<Node> own = OwnNode(rel, false, "OpenWrite");
    if (!own.ok()) return own.status();
    Result<int> fd = OpenFile(rel, O_WRONLY, &own.value());
    if (!fd.ok()) return fd.status();
    return std::unique_ptr<AppFile>(new LocalAppFile(fd.value(), Path(rel)));
  }

  Status SetTimes(const std::string& rel, int64_t mtime_unix_ns) override {
    if (Status s = CheckWrite("SetTimes", rel); !s.ok()) return s;
    std::string leaf;
    Result<Dir> dir = OpenParent(rel, &leaf);
    if (!dir.ok()) return dir.status();
    Result<Node> own = OwnNode(rel, std::nullopt, "SetTimes");
    if (!own.ok()) return own.status();
    if (Status s = StillOurs(dir.value().fd, leaf, rel, own.value()); !s.ok()) return s;
    struct timespec times[2];
    times[0].tv_sec = 0;
    times[0].tv_nsec = UTIME_OMIT;
    times[1].tv_sec = static_cast<time_t>(mtime_unix_ns / 1000000000);
    times[1].tv_nsec = static_cast<long>(mtime_unix_ns % 1000000000);
    if (times[1].tv_nsec < 0) {
      times[1].tv_nsec += 1000000000;
      times[1].tv_sec -= 1;
    }
    if (::utimensat(dir.value().fd, leaf.c_str(), times, AT_SYMLINK_NOFOLLOW) != 0)
      return Fail("set times of", rel, errno);
    return Status::Ok();
  }

  Status Rename(const std::string& from_rel, const std::string& to_rel) override;
  Result<std::vector<AppDirEntry>> List(const std::string& rel) override;

  Status Remove(const std::string& rel) override { return RemoveOwn(rel, false, "Remove"); }
  Status RemoveDir(const std::string& rel) override { return RemoveOwn(rel, true, "RemoveDir"); }

  Result<AppSpace> Space() override {
    struct statvfs vfs {};
    if (::fstatvfs(root_.get(), &vfs) != 0) return ErrnoStatus("statvfs", workspace(), errno);
    return AppSpace{static_cast<uint64_t>(vfs.f_blocks) * vfs.f_frsize,
                    static_cast<uint64_t>(vfs.f_bavail) * vfs.f_frsize};
  }

  Result<ClientCacheDrop> DropClientCache() override;
  Status RemoveWorkspace() override;

 private:
  std::string Path(const std::string& rel) const { return workspace() + "/" + rel; }

  Status Fail(const char* what, const std::string& rel, int err) const {
    if (err == ELOOP)
      return Status::Io(
          std::string(what) + " " + Path(rel) + ": a symbolic link on the way, which nasperf never follows", err);
    return ErrnoStatus(what, Path(rel), err);
  }

  Status CheckWrite(const char* operation, const std::string& rel) const {
    if (Status s = CheckAppPath(rel); !s.ok()) return s;
    if (read_only_)
      return Status::BadInput("--source " + description_ + " is read-only: nasperf does not " + operation + " '" + rel +
                              "' in it");
    // Ctrl-C: no new work starts; the caller unwinds and the destructor removes the workspace.
    if (InterruptRequested()) return Status::Interrupted();
    return CheckPresent();
  }

  // After RemoveWorkspace the descriptor still reads as an empty directory; say it is gone.
  Status CheckPresent() const {
    std::lock_guard<std::mutex> lock(mutex_);
    if (root_removed_) return Status::Io(workspace() + ": the workspace was removed", ENOENT);
    return Status::Ok();
  }

  // Opens every directory of `rel` but the last component, one at a time, never through a
  // link; `leaf` gets the last component.
  Result<Dir> OpenParent(const std::string& rel, std::string* leaf) const {
    Dir dir;
    dir.fd = root_.get();
    const size_t last = rel.rfind('/');
    *leaf = last == std::string::npos ? rel : rel.substr(last + 1);
    if (last == std::string::npos) return dir;
    const std::string parent = rel.substr(0, last);
    if (std::shared_ptr<ScopedFd> hit = parents_.Find(parent)) {
      dir.fd = hit->get();
      dir.shared = std::move(hit);
      return dir;
    }
    size_t start = 0;
    for (size_t slash; (slash = rel.find('/', start)) != std::string::npos; start = slash + 1) {
      std::string part = rel.substr(start, slash - start);
      int next = ::openat(dir.fd, part.c_str(), kDirFlags);
      if (next < 0) return Fail("open directory", rel.substr(0, slash), errno == ENOTDIR ? ENOTDIR : errno);
      dir.owned = ScopedFd(next);
      dir.fd = next;
    }
    dir.shared = std::make_shared<ScopedFd>(std::move(dir.owned));
    parents_.Keep(parent, dir.shared);
    return dir;
  }

  // Opens a regular file (never a link, FIFO or device: O_NONBLOCK so a FIFO cannot hang
  // the open) and, with `expect`, checks it is still the file this run created.
  Result<int> OpenFile(const std::string& rel, int access, const Node* expect) const {
    std::string leaf;
    Result<Dir> dir = OpenParent(rel, &leaf);
    if (!dir.ok()) return dir.status();
    int fd = ::openat(dir.value().fd, leaf.c_str(), access | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return Fail("open", rel, errno);
    struct stat st {};
    Status bad;
    if (::fstat(fd, &st) != 0)
      bad = ErrnoStatus("fstat", Path(rel), errno);
    else if (!S_ISREG(st.st_mode))
      bad = Status::Io("open " + Path(rel) + ": not a regular file; not touched");
    else if (expect && (st.st_dev != expect->dev || st.st_ino != expect->ino))
      bad = Status::Io("open " + Path(rel) + ": no longer the file nasperf created there; not touched");
    if (!bad.ok()) {
      ::close(fd);
      return bad;
    }
    int flags = ::fcntl(fd, F_GETFL);
    if (flags >= 0) (void)::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
    return fd;
  }

  // Records a name just made (O_EXCL or mkdir), by the inode it leads to now.
  Status Remember(int dir_fd, const std::string& leaf, const std::string& rel, bool is_dir) {
    struct stat st {};
    if (::fstatat(dir_fd, leaf.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) {
      int err = errno;
      (void)::unlinkat(dir_fd, leaf.c_str(), is_dir ? AT_REMOVEDIR : 0);  // just made by us
      return ErrnoStatus("stat", Path(rel), err);
    }
    std::lock_guard<std::mutex> lock(mutex_);
    own_[rel] = Node{is_dir, st.st_dev, st.st_ino};
    return Status::Ok();
  }

  // The node this run created at `rel` (of the kind asked, when asked); BadInput otherwise.
  Result<Node> OwnNode(const std::string& rel, std::optional<bool> want_dir, const char* operation) const {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = own_.find(rel);
    if (it == own_.end())
      return Status::BadInput(std::string(operation) + " " + Path(rel) +
                              ": not a name this run created (nasperf touches only its own files)");
    if (want_dir && it->second.dir != *want_dir)
      return Status::BadInput(std::string(operation) + " " + Path(rel) + ": " +
                              (it->second.dir ? "a directory" : "a file") + " this run created, not a " +
                              (*want_dir ? "directory" : "file"));
    return it->second;
  }

  // Whether `leaf` in `dir_fd` still leads to `node` (not replaced since it was made).
  Status StillOurs(int dir_fd, const std::string& leaf, const std::string& rel, const Node& node) const {
    struct stat st {};
    if (::fstatat(dir_fd, leaf.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) return Fail("stat", rel, errno);
    if (st.st_dev != node.dev || st.st_ino != node.ino)
      return Status::Io(Path(rel) + " is no longer what nasperf created there; not touched");
    return Status::Ok();
  }

  Status RemoveOwn(const std::string& rel, bool is_dir, const char* operation);
  // Unlinks (or rmdirs) one own node if it is still ours; ENOENT counts as removed.
  Status Unlink(const std::string& rel, const Node& node);

  ScopedFd parent_;  // the directory the workspace was made in (invalid for a source tree)
  ScopedFd root_;    // the workspace, or the source tree
  Node root_node_;
  std::string description_;
  std::string root_name_;  // the workspace's name in parent_
  bool read_only_ = false;
  bool keep_on_exit_ = false;
  bool root_removed_ = false;
  mutable std::mutex mutex_;  // guards own_, read_, root_removed_: workloads call from many threads
  mutable ParentCache parents_;
  std::map<std::string, Node> own_;
  std::vector<std::string> read_;  // a source tree's files listed or read, for DropClientCache
};

Status LocalAppFs::Rename(const std::string& from_rel, const std::string& to_rel) {
  if (Status s = CheckWrite("Rename", from_rel); !s.ok()) return s;
  if (Status s = CheckWrite("Rename", to_rel); !s.ok()) return s;
  Result<Node> from = OwnNode(from_rel, false, "Rename");
  if (!from.ok()) return from.status();
  std::optional<Node> replaced;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (auto it = own_.find(to_rel); it != own_.end()) replaced = it->second;
  }
  if (replaced && replaced->dir)
    return Status::BadInput("Rename " + Path(from_rel) + " over " + Path(to_rel) + ": that is a directory");
  std::string from_leaf, to_leaf;
  Result<Dir> from_dir = OpenParent(from_rel, &from_leaf);
  if (!from_dir.ok()) return from_dir.status();
  Result<Dir> to_dir = OpenParent(to_rel, &to_leaf);
  if (!to_dir.ok()) return to_dir.status();
  if (Status s = StillOurs(from_dir.value().fd, from_leaf, from_rel, from.value()); !s.ok()) return s;
  if (replaced) {
    if (Status s = StillOurs(to_dir.value().fd, to_leaf, to_rel, *replaced); !s.ok()) return s;
    if (::renameat(from_dir.value().fd, from_leaf.c_str(), to_dir.value().fd, to_leaf.c_str()) != 0)
      return Fail("rename", from_rel, errno);
  } else if (::renameat2(from_dir.value().fd, from_leaf.c_str(), to_dir.value().fd, to_leaf.c_str(),
                         RENAME_NOREPLACE) != 0) {
    // Only an own file may be replaced: a name this run did not create stays as it is.
    if (errno == EEXIST)
      return Status::BadInput("Rename " + Path(from_rel) + " to " + Path(to_rel) +
                              ": that name exists and is not this run's");
    return Fail("rename", from_rel, errno);
  }
  std::lock_guard<std::mutex> lock(mutex_);
  own_.erase(from_rel);
  own_[to_rel] = from.value();
  return Status::Ok();
}

Result<std::vector<AppDirEntry>> LocalAppFs::List(const std::string& rel) {
  if (Status s = CheckPresent(); !s.ok()) return s;
  Dir dir;
  dir.fd = root_.get();
  if (!rel.empty()) {
    if (Status s = CheckAppPath(rel); !s.ok()) return s;
    std::string leaf;
    Result<Dir> parent = OpenParent(rel, &leaf);
    if (!parent.ok()) return parent.status();
    int fd = ::openat(parent.value().fd, leaf.c_str(), kDirFlags);
    if (fd < 0) return Fail("open directory", rel, errno);
    dir.owned = ScopedFd(fd);
    dir.fd = fd;
  }
  DIR* stream = ::fdopendir(::dup(dir.fd));
  if (stream == nullptr) return Fail("read directory", rel.empty() ? "." : rel, errno);
  ::rewinddir(stream);
  std::vector<AppDirEntry> entries;
  while (dirent* entry = ::readdir(stream)) {
    std::string name = entry->d_name;
    if (name == "." || name == "..") continue;
    struct stat st {};
    if (::fstatat(dir.fd, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) continue;  // gone meanwhile
    AppDirEntry e;
    e.name = std::move(name);
    e.is_dir = S_ISDIR(st.st_mode);
    e.is_special = !e.is_dir && !S_ISREG(st.st_mode);
    e.size_bytes = S_ISREG(st.st_mode) ? static_cast<uint64_t>(st.st_size) : 0;
    e.mtime_unix_ns = static_cast<int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
    entries.push_back(std::move(e));
  }
  ::closedir(stream);
  std::sort(entries.begin(), entries.end(), [](const AppDirEntry& a, const AppDirEntry& b) { return a.name < b.name; });
  // A source tree is listed before it is copied, and before the cache drop that precedes
  // the copy: the files listed are the ones a drop must reach, read or not yet.
  if (read_only_) {
    std::lock_guard<std::mutex> lock(mutex_);
    for (const AppDirEntry& e : entries)
      if (!e.is_dir && !e.is_special) read_.push_back(rel.empty() ? e.name : rel + "/" + e.name);
  }
  return entries;
}

Status LocalAppFs::RemoveOwn(const std::string& rel, bool is_dir, const char* operation) {
  if (Status s = CheckAppPath(rel); !s.ok()) return s;
  if (read_only_)
    return Status::BadInput("--source " + description_ + " is read-only: nasperf does not " + operation + " '" + rel +
                            "' in it");
  Result<Node> own = OwnNode(rel, is_dir, operation);
  if (!own.ok()) return own.status();
  if (Status s = Unlink(rel, own.value()); !s.ok()) return s;
  // A directory made again at this path must not be reached through the old one's descriptor.
  if (is_dir) parents_.Clear();
  std::lock_guard<std::mutex> lock(mutex_);
  own_.erase(rel);
  return Status::Ok();
}

Status LocalAppFs::Unlink(const std::string& rel, const Node& node) {
  std::string leaf;
  Result<Dir> dir = OpenParent(rel, &leaf);
  if (!dir.ok()) return dir.status().err() == ENOENT ? Status::Ok() : dir.status();
  struct stat st {};
  if (::fstatat(dir.value().fd, leaf.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0)
    return errno == ENOENT ? Status::Ok() : Fail("stat", rel, errno);
  if (st.st_dev != node.dev || st.st_ino != node.ino)
    return Status::Io("not removed: " + Path(rel) + " is no longer what nasperf created there");
  if (::unlinkat(dir.value().fd, leaf.c_str(), node.dir ? AT_REMOVEDIR : 0) != 0 && errno != ENOENT)
    return Fail(node.dir ? "remove directory" : "remove", rel, errno);
  return Status::Ok();
}

// Less than this share of the files' bytes still resident after a drop counts as emptied.
constexpr double kEmptiedBelowPct = 1.0;

Result<ClientCacheDrop> LocalAppFs::DropClientCache() {
  std::vector<std::string> names;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (read_only_) {
      names = read_;
    } else {
      for (const auto& [rel, node] : own_)
        if (!node.dir) names.push_back(rel);
    }
  }
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  if (names.empty())
    return ClientCacheDrop{std::string("nothing to drop: no files ") + (read_only_ ? "listed or read" : "created") + " yet",
                           true};
  uint64_t bytes = 0;
  double resident_bytes = 0;
  std::string ram_fs;
  for (const std::string& rel : names) {
    Result<int> opened = OpenFile(rel, O_RDONLY, nullptr);
    if (!opened.ok()) return opened.status();
    ScopedFd fd(opened.value());
    struct stat st {};
    if (::fstat(fd.get(), &st) != 0) return ErrnoStatus("fstat", Path(rel), errno);
    const uint64_t size = static_cast<uint64_t>(st.st_size);
    double pct = 0;
    if (read_only_) {
      // Not nasperf's file: nothing of it is flushed, only its clean pages are dropped.
      ram_fs = RamFileSystemOf(fd.get());
      if (ram_fs.empty()) (void)::posix_fadvise(fd.get(), 0, 0, POSIX_FADV_DONTNEED);
      Result<double> resident = ResidentPercent(fd.get(), size);
      if (!resident.ok()) return resident.status();
      pct = resident.value();
    } else {
      Result<CacheDropReport> report = DropFromPageCache(fd.get(), Path(rel), size, false);
      if (!report.ok()) return report.status();
      ram_fs = report.value().ram_fs;
      pct = report.value().resident_pct;
    }
    bytes += size;
    resident_bytes += pct / 100.0 * static_cast<double>(size);
  }
  const double still_pct = bytes == 0 ? 0 : 100.0 * resident_bytes / static_cast<double>(bytes);
  char pct_text[32];
  std::snprintf(pct_text, sizeof pct_text, "%.1f", still_pct);
  std::string what = std::to_string(names.size()) + (names.size() == 1 ? " file (" : " files (") + FormatSize(bytes) +
                     "): " + pct_text + " % still in this machine's page cache";
  if (!ram_fs.empty()) return ClientCacheDrop{"nothing dropped: " + ram_fs + " keeps its files only in RAM (" + what + ")", false};
  // The kernel may keep pages another process maps or that are being written back; what
  // mincore still finds is the measure, not what was asked of it.
  return ClientCacheDrop{
      std::string(read_only_ ? "posix_fadvise(DONTNEED)" : "fsync + posix_fadvise(DONTNEED)") + " on " + what,
      still_pct < kEmptiedBelowPct, true};
}

Status LocalAppFs::RemoveWorkspace() {
  if (read_only_) return Status::Ok();
  parents_.Clear();  // no descriptor of a directory about to go is handed out again
  std::vector<std::pair<std::string, Node>> nodes;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (root_removed_) return Status::Ok();
    nodes.assign(own_.begin(), own_.end());
  }
  // Deepest first: a directory's entries go before it.
  std::stable_sort(nodes.begin(), nodes.end(),
                   [](const auto& a, const auto& b) { return Depth(a.first) > Depth(b.first); });
  Status first;
  size_t left = 0;
  for (const auto& [rel, node] : nodes) {
    Status s = Unlink(rel, node);
    if (s.ok()) {
      std::lock_guard<std::mutex> lock(mutex_);
      own_.erase(rel);
    } else {
      ++left;
      if (first.ok()) first = s;
    }
  }
  if (first.ok()) {
    struct stat st {};
    if (::fstatat(parent_.get(), root_name_.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) {
      if (errno != ENOENT) first = ErrnoStatus("stat", workspace(), errno);
    } else if (st.st_dev != root_node_.dev || st.st_ino != root_node_.ino) {
      first = Status::Io("not removed: " + workspace() + " is no longer the workspace nasperf created");
    } else if (::unlinkat(parent_.get(), root_name_.c_str(), AT_REMOVEDIR) != 0 && errno != ENOENT) {
      // ENOTEMPTY: something this run did not create is inside; it is left as it is.
      first = ErrnoStatus("remove workspace", workspace(), errno);
    }
  }
  if (!first.ok())
    return Status::Io("cleanup of " + workspace() + " incomplete (" + std::to_string(left) +
                          " of nasperf's entries left): " + first.message(),
                      first.err());
  std::lock_guard<std::mutex> lock(mutex_);
  root_removed_ = true;
  return Status::Ok();
}

}  // namespace

Result<std::unique_ptr<AppFileSystem>> OpenLocalAppFileSystemAt(ScopedFd dir_fd, const std::string& directory,
                                                                bool keep_on_exit) {
  if (!dir_fd.valid()) return Status::BadInput("TARGET: " + directory + " is not an open directory");
  static std::atomic<uint32_t> counter{0};
  for (int tries = 0; tries < kWorkspaceTries; ++tries) {
    std::string name = OwnFileName("app" + std::to_string(counter.fetch_add(1)), "dir");
    // mkdir fails with EEXIST on any existing name (a link included): never reused.
    if (::mkdirat(dir_fd.get(), name.c_str(), 0700) != 0) {
      if (errno == EEXIST) continue;
      return ErrnoStatus("TARGET: cannot make the workspace in", directory, errno, ErrorKind::kBadInput);
    }
    ScopedFd ws(::openat(dir_fd.get(), name.c_str(), kDirFlags));
    if (!ws.valid()) {
      int err = errno;
      (void)::unlinkat(dir_fd.get(), name.c_str(), AT_REMOVEDIR);
      return ErrnoStatus("open workspace", directory + "/" + name, err);
    }
    return std::unique_ptr<AppFileSystem>(
        new LocalAppFs(std::move(dir_fd), std::move(ws), directory, name, false, keep_on_exit));
  }
  return Status::Io("TARGET: no free workspace name in " + directory + " after " + std::to_string(kWorkspaceTries) +
                    " tries");
}

namespace {

// Removes directory `name` in `parent` and what it holds when everything in it is a
// directory or a one-link regular file of `uid`; whatever is not stays, named in `left`.
// True when the directory itself went.
bool RemoveOwnTree(int parent, const std::string& name, const std::string& path, uid_t uid, int depth,
                   std::string* left) {
  if (depth > 256) return false;
  ScopedFd fd(::openat(parent, name.c_str(), kDirFlags));
  struct stat st {};
  if (!fd.valid() || ::fstat(fd.get(), &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != uid) return false;
  std::vector<std::string> names;
  if (DIR* stream = ::fdopendir(::dup(fd.get()))) {
    while (dirent* e = ::readdir(stream))
      if (std::string n = e->d_name; n != "." && n != "..") names.push_back(std::move(n));
    ::closedir(stream);
  }
  bool whole = true;
  for (const std::string& n : names) {
    struct stat entry {};
    if (::fstatat(fd.get(), n.c_str(), &entry, AT_SYMLINK_NOFOLLOW) != 0) continue;  // gone meanwhile
    bool removed = false;
    if (S_ISDIR(entry.st_mode))
      removed = RemoveOwnTree(fd.get(), n, path + "/" + n, uid, depth + 1, left);
    else if (S_ISREG(entry.st_mode) && entry.st_uid == uid && entry.st_nlink == 1)
      removed = ::unlinkat(fd.get(), n.c_str(), 0) == 0 || errno == ENOENT;
    if (!removed && !S_ISDIR(entry.st_mode) && left->size() < 4096) *left += (left->empty() ? "" : ", ") + path + "/" + n;
    whole &= removed;
  }
  return whole && (::unlinkat(parent, name.c_str(), AT_REMOVEDIR) == 0 || errno == ENOENT);
}

}  // namespace

int RemoveLostWorkspaces(const std::string& directory, const std::string& prefix, std::string* left) {
  if (prefix.rfind(".nasperf-", 0) != 0) return 0;  // never anything but an own-file prefix
  ScopedFd dir(::open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (!dir.valid()) return 0;
  std::vector<std::string> names;
  if (DIR* stream = ::fdopendir(::dup(dir.get()))) {
    while (dirent* e = ::readdir(stream)) {
      std::string n = e->d_name;
      if (n.starts_with(prefix) && n.ends_with(".dir")) names.push_back(std::move(n));
    }
    ::closedir(stream);
  }
  int removed = 0;
  for (const std::string& n : names) removed += RemoveOwnTree(dir.get(), n, directory + "/" + n, ::geteuid(), 0, left);
  return removed;
}

Result<std::unique_ptr<AppFileSystem>> OpenLocalAppFileSystem(const std::string& directory, bool keep_on_exit) {
  ScopedFd dir(::open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (!dir.valid()) return ErrnoStatus("TARGET:", directory, errno, ErrorKind::kBadInput);
  return OpenLocalAppFileSystemAt(std::move(dir), directory, keep_on_exit);
}

Result<std::unique_ptr<AppFileSystem>> OpenSourceTree(const std::string& directory) {
  ScopedFd dir(::open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (!dir.valid()) {
    if (errno == ENOTDIR) return Status::BadInput("--source: " + directory + " is not a directory");
    return ErrnoStatus("--source:", directory, errno, ErrorKind::kBadInput);
  }
  return std::unique_ptr<AppFileSystem>(new LocalAppFs(ScopedFd(), std::move(dir), directory, "", true, false));
}

}  // namespace nasperf
