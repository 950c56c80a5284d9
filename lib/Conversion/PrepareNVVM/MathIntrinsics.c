//===- MathIntrinsics.c - Exact math ops as calls of LLVM intrinsics ------===//
//
// convert-gpu-to-nvvm marks the LLVM dialect's llvm.intr.floor, ceil, round,
// roundeven, fabs, copysign and sqrt illegal, because it lowers the math
// ops to libdevice calls (__nv_floorf, ...) itself, which
// gpu-module-to-binary links only where it finds a CUDA toolkit.
// coopvec-lower-to-nvvm runs convert-math-to-llvm first (for math.fma:
// lib/Pipelines/LowerToNVVM.c), so these ops reached convert-gpu-to-nvvm
// as those intrinsics and it failed ("failed to legalize operation
// 'llvm.intr.floor' that was explicitly marked illegal"; MLIR 22.1.8).
//
// As `llvm.call_intrinsic "llvm.floor"(%x)` the same LLVM intrinsic gets
// through (the LLVM dialect is legal there, that op included), and the
// NVPTX backend selects one instruction: cvt.rmi / rpi / rni / rzi, abs,
// copysign, sqrt.rn. All are exact or correctly rounded, and keep
// subnormals (no .ftz): the results are C's floorf, ceilf, roundf (halves
// away from zero), fabsf, copysignf, sqrtf. f16 is selected natively or
// promoted to f32 by LLVM, which is exact for these ops (sqrt rounded to
// f32 then to f16 is still correctly rounded: 24 >= 2 * 11 + 2 bits).
//
// The intrinsic's overload comes from the op's type: f16, bf16, f32, f64 or
// a 1-D vector of them. An n-D vector goes through a vector.shape_cast to
// 1-D and back (the LLVM dialect has no n-D vectors); scalable vectors are
// left alone. Fast-math flags are dropped: the ops are exact either way.
//
//===----------------------------------------------------------------------===//

#include "Conversion/PrepareNVVM/PrepareNVVM.h"

#include "IR/UpstreamBuilders.h"
#include "Support/Alloc.h"

#include "coopvec-c/Support.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>

#include <stdlib.h>

/// The math ops convert-gpu-to-nvvm cannot take and their intrinsics.
static const struct {
  const char *op, *intrinsic;
} intrinsics[] = {
    {"math.floor", "llvm.floor"}, {"math.ceil", "llvm.ceil"},
    {"math.round", "llvm.round"}, {"math.roundeven", "llvm.roundeven"},
    {"math.absf", "llvm.fabs"},   {"math.copysign", "llvm.copysign"},
    {"math.sqrt", "llvm.sqrt"},
};
enum { NUM_INTRINSICS = sizeof(intrinsics) / sizeof(intrinsics[0]) };

/// The intrinsic of `op`, or NULL where it is not one of those ops or its
/// type is a scalable vector.
static const char *intrinsicOf(MlirOperation op) {
  if (mlirOperationGetNumResults(op) != 1)
    return NULL;
  MlirType type = mlirValueGetType(mlirOperationGetResult(op, 0));
  if (mlirTypeIsAVector(type) && mlirVectorTypeIsScalable(type))
    return NULL;
  for (int i = 0; i < NUM_INTRINSICS; ++i)
    if (coopvecOpIsNamed(op, intrinsics[i].op))
      return intrinsics[i].intrinsic;
  return NULL;
}

typedef struct MathOps {
  MlirOperation *ops;
  intptr_t count, capacity;
} MathOps;

static MlirWalkResult collectMathOp(MlirOperation op, void *userData) {
  MathOps *list = userData;
  if (intrinsicOf(op)) {
    list->ops = coopvecGrowArray(list->ops, &list->capacity, list->count + 1,
                                 sizeof(MlirOperation));
    list->ops[list->count++] = op;
  }
  return MlirWalkResultAdvance;
}

/// The 1-D form of a vector type of rank > 1, else a null type.
static MlirType flatVectorType(MlirType type) {
  if (!mlirTypeIsAVector(type) || mlirShapedTypeGetRank(type) < 2)
    return (MlirType){NULL};
  int64_t size = 1;
  for (intptr_t d = 0; d < mlirShapedTypeGetRank(type); ++d)
    size *= mlirShapedTypeGetDimSize(type, d);
  return mlirVectorTypeGet(1, &size, mlirShapedTypeGetElementType(type));
}

/// `llvm.call_intrinsic "name"(operands) : type` with no operand bundles.
static MlirValue buildCallIntrinsic(CoopvecBuilder *b, const char *name,
                                    intptr_t numOperands,
                                    const MlirValue *operands, MlirType type) {
  MlirContext ctx = b->context;
  int32_t segments[] = {(int32_t)numOperands, 0};
  MlirNamedAttribute attrs[] = {
      coopvecNamedAttr(
          ctx, "intrin",
          mlirStringAttrGet(ctx, mlirStringRefCreateFromCString(name))),
      coopvecNamedAttr(ctx, "op_bundle_sizes",
                       mlirDenseI32ArrayGet(ctx, 0, NULL)),
      coopvecNamedAttr(ctx, "operandSegmentSizes",
                       mlirDenseI32ArrayGet(ctx, 2, segments)),
  };
  return coopvecBuild1(b, "llvm.call_intrinsic", numOperands, operands, type,
                       sizeof(attrs) / sizeof(attrs[0]), attrs);
}

/// Replaces `op` by the call of `intrinsic` on its operands (made 1-D
/// first where they are n-D vectors).
static void rewriteMathOp(MlirOperation op, const char *intrinsic) {
  CoopvecBuilder b = coopvecBuilderBefore(op, mlirOperationGetLocation(op));
  MlirValue result = mlirOperationGetResult(op, 0);
  MlirType type = mlirValueGetType(result);
  MlirType flat = flatVectorType(type);
  MlirValue operands[2];
  intptr_t numOperands = mlirOperationGetNumOperands(op);
  for (intptr_t i = 0; i < numOperands && i < 2; ++i) {
    operands[i] = mlirOperationGetOperand(op, i);
    if (!mlirTypeIsNull(flat))
      operands[i] =
          coopvecBuildCast1(&b, "vector.shape_cast", operands[i], flat);
  }
  MlirValue call = buildCallIntrinsic(&b, intrinsic, numOperands, operands,
                                      mlirTypeIsNull(flat) ? type : flat);
  if (!mlirTypeIsNull(flat))
    call = coopvecBuildCast1(&b, "vector.shape_cast", call, type);
  mlirValueReplaceAllUsesOfWith(result, call);
  mlirOperationDestroy(op);
}

void coopvecRewriteMathIntrinsics(MlirOperation gpuModule) {
  MathOps list = {NULL, 0, 0};
  mlirOperationWalk(gpuModule, collectMathOp, &list, MlirWalkPostOrder);
  for (intptr_t i = 0; i < list.count; ++i)
    rewriteMathOp(list.ops[i], intrinsicOf(list.ops[i]));
  free(list.ops);
}
