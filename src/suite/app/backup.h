// `nasperf app backup|restore`: a tree packed into one sequential image (suite/app/backup_image.h)
// on an AppFileSystem in 1 MiB writes, two in flight, and read back and unpacked. No
// printing, no store.
//
// Two in flight: two writer (reader) threads, each with its own handle on the image,
// taking alternate 1 MiB chunks at their offsets (PWrite/PRead), while the packer fills a
// third buffer. AppFile is synchronous and one handle serves one thread at a time, so
// threads are the only way to keep two requests on the wire on every target kind; a
// backup tool double-buffers the same way.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/app_fs.h"
#include "nasperf/status.h"
#include "workload/tree_model.h"

namespace nasperf {

struct BackupEntry {
  std::string path;  // relative, '/'-separated; parents listed before children
  bool is_dir = false;
  uint64_t size_bytes = 0;
};

// What a backup packs: the generated tree (its bytes from the seed) or a read-only source
// directory. Read is called from the packer thread only, in entry order.
class BackupSource {
 public:
  virtual ~BackupSource() = default;
  virtual const std::vector<BackupEntry>& entries() const = 0;
  // Fills `bytes` of entry `index`'s content from `offset` (within its size).
  virtual Status Read(size_t index, uint64_t offset, std::byte* data, size_t bytes) = 0;
};

// A read-only source directory (AppFileSystem's OpenSourceTree) as a BackupSource: every
// directory and regular file beneath it, parents first; anything else (links, devices) is
// skipped and counted in `skipped`.
Result<std::unique_ptr<BackupSource>> SourceTreeOf(AppFileSystem& source, uint64_t* skipped);

// A generated tree (workload/tree_model.h) as a BackupSource: its directories, then its
// files, each file's bytes FillDatasetBytes(seed, its index, offset). Keeps `plan` by reference.
std::unique_ptr<BackupSource> GeneratedTreeOf(const TreePlan& plan);

struct BackupPlan {
  uint64_t chunk_bytes = 1 << 20;
  double image_ratio = 1;  // --image-ratio: a file of B bytes is stored as B / R
};

// Bytes the image of `entries` takes: headers, stored contents, padding, the end header.
uint64_t ImageBytes(const std::vector<BackupEntry>& entries, double image_ratio);
// BadInput for a ratio below 1 (or not a number), or a path the header cannot hold.
Status CheckBackup(const std::vector<BackupEntry>& entries, const BackupPlan& plan);

struct BackupFigures {
  double elapsed_s = 0;       // image create to its last close, sync included
  uint64_t source_bytes = 0;  // of the files packed
  uint64_t image_bytes = 0;   // written (backup) or read (restore)
  uint64_t files = 0, dirs = 0;
  uint64_t chunks = 0;
  // Backup: the image was fsynced before the clock stopped. false: the target has no flush
  // (libsmbclient), said in `flush_unavailable`, and the clock stopped at the close.
  bool flushed = false;
  std::string flush_unavailable;
};

// Packs `source` into `image_name` on `fs` (created, exclusive). Timed from the create to
// the close after Sync.
Result<BackupFigures> RunBackup(AppFileSystem& fs, const std::string& image_name, BackupSource& source,
                                const BackupPlan& plan);

// Reads `image_name` back from `fs` and unpacks it: into `scratch` (directories and files
// created there) or, when it is null, into nothing (headers parsed, content discarded).
// Timed from the open to the last close.
Result<BackupFigures> RunRestore(AppFileSystem& fs, const std::string& image_name, AppFileSystem* scratch,
                                 const BackupPlan& plan);

}  // namespace nasperf
