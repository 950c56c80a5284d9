//===- ElementLoopFusion.c - Consecutive element loops run as one ---------===//
//
// A tiled vec op is an element loop that reads its operands' rows from
// their tiles and writes its result's rows to a tile (Elementwise.c). A
// chain of such ops, say the derivative of a ReLU (max, two steps, sub,
// fma, mul), is then one loop per op, each loading and storing every row:
// on the CPU that is a load and a store per lane vector and op, more than
// the arithmetic. So consecutive pure elementwise ops of the same element
// count share one loop:
//
//   - An op joins the open loop when nothing but pure scalar ops (arith,
//     math, broadcasts: no memory access) was emitted at `p->body` since
//     the loop; the loop is moved below those, so its body sees them. No
//     memory access between the ops means reading row i of every operand
//     in one iteration reads what the separate loops would have read: row
//     i of an elementwise op's result depends on row i of its operands
//     only, and a tile reused in place is read at row i before written.
//   - A value defined in the loop is read by later ops of the loop as its
//     row (an SSA value of the iteration), not from its tile.
//   - Its row's store is erased once every use of the value is an op of
//     the loop: nothing else reads the tile.
//
// Loads, stores and the cooperative ops never join: they end the chain.
//
//===----------------------------------------------------------------------===//

#include "Conversion/PerThread/PerThread.h"

#include "Support/Alloc.h"

#include "coopvec-c/Support.h"

#include <stdlib.h>
#include <string.h>

/// The ops whose element loop may be shared: no memory access, and row i
/// of the result from row i of the operands.
static bool isFusable(MlirOperation op) {
  const CoopvecOpInfo *info = coopvecLookupOp(op);
  return info && (coopvecOpClassIsElementwise(info->opClass) ||
                  info->id == CoopvecOpCast);
}

/// A lowered op the loop may move below: no regions, no memory access.
static bool isPureScalarOp(MlirOperation op) {
  if (mlirOperationGetNumRegions(op) != 0)
    return false;
  MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
  return (name.length > 6 && strncmp(name.data, "arith.", 6) == 0) ||
         (name.length > 5 && strncmp(name.data, "math.", 5) == 0) ||
         coopvecOpIsNamed(op, "vector.broadcast") ||
         coopvecOpIsNamed(op, "vector.splat");
}

/// Whether the ops between `loop` and `b`'s insertion point (in the same
/// block) are all pure scalar ops; sets `*last` to the last of them (or
/// `loop`).
static bool onlyPureOpsBetween(MlirOperation loop, const CoopvecBuilder *b,
                               MlirOperation *last) {
  if (!mlirBlockEqual(mlirOperationGetBlock(loop), b->block))
    return false;
  *last = loop;
  for (MlirOperation op = mlirOperationGetNextInBlock(loop);;
       op = mlirOperationGetNextInBlock(op)) {
    if (mlirOperationIsNull(op))
      return mlirOperationIsNull(b->before);
    if (!mlirOperationIsNull(b->before) && mlirOperationEqual(op, b->before))
      return true;
    if (!isPureScalarOp(op))
      return false;
    *last = op;
  }
}

static void clearFusedLoop(CoopvecFusedLoop *f) {
  coopvecPointerMapFree(&f->ops);
  coopvecPointerMapFree(&f->rows);
  free(f->defined);
  memset(f, 0, sizeof(*f));
}

void coopvecFreeFusedLoop(CoopvecPerThread *p) { clearFusedLoop(&p->fused); }

/// Whether `op` may join the open loop; moves the loop below the pure ops
/// emitted since.
static bool joinOpenLoop(CoopvecPerThread *p, MlirOperation op,
                         intptr_t count) {
  CoopvecFusedLoop *f = &p->fused;
  MlirOperation last;
  if (mlirOperationIsNull(f->loop) || f->count != count || !isFusable(op) ||
      !onlyPureOpsBetween(f->loop, &p->body, &last))
    return false;
  if (!mlirOperationEqual(last, f->loop))
    mlirOperationMoveAfter(f->loop, last);
  return true;
}

CoopvecBuilder coopvecElementLoopFor(CoopvecPerThread *p, MlirOperation op,
                                     intptr_t count, MlirValue *index) {
  CoopvecFusedLoop *f = &p->fused;
  if (!joinOpenLoop(p, op, count)) {
    clearFusedLoop(f);
    CoopvecLoop loop = coopvecElementLoop(p, count);
    coopvecFinishFor(&loop, 0, NULL);
    if (isFusable(op)) {
      f->loop = loop.op;
      f->count = count;
      f->index = loop.inductionVar;
    }
    *index = loop.inductionVar;
    return coopvecBuilderBefore(mlirBlockGetTerminator(loop.block),
                                p->body.location);
  }
  *index = f->index;
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(f->loop, 0));
  return coopvecBuilderBefore(mlirBlockGetTerminator(body), p->body.location);
}

MlirValue coopvecFusedRow(const CoopvecPerThread *p, MlirValue value,
                          MlirValue index) {
  const CoopvecFusedLoop *f = &p->fused;
  if (mlirOperationIsNull(f->loop) || !mlirValueEqual(index, f->index))
    return (MlirValue){NULL};
  intptr_t i = coopvecPointerMapFind(&f->rows, value.ptr);
  return i < 0 ? (MlirValue){NULL} : f->defined[i].row;
}

/// The op right before `terminator` in its block (null: none).
static MlirOperation opBefore(MlirOperation terminator) {
  MlirOperation previous = {NULL};
  for (MlirOperation op =
           mlirBlockGetFirstOperation(mlirOperationGetBlock(terminator));
       !mlirOperationEqual(op, terminator);
       op = mlirOperationGetNextInBlock(op))
    previous = op;
  return previous;
}

/// Whether every use of `value` is by an op lowered into the loop.
static bool onlyUsedInLoop(const CoopvecFusedLoop *f, MlirValue value) {
  for (MlirOpOperand use = mlirValueGetFirstUse(value);
       !mlirOpOperandIsNull(use); use = mlirOpOperandGetNextUse(use))
    if (coopvecPointerMapFind(&f->ops, mlirOpOperandGetOwner(use).ptr) < 0)
      return false;
  return true;
}

/// Erases the row stores no op outside the loop reads.
static void eraseDeadStores(CoopvecFusedLoop *f) {
  for (intptr_t i = 0; i < f->numDefined; ++i) {
    CoopvecFusedValue *v = &f->defined[i];
    if (v->numStores == 0 || !onlyUsedInLoop(f, v->source))
      continue;
    for (int s = 0; s < v->numStores; ++s)
      mlirOperationDestroy(v->stores[s]);
    v->numStores = 0;
  }
}

/// Records `row`, the value of `op`'s result in the loop, and the stores
/// the target emitted for it after `marker` (null: from the body's start).
static void recordRow(CoopvecFusedLoop *f, MlirOperation op, MlirValue row,
                      MlirOperation marker, MlirOperation terminator) {
  f->defined = coopvecGrowArray(f->defined, &f->definedCapacity,
                                f->numDefined + 1, sizeof(CoopvecFusedValue));
  CoopvecFusedValue *v = &f->defined[f->numDefined];
  memset(v, 0, sizeof(*v));
  v->source = mlirOperationGetResult(op, 0);
  v->row = row;
  MlirOperation emitted =
      mlirOperationIsNull(marker)
          ? mlirBlockGetFirstOperation(mlirOperationGetBlock(terminator))
          : mlirOperationGetNextInBlock(marker);
  for (; !mlirOperationEqual(emitted, terminator);
       emitted = mlirOperationGetNextInBlock(emitted)) {
    if (mlirOperationGetNumResults(emitted) != 0)
      continue;
    if (v->numStores == COOPVEC_FUSED_MAX_STORES) {
      v->numStores = 0; // more than expected: keep them all
      break;
    }
    v->stores[v->numStores++] = emitted;
  }
  coopvecPointerMapInsert(&f->ops, op.ptr, 1);
  coopvecPointerMapInsert(&f->rows, v->source.ptr, f->numDefined++);
}

void coopvecStoreElementRow(CoopvecPerThread *p, MlirOperation op,
                            CoopvecBuilder *body, MlirValue tile,
                            MlirValue index, MlirValue row) {
  CoopvecFusedLoop *f = &p->fused;
  bool fused = !mlirOperationIsNull(f->loop) && mlirValueEqual(index, f->index);
  MlirOperation marker = fused ? opBefore(body->before) : (MlirOperation){NULL};
  p->mapping->storeRow(p, body, tile, index, row);
  if (!fused)
    return;
  recordRow(f, op, row, marker, body->before);
  eraseDeadStores(f);
}
