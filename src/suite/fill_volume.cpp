// VolumeFiller and the fill-level arithmetic.
#include "suite/fill_volume.h"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>

#include "base/signals.h"
#include "base/units.h"
#include "suite/app/app_bytes.h"

namespace nasperf {
namespace {

constexpr const char* kFillDir = "fill";
// Fill files are numbered from here in StagedBytes' file space, apart from a workload's own.
constexpr uint64_t kFillFileBase = 1ull << 40;

}  // namespace

Result<double> ParseFillPercent(const std::string& text, const std::string& what) {
  std::string digits = text;
  if (!digits.empty() && digits.back() == '%') digits.pop_back();
  char* end = nullptr;
  errno = 0;
  const double pct = digits.empty() ? NAN : std::strtod(digits.c_str(), &end);
  if (digits.empty() || end != digits.c_str() + digits.size() || errno != 0 || !std::isfinite(pct) || pct < 0 ||
      std::isspace(static_cast<unsigned char>(digits.front())))
    return Status::BadInput(fmt::format("{} {}: not a percentage (0-94, like 33 or 33%)", what, text));
  if (pct >= kMaxFillPct)
    return Status::BadInput(fmt::format("{} {}: a fill must leave at least {:g} % of the volume free (below {:g} %)",
                                        what, text, 100 - kMaxFillPct, kMaxFillPct));
  return pct;
}

Result<std::vector<double>> ParseFillLevels(const std::string& text, const std::string& what) {
  std::vector<double> levels;
  size_t start = 0;
  while (true) {
    const size_t comma = text.find(',', start);
    Result<double> pct = ParseFillPercent(text.substr(start, comma - start), what);
    if (!pct.ok()) return pct.status();
    levels.push_back(pct.value());
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return levels;
}

double FillPercentOf(const AppSpace& space) {
  if (space.total_bytes == 0) return 0;
  const uint64_t free_bytes = std::min(space.free_bytes, space.total_bytes);
  return 100.0 * static_cast<double>(space.total_bytes - free_bytes) / static_cast<double>(space.total_bytes);
}

Result<uint64_t> FillBytesNeeded(const AppSpace& space, double target_pct, uint64_t reserve_bytes,
                                 const std::string& target) {
  if (!(target_pct >= 0 && target_pct < kMaxFillPct))
    return Status::BadInput(fmt::format("--fill {:g}%: a fill must leave at least {:g} % of the volume free",
                                        target_pct, 100 - kMaxFillPct));
  if (space.total_bytes == 0) return Status::BadInput(fmt::format("{}: the volume reports no size", target));
  const double total = static_cast<double>(space.total_bytes);
  const uint64_t free_bytes = std::min(space.free_bytes, space.total_bytes);
  const uint64_t used_bytes = space.total_bytes - free_bytes;
  const auto target_used = static_cast<uint64_t>(std::llround(target_pct / 100.0 * total));
  const uint64_t need = target_used > used_bytes ? target_used - used_bytes : 0;
  // 5 % of the volume, rounded up, in integers (0.05 * total in doubles can round up a byte).
  static_assert(kMaxFillPct == 95.0, "keep_free below is 1/20 of the volume");
  const uint64_t keep_free = space.total_bytes / 20 + (space.total_bytes % 20 != 0);
  if (need + reserve_bytes + keep_free > free_bytes)
    return Status::BadInput(fmt::format(
        "{}: too small: {} free of {} ({:.1f} % full); filling to {:g} % and the workload's {} would leave less "
        "than {:g} % free",
        target, FormatSize(free_bytes), FormatSize(space.total_bytes), FillPercentOf(space), target_pct,
        FormatSize(reserve_bytes), 100 - kMaxFillPct));
  return need;
}

VolumeFiller::VolumeFiller(AppFileSystem& fs, uint64_t seed, uint64_t file_bytes, size_t request_bytes)
    : fs_(fs), seed_(seed), file_bytes_(std::max<uint64_t>(file_bytes, request_bytes)), buffer_(request_bytes) {}

VolumeFiller::~VolumeFiller() { (void)Remove(); }

Status VolumeFiller::WriteFile(const std::string& rel, uint64_t bytes) {
  Result<std::unique_ptr<AppFile>> file = fs_.Create(rel);
  if (!file.ok()) return file.status();
  files_.push_back(rel);
  const uint64_t file_index = kFillFileBase + files_.size();
  for (uint64_t at = 0; at < bytes;) {
    if (InterruptRequested()) return Status::Interrupted();
    const size_t n = static_cast<size_t>(std::min<uint64_t>(buffer_.size(), bytes - at));
    StagedBytes(seed_, file_index, at, std::span<uint8_t>(buffer_.data(), n));
    Result<size_t> wrote = file.value()->Write(buffer_.data(), n);
    if (!wrote.ok()) return wrote.status();
    if (wrote.value() == 0) return Status::Io(fmt::format("writing {}: no progress", rel));
    at += wrote.value();
  }
  if (Status s = file.value()->Sync(); !s.ok()) return s;
  return file.value()->Close();
}

Result<FillOutcome> VolumeFiller::Fill(double target_pct, uint64_t reserve_bytes) {
  Result<AppSpace> space = fs_.Space();
  if (!space.ok()) return space.status();
  Result<uint64_t> need = FillBytesNeeded(space.value(), target_pct, reserve_bytes, fs_.description());
  if (!need.ok()) return need.status();
  FillOutcome out;
  out.requested_pct = target_pct;
  out.before_pct = FillPercentOf(space.value());
  out.achieved_pct = out.before_pct;
  // Write, sync, measure again: the file system's own overhead (metadata, indirect blocks)
  // is counted by statfs, so the level is reached by what statfs says, not by arithmetic.
  // A pass whose files did not lower the free space (compression) stops the loop.
  uint64_t remaining = need.value();
  while (remaining >= buffer_.size()) {
    if (!made_dir_) {
      if (Status s = fs_.MakeDir(kFillDir); !s.ok()) return s;
      made_dir_ = true;
    }
    const uint64_t bytes = std::min(remaining, file_bytes_);
    const std::string rel = fmt::format("{}/{:06}", kFillDir, files_.size());
    if (Status s = WriteFile(rel, bytes); !s.ok()) return s;
    out.written_bytes += bytes;
    ++out.files;
    const uint64_t free_before = space.value().free_bytes;
    space = fs_.Space();
    if (!space.ok()) return space.status();
    out.achieved_pct = FillPercentOf(space.value());
    if (space.value().free_bytes >= free_before) break;
    Result<uint64_t> left = FillBytesNeeded(space.value(), target_pct, reserve_bytes, fs_.description());
    if (!left.ok()) return left.status();
    remaining = left.value();
  }
  return out;
}

Status VolumeFiller::Remove() {
  Status first;
  for (auto it = files_.rbegin(); it != files_.rend(); ++it)
    if (Status s = fs_.Remove(*it); !s.ok() && first.ok()) first = s;
  files_.clear();
  if (made_dir_) {
    if (Status s = fs_.RemoveDir(kFillDir); !s.ok() && first.ok()) first = s;
    made_dir_ = false;
  }
  return first;
}

std::string FillNote(const FillOutcome& outcome) {
  return fmt::format(
      "volume filled to {:.1f} % (asked {:g} %, statfs; {:.1f} % before, {} written in {} files) "
      "before the workload's own files",
      outcome.achieved_pct, outcome.requested_pct, outcome.before_pct, FormatSize(outcome.written_bytes),
      outcome.files);
}

std::string FillTag(double requested_pct) { return fmt::format("{:g}%", requested_pct); }

}  // namespace nasperf
