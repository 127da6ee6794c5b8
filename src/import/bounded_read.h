// Reading a file given to import, with limits: only a regular file (never a device, a
// FIFO or a socket, which may never end or never answer), and at most 256 MiB of it.
#pragma once

#include <cstddef>
#include <string>

#include "nasperf/status.h"

namespace nasperf {

// Reports and result documents are kilobytes to megabytes; more is not one of them, and
// reading it would only cost RAM.
constexpr size_t kMaxImportBytes = size_t{256} << 20;

// The whole file. A symlink to a regular file is followed (the user named it). On error,
// BadInput whose message is the problem alone ("not a regular file ..."), for the caller
// to put after the path.
Result<std::string> ReadBoundedFile(const std::string& path, size_t max_bytes = kMaxImportBytes);

}  // namespace nasperf
