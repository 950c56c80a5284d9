//===- CPUTraining.c - The training ops: sums over the lanes, per call ----===//
//
// For a group of L threads, outer_product_accumulate adds the small GEMM
//
//   T[M x K] += A[M x L] * B[K x L]^T
//
// to an f32 gradient tile T on the stack: row i of A is the lane vector a_i
// and row j of B is b_j, with the lanes of inactive threads zeroed (they
// may hold inf or NaN, and 0 * inf would be NaN): a masked copy, or, when
// every lane is active, the operand's own tile. T's rows are contiguous
// along j, so B is transposed into BT[L x P] (P: K rounded up to a multiple
// of L; the columns past K are zero) and the products vectorize along T's
// columns, one lane vector of L columns at a time. The micro-kernel is
// matvec's (CPUMatvec.c) with the lanes as the reduction:
//
//   for j0 in 0, L, 2L, .. P - L        (a lane vector of columns)
//     for i0 in 0, R, 2R, ..            (blocks of R = rowBlock rows)
//       acc_r = T[i0 + r, j0 .. j0 + L) (R accumulators in registers)
//       for l < L:
//         bt = BT[l, j0 .. j0 + L)
//         acc_r = fma(broadcast(A[i0 + r, l]), bt, acc_r)
//       T[i0 + r, j0 .. j0 + L) = acc_r
//
// Each row of BT is loaded once per block and used by R fmas; each element
// of A is one scalar load that LLVM folds into a broadcasting vfmadd; the
// last M % R rows get one smaller block. This replaces a lane reduction
// (log2(L) shuffles and adds, a load and a store) per gradient element and
// group. T's padding columns only add zeros and are never flushed. The
// transpose is done in B x B blocks of shuffles (cpuTransposeRows), or
// element by element where the lane count has no such block.
//
// T is added to the gradient buffer with one atomic per element after the
// lane loop (or after each group, see cpuLowerOuterProduct).
//
// reduce_sum_accumulate likewise keeps each element's sum in a lane vector
// over the groups and reduces it over the lanes once per call, where the
// buffer and the offset exist after the lane loop (cpuLowerReduceSum).
//
//===----------------------------------------------------------------------===//

#include "Conversion/CoopvecToCPU/CPU.h"

#include "Dialect/Constants.h"
#include "Dialect/Verifier.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>

#include <stdlib.h>

static MlirValue indexConstant(CPULowering *l, int64_t value) {
  return coopvecPerThreadIndex(&l->p, value);
}

/// Whether `value` is an argument of the batched function (it exists
/// before and after the lane loop).
static bool isEntryArgument(CPULowering *l, MlirValue value) {
  return mlirValueIsABlockArgument(value) &&
         mlirBlockEqual(mlirBlockArgumentGetOwner(value), l->entryBlock);
}

/// value + constant at `b`.
static MlirValue addIndex(CPULowering *l, CoopvecBuilder *b, MlirValue value,
                          int64_t constant) {
  if (constant == 0)
    return value;
  return coopvecBuildBinaryOp(b, "arith.addi", value,
                              indexConstant(l, constant));
}

/// The tiles of one outer product; T[i, j] is gradient element
/// view->base + i * rowStride + j * colStride.
typedef struct OuterProduct {
  const CoopvecMatrixView *view;
  MlirValue aTile; // memref<M x L x f32> or <? x L x f32>, masked rows a_i
  MlirValue bTile; // memref<P x L x f32> or <? x L>, masked b_j, 0 past K
  MlirValue bt;    // memref<L x P x f32>, bTile transposed
  MlirValue tile;  // memref<M x P x f32>, the f32 sums T
  int64_t paddedCols;
  int64_t rowStride, colStride;
} OuterProduct;

//===----------------------------------------------------------------------===//
// Staging: masked copies and the transpose of b
//===----------------------------------------------------------------------===//

/// `tile` rows 0 .. count-1 = the rows of `value` with the lanes of
/// inactive threads zero; a scratch tile if `tile` is null. Returns it.
static MlirValue stageMasked(CPULowering *l, MlirValue value, MlirValue tile) {
  CoopvecPerThread *p = &l->p;
  intptr_t count = coopvecVecSizeOf(value);
  if (mlirValueIsNull(tile))
    tile = coopvecScratchTile(p, count);
  coopvecPrepareForLoop(p, value);
  CoopvecLoop loop = coopvecElementLoop(p, count);
  MlirValue row = coopvecOperandRow(p, &loop.body, value, loop.inductionVar);
  cpuStoreRow(p, &loop.body, tile, loop.inductionVar,
              cpuMaskLanes(l, &loop.body, row));
  coopvecFinishFor(&loop, 0, NULL);
  return tile;
}

/// memref<? x L x f32>: tiles of different row counts as one type.
static MlirType anyRowsType(CPULowering *l) {
  int64_t shape[] = {mlirShapedTypeGetDynamicSize(), l->lanes};
  return mlirMemRefTypeContiguousGet(l->p.f32, 2, shape,
                                     mlirAttributeGetNull());
}

static MlirValue anyRows(CPULowering *l, CoopvecBuilder *b, MlirValue tile) {
  return coopvecBuild1(b, "memref.cast", 1, &tile, anyRowsType(l), 0, NULL);
}

/// The rows of `value` with the lanes of inactive threads zero: a vec in
/// SSA form copied masked (stageMasked); a tiled one as memref<? x L x
/// f32>, its own tile when every lane of the group is active (all groups
/// but a batch's last, outside divergent code), a masked copy otherwise.
/// The copy is a load, a select and a store per row and group: 2.8% of the
/// CPU time of bench/train-cpu's step (docs/performance.md).
static MlirValue stageMaskedUnlessAllActive(CPULowering *l, MlirValue value) {
  CoopvecPerThread *p = &l->p;
  const CoopvecElements *elements = coopvecLookupElements(p, value);
  if (!elements || mlirValueIsNull(elements->tile))
    return stageMasked(l, value, (MlirValue){NULL});
  MlirType type = anyRowsType(l);
  CoopvecIfElse branch = coopvecBuildIfElse(
      &p->body, cpuAllActive(p, &p->body, p->active), 1, &type);
  MlirValue own = anyRows(l, &branch.then, elements->tile);
  CoopvecBuilder saved = p->body;
  p->body = branch.otherwise;
  MlirValue copy = stageMasked(l, value, (MlirValue){NULL});
  copy = anyRows(l, &p->body, copy);
  p->body = saved;
  coopvecFinishIfElse(&branch, &own, &copy);
  return mlirOperationGetResult(branch.op, 0);
}

/// Rows first .. last-1 of `tile` (rows of `width` f32, a multiple of L)
/// set to zero at `b`, one lane vector at a time.
static void emitZeroRows(CPULowering *l, CoopvecBuilder *b, MlirValue tile,
                         int64_t first, int64_t last, int64_t width) {
  if (first >= last)
    return;
  MlirValue zero = coopvecPerThreadConstant(&l->p, 0.0);
  CoopvecLoop rows =
      coopvecBuildFor(b, indexConstant(l, first), indexConstant(l, last),
                      indexConstant(l, 1), 0, NULL);
  CoopvecLoop cols =
      coopvecBuildFor(&rows.body, indexConstant(l, 0), indexConstant(l, width),
                      indexConstant(l, l->lanes), 0, NULL);
  MlirValue operands[] = {zero, tile, rows.inductionVar, cols.inductionVar};
  coopvecBuild0(&cols.body, "vector.store", 4, operands, 0, NULL);
  coopvecFinishFor(&cols, 0, NULL);
  coopvecFinishFor(&rows, 0, NULL);
}

/// BT = bTile^T in B x B blocks: B rows of B lanes loaded, transposed by
/// shuffles, stored as B rows of BT. P and L are multiples of B.
static void emitBlockTranspose(CPULowering *l, const OuterProduct *o) {
  int64_t block = l->transposeBlock;
  MlirValue zero = indexConstant(l, 0), step = indexConstant(l, block);
  CoopvecLoop cols = coopvecBuildFor(
      &l->p.body, zero, indexConstant(l, o->paddedCols), step, 0, NULL);
  CoopvecLoop lanes = coopvecBuildFor(
      &cols.body, zero, indexConstant(l, l->lanes), step, 0, NULL);
  CoopvecBuilder *b = &lanes.body;
  MlirValue j0 = cols.inductionVar, l0 = lanes.inductionVar;
  MlirType type = mlirVectorTypeGet(1, &block, l->p.f32);
  MlirValue rows[16];
  for (int64_t k = 0; k < block; ++k) {
    MlirValue at[] = {o->bTile, addIndex(l, b, j0, k), l0};
    rows[k] = coopvecBuild1(b, "vector.load", 3, at, type, 0, NULL);
  }
  cpuTransposeRows(b, rows, block);
  for (int64_t k = 0; k < block; ++k) {
    MlirValue at[] = {rows[k], o->bt, addIndex(l, b, l0, k), j0};
    coopvecBuild0(b, "vector.store", 4, at, 0, NULL);
  }
  coopvecFinishFor(&lanes, 0, NULL);
  coopvecFinishFor(&cols, 0, NULL);
}

/// BT = bTile^T one element at a time (lane counts without a B x B block:
/// odd ones, or 1).
static void emitElementTranspose(CPULowering *l, const OuterProduct *o) {
  MlirValue zero = indexConstant(l, 0), one = indexConstant(l, 1);
  CoopvecLoop cols = coopvecBuildFor(
      &l->p.body, zero, indexConstant(l, o->paddedCols), one, 0, NULL);
  CoopvecLoop lanes = coopvecBuildFor(&cols.body, zero,
                                      indexConstant(l, l->lanes), one, 0, NULL);
  CoopvecBuilder *b = &lanes.body;
  MlirValue at[] = {o->bTile, cols.inductionVar, lanes.inductionVar};
  MlirValue value = coopvecBuild1(b, "memref.load", 3, at, l->p.f32, 0, NULL);
  MlirValue to[] = {value, o->bt, lanes.inductionVar, cols.inductionVar};
  coopvecBuild0(b, "memref.store", 4, to, 0, NULL);
  coopvecFinishFor(&lanes, 0, NULL);
  coopvecFinishFor(&cols, 0, NULL);
}

//===----------------------------------------------------------------------===//
// The micro-kernel
//===----------------------------------------------------------------------===//

/// T rows first .. first + count - 1, columns j0 .. j0 + L - 1: the block's
/// accumulators start at T and take one fma per lane l. `first` is the
/// loop's induction variable, or null for the constant `firstConstant`.
static void emitGemmBlock(CPULowering *l, const OuterProduct *o, MlirValue j0,
                          MlirValue first, int64_t firstConstant,
                          intptr_t count) {
  MlirValue *rows = calloc((size_t)count, sizeof(MlirValue));
  MlirValue *acc = calloc((size_t)count, sizeof(MlirValue));
  if (!rows || !acc)
    abort();
  for (intptr_t r = 0; r < count; ++r) {
    rows[r] = mlirValueIsNull(first) ? indexConstant(l, firstConstant + r)
                                     : addIndex(l, &l->p.body, first, r);
    MlirValue at[] = {o->tile, rows[r], j0};
    acc[r] =
        coopvecBuild1(&l->p.body, "vector.load", 3, at, l->laneType, 0, NULL);
  }
  CoopvecBuilder saved;
  CoopvecLoop loop =
      cpuOpenLoop(l, indexConstant(l, 0), indexConstant(l, l->lanes),
                  indexConstant(l, 1), count, acc, &saved);
  CoopvecBuilder *b = &l->p.body;
  MlirValue lane = loop.inductionVar;
  MlirValue btAt[] = {o->bt, lane, j0};
  MlirValue bt = coopvecBuild1(b, "vector.load", 3, btAt, l->laneType, 0, NULL);
  for (intptr_t r = 0; r < count; ++r) {
    MlirValue aAt[] = {o->aTile, rows[r], lane};
    MlirValue a = coopvecBuild1(b, "memref.load", 3, aAt, l->p.f32, 0, NULL);
    acc[r] = cpuMultiplyAdd(l, b, coopvecBuildBroadcast(b, a, l->laneType), bt,
                            coopvecLoopIterArg(&loop, r));
  }
  cpuCloseLoop(l, &loop, count, acc, &saved);
  for (intptr_t r = 0; r < count; ++r) {
    MlirValue at[] = {mlirOperationGetResult(loop.op, r), o->tile, rows[r], j0};
    coopvecBuild0(&l->p.body, "vector.store", 4, at, 0, NULL);
  }
  free(rows);
  free(acc);
}

/// T += A * BT: a loop over the lane vectors of columns, in it a loop over
/// full blocks of rowBlock rows and one block for the remaining rows.
static void emitGemm(CPULowering *l, const OuterProduct *o) {
  CoopvecBuilder colsSaved, rowsSaved;
  CoopvecLoop cols =
      cpuOpenLoop(l, indexConstant(l, 0), indexConstant(l, o->paddedCols),
                  indexConstant(l, l->lanes), 0, NULL, &colsSaved);
  int64_t block = l->rowBlock, numRows = o->view->rows;
  int64_t fullRows = numRows - numRows % block;
  if (fullRows > 0) {
    CoopvecLoop rows =
        cpuOpenLoop(l, indexConstant(l, 0), indexConstant(l, fullRows),
                    indexConstant(l, block), 0, NULL, &rowsSaved);
    emitGemmBlock(l, o, cols.inductionVar, rows.inductionVar, 0, block);
    cpuCloseLoop(l, &rows, 0, NULL, &rowsSaved);
  }
  if (fullRows < numRows)
    emitGemmBlock(l, o, cols.inductionVar, (MlirValue){NULL}, fullRows,
                  numRows - fullRows);
  cpuCloseLoop(l, &cols, 0, NULL, &colsSaved);
}

//===----------------------------------------------------------------------===//
// The gradient tile's flush
//===----------------------------------------------------------------------===//

/// grad[i, j] += T[i, j] for i < M, j < K with one atomic add per element,
/// at `b` (constants come from the function's entry, so `b` may be the
/// exit or the lane loop's body).
static void emitFlushTile(CPULowering *l, CoopvecBuilder *b,
                          const OuterProduct *o) {
  const CoopvecMatrixView *view = o->view;
  MlirValue zero = indexConstant(l, 0), one = indexConstant(l, 1);
  MlirValue base = indexConstant(l, view->base);
  MlirValue rowStride = indexConstant(l, o->rowStride);
  MlirValue colStride = indexConstant(l, o->colStride);
  CoopvecLoop outer =
      coopvecBuildFor(b, zero, indexConstant(l, view->rows), one, 0, NULL);
  CoopvecLoop inner = coopvecBuildFor(
      &outer.body, zero, indexConstant(l, view->cols), one, 0, NULL);
  CoopvecBuilder *in = &inner.body;
  MlirValue i = outer.inductionVar, j = inner.inductionVar;
  MlirValue loadOperands[] = {o->tile, i, j};
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
  coopvecFinishFor(&inner, 0, NULL);
  coopvecFinishFor(&outer, 0, NULL);
}

//===----------------------------------------------------------------------===//
// outer_product_accumulate
//===----------------------------------------------------------------------===//

/// The tiles of `view`'s outer product: T, BT and, where K is not a
/// multiple of L, the padded b tile (its rows past K zeroed once, before the
/// lane loop; otherwise b's rows are staged by stageMaskedUnlessAllActive),
/// all 64-byte aligned.
static OuterProduct allocateTiles(CPULowering *l,
                                  const CoopvecMatrixView *view) {
  OuterProduct o = {.view = view};
  int64_t lanes = l->lanes;
  o.paddedCols = (view->cols + lanes - 1) / lanes * lanes;
  // The opaque layouts are row-major on the CPU target.
  bool colMajor = view->layout == CoopvecLayoutColMajor;
  o.rowStride = colMajor ? 1 : view->cols;
  o.colStride = colMajor ? view->rows : 1;
  o.tile = cpuAllocaMatrix(l, view->rows, o.paddedCols);
  o.bt = cpuAllocaMatrix(l, lanes, o.paddedCols);
  if (o.paddedCols != view->cols) {
    o.bTile = cpuAllocaMatrix(l, o.paddedCols, lanes);
    emitZeroRows(l, &l->p.entry, o.bTile, view->cols, o.paddedCols, lanes);
  }
  return o;
}

/// grad[i, j] += a_i * b_j summed over all threads. Each group's products
/// are added to the f32 tile T by the micro-kernel above; when the gradient
/// buffer is an argument of the batched function, T is added to it once,
/// after the lane loop (one atomic per element and call, so concurrent
/// calls sharing the buffer stay correct, and an f16 gradient is rounded
/// once). Otherwise the buffer is only known inside the loop, and T is
/// zeroed and added in each group.
bool cpuLowerOuterProduct(CoopvecPerThread *p, MlirOperation op) {
  CPULowering *l = cpuOf(p);
  const CoopvecMatrixView *view =
      cpuCheckedView(p, op, mlirOperationGetOperand(op, 2));
  if (!view)
    return false;
  OuterProduct o = allocateTiles(l, view);
  o.aTile = stageMaskedUnlessAllActive(l, mlirOperationGetOperand(op, 0));
  // b's tile is transposed as it is only when it needs no zero rows.
  if (mlirValueIsNull(o.bTile))
    o.bTile = stageMaskedUnlessAllActive(l, mlirOperationGetOperand(op, 1));
  else
    stageMasked(l, mlirOperationGetOperand(op, 1), o.bTile);
  bool onceAfterLoop = isEntryArgument(l, view->buffer);
  emitZeroRows(l, onceAfterLoop ? &p->entry : &p->body, o.tile, 0, view->rows,
               o.paddedCols);
  if (l->transposeBlock > 0)
    emitBlockTranspose(l, &o);
  else
    emitElementTranspose(l, &o);
  emitGemm(l, &o);
  emitFlushTile(l, onceAfterLoop ? &l->exit : &p->body, &o);
  return true;
}

//===----------------------------------------------------------------------===//
// reduce_sum_accumulate
//===----------------------------------------------------------------------===//

/// The offset of reduce_sum_accumulate `op` (lowered: `offset`) as a value
/// that exists after the lane loop: an argument of the batched function, or
/// a constant rebuilt at the entry; null otherwise (computed in the loop).
static MlirValue offsetAfterLoop(CPULowering *l, MlirOperation op,
                                 MlirValue offset) {
  int64_t constant;
  if (isEntryArgument(l, offset))
    return offset;
  if (coopvecIntegerConstant(mlirOperationGetOperand(op, 2), &constant))
    return indexConstant(l, constant);
  return (MlirValue){NULL};
}

/// grad[offset + i] += sum over the lanes of S[i], at `b`, for i < count.
static void emitFlushSums(CPULowering *l, CoopvecBuilder *b, MlirValue sums,
                          intptr_t count, MlirValue gradient,
                          MlirValue offset) {
  MlirType element = mlirShapedTypeGetElementType(mlirValueGetType(gradient));
  CoopvecLoop loop =
      coopvecBuildFor(b, indexConstant(l, 0), indexConstant(l, count),
                      indexConstant(l, 1), 0, NULL);
  CoopvecBuilder *in = &loop.body;
  MlirValue sum =
      coopvecBuildReduceAdd(in, cpuLoadRow(&l->p, in, sums, loop.inductionVar));
  MlirValue index =
      coopvecBuildBinaryOp(in, "arith.addi", offset, loop.inductionVar);
  coopvecBuildAtomicAdd(in, coopvecNarrowTo(in, sum, element), gradient, index);
  coopvecFinishFor(&loop, 0, NULL);
}

/// The sums of each call in lane vectors: S[i] += v_i (masked) per group,
/// S zeroed before the lane loop, reduced over the lanes and added to the
/// gradient once after it (one reduction and atomic per element and call,
/// as outer_product_accumulate's tile, instead of per group).
static void lowerReduceSumPerCall(CPULowering *l, MlirValue value,
                                  MlirValue gradient, MlirValue offset) {
  CoopvecPerThread *p = &l->p;
  intptr_t count = coopvecVecSizeOf(value);
  MlirValue sums = cpuAllocaMatrix(l, count, l->lanes);
  emitZeroRows(l, &p->entry, sums, 0, count, l->lanes);
  coopvecPrepareForLoop(p, value);
  CoopvecLoop loop = coopvecElementLoop(p, count);
  CoopvecBuilder *b = &loop.body;
  MlirValue row = coopvecOperandRow(p, b, value, loop.inductionVar);
  MlirValue sum = coopvecBuildBinaryOp(
      b, "arith.addf", cpuLoadRow(p, b, sums, loop.inductionVar),
      cpuMaskLanes(l, b, row));
  cpuStoreRow(p, b, sums, loop.inductionVar, sum);
  coopvecFinishFor(&loop, 0, NULL);
  emitFlushSums(l, &l->exit, sums, count, gradient, offset);
}

/// Per element of v, the sum over all threads added at offset + i. When
/// the buffer is an argument and the offset is known after the lane loop,
/// the sums are kept per call (lowerReduceSumPerCall). Otherwise a masked
/// lane reduction and one atomic add per element and group, in an element
/// loop; under a bounds mask (checked at run time), only the elements
/// inside the buffer are added.
bool cpuLowerReduceSum(CoopvecPerThread *p, MlirOperation op) {
  CPULowering *l = cpuOf(p);
  MlirValue value = mlirOperationGetOperand(op, 0);
  MlirValue gradient = coopvecScalarOperand(p, mlirOperationGetOperand(op, 1));
  MlirValue offset = coopvecScalarOperand(p, mlirOperationGetOperand(op, 2));
  MlirType element = mlirShapedTypeGetElementType(mlirValueGetType(gradient));
  MlirValue mask = coopvecTransferMask(p, &p->body, (MlirValue){NULL});
  MlirValue offsetAfter = offsetAfterLoop(l, op, offset);
  if (mlirValueIsNull(mask) && isEntryArgument(l, gradient) &&
      !mlirValueIsNull(offsetAfter)) {
    lowerReduceSumPerCall(l, value, gradient, offsetAfter);
    return true;
  }
  coopvecPrepareForLoop(p, value);
  CoopvecLoop loop = coopvecElementLoop(p, coopvecVecSizeOf(value));
  CoopvecBuilder *b = &loop.body;
  MlirValue row = coopvecOperandRow(p, b, value, loop.inductionVar);
  MlirValue sum = coopvecBuildReduceAdd(b, cpuMaskLanes(l, b, row));
  MlirValue index =
      coopvecBuildBinaryOp(b, "arith.addi", offset, loop.inductionVar);
  if (mlirValueIsNull(mask)) {
    coopvecBuildAtomicAdd(b, coopvecNarrowTo(b, sum, element), gradient, index);
  } else {
    CoopvecIf inside = coopvecBuildIf(
        b, coopvecBuildExtractDynamic(b, mask, loop.inductionVar));
    coopvecBuildAtomicAdd(&inside.then,
                          coopvecNarrowTo(&inside.then, sum, element), gradient,
                          index);
    coopvecFinishIf(&inside);
  }
  coopvecFinishFor(&loop, 0, NULL);
  return true;
}
