// The photo-album workload (issue 18 item 6, NASPT's "photo album"): a folder of ~200
// phone photos (2-6 MB each, seeded sizes and bytes) staged untimed, then, timed, the
// folder listed and every photo opened and read whole, one at a time, as a viewer does.
// Reports each photo's wait (open to last byte) p50/p99, elapsed and MB/s.
#pragma once

#include <cstdint>
#include <vector>

#include "base/clock.h"
#include "core/app_fs.h"
#include "nasperf/app_result.h"
#include "suite/app/op_timings.h"
#include "nasperf/status.h"

namespace nasperf {

struct PhotoAlbumOptions {
  uint32_t photos = 200;
  uint64_t seed = 0;
  uint64_t min_bytes = 2'000'000;  // a phone JPEG, 12 MP
  uint64_t max_bytes = 6'000'000;
  size_t read_bytes = 1u << 20;  // a viewer's read request
};

struct PhotoAlbumPlan {
  PhotoAlbumOptions options;
  std::vector<uint64_t> sizes;  // photo i's size
  uint64_t total_bytes = 0;
};

// BadInput for photos < 1; the sizes from the seed.
Result<PhotoAlbumPlan> PlanPhotoAlbum(const PhotoAlbumOptions& options);

// Checks there is room (5 % free left), then writes the album under "album/" (untimed).
Status StagePhotoAlbum(AppFileSystem& fs, const PhotoAlbumPlan& plan);

// Timed: List("album"), then each photo opened, read whole and closed. ops "list",
// "open" and "read-photo" (open to close: the photo's wait). Interrupted on Ctrl-C, with
// `partial` figures in *out so far. `histograms`: the operations' times as histograms too
// (for the merge of mpirun's ranks).
Status RunPhotoAlbum(AppFileSystem& fs, const PhotoAlbumPlan& plan, Clock& clock, AppFigures* out,
                     OpHistograms* histograms = nullptr);

}  // namespace nasperf
