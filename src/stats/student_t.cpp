// Incomplete beta by Lentz's continued fraction, and the t distribution built on it.
#include "stats/student_t.h"

#include <cmath>
#include <limits>

namespace nasperf {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// The continued fraction of I_x(a, b) (Numerical Recipes' betacf, modified Lentz): it
// converges fast for x < (a + 1) / (a + b + 2); the caller swaps a and b above that.
double BetaContinuedFraction(double a, double b, double x) {
  constexpr int kMaxIterations = 300;
  constexpr double kEpsilon = 1e-15;
  constexpr double kTiny = 1e-300;  // stands in for a zero denominator
  const double qab = a + b, qap = a + 1, qam = a - 1;
  double c = 1;
  double d = 1 - qab * x / qap;
  if (std::fabs(d) < kTiny) d = kTiny;
  d = 1 / d;
  double h = d;
  for (int m = 1; m <= kMaxIterations; ++m) {
    const int m2 = 2 * m;
    // Even step.
    double aa = m * (b - m) * x / ((qam + m2) * (a + m2));
    d = 1 + aa * d;
    if (std::fabs(d) < kTiny) d = kTiny;
    c = 1 + aa / c;
    if (std::fabs(c) < kTiny) c = kTiny;
    d = 1 / d;
    h *= d * c;
    // Odd step.
    aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
    d = 1 + aa * d;
    if (std::fabs(d) < kTiny) d = kTiny;
    c = 1 + aa / c;
    if (std::fabs(c) < kTiny) c = kTiny;
    d = 1 / d;
    const double step = d * c;
    h *= step;
    if (std::fabs(step - 1) < kEpsilon) break;
  }
  return h;
}

}  // namespace

double RegularizedIncompleteBeta(double a, double b, double x) {
  if (!(a > 0) || !(b > 0) || !(x >= 0) || !(x <= 1)) return kNaN;
  if (x == 0) return 0;
  if (x == 1) return 1;
  // x^a (1-x)^b / (a B(a, b)), in logs so that large a, b do not overflow.
  const double log_front = std::lgamma(a + b) - std::lgamma(a) - std::lgamma(b) + a * std::log(x) + b * std::log1p(-x);
  if (x < (a + 1) / (a + b + 2)) return std::exp(log_front) * BetaContinuedFraction(a, b, x) / a;
  return 1 - std::exp(log_front) * BetaContinuedFraction(b, a, 1 - x) / b;
}

double StudentTTwoSidedP(double t, double dof) {
  if (!(dof > 0) || std::isnan(t)) return kNaN;
  if (std::isinf(t)) return 0;
  // P(|T| >= t) = I_{v/(v+t^2)}(v/2, 1/2).
  return RegularizedIncompleteBeta(dof / 2, 0.5, dof / (dof + t * t));
}

double StudentTCdf(double t, double dof) {
  const double tail = StudentTTwoSidedP(t, dof) / 2;  // P(T >= |t|)
  return t >= 0 ? 1 - tail : tail;
}

}  // namespace nasperf
