// Student's t distribution for any (also fractional) degrees of freedom, through the
// regularized incomplete beta function: what a Welch test needs for its p-value.
#pragma once

namespace nasperf {

// I_x(a, b), the regularized incomplete beta function, for a > 0, b > 0 and 0 <= x <= 1
// (Lentz's continued fraction; relative error below 1e-12 for the a, b a t test uses).
// NaN outside that domain.
double RegularizedIncompleteBeta(double a, double b, double x);

// P(T <= t) for T ~ Student t with `dof` > 0 degrees of freedom. NaN for dof <= 0.
double StudentTCdf(double t, double dof);

// P(|T| >= |t|): the two-sided p-value of a t statistic. 1 at t = 0, 0 at |t| = inf.
double StudentTTwoSidedP(double t, double dof);

}  // namespace nasperf
