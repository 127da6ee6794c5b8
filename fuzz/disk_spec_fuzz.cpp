// libFuzzer target: the disk spec file of `results disks --spec` (TOML, any bytes). Bad
// input must be one BadInput line naming the file; a spec that parses holds only finite,
// non-negative figures and known interfaces, and builds a table without failing.
#include <cmath>
#include <cstdlib>

#include "fuzz_input.h"
#include "report/disk_spec.h"
#include "report/disk_table.h"

namespace {

bool Sane(const std::optional<double>& v) { return !v || (std::isfinite(*v) && *v >= 0); }

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  nasperf::Result<std::vector<nasperf::DiskSpec>> specs =
      nasperf::ParseDiskSpec(nasperf::fuzz::AsText(data, size), "fuzz.toml");
  if (!specs.ok()) {
    const std::string& message = specs.status().message();
    if (specs.status().kind() != nasperf::ErrorKind::kBadInput || message.rfind("fuzz.toml:", 0) != 0 ||
        message.find('\n') != std::string::npos)
      std::abort();
    return 0;
  }
  for (const nasperf::DiskSpec& s : specs.value()) {
    if (s.model.empty() || !Sane(s.price) || !Sane(s.capacity_gb) || !Sane(s.idle_watts) || !Sane(s.active_watts))
      std::abort();
    if ((s.capacity_gb && *s.capacity_gb == 0) || (s.active_watts && *s.active_watts == 0)) std::abort();
    if (s.interface && !nasperf::FindInterface(s.interface->name)) std::abort();
  }
  (void)nasperf::DiskTableLines(nasperf::BuildDiskTable({}, specs.value()));
  return 0;
}
