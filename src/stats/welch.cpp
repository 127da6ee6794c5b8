// Welch's t statistic, its Welch-Satterthwaite degrees of freedom and the p-value.
#include "stats/welch.h"

#include <cmath>
#include <limits>

#include "stats/student_t.h"

namespace nasperf {
namespace {

struct MeanVariance {
  double mean = 0, variance = 0;  // sample variance (n - 1)
};

MeanVariance Moments(const std::vector<double>& v) {
  MeanVariance out;
  for (double x : v) out.mean += x;
  out.mean /= static_cast<double>(v.size());
  for (double x : v) out.variance += (x - out.mean) * (x - out.mean);
  out.variance /= static_cast<double>(v.size() - 1);
  return out;
}

}  // namespace

std::optional<WelchTest> WelchTTest(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.size() < 2 || b.size() < 2) return std::nullopt;
  const MeanVariance ma = Moments(a), mb = Moments(b);
  const double na = static_cast<double>(a.size()), nb = static_cast<double>(b.size());
  const double sa = ma.variance / na, sb = mb.variance / nb;  // squared standard errors
  const double se2 = sa + sb;
  const double diff = ma.mean - mb.mean;
  WelchTest out;
  if (se2 == 0) {
    // Both sets constant: nothing varies, so the means either are or are not equal.
    out.t = diff == 0 ? 0 : std::copysign(std::numeric_limits<double>::infinity(), diff);
    out.dof = std::numeric_limits<double>::quiet_NaN();
    out.p = diff == 0 ? 1 : 0;
    return out;
  }
  out.t = diff / std::sqrt(se2);
  out.dof = se2 * se2 / (sa * sa / (na - 1) + sb * sb / (nb - 1));
  out.p = StudentTTwoSidedP(out.t, out.dof);
  return out;
}

}  // namespace nasperf
