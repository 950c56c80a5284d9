//===- AutodiffControlFlow.c - coopvec-autodiff: scf.if -------------------===//
//
// The reverse of an `scf.if` (docs/autodiff.md, "Control flow"): an scf.if
// on the same (recomputed) condition, whose branches reverse the forward
// branches. Each reverse branch first recomputes its forward branch (no
// tape: the values exist only for the threads that took it), seeds the
// adjoints of the values it yields with the adjoints of the if's results,
// applies the rules of its ops in reverse, and yields the adjoints it
// produced for values defined outside the if (the operands it captures).
// After the if, those are added to the outer adjoints. Gradient buffers
// are accumulated inside the branches, by the threads that took them, as
// the forward read them.
//
//===----------------------------------------------------------------------===//

#include "Transforms/Autodiff.h"

#include "IR/UpstreamBuilders.h"
#include "Support/Alloc.h"

#include "coopvec-c/Dialect.h"

#include <mlir-c/BuiltinTypes.h>

#include <stdlib.h>

/// Whether `value` is defined inside `op` (in one of its regions, at any
/// depth).
static bool isDefinedIn(MlirValue value, MlirOperation op) {
  MlirBlock block = mlirValueIsABlockArgument(value)
                        ? mlirBlockArgumentGetOwner(value)
                        : mlirOperationGetBlock(mlirOpResultGetOwner(value));
  while (!mlirBlockIsNull(block)) {
    MlirOperation parent = mlirBlockGetParentOperation(block);
    if (mlirOperationIsNull(parent))
      return false;
    if (mlirOperationEqual(parent, op))
      return true;
    block = mlirOperationGetBlock(parent);
  }
  return false;
}

/// Whether an adjoint of `value` can be yielded: vecs, builtin vectors
/// (as vecs) and float scalars carry adjoints; matrices and memrefs do
/// not (their gradients go into buffers).
static bool hasAdjointValue(MlirValue value) {
  MlirType type = mlirValueGetType(value);
  return coopvecTypeIsAVec(type) || mlirTypeIsAVector(type) ||
         mlirTypeIsAFloat(type);
}

/// The varied values defined outside the if that its ops use.
typedef struct Captures {
  CoopvecAutodiff *ad;
  MlirOperation op; // the scf.if
  MlirValue *values;
  intptr_t count, capacity;
} Captures;

static MlirWalkResult collectCaptures(MlirOperation inner, void *userData) {
  Captures *c = userData;
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(inner); ++i) {
    MlirValue v = mlirOperationGetOperand(inner, i);
    if (isDefinedIn(v, c->op) || !coopvecADIsVaried(c->ad, v) ||
        !hasAdjointValue(v))
      continue;
    bool seen = false;
    for (intptr_t k = 0; k < c->count && !seen; ++k)
      seen = mlirValueEqual(c->values[k], v);
    if (seen)
      continue;
    c->values = coopvecGrowArray(c->values, &c->capacity, c->count + 1,
                                 sizeof(MlirValue));
    c->values[c->count++] = v;
  }
  return MlirWalkResultAdvance;
}

/// The type of the adjoint of `value` (Autodiff.h): a builtin vector's is
/// the vec of its shape.
static MlirType adjointType(MlirValue value) {
  MlirType type = mlirValueGetType(value);
  if (!mlirTypeIsAVector(type))
    return type;
  return coopvecVecTypeGet(mlirTypeGetContext(type),
                           mlirShapedTypeGetDimSize(type, 0),
                           mlirShapedTypeGetElementType(type));
}

/// The adjoint of `value` accumulated so far, or a zero of its type.
static MlirValue adjointOrZero(CoopvecAutodiff *ad, MlirValue value) {
  MlirValue adjoint = coopvecADAdjoint(ad, value);
  if (!mlirValueIsNull(adjoint))
    return adjoint;
  MlirType type = adjointType(value);
  if (!coopvecTypeIsAVec(type))
    return coopvecADConstant(ad, type, 0.0);
  MlirValue zero =
      coopvecADConstant(ad, coopvecVecTypeGetElementType(type), 0.0);
  return coopvecBuildSplat(&ad->b, type, zero);
}

/// One reverse branch: recompute `region`'s block into the branch of
/// `builder`, seed the yielded values with `dys`, run the rules backwards,
/// and return in `yields` the adjoints of the captures. Outer adjoints are
/// saved in `saved` and restored.
static bool reverseBranch(CoopvecAutodiff *ad, MlirRegion region,
                          CoopvecBuilder *builder, const MlirValue *dys,
                          const Captures *c, MlirValue *yields,
                          MlirValue *saved) {
  CoopvecBuilder outer = ad->b;
  ad->b = *builder;
  for (intptr_t k = 0; k < c->count; ++k) {
    saved[k] = coopvecADAdjoint(ad, c->values[k]);
    coopvecADEntry(ad, c->values[k])->adjoint = (MlirValue){NULL};
  }
  MlirBlock block = mlirRegionGetFirstBlock(region);
  bool ok = true;
  if (!mlirBlockIsNull(block)) {
    coopvecADCloneOps(ad, block, ad->b.block);
    MlirOperation yield = mlirBlockGetTerminator(block);
    for (intptr_t j = 0; j < mlirOperationGetNumOperands(yield); ++j)
      if (!mlirValueIsNull(dys[j]))
        coopvecADAccumulate(ad, mlirOperationGetOperand(yield, j), dys[j]);
    ok = coopvecADBackwardBlock(ad, block);
  }
  for (intptr_t k = 0; k < c->count; ++k) {
    yields[k] = adjointOrZero(ad, c->values[k]);
    coopvecADEntry(ad, c->values[k])->adjoint = saved[k];
  }
  *builder = ad->b;
  ad->b = outer;
  return ok;
}

bool coopvecADBackwardIf(CoopvecAutodiff *ad, MlirOperation op) {
  Captures c = {ad, op, NULL, 0, 0};
  mlirOperationWalk(op, collectCaptures, &c, MlirWalkPreOrder);
  intptr_t numResults = mlirOperationGetNumResults(op);
  size_t slots = (size_t)(numResults + 3 * c.count + 1);
  MlirValue *buffer = calloc(slots, sizeof(MlirValue));
  MlirType *types = calloc((size_t)c.count + 1, sizeof(MlirType));
  if (!buffer || !types)
    abort();
  MlirValue *dys = buffer, *thenYields = buffer + numResults;
  MlirValue *elseYields = thenYields + c.count, *saved = elseYields + c.count;
  for (intptr_t j = 0; j < numResults; ++j)
    dys[j] = coopvecADAdjoint(ad, mlirOperationGetResult(op, j));
  for (intptr_t k = 0; k < c.count; ++k)
    types[k] = adjointType(c.values[k]);
  CoopvecIfElse branch = coopvecBuildIfElse(
      &ad->b, coopvecADClone(ad, mlirOperationGetOperand(op, 0)), c.count,
      types);
  bool ok = reverseBranch(ad, mlirOperationGetRegion(op, 0), &branch.then, dys,
                          &c, thenYields, saved) &&
            reverseBranch(ad, mlirOperationGetRegion(op, 1), &branch.otherwise,
                          dys, &c, elseYields, saved);
  if (ok) {
    coopvecFinishIfElse(&branch, thenYields, elseYields);
    for (intptr_t k = 0; k < c.count; ++k)
      coopvecADAccumulate(ad, c.values[k],
                          mlirOperationGetResult(branch.op, k));
  }
  free(buffer);
  free(types);
  free(c.values);
  return ok;
}
