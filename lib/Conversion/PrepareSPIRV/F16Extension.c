//===- F16Extension.c - f16 values widened where no driver narrows them ---===//
//
// f32 arithmetic on f16 values must see the f16 values: the f16 fmas of
// F16Fma.c, the f16 remf of the math library (Fmod.c), every f16 op the
// math library computes in f32. NVIDIA's Vulkan driver (580, on an H200)
// folds extf(truncf(y)) to y, dropping the rounding to f16: the program
//
//   a = truncf(x0), b = truncf(x1): f16;  truncf((extf(a) * extf(a) +
//   extf(b)) - extf(b))
//
// gave 525 of 1029 results that differ from the f16 inputs' and are those
// of x0 * x0 + x1 - x1 in f32 (and 256 of 1029 f16 fmas fma(a, 1000 a, b)
// were off), whatever the float controls asked. An integer step between
// the two conversions, which no compiler can see through, keeps the
// rounding:
//
//   extf(x) -> extf(bitcast(bitcast(x : i16) | z)),
//   z = trunci(n >>u 31) : i16
//
// with n the kernel's first integer or index argument (the thread count of
// the kernels convert-coopvec-to-gpu makes, below 2^31): z is 0 at run
// time, so x keeps every bit (signed zeros, subnormals, infinities and
// NaNs), but no compiler can prove it. It costs one integer or per
// extension (none in cooperative-matrix matvecs, which do not extend).
// Kernels without an integer argument are left as they are.
//
//===----------------------------------------------------------------------===//

#include "Conversion/PrepareSPIRV/PrepareSPIRV.h"

#include "IR/UpstreamBuilders.h"
#include "Support/Alloc.h"

#include "coopvec-c/Support.h"

#include <mlir-c/BuiltinTypes.h>

#include <stdlib.h>

typedef struct Extensions {
  MlirOperation *ops;
  intptr_t count, capacity;
} Extensions;

static bool isF16Extension(MlirOperation op) {
  if (!coopvecOpIsNamed(op, "arith.extf"))
    return false;
  MlirType from = mlirValueGetType(mlirOperationGetOperand(op, 0));
  MlirType to = mlirValueGetType(mlirOperationGetResult(op, 0));
  return mlirTypeIsAF16(coopvecElementTypeOf(from)) &&
         mlirTypeIsAF32(coopvecElementTypeOf(to));
}

static MlirWalkResult collectExtension(MlirOperation op, void *userData) {
  Extensions *list = userData;
  if (isF16Extension(op)) {
    list->ops = coopvecGrowArray(list->ops, &list->capacity, list->count + 1,
                                 sizeof(MlirOperation));
    list->ops[list->count++] = op;
  }
  return MlirWalkResultAdvance;
}

/// The kernel's first integer or index argument, or a null value.
static MlirValue opaqueSource(MlirBlock entry) {
  for (intptr_t i = 0; i < mlirBlockGetNumArguments(entry); ++i) {
    MlirValue arg = mlirBlockGetArgument(entry, i);
    MlirType type = mlirValueGetType(arg);
    if (mlirTypeIsAIndex(type) || mlirTypeIsAInteger(type))
      return arg;
  }
  return (MlirValue){NULL};
}

/// An i16 0 at run time, computed from `n` (below 2^31) at the entry's
/// start.
static MlirValue runtimeZero(MlirBlock entry, MlirValue n) {
  MlirOperation first = mlirBlockGetFirstOperation(entry);
  CoopvecBuilder b =
      coopvecBuilderBefore(first, mlirOperationGetLocation(first));
  MlirContext ctx = mlirTypeGetContext(mlirValueGetType(n));
  MlirType i32 = mlirIntegerTypeGet(ctx, 32);
  MlirType type = mlirValueGetType(n);
  if (mlirTypeIsAIndex(type))
    n = coopvecBuildCast1(&b, "arith.index_cast", n, i32);
  else if (mlirIntegerTypeGetWidth(type) > 32)
    n = coopvecBuildCast1(&b, "arith.trunci", n, i32);
  else if (mlirIntegerTypeGetWidth(type) < 32)
    n = coopvecBuildCast1(&b, "arith.extui", n, i32);
  MlirValue high = coopvecBuildBinaryOp(&b, "arith.shrui", n,
                                        coopvecBuildIntConstant(&b, i32, 31));
  return coopvecBuildCast1(&b, "arith.trunci", high,
                           mlirIntegerTypeGet(ctx, 16));
}

static void hide(MlirOperation extension, MlirValue zero) {
  CoopvecBuilder b =
      coopvecBuilderBefore(extension, mlirOperationGetLocation(extension));
  MlirValue narrow = mlirOperationGetOperand(extension, 0);
  MlirType type = mlirValueGetType(narrow);
  MlirType bitsType = coopvecWithElementType(
      type, mlirIntegerTypeGet(mlirTypeGetContext(type), 16));
  MlirValue z = mlirTypeIsAVector(type)
                    ? coopvecBuildBroadcast(&b, zero, bitsType)
                    : zero;
  MlirValue bits = coopvecBuildCast1(&b, "arith.bitcast", narrow, bitsType);
  MlirValue kept = coopvecBuildBinaryOp(&b, "arith.ori", bits, z);
  mlirOperationSetOperand(extension, 0,
                          coopvecBuildCast1(&b, "arith.bitcast", kept, type));
}

void coopvecHideF16Extensions(MlirOperation kernel) {
  MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(kernel, 0));
  MlirValue n = opaqueSource(entry);
  if (mlirValueIsNull(n))
    return;
  Extensions list = {NULL, 0, 0};
  mlirOperationWalk(kernel, collectExtension, &list, MlirWalkPreOrder);
  if (list.count) {
    MlirValue zero = runtimeZero(entry, n);
    for (intptr_t i = 0; i < list.count; ++i)
      hide(list.ops[i], zero);
  }
  free(list.ops);
}
