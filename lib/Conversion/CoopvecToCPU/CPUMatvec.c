//===- CPUMatvec.c - matvec and the training ops on SIMD lanes ------------===//
//
// For a group of L threads, matvec is the small GEMM Y[out x L] =
// W[out x in] * X[in x L]. It is emitted as a register-blocked micro-kernel
// with loops, so that its code size does not grow with the matrix:
//
//   IN[p] = x_p                      (the input lane vectors, on the stack)
//   for o0 in 0, R, 2R, ...          (blocks of R = rowBlock output rows)
//     acc_r = bias_{o0+r} or -0.0    (r < R, R accumulators in registers)
//     for p in 0 .. in:
//       x = IN[p]
//       acc_r = fma(broadcast(W[o0 + r, p]), x, acc_r)
//     OUT[o0 + r] = acc_r
//   y_o = OUT[o]                     (back to lane vectors)
//
// Each x is loaded once per block and used by R fmas; each weight is one
// scalar load that LLVM folds into a broadcasting vfmadd. The last M % R
// rows get one smaller block. -0.0 is the additive identity (-0.0 + y = y
// for every y; +0.0 + -0.0 would be +0.0), so starting from it sums the
// products exactly as if the first product started the sum.
//
// outer_product_accumulate accumulates into an f32 gradient tile on the
// stack and adds it to the gradient buffer with one atomic per element
// after the lane loop (see cpuLowerOuterProduct).
//
//===----------------------------------------------------------------------===//

#include "Conversion/CoopvecToCPU/CPU.h"

#include "Dialect/Verifier.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>

#include <stdlib.h>

static MlirValue indexConstant(CPULowering *l, int64_t value) {
  return coopvecPerThreadIndex(&l->p, value);
}

//===----------------------------------------------------------------------===//
// Stack tiles
//===----------------------------------------------------------------------===//

MlirValue cpuAllocaMatrix(CPULowering *l, int64_t rows, int64_t cols) {
  int64_t shape[] = {rows, cols};
  MlirType type = mlirMemRefTypeContiguousGet(l->p.f32, 2, shape,
                                              mlirAttributeGetNull());
  // A cache line, and a zmm register for 16 lanes.
  return coopvecBuildAlloca(&l->p.entry, type, 64);
}

MlirValue cpuAllocTile(CoopvecPerThread *p, int64_t rows) {
  return cpuAllocaMatrix(cpuOf(p), rows, cpuOf(p)->lanes);
}

MlirValue cpuLoadRow(CoopvecPerThread *p, CoopvecBuilder *b, MlirValue tile,
                     MlirValue row) {
  MlirValue operands[] = {tile, row, coopvecPerThreadIndex(p, 0)};
  return coopvecBuild1(b, "vector.load", 3, operands, cpuOf(p)->laneType, 0,
                       NULL);
}

void cpuStoreRow(CoopvecPerThread *p, CoopvecBuilder *b, MlirValue tile,
                 MlirValue row, MlirValue value) {
  MlirValue operands[] = {value, tile, row, coopvecPerThreadIndex(p, 0)};
  coopvecBuild0(b, "vector.store", 4, operands, 0, NULL);
}

MlirValue cpuMaskLanes(CPULowering *l, CoopvecBuilder *b, MlirValue value) {
  return coopvecBuildSelect(b, l->mask, value,
                            coopvecPerThreadConstant(&l->p, 0.0));
}

/// Opens an scf.for in the lane loop body and moves the body builder into
/// it; closeLoop moves it back.
static CoopvecLoop openLoop(CPULowering *l, MlirValue lower, MlirValue upper,
                            MlirValue step, intptr_t numInits,
                            const MlirValue *inits, CoopvecBuilder *saved) {
  CoopvecLoop loop =
      coopvecBuildFor(&l->p.body, lower, upper, step, numInits, inits);
  *saved = l->p.body;
  l->p.body = loop.body;
  return loop;
}

static void closeLoop(CPULowering *l, CoopvecLoop *loop, intptr_t numValues,
                      const MlirValue *values, const CoopvecBuilder *saved) {
  loop->body = l->p.body;
  coopvecFinishFor(loop, numValues, values);
  l->p.body = *saved;
}

//===----------------------------------------------------------------------===//
// matvec
//===----------------------------------------------------------------------===//

typedef struct MatvecShape {
  const CoopvecMatrixView *view;
  /// IN (the input's rows), BIAS (null without bias) and OUT tiles.
  MlirValue inputTile, biasTile, outputTile;
  intptr_t numOutputs, numInputs;
  /// W[o, p] is at view->base + o * outputStride + p * inputStride.
  int64_t outputStride, inputStride;
} MatvecShape;

static MatvecShape matvecShape(const CoopvecMatrixView *view, bool transpose) {
  // The opaque layouts are row-major on the CPU target.
  bool colMajor = view->layout == CoopvecLayoutColMajor;
  int64_t rowStride = colMajor ? 1 : view->cols;
  int64_t colStride = colMajor ? view->rows : 1;
  MatvecShape shape = {.view = view};
  shape.numOutputs = transpose ? view->cols : view->rows;
  shape.numInputs = transpose ? view->rows : view->cols;
  shape.outputStride = transpose ? colStride : rowStride;
  shape.inputStride = transpose ? rowStride : colStride;
  return shape;
}

static MlirValue addIndex(CPULowering *l, MlirValue value, int64_t constant) {
  if (constant == 0)
    return value;
  return coopvecBuildBinaryOp(&l->p.body, "arith.addi", value,
                              indexConstant(l, constant));
}

static MlirValue mulIndex(CPULowering *l, MlirValue value, int64_t constant) {
  if (constant == 1)
    return value;
  return coopvecBuildBinaryOp(&l->p.body, "arith.muli", value,
                              indexConstant(l, constant));
}

/// acc + W[row, p] * x for the element index `index` of W[row, p].
static MlirValue weightFma(CPULowering *l, const MatvecShape *shape,
                           MlirValue index, MlirValue x, MlirValue acc) {
  MlirValue operands[] = {shape->view->buffer, index};
  MlirValue weight = coopvecBuild1(&l->p.body, "memref.load", 2, operands,
                                   shape->view->element, 0, NULL);
  MlirValue broadcast = coopvecBuildBroadcast(
      &l->p.body, coopvecWidenToF32(&l->p.body, weight), l->laneType);
  return coopvecBuildTernaryOp(&l->p.body, "math.fma", broadcast, x, acc);
}

/// The p loop of a block: acc_r += W[row_r, p] * IN[p] for p < numInputs.
/// `rowStart[r]` is the element index of W[row_r, 0]. Returns the loop.
static CoopvecLoop emitInputLoop(CPULowering *l, const MatvecShape *shape,
                                 intptr_t count, const MlirValue *rowStart,
                                 const MlirValue *inits) {
  CoopvecBuilder saved;
  CoopvecLoop loop =
      openLoop(l, indexConstant(l, 0), indexConstant(l, shape->numInputs),
               indexConstant(l, 1), count, inits, &saved);
  MlirValue x =
      cpuLoadRow(&l->p, &l->p.body, shape->inputTile, loop.inductionVar);
  MlirValue column = mulIndex(l, loop.inductionVar, shape->inputStride);
  MlirValue *acc = calloc((size_t)count, sizeof(MlirValue));
  if (!acc)
    abort();
  for (intptr_t r = 0; r < count; ++r) {
    MlirValue index =
        coopvecBuildBinaryOp(&l->p.body, "arith.addi", rowStart[r], column);
    acc[r] = weightFma(l, shape, index, x, coopvecLoopIterArg(&loop, r));
  }
  closeLoop(l, &loop, count, acc, &saved);
  free(acc);
  return loop;
}

/// Output rows first .. first + count - 1 into OUT; the accumulators start
/// at the bias rows (BIAS may be OUT itself: each row is read before it is
/// written). `first` is the loop's induction variable, or null for the
/// constant `firstConstant`.
static void emitRowBlock(CPULowering *l, const MatvecShape *shape,
                         MlirValue first, int64_t firstConstant,
                         intptr_t count) {
  MlirValue *rows = calloc((size_t)count, sizeof(MlirValue));
  MlirValue *rowStart = calloc((size_t)count, sizeof(MlirValue));
  MlirValue *inits = calloc((size_t)count, sizeof(MlirValue));
  if (!rows || !rowStart || !inits)
    abort();
  bool constant = mlirValueIsNull(first);
  MlirValue firstStart =
      constant ? (MlirValue){NULL}
               : addIndex(l, mulIndex(l, first, shape->outputStride),
                          shape->view->base);
  for (intptr_t r = 0; r < count; ++r) {
    rows[r] = constant ? indexConstant(l, firstConstant + r)
                       : addIndex(l, first, r);
    rowStart[r] =
        constant ? indexConstant(l, shape->view->base +
                                        (firstConstant + r) *
                                            shape->outputStride)
                 : addIndex(l, firstStart, r * shape->outputStride);
    inits[r] = mlirValueIsNull(shape->biasTile)
                   ? coopvecPerThreadConstant(&l->p, -0.0)
                   : cpuLoadRow(&l->p, &l->p.body, shape->biasTile, rows[r]);
  }
  CoopvecLoop loop = emitInputLoop(l, shape, count, rowStart, inits);
  for (intptr_t r = 0; r < count; ++r)
    cpuStoreRow(&l->p, &l->p.body, shape->outputTile, rows[r],
                mlirOperationGetResult(loop.op, r));
  free(rows);
  free(rowStart);
  free(inits);
}

/// All output rows: a loop over full blocks of rowBlock rows, then one
/// block for the remaining rows.
static void emitRowBlocks(CPULowering *l, const MatvecShape *shape) {
  intptr_t block = (intptr_t)l->rowBlock;
  intptr_t fullRows = shape->numOutputs - shape->numOutputs % block;
  if (fullRows > 0) {
    CoopvecBuilder saved;
    CoopvecLoop loop =
        openLoop(l, indexConstant(l, 0), indexConstant(l, fullRows),
                 indexConstant(l, block), 0, NULL, &saved);
    emitRowBlock(l, shape, loop.inductionVar, 0, block);
    closeLoop(l, &loop, 0, NULL, &saved);
  }
  if (fullRows < shape->numOutputs)
    emitRowBlock(l, shape, (MlirValue){NULL}, fullRows,
                 shape->numOutputs - fullRows);
}

static const CoopvecMatrixView *checkedView(CoopvecPerThread *p,
                                            MlirOperation op,
                                            MlirValue matrix) {
  const CoopvecMatrixView *view = coopvecLookupView(p, matrix);
  if (!view)
    coopvecEmitOpError(op, "needs a matrix defined by coopvec.matrix_view "
                           "in the same function");
  return view;
}

/// The input is read from its tile (or staged into a scratch one); the
/// result is written to its own tile, or, when the target keeps vecs this
/// small in SSA form, to a scratch tile it is loaded back from.
bool cpuLowerMatvec(CoopvecPerThread *p, MlirOperation op) {
  CPULowering *l = cpuOf(p);
  const CoopvecMatrixView *view =
      checkedView(p, op, mlirOperationGetOperand(op, 0));
  if (!view)
    return false;
  bool transpose = !mlirAttributeIsNull(mlirOperationGetAttributeByName(
      op, mlirStringRefCreateFromCString("transpose")));
  MatvecShape shape = matvecShape(view, transpose);
  shape.inputTile = coopvecTileOf(p, mlirOperationGetOperand(op, 1));
  if (mlirOperationGetNumOperands(op) > 2)
    shape.biasTile = coopvecTileOf(p, mlirOperationGetOperand(op, 2));
  MlirValue result = mlirOperationGetResult(op, 0);
  bool tiled = coopvecWantsTile(p, shape.numOutputs);
  shape.outputTile = tiled ? coopvecTileFor(p, op, shape.numOutputs, 0x4)
                           : coopvecScratchTile(p, shape.numOutputs);
  emitRowBlocks(l, &shape);
  if (tiled) {
    coopvecMapTile(p, result, shape.numOutputs, shape.outputTile);
    return true;
  }
  MlirValue results[CPU_SSA_MAX_ELEMENTS];
  for (intptr_t o = 0; o < shape.numOutputs && o < CPU_SSA_MAX_ELEMENTS; ++o)
    results[o] =
        cpuLoadRow(p, &p->body, shape.outputTile, indexConstant(l, o));
  coopvecMapElements(p, result, shape.numOutputs, results);
  return true;
}

//===----------------------------------------------------------------------===//
// outer_product_accumulate
//===----------------------------------------------------------------------===//

/// for i < rows: for j < cols, built at `b` (constants come from the
/// function's entry, so `b` may be the entry itself).
typedef struct GradientLoops {
  CoopvecLoop outer, inner;
} GradientLoops;

static GradientLoops openGradientLoops(CPULowering *l, CoopvecBuilder *b,
                                       const CoopvecMatrixView *view) {
  MlirValue zero = indexConstant(l, 0), one = indexConstant(l, 1);
  GradientLoops loops;
  loops.outer =
      coopvecBuildFor(b, zero, indexConstant(l, view->rows), one, 0, NULL);
  loops.inner = coopvecBuildFor(&loops.outer.body, zero,
                                indexConstant(l, view->cols), one, 0, NULL);
  return loops;
}

static void closeGradientLoops(GradientLoops *loops) {
  coopvecFinishFor(&loops->inner, 0, NULL);
  coopvecFinishFor(&loops->outer, 0, NULL);
}

/// Sets the f32 gradient tile to zero at `b`.
static void emitZeroTile(CPULowering *l, CoopvecBuilder *b, MlirValue tile,
                         const CoopvecMatrixView *view) {
  MlirValue zero = coopvecBuildFloatConstant(b, l->p.f32, 0.0);
  GradientLoops loops = openGradientLoops(l, b, view);
  MlirValue operands[] = {zero, tile, loops.outer.inductionVar,
                          loops.inner.inductionVar};
  coopvecBuild0(&loops.inner.body, "memref.store", 4, operands, 0, NULL);
  closeGradientLoops(&loops);
}

/// grad[i, j] += tile[i, j] with one atomic add per element, at `b`.
static void emitFlushTile(CPULowering *l, CoopvecBuilder *b, MlirValue tile,
                          const CoopvecMatrixView *view) {
  MatvecShape shape = matvecShape(view, false);
  MlirValue base = indexConstant(l, view->base);
  MlirValue rowStride = indexConstant(l, shape.outputStride);
  MlirValue colStride = indexConstant(l, shape.inputStride);
  GradientLoops loops = openGradientLoops(l, b, view);
  CoopvecBuilder *in = &loops.inner.body;
  MlirValue i = loops.outer.inductionVar, j = loops.inner.inductionVar;
  MlirValue loadOperands[] = {tile, i, j};
  MlirValue value =
      coopvecBuild1(in, "memref.load", 3, loadOperands, l->p.f32, 0, NULL);
  value = coopvecNarrowTo(in, value, view->element);
  // Separate statements: the ops must be created in this order.
  MlirValue rowOffset = coopvecBuildBinaryOp(in, "arith.muli", i, rowStride);
  MlirValue colOffset = coopvecBuildBinaryOp(in, "arith.muli", j, colStride);
  MlirValue offset =
      coopvecBuildBinaryOp(in, "arith.addi", rowOffset, colOffset);
  MlirValue index = coopvecBuildBinaryOp(in, "arith.addi", base, offset);
  coopvecBuildAtomicAdd(in, value, view->buffer, index);
  closeGradientLoops(&loops);
}

/// tile[i, j] += sum over the group's lanes of A[i] * B[j].
static void emitAccumulate(CPULowering *l, MlirValue tile,
                           const CoopvecMatrixView *view, MlirValue aTile,
                           MlirValue bTile) {
  CoopvecBuilder outerSaved, innerSaved;
  MlirValue zero = indexConstant(l, 0), one = indexConstant(l, 1);
  CoopvecLoop outer = openLoop(l, zero, indexConstant(l, view->rows), one, 0,
                               NULL, &outerSaved);
  MlirValue a = cpuLoadRow(&l->p, &l->p.body, aTile, outer.inductionVar);
  CoopvecLoop inner = openLoop(l, zero, indexConstant(l, view->cols), one, 0,
                               NULL, &innerSaved);
  CoopvecBuilder *b = &l->p.body;
  MlirValue bRow = cpuLoadRow(&l->p, b, bTile, inner.inductionVar);
  MlirValue sum =
      coopvecBuildReduceAdd(b, coopvecBuildBinaryOp(b, "arith.mulf", a, bRow));
  MlirValue index[] = {tile, outer.inductionVar, inner.inductionVar};
  MlirValue old = coopvecBuild1(b, "memref.load", 3, index, l->p.f32, 0, NULL);
  MlirValue operands[] = {coopvecBuildBinaryOp(b, "arith.addf", old, sum),
                          tile, outer.inductionVar, inner.inductionVar};
  coopvecBuild0(b, "memref.store", 4, operands, 0, NULL);
  closeLoop(l, &inner, 0, NULL, &innerSaved);
  closeLoop(l, &outer, 0, NULL, &outerSaved);
}

/// A scratch tile with the rows of `value` where lanes past the last thread
/// (which may hold inf or NaN) are zero.
static MlirValue stageMasked(CPULowering *l, MlirValue value) {
  CoopvecPerThread *p = &l->p;
  intptr_t count = coopvecVecSizeOf(value);
  MlirValue tile = coopvecScratchTile(p, count);
  coopvecPrepareForLoop(p, value);
  CoopvecLoop loop = coopvecElementLoop(p, count);
  MlirValue row = coopvecOperandRow(p, &loop.body, value, loop.inductionVar);
  cpuStoreRow(p, &loop.body, tile, loop.inductionVar,
              cpuMaskLanes(l, &loop.body, row));
  coopvecFinishFor(&loop, 0, NULL);
  return tile;
}

/// grad[i, j] += a_i * b_j summed over all threads. The group's products
/// are summed over its lanes into an f32 tile; when the gradient buffer is
/// an argument of the batched function, the tile is added to it once,
/// after the lane loop (one atomic per element and call, so concurrent
/// calls sharing the buffer stay correct, and an f16 gradient is rounded
/// once). Otherwise the buffer is only known inside the loop, and the tile
/// is added after each group.
bool cpuLowerOuterProduct(CoopvecPerThread *p, MlirOperation op) {
  CPULowering *l = cpuOf(p);
  const CoopvecMatrixView *view =
      checkedView(p, op, mlirOperationGetOperand(op, 2));
  if (!view)
    return false;
  MlirValue aTile = stageMasked(l, mlirOperationGetOperand(op, 0));
  MlirValue bTile = stageMasked(l, mlirOperationGetOperand(op, 1));
  MlirValue tile = cpuAllocaMatrix(l, view->rows, view->cols);
  bool onceAfterLoop =
      mlirValueIsABlockArgument(view->buffer) &&
      mlirBlockEqual(mlirBlockArgumentGetOwner(view->buffer), l->entryBlock);
  emitZeroTile(l, onceAfterLoop ? &p->entry : &p->body, tile, view);
  emitAccumulate(l, tile, view, aTile, bTile);
  emitFlushTile(l, onceAfterLoop ? &l->exit : &p->body, tile, view);
  return true;
}

//===----------------------------------------------------------------------===//
// reduce_sum_accumulate
//===----------------------------------------------------------------------===//

/// Per element of v, a masked lane reduction and one atomic add per group,
/// in an element loop.
bool cpuLowerReduceSum(CoopvecPerThread *p, MlirOperation op) {
  CPULowering *l = cpuOf(p);
  MlirValue value = mlirOperationGetOperand(op, 0);
  MlirValue gradient = mlirOperationGetOperand(op, 1);
  MlirValue offset = mlirOperationGetOperand(op, 2);
  MlirType element = mlirShapedTypeGetElementType(mlirValueGetType(gradient));
  coopvecPrepareForLoop(p, value);
  CoopvecLoop loop = coopvecElementLoop(p, coopvecVecSizeOf(value));
  CoopvecBuilder *b = &loop.body;
  MlirValue row = coopvecOperandRow(p, b, value, loop.inductionVar);
  MlirValue sum = coopvecBuildReduceAdd(b, cpuMaskLanes(l, b, row));
  MlirValue index =
      coopvecBuildBinaryOp(b, "arith.addi", offset, loop.inductionVar);
  coopvecBuildAtomicAdd(b, coopvecNarrowTo(b, sum, element), gradient, index);
  coopvecFinishFor(&loop, 0, NULL);
  return true;
}
