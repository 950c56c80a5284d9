//===- AutodiffControlFlow.c - coopvec-autodiff: scf.if, for, switch -----===//
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

#include <mlir-c/BuiltinAttributes.h>
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
  if (mlirOperationEqual(inner, c->op))
    return MlirWalkResultAdvance; // its own operands (inits) are not captures
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

MlirValue *coopvecADCollectCaptures(CoopvecAutodiff *ad, MlirOperation op,
                                    intptr_t *count) {
  Captures c = {ad, op, NULL, 0, 0};
  mlirOperationWalk(op, collectCaptures, &c, MlirWalkPreOrder);
  *count = c.count;
  return c.values;
}

MlirType coopvecADAdjointType(MlirValue value) {
  MlirType type = mlirValueGetType(value);
  if (!mlirTypeIsAVector(type))
    return type;
  return coopvecVecTypeGet(mlirTypeGetContext(type),
                           mlirShapedTypeGetDimSize(type, 0),
                           mlirShapedTypeGetElementType(type));
}

MlirValue coopvecADAdjointOrZero(CoopvecAutodiff *ad, MlirValue value) {
  MlirValue adjoint = coopvecADAdjoint(ad, value);
  if (!mlirValueIsNull(adjoint))
    return adjoint;
  MlirType type = coopvecADAdjointType(value);
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
    yields[k] = coopvecADAdjointOrZero(ad, c->values[k]);
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
    types[k] = coopvecADAdjointType(c.values[k]);
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

//===----------------------------------------------------------------------===//
// scf.index_switch: a chain of reverse branches
//===----------------------------------------------------------------------===//
//
// scf.index_switch %s case c_1 {R_1} ... case c_N {R_N} default {D} is
// reversed like an scf.if with N + 1 branches: a chain of scf.if on the
// recomputed `%s == c_i`, whose innermost else reverses the default. Each
// thread runs the reverse of the one region it took. A chain rather than
// an scf.index_switch because every target lowers scf.if directly (the
// SPIR-V path would turn a switch into the same chain).

/// What the reverse branches of one index_switch share.
typedef struct SwitchReverse {
  MlirOperation op;
  const MlirValue *dys;
  const Captures *c;
  const MlirType *types;
  MlirValue *saved;
} SwitchReverse;

/// Reverses case `i` and the ones after it (the default last) into
/// `builder`; returns the captures' adjoints in `yields`.
static bool reverseCases(CoopvecAutodiff *ad, const SwitchReverse *s,
                         intptr_t i, CoopvecBuilder *builder,
                         MlirValue *yields) {
  if (i == mlirOperationGetNumRegions(s->op) - 1)
    return reverseBranch(ad, mlirOperationGetRegion(s->op, 0), builder, s->dys,
                         s->c, yields, s->saved);
  MlirAttribute cases = mlirOperationGetAttributeByName(
      s->op, mlirStringRefCreateFromCString("cases"));
  MlirValue value =
      coopvecBuildIndexConstant(builder, mlirDenseI64ArrayGetElement(cases, i));
  MlirValue taken = coopvecBuildCmpI(
      builder, COOPVEC_CMPI_EQ,
      coopvecADClone(ad, mlirOperationGetOperand(s->op, 0)), value);
  CoopvecIfElse branch =
      coopvecBuildIfElse(builder, taken, s->c->count, s->types);
  MlirValue *inner = calloc((size_t)(2 * s->c->count + 1), sizeof(MlirValue));
  if (!inner)
    abort();
  bool ok = reverseBranch(ad, mlirOperationGetRegion(s->op, 1 + i),
                          &branch.then, s->dys, s->c, inner, s->saved) &&
            reverseCases(ad, s, i + 1, &branch.otherwise, inner + s->c->count);
  if (ok) {
    coopvecFinishIfElse(&branch, inner, inner + s->c->count);
    for (intptr_t k = 0; k < s->c->count; ++k)
      yields[k] = mlirOperationGetResult(branch.op, k);
  }
  free(inner);
  return ok;
}

bool coopvecADBackwardSwitch(CoopvecAutodiff *ad, MlirOperation op) {
  Captures c = {ad, op, NULL, 0, 0};
  mlirOperationWalk(op, collectCaptures, &c, MlirWalkPreOrder);
  intptr_t numResults = mlirOperationGetNumResults(op);
  MlirValue *buffer =
      calloc((size_t)(numResults + 2 * c.count + 1), sizeof(MlirValue));
  MlirType *types = calloc((size_t)c.count + 1, sizeof(MlirType));
  if (!buffer || !types)
    abort();
  MlirValue *dys = buffer, *yields = buffer + numResults;
  for (intptr_t j = 0; j < numResults; ++j)
    dys[j] = coopvecADAdjoint(ad, mlirOperationGetResult(op, j));
  for (intptr_t k = 0; k < c.count; ++k)
    types[k] = coopvecADAdjointType(c.values[k]);
  SwitchReverse s = {op, dys, &c, types, yields + c.count};
  CoopvecBuilder builder = ad->b;
  bool ok = reverseCases(ad, &s, 0, &builder, yields);
  if (ok)
    for (intptr_t k = 0; k < c.count; ++k)
      coopvecADAccumulate(ad, c.values[k], yields[k]);
  free(buffer);
  free(types);
  free(c.values);
  return ok;
}

//===----------------------------------------------------------------------===//
// scf.for: recomputation
//===----------------------------------------------------------------------===//
//
// %r = scf.for %i = lb to ub step s iter_args(%v = init) { body }: with n
// the trip count (per thread), reverse iteration kk (k = n - 1 - kk)
// recomputes the state v_k by running the body k times from init (an
// inner scf.for), recomputes the body at i = lb + k s on v_k, seeds its
// yielded values with v̄_(k+1), applies the rules in reverse and carries
// v̄_k and the captures' adjoints to the next reverse iteration. O(n^2)
// body evaluations, no memory (docs/autodiff.md, "Loops").

static MlirValue intConstant(CoopvecAutodiff *ad, MlirType type, int64_t v) {
  return coopvecBuildIntConstant(&ad->b, type, v);
}

static MlirValue intOp(CoopvecAutodiff *ad, const char *name, MlirValue a,
                       MlirValue b) {
  return coopvecBuildBinaryOp(&ad->b, name, a, b);
}

/// The trip count of scf.for lb to ub step s: ceil((ub - lb) / s) when
/// s > 0 and ub > lb, else 0 (docs/dialect.md).
static MlirValue tripCount(CoopvecAutodiff *ad, MlirValue lb, MlirValue ub,
                           MlirValue step) {
  MlirType type = mlirValueGetType(lb);
  MlirValue zero = intConstant(ad, type, 0);
  MlirValue runs = intOp(ad, "arith.andi",
                         coopvecBuildCmpI(&ad->b, COOPVEC_CMPI_SGT, step, zero),
                         coopvecBuildCmpI(&ad->b, COOPVEC_CMPI_SGT, ub, lb));
  MlirValue count =
      intOp(ad, "arith.ceildivsi", intOp(ad, "arith.subi", ub, lb), step);
  return coopvecBuildSelect(&ad->b, runs, count, zero);
}

/// The varied iter_args of the forward loop `op` (their positions).
static intptr_t variedIterArgs(CoopvecAutodiff *ad, MlirOperation op,
                               intptr_t *positions) {
  intptr_t count = 0;
  for (intptr_t j = 0; j < mlirOperationGetNumResults(op); ++j)
    if (coopvecADIsVaried(ad, mlirOperationGetResult(op, j)))
      positions[count++] = j;
  return count;
}

/// Recomputes the body of forward loop `op` at induction value `iv` on the
/// iter_args `args` into the current block; returns nothing (the clones
/// of the body's values are recorded).
static void recomputeBody(CoopvecAutodiff *ad, MlirOperation op, MlirValue iv,
                          const MlirValue *args) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0));
  coopvecADEntry(ad, mlirBlockGetArgument(body, 0))->clone = iv;
  for (intptr_t j = 0; j < mlirOperationGetNumResults(op); ++j)
    coopvecADEntry(ad, mlirBlockGetArgument(body, 1 + j))->clone = args[j];
  coopvecADCloneOps(ad, body, ad->b.block);
}

/// The state v_k: the body run k times from the inits, in an inner loop.
static void recomputeState(CoopvecAutodiff *ad, MlirOperation op, MlirValue k,
                           MlirValue *state) {
  intptr_t numArgs = mlirOperationGetNumResults(op);
  for (intptr_t j = 0; j < numArgs; ++j)
    state[j] = coopvecADClone(ad, mlirOperationGetOperand(op, 3 + j));
  MlirValue lb = coopvecADClone(ad, mlirOperationGetOperand(op, 0));
  MlirValue step = coopvecADClone(ad, mlirOperationGetOperand(op, 2));
  MlirType type = mlirValueGetType(lb);
  CoopvecLoop inner = coopvecBuildFor(&ad->b, intConstant(ad, type, 0), k,
                                      intConstant(ad, type, 1), numArgs, state);
  CoopvecBuilder outer = ad->b;
  ad->b = inner.body;
  for (intptr_t j = 0; j < numArgs; ++j)
    state[j] = coopvecLoopIterArg(&inner, j);
  MlirValue iv = intOp(ad, "arith.addi", lb,
                       intOp(ad, "arith.muli", inner.inductionVar, step));
  recomputeBody(ad, op, iv, state);
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0));
  MlirOperation yield = mlirBlockGetTerminator(body);
  for (intptr_t j = 0; j < numArgs; ++j)
    state[j] = coopvecADClone(ad, mlirOperationGetOperand(yield, j));
  inner.body = ad->b;
  coopvecFinishFor(&inner, numArgs, state);
  ad->b = outer;
  for (intptr_t j = 0; j < numArgs; ++j)
    state[j] = mlirOperationGetResult(inner.op, j);
}

/// The slots of one reverse loop: adjoints carried for the varied
/// iter_args, then for the captures.
typedef struct LoopSlots {
  intptr_t *varied; // positions of the varied iter_args
  intptr_t numVaried;
  MlirValue *carried; // numVaried + captures
  MlirValue *state;   // v_k, one per iter_arg
} LoopSlots;

/// One reverse iteration, inside the reverse loop `loop`.
static bool reverseIteration(CoopvecAutodiff *ad, MlirOperation op,
                             CoopvecLoop *loop, MlirValue n, const Captures *c,
                             LoopSlots *slots) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0));
  MlirType type = mlirValueGetType(n);
  MlirValue k = intOp(ad, "arith.subi",
                      intOp(ad, "arith.subi", n, intConstant(ad, type, 1)),
                      loop->inductionVar);
  coopvecADRestoreSnapshots(ad, op); // the local arrays at the loop's entry
  ++ad->stateDepth;
  recomputeState(ad, op, k, slots->state);
  --ad->stateDepth;
  MlirValue lb = coopvecADClone(ad, mlirOperationGetOperand(op, 0));
  MlirValue step = coopvecADClone(ad, mlirOperationGetOperand(op, 2));
  MlirValue iv = intOp(ad, "arith.addi", lb, intOp(ad, "arith.muli", k, step));
  recomputeBody(ad, op, iv, slots->state);
  for (intptr_t k2 = 0; k2 < c->count; ++k2)
    coopvecADEntry(ad, c->values[k2])->adjoint =
        coopvecLoopIterArg(loop, slots->numVaried + k2);
  MlirOperation yield = mlirBlockGetTerminator(body);
  for (intptr_t v = 0; v < slots->numVaried; ++v) {
    intptr_t j = slots->varied[v];
    coopvecADEntry(ad, mlirBlockGetArgument(body, 1 + j))->adjoint =
        (MlirValue){NULL};
    coopvecADAccumulate(ad, mlirOperationGetOperand(yield, j),
                        coopvecLoopIterArg(loop, v));
  }
  if (!coopvecADBackwardBlock(ad, body))
    return false;
  for (intptr_t v = 0; v < slots->numVaried; ++v)
    slots->carried[v] = coopvecADAdjointOrZero(
        ad, mlirBlockGetArgument(body, 1 + slots->varied[v]));
  for (intptr_t k2 = 0; k2 < c->count; ++k2)
    slots->carried[slots->numVaried + k2] =
        coopvecADAdjointOrZero(ad, c->values[k2]);
  return true;
}

bool coopvecADBackwardFor(CoopvecAutodiff *ad, MlirOperation op) {
  Captures c = {ad, op, NULL, 0, 0};
  mlirOperationWalk(op, collectCaptures, &c, MlirWalkPreOrder);
  intptr_t numArgs = mlirOperationGetNumResults(op);
  LoopSlots slots = {calloc((size_t)numArgs + 1, sizeof(intptr_t)), 0,
                     calloc((size_t)(numArgs + c.count + 1), sizeof(MlirValue)),
                     calloc((size_t)numArgs + 1, sizeof(MlirValue))};
  if (!slots.varied || !slots.carried || !slots.state)
    abort();
  slots.numVaried = variedIterArgs(ad, op, slots.varied);
  for (intptr_t v = 0; v < slots.numVaried; ++v)
    slots.carried[v] =
        coopvecADAdjointOrZero(ad, mlirOperationGetResult(op, slots.varied[v]));
  for (intptr_t k = 0; k < c.count; ++k)
    slots.carried[slots.numVaried + k] =
        coopvecADAdjointOrZero(ad, c.values[k]);
  MlirValue lb = coopvecADClone(ad, mlirOperationGetOperand(op, 0));
  MlirValue n =
      tripCount(ad, lb, coopvecADClone(ad, mlirOperationGetOperand(op, 1)),
                coopvecADClone(ad, mlirOperationGetOperand(op, 2)));
  MlirType type = mlirValueGetType(n);
  intptr_t numCarried = slots.numVaried + c.count;
  CoopvecLoop loop =
      coopvecBuildFor(&ad->b, intConstant(ad, type, 0), n,
                      intConstant(ad, type, 1), numCarried, slots.carried);
  CoopvecBuilder outer = ad->b;
  ad->b = loop.body;
  bool ok = reverseIteration(ad, op, &loop, n, &c, &slots);
  loop.body = ad->b;
  ad->b = outer;
  if (ok) {
    coopvecFinishFor(&loop, numCarried, slots.carried);
    for (intptr_t v = 0; v < slots.numVaried; ++v)
      coopvecADAccumulate(ad, mlirOperationGetOperand(op, 3 + slots.varied[v]),
                          mlirOperationGetResult(loop.op, v));
    // The captures' adjoints were carried through the loop from their
    // values before it: the results replace them.
    for (intptr_t k = 0; k < c.count; ++k)
      coopvecADEntry(ad, c.values[k])->adjoint =
          mlirOperationGetResult(loop.op, slots.numVaried + k);
  }
  free(slots.varied);
  free(slots.carried);
  free(slots.state);
  free(c.values);
  return ok;
}
