//===- Fmod.c - fmod on element values ------------------------------------===//
//
// fmod(x, y) (arith.remf, C's fmod) exactly, as straight-line arith code on
// f32 scalars or vectors of f32. LLVM lowers frem to a libm fmodf call per
// lane on the CPU, SPIR-V's OpFRem is x - y trunc(x / y) (rounded, so not
// exact), and convert-gpu-to-nvvm wants libdevice's __nv_fmodf.
//
// With |x| = mx 2^(ex - 23) and |y| = my 2^(ey - 23), mx and my integers
// in [2^23, 2^24) (subnormals normalized first),
//
//   fmod(|x|, |y|) = (mx 2^d mod my) 2^(ey - 23),  d = ex - ey in [0, 276].
//
// The remainder R of mx 2^d by my is kept as an integer-valued f32:
// R = mx mod my, then the d bits are shifted in, at most 12 per step:
// R <- n - q my, n = R 2^c, q the integer nearest n / my. Each step is
// exact, by induction on |R| < my < 2^24 (0 <= R < my at the start):
//
//   - n = R 2^c is exact (a power of two), |n / my| < 2^c <= 2^12;
//   - q comes from n times an f32 reciprocal of my, so qf is within 2^-10
//     of n / my (even with a division a few ulps off), and rounding qf to
//     an integer (adding and subtracting 1.5 * 2^23) gives |q| <= 2^c and
//     |n / my - q| <= 1/2 + 2^-10: q has at most 12 significant bits;
//   - my = hi + lo, hi its top 12 bits and lo < 2^12: q hi and q lo have
//     at most 24 significant bits, so both products are exact;
//   - t = n - q hi = (n - q my) + q lo is a multiple of 2^c (n is, and
//     hi is a multiple of 2^12), and |t| < my (1/2 + 2^-10) + 2^(c + 12)
//     < 2^(24 + c): t / 2^c is an integer below 2^24, so t is exact;
//   - R' = t - q lo = n - q my is an integer with |R'| <= my (1/2 + 2^-10)
//     < my, so it is exact too, and R' = R 2^c (mod my).
//
// At the end R + my where R < 0 is the remainder in [0, my), and the
// scaling by 2^(ey - 23) (two exact steps: the result is a representable
// value) gives fmod(|x|, |y|); x's sign goes onto it (zeros too).
//
// So the code needs correctly rounded f32 addition, subtraction and
// multiplication only (which Vulkan guarantees too): no fma (a fused or an
// unfused multiply-add gives the same bits, the products being exact) and
// no division per step (the one reciprocal only estimates quotients). The
// step count is fixed: d = 12 k + c0, a step of c0 bits and `steps` steps
// of 12 bits (or 0 bits, which changes nothing, past the k-th): 22 for any
// f32 (d <= 275 = 12 * 22 + 11 but for y = 2^-149, whose my = 2^23 divides
// mx 2^c for any c >= 23, so that d = 276 shifting 264 bits in gives 0 too),
// 3 for f16 values (d <= 15 + 24 = 39).
//
// Special values are C99 Annex F's: fmod(x, y) is NaN for x infinite or
// NaN, y NaN or zero; x itself (its sign and zero kept) where |x| < |y|,
// y = +-inf included. Checked bit for bit against C's fmodf:
// test/CAPI/expand-math-remf.c (every f16 x against 32 y, and f32 pairs of
// every exponent difference).
//
//===----------------------------------------------------------------------===//

#include "Math/Math.h"

#include "Math/MathBuilder.h"

#include <math.h>
#include <stdint.h>

/// The 12-bit steps after the first (the file comment).
enum { F32_STEPS = 22, F16_STEPS = 3 };

/// 2^n as f32 for an integer n in [-126, 127], built in the exponent bits.
static MlirValue powerOfTwo(const Math *m, MlirValue n) {
  MlirValue biased = op2(m, "arith.addi", n, iconst(m, 127));
  return floatOf(m, op2(m, "arith.shli", biased, iconst(m, 23)));
}

/// a = mantissa * 2^(*e - 23) for a finite a > 0: the mantissa (returned)
/// is an integer in [2^23, 2^24) as f32; a subnormal a is scaled by 2^24
/// first.
static MlirValue normalize(const Math *m, MlirValue a, MlirValue *e) {
  MlirValue subnormal = cmpf(m, COOPVEC_CMPF_OLT, a, 0x1p-126f);
  MlirValue bits =
      bitsOf(m, select3(m, subnormal, fmul(m, a, fconst(m, 0x1p24f)), a));
  *e = op2(m, "arith.subi", op2(m, "arith.shrui", bits, iconst(m, 23)),
           select3(m, subnormal, iconst(m, 127 + 24), iconst(m, 127)));
  // The mantissa bits under the exponent of 2^23.
  return floatOf(m, op2(m, "arith.ori",
                        op2(m, "arith.andi", bits, iconst(m, 0x7fffff)),
                        iconst(m, (127 + 23) << 23)));
}

/// The divisor my (an integer in [2^23, 2^24) as f32) as hi + lo, hi its
/// top 12 bits, and an estimate of 1 / my.
typedef struct Divisor {
  MlirValue my, hi, lo, inverse;
} Divisor;

static Divisor divisorOf(const Math *m, MlirValue my) {
  // -4096 = 0xfffff000: my's low 12 bits cleared.
  MlirValue hi =
      floatOf(m, op2(m, "arith.andi", bitsOf(m, my), iconst(m, -4096)));
  return (Divisor){my, hi, fsub(m, my, hi), fdiv(m, fconst(m, 1.0f), my)};
}

/// One step: n - q my for n = r * scale (scale = 2^c, c in [0, 12]), q the
/// integer nearest n / my. Exact for |r| < my (the file comment).
static MlirValue shiftIn(const Math *m, const Divisor *y, MlirValue r,
                         MlirValue scale) {
  MlirValue n = fmul(m, r, scale);
  MlirValue shifter = fconst(m, 0x1.8p23f);
  MlirValue q = fsub(m, fadd(m, fmul(m, n, y->inverse), shifter), shifter);
  MlirValue t = fsub(m, n, fmul(m, q, y->hi));
  return fsub(m, t, fmul(m, q, y->lo));
}

/// fmod(ax, ay) for finite ax >= ay > 0 whose exponents differ by at most
/// 12 * steps + 11.
static MlirValue remainderOfMagnitudes(const Math *m, MlirValue ax,
                                       MlirValue ay, int steps) {
  MlirValue ex, ey;
  MlirValue mx = normalize(m, ax, &ex);
  Divisor y = divisorOf(m, normalize(m, ay, &ey));
  // d = 12 k + c0; k = floor(d / 12) = (d * 2731) >> 15 for d in [0, 400].
  MlirValue d = op2(m, "arith.subi", ex, ey);
  MlirValue k = op2(m, "arith.shrui", op2(m, "arith.muli", d, iconst(m, 2731)),
                    iconst(m, 15));
  MlirValue c0 =
      op2(m, "arith.subi", d, op2(m, "arith.muli", k, iconst(m, 12)));
  MlirValue r =
      fsub(m, mx,
           select3(m, coopvecBuildCmpF(m->b, COOPVEC_CMPF_OGE, mx, y.my), y.my,
                   fconst(m, 0.0f)));
  r = shiftIn(m, &y, r, powerOfTwo(m, c0));
  for (int j = 0; j < steps; ++j)
    r = shiftIn(m, &y, r,
                select3(m, cmpi(m, COOPVEC_CMPI_SGT, k, j), fconst(m, 0x1p12f),
                        fconst(m, 1.0f)));
  r = select3(m, cmpf(m, COOPVEC_CMPF_OLT, r, 0.0f), fadd(m, r, y.my), r);
  // r 2^s, s = ey - 23 in [-172, 104]: 2^s1 with s1 >= -126 keeps r
  // normal, and the last product is the (representable) result.
  MlirValue s = op2(m, "arith.subi", ey, iconst(m, 23));
  MlirValue s1 = op2(m, "arith.maxsi", s, iconst(m, -126));
  return fmul(m, fmul(m, r, powerOfTwo(m, s1)),
              powerOfTwo(m, op2(m, "arith.subi", s, s1)));
}

static MlirValue emitFmod(CoopvecBuilder *b, MlirValue x, MlirValue y,
                          int steps) {
  Math m = mathFor(b, x);
  MlirValue ax = mathAbs(&m, x), ay = mathAbs(&m, y);
  // The reduction for finite |x| >= |y| > 0 (ordered compares: false for
  // NaN); the other lanes compute fmod(1, 1), which is not used.
  MlirValue reduce =
      op2(&m, "arith.andi", coopvecBuildCmpF(b, COOPVEC_CMPF_OGE, ax, ay),
          op2(&m, "arith.andi", cmpf(&m, COOPVEC_CMPF_OLT, ax, INFINITY),
              cmpf(&m, COOPVEC_CMPF_OGT, ay, 0.0f)));
  MlirValue one = fconst(&m, 1.0f);
  MlirValue r = remainderOfMagnitudes(&m, select3(&m, reduce, ax, one),
                                      select3(&m, reduce, ay, one), steps);
  // x's sign, on a zero too: r is never -0 (exact sums of integers that
  // cancel give +0).
  r = floatOf(&m, op2(&m, "arith.ori", bitsOf(&m, r), mathSignBit(&m, x)));
  // |x| < |y| (y = +-inf included) gives x; x infinite or NaN, y NaN or
  // zero give NaN.
  MlirValue other = select3(&m, coopvecBuildCmpF(b, COOPVEC_CMPF_OLT, ax, ay),
                            x, fconst(&m, NAN));
  return select3(&m, reduce, r, other);
}

MlirValue coopvecEmitFmod(CoopvecBuilder *b, MlirValue x, MlirValue y) {
  return emitFmod(b, x, y, F32_STEPS);
}

MlirValue coopvecEmitFmodOfF16(CoopvecBuilder *b, MlirValue x, MlirValue y) {
  return emitFmod(b, x, y, F16_STEPS);
}
