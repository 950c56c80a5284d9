//===- Erf.c - erf on element values --------------------------------------===//
//
// erf as straight-line arith code and math.fma on f32 scalars or vectors of
// f32 (see Exp.c for why): an odd polynomial below 7/8, and
// 1 - e^(a R(a) - a) above, with the exp code of Exp.c.
//
// Special values are C99 Annex F's: erf(+-0) = +-0, erf(+-inf) = +-1, NaN
// for NaN. Accuracy over every f32 input: bench/math-ulp.c
// (docs/execution-model.md, "Transcendentals"). Coefficients:
// bench/math-coefficients.py.
//
//===----------------------------------------------------------------------===//

#include "Math/Math.h"

#include "Math/MathBuilder.h"

/// erf(x) = x + x P(x^2) for |x| < 7/8: P minimax of degree 6, relative
/// error 2.0e-10.
static const float erfP[] = {0x1.06eba8p-3f,  -0x1.812744p-2f, 0x1.ce2e84p-4f,
                             -0x1.b819a6p-6f, 0x1.553abap-8f,  -0x1.ae7f94p-11f,
                             0x1.6bdf52p-14f};

/// 1 - erf(a) = e^(a R(a) - a) for 7/8 <= a <= 3.95: R minimax of degree 9,
/// absolute error of the exponent 1.3e-8. Above 3.95, 1 - erf(a) is below
/// 0.78 * 2^-25, so erf rounds to 1.
static const float erfR[] = {
    -0x1.07425cp-3f, -0x1.457cc4p-1f,  -0x1.adc306p-4f, 0x1.698094p-6f,
    -0x1.2e5e78p-9f, -0x1.606e8cp-12f, 0x1.9078cep-13f, -0x1.359a5ep-15f,
    0x1.e6f1fap-19f, -0x1.42c284p-23f};
static const float erfSplit = 0.875f;
static const float erfOne = 3.95f;

MlirValue coopvecEmitErf(CoopvecBuilder *b, MlirValue x) {
  Math m = mathFor(b, x);
  // x + x P keeps the sign of zero: -0 + -0 * P = -0.
  MlirValue small = fma3(&m, x, mathHorner(&m, fmul(&m, x, x), erfP, 7), x);
  // The ordered compare keeps NaN, which propagates.
  MlirValue a = mathAbs(&m, x);
  a = select3(&m, cmpf(&m, COOPVEC_CMPF_OGT, a, erfOne), fconst(&m, erfOne), a);
  // The exponent a R(a) - a (up to -16) is carried as hi + lo: its
  // rounding would cost up to 0.2 ulp of the result near a = 7/8.
  MlirValue r = mathHorner(&m, a, erfR, 10);
  MlirValue p = fmul(&m, a, r);
  MlirValue pLo = fma3(&m, a, r, fneg(&m, p));
  MlirValue uLo;
  MlirValue u = mathTwoSum(&m, p, fneg(&m, a), &uLo);
  MlirValue large =
      fsub(&m, fconst(&m, 1.0f), mathExpWithTail(&m, u, fadd(&m, uLo, pLo)));
  large = mathFlipSign(&m, large, mathSignBit(&m, x));
  return select3(&m, cmpf(&m, COOPVEC_CMPF_OLT, mathAbs(&m, x), erfSplit),
                 small, large);
}
