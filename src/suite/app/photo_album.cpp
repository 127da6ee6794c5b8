// PlanPhotoAlbum, StagePhotoAlbum and RunPhotoAlbum.
#include "suite/app/photo_album.h"

#include <fmt/format.h>

#include "base/signals.h"
#include "suite/app/op_timings.h"
#include "suite/app/staging.h"

namespace nasperf {
namespace {

constexpr const char* kAlbumDir = "album";
std::string PhotoName(size_t i) { return fmt::format("{}/IMG_{:04}.JPG", kAlbumDir, i + 1); }
enum PhotoOp : size_t { kListFolder, kOpenPhoto, kReadPhoto };

}  // namespace

Result<PhotoAlbumPlan> PlanPhotoAlbum(const PhotoAlbumOptions& options) {
  if (options.photos < 1) return Status::BadInput("--photos 0: the album needs at least one photo");
  PhotoAlbumPlan plan;
  plan.options = options;
  plan.sizes = SeededSizes(options.seed, options.photos, options.min_bytes, options.max_bytes, false);
  for (uint64_t s : plan.sizes) plan.total_bytes += s;
  return plan;
}

Status StagePhotoAlbum(AppFileSystem& fs, const PhotoAlbumPlan& plan) {
  if (Status s = CheckRoomFor(fs, plan.total_bytes); !s.ok()) return s;
  if (Status s = fs.MakeDir(kAlbumDir); !s.ok()) return s;
  std::vector<uint8_t> buffer(4u << 20);
  for (size_t i = 0; i < plan.sizes.size(); ++i)
    if (Status s = WriteStagedFile(fs, PhotoName(i), plan.sizes[i], plan.options.seed, i, buffer, false); !s.ok())
      return s;
  return Status::Ok();
}

Status RunPhotoAlbum(AppFileSystem& fs, const PhotoAlbumPlan& plan, Clock& clock, AppFigures* out,
                     OpHistograms* histograms) {
  out->workload = "photo-album";
  out->threads = 1;
  std::vector<uint8_t> buffer(plan.options.read_bytes);
  OpTimings timings({"list", "open", "read-photo"}, plan.sizes.size());
  Status status;
  const uint64_t start_ns = clock.NowNs();
  uint64_t now_ns = start_ns;
  // The viewer lists the folder first; it reads the photos the listing shows, in order.
  Result<std::vector<AppDirEntry>> listed = fs.List(kAlbumDir);
  timings.Add(kListFolder, clock.NowNs() - now_ns);
  if (!listed.ok())
    status = listed.status();
  else if (listed.value().size() != plan.sizes.size())
    status = Status::Io(
        fmt::format("{}: listed {} photos, staged {}", fs.workspace(), listed.value().size(), plan.sizes.size()));
  for (size_t i = 0; status.ok() && i < plan.sizes.size(); ++i) {
    if (InterruptRequested()) {
      status = Status::Interrupted();
      break;
    }
    const uint64_t open_ns = clock.NowNs();
    Result<std::unique_ptr<AppFile>> file = fs.OpenRead(PhotoName(i));
    const uint64_t opened_ns = clock.NowNs();
    timings.Add(kOpenPhoto, opened_ns - open_ns);
    if (!file.ok()) {
      status = file.status();
      break;
    }
    uint64_t read_bytes = 0;
    while (true) {
      Result<size_t> got = file.value()->Read(buffer.data(), buffer.size());
      if (!got.ok()) {
        status = got.status();
        break;
      }
      if (got.value() == 0) break;
      read_bytes += got.value();
    }
    if (status.ok()) status = file.value()->Close();
    if (!status.ok()) break;
    if (read_bytes != plan.sizes[i]) {
      status = Status::Io(fmt::format("{}: read {} bytes of {}", PhotoName(i), read_bytes, plan.sizes[i]));
      break;
    }
    timings.Add(kReadPhoto, clock.NowNs() - open_ns);
    out->bytes += read_bytes;
    ++out->files;
  }
  now_ns = clock.NowNs();
  out->elapsed_s = static_cast<double>(now_ns - start_ns) / 1e9;
  if (out->elapsed_s > 0) {
    out->mb_per_s = static_cast<double>(out->bytes) / out->elapsed_s / 1e6;
    out->files_per_s = static_cast<double>(out->files) / out->elapsed_s;
  }
  out->ops = timings.Summarise();
  if (histograms) *histograms = timings.Histograms();
  return status;
}

}  // namespace nasperf
