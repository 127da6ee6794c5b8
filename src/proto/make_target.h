// MakeTarget: from what the user typed (a path, a device, null:, a protocol URL) to a Target.
#pragma once

#include <memory>
#include <string>

#include "core/target.h"

namespace nasperf {

// A protocol URL goes to its scheme's factory (proto/schemes.h, its code loaded on first
// use); anything else is a local directory, file or block device. Errors are BadInput.
Result<std::unique_ptr<Target>> MakeTarget(const std::string& spec, const TargetOptions& options);

}  // namespace nasperf
