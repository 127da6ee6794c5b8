// Whether a sweep point could be served by a cache: the mark `cached` on each point,
// from what the point did and the caches in play. Pure, so each path is tested.
#pragma once

#include <cstdint>
#include <optional>

#include "suite/cache_analysis.h"

namespace nasperf {

struct PointFacts {
  uint64_t file_bytes = 0;
  bool read = false;          // a read test (read, reread, random read ...)
  bool direct = false;        // O_DIRECT
  bool fsync = false;         // writes are fsynced before the clock stops
  bool dropped_cold = false;  // a verified drop left under 1 % of the file cached before each repeat
};

// `ram.client_caches` is false when this machine's page cache is not in play: a share
// (smb://, nfs://) or O_DIRECT on a network file system, whose server still caches.
// `client_dirty_limit_bytes`: how much written data the client's page cache takes before
// the writer is throttled (sysinfo/dirty_limits.h); nullopt: unknown, the client's RAM.
bool PointCached(const PointFacts& point, const CacheRam& ram, std::optional<uint64_t> client_dirty_limit_bytes);

}  // namespace nasperf
