// Where random I/Os land when they do not visit every block once (--dist zipf, pareto,
// hotspot): draws with repetition over n positions, each in O(1) with no table, so a
// device of billions of blocks costs nothing to set up.
#pragma once

#include <cstdint>

#include "nasperf/job.h"
#include "workload/offsets.h"

namespace nasperf {

// Uniform in [0, 1) from the top 53 bits.
inline double UnitInterval(FastRandom& random) { return static_cast<double>(random.Next() >> 11) * 0x1p-53; }

// Zipf's law over ranks [0, n): rank k (0 = hottest) is drawn with weight (k + 1)^-theta,
// for any theta > 0. Rejection-inversion (Hörmann and Derflinger, "Rejection-inversion to
// generate variates from monotone discrete distributions", 1996): invert the integral of
// the continuous x^-theta, accept when the draw falls under the discrete step; fewer than
// 1.1 tries per draw on average.
class ZipfRanks {
 public:
  ZipfRanks(uint64_t n, double theta);
  uint64_t Draw(FastRandom& random) const;

 private:
  double H(double x) const;  // integral of x^-theta (up to a constant)
  double HInverse(double y) const;
  double h(double x) const;  // x^-theta
  double n_, theta_, h_integral_x1_, h_integral_n_, squeeze_;
};

// The Pareto principle over ranks [0, n): the hottest H of the ranks take 1 - H of the
// draws (pareto:0.2 = 80 % of the I/Os on 20 % of the blocks), at every scale: the
// hottest H of those take 1 - H of theirs again. Inverse CDF of F(x) = x^(1/p) on [0, 1)
// with p = log H / log(1 - H), which solves F(H) = 1 - H.
class ParetoRanks {
 public:
  ParetoRanks(uint64_t n, double h);
  uint64_t Draw(FastRandom& random) const;

 private:
  uint64_t n_;
  double power_;
};

// hotspot:ACCESS%/REGION%: ACCESS % of the draws are uniform over the first REGION % of
// the positions, the rest uniform over the others.
class HotspotPositions {
 public:
  HotspotPositions(uint64_t n, double access_pct, double region_pct);
  uint64_t Draw(FastRandom& random) const;
  uint64_t hot_positions() const { return hot_; }

 private:
  uint64_t n_, hot_;
  uint64_t access_per_million_;
};

// The positions random I/Os jump to under a distribution. Uniform walks a permutation,
// a new one each pass (every position once per pass, as a plain random job does); zipf
// and pareto draw ranks and scatter them over the region with a keyed permutation, so the
// hot blocks are spread like a database's, not packed at the start; hotspot's region is
// the start of the file, as its name says. A switch per draw, no virtual call.
class RandomPositions {
 public:
  RandomPositions(const OffsetDistribution& dist, uint64_t n, uint64_t seed);
  uint64_t positions() const { return n_; }
  uint64_t Next();

 private:
  OffsetDistribution::Kind kind_;
  uint64_t n_, seed_, position_ = 0, pass_ = 0;
  FastRandom random_;
  BlockPermutation permutation_;
  ZipfRanks zipf_;
  ParetoRanks pareto_;
  HotspotPositions hotspot_;
};

}  // namespace nasperf
