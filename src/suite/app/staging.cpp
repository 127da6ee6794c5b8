// SeededSizes, WriteStagedFile and CheckRoomFor.
#include "suite/app/staging.h"

#include <algorithm>
#include <cmath>
#include <random>

#include "base/signals.h"
#include "suite/app/app_bytes.h"
#include "suite/fill_volume.h"

namespace nasperf {

std::vector<uint64_t> SeededSizes(uint64_t seed, uint32_t count, uint64_t min_bytes, uint64_t max_bytes,
                                  bool log_uniform) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  std::vector<uint64_t> sizes;
  sizes.reserve(count);
  const double lo = static_cast<double>(min_bytes), hi = static_cast<double>(max_bytes);
  for (uint32_t i = 0; i < count; ++i) {
    const double u = unit(rng);
    const double v = log_uniform ? std::exp(std::log(lo) + u * (std::log(hi) - std::log(lo))) : lo + u * (hi - lo);
    sizes.push_back(std::clamp(static_cast<uint64_t>(v), min_bytes, max_bytes));
  }
  return sizes;
}

Status WriteStagedFile(AppFileSystem& fs, const std::string& rel, uint64_t bytes, uint64_t seed, uint64_t file,
                       std::vector<uint8_t>& buffer, bool sync) {
  Result<std::unique_ptr<AppFile>> f = fs.Create(rel);
  if (!f.ok()) return f.status();
  for (uint64_t at = 0; at < bytes;) {
    if (InterruptRequested()) return Status::Interrupted();
    const size_t n = static_cast<size_t>(std::min<uint64_t>(buffer.size(), bytes - at));
    StagedBytes(seed, file, at, std::span<uint8_t>(buffer.data(), n));
    Result<size_t> wrote = f.value()->Write(buffer.data(), n);
    if (!wrote.ok()) return wrote.status();
    if (wrote.value() == 0) return Status::Io(rel + ": write made no progress");
    at += wrote.value();
  }
  if (sync)
    if (Status s = f.value()->Sync(); !s.ok()) return s;
  return f.value()->Close();
}

Status CheckRoomFor(AppFileSystem& fs, uint64_t bytes) {
  Result<AppSpace> space = fs.Space();
  if (!space.ok()) return space.status();
  // A fill to the level the volume is at already writes nothing: the check is the same.
  Result<uint64_t> need = FillBytesNeeded(space.value(), 0, bytes, fs.description());
  return need.ok() ? Status::Ok() : need.status();
}

AppDataset StagedDataset(const std::string& generator, uint64_t seed, const std::vector<uint64_t>& sizes,
                         uint64_t dirs) {
  AppDataset d;
  d.generator = generator;
  d.seed = seed;
  d.files = sizes.size();
  d.dirs = dirs;
  if (sizes.empty()) return d;
  std::vector<uint64_t> sorted = sizes;
  std::sort(sorted.begin(), sorted.end());
  uint64_t over_1mib = 0;
  for (uint64_t s : sorted) {
    d.bytes += s;
    if (s > (1u << 20)) over_1mib += s;
  }
  auto rank = [&](double pct) {
    const size_t r = static_cast<size_t>(std::ceil(pct / 100.0 * static_cast<double>(sorted.size())));
    return static_cast<double>(sorted[std::max<size_t>(r, 1) - 1]);
  };
  d.median_bytes = rank(50);
  d.mean_bytes = static_cast<double>(d.bytes) / static_cast<double>(sorted.size());
  d.p90_bytes = rank(90);
  d.p99_bytes = rank(99);
  d.share_over_1mib = d.bytes ? static_cast<double>(over_1mib) / static_cast<double>(d.bytes) : 0;
  return d;
}

}  // namespace nasperf
