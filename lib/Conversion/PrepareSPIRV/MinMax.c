//===- MinMax.c - IEEE arith.maximumf / minimumf for SPIR-V ---------------===//
//
// arith.maximumf / minimumf propagate NaN and order -0 < +0
// (docs/dialect.md). MLIR 22's arith-to-spirv makes them `GL.FMax` /
// `GL.FMin` with selects for NaN operands, but GLSL leaves the sign of
// max(-0, +0) to the driver: lavapipe gave -0 for maximumf(+0, -0). So
// each becomes compares and selects whose every case is exact:
//
//   r = a > b ? a : b                 (minimumf: a < b)
//   r = a == b ? bits(a) & bits(b) : r (minimumf: |): equal values have
//                                      equal bits, except +-0, where AND
//                                      keeps +0 and OR keeps -0
//   r = isnan(a) ? a : isnan(b) ? b : r
//
// (ordered compares: with a NaN operand the first two give b, which the
// last corrects). Every op works on scalars and on vectors alike.
//
//===----------------------------------------------------------------------===//

#include "Conversion/PrepareSPIRV/PrepareSPIRV.h"

#include "Dialect/Verifier.h"
#include "IR/UpstreamBuilders.h"
#include "Support/Alloc.h"

#include "coopvec-c/Support.h"

#include <mlir-c/BuiltinTypes.h>

#include <stdlib.h>

typedef struct MinMaxOps {
  MlirOperation *ops;
  intptr_t count, capacity;
} MinMaxOps;

static MlirWalkResult collectMinMax(MlirOperation op, void *userData) {
  MinMaxOps *list = userData;
  if (coopvecOpIsNamed(op, "arith.maximumf") ||
      coopvecOpIsNamed(op, "arith.minimumf")) {
    list->ops = coopvecGrowArray(list->ops, &list->capacity, list->count + 1,
                                 sizeof(MlirOperation));
    list->ops[list->count++] = op;
  }
  return MlirWalkResultAdvance;
}

/// The integer type of `type`'s width (vectors keep their shape).
static MlirType bitsType(MlirType type) {
  MlirType element = coopvecElementTypeOf(type);
  unsigned width = mlirFloatTypeGetWidth(element);
  return coopvecWithElementType(
      type, mlirIntegerTypeGet(mlirTypeGetContext(type), width));
}

static MlirValue expand(CoopvecBuilder *b, MlirValue x, MlirValue y,
                        bool maximum) {
  MlirType type = mlirValueGetType(x);
  MlirType bits = bitsType(type);
  MlirValue wins =
      coopvecBuildCmpF(b, maximum ? COOPVEC_CMPF_OGT : COOPVEC_CMPF_OLT, x, y);
  MlirValue r = coopvecBuildSelect(b, wins, x, y);
  MlirValue xBits = coopvecBuildCast1(b, "arith.bitcast", x, bits);
  MlirValue yBits = coopvecBuildCast1(b, "arith.bitcast", y, bits);
  MlirValue both = coopvecBuildBinaryOp(b, maximum ? "arith.andi" : "arith.ori",
                                        xBits, yBits);
  MlirValue equal = coopvecBuildCmpF(b, COOPVEC_CMPF_OEQ, x, y);
  MlirValue bothF = coopvecBuildCast1(b, "arith.bitcast", both, type);
  r = coopvecBuildSelect(b, equal, bothF, r);
  MlirValue yNaN = coopvecBuildCmpF(b, COOPVEC_CMPF_UNO, y, y);
  r = coopvecBuildSelect(b, yNaN, y, r);
  MlirValue xNaN = coopvecBuildCmpF(b, COOPVEC_CMPF_UNO, x, x);
  return coopvecBuildSelect(b, xNaN, x, r);
}

void coopvecExpandMinMax(MlirOperation kernel) {
  MinMaxOps list = {NULL, 0, 0};
  mlirOperationWalk(kernel, collectMinMax, &list, MlirWalkPreOrder);
  for (intptr_t i = 0; i < list.count; ++i) {
    MlirOperation op = list.ops[i];
    CoopvecBuilder b = coopvecBuilderBefore(op, mlirOperationGetLocation(op));
    MlirValue r = expand(&b, mlirOperationGetOperand(op, 0),
                         mlirOperationGetOperand(op, 1),
                         coopvecOpIsNamed(op, "arith.maximumf"));
    mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(op, 0), r);
    mlirOperationDestroy(op);
  }
  free(list.ops);
}
