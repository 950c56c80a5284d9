//===- GPUThreads.c - Varying values, masks and memory of GPU threads -----===//
//
// A GPU thread is one thread of the per-thread program: a varying value is
// the thread's own scalar, and memory at varying places is the thread's
// own load or store (docs/execution-model.md, "GPU targets").
//
// Control flow that holds a cooperative op (a tensor-core matvec, whose
// staging and barriers need the whole workgroup; the training ops, whose
// subgroup reductions need the whole subgroup) runs masked: every thread
// of the workgroup goes through it, and whether a branch or another
// iteration runs is a vote of the workgroup (anyActive, maxOverGroup:
// workgroup memory between barriers). Other varying control flow is
// divergent thread code (ControlFlow.c).
//
// Out-of-bounds accesses are counted into a status buffer, a trailing
// `memref<?xi64>` argument of the kernel that it gains with its first
// check (as the CPU's @f_batched): [0] the number of (thread, op)
// accesses, [1] the smallest thread * 2^16 + check index, and from [2] on
// the sizes of the kernel's arguments, which the engine writes.
//
//===----------------------------------------------------------------------===//

#include "Conversion/CoopvecToGPU/GPU.h"

#include "Dialect/Verifier.h"

#include "coopvec-c/Support.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>

#include <stdlib.h>
#include <string.h>

static MlirValue indexConstant(GPULowering *l, int64_t value) {
  return coopvecPerThreadIndex(&l->p, value);
}

MlirType gpuVaryingType(CoopvecPerThread *p, MlirType scalar) {
  (void)p;
  return scalar;
}

static MlirValue atomic(CoopvecBuilder *b, int kind, MlirValue value,
                        MlirValue memref, MlirValue index) {
  return coopvecBuildAtomic(b, coopvecAtomicKindAttr(b->context, kind), value,
                            memref, index);
}

//===----------------------------------------------------------------------===//
// Votes of the workgroup
//===----------------------------------------------------------------------===//

/// One i32 of workgroup memory for votes, made once at the entry.
static MlirValue voteBuffer(GPULowering *l) {
  if (mlirValueIsNull(l->vote))
    l->vote = coopvecBuildWorkgroupAlloc(
        &l->p.entry, mlirIntegerTypeGet(l->p.ctx, 32), 1, 16);
  return l->vote;
}

/// Whether `mask` is set in some thread of the workgroup: the vote word is
/// reset by thread 0, set by every thread whose mask is, and read back by
/// all; the barriers keep votes apart.
MlirValue gpuAnyActive(CoopvecPerThread *p, CoopvecBuilder *b, MlirValue mask) {
  GPULowering *l = gpuOf(p);
  MlirType i32 = mlirIntegerTypeGet(p->ctx, 32);
  MlirValue vote = voteBuffer(l), zero = indexConstant(l, 0);
  coopvecBuildBarrier(b);
  CoopvecIf first = coopvecBuildIf(
      b, coopvecBuildCmpI(b, COOPVEC_CMPI_EQ, l->threadInBlock, zero));
  coopvecBuildMemrefStore(
      &first.then, coopvecBuildIntConstant(&first.then, i32, 0), vote, zero);
  coopvecFinishIf(&first);
  coopvecBuildBarrier(b);
  CoopvecIf set = coopvecBuildIf(b, mask);
  coopvecBuildMemrefStore(&set.then, coopvecBuildIntConstant(&set.then, i32, 1),
                          vote, zero);
  coopvecFinishIf(&set);
  coopvecBuildBarrier(b);
  MlirValue result = coopvecBuildCmpI(b, COOPVEC_CMPI_NE,
                                      coopvecBuildMemrefLoad(b, vote, zero),
                                      coopvecBuildIntConstant(b, i32, 0));
  coopvecBuildBarrier(b);
  return result;
}

typedef struct CooperativeSearch {
  const GPUPlan *plan;
  bool localAdds; // reduce-mode=local: scatter-adds need the subgroup
  bool found;
} CooperativeSearch;

static MlirWalkResult findCooperative(MlirOperation op, void *userData) {
  CooperativeSearch *search = userData;
  intptr_t schedule = coopvecPointerMapFind(&search->plan->schedules, op.ptr);
  bool tensorCores = coopvecOpIs(op, CoopvecOpMatvec) && schedule > 0 &&
                     schedule != GPUScheduleSIMT;
  if (!tensorCores && !coopvecOpIs(op, CoopvecOpOuterProductAccumulate) &&
      !coopvecOpIs(op, CoopvecOpReduceSumAccumulate) &&
      !(search->localAdds && coopvecOpIsScatterAdd(op)))
    return MlirWalkResultAdvance;
  search->found = true;
  return MlirWalkResultInterrupt;
}

/// Control flow holding a cooperative op is masked; a reduce_sum_accumulate
/// at a varying offset is per-thread atomics, but counting it too keeps
/// the rule simple.
bool gpuMasksRegion(CoopvecPerThread *p, MlirOperation op) {
  CooperativeSearch search = {gpuOf(p)->plan,
                              p->reduceMode == CoopvecReduceLocal, false};
  mlirOperationWalk(op, findCooperative, &search, MlirWalkPreOrder);
  return search.found;
}

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

/// The threads that access: active, and `mask` where there is one; null
/// when that is every thread running the code.
static MlirValue accessing(GPULowering *l, CoopvecBuilder *b, MlirValue mask) {
  MlirValue active = l->p.allActive ? (MlirValue){NULL} : l->p.active;
  if (mlirValueIsNull(active))
    return mask;
  if (mlirValueIsNull(mask))
    return active;
  return coopvecBuildBinaryOp(b, "arith.andi", active, mask);
}

static MlirValue zeroOf(CoopvecBuilder *b, MlirType type) {
  return mlirTypeIsAFloat(type) ? coopvecBuildFloatConstant(b, type, 0.0)
                                : coopvecBuildIntConstant(b, type, 0);
}

static MlirValue gpuLoad(CoopvecPerThread *p, CoopvecBuilder *b,
                         const CoopvecElementAccess *a, MlirValue mask) {
  MlirValue enabled = accessing(gpuOf(p), b, mask);
  if (mlirValueIsNull(enabled))
    return coopvecBuildMemrefLoad(b, a->buffer, a->index);
  MlirType types[] = {a->element};
  CoopvecIfElse branch = coopvecBuildIfElse(b, enabled, 1, types);
  MlirValue loaded = coopvecBuildMemrefLoad(&branch.then, a->buffer, a->index);
  MlirValue zero = zeroOf(&branch.otherwise, a->element);
  coopvecFinishIfElse(&branch, &loaded, &zero);
  return mlirOperationGetResult(branch.op, 0);
}

static void gpuStore(CoopvecPerThread *p, CoopvecBuilder *b,
                     const CoopvecElementAccess *a, MlirValue value,
                     MlirValue mask) {
  MlirValue enabled = accessing(gpuOf(p), b, mask);
  if (mlirValueIsNull(enabled)) {
    coopvecBuildMemrefStore(b, value, a->buffer, a->index);
    return;
  }
  CoopvecIf branch = coopvecBuildIf(b, enabled);
  coopvecBuildMemrefStore(&branch.then, value, a->buffer, a->index);
  coopvecFinishIf(&branch);
}

/// `gpu.subgroup_reduce <kind>` of `value` over the whole subgroup.
static MlirValue subgroupReduce(CoopvecBuilder *b, const char *kind,
                                MlirValue value) {
  if (strcmp(kind, "add") == 0)
    return coopvecBuildSubgroupReduce(b, "#gpu<all_reduce_op add>", value);
  return coopvecBuildSubgroupReduce(b, "#gpu<all_reduce_op minui>", value);
}

static MlirValue i32Of(CoopvecBuilder *b, MlirValue value) {
  MlirType i32 = mlirIntegerTypeGet(b->context, 32);
  if (mlirTypeIsAIndex(mlirValueGetType(value)))
    return coopvecBuildCast1(b, "arith.index_cast", value, i32);
  return coopvecBuildCast1(b, "arith.extui", value, i32);
}

/// The threads of `pending` whose `index` is the smallest pending one of
/// the subgroup (compared in its low, then its high 32 bits, so that
/// integer reductions stay 32-bit).
static MlirValue smallestAddress(CoopvecBuilder *b, MlirValue index,
                                 MlirValue pending) {
  MlirType i64 = mlirIntegerTypeGet(b->context, 64);
  MlirType i32 = mlirIntegerTypeGet(b->context, 32);
  MlirValue wide = coopvecBuildCast1(b, "arith.index_cast", index, i64);
  MlirValue parts[] = {
      coopvecBuildCast1(b, "arith.trunci", wide, i32),
      coopvecBuildCast1(
          b, "arith.trunci",
          coopvecBuildBinaryOp(b, "arith.shrui", wide,
                               coopvecBuildIntConstant(b, i64, 32)),
          i32)};
  MlirValue none = coopvecBuildIntConstant(b, i32, -1); // above every part
  MlirValue same = pending;
  for (int i = 0; i < 2; ++i) {
    MlirValue least =
        subgroupReduce(b, "minui", coopvecBuildSelect(b, same, parts[i], none));
    same = coopvecBuildBinaryOp(
        b, "arith.andi", same,
        coopvecBuildCmpI(b, COOPVEC_CMPI_EQ, parts[i], least));
  }
  return same;
}

/// `scf.while (%arg = init)` of one i1, with the blocks `before` and
/// `after` (each with one i1 argument), inserted at `b`.
static void buildWhile(CoopvecBuilder *b, MlirValue init, MlirBlock before,
                       MlirBlock after) {
  MlirRegion regions[] = {mlirRegionCreate(), mlirRegionCreate()};
  mlirRegionAppendOwnedBlock(regions[0], before);
  mlirRegionAppendOwnedBlock(regions[1], after);
  MlirType type = mlirValueGetType(init);
  MlirOperationState state = mlirOperationStateGet(
      mlirStringRefCreateFromCString("scf.while"), b->location);
  mlirOperationStateAddOperands(&state, 1, &init);
  mlirOperationStateAddResults(&state, 1, &type);
  mlirOperationStateAddOwnedRegions(&state, 2, regions);
  MlirOperation loop = mlirOperationCreate(&state);
  if (mlirOperationIsNull(loop))
    abort(); // one i1 carried through two one-argument blocks
  mlirBlockInsertOwnedOperationBefore(b->block, b->before, loop);
}

/// reduce-mode=local (ReduceMode.h), with the whole subgroup here (the
/// control flow around runs masked, gpuMasksRegion): while a thread of the
/// subgroup is pending, the pending threads at the smallest pending address
/// sum their values (subgroup add, f32 for floats: f16 rounds once, at the
/// atomic) and the first of them adds the sum with one atomic.
static void localAdd(GPULowering *l, CoopvecBuilder *b,
                     const CoopvecElementAccess *a, MlirAttribute kind,
                     MlirValue value, MlirValue enabled) {
  MlirType i1 = mlirIntegerTypeGet(l->p.ctx, 1);
  MlirLocation loc = b->location;
  MlirBlock before = mlirBlockCreate(1, &i1, &loc);
  MlirBlock after = mlirBlockCreate(1, &i1, &loc);
  buildWhile(b, enabled, before, after); // carries `pending`
  CoopvecBuilder test = coopvecBuilderAtEnd(before, loc);
  MlirValue pending = mlirBlockGetArgument(before, 0);
  MlirValue any = coopvecBuildCmpI(
      &test, COOPVEC_CMPI_NE,
      subgroupReduce(&test, "add", i32Of(&test, pending)),
      coopvecBuildIntConstant(&test, mlirIntegerTypeGet(l->p.ctx, 32), 0));
  MlirValue condition[] = {any, pending};
  coopvecBuild0(&test, "scf.condition", 2, condition, 0, NULL);
  CoopvecBuilder in = coopvecBuilderAtEnd(after, loc);
  pending = mlirBlockGetArgument(after, 0);
  MlirValue same = smallestAddress(&in, a->index, pending);
  bool isFloat = mlirTypeIsAFloat(a->element);
  MlirValue wide = isFloat ? coopvecWidenToF32(&in, value) : value;
  MlirValue identity =
      isFloat ? coopvecPerThreadConstant(&l->p, -0.0) : zeroOf(&in, a->element);
  MlirValue sum = coopvecNarrowTo(
      &in,
      subgroupReduce(&in, "add", coopvecBuildSelect(&in, same, wide, identity)),
      a->element);
  MlirValue thread = i32Of(&in, l->threadInBlock);
  MlirValue first = subgroupReduce(
      &in, "minui",
      coopvecBuildSelect(
          &in, same, thread,
          coopvecBuildIntConstant(&in, mlirIntegerTypeGet(l->p.ctx, 32), -1)));
  CoopvecIf leader = coopvecBuildIf(
      &in, coopvecBuildCmpI(&in, COOPVEC_CMPI_EQ, thread, first));
  coopvecBuildAtomic(&leader.then, kind, sum, a->buffer, a->index);
  coopvecFinishIf(&leader);
  // `same` is a subset of `pending`: xor clears exactly those threads.
  MlirValue left = coopvecBuildBinaryOp(&in, "arith.xori", pending, same);
  coopvecBuild0(&in, "scf.yield", 1, &left, 0, NULL);
}

static MlirValue gpuAtomic(CoopvecPerThread *p, CoopvecBuilder *b,
                           const CoopvecElementAccess *a, MlirAttribute kind,
                           MlirValue value, MlirValue mask) {
  MlirValue enabled = accessing(gpuOf(p), b, mask);
  if (p->reduceMode == CoopvecReduceLocal && coopvecIsScatterAdd(a, kind)) {
    if (mlirValueIsNull(enabled))
      enabled = coopvecBuildIntConstant(b, mlirIntegerTypeGet(p->ctx, 1), 1);
    localAdd(gpuOf(p), b, a, kind, value, enabled);
    return zeroOf(b, a->element); // unused (coopvecIsScatterAdd)
  }
  MlirNamedAttribute attr = coopvecNamedAttr(p->ctx, "kind", kind);
  MlirValue operands[] = {value, a->buffer, a->index};
  if (mlirValueIsNull(enabled))
    return coopvecBuild1(b, "memref.atomic_rmw", 3, operands, a->element, 1,
                         &attr);
  MlirType types[] = {a->element};
  CoopvecIfElse branch = coopvecBuildIfElse(b, enabled, 1, types);
  MlirValue old = coopvecBuild1(&branch.then, "memref.atomic_rmw", 3, operands,
                                a->element, 1, &attr);
  MlirValue zero = zeroOf(&branch.otherwise, a->element);
  coopvecFinishIfElse(&branch, &old, &zero);
  return mlirOperationGetResult(branch.op, 0);
}

/// A private array of the thread (local memory on NVIDIA, Function storage
/// on Vulkan), at the kernel's entry.
static MlirValue gpuAllocLocal(CoopvecPerThread *p, int64_t count,
                               MlirType element) {
  MlirType type =
      mlirMemRefTypeContiguousGet(element, 1, &count, mlirAttributeGetNull());
  return coopvecBuildAlloca(&p->entry, type, 16);
}

static void gpuZeroLocal(CoopvecPerThread *p, CoopvecBuilder *b,
                         MlirValue storage, int64_t count) {
  GPULowering *l = gpuOf(p);
  MlirType element = mlirShapedTypeGetElementType(mlirValueGetType(storage));
  CoopvecLoop loop =
      coopvecBuildFor(b, indexConstant(l, 0), indexConstant(l, count),
                      indexConstant(l, 1), 0, NULL);
  coopvecBuildMemrefStore(&loop.body, zeroOf(&loop.body, element), storage,
                          loop.inductionVar);
  coopvecFinishFor(&loop, 0, NULL);
}

//===----------------------------------------------------------------------===//
// The status of the run
//===----------------------------------------------------------------------===//

static MlirValue statusBuffer(GPULowering *l) {
  if (mlirValueIsNull(l->p.status)) {
    int64_t dynamic = mlirShapedTypeGetDynamicSize();
    MlirType type = mlirMemRefTypeContiguousGet(
        mlirIntegerTypeGet(l->p.ctx, 64), 1, &dynamic, mlirAttributeGetNull());
    l->p.status = mlirBlockAddArgument(l->entryBlock, type, l->p.body.location);
  }
  return l->p.status;
}

/// SPIR-V storage buffers carry no size (MLIR's SPIR-V conversion has no
/// memref.dim of one), so the engine writes the sizes of the kernel's
/// arguments into the status buffer: word 2 + i for argument i.
static MlirValue gpuBufferSize(CoopvecPerThread *p, MlirValue memref) {
  GPULowering *l = gpuOf(p);
  intptr_t argument = mlirBlockArgumentGetArgNumber(memref);
  MlirValue size = coopvecBuildMemrefLoad(&p->entry, statusBuffer(l),
                                          indexConstant(l, 2 + argument));
  return coopvecBuildCast1(&p->entry, "arith.index_cast", size, p->index);
}

/// Marks a status atomic (GPU.h, COOPVEC_GPU_STATUS_REPORT_ATTR) for the
/// targets that gather them per thread (coopvec-prepare-spirv).
static void markStatusReport(MlirValue old) {
  MlirOperation op = mlirOpResultGetOwner(old);
  mlirOperationSetDiscardableAttributeByName(
      op, mlirStringRefCreateFromCString(COOPVEC_GPU_STATUS_REPORT_ATTR),
      mlirUnitAttrGet(mlirOperationGetContext(op)));
}

static void gpuReport(CoopvecPerThread *p, CoopvecBuilder *b, MlirValue outside,
                      int64_t check) {
  GPULowering *l = gpuOf(p);
  MlirValue reporting = accessing(l, b, outside);
  CoopvecIf branch = coopvecBuildIf(b, reporting);
  CoopvecBuilder *in = &branch.then;
  MlirType i64 = mlirIntegerTypeGet(p->ctx, 64);
  MlirValue status = statusBuffer(l);
  MlirValue key =
      coopvecBuildBinaryOp(in, "arith.addi",
                           coopvecBuildBinaryOp(in, "arith.muli", l->thread,
                                                indexConstant(l, 1 << 16)),
                           indexConstant(l, check));
  MlirValue counted =
      atomic(in, COOPVEC_ATOMIC_ADDI, coopvecBuildIntConstant(in, i64, 1),
             status, indexConstant(l, 0));
  MlirValue first = atomic(in, COOPVEC_ATOMIC_MINS,
                           coopvecBuildCast1(in, "arith.index_cast", key, i64),
                           status, indexConstant(l, 1));
  markStatusReport(counted);
  markStatusReport(first);
  coopvecFinishIf(&branch);
}

const CoopvecMemoryHooks gpuMemoryHooks = {
    .bufferSize = gpuBufferSize,
    .load = gpuLoad,
    .store = gpuStore,
    .atomic = gpuAtomic,
    .allocLocal = gpuAllocLocal,
    .zeroLocal = gpuZeroLocal,
    .report = gpuReport,
};
