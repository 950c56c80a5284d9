//===- Trig.c - sin and cos on element values -----------------------------===//
//
// sin and cos as straight-line arith code and math.fma on f32 scalars or
// vectors of f32 (see Exp.c for why). The argument is reduced modulo pi/2
// exactly enough for every f32, however large: x (2/pi) is computed in
// integer arithmetic from a 96-bit window of the bits of 2/pi chosen by
// x's exponent (Payne-Hanek), which leaves the quadrant and a 62-bit
// fraction. Straight-line code computes every path for every input, so the
// one reduction serves all |x| >= pi/4 (a Cody-Waite path for moderate |x|
// would only add operations); below, x is its own reduced argument.
//
// Special values are C99 Annex F's: sin(+-0) = +-0, sin and cos of +-inf
// or NaN are NaN. Accuracy over every f32 input: bench/math-ulp.c
// (docs/execution-model.md, "Transcendentals"). Coefficients:
// bench/math-coefficients.py.
//
//===----------------------------------------------------------------------===//

#include "Math/Math.h"

#include "Math/MathBuilder.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>

/// sin(r) = r + r z S(z), z = r^2, |r| <= pi/4: S minimax of degree 3,
/// relative error 5.2e-12.
static const float sinS[] = {-0x1.555556p-3f, 0x1.111108p-7f, -0x1.a00f8p-13f,
                             0x1.6cd1f2p-19f};
/// cos(r) = 1 - z/2 + z^2 C(z): C minimax of degree 3, relative error
/// 1.2e-13.
static const float cosC[] = {0x1.555556p-5f, -0x1.6c16b8p-10f, 0x1.a010dep-16f,
                             -0x1.241e9cp-22f};

/// pi/2 as hi + lo.
static const float piOver2Hi = 0x1.921fb6p+0f;
static const float piOver2Lo = -0x1.777a5cp-25f;

/// The bits of 2/pi after the binary point, preceded by 64 zero bits: the
/// window of a small x starts before the point.
static const uint32_t twoOverPi[] = {0,          0,          0xa2f9836e,
                                     0x4e441529, 0xfc2757d1, 0xf534ddc0,
                                     0xdb629599, 0x3c439041};

/// The reduced argument: x = q pi/2 + r + rLo (modulo 2 pi), |r| <= pi/4.
typedef struct Reduced {
  MlirValue q, r, rLo;
} Reduced;

/// The integer code of the reduction: i32 and i64 of the operand's shape.
typedef struct Wide {
  const Math *m;
  MlirType i64;
} Wide;

static MlirValue wconst(const Wide *w, int64_t value) {
  return coopvecBuildIntConstantLike(w->m->b, w->i64, value);
}

static MlirValue wop(const Wide *w, const char *name, MlirValue x, int64_t y) {
  return op2(w->m, name, x, wconst(w, y));
}

static MlirValue word(const Math *m, uint32_t bits) {
  // The i32 with these bits (IntegerAttr takes a signed value).
  return iconst(m, bits > INT32_MAX ? (int64_t)bits - ((int64_t)1 << 32)
                                    : (int64_t)bits);
}

/// Word `i + d` of twoOverPi for i in [0, 4]: a chain of selects.
static MlirValue tableWord(const Math *m, MlirValue i, int d) {
  MlirValue result = word(m, twoOverPi[d + 4]);
  for (int k = 3; k >= 0; --k)
    result = select3(m, cmpi(m, COOPVEC_CMPI_EQ, i, k),
                     word(m, twoOverPi[d + k]), result);
  return result;
}

/// (a << sh) | (b >> (32 - sh)) for sh in [0, 31]; b's shift is done in
/// two steps, since a shift by 32 is undefined.
static MlirValue funnel(const Math *m, MlirValue a, MlirValue b, MlirValue sh) {
  MlirValue high = op2(m, "arith.shli", a, sh);
  MlirValue low = op2(m, "arith.shrui", op2(m, "arith.shrui", b, iconst(m, 1)),
                      op2(m, "arith.subi", iconst(m, 31), sh));
  return op2(m, "arith.ori", high, low);
}

/// The 96 bits of 2^e (2/pi) from weight 2^33 down to 2^-62 (three words,
/// high first), for e in [0, 129]: they start at bit e + 30 of twoOverPi.
static void window(const Math *m, MlirValue e, MlirValue words[3]) {
  MlirValue start = op2(m, "arith.addi", e, iconst(m, 30));
  MlirValue i = op2(m, "arith.shrui", start, iconst(m, 5));
  MlirValue sh = op2(m, "arith.andi", start, iconst(m, 31));
  MlirValue w[4];
  for (int d = 0; d < 4; ++d)
    w[d] = tableWord(m, i, d);
  for (int d = 0; d < 3; ++d)
    words[d] = funnel(m, w[d], w[d + 1], sh);
}

/// The 64 bits 32..95 of ia * (hi, mid, lo) (a 128-bit product), as i64:
/// x (2/pi) modulo 4 in 2.62 fixed point, ia = the 24-bit mantissa << 8.
static MlirValue fixedProduct(const Wide *w, MlirValue ia,
                              const MlirValue words[3]) {
  const Math *m = w->m;
  MlirValue ia64 = coopvecBuildCast1(m->b, "arith.extui", ia, w->i64);
  MlirValue lo = coopvecBuildCast1(m->b, "arith.extui", words[2], w->i64);
  MlirValue mid = coopvecBuildCast1(m->b, "arith.extui", words[1], w->i64);
  MlirValue top = coopvecBuildCast1(m->b, "arith.extui",
                                    op2(m, "arith.muli", ia, words[0]), w->i64);
  MlirValue p0 = wop(w, "arith.shrui", op2(m, "arith.muli", ia64, lo), 32);
  MlirValue p1 = op2(m, "arith.muli", ia64, mid);
  return op2(m, "arith.addi", op2(m, "arith.addi", p0, p1),
             wop(w, "arith.shli", top, 32));
}

/// A signed fixed-point fraction (units of 2^-62, |f| <= 2^61) as hi + *lo:
/// three chunks of at most 24 bits convert exactly, and their sum is
/// carried to 48 bits.
static MlirValue fractionToFloat(const Wide *w, MlirValue f, MlirValue *lo) {
  const Math *m = w->m;
  MlirValue chunks[3] = {
      wop(w, "arith.shrsi", f, 40),
      wop(w, "arith.andi", wop(w, "arith.shrsi", f, 16), 0xffffff),
      wop(w, "arith.andi", f, 0xffff)};
  static const float scales[3] = {0x1p-22f, 0x1p-46f, 0x1p-62f};
  MlirValue parts[3];
  for (int k = 0; k < 3; ++k) {
    MlirValue i32 = coopvecBuildCast1(m->b, "arith.trunci", chunks[k], m->i);
    parts[k] = fmul(m, coopvecBuildCast1(m->b, "arith.sitofp", i32, m->f),
                    fconst(m, scales[k]));
  }
  // |parts[0]| >= 2^-22 > parts[1] >= 0 unless parts[0] = 0: a Fast2Sum.
  MlirValue e;
  MlirValue hi = mathFastTwoSum(m, parts[0], parts[1], &e);
  return mathFastTwoSum(m, hi, fadd(m, e, parts[2]), lo);
}

/// Reduction of a = |x| >= pi/4 (any finite f32; garbage for inf and NaN).
static Reduced reduceLarge(const Math *m, MlirValue a) {
  MlirContext ctx = m->b->context;
  Wide w = {m, coopvecWithElementType(m->f, mlirIntegerTypeGet(ctx, 64))};
  MlirValue bits = bitsOf(m, a);
  // a = ia 2^(e - 32), ia = 1.mantissa * 2^31; e = biased exponent - 126.
  MlirValue ia =
      op2(m, "arith.ori",
          op2(m, "arith.shli", op2(m, "arith.andi", bits, iconst(m, 0x7fffff)),
              iconst(m, 8)),
          iconst(m, INT32_MIN));
  MlirValue e = op2(m, "arith.subi", op2(m, "arith.shrui", bits, iconst(m, 23)),
                    iconst(m, 126));
  e = select3(m, cmpi(m, COOPVEC_CMPI_SLT, e, 0), iconst(m, 0), e);
  MlirValue words[3];
  window(m, e, words);
  // Rounding to the nearest quadrant: t = a (2/pi) + 1/2 in 2.62 fixed
  // point; q is its integer part (modulo 4), f = frac(t) - 1/2.
  MlirValue t =
      wop(&w, "arith.addi", fixedProduct(&w, ia, words), (int64_t)1 << 61);
  MlirValue q = coopvecBuildCast1(m->b, "arith.trunci",
                                  wop(&w, "arith.shrui", t, 62), m->i);
  MlirValue f =
      wop(&w, "arith.subi", wop(&w, "arith.andi", t, ((int64_t)1 << 62) - 1),
          (int64_t)1 << 61);
  MlirValue fLo;
  MlirValue fHi = fractionToFloat(&w, f, &fLo);
  // r = f pi/2 (f in quadrants), carried as hi + lo.
  MlirValue hi = fconst(m, piOver2Hi);
  MlirValue rh = fmul(m, fHi, hi);
  MlirValue rl = fadd(m, fma3(m, fHi, hi, fneg(m, rh)),
                      fma3(m, fHi, fconst(m, piOver2Lo), fmul(m, fLo, hi)));
  MlirValue rLo;
  MlirValue r = mathFastTwoSum(m, rh, rl, &rLo);
  return (Reduced){q, r, rLo};
}

/// sin(r + rLo) for |r| <= pi/4: one rounding in the last sum.
static MlirValue sinPolynomial(const Math *m, const Reduced *x, MlirValue z) {
  MlirValue tail = fma3(m, fmul(m, x->r, z), mathHorner(m, z, sinS, 4), x->rLo);
  return fadd(m, x->r, tail);
}

/// cos(r + rLo) = 1 - z/2 + z^2 C(z) - r rLo: 1 - z/2 is rounded with its
/// error carried (w + ((1 - w) - z/2) is exact), and z = r^2 carries its
/// rounding error zLo.
static MlirValue cosPolynomial(const Math *m, const Reduced *x, MlirValue z) {
  MlirValue one = fconst(m, 1.0f), half = fconst(m, 0.5f);
  MlirValue zLo = fma3(m, x->r, x->r, fneg(m, z));
  MlirValue hz = fmul(m, z, half);
  MlirValue w = fsub(m, one, hz);
  MlirValue small = fma3(m, x->r, x->rLo, fmul(m, zLo, half));
  MlirValue tail =
      fma3(m, fmul(m, z, z), mathHorner(m, z, cosC, 4), fneg(m, small));
  return fadd(m, w, fadd(m, fsub(m, fsub(m, one, w), hz), tail));
}

/// sin(x) or, with `cosine`, cos(x) = sin(x + pi/2).
static MlirValue emitSinCos(CoopvecBuilder *b, MlirValue x, bool cosine) {
  Math m = mathFor(b, x);
  MlirValue a = mathAbs(&m, x);
  Reduced large = reduceLarge(&m, a);
  MlirValue small = cmpf(&m, COOPVEC_CMPF_OLT, a, 0x1.921fb6p-1f);
  Reduced r = {select3(&m, small, iconst(&m, 0), large.q),
               select3(&m, small, a, large.r),
               select3(&m, small, fconst(&m, 0.0f), large.rLo)};
  MlirValue z = fmul(&m, r.r, r.r);
  MlirValue s = sinPolynomial(&m, &r, z), c = cosPolynomial(&m, &r, z);
  // sin(r + q pi/2) is sin, cos, -sin, -cos for q = 0, 1, 2, 3; cos is
  // sin of quadrant q + 1. sin is odd, cos even.
  MlirValue q = cosine ? op2(&m, "arith.addi", r.q, iconst(&m, 1)) : r.q;
  MlirValue odd =
      cmpi(&m, COOPVEC_CMPI_NE, op2(&m, "arith.andi", q, iconst(&m, 1)), 0);
  MlirValue sign = op2(&m, "arith.shli",
                       op2(&m, "arith.andi", q, iconst(&m, 2)), iconst(&m, 30));
  if (!cosine)
    sign = op2(&m, "arith.xori", sign, mathSignBit(&m, x));
  MlirValue result = mathFlipSign(&m, select3(&m, odd, c, s), sign);
  // +-inf and NaN give NaN.
  return select3(&m, cmpf(&m, COOPVEC_CMPF_UGE, a, INFINITY), fconst(&m, NAN),
                 result);
}

MlirValue coopvecEmitSin(CoopvecBuilder *b, MlirValue x) {
  return emitSinCos(b, x, false);
}

MlirValue coopvecEmitCos(CoopvecBuilder *b, MlirValue x) {
  return emitSinCos(b, x, true);
}
