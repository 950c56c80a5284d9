//===- F16Fma.c - f16 math.fma rounded once -------------------------------===//
//
// `math.fma` rounds once (docs/dialect.md), but Vulkan does not require
// `GLSL Fma` to be fused, and lavapipe's is not: an f16 fma there rounds
// the product to f16 first, which is far off near cancellation
// (fma(a, 1000 a, b) near -b). In f32 an f16 product is exact (11 + 11
// bits), so fused or not, `s = a * b + c` in f32 is the exact sum rounded
// once, to f32. Rounding s again to f16 could round twice; rounding to
// odd first makes the second rounding correct (24 >= 11 + 2 bits): the
// exact error of the sum, e = (a * b + c) - s, comes from Knuth's TwoSum,
// and where e != 0 and s is even, s moves one f32 ulp toward e (its bit
// pattern +-1: the odd neighbor between s and the exact sum). So
//
//   p = a * b, s = p + c, t = s - p, e = (p - (s - t)) + (c - t)
//   s' = e != 0 && bits(s) even ? bits(s) + (sign(e) == sign(s) ? 1 : -1)
//                               : s
//   fma(a, b, c) = truncf(s')
//
// exact for every f16 triple: no f32 step overflows (|p| < 2^32), s is 0
// only when the exact sum is (it is a multiple of 2^-48), and with an
// infinite or NaN operand e is NaN, which `one` reads as no error. Every
// op works on scalars and vectors alike. NoContraction (coopvec-finish-
// spirv) keeps the driver from fusing or reassociating TwoSum.
//
//===----------------------------------------------------------------------===//

#include "Conversion/PrepareSPIRV/PrepareSPIRV.h"

#include "Dialect/Verifier.h"
#include "IR/UpstreamBuilders.h"
#include "Support/Alloc.h"

#include "coopvec-c/Support.h"

#include <mlir-c/BuiltinTypes.h>

#include <stdlib.h>

typedef struct Fmas {
  MlirOperation *ops;
  intptr_t count, capacity;
} Fmas;

static MlirWalkResult collectF16Fma(MlirOperation op, void *userData) {
  Fmas *list = userData;
  if (coopvecOpIsNamed(op, "math.fma") &&
      mlirTypeIsAF16(coopvecElementTypeOf(
          mlirValueGetType(mlirOperationGetResult(op, 0))))) {
    list->ops = coopvecGrowArray(list->ops, &list->capacity, list->count + 1,
                                 sizeof(MlirOperation));
    list->ops[list->count++] = op;
  }
  return MlirWalkResultAdvance;
}

static MlirValue sub(CoopvecBuilder *b, MlirValue x, MlirValue y) {
  return coopvecBuildBinaryOp(b, "arith.subf", x, y);
}

/// `s` rounded to odd: one f32 ulp toward `e` where e != 0 and s is even.
static MlirValue roundToOdd(CoopvecBuilder *b, MlirValue s, MlirValue e,
                            MlirType f32, MlirType i32) {
  MlirValue sBits = coopvecBuildCast1(b, "arith.bitcast", s, i32);
  MlirValue eBits = coopvecBuildCast1(b, "arith.bitcast", e, i32);
  MlirValue zero = coopvecBuildIntConstantLike(b, i32, 0);
  MlirValue one = coopvecBuildIntConstantLike(b, i32, 1);
  MlirValue minusOne = coopvecBuildIntConstantLike(b, i32, -1);
  MlirValue zeroF = coopvecBuildFloatConstantLike(b, f32, 0.0);
  MlirValue inexact = coopvecBuildCmpF(b, COOPVEC_CMPF_ONE, e, zeroF);
  MlirValue low = coopvecBuildBinaryOp(b, "arith.andi", sBits, one);
  MlirValue even = coopvecBuildCmpI(b, COOPVEC_CMPI_EQ, low, zero);
  MlirValue signs = coopvecBuildBinaryOp(b, "arith.xori", sBits, eBits);
  MlirValue sameSign = coopvecBuildCmpI(b, COOPVEC_CMPI_SGE, signs, zero);
  MlirValue step = coopvecBuildSelect(b, sameSign, one, minusOne);
  MlirValue moved = coopvecBuildBinaryOp(b, "arith.addi", sBits, step);
  MlirValue adjust = coopvecBuildBinaryOp(b, "arith.andi", inexact, even);
  MlirValue bits = coopvecBuildSelect(b, adjust, moved, sBits);
  return coopvecBuildCast1(b, "arith.bitcast", bits, f32);
}

static void expandF16Fma(MlirOperation op) {
  CoopvecBuilder b = coopvecBuilderBefore(op, mlirOperationGetLocation(op));
  MlirType type = mlirValueGetType(mlirOperationGetResult(op, 0));
  MlirContext ctx = mlirTypeGetContext(type);
  MlirType f32 = coopvecWithElementType(type, mlirF32TypeGet(ctx));
  MlirType i32 = coopvecWithElementType(type, mlirIntegerTypeGet(ctx, 32));
  MlirValue x[3];
  for (int i = 0; i < 3; ++i)
    x[i] = coopvecBuildCast1(&b, "arith.extf", mlirOperationGetOperand(op, i),
                             f32);
  MlirValue p = coopvecBuildBinaryOp(&b, "arith.mulf", x[0], x[1]);
  MlirValue s = coopvecBuildBinaryOp(&b, "arith.addf", p, x[2]);
  MlirValue t = sub(&b, s, p);
  // One op per statement: C leaves the order of arguments unspecified.
  MlirValue sMinusT = sub(&b, s, t);
  MlirValue pError = sub(&b, p, sMinusT);
  MlirValue cError = sub(&b, x[2], t);
  MlirValue e = coopvecBuildBinaryOp(&b, "arith.addf", pError, cError);
  MlirValue odd = roundToOdd(&b, s, e, f32, i32);
  MlirValue result = coopvecBuildCast1(&b, "arith.truncf", odd, type);
  mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(op, 0), result);
  mlirOperationDestroy(op);
}

void coopvecExpandF16Fma(MlirOperation kernel) {
  Fmas list = {NULL, 0, 0};
  mlirOperationWalk(kernel, collectF16Fma, &list, MlirWalkPreOrder);
  for (intptr_t i = 0; i < list.count; ++i)
    expandF16Fma(list.ops[i]);
  free(list.ops);
}
