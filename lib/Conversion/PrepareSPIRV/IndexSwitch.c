//===- IndexSwitch.c - scf.index_switch as a chain of scf.if --------------===//
//
// MLIR 22's SCF-to-SPIR-V patterns convert scf.if, scf.for and scf.while
// but not scf.index_switch ("failed to legalize operation
// 'scf.index_switch'"), and no upstream pass turns one into structured ops
// the conversion knows (convert-scf-to-cf makes a cf.switch, whose blocks
// SPIR-V's structured control flow cannot take). So each switch becomes a
// chain of scf.if on `selector == case`, in the order of its cases, the
// default in the innermost else:
//
//   %r = scf.index_switch %s case 2 {A} case 5 {B} default {D}
//   ->
//   %r = scf.if (%s == 2) {A} else {
//     %r1 = scf.if (%s == 5) {B} else {D}
//     scf.yield %r1
//   }
//
// The case regions move into the ifs as they are (their scf.yield ends an
// scf.if region too). Case values are distinct, so at most one condition
// holds, as in the switch. A switch without cases is its default region,
// inlined.
//
//===----------------------------------------------------------------------===//

#include "Conversion/PrepareSPIRV/PrepareSPIRV.h"

#include "Dialect/Verifier.h"
#include "IR/UpstreamBuilders.h"
#include "Support/Alloc.h"

#include "coopvec-c/Support.h"

#include <mlir-c/BuiltinAttributes.h>

#include <stdlib.h>

typedef struct Switches {
  MlirOperation *ops;
  intptr_t count, capacity;
} Switches;

static MlirWalkResult collectSwitch(MlirOperation op, void *userData) {
  Switches *list = userData;
  if (coopvecOpIsNamed(op, "scf.index_switch")) {
    list->ops = coopvecGrowArray(list->ops, &list->capacity, list->count + 1,
                                 sizeof(MlirOperation));
    list->ops[list->count++] = op;
  }
  return MlirWalkResultAdvance;
}

/// The switch's result types, in a growable array the caller frees.
static MlirType *resultTypes(MlirOperation op) {
  intptr_t n = mlirOperationGetNumResults(op), capacity = 0;
  MlirType *types =
      coopvecGrowArray(NULL, &capacity, n ? n : 1, sizeof(MlirType));
  for (intptr_t i = 0; i < n; ++i)
    types[i] = mlirValueGetType(mlirOperationGetResult(op, i));
  return types;
}

/// Moves the ops of `region`'s block before `op`; returns its terminator
/// (the scf.yield), still in the region.
static MlirOperation inlineBefore(MlirRegion region, MlirOperation op) {
  MlirBlock block = mlirRegionGetFirstBlock(region);
  MlirOperation yield = mlirBlockGetTerminator(block);
  for (MlirOperation inner = mlirBlockGetFirstOperation(block);
       !mlirOperationEqual(inner, yield);
       inner = mlirBlockGetFirstOperation(block))
    mlirOperationMoveBefore(inner, op);
  return yield;
}

static void replaceResults(MlirOperation op, MlirOperation with,
                           bool operands) {
  for (intptr_t i = 0; i < mlirOperationGetNumResults(op); ++i)
    mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(op, i),
                                  operands ? mlirOperationGetOperand(with, i)
                                           : mlirOperationGetResult(with, i));
}

/// `scf.if (selector == cases[i])` with case region i + 1 as its then
/// region, built by `b`; its else region holds the rest of the chain.
static MlirOperation buildChain(CoopvecBuilder *b, MlirOperation op, intptr_t i,
                                const MlirType *types) {
  MlirAttribute cases = mlirOperationGetAttributeByName(
      op, mlirStringRefCreateFromCString("cases"));
  intptr_t numCases = mlirDenseArrayGetNumElements(cases);
  intptr_t numResults = mlirOperationGetNumResults(op);
  MlirValue selector = mlirOperationGetOperand(op, 0);
  MlirValue value =
      coopvecBuildIndexConstant(b, mlirDenseI64ArrayGetElement(cases, i));
  MlirValue equal = coopvecBuildCmpI(b, COOPVEC_CMPI_EQ, selector, value);
  CoopvecIfElse branch = coopvecBuildIfElse(b, equal, numResults, types);
  mlirRegionTakeBody(mlirOperationGetRegion(branch.op, 0),
                     mlirOperationGetRegion(op, 1 + i));
  if (i + 1 == numCases) {
    mlirRegionTakeBody(mlirOperationGetRegion(branch.op, 1),
                       mlirOperationGetRegion(op, 0));
    return branch.op;
  }
  MlirOperation rest = buildChain(&branch.otherwise, op, i + 1, types);
  intptr_t capacity = 0;
  MlirValue *values = coopvecGrowArray(
      NULL, &capacity, numResults ? numResults : 1, sizeof(MlirValue));
  for (intptr_t r = 0; r < numResults; ++r)
    values[r] = mlirOperationGetResult(rest, r);
  coopvecBuild0(&branch.otherwise, "scf.yield", numResults, values, 0, NULL);
  free(values);
  return branch.op;
}

static void lowerSwitch(MlirOperation op) {
  MlirAttribute cases = mlirOperationGetAttributeByName(
      op, mlirStringRefCreateFromCString("cases"));
  if (mlirDenseArrayGetNumElements(cases) == 0) {
    replaceResults(op, inlineBefore(mlirOperationGetRegion(op, 0), op), true);
  } else {
    CoopvecBuilder b = coopvecBuilderBefore(op, mlirOperationGetLocation(op));
    MlirType *types = resultTypes(op);
    replaceResults(op, buildChain(&b, op, 0, types), false);
    free(types);
  }
  mlirOperationDestroy(op);
}

void coopvecLowerIndexSwitches(MlirOperation kernel) {
  Switches list = {NULL, 0, 0};
  mlirOperationWalk(kernel, collectSwitch, &list, MlirWalkPreOrder);
  for (intptr_t i = 0; i < list.count; ++i)
    lowerSwitch(list.ops[i]);
  free(list.ops);
}
