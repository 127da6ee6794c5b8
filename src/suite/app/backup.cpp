// `nasperf app backup|restore`: the packer, the unpacker and the two-in-flight chunk pipeline.
#include "suite/app/backup.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <thread>

#include "base/clock.h"
#include "base/signals.h"
#include "suite/app/backup_image.h"
#include "workload/dataset_bytes.h"

namespace nasperf {

uint64_t ImageBytes(const std::vector<BackupEntry>& entries, double image_ratio) {
  uint64_t bytes = kImageBlockBytes;  // the end header
  for (const BackupEntry& e : entries)
    bytes += kImageBlockBytes + (e.is_dir ? 0 : PaddedBytes(StoredBytes(e.size_bytes, image_ratio)));
  return bytes;
}

Status CheckBackup(const std::vector<BackupEntry>& entries, const BackupPlan& plan) {
  if (!(plan.image_ratio >= 1) || !std::isfinite(plan.image_ratio))
    return Status::BadInput(fmt::format("--image-ratio {}: 1 (no compression) or more", plan.image_ratio));
  for (const BackupEntry& e : entries)
    if (e.path.size() > kImageMaxPathBytes)
      return Status::BadInput(
          fmt::format("{}: a path longer than {} bytes does not fit the image header", e.path, kImageMaxPathBytes));
  return Status::Ok();
}

namespace {

class SourceTree final : public BackupSource {
 public:
  explicit SourceTree(AppFileSystem& fs) : fs_(fs) {}
  const std::vector<BackupEntry>& entries() const override { return entries_; }
  Status Read(size_t index, uint64_t offset, std::byte* data, size_t bytes) override {
    if (index != open_index_) {
      Result<std::unique_ptr<AppFile>> f = fs_.OpenRead(entries_[index].path);
      if (!f.ok()) return f.status();
      open_ = std::move(f.value());
      open_index_ = index;
    }
    for (size_t done = 0; done < bytes;) {
      Result<size_t> n = open_->PRead(data + done, bytes - done, offset + done);
      if (!n.ok()) return n.status();
      if (n.value() == 0) return Status::Io(fmt::format("{}: shorter than when it was listed", entries_[index].path));
      done += n.value();
    }
    return Status::Ok();
  }
  Status Walk(const std::string& dir, uint64_t* skipped, int depth) {
    if (depth > 4096) return Status::BadInput(fmt::format("{}: deeper than 4096 directories", dir));
    Result<std::vector<AppDirEntry>> listed = fs_.List(dir);
    if (!listed.ok()) return listed.status();
    std::vector<AppDirEntry> sorted = std::move(listed.value());
    std::sort(sorted.begin(), sorted.end(), [](const AppDirEntry& a, const AppDirEntry& b) { return a.name < b.name; });
    for (const AppDirEntry& e : sorted) {
      const std::string path = dir.empty() ? e.name : dir + "/" + e.name;
      if (e.is_special) {
        ++*skipped;
        continue;
      }
      entries_.push_back({path, e.is_dir, e.is_dir ? 0 : e.size_bytes});
      if (e.is_dir)
        if (Status s = Walk(path, skipped, depth + 1); !s.ok()) return s;
    }
    return Status::Ok();
  }

 private:
  AppFileSystem& fs_;
  std::vector<BackupEntry> entries_;
  std::unique_ptr<AppFile> open_;
  size_t open_index_ = SIZE_MAX;
};

// Directories first (parents before children, as the plan lists them), then the files:
// every file's parent exists by then.
class GeneratedTree final : public BackupSource {
 public:
  explicit GeneratedTree(const TreePlan& plan) : plan_(plan) {
    for (const TreeDir& d : plan.dirs) entries_.push_back({d.path, true, 0});
    for (const TreeFile& f : plan.files) entries_.push_back({f.path, false, f.size_bytes});
  }
  const std::vector<BackupEntry>& entries() const override { return entries_; }
  Status Read(size_t index, uint64_t offset, std::byte* data, size_t bytes) override {
    FillDatasetBytes(data, bytes, plan_.params.seed, index - plan_.dirs.size(), offset);
    return Status::Ok();
  }

 private:
  const TreePlan& plan_;
  std::vector<BackupEntry> entries_;
};

}  // namespace

std::unique_ptr<BackupSource> GeneratedTreeOf(const TreePlan& plan) { return std::make_unique<GeneratedTree>(plan); }

Result<std::unique_ptr<BackupSource>> SourceTreeOf(AppFileSystem& source, uint64_t* skipped) {
  auto tree = std::make_unique<SourceTree>(source);
  *skipped = 0;
  if (Status s = tree->Walk("", skipped, 0); !s.ok()) return s;
  return std::unique_ptr<BackupSource>(std::move(tree));
}

namespace {

struct FreeDeleter {
  void operator()(std::byte* p) const { std::free(p); }
};
using Buffer = std::unique_ptr<std::byte, FreeDeleter>;
Buffer NewBuffer(uint64_t bytes) { return Buffer(static_cast<std::byte*>(std::aligned_alloc(4096, bytes))); }

// One of the two chunks in flight: its thread, its handle on the image, its buffer.
struct Slot {
  std::mutex mutex;
  std::condition_variable cv;
  bool busy = false, quit = false;
  Buffer buffer;
  uint64_t offset = 0;
  size_t bytes = 0;  // to write; for reads, asked, then what was read
  Status status;
  std::unique_ptr<AppFile> file;
  std::thread thread;
};

Status WriteAllAt(AppFile& f, const std::byte* data, size_t bytes, uint64_t offset) {
  for (size_t done = 0; done < bytes;) {
    Result<size_t> n = f.PWrite(data + done, bytes - done, offset + done);
    if (!n.ok()) return n.status();
    if (n.value() == 0) return Status::Io("image write made no progress");
    done += n.value();
  }
  return Status::Ok();
}

// Reads up to `bytes` at `offset`: less only at the end of the file.
Result<size_t> ReadUpTo(AppFile& f, std::byte* data, size_t bytes, uint64_t offset) {
  size_t done = 0;
  while (done < bytes) {
    Result<size_t> n = f.PRead(data + done, bytes - done, offset + done);
    if (!n.ok()) return n.status();
    if (n.value() == 0) break;
    done += n.value();
  }
  return done;
}

// Two slots doing chunk jobs in turn: chunk i goes to slot i % 2.
class TwoInFlight {
 public:
  TwoInFlight(std::unique_ptr<AppFile> a, std::unique_ptr<AppFile> b, uint64_t chunk_bytes, bool write)
      : write_(write) {
    slots_[0].file = std::move(a);
    slots_[1].file = std::move(b);
    for (Slot& s : slots_) {
      s.buffer = NewBuffer(chunk_bytes);
      s.thread = std::thread([this, &s, chunk_bytes] { Serve(s, chunk_bytes); });
    }
  }
  ~TwoInFlight() { Stop(); }

  // Waits until slot `i` is idle; its status is the last job's.
  Slot& Idle(int i) {
    Slot& s = slots_[i];
    std::unique_lock lock(s.mutex);
    s.cv.wait(lock, [&] { return !s.busy; });
    return s;
  }
  void Post(Slot& s, uint64_t offset, size_t bytes) {
    {
      std::lock_guard lock(s.mutex);
      s.offset = offset;
      s.bytes = bytes;
      s.busy = true;
    }
    s.cv.notify_all();
  }
  // Stops both threads (after their current job) and closes the handles, syncing writes
  // first. A target without a flush (Unavailable) is closed unsynced: `*flushed` says which.
  Status Finish(bool* flushed = nullptr, std::string* unavailable = nullptr) {
    Status first;
    for (int i = 0; i < 2; ++i)
      if (Status s = Idle(i).status; !s.ok() && first.ok()) first = s;
    Stop();
    bool all_synced = write_;
    for (Slot& s : slots_) {
      if (!s.file) continue;
      if (write_ && first.ok()) {
        Status st = s.file->Sync();
        if (st.kind() == ErrorKind::kUnavailable) {
          all_synced = false;
          if (unavailable && unavailable->empty()) *unavailable = st.message();
        } else if (!st.ok()) {
          first = st;
        }
      }
      if (Status st = s.file->Close(); !st.ok() && first.ok()) first = st;
      s.file.reset();
    }
    if (flushed) *flushed = all_synced && first.ok();
    return first;
  }

 private:
  void Serve(Slot& s, uint64_t chunk_bytes) {
    std::unique_lock lock(s.mutex);
    for (;;) {
      s.cv.wait(lock, [&] { return s.busy || s.quit; });
      if (!s.busy) return;
      lock.unlock();
      Status st;
      size_t got = s.bytes;
      if (write_) {
        st = WriteAllAt(*s.file, s.buffer.get(), s.bytes, s.offset);
      } else {
        Result<size_t> n = ReadUpTo(*s.file, s.buffer.get(), s.bytes, s.offset);
        st = n.status();
        got = n.ok() ? n.value() : 0;
      }
      lock.lock();
      s.status = st;
      s.bytes = got;
      s.busy = false;
      s.cv.notify_all();
    }
  }
  void Stop() {
    for (Slot& s : slots_) {
      {
        std::lock_guard lock(s.mutex);
        s.quit = true;
      }
      s.cv.notify_all();
      if (s.thread.joinable()) s.thread.join();
    }
  }

  bool write_;
  Slot slots_[2];
};

// The packer's side of a backup: fills one buffer while two are written.
class ImageWriter {
 public:
  ImageWriter(TwoInFlight& pipe, uint64_t chunk_bytes)
      : pipe_(pipe), chunk_bytes_(chunk_bytes), cur_(NewBuffer(chunk_bytes)) {}
  std::byte* space() { return cur_.get() + fill_; }
  size_t room() const { return chunk_bytes_ - fill_; }
  Status Advance(size_t bytes) {
    fill_ += bytes;
    return fill_ == chunk_bytes_ ? Submit() : Status::Ok();
  }
  Status Zeros(size_t bytes) {
    while (bytes > 0) {
      const size_t n = std::min(bytes, room());
      std::memset(space(), 0, n);
      if (Status s = Advance(n); !s.ok()) return s;
      bytes -= n;
    }
    return Status::Ok();
  }
  Status Submit() {
    if (fill_ == 0) return Status::Ok();
    Slot& s = pipe_.Idle(static_cast<int>(chunks_ % 2));
    if (!s.status.ok()) return s.status;
    std::swap(cur_, s.buffer);
    pipe_.Post(s, offset_, fill_);
    offset_ += fill_;
    fill_ = 0;
    ++chunks_;
    return Status::Ok();
  }
  uint64_t bytes() const { return offset_ + fill_; }
  uint64_t chunks() const { return chunks_; }

 private:
  TwoInFlight& pipe_;
  uint64_t chunk_bytes_;
  Buffer cur_;
  size_t fill_ = 0;
  uint64_t offset_ = 0, chunks_ = 0;
};

Status PackEntries(BackupSource& source, const BackupPlan& plan, ImageWriter& w, BackupFigures& f) {
  std::byte header[kImageBlockBytes];
  const std::vector<BackupEntry>& entries = source.entries();
  for (size_t i = 0; i <= entries.size(); ++i) {
    if (InterruptRequested()) return Status::Interrupted();
    ImageHeader h;
    if (i < entries.size()) {
      const BackupEntry& e = entries[i];
      h.type = e.is_dir ? ImageEntryType::kDir : ImageEntryType::kFile;
      h.path = e.path;
      h.size_bytes = e.is_dir ? 0 : e.size_bytes;
      h.stored_bytes = e.is_dir ? 0 : StoredBytes(e.size_bytes, plan.image_ratio);
    }
    if (Status s = EncodeImageHeader(h, header); !s.ok()) return s;
    for (size_t at = 0; at < kImageBlockBytes;) {
      const size_t n = std::min(kImageBlockBytes - at, w.room());
      std::memcpy(w.space(), header + at, n);
      at += n;
      if (Status s = w.Advance(n); !s.ok()) return s;
    }
    if (h.type != ImageEntryType::kFile) {
      if (h.type == ImageEntryType::kDir) ++f.dirs;
      continue;
    }
    for (uint64_t at = 0; at < h.stored_bytes;) {
      const size_t n = static_cast<size_t>(std::min<uint64_t>(h.stored_bytes - at, w.room()));
      if (Status s = source.Read(i, at, w.space(), n); !s.ok()) return s;
      at += n;
      if (Status s = w.Advance(n); !s.ok()) return s;
    }
    if (Status s = w.Zeros(PaddedBytes(h.stored_bytes) - h.stored_bytes); !s.ok()) return s;
    ++f.files;
    f.source_bytes += h.size_bytes;
  }
  return w.Submit();
}

}  // namespace

Result<BackupFigures> RunBackup(AppFileSystem& fs, const std::string& image_name, BackupSource& source,
                                const BackupPlan& plan) {
  if (Status s = CheckBackup(source.entries(), plan); !s.ok()) return s;
  BackupFigures f;
  const uint64_t start_ns = MonotonicNs();
  Result<std::unique_ptr<AppFile>> a = fs.Create(image_name);
  if (!a.ok()) return a.status();
  Result<std::unique_ptr<AppFile>> b = fs.OpenWrite(image_name);
  if (!b.ok()) return b.status();
  TwoInFlight pipe(std::move(a.value()), std::move(b.value()), plan.chunk_bytes, true);
  ImageWriter writer(pipe, plan.chunk_bytes);
  Status packed = PackEntries(source, plan, writer, f);
  Status finished = pipe.Finish(&f.flushed, &f.flush_unavailable);
  if (!packed.ok()) return packed;
  if (!finished.ok()) return finished;
  f.elapsed_s = static_cast<double>(MonotonicNs() - start_ns) / 1e9;
  f.image_bytes = writer.bytes();
  f.chunks = writer.chunks();
  return f;
}

namespace {

// The unpacker's side of a restore: chunks in order from the two readers.
class ImageReader {
 public:
  ImageReader(TwoInFlight& pipe, uint64_t chunk_bytes, uint64_t image_bytes)
      : pipe_(pipe), chunk_bytes_(chunk_bytes), image_bytes_(image_bytes), cur_(NewBuffer(chunk_bytes)) {
    for (int i = 0; i < 2; ++i) PostNext(pipe_.Idle(i));
  }
  // Up to `want` bytes at the read position, without copying; empty at the image's end.
  Result<std::pair<const std::byte*, size_t>> Peek(size_t want) {
    if (pos_ == len_) {
      if (taken_ * chunk_bytes_ >= image_bytes_) return std::pair<const std::byte*, size_t>{nullptr, 0};
      Slot& s = pipe_.Idle(static_cast<int>(taken_ % 2));
      if (!s.status.ok()) return s.status;
      std::swap(cur_, s.buffer);
      len_ = s.bytes;
      pos_ = 0;
      ++taken_;
      PostNext(s);
      if (len_ == 0) return Status::Io("backup image ended early");
    }
    return std::pair<const std::byte*, size_t>{cur_.get() + pos_, std::min(want, len_ - pos_)};
  }
  void Consume(size_t bytes) { pos_ += bytes; }
  Status ReadExact(std::byte* out, size_t bytes) {
    while (bytes > 0) {
      Result<std::pair<const std::byte*, size_t>> p = Peek(bytes);
      if (!p.ok()) return p.status();
      if (p.value().second == 0) return Status::BadInput("backup image: truncated");
      std::memcpy(out, p.value().first, p.value().second);
      Consume(p.value().second);
      out += p.value().second;
      bytes -= p.value().second;
    }
    return Status::Ok();
  }
  uint64_t chunks() const { return taken_; }

 private:
  void PostNext(Slot& s) {
    const uint64_t offset = posted_ * chunk_bytes_;
    if (offset >= image_bytes_) return;
    ++posted_;
    pipe_.Post(s, offset, static_cast<size_t>(std::min<uint64_t>(chunk_bytes_, image_bytes_ - offset)));
  }
  TwoInFlight& pipe_;
  uint64_t chunk_bytes_, image_bytes_;
  Buffer cur_;
  size_t pos_ = 0, len_ = 0;
  uint64_t taken_ = 0, posted_ = 0;
};

Status UnpackEntries(ImageReader& r, AppFileSystem* scratch, BackupFigures& f) {
  std::byte header[kImageBlockBytes];
  for (;;) {
    if (InterruptRequested()) return Status::Interrupted();
    if (Status s = r.ReadExact(header, kImageBlockBytes); !s.ok()) return s;
    Result<ImageHeader> h = DecodeImageHeader(header);
    if (!h.ok()) return h.status();
    if (h.value().type == ImageEntryType::kEnd) return Status::Ok();
    if (h.value().type == ImageEntryType::kDir) {
      if (scratch)
        if (Status s = scratch->MakeDir(h.value().path); !s.ok()) return s;
      ++f.dirs;
      continue;
    }
    std::unique_ptr<AppFile> out;
    if (scratch) {
      Result<std::unique_ptr<AppFile>> c = scratch->Create(h.value().path);
      if (!c.ok()) return c.status();
      out = std::move(c.value());
    }
    for (uint64_t left = PaddedBytes(h.value().stored_bytes), content = h.value().stored_bytes; left > 0;) {
      Result<std::pair<const std::byte*, size_t>> p = r.Peek(static_cast<size_t>(std::min<uint64_t>(left, SIZE_MAX)));
      if (!p.ok()) return p.status();
      if (p.value().second == 0) return Status::BadInput("backup image: truncated");
      const size_t n = p.value().second;
      const size_t data = static_cast<size_t>(std::min<uint64_t>(content, n));
      if (out && data > 0)
        if (Status s = WriteAll(*out, p.value().first, data); !s.ok()) return s;
      content -= data;
      left -= n;
      r.Consume(n);
    }
    if (out)
      if (Status s = out->Close(); !s.ok()) return s;
    ++f.files;
    f.source_bytes += h.value().size_bytes;
  }
}

}  // namespace

Result<BackupFigures> RunRestore(AppFileSystem& fs, const std::string& image_name, AppFileSystem* scratch,
                                 const BackupPlan& plan) {
  Result<std::vector<AppDirEntry>> listed = fs.List("");
  if (!listed.ok()) return listed.status();
  uint64_t image_bytes = 0;
  bool found = false;
  for (const AppDirEntry& e : listed.value())
    if (e.name == image_name) image_bytes = e.size_bytes, found = true;
  if (!found) return Status::Io(fmt::format("{}: no backup image {}", fs.workspace(), image_name));
  BackupFigures f;
  const uint64_t start_ns = MonotonicNs();
  Result<std::unique_ptr<AppFile>> a = fs.OpenRead(image_name);
  if (!a.ok()) return a.status();
  Result<std::unique_ptr<AppFile>> b = fs.OpenRead(image_name);
  if (!b.ok()) return b.status();
  TwoInFlight pipe(std::move(a.value()), std::move(b.value()), plan.chunk_bytes, false);
  ImageReader reader(pipe, plan.chunk_bytes, image_bytes);
  Status unpacked = UnpackEntries(reader, scratch, f);
  Status finished = pipe.Finish();
  if (!unpacked.ok()) return unpacked;
  if (!finished.ok()) return finished;
  f.elapsed_s = static_cast<double>(MonotonicNs() - start_ns) / 1e9;
  f.image_bytes = image_bytes;
  f.chunks = reader.chunks();
  return f;
}

}  // namespace nasperf
