//===- LaneRefill.c - Persistent lanes for a per-thread loop --------------===//
//
// Why: a group of L lanes runs a varying scf.while until its longest thread
// is done, so a loop whose trip counts differ between threads (the ray
// marcher: 8 to 39 steps) leaves lanes idle; in examples/raymarch.mlir only
// 54% of the lane-steps are samples (docs/performance.md, "The ray marcher
// loses to idle lanes, not to its masks"). No lowering of the masks removes
// that; keeping the lanes busy does.
//
// What: for a per-thread function of the shape
//
//   prologue (straight-line, no memory writes) ; one top-level scf.while
//   whose condition is varying ; epilogue (straight-line; the return)
//
// @f_batched becomes one group of L persistent lanes for the whole call (the
// engine's chunk of the batch, so refill stays within a host thread's
// range): a lane whose thread leaves the loop runs that thread's epilogue
// (results scattered to the thread's own rows), takes the next unstarted
// thread of the call, runs its prologue (arguments gathered from its rows)
// and re-enters the loop, until the call's threads are exhausted.
//
// How (L lanes, `ids` the thread of each lane, `next` the first unstarted
// thread):
//
//   hoisted prologue ops (once per call: ops on constants, uniform
//     arguments and prechecked loads only, e.g. the weights' bias loads)
//   scf.while (ids, eval, next, live..., args...) {      // outer
//     scf.while (ids, eval, stays, next, live..., args..., fwd...) { // settle
//       the loop's before region for the lanes in `eval`
//       stays |= eval & cond; fwd = cond's values there
//       the epilogue for `eval & !cond` (scatter the results at ids)
//       free = !stays; newIds = next + exclusive prefix count of free;
//       started = free & newIds < n; next = min(next + count, n)
//       scf.if any(started): the prologue for `started` at newIds
//         (gathers); live / args of those lanes replaced
//       scf.condition(any(started)) ... eval = started
//     }
//     scf.condition(any(stays)) ids, stays, next, live, fwd
//   } do { the loop's after region for `stays`; eval = stays }
//
// `live` are the prologue's varying values (and vec arguments) that the
// loop or the epilogue read: each lane's own, carried through the loops
// and replaced when the lane takes a new thread. Every op of the original
// function is lowered once, by the shared per-thread layer, under the mask
// of the lanes that run it: each thread computes exactly what it computed
// before (its before region, body, epilogue and prologue in its own order;
// bounds checks report the thread a lane holds). What changes is which
// lane a thread runs on and when, relative to other threads: so functions
// whose result depends on that order are left to the group loop (see
// cpuLaneRefillLoop): coopvec.store / masked_store (the highest thread's
// store wins), local arrays outside the loop, memory writes in the
// prologue (hoisted reads would move across them).
//
//===----------------------------------------------------------------------===//

#include "Conversion/CoopvecToCPU/CPU.h"

#include "Dialect/Verifier.h"
#include "coopvec-c/Support.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>

#include <stdlib.h>
#include <string.h>

bool cpuParseLaneRefill(const char *text, CPULaneRefill *out) {
  if (!strcmp(text, "true"))
    *out = CPULaneRefillTrue;
  else if (!strcmp(text, "false"))
    *out = CPULaneRefillFalse;
  else if (!strcmp(text, "auto"))
    *out = CPULaneRefillAuto;
  else
    return false;
  return true;
}

//===----------------------------------------------------------------------===//
// The shape
//===----------------------------------------------------------------------===//

static bool isRegionOp(MlirOperation op) {
  return mlirOperationGetNumRegions(op) > 0;
}

static bool writesMemory(MlirOperation op) {
  return coopvecOpIsNamed(op, "memref.store") ||
         coopvecOpIsNamed(op, "memref.atomic_rmw") ||
         coopvecOpIs(op, CoopvecOpStore) ||
         coopvecOpIs(op, CoopvecOpMaskedStore) ||
         coopvecOpIs(op, CoopvecOpReduceSumAccumulate) ||
         coopvecOpIs(op, CoopvecOpOuterProductAccumulate);
}

typedef struct Found {
  bool store, matvec;
} Found;

static MlirWalkResult findOps(MlirOperation op, void *userData) {
  Found *found = userData;
  found->store |=
      coopvecOpIs(op, CoopvecOpStore) || coopvecOpIs(op, CoopvecOpMaskedStore);
  found->matvec |= coopvecOpIs(op, CoopvecOpMatvec);
  return MlirWalkResultAdvance;
}

MlirOperation cpuLaneRefillLoop(CoopvecPerThread *p, MlirOperation func,
                                CPULaneRefill mode) {
  MlirOperation none = {NULL};
  if (mode == CPULaneRefillFalse)
    return none;
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
  MlirOperation terminator = mlirBlockGetTerminator(body);
  MlirOperation loop = none;
  for (MlirOperation op = mlirBlockGetFirstOperation(body);
       !mlirOperationEqual(op, terminator);
       op = mlirOperationGetNextInBlock(op)) {
    if (coopvecOpIsNamed(op, "memref.alloca"))
      return none; // a local array outside the loop
    if (isRegionOp(op)) {
      if (!mlirOperationIsNull(loop) || !coopvecOpIsNamed(op, "scf.while") ||
          !coopvecControlIsVarying(&p->uniformity, op))
        return none;
      loop = op;
    } else if (mlirOperationIsNull(loop) && writesMemory(op)) {
      return none;
    }
  }
  if (mlirOperationIsNull(loop))
    return none;
  Found found = {false, false};
  mlirOperationWalk(func, findOps, &found, MlirWalkPreOrder);
  if (found.store)
    return none;
  if (mode == CPULaneRefillAuto) {
    // Auto: where a lane-step is expensive (a matvec in the loop), so that
    // the refill's bookkeeping per step is small beside it.
    Found inLoop = {false, false};
    mlirOperationWalk(loop, findOps, &inLoop, MlirWalkPreOrder);
    if (!inLoop.matvec)
      return none;
  }
  return loop;
}

//===----------------------------------------------------------------------===//
// Building blocks
//===----------------------------------------------------------------------===//

typedef struct Refill {
  CPULowering *l;
  CoopvecPerThread *p;
  MlirBlock original;
  MlirOperation loop;
  MlirOperation *prologue; // the ops before the loop, in order
  intptr_t numPrologue;
  unsigned char *hoisted; // per prologue op: 1 when hoisted
  MlirOperation *epilogue;
  intptr_t numEpilogue;
  MlirValue *live; // originals: prologue values the loop / epilogue read
  intptr_t numLive;
  MlirValue *vecArgs; // the vec arguments of the original function
  intptr_t numVecArgs;
  intptr_t firstOutput;
  // Lowered counts and types.
  intptr_t nLive, nArgs, nFwd;
  MlirType *liveTypes, *argTypes, *fwdTypes;
  MlirType idsType, maskType;
} Refill;

static MlirValue zeroOf(CoopvecBuilder *b, MlirType type) {
  MlirType element = coopvecElementTypeOf(type);
  return mlirTypeIsAFloat(element) ? coopvecBuildFloatConstantLike(b, type, 0.0)
                                   : coopvecBuildIntConstantLike(b, type, 0);
}

/// An scf.while at `b` with `n` values of `t` in and out (before region),
/// `na` of `ta` between the regions; placeholder terminators.
typedef struct While {
  MlirOperation op;
  MlirBlock before, after;
} While;

static MlirBlock newBlock(intptr_t n, const MlirType *t, MlirLocation loc) {
  MlirLocation *locs = calloc((size_t)(n ? n : 1), sizeof(MlirLocation));
  if (!locs)
    abort();
  for (intptr_t i = 0; i < n; ++i)
    locs[i] = loc;
  MlirBlock block = mlirBlockCreate(n, t, locs);
  free(locs);
  return block;
}

static While buildWhile(CoopvecBuilder *b, intptr_t n, const MlirValue *inits,
                        const MlirType *t, intptr_t na, const MlirType *ta) {
  While w;
  MlirRegion regions[2] = {mlirRegionCreate(), mlirRegionCreate()};
  w.before = newBlock(n, t, b->location);
  w.after = newBlock(na, ta, b->location);
  mlirRegionAppendOwnedBlock(regions[0], w.before);
  mlirRegionAppendOwnedBlock(regions[1], w.after);
  MlirOperationState state = mlirOperationStateGet(
      mlirStringRefCreateFromCString("scf.while"), b->location);
  mlirOperationStateAddOperands(&state, n, inits);
  mlirOperationStateAddResults(&state, na, ta);
  mlirOperationStateAddOwnedRegions(&state, 2, regions);
  w.op = mlirOperationCreate(&state);
  if (mlirOperationIsNull(w.op))
    abort();
  mlirBlockInsertOwnedOperationBefore(b->block, b->before, w.op);
  return w;
}

static MlirValue anyOf(Refill *r, CoopvecBuilder *b, MlirValue mask) {
  return cpuAnyActive(r->p, b, mask);
}

static MlirValue notMask(Refill *r, CoopvecBuilder *b, MlirValue mask) {
  return coopvecBuildBinaryOp(b, "arith.xori", mask,
                              coopvecBuildIntSplatConstant(b, r->maskType, 1));
}

/// Per lane: `mask` ? x : y for lane vectors; scalars (uniform values) x.
static void selectValues(CoopvecBuilder *b, MlirValue mask, intptr_t n,
                         const MlirValue *x, const MlirValue *y,
                         MlirValue *out) {
  for (intptr_t i = 0; i < n; ++i)
    out[i] = mlirTypeIsAVector(mlirValueGetType(x[i]))
                 ? coopvecBuildSelect(b, mask, x[i], y[i])
                 : x[i];
}

static void copyValues(MlirValue *to, const MlirValue *from, intptr_t n) {
  if (n > 0)
    memcpy(to, from, sizeof(MlirValue) * (size_t)n);
}

static void terminate(CoopvecBuilder *b, const char *name, intptr_t n,
                      const MlirValue *v) {
  coopvecBuild0(b, name, n, v, 0, NULL);
}

//===----------------------------------------------------------------------===//
// Classifying the prologue
//===----------------------------------------------------------------------===//

/// The ancestor of `op` in `block`, or a null op.
static MlirOperation ancestorIn(MlirOperation op, MlirBlock block) {
  while (!mlirOperationIsNull(op) &&
         !mlirBlockEqual(mlirOperationGetBlock(op), block))
    op = mlirOperationGetParentOperation(op);
  return op;
}

/// Whether `value` has a use in the loop or the epilogue.
static bool usedAfterPrologue(Refill *r, MlirValue value) {
  for (MlirOpOperand use = mlirValueGetFirstUse(value);
       !mlirOpOperandIsNull(use); use = mlirOpOperandGetNextUse(use)) {
    MlirOperation owner = mlirOpOperandGetOwner(use);
    MlirOperation user = ancestorIn(owner, r->original);
    // The loop's initial values are taken in the refill, where they are.
    if (mlirOperationIsNull(user) || mlirOperationEqual(owner, r->loop))
      continue;
    for (intptr_t i = 0; i < r->numPrologue; ++i)
      if (mlirOperationEqual(r->prologue[i], user))
        goto next;
    return true;
  next:;
  }
  return false;
}

/// Whether `value` is the same in every thread and available before the
/// loop: a batched argument, or a result of a hoisted op.
static bool isInvariant(Refill *r, MlirValue value, intptr_t upTo) {
  if (mlirValueIsABlockArgument(value))
    return mlirBlockEqual(mlirBlockArgumentGetOwner(value), r->l->entryBlock);
  MlirOperation owner = mlirOpResultGetOwner(value);
  for (intptr_t i = 0; i < upTo; ++i)
    if (mlirOperationEqual(r->prologue[i], owner))
      return r->hoisted[i];
  return false;
}

/// Ops computed once per call: the same in every thread, without effects
/// and without a run-time check (which would count lanes, not threads).
static bool hoistable(Refill *r, intptr_t i) {
  MlirOperation op = r->prologue[i];
  const CoopvecOpInfo *info = coopvecLookupOp(op);
  if (info) {
    bool read = info->id == CoopvecOpLoad || info->id == CoopvecOpMaskedLoad;
    if (read && coopvecPointerMapFind(&r->p->prechecked, op.ptr) < 0)
      return false;
    if (!read && info->id != CoopvecOpMatrixView &&
        info->id != CoopvecOpSplat && info->id != CoopvecOpFromElements)
      return false;
  } else if (coopvecOpIsNamed(op, "memref.load") ||
             coopvecOpIsNamed(op, "memref.atomic_rmw") ||
             coopvecOpIsNamed(op, "memref.store") ||
             coopvecOpIsNamed(op, "memref.alloca")) {
    return false;
  }
  for (intptr_t o = 0; o < mlirOperationGetNumOperands(op); ++o)
    if (!isInvariant(r, mlirOperationGetOperand(op, o), i))
      return false;
  return true;
}

static void classify(Refill *r) {
  MlirOperation terminator = mlirBlockGetTerminator(r->original);
  intptr_t count = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(r->original);
       !mlirOperationEqual(op, terminator);
       op = mlirOperationGetNextInBlock(op))
    ++count;
  r->prologue = calloc((size_t)count + 1, sizeof(MlirOperation));
  r->epilogue = calloc((size_t)count + 1, sizeof(MlirOperation));
  r->hoisted = calloc((size_t)count + 1, 1);
  if (!r->prologue || !r->epilogue || !r->hoisted)
    abort();
  intptr_t numValues = mlirBlockGetNumArguments(r->original);
  for (MlirOperation op = mlirBlockGetFirstOperation(r->original);
       !mlirOperationEqual(op, terminator);
       op = mlirOperationGetNextInBlock(op))
    numValues += mlirOperationGetNumResults(op);
  r->live = coopvecAllocValues(numValues);
  r->vecArgs = coopvecAllocValues(mlirBlockGetNumArguments(r->original) + 1);
  bool after = false;
  for (MlirOperation op = mlirBlockGetFirstOperation(r->original);
       !mlirOperationEqual(op, terminator);
       op = mlirOperationGetNextInBlock(op)) {
    if (mlirOperationEqual(op, r->loop))
      after = true;
    else if (after)
      r->epilogue[r->numEpilogue++] = op;
    else
      r->prologue[r->numPrologue++] = op;
  }
  for (intptr_t i = 0; i < r->numPrologue; ++i)
    r->hoisted[i] = hoistable(r, i);
  for (intptr_t a = 0; a < mlirBlockGetNumArguments(r->original); ++a) {
    MlirValue arg = mlirBlockGetArgument(r->original, a);
    if (!coopvecTypeIsAVec(mlirValueGetType(arg)))
      continue;
    r->vecArgs[r->numVecArgs++] = arg;
    coopvecPerThreadKeepAlive(r->p, arg);
    if (usedAfterPrologue(r, arg))
      r->live[r->numLive++] = arg;
  }
  for (intptr_t i = 0; i < r->numPrologue; ++i)
    for (intptr_t k = 0; k < mlirOperationGetNumResults(r->prologue[i]); ++k) {
      MlirValue result = mlirOperationGetResult(r->prologue[i], k);
      // Code lowered out of order reads these: their tiles stay theirs.
      coopvecPerThreadKeepAlive(r->p, result);
      if (!r->hoisted[i] && usedAfterPrologue(r, result))
        r->live[r->numLive++] = result;
    }
}

//===----------------------------------------------------------------------===//
// Threads of the lanes: gathers, scatters, the next threads
//===----------------------------------------------------------------------===//

/// A stack buffer of `rows` rows of L lanes of `element`, row-major and
/// flat (row i, lane j at i * L + j), before the lanes' loops.
static MlirValue laneTile(Refill *r, int64_t rows, MlirType element) {
  int64_t count = rows * r->l->lanes;
  MlirType type =
      mlirMemRefTypeContiguousGet(element, 1, &count, mlirAttributeGetNull());
  return coopvecBuildAlloca(&r->p->entry, type, 64);
}

static MlirValue tileRow(Refill *r, int64_t row) {
  return coopvecPerThreadIndex(r->p, row * r->l->lanes);
}

/// a + b, a * b of index values.
static MlirValue addIndex(CoopvecBuilder *b, MlirValue x, MlirValue y) {
  return coopvecBuildBinaryOp(b, "arith.addi", x, y);
}
static MlirValue mulIndex(Refill *r, CoopvecBuilder *b, MlirValue x,
                          int64_t y) {
  return coopvecBuildBinaryOp(b, "arith.muli", x,
                              coopvecPerThreadIndex(r->p, y));
}

/// A vec argument's rows for the lanes that take a thread: per lane, the
/// thread's `size` elements from `buffer` into column `lane` of `tile`.
typedef struct ArgumentLanes {
  Refill *r;
  MlirValue buffer, tile, next;
  int64_t size;
} ArgumentLanes;

/// The lanes that take threads take next, next + 1, ... in lane order
/// (nextThreads): lane `lane`, the rank-th of them, takes next + rank.
static void readArgumentLane(CPULowering *l, CoopvecBuilder *b, MlirValue lane,
                             MlirValue rank, void *userData) {
  (void)l;
  const ArgumentLanes *a = userData;
  MlirValue row = mulIndex(a->r, b, addIndex(b, a->next, rank), a->size);
  for (int64_t i = 0; i < a->size; ++i) {
    MlirValue element = coopvecBuildMemrefLoad(
        b, a->buffer, addIndex(b, row, coopvecPerThreadIndex(a->r->p, i)));
    coopvecBuildMemrefStore(b, element, a->tile,
                            addIndex(b, tileRow(a->r, i), lane));
  }
}

/// The vec argument `arg` (batched buffer `buffer`) of the threads that the
/// lanes of `mask` take (next, next + 1, ... in lane order), as SSA element
/// values; other lanes hold earlier threads' values or zeros. A loop over
/// those lanes (cpuForEachSetLane), not a masked gather per element: the
/// lanes are few, and a gather costs a branch per lane and element.
static void gatherArgument(Refill *r, CoopvecBuilder *b, MlirValue arg,
                           MlirValue buffer, MlirValue next, MlirValue mask) {
  MlirType vecType = mlirValueGetType(arg);
  int64_t size = coopvecVecTypeGetSize(vecType);
  MlirType element = coopvecVecTypeGetElementType(vecType);
  int64_t lanes = r->l->lanes;
  MlirType rowType = mlirVectorTypeGet(1, &lanes, element);
  ArgumentLanes a = {r, buffer, laneTile(r, size, element), next, size};
  // Zeros in the lanes no thread has reached yet (a call of fewer than L
  // threads), not uninitialized memory.
  MlirValue zeros = coopvecBuildFloatSplatConstant(&r->p->entry, rowType, 0.0);
  for (int64_t i = 0; i < size; ++i) {
    MlirValue operands[] = {zeros, a.tile, tileRow(r, i)};
    coopvecBuild0(&r->p->entry, "vector.store", 3, operands, 0, NULL);
  }
  cpuForEachSetLane(r->l, b, mask, readArgumentLane, &a);
  MlirValue *elements = coopvecAllocValues(size);
  for (int64_t i = 0; i < size; ++i) {
    MlirValue operands[] = {a.tile, tileRow(r, i)};
    elements[i] = coopvecWidenToF32(
        b, coopvecBuild1(b, "vector.load", 2, operands, rowType, 0, NULL));
  }
  coopvecMapElements(r->p, arg, size, elements);
  free(elements);
}

/// The returned vecs of a group's lanes staged in tiles (one per result),
/// and the lanes' threads in `ids`, for a loop over the finishing lanes.
typedef struct ResultLanes {
  Refill *r;
  MlirValue ids;
  intptr_t count;
  MlirValue *tiles, *buffers;
  int64_t *sizes;
} ResultLanes;

static void writeResultLane(CPULowering *l, CoopvecBuilder *b, MlirValue lane,
                            MlirValue rank, void *userData) {
  (void)l;
  (void)rank;
  const ResultLanes *s = userData;
  MlirValue id = coopvecBuildMemrefLoad(b, s->ids, lane);
  for (intptr_t k = 0; k < s->count; ++k) {
    MlirValue row = mulIndex(s->r, b, id, s->sizes[k]);
    for (int64_t i = 0; i < s->sizes[k]; ++i) {
      MlirValue element = coopvecBuildMemrefLoad(
          b, s->tiles[k], addIndex(b, tileRow(s->r, i), lane));
      coopvecBuildMemrefStore(
          b, element, s->buffers[k],
          addIndex(b, row, coopvecPerThreadIndex(s->r->p, i)));
    }
  }
}

/// The returned vecs of the threads `ids` in the lanes of `mask`, written
/// to their rows of the outputs: staged in tiles, then a loop over those
/// lanes (as gatherArgument, for the same reason).
static void scatterResults(Refill *r, CoopvecBuilder *b, MlirValue ids,
                           MlirValue mask) {
  MlirOperation ret = mlirBlockGetTerminator(r->original);
  ResultLanes s = {.r = r, .count = mlirOperationGetNumOperands(ret)};
  s.ids = laneTile(r, 1, r->p->index);
  MlirValue idsOperands[] = {ids, s.ids, tileRow(r, 0)};
  coopvecBuild0(b, "vector.store", 3, idsOperands, 0, NULL);
  s.tiles = coopvecAllocValues(s.count);
  s.buffers = coopvecAllocValues(s.count);
  s.sizes = calloc((size_t)s.count + 1, sizeof(int64_t));
  if (!s.sizes)
    abort();
  for (intptr_t k = 0; k < s.count; ++k) {
    MlirValue value = mlirOperationGetOperand(ret, k);
    MlirType element = coopvecVecElementOf(value);
    s.sizes[k] = coopvecVecSizeOf(value);
    s.buffers[k] = mlirBlockGetArgument(r->l->entryBlock, r->firstOutput + k);
    s.tiles[k] = laneTile(r, s.sizes[k], element);
    for (int64_t i = 0; i < s.sizes[k]; ++i) {
      MlirValue lanes =
          coopvecNarrowTo(b, coopvecOperandElement(r->p, value, i), element);
      MlirValue operands[] = {lanes, s.tiles[k], tileRow(r, i)};
      coopvecBuild0(b, "vector.store", 3, operands, 0, NULL);
    }
  }
  cpuForEachSetLane(r->l, b, mask, writeResultLane, &s);
  free(s.sizes);
  free(s.buffers);
  free(s.tiles);
}

/// The inclusive prefix sum of the lanes of `x` (vector<L x i32>): log2(L)
/// shifts and adds (Hillis-Steele).
static MlirValue prefixSum(Refill *r, CoopvecBuilder *b, MlirValue x) {
  int64_t lanes = r->l->lanes;
  MlirValue zeros = coopvecBuildIntSplatConstant(b, mlirValueGetType(x), 0);
  int64_t *mask = calloc((size_t)lanes, sizeof(int64_t));
  if (!mask)
    abort();
  for (int64_t shift = 1; shift < lanes; shift *= 2) {
    for (int64_t i = 0; i < lanes; ++i)
      mask[i] = i >= shift ? i - shift : lanes;
    MlirNamedAttribute attribute = coopvecNamedAttr(
        r->p->ctx, "mask", mlirDenseI64ArrayGet(r->p->ctx, lanes, mask));
    MlirValue operands[] = {x, zeros};
    MlirValue shifted = coopvecBuild1(b, "vector.shuffle", 2, operands,
                                      mlirValueGetType(x), 1, &attribute);
    x = coopvecBuildBinaryOp(b, "arith.addi", x, shifted);
  }
  free(mask);
  return x;
}

//===----------------------------------------------------------------------===//
// Lowering the pieces
//===----------------------------------------------------------------------===//

static void setScope(Refill *r, CoopvecBuilder at, MlirValue active,
                     MlirValue ids) {
  r->p->body = at;
  r->p->active = active;
  r->p->allActive = false;
  r->l->threadIds = ids;
}

/// Lowers `ops` at `p->body`; with `select`, only those whose entry is
/// `selected`.
static bool lowerTopLevel(Refill *r, MlirOperation *ops, intptr_t count,
                          const unsigned char *select, int selected) {
  for (intptr_t i = 0; i < count; ++i) {
    if (select && select[i] != selected)
      continue;
    r->p->block = r->original;
    if (!coopvecPerThreadLowerOp(r->p, ops[i]))
      return false;
  }
  return true;
}

static MlirBlock regionBlock(MlirOperation op, intptr_t region) {
  return mlirRegionGetFirstBlock(mlirOperationGetRegion(op, region));
}

/// Settle state layout: ids, eval, stays, next, live, args, fwd.
enum { S_IDS, S_EVAL, S_STAYS, S_NEXT, S_LIVE };

/// One settle step's values: the block arguments (settle layout), the
/// loop's before-region arguments and results, and what the step makes.
typedef struct Settle {
  MlirValue *s; // the settle block's arguments
  MlirValue ids, eval, stays, next, *live, *args, *fwd;
  intptr_t numBeforeArgs, numResults;
  MlirValue *beforeArgs, *results;
  MlirValue *forwarded; // the condition's values for the lanes in `eval`
  MlirValue go;         // the condition, for the lanes in `eval`
} Settle;

/// The loop's condition (its before region) for the lanes in `eval`.
static bool settleCondition(Refill *r, Settle *t, CoopvecBuilder b) {
  CoopvecPerThread *p = r->p;
  MlirBlock before = regionBlock(r->loop, 0);
  setScope(r, b, t->eval, t->ids);
  coopvecMapLoweredValues(p, r->numLive, r->live, t->live);
  coopvecMapLoweredValues(p, t->numBeforeArgs, t->beforeArgs, t->args);
  bool ok = coopvecLowerNestedBlock(p, before);
  MlirOperation condition = mlirBlockGetTerminator(before);
  t->forwarded = coopvecAllocValues(r->nFwd);
  t->go = t->eval;
  if (ok) {
    MlirValue *operands = coopvecOperandsOf(condition, 1);
    coopvecLoweredValues(p, t->numResults, operands, t->results, t->forwarded);
    free(operands);
    t->go = coopvecVaryingOperand(p, mlirOperationGetOperand(condition, 0));
  }
  return ok;
}

/// The epilogue of the threads in `leaves`, their results scattered to
/// their rows.
static bool settleEpilogue(Refill *r, Settle *t, CoopvecBuilder *b,
                           MlirValue leaves) {
  CoopvecPerThread *p = r->p;
  CoopvecIf done = coopvecBuildIf(b, anyOf(r, b, leaves));
  setScope(r, done.then, leaves, t->ids);
  coopvecMapLoweredValues(p, t->numResults, t->results, t->forwarded);
  bool ok = lowerTopLevel(r, r->epilogue, r->numEpilogue, NULL, 0);
  if (ok)
    scatterResults(r, &p->body, t->ids, leaves);
  coopvecFinishIf(&done);
  return ok;
}

/// The next unstarted threads for the lanes not in `stays`: `newIds`
/// (next + the lane's exclusive prefix count of free lanes), `started`
/// (those below n) and `newNext`.
static void nextThreads(Refill *r, Settle *t, CoopvecBuilder *b,
                        MlirValue stays, MlirValue *newIds, MlirValue *started,
                        MlirValue *newNext) {
  CoopvecPerThread *p = r->p;
  MlirValue freeLanes = notMask(r, b, stays);
  int64_t lanes = r->l->lanes;
  MlirType i32 = mlirIntegerTypeGet(p->ctx, 32);
  MlirType countType = mlirVectorTypeGet(1, &lanes, i32);
  MlirValue ones = coopvecBuildCast1(b, "arith.extui", freeLanes, countType);
  MlirValue inclusive = prefixSum(r, b, ones);
  MlirValue exclusive = coopvecBuildBinaryOp(b, "arith.subi", inclusive, ones);
  MlirValue total =
      coopvecBuildCast1(b, "arith.index_cast",
                        coopvecBuildExtract(b, inclusive, lanes - 1), p->index);
  MlirValue n = mlirBlockGetArgument(r->l->entryBlock, 0);
  *newIds = coopvecBuildBinaryOp(
      b, "arith.addi", coopvecBuildBroadcast(b, t->next, r->idsType),
      coopvecBuildCast1(b, "arith.index_cast", exclusive, r->idsType));
  *started = coopvecBuildBinaryOp(
      b, "arith.andi", freeLanes,
      coopvecBuildCmpI(b, COOPVEC_CMPI_SLT, *newIds,
                       coopvecBuildBroadcast(b, n, r->idsType)));
  *newNext = coopvecBuildBinaryOp(
      b, "arith.minsi", coopvecBuildBinaryOp(b, "arith.addi", t->next, total),
      n);
}

/// The prologue of the threads in `started` (at `newIds`), under `scf.if
/// any(started)`: the carried live values and loop arguments, theirs for
/// those lanes and kept for the others. Returns the if op (its results are
/// the new state) or a null op on failure.
static MlirOperation refillPrologue(Refill *r, Settle *t, CoopvecBuilder *b,
                                    MlirValue started, MlirValue newIds,
                                    MlirValue anyStarted, bool *ok) {
  CoopvecPerThread *p = r->p;
  intptr_t numState = r->nLive + r->nArgs;
  MlirType *stateTypes = coopvecAllocTypes(numState);
  memcpy(stateTypes, r->liveTypes, sizeof(MlirType) * (size_t)r->nLive);
  if (r->nArgs)
    memcpy(stateTypes + r->nLive, r->argTypes,
           sizeof(MlirType) * (size_t)r->nArgs);
  CoopvecIfElse refill =
      coopvecBuildIfElse(b, anyStarted, numState, stateTypes);
  setScope(r, refill.then, started, newIds);
  // The prologue defines its values anew: their mappings to the block
  // arguments (above) must not be read there.
  for (intptr_t i = 0; i < r->numLive; ++i)
    coopvecForgetValue(p, r->live[i]);
  for (intptr_t a = 0; a < r->numVecArgs; ++a) {
    intptr_t index = 0;
    while (!mlirValueEqual(mlirBlockGetArgument(r->original, index),
                           r->vecArgs[a]))
      ++index;
    gatherArgument(r, &p->body, r->vecArgs[a],
                   mlirBlockGetArgument(r->l->entryBlock, 1 + index), t->next,
                   started);
  }
  *ok = *ok && lowerTopLevel(r, r->prologue, r->numPrologue, r->hoisted, 0);
  MlirValue *fresh = coopvecAllocValues(numState),
            *kept = coopvecAllocValues(numState);
  MlirValue *merged = coopvecAllocValues(numState);
  copyValues(kept, t->live, r->nLive);
  copyValues(kept + r->nLive, t->args, r->nArgs);
  if (*ok) {
    coopvecLoweredValues(p, r->numLive, r->live, r->live, fresh);
    MlirValue *inits = coopvecOperandsOf(r->loop, 0);
    coopvecLoweredValues(p, t->numBeforeArgs, inits, t->beforeArgs,
                         fresh + r->nLive);
    free(inits);
  } else {
    copyValues(fresh, kept, numState);
  }
  selectValues(&p->body, started, numState, fresh, kept, merged);
  coopvecFinishIfElse(&refill, merged, kept);
  free(merged);
  free(kept);
  free(fresh);
  free(stateTypes);
  return refill.op;
}

/// The body of the settle loop's before region (`block`, arguments in the
/// settle layout): see the file comment.
static bool buildSettleStep(Refill *r, MlirBlock block) {
  Settle t = {.s = coopvecArgumentsOf(block, 0)};
  t.ids = t.s[S_IDS];
  t.eval = t.s[S_EVAL];
  t.stays = t.s[S_STAYS];
  t.next = t.s[S_NEXT];
  t.live = t.s + S_LIVE;
  t.args = t.live + r->nLive;
  t.fwd = t.args + r->nArgs;
  MlirBlock before = regionBlock(r->loop, 0);
  t.numBeforeArgs = mlirBlockGetNumArguments(before);
  t.beforeArgs = coopvecArgumentsOf(before, 0);
  t.results = coopvecResultsOf(r->loop);
  t.numResults = mlirOperationGetNumResults(r->loop);
  bool ok = settleCondition(
      r, &t, coopvecBuilderAtEnd(block, mlirOperationGetLocation(r->loop)));
  CoopvecBuilder b = r->p->body;
  MlirValue staysNow = coopvecBuildBinaryOp(&b, "arith.andi", t.eval, t.go);
  MlirValue leaves =
      coopvecBuildBinaryOp(&b, "arith.andi", t.eval, notMask(r, &b, t.go));
  MlirValue newStays = coopvecBuildBinaryOp(&b, "arith.ori", t.stays, staysNow);
  MlirValue *newFwd = coopvecAllocValues(r->nFwd);
  selectValues(&b, staysNow, r->nFwd, t.forwarded, t.fwd, newFwd);
  ok = ok && settleEpilogue(r, &t, &b, leaves);
  MlirValue newIds, started, newNext;
  nextThreads(r, &t, &b, newStays, &newIds, &started, &newNext);
  MlirValue anyStarted = anyOf(r, &b, started);
  MlirOperation refill =
      refillPrologue(r, &t, &b, started, newIds, anyStarted, &ok);
  intptr_t numState = r->nLive + r->nArgs;
  intptr_t numCarried = 4 + numState + r->nFwd;
  MlirValue *withCondition = coopvecAllocValues(1 + numCarried);
  MlirValue *state = withCondition + 1;
  withCondition[0] = anyStarted;
  state[S_IDS] = coopvecBuildSelect(&b, started, newIds, t.ids);
  state[S_EVAL] = started;
  state[S_STAYS] = newStays;
  state[S_NEXT] = newNext;
  for (intptr_t i = 0; i < numState; ++i)
    state[S_LIVE + i] = mlirOperationGetResult(refill, i);
  copyValues(state + S_LIVE + numState, newFwd, r->nFwd);
  terminate(&b, "scf.condition", 1 + numCarried, withCondition);
  free(withCondition);
  free(newFwd);
  free(t.forwarded);
  free(t.results);
  free(t.beforeArgs);
  free(t.s);
  return ok;
}

/// Outer state: ids, eval, next, live, args. Between the outer regions:
/// ids, stays, next, live, fwd.
enum { O_IDS, O_EVAL, O_NEXT, O_LIVE };

bool cpuLowerWithLaneRefill(CPULowering *l, MlirBlock original,
                            MlirOperation loop, intptr_t firstOutput) {
  CoopvecPerThread *p = &l->p;
  Refill r;
  memset(&r, 0, sizeof(r));
  r.l = l;
  r.p = p;
  r.original = original;
  r.loop = loop;
  r.firstOutput = firstOutput;
  r.idsType = cpuVaryingType(p, p->index);
  r.maskType = cpuVaryingType(p, mlirIntegerTypeGet(p->ctx, 1));
  MlirLocation loc = mlirOperationGetLocation(loop);
  // The entry block: [entry-point values] anchor [hoisted prologue] loops
  // return.
  MlirOperation ret = coopvecBuild0(
      &(CoopvecBuilder){p->ctx, loc, l->entryBlock, {NULL}, {NULL}},
      "func.return", 0, NULL, 0, NULL);
  p->entry = coopvecBuilderBefore(ret, loc);
  // Not a cached constant: entry code must come before it, and may use
  // those (the anchor is unused; canonicalize removes it).
  MlirValue anchor = coopvecBuildIndexConstant(&p->entry, 0);
  p->entry = coopvecBuilderBefore(mlirOpResultGetOwner(anchor), loc);
  l->exit = coopvecBuilderBefore(ret, loc);
  // Non-vec arguments are uniform: used directly.
  for (intptr_t i = 0; i < mlirBlockGetNumArguments(original); ++i) {
    MlirValue arg = mlirBlockGetArgument(original, i);
    if (!coopvecTypeIsAVec(mlirValueGetType(arg)))
      mlirValueReplaceAllUsesOfWith(arg,
                                    mlirBlockGetArgument(l->entryBlock, 1 + i));
  }
  coopvecPerThreadBeginBlock(p, original);
  classify(&r);
  // Freed through these: the analyzer cannot tell that the lowering, which
  // writes through r.p, leaves `r` alone.
  void *owned[] = {r.prologue, r.epilogue, r.hoisted, r.live, r.vecArgs};
  MlirBlock before = regionBlock(loop, 0), after = regionBlock(loop, 1);
  intptr_t numBeforeArgs = mlirBlockGetNumArguments(before);
  MlirValue *beforeArgs = coopvecArgumentsOf(before, 0);
  MlirValue *results = coopvecResultsOf(loop);
  intptr_t numResults = mlirOperationGetNumResults(loop);
  r.nLive = coopvecLoweredTypes(p, r.numLive, r.live, NULL);
  r.liveTypes = coopvecAllocTypes(r.nLive);
  coopvecLoweredTypes(p, r.numLive, r.live, r.liveTypes);
  r.nArgs = coopvecLoweredTypes(p, numBeforeArgs, beforeArgs, NULL);
  r.argTypes = coopvecAllocTypes(r.nArgs);
  coopvecLoweredTypes(p, numBeforeArgs, beforeArgs, r.argTypes);
  r.nFwd = coopvecLoweredTypes(p, numResults, results, NULL);
  r.fwdTypes = coopvecAllocTypes(r.nFwd);
  coopvecLoweredTypes(p, numResults, results, r.fwdTypes);

  // The hoisted prologue, for every lane.
  CoopvecBuilder top = coopvecBuilderBefore(ret, loc);
  MlirValue all = coopvecBuildCreateMask(&p->entry, l->lanes,
                                         coopvecPerThreadIndex(p, l->lanes));
  setScope(&r, top, all, (MlirValue){NULL});
  bool ok = lowerTopLevel(&r, r.prologue, r.numPrologue, r.hoisted, 1);
  top = p->body;

  // The outer loop.
  intptr_t nOuter = 3 + r.nLive + r.nArgs, nBetween = 3 + r.nLive + r.nFwd;
  MlirType *outerTypes = coopvecAllocTypes(nOuter),
           *betweenTypes = coopvecAllocTypes(nBetween);
  outerTypes[O_IDS] = betweenTypes[O_IDS] = r.idsType;
  outerTypes[O_EVAL] = betweenTypes[O_EVAL] = r.maskType;
  outerTypes[O_NEXT] = betweenTypes[O_NEXT] = p->index;
  for (intptr_t i = 0; i < r.nLive; ++i)
    outerTypes[O_LIVE + i] = betweenTypes[O_LIVE + i] = r.liveTypes[i];
  for (intptr_t i = 0; i < r.nArgs; ++i)
    outerTypes[O_LIVE + r.nLive + i] = r.argTypes[i];
  for (intptr_t i = 0; i < r.nFwd; ++i)
    betweenTypes[O_LIVE + r.nLive + i] = r.fwdTypes[i];
  MlirValue *inits = coopvecAllocValues(nOuter);
  for (intptr_t i = 0; i < nOuter; ++i)
    inits[i] = zeroOf(&top, outerTypes[i]);
  While outer =
      buildWhile(&top, nOuter, inits, outerTypes, nBetween, betweenTypes);

  // Its before region: the settle loop.
  intptr_t nSettle = 4 + r.nLive + r.nArgs + r.nFwd;
  MlirType *settleTypes = coopvecAllocTypes(nSettle);
  settleTypes[S_IDS] = r.idsType;
  settleTypes[S_EVAL] = settleTypes[S_STAYS] = r.maskType;
  settleTypes[S_NEXT] = p->index;
  for (intptr_t i = 0; i < r.nLive + r.nArgs; ++i)
    settleTypes[S_LIVE + i] = outerTypes[O_LIVE + i];
  for (intptr_t i = 0; i < r.nFwd; ++i)
    settleTypes[S_LIVE + r.nLive + r.nArgs + i] = r.fwdTypes[i];
  CoopvecBuilder ob = coopvecBuilderAtEnd(outer.before, loc);
  MlirValue *o = coopvecArgumentsOf(outer.before, 0);
  MlirValue *settleInits = coopvecAllocValues(nSettle);
  settleInits[S_IDS] = o[O_IDS];
  settleInits[S_EVAL] = o[O_EVAL];
  settleInits[S_STAYS] = zeroOf(&ob, r.maskType);
  settleInits[S_NEXT] = o[O_NEXT];
  copyValues(settleInits + S_LIVE, o + O_LIVE, r.nLive + r.nArgs);
  for (intptr_t i = 0; i < r.nFwd; ++i)
    settleInits[S_LIVE + r.nLive + r.nArgs + i] = zeroOf(&ob, r.fwdTypes[i]);
  While settle =
      buildWhile(&ob, nSettle, settleInits, settleTypes, nSettle, settleTypes);
  ok = buildSettleStep(&r, settle.before) && ok;
  MlirValue *sa = coopvecArgumentsOf(settle.after, 0);
  CoopvecBuilder sb = coopvecBuilderAtEnd(settle.after, loc);
  terminate(&sb, "scf.yield", nSettle, sa);
  MlirValue *settled = coopvecResultsOf(settle.op);
  MlirValue *between = coopvecAllocValues(nBetween + 1);
  between[0] = anyOf(&r, &ob, settled[S_STAYS]);
  between[1 + O_IDS] = settled[S_IDS];
  between[1 + O_EVAL] = settled[S_STAYS];
  between[1 + O_NEXT] = settled[S_NEXT];
  copyValues(between + 1 + O_LIVE, settled + S_LIVE, r.nLive);
  copyValues(between + 1 + O_LIVE + r.nLive,
             settled + S_LIVE + r.nLive + r.nArgs, r.nFwd);
  terminate(&ob, "scf.condition", nBetween + 1, between);

  // Its after region: the loop's body for the lanes that stay.
  MlirValue *a = coopvecArgumentsOf(outer.after, 0);
  CoopvecBuilder ab = coopvecBuilderAtEnd(outer.after, loc);
  setScope(&r, ab, a[O_EVAL], a[O_IDS]);
  coopvecMapLoweredValues(p, r.numLive, r.live, a + O_LIVE);
  MlirValue *afterArgs = coopvecArgumentsOf(after, 0);
  coopvecMapLoweredValues(p, mlirBlockGetNumArguments(after), afterArgs,
                          a + O_LIVE + r.nLive);
  ok = ok && coopvecLowerNestedBlock(p, after);
  MlirValue *yielded = coopvecAllocValues(nOuter);
  yielded[O_IDS] = a[O_IDS];
  yielded[O_EVAL] = a[O_EVAL];
  yielded[O_NEXT] = a[O_NEXT];
  copyValues(yielded + O_LIVE, a + O_LIVE, r.nLive);
  if (ok) {
    MlirValue *operands = coopvecOperandsOf(mlirBlockGetTerminator(after), 0);
    coopvecLoweredValues(p, numBeforeArgs, operands, beforeArgs,
                         yielded + O_LIVE + r.nLive);
    free(operands);
  } else {
    for (intptr_t i = 0; i < r.nArgs; ++i)
      yielded[O_LIVE + r.nLive + i] = o[O_LIVE + r.nLive + i];
  }
  ab = p->body;
  terminate(&ab, "scf.yield", nOuter, yielded);
  l->threadIds = (MlirValue){NULL};

  free(yielded);
  free(afterArgs);
  free(a);
  free(between);
  free(settled);
  free(sa);
  free(settleInits);
  free(o);
  free(settleTypes);
  free(inits);
  free(outerTypes);
  free(betweenTypes);
  free(results);
  free(beforeArgs);
  free(r.liveTypes);
  free(r.argTypes);
  free(r.fwdTypes);
  for (size_t i = 0; i < sizeof(owned) / sizeof(owned[0]); ++i)
    free(owned[i]);
  return ok;
}
