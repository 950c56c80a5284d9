//===- ZeroTripLoops.c - scf.for results when the body never runs ---------===//
//
// MLIR 22's SCF-to-SPIR-V conversion gives an scf.for's results through
// Function variables that the body's scf.yield stores and the code after
// the loop loads: a loop that runs zero times never stores them, and its
// results are whatever the variables held (lavapipe: 0) instead of the
// initial values. A per-thread trip count makes that common: with n = 0 a
// thread's `scf.for ... to %n iter_args(%v = %x)` gave 0, not x. So each
// scf.for with results runs inside
//
//   scf.if (lb < ub) { the loop; yield its results } else { yield inits }
//
// (signed, as the conversion's own header compares): when the loop runs,
// it runs at least once and stores. scf.while is not affected: the
// conversion stores its results in the header, which always runs.
//
//===----------------------------------------------------------------------===//

#include "Conversion/PrepareSPIRV/PrepareSPIRV.h"
#include "Dialect/Constants.h"

#include "Dialect/Verifier.h"
#include "IR/UpstreamBuilders.h"
#include "Support/Alloc.h"

#include "coopvec-c/Support.h"

#include <mlir-c/BuiltinAttributes.h>

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

typedef struct Loops {
  MlirOperation *ops;
  intptr_t count, capacity;
} Loops;

/// Whether `loop` may run zero times: its bounds are not constants with
/// lb < ub (the loops of a matvec, of zeroing a local array, ...).
static bool mayNotRun(MlirOperation loop) {
  int64_t lb, ub;
  return !coopvecIntegerConstant(mlirOperationGetOperand(loop, 0), &lb) ||
         !coopvecIntegerConstant(mlirOperationGetOperand(loop, 1), &ub) ||
         lb >= ub;
}

static MlirWalkResult collectLoop(MlirOperation op, void *userData) {
  Loops *list = userData;
  if (coopvecOpIsNamed(op, "scf.for") && mlirOperationGetNumResults(op) > 0 &&
      mayNotRun(op)) {
    list->ops = coopvecGrowArray(list->ops, &list->capacity, list->count + 1,
                                 sizeof(MlirOperation));
    list->ops[list->count++] = op;
  }
  return MlirWalkResultAdvance;
}

/// Moves `loop` into the then-branch of `scf.if (lb < ub)`, whose else
/// branch yields the loop's initial values.
static void guardLoop(MlirOperation loop) {
  intptr_t n = mlirOperationGetNumResults(loop);
  intptr_t valuesCapacity = 0, typesCapacity = 0;
  MlirValue *values =
      coopvecGrowArray(NULL, &valuesCapacity, 2 * n, sizeof(MlirValue));
  MlirType *types = coopvecGrowArray(NULL, &typesCapacity, n, sizeof(MlirType));
  for (intptr_t i = 0; i < n; ++i) {
    values[i] = mlirOperationGetResult(loop, i);
    values[n + i] = mlirOperationGetOperand(loop, 3 + i); // iter_args inits
    types[i] = mlirValueGetType(values[i]);
  }
  CoopvecBuilder b = coopvecBuilderBefore(loop, mlirOperationGetLocation(loop));
  MlirValue runs =
      coopvecBuildCmpI(&b, COOPVEC_CMPI_SLT, mlirOperationGetOperand(loop, 0),
                       mlirOperationGetOperand(loop, 1));
  CoopvecIfElse branch = coopvecBuildIfElse(&b, runs, n, types);
  for (intptr_t i = 0; i < n; ++i)
    mlirValueReplaceAllUsesOfWith(values[i],
                                  mlirOperationGetResult(branch.op, i));
  coopvecFinishIfElse(&branch, values, values + n);
  MlirBlock then =
      mlirRegionGetFirstBlock(mlirOperationGetRegion(branch.op, 0));
  mlirOperationMoveBefore(loop, mlirBlockGetTerminator(then));
  free(values);
  free(types);
}

void coopvecGuardZeroTripLoops(MlirOperation kernel) {
  Loops list = {NULL, 0, 0};
  mlirOperationWalk(kernel, collectLoop, &list, MlirWalkPreOrder);
  for (intptr_t i = 0; i < list.count; ++i)
    guardLoop(list.ops[i]);
  free(list.ops);
}
