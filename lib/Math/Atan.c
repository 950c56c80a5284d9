//===- Atan.c - atan and atan2 on element values --------------------------===//
//
// atan and atan2 as straight-line arith code and math.fma on f32 scalars or
// vectors of f32 (see Exp.c for why). Both reduce to atan(t) with
// |t| <= tan(pi/8) plus a multiple K of pi/4: t = n/d with n/d in [0, 0.414],
// t = (n - d)/(n + d) (K = pi/4) or t = -d/n (K = pi/2), where the sums and
// the quotient carry their rounding errors, so that the result is rounded
// about once, in K + t.
//
// Special values are C99 Annex F's (atan(+-inf) = +-pi/2 rounded, atan2's
// signed zeros and infinities). Accuracy: bench/math-ulp.c
// (docs/execution-model.md, "Transcendentals"). Coefficients:
// bench/math-coefficients.py.
//
//===----------------------------------------------------------------------===//

#include "Math/Math.h"

#include "Math/MathBuilder.h"

#include <math.h>
#include <stdint.h>

/// atan(t) = t + t z P(z), z = t^2, |t| <= tan(pi/8): P minimax of degree 5,
/// relative error 2.3e-11.
static const float atanP[] = {-0x1.555554p-2f, 0x1.999918p-3f,  -0x1.247edap-3f,
                              0x1.c463fap-4f,  -0x1.5b3014p-4f, 0x1.84a1cp-5f};

/// tan(pi/8) and tan(3pi/8), where the reductions change.
static const float tanPiOver8 = 0x1.a8279ap-2f;
static const float tan3PiOver8 = 0x1.3504f4p+1f;

/// Multiples of pi/4 as hi + lo.
typedef struct Angle {
  float hi, lo;
} Angle;
static const Angle piOver4 = {0x1.921fb6p-1f, -0x1.777a5cp-26f};
static const Angle piOver2 = {0x1.921fb6p+0f, -0x1.777a5cp-25f};
static const Angle threePiOver4 = {0x1.2d97c8p+1f, -0x1.99bc5cp-28f};
static const Angle pi = {0x1.921fb6p+1f, -0x1.777a5cp-24f};
static const Angle zeroAngle = {0.0f, 0.0f};

/// select(c, x, y) of two angles, both parts.
static void selectAngle(const Math *m, MlirValue c, const MlirValue x[2],
                        const MlirValue y[2], MlirValue out[2]) {
  out[0] = select3(m, c, x[0], y[0]);
  out[1] = select3(m, c, x[1], y[1]);
}

static void angleConst(const Math *m, Angle a, MlirValue out[2]) {
  out[0] = fconst(m, a.hi);
  out[1] = fconst(m, a.lo);
}

/// K + atan(t + tLo) for |t| <= tan(pi/8) + 2^-20 and K = k[0] + k[1] zero
/// or at least pi/4: K_hi + t is a Fast2Sum, and the rest is far smaller.
static MlirValue atanReduced(const Math *m, const MlirValue k[2], MlirValue t,
                             MlirValue tLo) {
  MlirValue z = fmul(m, t, t);
  MlirValue tail = fma3(m, fmul(m, t, z), mathHorner(m, z, atanP, 6), tLo);
  MlirValue e;
  MlirValue s = mathFastTwoSum(m, k[0], t, &e);
  return fadd(m, s, fadd(m, e, fadd(m, k[1], tail)));
}

/// (num + numLo) / (den + denLo) = t + *tLo, to first order.
static MlirValue divideExtended(const Math *m, MlirValue num, MlirValue numLo,
                                MlirValue den, MlirValue denLo,
                                MlirValue *tLo) {
  MlirValue t = fdiv(m, num, den);
  MlirValue negT = fneg(m, t);
  MlirValue residual =
      fadd(m, fma3(m, negT, den, num), fma3(m, negT, denLo, numLo));
  *tLo = fdiv(m, residual, den);
  return t;
}

MlirValue coopvecEmitAtan(CoopvecBuilder *b, MlirValue x) {
  Math m = mathFor(b, x);
  MlirValue zero = fconst(&m, 0.0f), one = fconst(&m, 1.0f);
  // Above 2^30, atan rounds to pi/2; the bound keeps -1/a from being -0 at
  // infinity (0 * inf in the residual). The ordered compares keep NaN.
  MlirValue a = mathAbs(&m, x);
  a = select3(&m, cmpf(&m, COOPVEC_CMPF_OGT, a, 0x1p30f), fconst(&m, 0x1p30f),
              a);
  MlirValue big = cmpf(&m, COOPVEC_CMPF_OGT, a, tan3PiOver8);
  MlirValue mid = cmpf(&m, COOPVEC_CMPF_OGT, a, tanPiOver8);
  MlirValue numLo, denLo;
  MlirValue num = mathTwoSum(&m, a, fneg(&m, one), &numLo);
  MlirValue den = mathTwoSum(&m, a, one, &denLo);
  // a <= tan(pi/8): a / 1; up to tan(3pi/8): (a - 1)/(a + 1); then -1/a.
  num = select3(&m, big, fneg(&m, one), select3(&m, mid, num, a));
  den = select3(&m, big, a, select3(&m, mid, den, one));
  numLo = select3(&m, big, zero, select3(&m, mid, numLo, zero));
  denLo = select3(&m, big, zero, select3(&m, mid, denLo, zero));
  MlirValue tLo;
  MlirValue t = divideExtended(&m, num, numLo, den, denLo, &tLo);
  MlirValue k[2], k0[2], k1[2], k2[2];
  angleConst(&m, zeroAngle, k0);
  angleConst(&m, piOver4, k1);
  angleConst(&m, piOver2, k2);
  selectAngle(&m, mid, k1, k0, k);
  selectAngle(&m, big, k2, k, k);
  // atan is odd: |x|'s result gets x's sign (+-0 and NaN included).
  return mathFlipSign(&m, atanReduced(&m, k, t, tLo), mathSignBit(&m, x));
}

/// Scales n <= d (both finite, d > 0) by a power of two so that d is within
/// [2^-64, 2^64]: n + d cannot overflow, and the residuals stay normal.
static void scaleRatio(const Math *m, MlirValue *n, MlirValue *d) {
  MlirValue large = cmpf(m, COOPVEC_CMPF_OGT, *d, 0x1p64f);
  MlirValue small = cmpf(m, COOPVEC_CMPF_OLT, *d, 0x1p-64f);
  MlirValue scale =
      select3(m, large, fconst(m, 0x1p-64f),
              select3(m, small, fconst(m, 0x1p64f), fconst(m, 1.0f)));
  *n = fmul(m, *n, scale);
  *d = fmul(m, *d, scale);
}

/// n = min(|x|, |y|), d = max(|x|, |y|) with the infinities and zeros
/// replaced by a ratio that gives the same angle: inf/inf by 1/1, n/inf by
/// 0/1, 0/0 by 0/1.
static void atan2Ratio(const Math *m, MlirValue ax, MlirValue ay,
                       MlirValue swap, MlirValue *n, MlirValue *d) {
  MlirValue one = fconst(m, 1.0f);
  *n = select3(m, swap, ax, ay);
  *d = select3(m, swap, ay, ax);
  MlirValue dInf = cmpf(m, COOPVEC_CMPF_OEQ, *d, INFINITY);
  MlirValue nInf = cmpf(m, COOPVEC_CMPF_OEQ, *n, INFINITY);
  *n = select3(m, nInf, one, select3(m, dInf, fconst(m, 0.0f), *n));
  *d = select3(m, dInf, one, *d);
  *d = select3(m, cmpf(m, COOPVEC_CMPF_OEQ, *d, 0.0f), one, *d);
  scaleRatio(m, n, d);
}

/// The K of atan2: the angle atan(n/d)'s reduction starts from (0 or pi/4,
/// by `mid`), reflected by `swap` (pi/2 - angle) and a negative x
/// (pi - angle).
static void atan2Base(const Math *m, MlirValue mid, MlirValue swap,
                      MlirValue xNegative, MlirValue k[2]) {
  MlirValue zero[2], quarter[2], half[2], threeQuarters[2], whole[2];
  angleConst(m, zeroAngle, zero);
  angleConst(m, piOver4, quarter);
  angleConst(m, piOver2, half);
  angleConst(m, threePiOver4, threeQuarters);
  angleConst(m, pi, whole);
  MlirValue k0[2], k1[2];
  selectAngle(m, swap, half, whole, k0);
  selectAngle(m, swap, half, zero, k1);
  selectAngle(m, xNegative, k0, k1, k0);
  selectAngle(m, xNegative, threeQuarters, quarter, k1);
  selectAngle(m, mid, k1, k0, k);
}

MlirValue coopvecEmitAtan2(CoopvecBuilder *b, MlirValue y, MlirValue x) {
  Math m = mathFor(b, y);
  MlirValue ax = mathAbs(&m, x), ay = mathAbs(&m, y);
  MlirValue swap = coopvecBuildCmpF(b, COOPVEC_CMPF_OGT, ay, ax);
  MlirValue n, d;
  atan2Ratio(&m, ax, ay, swap, &n, &d);
  MlirValue mid = coopvecBuildCmpF(b, COOPVEC_CMPF_OGT, n,
                                   fmul(&m, d, fconst(&m, tanPiOver8)));
  MlirValue numLo, denLo, zero = fconst(&m, 0.0f);
  MlirValue num = mathTwoSum(&m, n, fneg(&m, d), &numLo);
  MlirValue den = mathTwoSum(&m, n, d, &denLo);
  num = select3(&m, mid, num, n);
  den = select3(&m, mid, den, d);
  numLo = select3(&m, mid, numLo, zero);
  denLo = select3(&m, mid, denLo, zero);
  MlirValue tLo;
  MlirValue t = divideExtended(&m, num, numLo, den, denLo, &tLo);
  // The sign bit, not x < 0: atan2(+-0, -0) = +-pi.
  MlirValue xNegative = cmpi(&m, COOPVEC_CMPI_NE, mathSignBit(&m, x), 0);
  MlirValue negate = op2(&m, "arith.xori", swap, xNegative);
  t = select3(&m, negate, fneg(&m, t), t);
  tLo = select3(&m, negate, fneg(&m, tLo), tLo);
  MlirValue k[2];
  atan2Base(&m, mid, swap, xNegative, k);
  MlirValue result =
      mathFlipSign(&m, atanReduced(&m, k, t, tLo), mathSignBit(&m, y));
  return select3(&m, coopvecBuildCmpF(b, COOPVEC_CMPF_UNO, x, y),
                 fconst(&m, NAN), result);
}
