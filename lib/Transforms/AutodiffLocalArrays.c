//===- AutodiffLocalArrays.c - coopvec-autodiff: local arrays -------------===//
//
// The reverse of memref.load / memref.store on a local array (memref.alloca)
// that holds values of the differentiated inputs (docs/autodiff.md, "Local
// arrays"). Its adjoint array Ā is a second alloca of the same type,
// zero when it is made (dialect.md: a new local array is zero), built at
// the first reverse access, which is the last forward one. In reverse
// order:
//
//   y = A[i]     Ā[i] += ȳ
//   A[i] = v     v̄ += Ā[i]; Ā[i] = 0   (the overwritten element had no
//                                       further uses)
//
// The forward's loads and stores are recomputed in order by the clone of
// the body, so the rules read the values the forward read; inside control
// flow, snapshots make the recomputations read them too
// (AutodiffSnapshots.c).
//
//===----------------------------------------------------------------------===//

#include "Transforms/Autodiff.h"

#include "IR/UpstreamBuilders.h"

#include "coopvec-c/Support.h"

#include <mlir-c/BuiltinTypes.h>

#include <stdlib.h>

bool coopvecADIsLocalAccess(CoopvecAutodiff *ad, MlirOperation op) {
  intptr_t array;
  if (coopvecOpIsNamed(op, "memref.load"))
    array = 0;
  else if (coopvecOpIsNamed(op, "memref.store"))
    array = 1;
  else
    return false;
  MlirValue memref = mlirOperationGetOperand(op, array);
  return coopvecADIsLocalArray(memref) && coopvecADIsVaried(ad, memref);
}

MlirValue coopvecADAdjointArray(CoopvecAutodiff *ad, MlirValue array) {
  CoopvecADValue *entry = coopvecADEntry(ad, array);
  if (mlirValueIsNull(entry->gradient)) {
    MlirOperation alloca = mlirOperationClone(mlirOpResultGetOwner(array));
    mlirBlockAppendOwnedOperation(ad->b.block, alloca);
    entry = coopvecADEntry(ad, array);
    entry->gradient = mlirOperationGetResult(alloca, 0);
  }
  return entry->gradient;
}

/// memref.load / memref.store `value` at `array`[indices of `op` from
/// operand `first`], recomputed.
static MlirValue accessAt(CoopvecAutodiff *ad, MlirOperation op, intptr_t first,
                          MlirValue array, MlirValue value) {
  intptr_t numIndices = mlirOperationGetNumOperands(op) - first;
  MlirValue *operands = calloc((size_t)numIndices + 2, sizeof(MlirValue));
  if (!operands)
    abort();
  intptr_t count = 0;
  if (!mlirValueIsNull(value))
    operands[count++] = value;
  operands[count++] = array;
  for (intptr_t i = 0; i < numIndices; ++i)
    operands[count++] =
        coopvecADClone(ad, mlirOperationGetOperand(op, first + i));
  MlirType element = mlirShapedTypeGetElementType(mlirValueGetType(array));
  MlirValue result = {NULL};
  if (mlirValueIsNull(value))
    result =
        coopvecBuild1(&ad->b, "memref.load", count, operands, element, 0, NULL);
  else
    coopvecBuild0(&ad->b, "memref.store", count, operands, 0, NULL);
  free(operands);
  return result;
}

void coopvecADBackwardLocalAccess(CoopvecAutodiff *ad, MlirOperation op,
                                  MlirValue dy) {
  bool store = coopvecOpIsNamed(op, "memref.store");
  MlirValue array = mlirOperationGetOperand(op, store ? 1 : 0);
  if (!store) {
    if (mlirValueIsNull(dy))
      return;
    MlirValue adjoint = coopvecADAdjointArray(ad, array);
    MlirValue old = accessAt(ad, op, 1, adjoint, (MlirValue){NULL});
    MlirValue sum = coopvecBuildBinaryOp(&ad->b, "arith.addf", old, dy);
    accessAt(ad, op, 1, adjoint, sum);
    return;
  }
  // Before any reverse load the adjoint array is zero: nothing flows. (A
  // region op accessing the array makes it before its reverse,
  // AutodiffSnapshots.c, since a loop's reverse revisits its stores.)
  MlirValue adjoint = coopvecADEntry(ad, array)->gradient;
  if (mlirValueIsNull(adjoint))
    return;
  MlirValue element = accessAt(ad, op, 2, adjoint, (MlirValue){NULL});
  coopvecADAccumulate(ad, mlirOperationGetOperand(op, 0), element);
  MlirType type = mlirValueGetType(element);
  accessAt(ad, op, 2, adjoint, coopvecADConstant(ad, type, 0.0));
}
