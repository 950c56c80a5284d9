//===- LowerMatvec.c - matvec and outer_product_accumulate ----------------===//
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
// for every y, +0.0 + -0.0 would be +0.0), so starting from it sums the
// products exactly as if the first product started the sum.
//
// outer_product_accumulate accumulates into an f32 gradient tile on the
// stack and adds it to the gradient buffer with one atomic per element
// after the lane loop (see cvLowerOuterProduct).
//
//===----------------------------------------------------------------------===//

#include "Conversion/CoopvecToVector/Lowering.h"
#include "Support/Operation.h"

#include "Dialect/Verifier.h"

#include <mlir-c/BuiltinTypes.h>

#include <stdlib.h>
#include <string.h>

static bool checkMatrix(MlirOperation op, const MatrixView *view) {
  if (!view) {
    coopvecEmitOpError(op, "needs a matrix defined by coopvec.matrix_view "
                           "in the same function");
    return false;
  }
  if (view->rows * view->cols <= CV_MAX_MATRIX_ELEMENTS)
    return true;
  coopvecEmitOpError(op,
                     "uses a %lld x %lld matrix; convert-coopvec-to-vector "
                     "handles matrices of at most %d elements",
                     (long long)view->rows, (long long)view->cols,
                     (int)CV_MAX_MATRIX_ELEMENTS);
  return false;
}

static int64_t maxOf(int64_t a, int64_t b) { return a > b ? a : b; }

//===----------------------------------------------------------------------===//
// Stack tiles
//===----------------------------------------------------------------------===//

/// `memref.alloca() : memref<rows x cols x f32>` before the lane loop, 64-byte
/// aligned (a cache line, and a zmm register for 16 lanes).
static MlirValue allocaTile(Lowering *l, int64_t rows, int64_t cols) {
  MlirType type = cvParseType(l->ctx, "memref<%lldx%lldxf32>", (long long)rows,
                              (long long)cols);
  return cvCreate1(&l->entry, "memref.alloca", 0, NULL, type,
                   "{alignment = 64 : i64, "
                   "operandSegmentSizes = array<i32: 0, 0>}");
}

/// Creates the function's two lane-vector tiles on first use, as large as
/// its largest matvec / outer product needs. They are shared because each
/// op writes them before it reads them and is done with them after; one
/// pair keeps the stack footprint small enough for L1.
static void ensureTiles(Lowering *l, MlirOperation op) {
  if (!mlirValueIsNull(l->inputTile))
    return;
  int64_t inputRows = 1, outputRows = 1;
  for (MlirOperation other =
           mlirBlockGetFirstOperation(mlirOperationGetBlock(op));
       !mlirOperationIsNull(other);
       other = mlirOperationGetNextInBlock(other)) {
    if (coopvecOpIsNamed(other, "coopvec.matvec")) {
      inputRows =
          maxOf(inputRows, cvVecSize(mlirOperationGetOperand(other, 1)));
      outputRows =
          maxOf(outputRows, cvVecSize(mlirOperationGetResult(other, 0)));
    } else if (coopvecOpIsNamed(other, "coopvec.outer_product_accumulate")) {
      inputRows =
          maxOf(inputRows, cvVecSize(mlirOperationGetOperand(other, 0)));
      outputRows =
          maxOf(outputRows, cvVecSize(mlirOperationGetOperand(other, 1)));
    }
  }
  l->inputTile = allocaTile(l, inputRows, l->lanes);
  l->outputTile = allocaTile(l, outputRows, l->lanes);
}

static MlirValue loadRow(Lowering *l, MlirValue tile, MlirValue row) {
  MlirValue operands[] = {tile, row, cvIndexConstant(l, 0)};
  return cvCreate1(&l->body, "vector.load", 3, operands, l->laneType, NULL);
}

static void storeRow(Lowering *l, MlirValue tile, MlirValue row,
                     MlirValue value) {
  MlirValue operands[] = {value, tile, row, cvIndexConstant(l, 0)};
  cvCreate(&l->body, "vector.store", 4, operands, 0, NULL, NULL);
}

/// Writes lane vector i of `value` (masked if `masked`) to row i of `tile`.
static void stageLanes(Lowering *l, MlirValue tile, MlirValue value,
                       intptr_t size, bool masked) {
  for (intptr_t i = 0; i < size; ++i) {
    MlirValue lane = cvOperandLane(l, value, i);
    storeRow(l, tile, cvIndexConstant(l, i),
             masked ? cvMaskLanes(l, lane) : lane);
  }
}

/// Opens an scf.for in the lane loop body and moves l->body into it.
static CvLoop openLoop(Lowering *l, MlirValue lower, MlirValue upper,
                       intptr_t numInits, const MlirValue *inits,
                       CvBuilder *saved) {
  CvLoop loop = cvCreateFor(&l->body, lower, upper, cvIndexConstant(l, 1),
                            numInits, inits);
  *saved = l->body;
  l->body = loop.body;
  return loop;
}

static void closeLoop(Lowering *l, CvLoop *loop, intptr_t numValues,
                      const MlirValue *values, const CvBuilder *saved) {
  loop->body = l->body;
  cvFinishFor(loop, numValues, values);
  l->body = *saved;
}

//===----------------------------------------------------------------------===//
// matvec
//===----------------------------------------------------------------------===//

typedef struct MatvecShape {
  const MatrixView *view;
  MlirValue bias; // may be null
  intptr_t numOutputs, numInputs;
  /// W[o, p] is at view->base + o * outputStride + p * inputStride.
  int64_t outputStride, inputStride;
} MatvecShape;

static MatvecShape matvecShape(const MatrixView *view, bool transpose) {
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

static MlirValue addIndex(Lowering *l, MlirValue value, int64_t constant) {
  if (constant == 0)
    return value;
  return cvBinary(&l->body, "arith.addi", value, cvIndexConstant(l, constant));
}

static MlirValue mulIndex(Lowering *l, MlirValue value, int64_t constant) {
  if (constant == 1)
    return value;
  return cvBinary(&l->body, "arith.muli", value, cvIndexConstant(l, constant));
}

static MlirValue negativeZeroLanes(Lowering *l) {
  if (mlirValueIsNull(l->negZeroLanes))
    l->negZeroLanes = cvLaneConstant(l, -0.0);
  return l->negZeroLanes;
}

/// acc_r + W[row, p] * x for the element index `index` of W[row, p].
static MlirValue weightFma(Lowering *l, const MatvecShape *shape,
                           MlirValue index, MlirValue x, MlirValue acc) {
  MlirValue loadOperands[] = {shape->view->buffer, index};
  MlirType element =
      mlirShapedTypeGetElementType(mlirValueGetType(shape->view->buffer));
  MlirValue weight =
      cvCreate1(&l->body, "memref.load", 2, loadOperands, element, NULL);
  MlirValue broadcast = cvBroadcastLanes(l, cvExtendToF32(l, weight));
  MlirValue operands[] = {broadcast, x, acc};
  return cvCreate1(&l->body, "math.fma", 3, operands, l->laneType, NULL);
}

/// The p loop of a block: acc_r += W[row_r, p] * IN[p] for p < numInputs.
/// `rowStart[r]` is the element index of W[row_r, 0]. Returns the loop.
static CvLoop emitInputLoop(Lowering *l, const MatvecShape *shape,
                            intptr_t count, const MlirValue *rowStart,
                            const MlirValue *inits) {
  CvBuilder saved;
  CvLoop loop =
      openLoop(l, cvIndexConstant(l, 0), cvIndexConstant(l, shape->numInputs),
               count, inits, &saved);
  MlirValue x = loadRow(l, l->inputTile, loop.inductionVar);
  MlirValue column = mulIndex(l, loop.inductionVar, shape->inputStride);
  MlirValue *acc = calloc((size_t)count, sizeof(MlirValue));
  if (!acc)
    abort();
  for (intptr_t r = 0; r < count; ++r) {
    MlirValue index = cvBinary(&l->body, "arith.addi", rowStart[r], column);
    acc[r] = weightFma(l, shape, index, x, cvLoopIterArg(&loop, r));
  }
  closeLoop(l, &loop, count, acc, &saved);
  free(acc);
  return loop;
}

/// Output rows first .. first + count - 1 into OUT, which holds the bias
/// rows on entry when there is a bias. `first` is the loop's induction
/// variable, or null for the constant `firstConstant`.
static void emitRowBlock(Lowering *l, const MatvecShape *shape, MlirValue first,
                         int64_t firstConstant, intptr_t count) {
  MlirValue *rows = calloc((size_t)count, sizeof(MlirValue));
  MlirValue *rowStart = calloc((size_t)count, sizeof(MlirValue));
  MlirValue *inits = calloc((size_t)count, sizeof(MlirValue));
  if (!rows || !rowStart || !inits)
    abort();
  MlirValue firstStart =
      mlirValueIsNull(first)
          ? cvIndexConstant(l, shape->view->base +
                                   firstConstant * shape->outputStride)
          : addIndex(l, mulIndex(l, first, shape->outputStride),
                     shape->view->base);
  for (intptr_t r = 0; r < count; ++r) {
    rows[r] = mlirValueIsNull(first) ? cvIndexConstant(l, firstConstant + r)
                                     : addIndex(l, first, r);
    rowStart[r] =
        mlirValueIsNull(first)
            ? cvIndexConstant(l, shape->view->base +
                                     (firstConstant + r) * shape->outputStride)
            : addIndex(l, firstStart, r * shape->outputStride);
    inits[r] = mlirValueIsNull(shape->bias)
                   ? negativeZeroLanes(l)
                   : loadRow(l, l->outputTile, rows[r]);
  }
  CvLoop loop = emitInputLoop(l, shape, count, rowStart, inits);
  for (intptr_t r = 0; r < count; ++r)
    storeRow(l, l->outputTile, rows[r], mlirOperationGetResult(loop.op, r));
  free(rows);
  free(rowStart);
  free(inits);
}

/// All output rows: a loop over full blocks of rowBlock rows, then one
/// block for the remaining rows.
static void emitRowBlocks(Lowering *l, const MatvecShape *shape) {
  intptr_t block = (intptr_t)l->rowBlock;
  intptr_t fullRows = shape->numOutputs - shape->numOutputs % block;
  if (fullRows > 0) {
    CvBuilder saved;
    CvLoop loop = cvCreateFor(&l->body, cvIndexConstant(l, 0),
                              cvIndexConstant(l, fullRows),
                              cvIndexConstant(l, block), 0, NULL);
    saved = l->body;
    l->body = loop.body;
    emitRowBlock(l, shape, loop.inductionVar, 0, block);
    closeLoop(l, &loop, 0, NULL, &saved);
  }
  if (fullRows < shape->numOutputs)
    emitRowBlock(l, shape, (MlirValue){NULL}, fullRows,
                 shape->numOutputs - fullRows);
}

bool cvLowerMatvec(Lowering *l, MlirOperation op) {
  const MatrixView *view = cvLookupMatrix(l, mlirOperationGetOperand(op, 0));
  if (!checkMatrix(op, view))
    return false;
  bool transpose = !mlirAttributeIsNull(mlirOperationGetAttributeByName(
      op, mlirStringRefCreateFromCString("transpose")));
  MatvecShape shape = matvecShape(view, transpose);
  if (mlirOperationGetNumOperands(op) > 2)
    shape.bias = mlirOperationGetOperand(op, 2);
  ensureTiles(l, op);
  stageLanes(l, l->inputTile, mlirOperationGetOperand(op, 1), shape.numInputs,
             false);
  if (!mlirValueIsNull(shape.bias))
    stageLanes(l, l->outputTile, shape.bias, shape.numOutputs, false);
  emitRowBlocks(l, &shape);
  MlirValue *results = calloc((size_t)shape.numOutputs, sizeof(MlirValue));
  if (!results)
    abort();
  for (intptr_t o = 0; o < shape.numOutputs; ++o)
    results[o] = loadRow(l, l->outputTile, cvIndexConstant(l, o));
  cvMapLanes(l, mlirOperationGetResult(op, 0), shape.numOutputs, results);
  free(results);
  return true;
}

//===----------------------------------------------------------------------===//
// outer_product_accumulate
//===----------------------------------------------------------------------===//

/// for i < rows: for j < cols: body(i, j), built at `b` (which must not be
/// l->entry's insertion point for constants created inside: all constants
/// are created before the loops).
typedef struct GradientLoops {
  CvLoop outer, inner;
} GradientLoops;

static GradientLoops openGradientLoops(CvBuilder *b, MlirValue zero,
                                       MlirValue one, MlirValue rows,
                                       MlirValue cols) {
  GradientLoops loops;
  loops.outer = cvCreateFor(b, zero, rows, one, 0, NULL);
  loops.inner = cvCreateFor(&loops.outer.body, zero, cols, one, 0, NULL);
  return loops;
}

static void closeGradientLoops(GradientLoops *loops) {
  cvFinishFor(&loops->inner, 0, NULL);
  cvFinishFor(&loops->outer, 0, NULL);
}

/// Sets the f32 gradient tile to zero at `b`.
static void emitZeroTile(Lowering *l, CvBuilder *b, MlirValue tile,
                         const MatrixView *view) {
  MlirValue zero = cvIndexConstant(l, 0), one = cvIndexConstant(l, 1);
  MlirValue rows = cvIndexConstant(l, view->rows);
  MlirValue cols = cvIndexConstant(l, view->cols);
  MlirValue value = cvConstant(b, l->f32, "0.0 : f32");
  GradientLoops loops = openGradientLoops(b, zero, one, rows, cols);
  MlirValue operands[] = {value, tile, loops.outer.inductionVar,
                          loops.inner.inductionVar};
  cvCreate(&loops.inner.body, "memref.store", 4, operands, 0, NULL, NULL);
  closeGradientLoops(&loops);
}

/// grad[i, j] += tile[i, j] with one atomic add per element, at `b`.
static void emitFlushTile(Lowering *l, CvBuilder *b, MlirValue tile,
                          const MatrixView *view) {
  MatvecShape shape = matvecShape(view, false);
  MlirValue zero = cvIndexConstant(l, 0), one = cvIndexConstant(l, 1);
  MlirValue rows = cvIndexConstant(l, view->rows);
  MlirValue cols = cvIndexConstant(l, view->cols);
  MlirValue base = cvIndexConstant(l, view->base);
  MlirValue rowStride = cvIndexConstant(l, shape.outputStride);
  MlirValue colStride = cvIndexConstant(l, shape.inputStride);
  GradientLoops loops = openGradientLoops(b, zero, one, rows, cols);
  CvBuilder *in = &loops.inner.body;
  MlirValue i = loops.outer.inductionVar, j = loops.inner.inductionVar;
  MlirValue loadOperands[] = {tile, i, j};
  MlirValue value = cvCreate1(in, "memref.load", 3, loadOperands, l->f32, NULL);
  MlirType element =
      mlirShapedTypeGetElementType(mlirValueGetType(view->buffer));
  if (mlirTypeIsAF16(element))
    value = cvCreate1(in, "arith.truncf", 1, &value, element, NULL);
  // Separate statements: the ops must be created in this order.
  MlirValue rowOffset = cvBinary(in, "arith.muli", i, rowStride);
  MlirValue colOffset = cvBinary(in, "arith.muli", j, colStride);
  MlirValue offset = cvBinary(in, "arith.addi", rowOffset, colOffset);
  MlirValue index = cvBinary(in, "arith.addi", base, offset);
  MlirValue operands[] = {value, view->buffer, index};
  // kind 0 is addf.
  cvCreate1(in, "memref.atomic_rmw", 3, operands, element, "{kind = 0 : i64}");
  closeGradientLoops(&loops);
}

/// tile[i, j] += sum over the group's lanes of IN[i] * OUT[j].
static void emitAccumulate(Lowering *l, MlirValue tile,
                           const MatrixView *view) {
  CvBuilder outerSaved, innerSaved;
  CvLoop outer = openLoop(l, cvIndexConstant(l, 0),
                          cvIndexConstant(l, view->rows), 0, NULL, &outerSaved);
  MlirValue a = loadRow(l, l->inputTile, outer.inductionVar);
  CvLoop inner = openLoop(l, cvIndexConstant(l, 0),
                          cvIndexConstant(l, view->cols), 0, NULL, &innerSaved);
  MlirValue b = loadRow(l, l->outputTile, inner.inductionVar);
  MlirValue sum = cvSumLanes(l, cvBinary(&l->body, "arith.mulf", a, b));
  MlirValue index[] = {tile, outer.inductionVar, inner.inductionVar};
  MlirValue old = cvCreate1(&l->body, "memref.load", 3, index, l->f32, NULL);
  MlirValue operands[] = {cvBinary(&l->body, "arith.addf", old, sum), tile,
                          outer.inductionVar, inner.inductionVar};
  cvCreate(&l->body, "memref.store", 4, operands, 0, NULL, NULL);
  closeLoop(l, &inner, 0, NULL, &innerSaved);
  closeLoop(l, &outer, 0, NULL, &outerSaved);
}

/// grad[i, j] += a_i * b_j summed over all threads. The group's products
/// are summed over its lanes into an f32 tile; when the gradient buffer is
/// an argument of the batched function, the tile is added to it once,
/// after the lane loop (one atomic per element and call, so concurrent
/// calls sharing the buffer stay correct, and an f16 gradient is rounded
/// once). Otherwise the buffer is only known inside the loop, and the tile
/// is added after each group.
bool cvLowerOuterProduct(Lowering *l, MlirOperation op) {
  const MatrixView *view = cvLookupMatrix(l, mlirOperationGetOperand(op, 2));
  if (!checkMatrix(op, view))
    return false;
  ensureTiles(l, op);
  // Lanes past the last thread may hold inf or NaN: zero them.
  stageLanes(l, l->inputTile, mlirOperationGetOperand(op, 0), view->rows, true);
  stageLanes(l, l->outputTile, mlirOperationGetOperand(op, 1), view->cols,
             true);
  MlirValue tile = allocaTile(l, view->rows, view->cols);
  bool onceAfterLoop =
      mlirValueIsABlockArgument(view->buffer) &&
      mlirBlockEqual(mlirBlockArgumentGetOwner(view->buffer), l->entry.block);
  emitZeroTile(l, onceAfterLoop ? &l->entry : &l->body, tile, view);
  emitAccumulate(l, tile, view);
  emitFlushTile(l, onceAfterLoop ? &l->exit : &l->body, tile, view);
  return true;
}
