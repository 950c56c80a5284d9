//===- CPUTransfers.c - Arguments, results, stores and uniform ops --------===//
//
// Thread t's vec argument of N elements is row t of an n x N buffer, so the
// group's element i is a strided gather (stride N) over its L threads, and
// a result element a strided scatter. The N gathers (scatters) of an
// argument (result) run in an element loop over the value's tile
// (memref<N x L x f32>), so the code does not grow with N x L.
//
//===----------------------------------------------------------------------===//

#include "Conversion/CoopvecToCPU/CPU.h"

#include "Dialect/Verifier.h"

#include <mlir-c/BuiltinTypes.h>

#include <stdlib.h>

static MlirValue indexConstant(CPULowering *l, int64_t value) {
  return coopvecPerThreadIndex(&l->p, value);
}

/// dense<[0, N, 2N, ...]> : vector<L x i32>: thread l's element i of a
/// row-major n x N buffer is at (threadBase + l) * N + i.
static MlirValue laneStrides(CPULowering *l, intptr_t size) {
  int32_t *strides = malloc(sizeof(int32_t) * (size_t)l->lanes);
  if (!strides)
    abort();
  for (int64_t lane = 0; lane < l->lanes; ++lane)
    strides[lane] = (int32_t)(lane * size);
  MlirValue constant =
      coopvecBuildI32VectorConstant(&l->p.entry, l->lanes, strides);
  free(strides);
  return constant;
}

/// The element index of element `i` (an index value) of the group's first
/// thread: threadBase * N + i.
static MlirValue groupElementIndex(CPULowering *l, CoopvecBuilder *b,
                                   intptr_t size, MlirValue i) {
  MlirValue base = size == 1 ? l->threadBase
                             : coopvecBuildBinaryOp(b, "arith.muli",
                                                    l->threadBase,
                                                    indexConstant(l, size));
  return coopvecBuildBinaryOp(b, "arith.addi", base, i);
}

/// The lane-vector type of `element` (f16 or f32).
static MlirType laneVectorOf(CPULowering *l, MlirType element) {
  int64_t lanes = l->lanes;
  return mlirVectorTypeGet(1, &lanes, element);
}

/// for i < size: tile[i] = gather(buffer, group element i).
static void gatherToTile(CPULowering *l, MlirValue buffer, MlirType element,
                         intptr_t size, MlirValue tile) {
  MlirType loadType = laneVectorOf(l, element);
  MlirValue strides = laneStrides(l, size);
  MlirValue passThrough =
      coopvecBuildFloatSplatConstant(&l->p.entry, loadType, 0.0);
  CoopvecLoop loop = coopvecElementLoop(&l->p, size);
  CoopvecBuilder *b = &loop.body;
  MlirValue operands[] = {buffer,
                          groupElementIndex(l, b, size, loop.inductionVar),
                          strides, l->mask, passThrough};
  MlirValue lanes = coopvecWidenToF32(
      b, coopvecBuild1(b, "vector.gather", 5, operands, loadType, 0, NULL));
  cpuStoreRow(&l->p, b, tile, loop.inductionVar, lanes);
  coopvecFinishFor(&loop, 0, NULL);
}

void cpuLoadVecArgument(CPULowering *l, MlirValue arg, MlirValue buffer) {
  MlirType vecType = mlirValueGetType(arg);
  intptr_t size = (intptr_t)coopvecVecTypeGetSize(vecType);
  bool tiled = coopvecWantsTile(&l->p, size);
  MlirValue tile = tiled ? cpuAllocTile(&l->p, size)
                         : coopvecScratchTile(&l->p, size);
  gatherToTile(l, buffer, coopvecVecTypeGetElementType(vecType), size, tile);
  if (tiled) {
    coopvecMapTile(&l->p, arg, size, tile);
    return;
  }
  MlirValue lanes[CPU_SSA_MAX_ELEMENTS];
  for (intptr_t i = 0; i < size && i < CPU_SSA_MAX_ELEMENTS; ++i)
    lanes[i] = cpuLoadRow(&l->p, &l->p.body, tile, indexConstant(l, i));
  coopvecMapElements(&l->p, arg, size, lanes);
}

/// for i < size: scatter(buffer, group element i) = tile[i].
static void scatterFromTile(CPULowering *l, MlirValue buffer, MlirType element,
                            intptr_t size, MlirValue tile) {
  MlirValue strides = laneStrides(l, size);
  CoopvecLoop loop = coopvecElementLoop(&l->p, size);
  CoopvecBuilder *b = &loop.body;
  MlirValue lanes = coopvecNarrowTo(
      b, cpuLoadRow(&l->p, b, tile, loop.inductionVar), element);
  MlirValue operands[] = {buffer,
                          groupElementIndex(l, b, size, loop.inductionVar),
                          strides, l->mask, lanes};
  coopvecBuild0(b, "vector.scatter", 5, operands, 0, NULL);
  coopvecFinishFor(&loop, 0, NULL);
}

void cpuStoreResults(CPULowering *l, MlirOperation ret, intptr_t firstOutput) {
  for (intptr_t r = 0; r < mlirOperationGetNumOperands(ret); ++r) {
    MlirValue value = mlirOperationGetOperand(ret, r);
    scatterFromTile(l, mlirBlockGetArgument(l->entryBlock, firstOutput + r),
                    coopvecVecElementOf(value), coopvecVecSizeOf(value),
                    coopvecTileOf(&l->p, value));
  }
}

//===----------------------------------------------------------------------===//
// Stores
//===----------------------------------------------------------------------===//

/// The lane of the group's last valid thread: a per-thread store to a
/// uniform address is a race between threads, and the CPU writes the value
/// of the highest-numbered thread, as if threads ran one after another.
static MlirValue lastThreadLane(CPULowering *l) {
  if (mlirValueIsNull(l->lastLane))
    l->lastLane = coopvecBuildBinaryOp(&l->p.body, "arith.subi",
                                       l->validLanes, indexConstant(l, 1));
  return l->lastLane;
}

/// The group's last thread's elements, gathered into one vector<N x T> by
/// an element loop, then stored like vector.store / vector.maskedstore.
bool cpuLowerStore(CoopvecPerThread *p, MlirOperation op) {
  CPULowering *l = cpuOf(p);
  MlirValue value = mlirOperationGetOperand(op, 0);
  MlirValue base = mlirOperationGetOperand(op, 1);
  MlirType element = mlirShapedTypeGetElementType(mlirValueGetType(base));
  int64_t size = coopvecVecSizeOf(value);
  MlirType vectorType = mlirVectorTypeGet(1, &size, element);
  MlirValue lastLane = lastThreadLane(l);
  MlirValue init = coopvecBuildFloatSplatConstant(&p->body, vectorType, 0.0);
  coopvecPrepareForLoop(p, value);
  CoopvecLoop loop = coopvecBuildFor(&p->body, indexConstant(l, 0),
                                     indexConstant(l, size),
                                     indexConstant(l, 1), 1, &init);
  CoopvecBuilder *b = &loop.body;
  MlirValue row = coopvecOperandRow(p, b, value, loop.inductionVar);
  MlirValue scalar =
      coopvecNarrowTo(b, coopvecBuildExtractDynamic(b, row, lastLane), element);
  MlirValue inserted =
      coopvecBuildInsertDynamic(b, scalar, coopvecLoopIterArg(&loop, 0),
                                loop.inductionVar);
  coopvecFinishFor(&loop, 1, &inserted);
  MlirValue vector = mlirOperationGetResult(loop.op, 0);
  MlirValue offset = mlirOperationGetOperand(op, 2);
  if (coopvecOpIs(op, CoopvecOpMaskedStore)) {
    MlirValue operands[] = {base, offset, mlirOperationGetOperand(op, 3),
                            vector};
    coopvecBuild0(&p->body, "vector.maskedstore", 4, operands, 0, NULL);
  } else {
    MlirValue operands[] = {vector, base, offset};
    coopvecBuild0(&p->body, "vector.store", 3, operands, 0, NULL);
  }
  return true;
}

//===----------------------------------------------------------------------===//
// Uniform ops
//===----------------------------------------------------------------------===//

/// Uniform ops (checked before the lowering started) are moved into the
/// lane loop in order, so they run once per group of threads.
bool cpuLowerUniformOp(CoopvecPerThread *p, MlirOperation op) {
  mlirOperationMoveBefore(op, p->body.before);
  return true;
}
