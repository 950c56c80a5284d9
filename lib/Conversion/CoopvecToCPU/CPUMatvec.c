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
// outer_product_accumulate is the same micro-kernel with the lanes as the
// reduction (CPUTraining.c).
//
//===----------------------------------------------------------------------===//

#include "Conversion/CoopvecToCPU/CPU.h"

#include "Dialect/Verifier.h"
#include "Support/Alloc.h"
#include "coopvec-c/Support.h"

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
  MlirType type =
      mlirMemRefTypeContiguousGet(l->p.f32, 2, shape, mlirAttributeGetNull());
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
  return coopvecBuildSelect(b, l->p.active, value,
                            coopvecPerThreadConstant(&l->p, 0.0));
}

CoopvecLoop cpuOpenLoop(CPULowering *l, MlirValue lower, MlirValue upper,
                        MlirValue step, intptr_t numInits,
                        const MlirValue *inits, CoopvecBuilder *saved) {
  CoopvecLoop loop =
      coopvecBuildFor(&l->p.body, lower, upper, step, numInits, inits);
  *saved = l->p.body;
  l->p.body = loop.body;
  return loop;
}

void cpuCloseLoop(CPULowering *l, CoopvecLoop *loop, intptr_t numValues,
                  const MlirValue *values, const CoopvecBuilder *saved) {
  loop->body = l->p.body;
  coopvecFinishFor(loop, numValues, values);
  l->p.body = *saved;
}

MlirValue cpuMultiplyAdd(CPULowering *l, CoopvecBuilder *b, MlirValue x,
                         MlirValue y, MlirValue acc) {
  // The order and rounding of the sums of matvec and the training ops are
  // the target's (docs/dialect.md): without an FMA instruction a multiply
  // and an add, since math.fma would become a libm fmaf call per lane.
  if (!l->fusedMultiplyAdd)
    return coopvecBuildBinaryOp(b, "arith.addf", acc,
                                coopvecBuildBinaryOp(b, "arith.mulf", x, y));
  return coopvecBuildTernaryOp(b, "math.fma", x, y, acc);
}

//===----------------------------------------------------------------------===//
// matvec
//===----------------------------------------------------------------------===//

typedef struct MatvecShape {
  const CoopvecMatrixView *view;
  /// IN (the input's rows), BIAS (null without a bias tile) and OUT tiles.
  MlirValue inputTile, biasTile, outputTile;
  /// A bias read from memory instead (a deferred coopvec.load): bias[o] is
  /// biasBuffer[biasOffset + o]; null otherwise.
  MlirValue biasBuffer, biasOffset;
  /// An activation fused into the epilogue: `activation` (max or min) of
  /// each result and the element value `activationOperand`; null if none.
  MlirOperation activation;
  MlirValue activationOperand;
  intptr_t numOutputs, numInputs;
  /// W[o, p] is at view->base + o * outputStride + p * inputStride.
  int64_t outputStride, inputStride;
  /// STAGE, memref<rowBlock x numInputs x f32>, when the block's f16
  /// weights are widened there first (stagesWeights); null otherwise.
  MlirValue stage;
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

/// Weights staged per vector load and conversion (stagesWeights).
enum { STAGE_VECTOR = 8 };

/// Whether a block's f16 weights are widened into STAGE before its p loop:
/// when they are contiguous along p (row-major, or a col-major matrix used
/// transposed) in whole vectors. Otherwise the p loop widens every weight
/// on its own: a load, an insert, a conversion and a register broadcast
/// per weight (x86 has no broadcasting f16 -> f32 load), against one
/// broadcasting load of an f32, which the FMAs cannot hide.
static bool stagesWeights(const MatvecShape *shape) {
  return mlirTypeIsAF16(shape->view->element) && shape->inputStride == 1 &&
         shape->numInputs % STAGE_VECTOR == 0;
}

/// STAGE[r, p] = W[row_r, p] in f32 for r < count, 8 weights at a time.
static void emitStage(CPULowering *l, const MatvecShape *shape, intptr_t count,
                      const MlirValue *rowStart) {
  CoopvecBuilder saved;
  CoopvecLoop loop =
      cpuOpenLoop(l, indexConstant(l, 0), indexConstant(l, shape->numInputs),
                  indexConstant(l, STAGE_VECTOR), 0, NULL, &saved);
  CoopvecBuilder *b = &l->p.body;
  int64_t width = STAGE_VECTOR;
  MlirType halves = mlirVectorTypeGet(1, &width, shape->view->element);
  for (intptr_t r = 0; r < count; ++r) {
    MlirValue at[] = {
        shape->view->buffer,
        coopvecBuildBinaryOp(b, "arith.addi", rowStart[r], loop.inductionVar)};
    MlirValue weights = coopvecWidenToF32(
        b, coopvecBuild1(b, "vector.load", 2, at, halves, 0, NULL));
    MlirValue operands[] = {weights, shape->stage, indexConstant(l, r),
                            loop.inductionVar};
    coopvecBuild0(b, "vector.store", 4, operands, 0, NULL);
  }
  cpuCloseLoop(l, &loop, 0, NULL, &saved);
}

//===----------------------------------------------------------------------===//
// f16 matrices widened once per call
//===----------------------------------------------------------------------===//

/// The stack the f32 copies of one function's f16 matrices may take; the
/// matrices past it are staged per block (stagesWeights).
enum { CPU_MAX_WIDENED_BYTES = 256 * 1024 };

/// buffer[base .. base + span) in f32, in `copy`.
typedef struct CPUWidenedMatrix {
  MlirValue buffer, copy;
  int64_t base, span;
} CPUWidenedMatrix;

/// Whether the only users of matrix_view `view` are matvecs, which read it
/// (an outer product writes its gradient through a view).
static bool viewOnlyRead(MlirOperation view) {
  for (MlirOpOperand use =
           mlirValueGetFirstUse(mlirOperationGetResult(view, 0));
       !mlirOpOperandIsNull(use); use = mlirOpOperandGetNextUse(use))
    if (!coopvecOpIs(mlirOpOperandGetOwner(use), CoopvecOpMatvec))
      return false;
  return true;
}

/// Whether every user of `buffer` reads it, lowered or not: a copy taken
/// before the lane loop is then what each thread would read itself.
static bool bufferOnlyRead(MlirValue buffer) {
  static const char *const readers[] = {
      "coopvec.load", "coopvec.masked_load", "memref.load",
      "vector.load",  "vector.maskedload",   "vector.gather"};
  for (MlirOpOperand use = mlirValueGetFirstUse(buffer);
       !mlirOpOperandIsNull(use); use = mlirOpOperandGetNextUse(use)) {
    MlirOperation user = mlirOpOperandGetOwner(use);
    bool reads = coopvecOpIs(user, CoopvecOpMatrixView) && viewOnlyRead(user);
    for (size_t i = 0; !reads && i < sizeof readers / sizeof *readers; ++i)
      reads = coopvecOpIsNamed(user, readers[i]);
    if (!reads)
      return false;
  }
  return true;
}

/// copy[i] = buffer[base + i] for lower <= i < upper, `width` at a time.
static void emitWideningLoop(CPULowering *l, MlirValue buffer, int64_t base,
                             MlirValue copy, MlirValue lower, MlirValue upper,
                             int64_t width) {
  // Index constants are created at the entry, where this loop is: before
  // it.
  MlirValue step = indexConstant(l, width), offset = indexConstant(l, base);
  CoopvecLoop loop = coopvecBuildFor(&l->p.entry, lower, upper, step, 0, NULL);
  CoopvecBuilder *b = &loop.body;
  MlirValue at[] = {buffer, loop.inductionVar};
  if (base != 0)
    at[1] = coopvecBuildBinaryOp(b, "arith.addi", at[1], offset);
  MlirType halves = mlirVectorTypeGet(
      1, &width, mlirShapedTypeGetElementType(mlirValueGetType(buffer)));
  MlirValue values = coopvecWidenToF32(
      b, coopvecBuild1(b, "vector.load", 2, at, halves, 0, NULL));
  MlirValue operands[] = {values, copy, loop.inductionVar};
  coopvecBuild0(b, "vector.store", 3, operands, 0, NULL);
  coopvecFinishFor(&loop, 0, NULL);
}

/// A 64-byte aligned memref<span x f32> on the stack holding
/// buffer[base .. base + span), filled before the lane loop when there is
/// at least one thread (without threads the matvecs read nothing).
static MlirValue emitWidenedCopy(CPULowering *l, MlirValue buffer, int64_t base,
                                 int64_t span) {
  CoopvecBuilder *b = &l->p.entry;
  MlirType type =
      mlirMemRefTypeContiguousGet(l->p.f32, 1, &span, mlirAttributeGetNull());
  MlirValue copy = coopvecBuildAlloca(b, type, 64);
  MlirValue zero = indexConstant(l, 0);
  MlirValue anyThread = coopvecBuildCmpI(
      b, COOPVEC_CMPI_SGT, mlirBlockGetArgument(l->entryBlock, 0), zero);
  int64_t vectorEnd = span - span % STAGE_VECTOR;
  if (vectorEnd > 0) {
    MlirValue upper =
        coopvecBuildSelect(b, anyThread, indexConstant(l, vectorEnd), zero);
    emitWideningLoop(l, buffer, base, copy, zero, upper, STAGE_VECTOR);
  }
  if (vectorEnd < span) {
    MlirValue upper =
        coopvecBuildSelect(b, anyThread, indexConstant(l, span), zero);
    emitWideningLoop(l, buffer, base, copy, indexConstant(l, vectorEnd), upper,
                     1);
  }
  return copy;
}

/// The f32 copy of f16 matrix `view` made once per call (shared by the
/// matvecs of the same elements), or null where the matrix is staged per
/// block instead: its buffer is not an argument of the function (it only
/// exists inside the lane loop), the function writes to it, or the copies
/// would take more than CPU_MAX_WIDENED_BYTES. Per block, every group of
/// lanes widens every weight again: work no group needs to repeat, though
/// the time it saved was within the noise of docs/performance.md.
static MlirValue widenedCopy(CPULowering *l, const CoopvecMatrixView *view) {
  if (!mlirTypeIsAF16(view->element) ||
      !mlirValueIsABlockArgument(view->buffer) ||
      !mlirBlockEqual(mlirBlockArgumentGetOwner(view->buffer), l->entryBlock))
    return (MlirValue){NULL};
  int64_t span = view->rows * view->cols;
  int64_t copiedElements = 0;
  for (intptr_t i = 0; i < l->numWidened; ++i) {
    const CPUWidenedMatrix *w = &l->widened[i];
    if (mlirValueEqual(w->buffer, view->buffer) && w->base == view->base &&
        w->span == span)
      return w->copy;
    copiedElements += w->span;
  }
  if ((copiedElements + span) * (int64_t)sizeof(float) >
          CPU_MAX_WIDENED_BYTES ||
      !bufferOnlyRead(view->buffer))
    return (MlirValue){NULL};
  l->widened = coopvecGrowArray(l->widened, &l->widenedCapacity,
                                l->numWidened + 1, sizeof(CPUWidenedMatrix));
  CPUWidenedMatrix *w = &l->widened[l->numWidened++];
  *w = (CPUWidenedMatrix){view->buffer, {NULL}, view->base, span};
  w->copy = emitWidenedCopy(l, view->buffer, view->base, span);
  return w->copy;
}

/// acc + W[row_r, p] * x, W[row_r, p] being element `index` of the matrix's
/// buffer, or STAGE[r, p].
static MlirValue weightFma(CPULowering *l, const MatvecShape *shape, intptr_t r,
                           MlirValue p, MlirValue index, MlirValue x,
                           MlirValue acc) {
  CoopvecBuilder *b = &l->p.body;
  MlirValue weight;
  if (mlirValueIsNull(shape->stage)) {
    MlirValue operands[] = {shape->view->buffer, index};
    weight = coopvecWidenToF32(b, coopvecBuild1(b, "memref.load", 2, operands,
                                                shape->view->element, 0, NULL));
  } else {
    MlirValue operands[] = {shape->stage, indexConstant(l, r), p};
    weight = coopvecBuild1(b, "memref.load", 3, operands, l->p.f32, 0, NULL);
  }
  return cpuMultiplyAdd(l, b, coopvecBuildBroadcast(b, weight, l->laneType), x,
                        acc);
}

/// The p loop of a block: acc_r += W[row_r, p] * IN[p] for p < numInputs.
/// `rowStart[r]` is the element index of W[row_r, 0]. Returns the loop.
static CoopvecLoop emitInputLoop(CPULowering *l, const MatvecShape *shape,
                                 intptr_t count, const MlirValue *rowStart,
                                 const MlirValue *inits) {
  if (!mlirValueIsNull(shape->stage))
    emitStage(l, shape, count, rowStart);
  CoopvecBuilder saved;
  CoopvecLoop loop =
      cpuOpenLoop(l, indexConstant(l, 0), indexConstant(l, shape->numInputs),
                  indexConstant(l, 1), count, inits, &saved);
  MlirValue p = loop.inductionVar;
  MlirValue x = cpuLoadRow(&l->p, &l->p.body, shape->inputTile, p);
  MlirValue column = mulIndex(l, p, shape->inputStride);
  MlirValue *acc = calloc((size_t)count, sizeof(MlirValue));
  if (!acc)
    abort();
  for (intptr_t r = 0; r < count; ++r) {
    MlirValue index = mlirValueIsNull(shape->stage)
                          ? coopvecBuildBinaryOp(&l->p.body, "arith.addi",
                                                 rowStart[r], column)
                          : (MlirValue){NULL};
    acc[r] = weightFma(l, shape, r, p, index, x, coopvecLoopIterArg(&loop, r));
  }
  cpuCloseLoop(l, &loop, count, acc, &saved);
  free(acc);
  return loop;
}

/// The accumulator of output row `row` before the first product: the bias
/// (a row of BIAS, or the broadcast bias element read from memory), else
/// -0.0.
static MlirValue initialSum(CPULowering *l, const MatvecShape *shape,
                            MlirValue row) {
  CoopvecBuilder *b = &l->p.body;
  if (!mlirValueIsNull(shape->biasTile))
    return cpuLoadRow(&l->p, b, shape->biasTile, row);
  if (mlirValueIsNull(shape->biasBuffer))
    return coopvecPerThreadConstant(&l->p, -0.0);
  MlirValue index =
      coopvecBuildBinaryOp(b, "arith.addi", shape->biasOffset, row);
  MlirValue operands[] = {shape->biasBuffer, index};
  MlirValue bias = coopvecBuild1(
      b, "memref.load", 2, operands,
      mlirShapedTypeGetElementType(mlirValueGetType(shape->biasBuffer)), 0,
      NULL);
  return coopvecBuildBroadcast(b, coopvecWidenToF32(b, bias), l->laneType);
}

/// A finished sum as it is stored: with the fused activation applied.
static MlirValue finalSum(CPULowering *l, const MatvecShape *shape,
                          MlirValue sum) {
  if (mlirOperationIsNull(shape->activation))
    return sum;
  MlirValue operands[] = {sum, shape->activationOperand, {NULL}};
  return coopvecEmitElementwise(
      &l->p.body, coopvecLookupOp(shape->activation)->id,
      coopvecVecElementOf(mlirOperationGetResult(shape->activation, 0)),
      operands);
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
    rows[r] =
        constant ? indexConstant(l, firstConstant + r) : addIndex(l, first, r);
    rowStart[r] =
        constant ? indexConstant(l, shape->view->base + (firstConstant + r) *
                                                            shape->outputStride)
                 : addIndex(l, firstStart, r * shape->outputStride);
    inits[r] = initialSum(l, shape, rows[r]);
  }
  CoopvecLoop loop = emitInputLoop(l, shape, count, rowStart, inits);
  for (intptr_t r = 0; r < count; ++r)
    cpuStoreRow(&l->p, &l->p.body, shape->outputTile, rows[r],
                finalSum(l, shape, mlirOperationGetResult(loop.op, r)));
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
        cpuOpenLoop(l, indexConstant(l, 0), indexConstant(l, fullRows),
                    indexConstant(l, block), 0, NULL, &saved);
    emitRowBlock(l, shape, loop.inductionVar, 0, block);
    cpuCloseLoop(l, &loop, 0, NULL, &saved);
  }
  if (fullRows < shape->numOutputs)
    emitRowBlock(l, shape, (MlirValue){NULL}, fullRows,
                 shape->numOutputs - fullRows);
}

const CoopvecMatrixView *cpuCheckedView(CoopvecPerThread *p, MlirOperation op,
                                        MlirValue matrix) {
  const CoopvecMatrixView *view = coopvecLookupView(p, matrix);
  if (!view)
    coopvecEmitOpError(op, "needs a matrix defined by coopvec.matrix_view "
                           "in the same function");
  return view;
}

/// The op right after matvec `op` if the micro-kernel can apply it to its
/// sums before storing them: a max or min of the result, which nothing
/// else uses, and a scalar (uniform or per-thread: defined before `op`,
/// since the next op uses it). This is the activation of an MLP layer;
/// fused, it costs no element loop over the result.
static MlirOperation fusibleActivation(MlirOperation op) {
  MlirOperation next = mlirOperationGetNextInBlock(op);
  MlirValue result = mlirOperationGetResult(op, 0);
  MlirOpOperand use = mlirValueGetFirstUse(result);
  bool fusible =
      !mlirOperationIsNull(next) &&
      (coopvecOpIs(next, CoopvecOpMax) || coopvecOpIs(next, CoopvecOpMin)) &&
      !mlirOpOperandIsNull(use) &&
      mlirOpOperandIsNull(mlirOpOperandGetNextUse(use)) &&
      mlirOperationEqual(mlirOpOperandGetOwner(use), next) &&
      mlirOpOperandGetOperandNumber(use) == 0 &&
      !coopvecTypeIsAVec(mlirValueGetType(mlirOperationGetOperand(next, 1)));
  return fusible ? next : (MlirOperation){NULL};
}

/// Where the bias comes from: a deferred load is read from memory, a vec
/// from its tile.
static void setBias(CoopvecPerThread *p, MlirOperation op, MatvecShape *shape) {
  if (mlirOperationGetNumOperands(op) < 3)
    return;
  MlirValue bias = mlirOperationGetOperand(op, 2);
  if (!coopvecIsDeferredLoad(p, bias)) {
    shape->biasTile = coopvecTileOf(p, bias);
    return;
  }
  MlirOperation load = mlirOpResultGetOwner(bias);
  shape->biasBuffer = coopvecScalarOperand(p, mlirOperationGetOperand(load, 0));
  shape->biasOffset = coopvecScalarOperand(p, mlirOperationGetOperand(load, 1));
}

/// Maps the results of `op` (and of its fused activation, the same
/// values) to the OUT tile, or to lane vectors loaded from it.
static void mapResults(CoopvecPerThread *p, MlirOperation op,
                       const MatvecShape *shape, bool tiled) {
  MlirValue results[CPU_SSA_MAX_ELEMENTS];
  if (!tiled)
    for (intptr_t o = 0; o < shape->numOutputs && o < CPU_SSA_MAX_ELEMENTS; ++o)
      results[o] = cpuLoadRow(p, &p->body, shape->outputTile,
                              coopvecPerThreadIndex(p, o));
  MlirValue values[2] = {mlirOperationGetResult(op, 0), {NULL}};
  if (!mlirOperationIsNull(shape->activation))
    values[1] = mlirOperationGetResult(shape->activation, 0);
  for (int i = 0; i < 2 && !mlirValueIsNull(values[i]); ++i) {
    if (tiled)
      coopvecMapTile(p, values[i], shape->numOutputs, shape->outputTile);
    else
      coopvecMapElements(p, values[i], shape->numOutputs, results);
  }
}

/// The input is read from its tile (or staged into a scratch one); the
/// result is written to its own tile, or, when the target keeps vecs this
/// small in SSA form, to a scratch tile it is loaded back from. A max / min
/// right after the matvec is applied before the sums are stored.
bool cpuLowerMatvec(CoopvecPerThread *p, MlirOperation op) {
  CPULowering *l = cpuOf(p);
  const CoopvecMatrixView *view =
      cpuCheckedView(p, op, mlirOperationGetOperand(op, 0));
  if (!view)
    return false;
  CoopvecMatrixView widened;
  MlirValue copy = widenedCopy(l, view);
  if (!mlirValueIsNull(copy)) {
    widened = *view;
    widened.buffer = copy;
    widened.base = 0;
    widened.element = p->f32;
    view = &widened;
  }
  bool transpose = !mlirAttributeIsNull(mlirOperationGetAttributeByName(
      op, mlirStringRefCreateFromCString("transpose")));
  MatvecShape shape = matvecShape(view, transpose);
  shape.inputTile = coopvecTileOf(p, mlirOperationGetOperand(op, 1));
  setBias(p, op, &shape);
  shape.activation = fusibleActivation(op);
  if (!mlirOperationIsNull(shape.activation)) {
    shape.activationOperand = coopvecOperandElement(
        p, mlirOperationGetOperand(shape.activation, 1), 0);
    coopvecMarkLoweredAhead(p, shape.activation);
  }
  if (stagesWeights(&shape)) {
    intptr_t rows =
        shape.numOutputs < l->rowBlock ? shape.numOutputs : l->rowBlock;
    shape.stage = cpuAllocaMatrix(l, rows, shape.numInputs);
  }
  bool tiled = coopvecWantsTile(p, shape.numOutputs);
  shape.outputTile = tiled ? coopvecTileFor(p, op, shape.numOutputs, 0x4)
                           : coopvecScratchTile(p, shape.numOutputs);
  emitRowBlocks(l, &shape);
  mapResults(p, op, &shape, tiled);
  return true;
}
