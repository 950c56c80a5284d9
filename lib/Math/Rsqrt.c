//===- Rsqrt.c - rsqrt on element values ----------------------------------===//
//
// 1/sqrt(x) as straight-line arith code and math.fma on f32 scalars or
// vectors of f32 (see Exp.c for why): no math.sqrt, whose accuracy is the
// target's (Vulkan allows 3 ulp). An estimate from the exponent bits, two
// Newton steps, and a last step whose residual 1 - x y^2 is computed to
// about 2^-48, so only its final fma rounds.
//
// Special values are C99 Annex F's for 1/sqrt: rsqrt(+0) = +inf,
// rsqrt(-0) = -inf, rsqrt(+inf) = +0, NaN for x < 0 and NaN. Accuracy over
// every f32 input: bench/math-ulp.c (docs/execution-model.md,
// "Transcendentals").
//
//===----------------------------------------------------------------------===//

#include "Math/Math.h"

#include "Math/MathBuilder.h"

#include <math.h>

/// One Newton step y (3/2 - (x/2) y^2): the relative error e becomes about
/// 3/2 e^2.
static MlirValue newtonStep(const Math *m, MlirValue halfX, MlirValue y) {
  MlirValue r = fma3(m, fneg(m, fmul(m, halfX, y)), y, fconst(m, 1.5f));
  return fmul(m, y, r);
}

/// 1/sqrt(x) for a positive normal x.
static MlirValue rsqrtNormal(const Math *m, MlirValue x) {
  // The magic constant halves the exponent and gives a 3.4 % estimate,
  // then 1.8e-3 and 4.7e-6 after the steps.
  MlirValue y =
      floatOf(m, op2(m, "arith.subi", iconst(m, 0x5f3759df),
                     op2(m, "arith.shrui", bitsOf(m, x), iconst(m, 1))));
  MlirValue halfX = fmul(m, x, fconst(m, 0.5f));
  y = newtonStep(m, halfX, newtonStep(m, halfX, y));
  // e = 1 - x y^2 with x y = h + hLo exactly: e = (1 - h y) - hLo y, where
  // 1 - h y is small and the fma computes it exactly enough.
  MlirValue negH = fneg(m, fmul(m, x, y));
  MlirValue negHLo = fneg(m, fma3(m, x, y, negH));
  MlirValue e = fma3(m, negHLo, y, fma3(m, negH, y, fconst(m, 1.0f)));
  // y (1 + e/2) is 1/sqrt(x) to 3/8 e^2.
  return fma3(m, fmul(m, y, fconst(m, 0.5f)), e, y);
}

MlirValue coopvecEmitRsqrt(CoopvecBuilder *b, MlirValue x) {
  Math m = mathFor(b, x);
  // Subnormals are scaled by 2^24 (exactly), and the result by 2^12.
  MlirValue subnormal = cmpf(&m, COOPVEC_CMPF_OLT, x, 0x1p-126f);
  MlirValue scaled =
      select3(&m, subnormal, fmul(&m, x, fconst(&m, 0x1p24f)), x);
  MlirValue y =
      fmul(&m, rsqrtNormal(&m, scaled),
           select3(&m, subnormal, fconst(&m, 0x1p12f), fconst(&m, 1.0f)));
  y = select3(&m, cmpf(&m, COOPVEC_CMPF_OEQ, x, INFINITY), fconst(&m, 0.0f), y);
  // +-0 gives +-inf: the infinity with x's sign bit.
  MlirValue zero = cmpf(&m, COOPVEC_CMPF_OEQ, x, 0.0f);
  y = select3(&m, zero,
              mathFlipSign(&m, fconst(&m, INFINITY), mathSignBit(&m, x)), y);
  return select3(&m, cmpf(&m, COOPVEC_CMPF_ULT, x, 0.0f), fconst(&m, NAN), y);
}
