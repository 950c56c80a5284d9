//===- MathBuilder.h - Building the math library's code (internal) -*- C
//-*-===//
//
// The few shapes of arith / math.fma ops the emitters of lib/Math/ are
// written in, on the operand's type: f32 or a vector of f32 of any shape,
// with i32 of the same shape for the bit manipulations (i64 for the wide
// products of the sin / cos reduction). Also the error-free transformations
// (Fast2Sum, 2Sum) that several functions use to carry a rounding error as
// a second f32.
//
//===----------------------------------------------------------------------===//

#ifndef COOPVEC_LIB_MATH_MATHBUILDER_H
#define COOPVEC_LIB_MATH_MATHBUILDER_H

#include "IR/UpstreamBuilders.h"

#include <mlir-c/BuiltinTypes.h>

#include <stdint.h>

/// Where the code goes and the types it works on: `f` is the operand's type
/// (f32 or vector<... x f32>), `i` is i32 of the same shape.
typedef struct Math {
  CoopvecBuilder *b;
  MlirType f, i;
} Math;

static inline Math mathFor(CoopvecBuilder *b, MlirValue x) {
  MlirType f = mlirValueGetType(x);
  return (Math){b, f,
                coopvecWithElementType(f, mlirIntegerTypeGet(b->context, 32))};
}

static inline MlirValue fconst(const Math *m, float value) {
  return coopvecBuildFloatConstantLike(m->b, m->f, value);
}

static inline MlirValue iconst(const Math *m, int64_t value) {
  return coopvecBuildIntConstantLike(m->b, m->i, value);
}

static inline MlirValue op1(const Math *m, const char *name, MlirValue x) {
  return coopvecBuildUnaryOp(m->b, name, x);
}

static inline MlirValue op2(const Math *m, const char *name, MlirValue x,
                            MlirValue y) {
  return coopvecBuildBinaryOp(m->b, name, x, y);
}

static inline MlirValue fadd(const Math *m, MlirValue x, MlirValue y) {
  return op2(m, "arith.addf", x, y);
}

static inline MlirValue fsub(const Math *m, MlirValue x, MlirValue y) {
  return op2(m, "arith.subf", x, y);
}

static inline MlirValue fmul(const Math *m, MlirValue x, MlirValue y) {
  return op2(m, "arith.mulf", x, y);
}

static inline MlirValue fdiv(const Math *m, MlirValue x, MlirValue y) {
  return op2(m, "arith.divf", x, y);
}

static inline MlirValue fneg(const Math *m, MlirValue x) {
  return op1(m, "arith.negf", x);
}

static inline MlirValue fma3(const Math *m, MlirValue x, MlirValue y,
                             MlirValue z) {
  return coopvecBuildTernaryOp(m->b, "math.fma", x, y, z);
}

static inline MlirValue cmpf(const Math *m, int predicate, MlirValue x,
                             float y) {
  return coopvecBuildCmpF(m->b, predicate, x, fconst(m, y));
}

static inline MlirValue cmpi(const Math *m, int predicate, MlirValue x,
                             int64_t y) {
  return coopvecBuildCmpI(
      m->b, predicate, x,
      coopvecBuildIntConstantLike(m->b, mlirValueGetType(x), y));
}

static inline MlirValue select3(const Math *m, MlirValue condition, MlirValue x,
                                MlirValue y) {
  return coopvecBuildSelect(m->b, condition, x, y);
}

static inline MlirValue bitsOf(const Math *m, MlirValue x) {
  return coopvecBuildCast1(m->b, "arith.bitcast", x, m->i);
}

static inline MlirValue floatOf(const Math *m, MlirValue bits) {
  return coopvecBuildCast1(m->b, "arith.bitcast", bits, m->f);
}

/// c[0] + c[1] x + ... + c[n-1] x^(n-1), by Horner's rule with fmas.
MlirValue mathHorner(const Math *m, MlirValue x, const float *c, int n);

/// The sign bit of x (as i32: 0 or INT32_MIN) and |x|.
MlirValue mathSignBit(const Math *m, MlirValue x);
MlirValue mathAbs(const Math *m, MlirValue x);
/// x with `sign` (a sign bit from mathSignBit) xor-ed into its sign.
MlirValue mathFlipSign(const Math *m, MlirValue x, MlirValue sign);

/// Fast2Sum: s + e = x + y exactly, s = x + y rounded, when |x| >= |y| or
/// x = 0.
MlirValue mathFastTwoSum(const Math *m, MlirValue x, MlirValue y, MlirValue *e);
/// 2Sum: the same without the condition on the magnitudes (6 operations).
MlirValue mathTwoSum(const Math *m, MlirValue x, MlirValue y, MlirValue *e);

/// 2^(z + zLo) for any f32 z, |zLo| at most half an ulp of z (0 where z is
/// not finite), with the error of e^x: the exp code on
/// r = (z - round(z) + zLo) ln 2 carried as hi + lo. Exp.c.
MlirValue mathExp2Extended(const Math *m, MlirValue z, MlirValue zLo);
/// e^(x + tail) for any f32 x (NaN, +-inf, overflow and underflow included);
/// `tail` (NULL: 0) is far below x's ulp. Exp.c.
MlirValue mathExpWithTail(const Math *m, MlirValue x, MlirValue tail);
/// 2^(x + tail) on the same terms. Exp.c.
MlirValue mathExp2WithTail(const Math *m, MlirValue x, MlirValue tail);

/// ln 2 and 2 / ln 2 as f32 hi + lo (the f32 nearest and the f32 nearest
/// the rest): bench/math-coefficients.py.
#define MATH_LN2_HI 0x1.62e43p-1f
#define MATH_LN2_LO -0x1.05c61p-29f
#define MATH_TWO_OVER_LN2_HI 0x1.715476p+1f
#define MATH_TWO_OVER_LN2_LO 0x1.4ae0cp-25f

#endif // COOPVEC_LIB_MATH_MATHBUILDER_H
