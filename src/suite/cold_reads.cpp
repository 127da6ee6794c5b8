// ColdReads.
#include "suite/cold_reads.h"

#include <algorithm>

#include <fmt/format.h>

#include "base/units.h"

namespace nasperf {

std::function<Status()> ColdReads::HookFor(const JobSpec& job) {
  if (job.direct || !DoesReads(job.rw) || target_.is_null()) return {};
  return [this]() -> Status { return Drop(); };
}

Status ColdReads::Drop() {
  Result<CacheDropReport> drop = target_.DropCache(system_wide_);
  if (!drop.ok()) return drop.status();
  const CacheDropReport& d = drop.value();
  all_checked_ = all_checked_ && (d.checked_bytes > 0 || !d.dropped);
  if (!ran_ || d.resident_pct > worst_.resident_pct || !d.ram_fs.empty()) worst_ = d;
  ran_ = true;
  ++drops_;
  max_resident_pct_ = std::max(max_resident_pct_, d.resident_pct);
  return Status::Ok();
}

std::optional<bool> ColdReads::Cached() const {
  if (!ran_) return std::nullopt;
  if (!worst_.ram_fs.empty()) return true;
  if (!worst_.dropped || !all_checked_) return std::nullopt;
  return worst_.resident_pct >= kColdResidentPct;
}

std::string ColdReads::TakeNote() {
  if (!ran_) return "";
  ran_ = false;
  const bool all_checked = all_checked_;
  all_checked_ = true;
  if (!worst_.ram_fs.empty()) return worst_.ram_fs + ": the file lives in RAM; every read is cached";
  if (!worst_.dropped) return "no page cache to drop before reads: " + worst_.method;
  if (!all_checked)
    return fmt::format("page cache before the reads: not checked (no file was laid out to drop and measure; {})",
                       worst_.method);
  std::string note = fmt::format("page cache dropped before each repeat that reads ({}), after the files were laid "
                                 "out; mincore found at most {:.1f} % of the {} still cached",
                                 worst_.method, worst_.resident_pct, FormatSize(worst_.checked_bytes));
  if (worst_.resident_pct >= kColdResidentPct) note += ", so those reads were partly served from RAM";
  return note;
}

void ColdReads::AddTo(RunResult& run) {
  std::optional<bool> cached = Cached();
  if (std::string note = TakeNote(); !note.empty()) run.notes.push_back(note);
  if (cached) run.cached = cached;
}

}  // namespace nasperf
