// Writing a generated tree through an AppFileSystem, and reading it back to check it.
#include "suite/app/tree_write.h"

#include <algorithm>
#include <memory>
#include <vector>

#include "base/signals.h"
#include "workload/dataset_bytes.h"

namespace nasperf {
namespace {

constexpr size_t kRequestBytes = size_t{1} << 20;  // as a copy tool writes

std::string Under(const std::string& root, const std::string& rel) { return root.empty() ? rel : root + "/" + rel; }

Status WriteAll(AppFile& file, const std::byte* data, size_t bytes, const std::string& path) {
  for (size_t done = 0; done < bytes;) {
    Result<size_t> wrote = file.Write(data + done, bytes - done);
    if (!wrote.ok()) return wrote.status();
    if (wrote.value() == 0) return Status::Io("write " + path + ": wrote nothing");
    done += wrote.value();
  }
  return Status::Ok();
}

}  // namespace

Result<TreeWriteResult> WriteTree(AppFileSystem& fs, const TreePlan& plan, const std::string& root) {
  TreeWriteResult out;
  DatasetDigest digest;
  if (!root.empty()) {
    Status made = fs.MakeDir(root);
    if (!made.ok()) return made;
  }
  for (const TreeDir& dir : plan.dirs) {
    if (InterruptRequested()) return Status::Interrupted();
    Status made = fs.MakeDir(Under(root, dir.path));
    if (!made.ok()) return made;
    digest.AddDir(dir.path);
    ++out.dirs;
  }
  // One buffer for the whole tree, allocated before the first file.
  std::unique_ptr<std::byte[]> buffer(new std::byte[kRequestBytes]);
  for (uint64_t index = 0; index < plan.files.size(); ++index) {
    const TreeFile& f = plan.files[index];
    const std::string path = Under(root, f.path);
    Result<std::unique_ptr<AppFile>> file = fs.Create(path);
    if (!file.ok()) return file.status();
    digest.AddFile(f.path, f.size_bytes);
    for (uint64_t at = 0; at < f.size_bytes;) {
      if (InterruptRequested()) return Status::Interrupted();
      const size_t take = static_cast<size_t>(std::min<uint64_t>(kRequestBytes, f.size_bytes - at));
      FillDatasetBytes(buffer.get(), take, plan.params.seed, index, at);
      Status wrote = WriteAll(*file.value(), buffer.get(), take, path);
      if (!wrote.ok()) return wrote;
      digest.Update(buffer.get(), take);
      at += take;
    }
    Status closed = file.value()->Close();
    if (!closed.ok()) return closed;
    ++out.files;
    out.bytes += f.size_bytes;
  }
  out.digest = digest.Finish();
  return out;
}

Result<std::string> ReadBackTree(AppFileSystem& fs, const TreePlan& plan, const std::string& root) {
  DatasetDigest digest;
  for (const TreeDir& dir : plan.dirs) digest.AddDir(dir.path);
  std::unique_ptr<std::byte[]> buffer(new std::byte[kRequestBytes]);
  for (uint64_t index = 0; index < plan.files.size(); ++index) {
    const TreeFile& f = plan.files[index];
    const std::string path = Under(root, f.path);
    Result<std::unique_ptr<AppFile>> file = fs.OpenRead(path);
    if (!file.ok()) return file.status();
    digest.AddFile(f.path, f.size_bytes);
    uint64_t at = 0;
    for (;;) {
      if (InterruptRequested()) return Status::Interrupted();
      Result<size_t> got = file.value()->Read(buffer.get(), kRequestBytes);
      if (!got.ok()) return got.status();
      if (got.value() == 0) break;
      if (at + got.value() > f.size_bytes)
        return Status::Io("read back " + path + ": longer than the " + std::to_string(f.size_bytes) + " bytes written");
      if (auto bad = FirstDatasetMismatch(buffer.get(), got.value(), plan.params.seed, index, at))
        return Status::Io("read back " + path + ": byte " + std::to_string(*bad) + " is not what was written");
      digest.Update(buffer.get(), got.value());
      at += got.value();
    }
    if (at != f.size_bytes)
      return Status::Io("read back " + path + ": " + std::to_string(at) + " bytes of the " +
                        std::to_string(f.size_bytes) + " written");
  }
  return digest.Finish();
}

}  // namespace nasperf
