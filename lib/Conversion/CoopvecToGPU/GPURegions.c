//===- GPURegions.c - Values kept in the fragment layout ------------------===//
//
// mma-regions=true: a matvec on mma.sync fragments (GPUFragmentMatvec.c)
// leaves its results where the hardware puts them, lane (g, t) of a warp
// holding rows g and g + 8 of each 16-row tile and columns 2t, 2t + 1 of
// each 8-column tile: `M` element values per lane, like a per-thread vec
// of M elements, but element e of lane l is a (row, column) of the
// fragment layout (GPUFragmentMatvec.c), not (l, e). A *cooperative region* is
// a chain of such matvecs and of the ops between them that compute element e
// from element e of their operands alone (elementwise ops and casts, with
// scalars and splats every thread agrees on): those run unchanged on the
// fragment values (the per-thread layer lowers them), and the next
// matvec's A operand is the previous one's accumulators, converted to f16
// and packed in pairs (stored by the lanes at their places of the staged
// input rows, from where the A fragments are loaded).
//
// The plan here decides which values hold the fragment layout: the
// greatest set in which
//   - a value is the result of a fragment matvec with a multiple of 16
//     outputs, or of a layout-free op whose vec operands are in the set or
//     uniform splats and whose scalar operands are uniform;
//   - every use of a value is in its block, by a layout-free op whose
//     result is in the set or as the input of a fragment matvec.
// Everything else is per-thread: a fragment matvec reads such inputs from
// the threads' staged rows and writes such results back to the threads
// (the region's boundaries: docs/execution-model.md).
//
//===----------------------------------------------------------------------===//

#include "Conversion/CoopvecToGPU/GPU.h"

#include "Support/Alloc.h"

#include "coopvec-c/Dialect.h"

#include <stdlib.h>

typedef struct RegionPlan {
  const GPUPlan *plan;
  const CoopvecUniformity *uniformity;
  /// Value -> 1 while it may hold the fragment layout, 0 once it cannot.
  CoopvecPointerMap held;
  /// The ops whose result may hold it, in the order of the walk.
  MlirOperation *ops;
  intptr_t count, capacity;
} RegionPlan;

static bool isHeld(const RegionPlan *r, MlirValue value) {
  return coopvecPointerMapFind(&r->held, value.ptr) == 1;
}

static bool isFragmentMatvec(const RegionPlan *r, MlirOperation op) {
  return coopvecPointerMapFind(&r->plan->fragmentMatvecs, op.ptr) >= 0;
}

/// Element e of the result from element e of the vec operands alone.
static bool isLayoutFree(MlirOperation op) {
  const CoopvecOpInfo *info = coopvecLookupOp(op);
  return info && (coopvecOpClassIsElementwise(info->opClass) ||
                  info->id == CoopvecOpCast);
}

/// Whether `op` computes its vec from its operands alone (no other
/// thread's values, no per-thread state).
static bool isPureVecOp(MlirOperation op) {
  const CoopvecOpInfo *info = coopvecLookupOp(op);
  return info &&
         (isLayoutFree(op) || info->id == CoopvecOpLoad ||
          info->id == CoopvecOpMaskedLoad || info->id == CoopvecOpSplat ||
          info->id == CoopvecOpFromElements);
}

/// The uniformity analysis counts every vec as varying (targets keep vecs
/// per thread); a vec made only from uniform scalars (a load at a uniform
/// offset, a splat, ...) is still the same in every thread.
bool gpuIsUniformVec(const CoopvecUniformity *uniformity, MlirValue value) {
  if (!mlirValueIsAOpResult(value) || !isPureVecOp(mlirOpResultGetOwner(value)))
    return false;
  MlirOperation op = mlirOpResultGetOwner(value);
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); ++i) {
    MlirValue operand = mlirOperationGetOperand(op, i);
    bool uniform = coopvecTypeIsAVec(mlirValueGetType(operand))
                       ? gpuIsUniformVec(uniformity, operand)
                       : !coopvecIsVarying(uniformity, operand);
    if (!uniform)
      return false;
  }
  return true;
}

/// The same value in every element and every thread.
static bool isUniformSplat(const RegionPlan *r, MlirValue value) {
  return mlirValueIsAOpResult(value) &&
         coopvecOpIs(mlirOpResultGetOwner(value), CoopvecOpSplat) &&
         gpuIsUniformVec(r->uniformity, value);
}

/// A layout-free op's operands: some vec held, the other vecs uniform
/// splats, the scalars uniform.
static bool operandsAllow(const RegionPlan *r, MlirOperation op) {
  bool someHeld = false;
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); ++i) {
    MlirValue operand = mlirOperationGetOperand(op, i);
    if (!coopvecTypeIsAVec(mlirValueGetType(operand))) {
      if (coopvecIsVarying(r->uniformity, operand))
        return false;
    } else if (isHeld(r, operand)) {
      someHeld = true;
    } else if (!isUniformSplat(r, operand)) {
      return false;
    }
  }
  return someHeld;
}

/// Every use of `value` keeps the layout: in its block, by a layout-free
/// op whose result is held, or as a fragment matvec's input.
static bool usesAllow(const RegionPlan *r, MlirValue value, MlirBlock block) {
  for (MlirOpOperand use = mlirValueGetFirstUse(value);
       !mlirOpOperandIsNull(use); use = mlirOpOperandGetNextUse(use)) {
    MlirOperation user = mlirOpOperandGetOwner(use);
    if (!mlirBlockEqual(mlirOperationGetBlock(user), block))
      return false;
    bool kept = isLayoutFree(user)
                    ? isHeld(r, mlirOperationGetResult(user, 0))
                    : isFragmentMatvec(r, user) &&
                          mlirOpOperandGetOperandNumber(use) == 1;
    if (!kept)
      return false;
  }
  return true;
}

/// The candidates: fragment matvecs and layout-free ops whose vec result
/// has a multiple of 16 elements.
static MlirWalkResult collectCandidate(MlirOperation op, void *userData) {
  RegionPlan *r = userData;
  if (mlirOperationGetNumResults(op) != 1 ||
      (!isFragmentMatvec(r, op) && !isLayoutFree(op)))
    return MlirWalkResultAdvance;
  MlirValue result = mlirOperationGetResult(op, 0);
  if (!coopvecTypeIsAVec(mlirValueGetType(result)))
    return MlirWalkResultAdvance;
  int64_t size = coopvecVecTypeGetSize(mlirValueGetType(result));
  if (size % GPU_MMA_TILE != 0)
    return MlirWalkResultAdvance;
  r->ops = coopvecGrowArray(r->ops, &r->capacity, r->count + 1,
                            sizeof(MlirOperation));
  r->ops[r->count++] = op;
  coopvecPointerMapInsert(&r->held, result.ptr, 1);
  return MlirWalkResultAdvance;
}

/// One pass over the candidates, dropping those that break a rule; false
/// when none did (the fixpoint).
static bool dropBroken(RegionPlan *r) {
  bool changed = false;
  for (intptr_t i = 0; i < r->count; ++i) {
    MlirOperation op = r->ops[i];
    MlirValue result = mlirOperationGetResult(op, 0);
    if (!isHeld(r, result))
      continue;
    bool ok = (!isLayoutFree(op) || operandsAllow(r, op)) &&
              usesAllow(r, result, mlirOperationGetBlock(op));
    if (!ok) {
      coopvecPointerMapInsert(&r->held, result.ptr, 0);
      changed = true;
    }
  }
  return changed;
}

void gpuPlanRegions(MlirOperation func, const CoopvecUniformity *uniformity,
                    GPUPlan *plan) {
  if (!plan->fragmentMatvecs.count)
    return;
  RegionPlan r = {.plan = plan, .uniformity = uniformity};
  mlirOperationWalk(func, collectCandidate, &r, MlirWalkPreOrder);
  while (dropBroken(&r))
    ;
  for (intptr_t i = 0; i < r.count; ++i) {
    MlirValue result = mlirOperationGetResult(r.ops[i], 0);
    if (isHeld(&r, result))
      coopvecPointerMapInsert(&plan->fragmentValues, result.ptr, 1);
  }
  coopvecPointerMapFree(&r.held);
  free(r.ops);
}
