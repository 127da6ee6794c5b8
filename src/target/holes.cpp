// RegionHasHoles by lseek(SEEK_HOLE), and the warnings.
#include "target/holes.h"

#include <unistd.h>

#include <cerrno>

#include "base/units.h"

namespace nasperf {

Result<bool> RegionHasHoles(int fd, uint64_t offset, uint64_t length) {
  if (length == 0) return false;
  const off_t hole = ::lseek(fd, static_cast<off_t>(offset), SEEK_HOLE);
  if (hole < 0) {
    // ENXIO: the offset is at or past the end (nothing to read there); EINVAL: this file
    // system keeps no holes to find.
    if (errno == ENXIO || errno == EINVAL) return false;
    return ErrnoStatus("lseek(SEEK_HOLE)", "", errno);
  }
  // The end of the file counts as a hole; the region ends at or before it.
  return static_cast<uint64_t>(hole) < offset + length;
}

std::string FileHolesWarning(const std::string& what, uint64_t length) {
  return "warning: " + what + " has holes (never-written, sparse parts) in the " + FormatSize(length) +
         " this job reads: they read as zeros without touching the disk, so the figures may flatter it; write the "
         "file in full first";
}

std::string DeviceMayHaveHolesWarning(const std::string& what) {
  return "warning: whether the region of " + what +
         " this job reads was ever written cannot be known from here; a thin or sparse LUN returns never-written "
         "blocks as zeros without touching the disk, so the figures may flatter it if it was not (fill it once first)";
}

}  // namespace nasperf
