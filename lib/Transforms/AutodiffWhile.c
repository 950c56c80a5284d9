//===- AutodiffWhile.c - coopvec-autodiff: scf.while ----------------------===//
//
// The reverse of an scf.while by recomputation (docs/autodiff.md, "Loops:
// scf.while"), the strategy of scf.for with a counted trip count:
//
//   %r = scf.while (%s = init) { before(%s); scf.condition(%c) %x }
//                              do { after(%x); scf.yield %s' }
//
// runs `before` n + 1 times and `after` n times, n per thread. The gradient
// counts n with a copy of the loop that carries a counter, then
//   - reverses the last `before` (whose %x are the results) on the state
//     s_n, recomputed by running before and after n times from init;
//   - runs n reverse iterations; iteration kk reverses forward iteration
//     k = n - 1 - kk: it recomputes s_k (k rounds from init), then before
//     and after on it, seeds the values `after` yields with s̄_(k+1),
//     reverses `after`, gives the adjoints of its arguments to the values
//     scf.condition forwarded, reverses `before`, and carries s̄_k.
// O(n^2) region evaluations, no memory, as for scf.for.
//
//===----------------------------------------------------------------------===//

#include "Transforms/Autodiff.h"

#include "IR/UpstreamBuilders.h"

#include <mlir-c/BuiltinTypes.h>

#include <stdlib.h>

static MlirBlock beforeBlock(MlirOperation op) {
  return mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0));
}

static MlirBlock afterBlock(MlirOperation op) {
  return mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 1));
}

typedef struct Forget {
  CoopvecAutodiff *ad;
  MlirOperation op;
} Forget;

static void forgetValue(CoopvecAutodiff *ad, MlirValue value) {
  coopvecADEntry(ad, value)->adjoint = (MlirValue){NULL};
}

static MlirWalkResult forgetNested(MlirOperation inner, void *userData) {
  Forget *f = userData;
  if (!mlirOperationEqual(inner, f->op))
    for (intptr_t i = 0; i < mlirOperationGetNumResults(inner); ++i)
      forgetValue(f->ad, mlirOperationGetResult(inner, i));
  for (intptr_t r = 0; r < mlirOperationGetNumRegions(inner); ++r) {
    MlirBlock block = mlirRegionGetFirstBlock(mlirOperationGetRegion(inner, r));
    for (intptr_t i = 0;
         !mlirBlockIsNull(block) && i < mlirBlockGetNumArguments(block); ++i)
      forgetValue(f->ad, mlirBlockGetArgument(block, i));
  }
  return MlirWalkResultAdvance;
}

/// Zeroes the adjoints of every value defined inside `op`, at any depth:
/// `before` is reversed twice (the last one, then in the loop), and each
/// reversal must start from zero, not from the adjoints the other left in
/// its own block. (Gradient views are cached only at the function's top
/// level, AutodiffRules.c, so none is left inside.)
static void forgetRegions(CoopvecAutodiff *ad, MlirOperation op) {
  Forget f = {ad, op};
  mlirOperationWalk(op, forgetNested, &f, MlirWalkPreOrder);
}

/// Recomputes `before` on the state `s` into the current block; returns
/// the clone of the condition and the values it forwards in `x`.
static MlirValue recomputeBefore(CoopvecAutodiff *ad, MlirOperation op,
                                 const MlirValue *s, MlirValue *x) {
  MlirBlock block = beforeBlock(op);
  for (intptr_t j = 0; j < mlirBlockGetNumArguments(block); ++j)
    coopvecADEntry(ad, mlirBlockGetArgument(block, j))->clone = s[j];
  coopvecADCloneOps(ad, block, ad->b.block);
  MlirOperation condition = mlirBlockGetTerminator(block);
  for (intptr_t j = 0; j < mlirOperationGetNumResults(op); ++j)
    x[j] = coopvecADClone(ad, mlirOperationGetOperand(condition, 1 + j));
  return coopvecADClone(ad, mlirOperationGetOperand(condition, 0));
}

/// Recomputes `after` on `x` into the current block; returns the state it
/// yields in `s`.
static void recomputeAfter(CoopvecAutodiff *ad, MlirOperation op,
                           const MlirValue *x, MlirValue *s) {
  MlirBlock block = afterBlock(op);
  for (intptr_t j = 0; j < mlirBlockGetNumArguments(block); ++j)
    coopvecADEntry(ad, mlirBlockGetArgument(block, j))->clone = x[j];
  coopvecADCloneOps(ad, block, ad->b.block);
  MlirOperation yield = mlirBlockGetTerminator(block);
  for (intptr_t j = 0; j < mlirOperationGetNumOperands(yield); ++j)
    s[j] = coopvecADClone(ad, mlirOperationGetOperand(yield, j));
}

/// A block whose arguments have the types of `values` and one index more.
static MlirBlock blockWithCounter(CoopvecAutodiff *ad, intptr_t count,
                                  const MlirValue *values, MlirType *types) {
  MlirLocation *locs = calloc((size_t)count + 1, sizeof(MlirLocation));
  if (!locs)
    abort();
  for (intptr_t j = 0; j <= count; ++j) {
    types[j] =
        j < count ? mlirValueGetType(values[j]) : mlirIndexTypeGet(ad->ctx);
    locs[j] = ad->b.location;
  }
  MlirBlock block = mlirBlockCreate(count + 1, types, locs);
  free(locs);
  return block;
}

/// n: how many times the forward loop runs `after`, counted by a copy of
/// the loop that carries an index counter beside its state.
static MlirValue countIterations(CoopvecAutodiff *ad, MlirOperation op,
                                 MlirValue *x, MlirValue *s) {
  intptr_t numArgs = mlirOperationGetNumOperands(op);
  intptr_t numResults = mlirOperationGetNumResults(op);
  // The inits and a zero, then the condition and the forwarded values.
  MlirValue *operands =
      calloc((size_t)(numArgs + numResults + 2), sizeof(MlirValue));
  MlirType *types =
      calloc((size_t)(numArgs + numResults + 2), sizeof(MlirType));
  if (!operands || !types)
    abort();
  for (intptr_t j = 0; j < numArgs; ++j)
    operands[j] = coopvecADClone(ad, mlirOperationGetOperand(op, j));
  operands[numArgs] = coopvecBuildIndexConstant(&ad->b, 0);
  for (intptr_t j = 0; j < numResults; ++j)
    x[j] = coopvecADClone(ad, mlirOperationGetResult(op, j));
  MlirBlock before = blockWithCounter(ad, numArgs, operands, types);
  MlirBlock after = blockWithCounter(ad, numResults, x, types + numArgs + 1);
  MlirRegion regions[2] = {mlirRegionCreate(), mlirRegionCreate()};
  mlirRegionAppendOwnedBlock(regions[0], before);
  mlirRegionAppendOwnedBlock(regions[1], after);
  MlirOperationState state = mlirOperationStateGet(
      mlirStringRefCreateFromCString("scf.while"), ad->b.location);
  mlirOperationStateAddOperands(&state, numArgs + 1, operands);
  mlirOperationStateAddResults(&state, numResults + 1, types + numArgs + 1);
  mlirOperationStateAddOwnedRegions(&state, 2, regions);
  MlirOperation loop = mlirOperationCreate(&state);
  if (mlirOperationIsNull(loop))
    abort(); // the blocks match the forward loop's, plus the index
  mlirBlockAppendOwnedOperation(ad->b.block, loop);
  CoopvecBuilder outer = ad->b;
  ad->b = coopvecBuilderAtEnd(before, outer.location);
  for (intptr_t j = 0; j < numArgs; ++j)
    s[j] = mlirBlockGetArgument(before, j);
  operands[0] = recomputeBefore(ad, op, s, x);
  for (intptr_t j = 0; j < numResults; ++j)
    operands[1 + j] = x[j];
  operands[1 + numResults] = mlirBlockGetArgument(before, numArgs);
  coopvecBuild0(&ad->b, "scf.condition", numResults + 2, operands, 0, NULL);
  ad->b = coopvecBuilderAtEnd(after, outer.location);
  for (intptr_t j = 0; j < numResults; ++j)
    x[j] = mlirBlockGetArgument(after, j);
  recomputeAfter(ad, op, x, s);
  s[numArgs] = coopvecBuildBinaryOp(&ad->b, "arith.addi",
                                    mlirBlockGetArgument(after, numResults),
                                    coopvecBuildIndexConstant(&ad->b, 1));
  coopvecBuild0(&ad->b, "scf.yield", numArgs + 1, s, 0, NULL);
  ad->b = outer;
  free(operands);
  free(types);
  return mlirOperationGetResult(loop, numResults);
}

/// The state s_k: `before` and `after` run k times from the inits, in an
/// scf.for.
static void recomputeState(CoopvecAutodiff *ad, MlirOperation op, MlirValue k,
                           MlirValue *s, MlirValue *x) {
  intptr_t numArgs = mlirOperationGetNumOperands(op);
  ++ad->stateDepth; // nothing in it is reversed: no snapshots
  for (intptr_t j = 0; j < numArgs; ++j)
    s[j] = coopvecADClone(ad, mlirOperationGetOperand(op, j));
  CoopvecLoop loop =
      coopvecBuildFor(&ad->b, coopvecBuildIndexConstant(&ad->b, 0), k,
                      coopvecBuildIndexConstant(&ad->b, 1), numArgs, s);
  CoopvecBuilder outer = ad->b;
  ad->b = loop.body;
  for (intptr_t j = 0; j < numArgs; ++j)
    s[j] = coopvecLoopIterArg(&loop, j);
  recomputeBefore(ad, op, s, x);
  recomputeAfter(ad, op, x, s);
  loop.body = ad->b;
  coopvecFinishFor(&loop, numArgs, s);
  ad->b = outer;
  for (intptr_t j = 0; j < numArgs; ++j)
    s[j] = mlirOperationGetResult(loop.op, j);
  --ad->stateDepth;
}

/// The positions of the varied arguments of `before` (the state).
static intptr_t variedState(CoopvecAutodiff *ad, MlirOperation op,
                            intptr_t *positions) {
  MlirBlock block = beforeBlock(op);
  intptr_t count = 0;
  for (intptr_t j = 0; j < mlirBlockGetNumArguments(block); ++j)
    if (coopvecADIsVaried(ad, mlirBlockGetArgument(block, j)))
      positions[count++] = j;
  return count;
}

/// Reverses `before` (already recomputed) with the adjoints `dx` of the
/// values scf.condition forwards (null: zero).
static bool reverseBefore(CoopvecAutodiff *ad, MlirOperation op,
                          const MlirValue *dx) {
  MlirOperation condition = mlirBlockGetTerminator(beforeBlock(op));
  for (intptr_t j = 0; j < mlirOperationGetNumResults(op); ++j)
    if (!mlirValueIsNull(dx[j]))
      coopvecADAccumulate(ad, mlirOperationGetOperand(condition, 1 + j), dx[j]);
  return coopvecADBackwardBlock(ad, beforeBlock(op));
}

/// Buffers and positions of one reverse.
typedef struct WhileSlots {
  intptr_t *varied; // positions of the varied state values
  intptr_t numVaried;
  MlirValue *captures;
  intptr_t numCaptures;
  MlirValue *carried; // s̄ of the varied state, then the captures' adjoints
  MlirValue *s, *x, *dx;
} WhileSlots;

/// Collects s̄ (the adjoints of `before`'s varied arguments) and the
/// captures' adjoints into `slots->carried`.
static void collectCarried(CoopvecAutodiff *ad, MlirOperation op,
                           WhileSlots *slots) {
  for (intptr_t v = 0; v < slots->numVaried; ++v)
    slots->carried[v] = coopvecADAdjointOrZero(
        ad, mlirBlockGetArgument(beforeBlock(op), slots->varied[v]));
  for (intptr_t k = 0; k < slots->numCaptures; ++k)
    slots->carried[slots->numVaried + k] =
        coopvecADAdjointOrZero(ad, slots->captures[k]);
}

/// The last `before`, whose forwarded values are the loop's results.
static bool reverseLastBefore(CoopvecAutodiff *ad, MlirOperation op,
                              MlirValue n, WhileSlots *slots) {
  for (intptr_t j = 0; j < mlirOperationGetNumResults(op); ++j)
    slots->dx[j] = coopvecADAdjoint(ad, mlirOperationGetResult(op, j));
  coopvecADRestoreSnapshots(ad, op);
  recomputeState(ad, op, n, slots->s, slots->x);
  recomputeBefore(ad, op, slots->s, slots->x);
  if (!reverseBefore(ad, op, slots->dx))
    return false;
  collectCarried(ad, op, slots);
  return true;
}

/// Reverse iteration `kk` of the loop `loop` (forward iteration n-1-kk).
static bool reverseIteration(CoopvecAutodiff *ad, MlirOperation op,
                             CoopvecLoop *loop, MlirValue n,
                             WhileSlots *slots) {
  forgetRegions(ad, op);
  MlirValue one = coopvecBuildIndexConstant(&ad->b, 1);
  MlirValue k = coopvecBuildBinaryOp(
      &ad->b, "arith.subi", coopvecBuildBinaryOp(&ad->b, "arith.subi", n, one),
      loop->inductionVar);
  coopvecADRestoreSnapshots(ad, op); // the local arrays at the loop's entry
  recomputeState(ad, op, k, slots->s, slots->x);
  recomputeBefore(ad, op, slots->s, slots->x);
  recomputeAfter(ad, op, slots->x, slots->s);
  for (intptr_t c = 0; c < slots->numCaptures; ++c)
    coopvecADEntry(ad, slots->captures[c])->adjoint =
        coopvecLoopIterArg(loop, slots->numVaried + c);
  MlirBlock after = afterBlock(op);
  MlirOperation yield = mlirBlockGetTerminator(after);
  for (intptr_t v = 0; v < slots->numVaried; ++v)
    coopvecADAccumulate(ad, mlirOperationGetOperand(yield, slots->varied[v]),
                        coopvecLoopIterArg(loop, v));
  if (!coopvecADBackwardBlock(ad, after))
    return false;
  for (intptr_t j = 0; j < mlirOperationGetNumResults(op); ++j)
    slots->dx[j] = coopvecADAdjoint(ad, mlirBlockGetArgument(after, j));
  if (!reverseBefore(ad, op, slots->dx))
    return false;
  collectCarried(ad, op, slots);
  return true;
}

/// The reverse loop: n iterations carrying s̄ and the captures' adjoints,
/// which it leaves in `slots->carried`.
static bool reverseLoop(CoopvecAutodiff *ad, MlirOperation op, MlirValue n,
                        WhileSlots *slots) {
  intptr_t numCarried = slots->numVaried + slots->numCaptures;
  CoopvecLoop loop = coopvecBuildFor(
      &ad->b, coopvecBuildIndexConstant(&ad->b, 0), n,
      coopvecBuildIndexConstant(&ad->b, 1), numCarried, slots->carried);
  CoopvecBuilder outer = ad->b;
  ad->b = loop.body;
  bool ok = reverseIteration(ad, op, &loop, n, slots);
  loop.body = ad->b;
  ad->b = outer;
  if (!ok)
    return false;
  coopvecFinishFor(&loop, numCarried, slots->carried);
  for (intptr_t j = 0; j < numCarried; ++j)
    slots->carried[j] = mlirOperationGetResult(loop.op, j);
  return true;
}

bool coopvecADBackwardWhile(CoopvecAutodiff *ad, MlirOperation op) {
  intptr_t numArgs = mlirOperationGetNumOperands(op);
  intptr_t numResults = mlirOperationGetNumResults(op);
  WhileSlots slots = {0};
  slots.captures = coopvecADCollectCaptures(ad, op, &slots.numCaptures);
  slots.varied = calloc((size_t)numArgs + 1, sizeof(intptr_t));
  slots.carried =
      calloc((size_t)(numArgs + slots.numCaptures + 1), sizeof(MlirValue));
  slots.s = calloc((size_t)numArgs + 2, sizeof(MlirValue));
  slots.x = calloc((size_t)numResults + 1, sizeof(MlirValue));
  slots.dx = calloc((size_t)numResults + 1, sizeof(MlirValue));
  if (!slots.varied || !slots.carried || !slots.s || !slots.x || !slots.dx)
    abort();
  slots.numVaried = variedState(ad, op, slots.varied);
  // Counting reruns the loop: from the local arrays at its entry, and
  // without snapshots (nothing in it is reversed).
  coopvecADRestoreSnapshots(ad, op);
  ++ad->stateDepth;
  MlirValue n = countIterations(ad, op, slots.x, slots.s);
  --ad->stateDepth;
  forgetRegions(ad, op);
  bool ok =
      reverseLastBefore(ad, op, n, &slots) && reverseLoop(ad, op, n, &slots);
  if (ok) {
    for (intptr_t v = 0; v < slots.numVaried; ++v)
      coopvecADAccumulate(ad, mlirOperationGetOperand(op, slots.varied[v]),
                          slots.carried[v]);
    // The captures' adjoints were carried through the reverse loop from
    // their values after the last `before`: the results replace them.
    for (intptr_t k = 0; k < slots.numCaptures; ++k)
      coopvecADEntry(ad, slots.captures[k])->adjoint =
          slots.carried[slots.numVaried + k];
  }
  free(slots.captures);
  free(slots.varied);
  free(slots.carried);
  free(slots.s);
  free(slots.x);
  free(slots.dx);
  return ok;
}
