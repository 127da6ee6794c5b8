// ColdReads.
#include "cli/cold_reads.h"

#include <algorithm>

#include <fmt/format.h>

namespace nasperf {

std::function<Status(uint32_t)> ColdReads::HookFor(const JobSpec& job) {
  if (job.direct || !DoesReads(job.rw) || target_.is_null()) return {};
  return [this](uint32_t) -> Status {
    Result<CacheDropReport> drop = target_.DropCache(system_wide_);
    if (!drop.ok()) return drop.status();
    if (!dropped_ || drop.value().resident_pct > worst_.resident_pct) worst_ = drop.value();
    dropped_ = true;
    return Status::Ok();
  };
}

std::string ColdReads::TakeNote() {
  if (!dropped_) return "";
  dropped_ = false;
  if (!worst_.dropped) return "no page cache to drop before reads: " + worst_.method;
  std::string note = fmt::format("page cache dropped before each repeat that reads ({}); at most {:.1f} % of the "
                                 "data stayed cached",
                                 worst_.method, worst_.resident_pct);
  if (worst_.resident_pct >= 1.0) note += ", so those reads were partly served from RAM";
  return note;
}

}  // namespace nasperf
