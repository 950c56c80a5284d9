//===- Log.c - log2, log and powf on element values -----------------------===//
//
// The logarithms and the power function as straight-line arith code and
// math.fma on f32 scalars or vectors of f32 (see Exp.c for why). All three
// share the reduction x = 2^k m, m in [sqrt(1/2), sqrt(2)), and
// log(m) = 2 atanh(s) with s = (m - 1)/(m + 1) carried as q + c.
//
// Special values are C99 Annex F's. Accuracy over every f32 input (powf: a
// sample of pairs), measured by bench/math-ulp.c (docs/execution-model.md,
// "Transcendentals"). Coefficients: bench/math-coefficients.py.
//
//===----------------------------------------------------------------------===//

#include "Math/Math.h"

#include "Math/MathBuilder.h"

#include <math.h>
#include <stdint.h>

//===----------------------------------------------------------------------===//
// The shared reduction
//===----------------------------------------------------------------------===//

/// log2(m) = s (2/ln2 + z R(z)), s = (m-1)/(m+1), z = s^2 <= 0.0295 for m
/// in [sqrt(1/2), sqrt(2)): R minimax of degree 2, relative error 8e-10.
static const float log2R[] = {0x1.ec70d2p-1f, 0x1.274c5cp-1f, 0x1.b94a0cp-2f};

/// x = 2^k m with m in [sqrt(1/2), sqrt(2)) for a positive finite x
/// (subnormals included); returns m, and k as f32 (exact) in `*k`.
static MlirValue logReduce(const Math *m, MlirValue x, MlirValue *k) {
  // Subnormals are scaled by 2^23 (exactly) into the normal range first.
  MlirValue subnormal = cmpf(m, COOPVEC_CMPF_OLT, x, 0x1p-126f);
  MlirValue normal = select3(m, subnormal, fmul(m, x, fconst(m, 0x1p23f)), x);
  // Subtracting the bits of sqrt(1/2) (0x3f3504f3) moves the exponent
  // boundary there.
  MlirValue bits = bitsOf(m, normal);
  MlirValue e =
      op2(m, "arith.shrsi", op2(m, "arith.subi", bits, iconst(m, 0x3f3504f3)),
          iconst(m, 23));
  MlirValue mant = floatOf(
      m, op2(m, "arith.subi", bits, op2(m, "arith.shli", e, iconst(m, 23))));
  MlirValue exponent = op2(m, "arith.subi", e,
                           select3(m, subnormal, iconst(m, 23), iconst(m, 0)));
  *k = coopvecBuildCast1(m->b, "arith.sitofp", exponent, m->f);
  return mant;
}

/// s = (m - 1)/(m + 1) as q + c, with z = q^2.
typedef struct LogQuotient {
  MlirValue q, c, z;
} LogQuotient;

/// c corrects the rounding of m+1, of 1/(m+1) and of the product (each
/// worth up to half an ulp of s, and s's relative error is the result's
/// when the exponent is 0).
static LogQuotient logQuotient(const Math *m, MlirValue mant) {
  MlirValue one = fconst(m, 1.0f);
  MlirValue f = fsub(m, mant, one); // exact (Sterbenz)
  MlirValue d = fadd(m, mant, one);
  // m + 1 = d + dLo exactly: d - 1 and m - (d - 1) are exact.
  MlirValue dLo = fsub(m, mant, fsub(m, d, one));
  MlirValue r = fdiv(m, one, d);
  MlirValue q = fmul(m, f, r);
  MlirValue negQ = fneg(m, q);
  // f/(d + dLo) = q + (f - q d - q dLo) / d, to first order.
  MlirValue residual = fma3(m, negQ, d, f);
  MlirValue c = fmul(m, fma3(m, negQ, dLo, residual), r);
  return (LogQuotient){q, c, fmul(m, q, q)};
}

/// s^3 R(s^2) = q z R(z): the odd terms past the first.
static MlirValue oddTerms(const Math *m, const LogQuotient *s, const float *r,
                          int n) {
  return fmul(m, fmul(m, s->z, s->q), mathHorner(m, s->z, r, n));
}

/// log(+inf) = +inf, log(+-0) = -inf, log(x < 0) = log(NaN) = NaN.
static MlirValue logSpecial(const Math *m, MlirValue x, MlirValue y) {
  y = select3(m, cmpf(m, COOPVEC_CMPF_OEQ, x, INFINITY), fconst(m, INFINITY),
              y);
  y = select3(m, cmpf(m, COOPVEC_CMPF_OEQ, x, 0.0f), fconst(m, -INFINITY), y);
  return select3(m, cmpf(m, COOPVEC_CMPF_ULT, x, 0.0f), fconst(m, NAN), y);
}

//===----------------------------------------------------------------------===//
// log2 and log
//===----------------------------------------------------------------------===//

MlirValue coopvecEmitLog2(CoopvecBuilder *b, MlirValue x) {
  Math m = mathFor(b, x);
  MlirValue k;
  LogQuotient s = logQuotient(&m, logReduce(&m, x, &k));
  MlirValue hi = fconst(&m, MATH_TWO_OVER_LN2_HI);
  MlirValue lo = fma3(&m, s.q, fconst(&m, MATH_TWO_OVER_LN2_LO),
                      fma3(&m, s.c, hi, oddTerms(&m, &s, log2R, 3)));
  return logSpecial(&m, x, fadd(&m, k, fma3(&m, s.q, hi, lo)));
}

/// ln(m) = s (2 + z R(z)): R minimax of degree 2, relative error 8.0e-10.
static const float logR[] = {0x1.55557ap-1f, 0x1.995edp-2f, 0x1.31e0dep-2f};

MlirValue coopvecEmitLog(CoopvecBuilder *b, MlirValue x) {
  Math m = mathFor(b, x);
  MlirValue k;
  LogQuotient s = logQuotient(&m, logReduce(&m, x, &k));
  // k ln 2 = kh + kLo exactly (fma); kh + 2q is a Fast2Sum (|kh| >= ln 2 >
  // |2q| unless k = 0), so the result is rounded once, in the last sum.
  MlirValue lnHi = fconst(&m, MATH_LN2_HI);
  MlirValue kh = fmul(&m, k, lnHi);
  MlirValue kLo = fma3(&m, k, lnHi, fneg(&m, kh));
  MlirValue two = fconst(&m, 2.0f);
  MlirValue e;
  MlirValue hi = mathFastTwoSum(&m, kh, fmul(&m, s.q, two), &e);
  MlirValue tail = fma3(&m, s.c, two, oddTerms(&m, &s, logR, 3));
  MlirValue lo =
      fadd(&m, e, fadd(&m, kLo, fma3(&m, k, fconst(&m, MATH_LN2_LO), tail)));
  return logSpecial(&m, x, fadd(&m, hi, lo));
}

//===----------------------------------------------------------------------===//
// powf
//===----------------------------------------------------------------------===//

/// log2(m) = s (2/ln2 + z R(z)) as for log2, with R(z) = R0 + z R1(z):
/// R0 = 2/(3 ln2) as hi + lo, R1 minimax of degree 2 (relative error of
/// log2(m) 8.4e-12). y log2(x) reaches 150, so log2(x) needs some 40 bits.
static const float log2R0Hi = 0x1.ec709ep-1f;
static const float log2R0Lo = -0x1.e2fe02p-28f;
static const float log2R1[] = {0x1.27770ep-1f, 0x1.a5bb98p-2f, 0x1.59f5a8p-2f};

/// R0 s^3 = oddHi + *oddLo to about 2^-48 of log2(m), s = q + c: q^3 is
/// carried as hi + lo, and 3 q^2 c is its first-order part in c.
static MlirValue leadingOddTerm(const Math *m, const LogQuotient *s,
                                MlirValue *oddLo) {
  MlirValue r0 = fconst(m, log2R0Hi);
  MlirValue zLo = fma3(m, s->q, s->q, fneg(m, s->z));
  MlirValue cube = fmul(m, s->z, s->q);
  MlirValue cubeLo = fma3(m, zLo, s->q, fma3(m, s->z, s->q, fneg(m, cube)));
  cubeLo = fma3(m, fmul(m, fconst(m, 3.0f), s->z), s->c, cubeLo);
  MlirValue oddHi = fmul(m, cube, r0);
  *oddLo = fma3(m, cube, fconst(m, log2R0Lo),
                fma3(m, cubeLo, r0, fma3(m, cube, r0, fneg(m, oddHi))));
  return oddHi;
}

/// log2(ax) = hi + *lo to about 2^-40 relative, for a positive finite ax:
/// the terms above 2^-24 of the result are summed exactly (Fast2Sums), the
/// others in f32.
static MlirValue log2Extended(const Math *m, MlirValue ax, MlirValue *lo) {
  MlirValue k;
  LogQuotient s = logQuotient(m, logReduce(m, ax, &k));
  MlirValue c = fconst(m, MATH_TWO_OVER_LN2_HI);
  MlirValue t = fmul(m, s.q, c);
  MlirValue tLo = fma3(m, s.q, c, fneg(m, t));
  MlirValue oddLo, e1, e2;
  MlirValue oddHi = leadingOddTerm(m, &s, &oddLo);
  // |t| > |oddHi| (= |t| z / 3), and |k| >= 1 > |t + oddHi| unless k = 0.
  MlirValue u = mathFastTwoSum(m, t, oddHi, &e1);
  MlirValue hi = mathFastTwoSum(m, k, u, &e2);
  MlirValue higherOdd =
      fmul(m, fmul(m, fmul(m, s.z, s.z), s.q), mathHorner(m, s.z, log2R1, 3));
  MlirValue small = fma3(m, s.q, fconst(m, MATH_TWO_OVER_LN2_LO),
                         fma3(m, s.c, c, fadd(m, oddLo, higherOdd)));
  MlirValue rest = fadd(m, fadd(m, e2, e1), fadd(m, tLo, small));
  return mathFastTwoSum(m, hi, rest, lo);
}

/// Whether y is an integer, and whether it is an odd one (|y| >= 2^24 is
/// even; NaN counts as an even integer: the other special cases decide).
static MlirValue integerParity(const Math *m, MlirValue y, MlirValue *odd) {
  MlirValue ay = mathAbs(m, y);
  MlirValue limit = fconst(m, 0x1p24f);
  MlirValue bounded =
      select3(m, cmpf(m, COOPVEC_CMPF_OLT, ay, 0x1p24f), ay, limit);
  MlirValue n = coopvecBuildCast1(m->b, "arith.fptosi", bounded, m->i);
  MlirValue back = coopvecBuildCast1(m->b, "arith.sitofp", n, m->f);
  MlirValue integer = coopvecBuildCmpF(m->b, COOPVEC_CMPF_OEQ, back, bounded);
  *odd =
      op2(m, "arith.andi", integer,
          cmpi(m, COOPVEC_CMPI_NE, op2(m, "arith.andi", n, iconst(m, 1)), 0));
  return integer;
}

/// |x|^y = 2^(y log2|x|), with log2|x| = -inf at 0, +inf at +inf and NaN
/// at NaN.
static MlirValue powMagnitude(const Math *m, MlirValue ax, MlirValue y) {
  MlirValue lo;
  MlirValue hi = log2Extended(m, ax, &lo);
  MlirValue zero = cmpf(m, COOPVEC_CMPF_OEQ, ax, 0.0f);
  MlirValue inf = cmpf(m, COOPVEC_CMPF_OEQ, ax, INFINITY);
  hi = select3(m, zero, fconst(m, -INFINITY), hi);
  hi = select3(m, inf, fconst(m, INFINITY), hi);
  hi = select3(m, coopvecBuildCmpF(m->b, COOPVEC_CMPF_UNO, ax, ax), ax, hi);
  // y (hi + lo) = zh + zLo: the product's rounding error is exact (fma).
  MlirValue zh = fmul(m, y, hi);
  MlirValue zLo = fma3(m, y, lo, fma3(m, y, hi, fneg(m, zh)));
  // Where zh is far out of range (or not finite) the tail does not matter,
  // and would be NaN (inf - inf).
  zLo = select3(m, cmpf(m, COOPVEC_CMPF_OLT, mathAbs(m, zh), 512.0f), zLo,
                fconst(m, 0.0f));
  return mathExp2Extended(m, zh, zLo);
}

/// x^y with C99 Annex F's special cases.
MlirValue coopvecEmitPow(CoopvecBuilder *b, MlirValue x, MlirValue y) {
  Math m = mathFor(b, x);
  MlirValue ax = mathAbs(&m, x);
  MlirValue result = powMagnitude(&m, ax, y);
  MlirValue odd;
  MlirValue integer = integerParity(&m, y, &odd);
  // A negative base (-0 and -inf included) gives the sign of (-1)^y for
  // odd integers; a finite negative one with a non-integer y has no real
  // power.
  MlirValue negative = cmpi(&m, COOPVEC_CMPI_NE, mathSignBit(&m, x), 0);
  MlirValue flip = op2(&m, "arith.andi", negative, odd);
  result = select3(&m, flip, fneg(&m, result), result);
  MlirValue finiteNegative = cmpf(&m, COOPVEC_CMPF_OLT, x, 0.0f);
  finiteNegative = op2(&m, "arith.andi", finiteNegative,
                       cmpf(&m, COOPVEC_CMPF_OLT, ax, INFINITY));
  MlirValue noPower =
      op2(&m, "arith.andi", finiteNegative,
          op2(&m, "arith.xori", integer,
              coopvecBuildIntConstantLike(b, mlirValueGetType(integer), 1)));
  result = select3(&m, noPower, fconst(&m, NAN), result);
  // pow(+1, y) = 1 and pow(-1, +-inf) = 1, even for a NaN y; pow(x, +-0) =
  // 1, even for a NaN x.
  MlirValue one = fconst(&m, 1.0f);
  MlirValue unitBase =
      op2(&m, "arith.andi", cmpf(&m, COOPVEC_CMPF_OEQ, ax, 1.0f),
          cmpf(&m, COOPVEC_CMPF_OEQ, mathAbs(&m, y), INFINITY));
  unitBase =
      op2(&m, "arith.ori", unitBase, cmpf(&m, COOPVEC_CMPF_OEQ, x, 1.0f));
  result = select3(&m, unitBase, one, result);
  return select3(&m, cmpf(&m, COOPVEC_CMPF_OEQ, y, 0.0f), one, result);
}
