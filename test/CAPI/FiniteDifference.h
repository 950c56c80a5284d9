//===- FiniteDifference.h - Finite differences for the autodiff tests ----===//
//
// Shared by test/CAPI/autodiff.c and autodiff-general.c: central and
// one-sided differences of an objective in one element of an argument,
// and the comparison of a gradient element with them (see autodiff.c's
// file comment for why one-sided differences are kept: at a kink the
// gradient may be any value between them).
//
//===----------------------------------------------------------------------===//

#ifndef COOPVEC_TEST_CAPI_FINITEDIFFERENCE_H
#define COOPVEC_TEST_CAPI_FINITEDIFFERENCE_H

#include "coopvec-c/HostArray.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>

typedef struct Difference {
  double central, forward, backward;
} Difference;

/// Differences of `objective(context)` in element `i` of `x`, whose value
/// gives `baseline`; the step is 2^-12 of the value (at least 2^-14).
static Difference finiteDifference(double (*objective)(void *), void *context,
                                   double baseline, CoopvecArray *x,
                                   int64_t i) {
  double value = coopvecArrayGet(x, i);
  double h = ldexp(fmax(fabs(value), 0.25), -12);
  coopvecArraySet(x, i, value + h);
  double plus = coopvecArrayGet(x, i), lPlus = objective(context);
  coopvecArraySet(x, i, value - h);
  double minus = coopvecArrayGet(x, i), lMinus = objective(context);
  coopvecArraySet(x, i, value);
  Difference d = {(lPlus - lMinus) / (plus - minus),
                  (lPlus - baseline) / (plus - value),
                  (baseline - lMinus) / (value - minus)};
  return d;
}

/// Whether `got` matches the differences: the central one within `tol`
/// (relative, at least absolute), or, at a kink (one-sided differences
/// that disagree), anything between the one-sided ones.
static bool matches(double got, Difference d, double tol) {
  double scale = fmax(1.0, fabs(d.central));
  if (fabs(got - d.central) <= tol * scale)
    return true;
  double jump = fabs(d.forward - d.backward);
  if (jump <= 1e-3 * fmax(1.0, fmax(fabs(d.forward), fabs(d.backward))))
    return false;
  return got >= fmin(d.forward, d.backward) - tol * scale &&
         got <= fmax(d.forward, d.backward) + tol * scale;
}

#endif // COOPVEC_TEST_CAPI_FINITEDIFFERENCE_H
