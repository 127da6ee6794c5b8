// The draws of workload/offset_distribution.h.
#include "workload/offset_distribution.h"

#include <algorithm>
#include <cmath>

namespace nasperf {
namespace {

// log1p(x) / x and expm1(x) / x, continuous through x = 0 (theta = 1 makes x = 0 exactly).
double Log1pOverX(double x) {
  return std::abs(x) > 1e-8 ? std::log1p(x) / x : 1 - x * (0.5 - x * (1.0 / 3 - 0.25 * x));
}
double Expm1OverX(double x) {
  return std::abs(x) > 1e-8 ? std::expm1(x) / x : 1 + x * 0.5 * (1 + x * (1.0 / 3) * (1 + 0.25 * x));
}

}  // namespace

ZipfRanks::ZipfRanks(uint64_t n, double theta) : n_(static_cast<double>(std::max<uint64_t>(n, 1))), theta_(theta) {
  // Ranks are 1-based inside: the draw covers [0.5, n + 0.5] of the continuous density.
  h_integral_x1_ = H(1.5) - 1;
  h_integral_n_ = H(n_ + 0.5);
  squeeze_ = 2 - HInverse(H(2.5) - h(2));
}

double ZipfRanks::h(double x) const { return std::exp(-theta_ * std::log(x)); }

double ZipfRanks::H(double x) const {
  const double log_x = std::log(x);
  return Expm1OverX((1 - theta_) * log_x) * log_x;
}

double ZipfRanks::HInverse(double y) const {
  double t = y * (1 - theta_);
  t = std::max(t, -1.0 + 1e-15);  // rounding at the far end must not leave log1p's domain
  return std::exp(Log1pOverX(t) * y);
}

uint64_t ZipfRanks::Draw(FastRandom& random) const {
  while (true) {
    const double u = h_integral_n_ + UnitInterval(random) * (h_integral_x1_ - h_integral_n_);
    const double x = HInverse(u);
    double k = std::floor(x + 0.5);
    k = std::clamp(k, 1.0, n_);
    // Most draws are accepted by the squeeze without evaluating H again.
    if (k - x <= squeeze_ || u >= H(k + 0.5) - h(k)) return static_cast<uint64_t>(k) - 1;
  }
}

ParetoRanks::ParetoRanks(uint64_t n, double h)
    : n_(std::max<uint64_t>(n, 1)), power_(h > 0 && h < 1 ? std::log(h) / std::log(1 - h) : 1) {}

uint64_t ParetoRanks::Draw(FastRandom& random) const {
  const double x = std::pow(UnitInterval(random), power_);
  return std::min(static_cast<uint64_t>(x * static_cast<double>(n_)), n_ - 1);
}

HotspotPositions::HotspotPositions(uint64_t n, double access_pct, double region_pct)
    : n_(std::max<uint64_t>(n, 1)),
      hot_(
          std::clamp<uint64_t>(static_cast<uint64_t>(std::llround(static_cast<double>(n_) * region_pct / 100)), 1, n_)),
      access_per_million_(static_cast<uint64_t>(std::llround(access_pct * 1e4))) {}

uint64_t HotspotPositions::Draw(FastRandom& random) const {
  const bool hot = random.Below(1000000) < access_per_million_ || hot_ == n_;
  return hot ? random.Below(hot_) : hot_ + random.Below(n_ - hot_);
}

RandomPositions::RandomPositions(const OffsetDistribution& dist, uint64_t n, uint64_t seed)
    : kind_(dist.kind),
      n_(std::max<uint64_t>(n, 1)),
      seed_(seed),
      random_(seed ^ 0xD1B54A32D192ED03ull),
      permutation_(n_, seed),
      zipf_(n_, dist.kind == OffsetDistribution::Kind::kZipf ? dist.theta : 1),
      pareto_(n_, dist.kind == OffsetDistribution::Kind::kPareto ? dist.theta : 0.5),
      hotspot_(n_, dist.access_pct, dist.kind == OffsetDistribution::Kind::kHotspot ? dist.region_pct : 50) {}

uint64_t RandomPositions::Next() {
  switch (kind_) {
    case OffsetDistribution::Kind::kUniform: {
      const uint64_t at = permutation_.Map(position_);
      if (++position_ == n_) {  // every position visited: a new order for the next pass
        position_ = 0;
        permutation_.Rekey(++pass_ * 0x9E3779B97F4A7C15ull ^ seed_);
      }
      return at;
    }
    case OffsetDistribution::Kind::kZipf:
      return permutation_.Map(zipf_.Draw(random_));
    case OffsetDistribution::Kind::kPareto:
      return permutation_.Map(pareto_.Draw(random_));
    case OffsetDistribution::Kind::kHotspot:
      return hotspot_.Draw(random_);
  }
  return 0;
}

}  // namespace nasperf
