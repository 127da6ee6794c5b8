// PointCached: reads fit in a RAM, writes in the dirty limit (or the NAS's RAM).
#include "suite/point_cache.h"

#include <algorithm>

namespace nasperf {

bool PointCached(const PointFacts& p, const CacheRam& ram, std::optional<uint64_t> client_dirty_limit_bytes) {
  // O_DIRECT on a local file system: no cache between the client and the device.
  if (p.direct && ram.client_caches) return false;
  const bool fits_nas = ram.nas_bytes && p.file_bytes <= *ram.nas_bytes;
  if (!p.read) {
    if (p.fsync) return false;  // the clock waits for the device
    // A writer is throttled once the dirty pages reach the limit, not when RAM is full.
    const uint64_t client =
        ram.client_caches ? std::min(ram.client_bytes, client_dirty_limit_bytes.value_or(ram.client_bytes)) : 0;
    return p.file_bytes <= client + ram.nas_bytes.value_or(0);
  }
  if (p.dropped_cold) return fits_nas;  // this machine's cache was emptied; the NAS's was not
  return p.file_bytes <= ram.client_cache_bytes() || fits_nas;
}

}  // namespace nasperf
