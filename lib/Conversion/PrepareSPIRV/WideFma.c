//===- WideFma.c - math.fma in a wider type, rounded once -----------------===//
//
// `math.fma` rounds once (docs/dialect.md), but Vulkan does not require
// `GLSL Fma` to be fused, and lavapipe's is not. Where the product of two
// values is exact in a wider float type W (f16 in f32: 11 + 11 <= 24 bits,
// F16Fma.c; f32 in f64: 24 + 24 <= 53 bits, F32Fma.c), fused or not,
// `s = a * b + c` in W is the exact sum rounded once, to W. Rounding s
// again to the narrow type could round twice; rounding to odd first makes
// the second rounding correct (W has at least 2 more bits than the narrow
// type): the exact error of the sum, e = (a * b + c) - s, comes from
// Knuth's TwoSum, and where e != 0 and s is even, s moves one ulp of W
// toward e (its bit pattern +-1: the odd neighbor between s and the exact
// sum). So
//
//   p = a * b, s = p + c, t = s - p, e = (p - (s - t)) + (c - t)
//   s' = e != 0 && s finite && bits(s) even
//          ? bits(s) + (sign(e) == sign(s) ? 1 : -1) : s
//   fma(a, b, c) = truncf(s')
//
// With an infinite or NaN operand s is not finite and e is NaN; s is
// tested by its exponent bits, not by comparing e, because a driver may
// assume that no value is NaN in a float width it was given no
// `SignedZeroInfNanPreserve` for (coopvec-finish-spirv asks for it on 16-
// and 32-bit floats only). Every op works on scalars and vectors alike.
// NoContraction (coopvec-finish-spirv) keeps the driver from fusing or
// reassociating TwoSum.
//
//===----------------------------------------------------------------------===//

#include "Conversion/PrepareSPIRV/PrepareSPIRV.h"

#include "IR/UpstreamBuilders.h"

#include <mlir-c/BuiltinTypes.h>

typedef struct Wide {
  CoopvecBuilder b;
  MlirType fp, integer; // W and the integer type of its width, shaped
  unsigned width;
} Wide;

static MlirValue sub(Wide *w, MlirValue x, MlirValue y) {
  return coopvecBuildBinaryOp(&w->b, "arith.subf", x, y);
}

static MlirValue intConstant(Wide *w, int64_t value) {
  return coopvecBuildIntConstantLike(&w->b, w->integer, value);
}

/// Whether `bits` (of a W value) is finite: its exponent is not all ones.
static MlirValue isFinite(Wide *w, MlirValue bits) {
  int64_t exponent =
      w->width == 64 ? INT64_C(0x7ff0000000000000) : INT64_C(0x7f800000);
  MlirValue mask = intConstant(w, exponent);
  MlirValue high = coopvecBuildBinaryOp(&w->b, "arith.andi", bits, mask);
  return coopvecBuildCmpI(&w->b, COOPVEC_CMPI_NE, high, mask);
}

/// `s` rounded to odd: one ulp toward `e` where e != 0, s is finite and s
/// is even.
static MlirValue roundToOdd(Wide *w, MlirValue s, MlirValue e) {
  CoopvecBuilder *b = &w->b;
  MlirValue sBits = coopvecBuildCast1(b, "arith.bitcast", s, w->integer);
  MlirValue eBits = coopvecBuildCast1(b, "arith.bitcast", e, w->integer);
  MlirValue zero = intConstant(w, 0);
  MlirValue one = intConstant(w, 1);
  MlirValue zeroF = coopvecBuildFloatConstantLike(b, w->fp, 0.0);
  MlirValue inexact = coopvecBuildCmpF(b, COOPVEC_CMPF_ONE, e, zeroF);
  MlirValue finite = isFinite(w, sBits);
  MlirValue low = coopvecBuildBinaryOp(b, "arith.andi", sBits, one);
  MlirValue even = coopvecBuildCmpI(b, COOPVEC_CMPI_EQ, low, zero);
  MlirValue signs = coopvecBuildBinaryOp(b, "arith.xori", sBits, eBits);
  MlirValue sameSign = coopvecBuildCmpI(b, COOPVEC_CMPI_SGE, signs, zero);
  MlirValue step = coopvecBuildSelect(b, sameSign, one, intConstant(w, -1));
  MlirValue moved = coopvecBuildBinaryOp(b, "arith.addi", sBits, step);
  MlirValue exactEnough =
      coopvecBuildBinaryOp(b, "arith.andi", inexact, finite);
  MlirValue adjust = coopvecBuildBinaryOp(b, "arith.andi", exactEnough, even);
  MlirValue bits = coopvecBuildSelect(b, adjust, moved, sBits);
  return coopvecBuildCast1(b, "arith.bitcast", bits, w->fp);
}

void coopvecReplaceByWideFma(MlirOperation fma, MlirType wideElement) {
  MlirType type = mlirValueGetType(mlirOperationGetResult(fma, 0));
  Wide w = {.b = coopvecBuilderBefore(fma, mlirOperationGetLocation(fma)),
            .fp = coopvecWithElementType(type, wideElement),
            .width = mlirFloatTypeGetWidth(wideElement)};
  w.integer = coopvecWithElementType(
      type, mlirIntegerTypeGet(mlirTypeGetContext(type), w.width));
  MlirValue x[3];
  for (int i = 0; i < 3; ++i)
    x[i] = coopvecBuildCast1(&w.b, "arith.extf",
                             mlirOperationGetOperand(fma, i), w.fp);
  MlirValue p = coopvecBuildBinaryOp(&w.b, "arith.mulf", x[0], x[1]);
  MlirValue s = coopvecBuildBinaryOp(&w.b, "arith.addf", p, x[2]);
  MlirValue t = sub(&w, s, p);
  // One op per statement: C leaves the order of arguments unspecified.
  MlirValue sMinusT = sub(&w, s, t);
  MlirValue pError = sub(&w, p, sMinusT);
  MlirValue cError = sub(&w, x[2], t);
  MlirValue e = coopvecBuildBinaryOp(&w.b, "arith.addf", pError, cError);
  MlirValue odd = roundToOdd(&w, s, e);
  MlirValue result = coopvecBuildCast1(&w.b, "arith.truncf", odd, type);
  mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(fma, 0), result);
  mlirOperationDestroy(fma);
}
