//===- Walk.c - The walk over a per-thread function's region tree ---------===//
//
// Ops are lowered in order, block by block; a region op (scf.if, for,
// while, index_switch) lowers its blocks through coopvecLowerNestedBlock
// (ControlFlow.c). Liveness follows the region tree: a value dies at the
// op of its *defining* block that uses it last, counting a use inside a
// nested region as a use by the region op that holds it. So a value used
// inside a loop lives until the loop is done (its tile is not reused by
// an op of the body, which runs again), and a value defined in a region
// dies at that region's end at the latest.
//
//===----------------------------------------------------------------------===//

#include "Conversion/PerThread/PerThread.h"

#include "Dialect/Accesses.h"
#include "Dialect/Verifier.h"

#include "coopvec-c/Support.h"

#include <mlir-c/BuiltinAttributes.h>

#include <stdint.h>
#include <stdlib.h>

//===----------------------------------------------------------------------===//
// Liveness
//===----------------------------------------------------------------------===//

static void defineIn(CoopvecPerThread *p, MlirValue value, MlirBlock block) {
  coopvecPointerMapInsert(&p->definingBlock, value.ptr,
                          (intptr_t)block.ptr); // NOLINT
}

/// Numbers the ops of `block` and of the blocks nested in them, and records
/// where each value is defined.
static void numberBlock(CoopvecPerThread *p, MlirBlock block) {
  for (intptr_t i = 0; i < mlirBlockGetNumArguments(block); ++i)
    defineIn(p, mlirBlockGetArgument(block, i), block);
  intptr_t index = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(block);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    coopvecPointerMapInsert(&p->opIndices, op.ptr, index++);
    for (intptr_t i = 0; i < mlirOperationGetNumResults(op); ++i)
      defineIn(p, mlirOperationGetResult(op, i), block);
    for (intptr_t r = 0; r < mlirOperationGetNumRegions(op); ++r)
      for (MlirBlock nested =
               mlirRegionGetFirstBlock(mlirOperationGetRegion(op, r));
           !mlirBlockIsNull(nested); nested = mlirBlockGetNextInRegion(nested))
        numberBlock(p, nested);
  }
}

static MlirBlock definingBlockOf(const CoopvecPerThread *p, MlirValue value) {
  intptr_t block = coopvecPointerMapFind(&p->definingBlock, value.ptr);
  return (MlirBlock){block < 0 ? NULL : (void *)block}; // NOLINT
}

/// The ancestor of `op` (or `op`) that lies in `block`, or a null op.
static MlirOperation ancestorIn(MlirOperation op, MlirBlock block) {
  while (!mlirOperationIsNull(op) &&
         !mlirBlockEqual(mlirOperationGetBlock(op), block))
    op = mlirOperationGetParentOperation(op);
  return op;
}

static MlirWalkResult recordUses(MlirOperation op, void *userData) {
  CoopvecPerThread *p = userData;
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); ++i) {
    MlirValue operand = mlirOperationGetOperand(op, i);
    MlirBlock block = definingBlockOf(p, operand);
    if (mlirBlockIsNull(block))
      continue; // defined outside the function (the batched arguments)
    MlirOperation user = ancestorIn(op, block);
    intptr_t index = coopvecPointerMapFind(&p->opIndices, user.ptr);
    if (index > coopvecPointerMapFind(&p->lastUses, operand.ptr))
      coopvecPointerMapInsert(&p->lastUses, operand.ptr, index);
  }
  return MlirWalkResultAdvance;
}

static void computeLiveness(CoopvecPerThread *p, MlirOperation func,
                            MlirBlock body) {
  numberBlock(p, body);
  mlirOperationWalk(func, recordUses, p, MlirWalkPreOrder);
}

bool coopvecValueDiesHere(const CoopvecPerThread *p, MlirValue value) {
  return mlirBlockEqual(definingBlockOf(p, value), p->block) &&
         coopvecPointerMapFind(&p->lastUses, value.ptr) == p->opIndex;
}

//===----------------------------------------------------------------------===//
// Releasing tiles
//===----------------------------------------------------------------------===//

typedef struct Dying {
  CoopvecPerThread *p;
  CoopvecPointerMap seen; // each value released once
} Dying;

static void releaseIfDying(Dying *d, MlirValue value) {
  if (coopvecPointerMapFind(&d->seen, value.ptr) >= 0 ||
      !coopvecValueDiesHere(d->p, value))
    return;
  coopvecPointerMapInsert(&d->seen, value.ptr, 1);
  coopvecReleaseValue(d->p, value);
}

static MlirWalkResult releaseOperands(MlirOperation op, void *userData) {
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); ++i)
    releaseIfDying(userData, mlirOperationGetOperand(op, i));
  return MlirWalkResultAdvance;
}

/// After `op` is lowered: the tiles of the values whose last use it is
/// (used by it or inside its regions), of its unused results, and scratch
/// tiles become free.
static void releaseAfter(CoopvecPerThread *p, MlirOperation op) {
  Dying dying = {p, {0}};
  mlirOperationWalk(op, releaseOperands, &dying, MlirWalkPreOrder);
  coopvecPointerMapFree(&dying.seen);
  for (intptr_t i = 0; i < mlirOperationGetNumResults(op); ++i) {
    MlirValue result = mlirOperationGetResult(op, i);
    if (coopvecPointerMapFind(&p->lastUses, result.ptr) < 0)
      coopvecReleaseValue(p, result);
  }
  coopvecReleaseScratch(p);
}

/// At the end of a nested block: its values used by its terminator die.
static void releaseBlock(CoopvecPerThread *p, MlirBlock block) {
  MlirOperation terminator = mlirBlockGetTerminator(block);
  p->opIndex = coopvecPointerMapFind(&p->opIndices, terminator.ptr);
  Dying dying = {p, {0}};
  releaseOperands(terminator, &dying);
  coopvecPointerMapFree(&dying.seen);
}

//===----------------------------------------------------------------------===//
// The walk
//===----------------------------------------------------------------------===//

bool coopvecLowerConstruction(CoopvecPerThread *p, MlirOperation op,
                              CoopvecOpId id);
bool coopvecLowerElementwiseOp(CoopvecPerThread *p, MlirOperation op);
bool coopvecLowerLoad(CoopvecPerThread *p, MlirOperation op);
bool coopvecLowerMatrixView(CoopvecPerThread *p, MlirOperation op);

/// Every op of Ops.def has a case here: the shared layer's own, or the
/// target's hook (-Wswitch checks that none is missing).
static bool lowerCoopvecOp(CoopvecPerThread *p, MlirOperation op,
                           const CoopvecOpInfo *info) {
  const CoopvecThreadMapping *m = p->mapping;
  switch (info->id) {
  case CoopvecOpFromElements:
  case CoopvecOpSplat:
  case CoopvecOpUnpack:
  case CoopvecOpFromVector:
  case CoopvecOpToVector:
  case CoopvecOpCast:
    return coopvecLowerConstruction(p, op, info->id);
  case CoopvecOpAdd:
  case CoopvecOpSub:
  case CoopvecOpMul:
  case CoopvecOpMin:
  case CoopvecOpMax:
  case CoopvecOpStep:
  case CoopvecOpFma:
  case CoopvecOpNeg:
  case CoopvecOpExp2:
  case CoopvecOpLog2:
  case CoopvecOpTanh:
    return coopvecLowerElementwiseOp(p, op);
  case CoopvecOpLoad:
  case CoopvecOpMaskedLoad:
    return coopvecTransferIsVarying(p, op)
               ? coopvecLowerVaryingTransfer(p, op)
               : coopvecLowerUniformTransfer(p, op, coopvecLowerLoad);
  case CoopvecOpMatrixView:
    return coopvecLowerMatrixView(p, op);
  case CoopvecOpStore:
  case CoopvecOpMaskedStore:
    return coopvecTransferIsVarying(p, op)
               ? coopvecLowerVaryingTransfer(p, op)
               : coopvecLowerUniformTransfer(p, op, m->lowerStore);
  case CoopvecOpMatvec:
    return m->lowerMatvec(p, op);
  case CoopvecOpOuterProductAccumulate:
    return m->lowerOuterProduct(p, op);
  case CoopvecOpReduceSumAccumulate:
    return coopvecTransferIsVarying(p, op)
               ? coopvecLowerVaryingTransfer(p, op)
               : coopvecLowerUniformTransfer(p, op, m->lowerReduceSum);
  case CoopvecOpCount:
    break;
  }
  coopvecEmitOpError(op, "is not supported by %s", m->passName);
  return false;
}

static bool isRegionOp(MlirOperation op) {
  return coopvecOpIsNamed(op, "scf.if") || coopvecOpIsNamed(op, "scf.for") ||
         coopvecOpIsNamed(op, "scf.while") ||
         coopvecOpIsNamed(op, "scf.index_switch");
}

static bool isMemrefAccess(MlirOperation op) {
  return coopvecOpIsNamed(op, "memref.load") ||
         coopvecOpIsNamed(op, "memref.store") ||
         coopvecOpIsNamed(op, "memref.atomic_rmw") ||
         coopvecOpIsNamed(op, "memref.alloca");
}

static bool lowerOp(CoopvecPerThread *p, MlirOperation op) {
  if (coopvecPointerMapFind(&p->loweredAhead, op.ptr) >= 0)
    return true;
  const CoopvecOpInfo *info = coopvecLookupOp(op);
  if (info)
    return lowerCoopvecOp(p, op, info);
  if (isRegionOp(op))
    return coopvecLowerControlFlow(p, op);
  if (isMemrefAccess(op))
    return coopvecLowerMemrefOp(p, op);
  return coopvecLowerScalarOp(p, op);
}

/// Lowers the ops of `block` but its terminator at `p->body`. The values of
/// a nested block die with it; the function body's live on to the target's
/// use of the results.
static bool lowerOps(CoopvecPerThread *p, MlirBlock block, bool nested) {
  MlirBlock savedBlock = p->block;
  int64_t savedIndex = p->opIndex;
  p->block = block;
  p->opIndex = 0;
  bool ok = true;
  MlirOperation next;
  for (MlirOperation op = mlirBlockGetFirstOperation(block);
       ok && !mlirOperationIsNull(op); op = next, ++p->opIndex) {
    next = mlirOperationGetNextInBlock(op);
    if (mlirOperationIsNull(next))
      break; // the terminator is the region op's (or the target's)
    MlirLocation saved = p->body.location;
    p->body.location = mlirOperationGetLocation(op);
    // A moved op leaves the block: its liveness was computed before.
    ok = lowerOp(p, op);
    p->body.location = saved;
    if (ok) {
      p->opIndex = coopvecPointerMapFind(&p->opIndices, op.ptr);
      releaseAfter(p, op);
    }
  }
  if (ok && nested)
    releaseBlock(p, block);
  p->block = savedBlock;
  p->opIndex = savedIndex;
  return ok;
}

bool coopvecLowerNestedBlock(CoopvecPerThread *p, MlirBlock block) {
  return lowerOps(p, block, true);
}

/// The operand of a memory access that the engine would evaluate, or null
/// for other ops.
static MlirValue accessOffset(MlirOperation op) {
  if (coopvecOpIs(op, CoopvecOpLoad) || coopvecOpIs(op, CoopvecOpMaskedLoad) ||
      coopvecOpIsNamed(op, "memref.load"))
    return mlirOperationGetOperand(op, 1);
  if (coopvecOpIs(op, CoopvecOpStore) ||
      coopvecOpIs(op, CoopvecOpMaskedStore) ||
      coopvecOpIs(op, CoopvecOpReduceSumAccumulate) ||
      coopvecOpIsNamed(op, "memref.store") ||
      coopvecOpIsNamed(op, "memref.atomic_rmw"))
    return mlirOperationGetOperand(op, 2);
  return (MlirValue){NULL};
}

static MlirWalkResult classifyAccess(MlirOperation op, void *userData) {
  CoopvecPerThread *p = userData;
  MlirValue offset = accessOffset(op);
  bool memref = coopvecOpIsNamed(op, "memref.load") ||
                coopvecOpIsNamed(op, "memref.store") ||
                coopvecOpIsNamed(op, "memref.atomic_rmw");
  // memref accesses of rank 1 only (local arrays are never prechecked).
  if (!mlirValueIsNull(offset) &&
      (!memref || mlirOperationGetNumOperands(op) ==
                      (coopvecOpIsNamed(op, "memref.load") ? 2 : 3)) &&
      coopvecAccessIsPrechecked(op, offset))
    coopvecPointerMapInsert(&p->prechecked, op.ptr, 1);
  return MlirWalkResultAdvance;
}

void coopvecPerThreadAnalyze(CoopvecPerThread *p, MlirOperation func) {
  coopvecAnalyzeUniformity(func, &p->uniformity);
  mlirOperationWalk(func, classifyAccess, p, MlirWalkPreOrder);
}

bool coopvecPerThreadLowerBlock(CoopvecPerThread *p, MlirBlock block) {
  MlirOperation func = mlirBlockGetParentOperation(block);
  computeLiveness(p, func, block);
  return lowerOps(p, block, false);
}

void coopvecPerThreadBeginBlock(CoopvecPerThread *p, MlirBlock block) {
  computeLiveness(p, mlirBlockGetParentOperation(block), block);
  p->block = block;
}

bool coopvecPerThreadLowerOp(CoopvecPerThread *p, MlirOperation op) {
  p->opIndex = coopvecPointerMapFind(&p->opIndices, op.ptr);
  MlirLocation saved = p->body.location;
  p->body.location = mlirOperationGetLocation(op);
  bool ok = lowerOp(p, op);
  p->body.location = saved;
  if (ok)
    releaseAfter(p, op);
  return ok;
}

void coopvecPerThreadKeepAlive(CoopvecPerThread *p, MlirValue value) {
  coopvecPointerMapInsert(&p->lastUses, value.ptr, INTPTR_MAX);
}
