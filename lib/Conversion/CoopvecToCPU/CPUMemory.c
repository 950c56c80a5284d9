//===- CPUMemory.c - Memory at varying places on SIMD lanes ---------------===//
//
// The CPU's CoopvecMemoryHooks (PerThread.h): a varying index is a lane
// vector of indices, so loads and stores are masked `vector.gather` /
// `vector.scatter` (lanes ordered: where two lanes store to one element,
// the higher one's value lands, as if threads ran in order). Atomics have
// no vector form: a loop over the lanes does one `memref.atomic_rmw` per
// active lane; under reduce-mode=local a scatter-add does one per distinct
// address of the group instead (localAdd). A local array is lane-interleaved,
// element j of lane l at j * L + l of a stack buffer, so that a uniform index
// reads or writes L consecutive values (one vector access) and a varying one
// gathers.
//
// Out-of-bounds accesses are counted into the status buffer, a trailing
// `memref<2xi64>` argument of @f_batched that the function gains with its
// first check: [0] the number of (thread, op) accesses, [1] the smallest
// thread * 2^16 + check index (docs/execution-engine.md).
//
//===----------------------------------------------------------------------===//

#include "Conversion/CoopvecToCPU/CPU.h"

#include "Dialect/Verifier.h"

#include "coopvec-c/Support.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>

#include <stdint.h>
#include <stdlib.h>

static MlirValue indexConstant(CPULowering *l, int64_t value) {
  return coopvecPerThreadIndex(&l->p, value);
}

MlirType cpuVaryingType(CoopvecPerThread *p, MlirType scalar) {
  int64_t lanes = cpuOf(p)->lanes;
  return mlirVectorTypeGet(1, &lanes, scalar);
}

static MlirValue reduce(CoopvecBuilder *b, const char *kind, MlirValue vector,
                        MlirType result) {
  MlirNamedAttribute attr = coopvecNamedAttr(
      b->context, "kind",
      mlirAttributeParseGet(b->context, mlirStringRefCreateFromCString(kind)));
  return coopvecBuild1(b, "vector.reduction", 1, &vector, result, 1, &attr);
}

MlirValue cpuAnyActive(CoopvecPerThread *p, CoopvecBuilder *b, MlirValue mask) {
  return reduce(b, "#vector.kind<or>", mask, mlirIntegerTypeGet(p->ctx, 1));
}

MlirValue cpuAllActive(CoopvecPerThread *p, CoopvecBuilder *b, MlirValue mask) {
  return reduce(b, "#vector.kind<and>", mask, mlirIntegerTypeGet(p->ctx, 1));
}

/// vector<L x index> [0, 1, ..., L - 1], made once before the lane loop.
static MlirValue laneIds(CPULowering *l) {
  if (mlirValueIsNull(l->laneIds)) {
    MlirType type = cpuVaryingType(&l->p, l->p.index);
    l->laneIds =
        coopvecBuild1(&l->p.entry, "vector.step", 0, NULL, type, 0, NULL);
  }
  return l->laneIds;
}

/// `mask` and the active lanes (`mask` null: the active lanes), as a lane
/// mask; a uniform `mask` is broadcast.
static MlirValue laneMask(CPULowering *l, CoopvecBuilder *b, MlirValue mask) {
  if (mlirValueIsNull(mask))
    return l->p.active;
  if (!mlirTypeIsAVector(mlirValueGetType(mask)))
    mask = coopvecBuildBroadcast(b, mask, mlirValueGetType(l->p.active));
  return coopvecBuildBinaryOp(b, "arith.andi", l->p.active, mask);
}

static bool isVarying(MlirValue value) {
  return mlirTypeIsAVector(mlirValueGetType(value));
}

/// The element indices of a lane-interleaved local array: index * L + lane.
static MlirValue interleaved(CPULowering *l, CoopvecBuilder *b,
                             MlirValue index) {
  MlirValue scaled = coopvecBuildBinaryOp(
      b, "arith.muli", index,
      isVarying(index) ? coopvecBuildBroadcast(b, indexConstant(l, l->lanes),
                                               mlirValueGetType(index))
                       : indexConstant(l, l->lanes));
  if (!isVarying(index))
    return scaled;
  return coopvecBuildBinaryOp(b, "arith.addi", scaled, laneIds(l));
}

static MlirType laneVectorOf(CPULowering *l, MlirType element) {
  return cpuVaryingType(&l->p, element);
}

static MlirValue zeroLanes(CoopvecBuilder *b, MlirType type) {
  MlirType element = mlirShapedTypeGetElementType(type);
  return mlirTypeIsAFloat(element)
             ? coopvecBuildFloatSplatConstant(b, type, 0.0)
             : coopvecBuildIntSplatConstant(b, type, 0);
}

static MlirValue gather(CPULowering *l, CoopvecBuilder *b, MlirValue memref,
                        MlirValue indices, MlirValue mask, MlirType element) {
  MlirType type = laneVectorOf(l, element);
  MlirValue operands[] = {memref, indexConstant(l, 0), indices, mask,
                          zeroLanes(b, type)};
  return coopvecBuild1(b, "vector.gather", 5, operands, type, 0, NULL);
}

static void scatter(CPULowering *l, CoopvecBuilder *b, MlirValue memref,
                    MlirValue indices, MlirValue mask, MlirValue values) {
  MlirValue operands[] = {memref, indexConstant(l, 0), indices, mask, values};
  coopvecBuild0(b, "vector.scatter", 5, operands, 0, NULL);
}

//===----------------------------------------------------------------------===//
// Loads and stores
//===----------------------------------------------------------------------===//

/// A uniform element of a memref argument: one scalar load, guarded by the
/// uniform `mask` (0 where it is clear).
static MlirValue uniformLoad(CoopvecBuilder *b, const CoopvecElementAccess *a,
                             MlirValue mask) {
  if (mlirValueIsNull(mask))
    return coopvecBuildMemrefLoad(b, a->buffer, a->index);
  MlirType types[] = {a->element};
  MlirValue zero = mlirTypeIsAFloat(a->element)
                       ? coopvecBuildFloatConstant(b, a->element, 0.0)
                       : coopvecBuildIntConstant(b, a->element, 0);
  CoopvecIfElse branch = coopvecBuildIfElse(b, mask, 1, types);
  MlirValue loaded = coopvecBuildMemrefLoad(&branch.then, a->buffer, a->index);
  coopvecFinishIfElse(&branch, &loaded, &zero);
  return mlirOperationGetResult(branch.op, 0);
}

static MlirValue cpuLoad(CoopvecPerThread *p, CoopvecBuilder *b,
                         const CoopvecElementAccess *a, MlirValue mask) {
  CPULowering *l = cpuOf(p);
  if (!a->local && !isVarying(a->index))
    return uniformLoad(b, a, mask);
  MlirValue lanes = laneMask(l, b, mask);
  if (a->local && !isVarying(a->index)) {
    MlirValue operands[] = {a->buffer, interleaved(l, b, a->index), lanes,
                            zeroLanes(b, laneVectorOf(l, a->element))};
    return coopvecBuild1(b, "vector.maskedload", 4, operands,
                         laneVectorOf(l, a->element), 0, NULL);
  }
  MlirValue indices = a->local ? interleaved(l, b, a->index) : a->index;
  return gather(l, b, a->buffer, indices, lanes, a->element);
}

/// The value of the highest active lane: the thread whose store lands when
/// all active threads store to one element.
static MlirValue lastActiveLane(CPULowering *l, CoopvecBuilder *b,
                                MlirValue value) {
  MlirValue lanes = coopvecBuildSelect(
      b, l->p.active, laneIds(l),
      coopvecBuildIntSplatConstant(b, mlirValueGetType(laneIds(l)), 0));
  MlirValue last = reduce(b, "#vector.kind<maxui>", lanes, l->p.index);
  return coopvecBuildExtractDynamic(b, value, last);
}

static void cpuStore(CoopvecPerThread *p, CoopvecBuilder *b,
                     const CoopvecElementAccess *a, MlirValue value,
                     MlirValue mask) {
  CPULowering *l = cpuOf(p);
  if (!a->local && !isVarying(a->index)) {
    if (isVarying(value))
      value = lastActiveLane(l, b, value);
    if (mlirValueIsNull(mask)) {
      coopvecBuildMemrefStore(b, value, a->buffer, a->index);
      return;
    }
    CoopvecIf branch = coopvecBuildIf(b, mask);
    coopvecBuildMemrefStore(&branch.then, value, a->buffer, a->index);
    coopvecFinishIf(&branch);
    return;
  }
  if (!isVarying(value))
    value = coopvecBuildBroadcast(b, value, laneVectorOf(l, a->element));
  MlirValue lanes = laneMask(l, b, mask);
  if (a->local && !isVarying(a->index)) {
    MlirValue operands[] = {a->buffer, interleaved(l, b, a->index), lanes,
                            value};
    coopvecBuild0(b, "vector.maskedstore", 4, operands, 0, NULL);
    return;
  }
  scatter(l, b, a->buffer, a->local ? interleaved(l, b, a->index) : a->index,
          lanes, value);
}

//===----------------------------------------------------------------------===//
// Atomics
//===----------------------------------------------------------------------===//

/// The lane indices of an access, as a lane vector (local arrays:
/// interleaved).
static MlirValue laneIndices(CPULowering *l, CoopvecBuilder *b,
                             const CoopvecElementAccess *a) {
  MlirType type = cpuVaryingType(&l->p, l->p.index);
  MlirValue indices =
      isVarying(a->index) ? a->index : coopvecBuildBroadcast(b, a->index, type);
  return a->local ? interleaved(l, b, indices) : indices;
}

/// What the lanes' addresses are compared by: the i32 values a buffer's
/// indices were sign-extended from (equal exactly when the indices are,
/// in half the registers), else the indices.
static MlirValue addressKeys(const CoopvecElementAccess *a, MlirValue indices) {
  MlirValue narrow =
      a->local ? (MlirValue){NULL} : coopvecSignExtendedI32(indices);
  return mlirValueIsNull(narrow) ? indices : narrow;
}

/// The address (an index) of a lane whose key (an element of `keys`, from
/// addressKeys) is `key`.
static MlirValue addressOfKey(CPULowering *l, CoopvecBuilder *b, MlirValue key,
                              MlirValue keys, MlirValue indices) {
  if (keys.ptr == indices.ptr)
    return key;
  return coopvecBuildCast1(b, "arith.index_cast", key,
                           mlirIndexTypeGet(l->p.ctx));
}

/// Lane `lane`'s address, extracted from the narrower keys when there are.
static MlirValue laneAddress(CPULowering *l, CoopvecBuilder *b,
                             const CoopvecElementAccess *a, MlirValue indices,
                             MlirValue lane) {
  MlirValue keys = addressKeys(a, indices);
  return addressOfKey(l, b, coopvecBuildExtractDynamic(b, keys, lane), keys,
                      indices);
}

/// for lane < L: if enabled[lane]: old[lane] = atomic(buffer[index[lane]],
/// value[lane]).
static MlirValue directAtomic(CPULowering *l, CoopvecBuilder *b,
                              const CoopvecElementAccess *a, MlirAttribute kind,
                              MlirValue value, MlirValue enabled) {
  MlirValue indices = laneIndices(l, b, a);
  MlirType type = laneVectorOf(l, a->element);
  MlirValue init = zeroLanes(b, type);
  CoopvecLoop loop =
      coopvecBuildFor(b, indexConstant(l, 0), indexConstant(l, l->lanes),
                      indexConstant(l, 1), 1, &init);
  CoopvecBuilder *in = &loop.body;
  MlirValue lane = loop.inductionVar;
  MlirValue old = coopvecLoopIterArg(&loop, 0);
  MlirType types[] = {type};
  CoopvecIfElse branch = coopvecBuildIfElse(
      in, coopvecBuildExtractDynamic(in, enabled, lane), 1, types);
  CoopvecBuilder *then = &branch.then;
  MlirValue operands[] = {coopvecBuildExtractDynamic(then, value, lane),
                          a->buffer, laneAddress(l, then, a, indices, lane)};
  MlirNamedAttribute attr = coopvecNamedAttr(l->p.ctx, "kind", kind);
  MlirValue result = coopvecBuild1(then, "memref.atomic_rmw", 3, operands,
                                   a->element, 1, &attr);
  MlirValue updated = coopvecBuildInsertDynamic(then, result, old, lane);
  coopvecFinishIfElse(&branch, &updated, &old);
  MlirValue next = mlirOperationGetResult(branch.op, 0);
  coopvecFinishFor(&loop, 1, &next);
  return mlirOperationGetResult(loop.op, 0);
}

MlirValue cpuSumLanes(CoopvecBuilder *b, MlirValue lanes) {
  MlirType element = mlirShapedTypeGetElementType(mlirValueGetType(lanes));
  return mlirTypeIsAFloat(element)
             ? coopvecBuildReduceAdd(b, lanes)
             : reduce(b, "#vector.kind<add>", lanes, element);
}

/// The sum of the lanes of `value` where `lanes` is set: floats in f32
/// (f16 values are exact in f32, so the sum rounds to f16 once, at the
/// atomic), integers in their type.
static MlirValue sumOfLanes(CoopvecBuilder *b, MlirValue value,
                            MlirValue lanes) {
  bool isFloat =
      mlirTypeIsAFloat(mlirShapedTypeGetElementType(mlirValueGetType(value)));
  MlirValue wide = isFloat ? coopvecWidenToF32(b, value) : value;
  return cpuSumLanes(
      b,
      coopvecBuildSelect(b, lanes, wide, zeroLanes(b, mlirValueGetType(wide))));
}

/// The lanes of `enabled` whose index equals `address`.
static MlirValue lanesAt(CoopvecBuilder *b, MlirValue indices,
                         MlirValue address, MlirValue enabled) {
  return coopvecBuildBinaryOp(
      b, "arith.andi", enabled,
      coopvecBuildCmpI(
          b, COOPVEC_CMPI_EQ, indices,
          coopvecBuildBroadcast(b, address, mlirValueGetType(indices))));
}

/// reduce-mode=local (ReduceMode.h): while some lane is pending, the
/// first pending lane's address is taken: the lanes with that address are
/// summed, added with one atomic (or into the running sum of CarriedAdd.c)
/// and no longer pending. The rounds are the group's distinct addresses:
/// all lanes at one address cost one atomic and one round; L distinct
/// addresses cost L atomics, as direct does, plus a compare and a
/// reduction each. The pending lanes are the bits of an L-bit integer
/// (the first is its cttz, a round clears the bits of the lanes at its
/// address), and the disabled lanes' keys are -1 before the loop, so a
/// round's lanes are a compare of keys alone: no vector of i1 lives across
/// the loop's blocks, where LLVM keeps it as
/// bytes on AVX2 and repacks it at every use (docs/performance.md,
/// "Scatter-add"). Measured against a loop over all L lanes, each tested,
/// and an scf.while over the smallest pending address (a minui reduction
/// per round): both slower.
static void localAdd(CPULowering *l, CoopvecBuilder *b,
                     const CoopvecElementAccess *a, MlirAttribute kind,
                     MlirValue value, MlirValue enabled) {
  // Into a buffer only added into, the sums run on across the rounds and
  // groups of the call (CarriedAdd.c).
  CPUCarriedAdd running, *carried = NULL;
  if (cpuIsArgumentIn(l, l->addOnlyArgs, a->buffer)) {
    running = cpuCarriedAddCreate(l, a->buffer, kind, a->element);
    carried = &running;
  }
  MlirValue indices = laneIndices(l, b, a);
  MlirValue keys = addressKeys(a, indices);
  // Disabled lanes get the key -1, which no enabled lane has (their
  // indices are inside the buffer): a round's lanes are then found by a
  // compare of keys alone.
  MlirValue enabledKeys = coopvecBuildSelect(
      b, enabled, keys,
      coopvecBuildIntConstantLike(b, mlirValueGetType(keys), -1));
  MlirBlock block = cpuBuildBitsLoop(l, b, cpuLaneBits(l, b, enabled));
  CoopvecBuilder in = coopvecBuilderAtEnd(block, b->location);
  MlirValue pending = mlirBlockGetArgument(block, 0);
  MlirValue key = coopvecBuildExtractDynamic(&in, enabledKeys,
                                             cpuLowestSetLane(l, &in, pending));
  MlirValue keyLanes =
      coopvecBuildBroadcast(&in, key, mlirValueGetType(enabledKeys));
  MlirValue same =
      coopvecBuildCmpI(&in, COOPVEC_CMPI_EQ, enabledKeys, keyLanes);
  MlirValue address = addressOfKey(l, &in, key, keys, indices);
  if (carried)
    cpuCarriedAdd(l, &in, carried, address,
                  coopvecBuildSelect(&in, same, value,
                                     zeroLanes(&in, mlirValueGetType(value))));
  else
    coopvecBuildAtomic(
        &in, kind,
        coopvecNarrowTo(&in, sumOfLanes(&in, value, same), a->element),
        a->buffer, address);
  // A compare of its own rather than the bits of `same`: LLVM would pack
  // `same` to bytes for its bits and unpack it again for the select.
  MlirValue notSame = cpuLaneBits(
      l, &in, coopvecBuildCmpI(&in, COOPVEC_CMPI_NE, enabledKeys, keyLanes));
  MlirValue left = coopvecBuildBinaryOp(&in, "arith.andi", pending, notSame);
  coopvecBuild0(&in, "scf.yield", 1, &left, 0, NULL);
}

/// reduce-mode=expand into this host thread's copy: for lane < L: if
/// enabled[lane]: buffer[index] = buffer[index] + value[lane], plain loads
/// and stores in lane order (lanes at one address add in turn).
static void plainAdd(CPULowering *l, CoopvecBuilder *b,
                     const CoopvecElementAccess *a, MlirValue value,
                     MlirValue enabled) {
  MlirValue indices = laneIndices(l, b, a);
  CoopvecLoop loop =
      coopvecBuildFor(b, indexConstant(l, 0), indexConstant(l, l->lanes),
                      indexConstant(l, 1), 0, NULL);
  CoopvecBuilder *in = &loop.body;
  CoopvecIf branch = coopvecBuildIf(
      in, coopvecBuildExtractDynamic(in, enabled, loop.inductionVar));
  CoopvecBuilder *then = &branch.then;
  MlirValue at = laneAddress(l, then, a, indices, loop.inductionVar);
  MlirValue old = coopvecBuildMemrefLoad(then, a->buffer, at);
  MlirValue sum = coopvecBuildBinaryOp(
      then, mlirTypeIsAFloat(a->element) ? "arith.addf" : "arith.addi", old,
      coopvecBuildExtractDynamic(then, value, loop.inductionVar));
  coopvecBuildMemrefStore(then, sum, a->buffer, at);
  coopvecFinishIf(&branch);
  coopvecFinishFor(&loop, 0, NULL);
}

/// reduce-mode=auto and expand (ReduceMode.h): a group whose enabled
/// lanes all add at lane 0's address adds their sum once (an atomic, or a
/// plain add into an expanded copy); any other group adds lane by lane
/// (directAtomic / plainAdd). Measured (bench/scatter-add,
/// docs/performance.md): local's rounds cost more than the atomics they
/// save unless nearly all lanes collide, and a chain of plain adds at one
/// address is as slow as the atomics.
static void addOnceOrPerLane(CPULowering *l, CoopvecBuilder *b,
                             const CoopvecElementAccess *a, MlirAttribute kind,
                             MlirValue value, MlirValue enabled, bool plain) {
  MlirValue indices = laneIndices(l, b, a);
  MlirValue keys = addressKeys(a, indices);
  MlirValue key = coopvecBuildExtract(b, keys, 0);
  MlirValue elsewhere = coopvecBuildBinaryOp(b, "arith.xori", enabled,
                                             lanesAt(b, keys, key, enabled));
  MlirValue anyEnabled = cpuAnyActive(&l->p, b, enabled);
  CoopvecIfElse branch =
      coopvecBuildIfElse(b, cpuAnyActive(&l->p, b, elsewhere), 0, NULL);
  if (plain)
    plainAdd(l, &branch.then, a, value, enabled);
  else
    directAtomic(l, &branch.then, a, kind, value, enabled);
  CoopvecIf any = coopvecBuildIf(&branch.otherwise, anyEnabled);
  CoopvecBuilder *in = &any.then;
  MlirValue address = addressOfKey(l, in, key, keys, indices);
  MlirValue sum =
      coopvecNarrowTo(in, sumOfLanes(in, value, enabled), a->element);
  if (plain)
    coopvecBuildMemrefStore(
        in,
        coopvecBuildBinaryOp(
            in, mlirTypeIsAFloat(a->element) ? "arith.addf" : "arith.addi",
            coopvecBuildMemrefLoad(in, a->buffer, address), sum),
        a->buffer, address);
  else
    coopvecBuildAtomic(in, kind, sum, a->buffer, address);
  coopvecFinishIf(&any);
  coopvecFinishIfElse(&branch, NULL, NULL);
}

static MlirValue cpuAtomic(CoopvecPerThread *p, CoopvecBuilder *b,
                           const CoopvecElementAccess *a, MlirAttribute kind,
                           MlirValue value, MlirValue mask) {
  CPULowering *l = cpuOf(p);
  MlirValue enabled = laneMask(l, b, mask);
  if (p->reduceMode == CoopvecReduceDirect || !coopvecIsScatterAdd(a, kind))
    return directAtomic(l, b, a, kind, value, enabled);
  if (p->reduceMode == CoopvecReduceExpand &&
      cpuIsArgumentIn(l, l->expandedArgs, a->buffer))
    addOnceOrPerLane(l, b, a, kind, value, enabled, true);
  else if (p->reduceMode == CoopvecReduceAuto)
    addOnceOrPerLane(l, b, a, kind, value, enabled, false);
  else // local, and expand's other scatter-adds
    localAdd(l, b, a, kind, value, enabled);
  // No op uses the old values (coopvecIsScatterAdd).
  return zeroLanes(b, laneVectorOf(l, a->element));
}

//===----------------------------------------------------------------------===//
// Local arrays
//===----------------------------------------------------------------------===//

static MlirValue cpuAllocLocal(CoopvecPerThread *p, int64_t count,
                               MlirType element) {
  int64_t size = count * cpuOf(p)->lanes;
  MlirType type =
      mlirMemRefTypeContiguousGet(element, 1, &size, mlirAttributeGetNull());
  return coopvecBuildAlloca(&p->entry, type, 64);
}

static void cpuZeroLocal(CoopvecPerThread *p, CoopvecBuilder *b,
                         MlirValue storage, int64_t count) {
  CPULowering *l = cpuOf(p);
  MlirType element = mlirShapedTypeGetElementType(mlirValueGetType(storage));
  MlirValue zeros = zeroLanes(b, laneVectorOf(l, element));
  CoopvecLoop loop = coopvecBuildFor(b, indexConstant(l, 0),
                                     indexConstant(l, count * l->lanes),
                                     indexConstant(l, l->lanes), 0, NULL);
  MlirValue operands[] = {zeros, storage, loop.inductionVar};
  coopvecBuild0(&loop.body, "vector.store", 3, operands, 0, NULL);
  coopvecFinishFor(&loop, 0, NULL);
}

//===----------------------------------------------------------------------===//
// The status of the run
//===----------------------------------------------------------------------===//

/// The status argument, added to @f_batched with the first check.
static MlirValue statusBuffer(CPULowering *l) {
  if (mlirValueIsNull(l->p.status)) {
    int64_t two = 2;
    MlirType type = mlirMemRefTypeContiguousGet(
        mlirIntegerTypeGet(l->p.ctx, 64), 1, &two, mlirAttributeGetNull());
    l->p.status = mlirBlockAddArgument(l->entryBlock, type, l->p.body.location);
  }
  return l->p.status;
}

/// status[0] += the number of lanes in `outside`; status[1] = min(status[1],
/// (first such thread) * 2^16 + check), when some lane is.
static void cpuReport(CoopvecPerThread *p, CoopvecBuilder *b, MlirValue outside,
                      int64_t check) {
  CPULowering *l = cpuOf(p);
  MlirValue lanes =
      isVarying(outside)
          ? coopvecBuildBinaryOp(b, "arith.andi", p->active, outside)
          : coopvecBuildBinaryOp(
                b, "arith.andi", p->active,
                coopvecBuildBroadcast(b, outside, mlirValueGetType(p->active)));
  CoopvecIf any = coopvecBuildIf(b, cpuAnyActive(p, b, lanes));
  CoopvecBuilder *in = &any.then;
  MlirType i64 = mlirIntegerTypeGet(p->ctx, 64);
  MlirValue count = reduce(
      in, "#vector.kind<add>",
      coopvecBuildCast1(in, "arith.extui", lanes, cpuVaryingType(p, i64)), i64);
  MlirValue first = reduce(
      in, "#vector.kind<minui>",
      coopvecBuildSelect(in, lanes, laneIds(l),
                         coopvecBuildIntSplatConstant(
                             in, mlirValueGetType(laneIds(l)), l->lanes)),
      p->index);
  // Under lane refill each lane holds a thread of its own (threadIds).
  MlirValue thread =
      mlirValueIsNull(l->threadIds)
          ? coopvecBuildBinaryOp(in, "arith.addi", l->threadBase, first)
          : reduce(in, "#vector.kind<minui>",
                   coopvecBuildSelect(
                       in, lanes, l->threadIds,
                       coopvecBuildIntSplatConstant(
                           in, mlirValueGetType(l->threadIds), INT64_MAX)),
                   p->index);
  MlirValue key = coopvecBuildBinaryOp(
      in, "arith.addi",
      coopvecBuildBinaryOp(in, "arith.muli", thread, indexConstant(l, 1 << 16)),
      indexConstant(l, check));
  MlirValue status = statusBuffer(l);
  coopvecBuildAtomic(in, coopvecAtomicKindAttr(p->ctx, COOPVEC_ATOMIC_ADDI),
                     count, status, indexConstant(l, 0));
  coopvecBuildAtomic(in, coopvecAtomicKindAttr(p->ctx, COOPVEC_ATOMIC_MINS),
                     coopvecBuildCast1(in, "arith.index_cast", key, i64),
                     status, indexConstant(l, 1));
  coopvecFinishIf(&any);
}

/// From the memref's descriptor.
static MlirValue cpuBufferSize(CoopvecPerThread *p, MlirValue memref) {
  MlirValue operands[] = {memref, coopvecPerThreadIndex(p, 0)};
  return coopvecBuild1(&p->entry, "memref.dim", 2, operands, p->index, 0, NULL);
}

const CoopvecMemoryHooks cpuMemoryHooks = {
    .bufferSize = cpuBufferSize,
    .load = cpuLoad,
    .store = cpuStore,
    .atomic = cpuAtomic,
    .allocLocal = cpuAllocLocal,
    .zeroLocal = cpuZeroLocal,
    .report = cpuReport,
};
