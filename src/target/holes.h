// Sparse regions: a read of a region that was never written (a hole in a file, an
// unallocated block of a thin LUN) returns zeros without touching the disk, and flatters
// the figure. What a target can say about the region a read job will cover.
#pragma once

#include <cstdint>
#include <string>

#include "nasperf/status.h"

namespace nasperf {

// Whether [offset, offset + length) of the open file `fd` holds a hole (SEEK_HOLE).
// False when the file system does not report holes (then it has none to report, or
// cannot say). Io on an unexpected lseek failure.
Result<bool> RegionHasHoles(int fd, uint64_t offset, uint64_t length);

// The one-line warnings a read job gets: `what` names the file or LUN.
std::string FileHolesWarning(const std::string& what, uint64_t length);
std::string DeviceMayHaveHolesWarning(const std::string& what);

}  // namespace nasperf
