//===- GPUBlockTraining.c - Training ops summed over the workgroup --------===//
//
// convert-coopvec-to-gpu{training=block}: `outer_product_accumulate` and
// `reduce_sum_accumulate` sum over the workgroup's threads before they add
// to the gradient, one atomic per gradient element and workgroup (the
// subgroup form, GPUTraining.c, pays a 5-step shuffle reduction and a
// single-lane atomic per element and subgroup: about 12 warp instructions
// per element of every warp). For R staged rows at a time (plan->blockRows:
// the block, or a divisor of it that fits workgroup-memory):
//
//   barrier
//   A[r, :] = a, B[r, :] = b             the R threads of this chunk, each
//                                        its row: +0.0 padding to whole
//                                        16 x 16 tiles, +0.0 throughout for
//                                        an inactive thread; 16-byte
//                                        vectors, rows skewed by 16 bytes
//   barrier
//   for each 16 x 16 tile (I, J) of G, round-robin over the tile groups:
//     Y = A[:, I]^T B[:, J]               a tile product over k = the R rows
//                                        (GPUTileProduct.c): on tensor
//                                        cores for f16 (A read column-major,
//                                        B row-major: no transposed copy),
//                                        f32 FMAs otherwise or emulated
//     tile-group barrier
//     G[I, J] += Y                        every thread of the group
//                                        256 / T elements, 32 lanes an
//                                        atomic, inside G only
//     tile-group barrier
//   barrier (after the last chunk)       the buffers are free again
//
// f16 products are exact in f32 and summed in f32 (tensor cores, or FMAs),
// as the dialect's f16 accumulation needs; f32 tiles are FMAs of the f32
// values (tensor cores would round them to tf32). The sign of a zero sum is
// not specified (docs/dialect.md), so the tensor cores' +0.0 needs no fix.
// A workgroup reaches the op only with a thread that runs it (every
// workgroup has a valid thread, and masked control flow runs a branch or
// an iteration only after a vote of the workgroup: GPUThreads.c), so it
// adds only where some thread contributes, as the subgroup form.
//
// `reduce_sum_accumulate` at a uniform offset stages its vec the same way;
// thread t then sums column t (t + blockSize, ...) over the R rows in f32
// and adds it, 32 lanes an atomic.
//
//===----------------------------------------------------------------------===//

#include "Conversion/CoopvecToGPU/GPU.h"

#include <mlir-c/BuiltinTypes.h>

static MlirValue indexConstant(GPULowering *l, int64_t value) {
  return coopvecPerThreadIndex(&l->p, value);
}

static MlirValue addIndex(CoopvecBuilder *b, MlirValue x, MlirValue y) {
  return coopvecBuildBinaryOp(b, "arith.addi", x, y);
}

static MlirType elementOf(MlirValue memref) {
  return mlirShapedTypeGetElementType(mlirValueGetType(memref));
}

/// The rows the workgroup stages in one chunk, per op.
typedef struct Chunks {
  int64_t rows, count;
  MlirValue buffer; // the staging buffer of the vecs' element type
} Chunks;

static Chunks chunksOf(GPULowering *l, MlirOperation op, MlirType element) {
  Chunks c = {coopvecPointerMapFind(&l->plan->blockRows, op.ptr), 0, {NULL}};
  c.count = l->config->blockSize / c.rows;
  c.buffer = mlirTypeIsAF16(element) ? l->inputF16 : l->inputF32;
  return c;
}

//===----------------------------------------------------------------------===//
// Staging
//===----------------------------------------------------------------------===//

/// Element stride of a staged row of `padded` elements (GPU.h: the skew
/// keeps 16-byte stores conflict-free and 16 x 16 tiles 32-byte aligned).
static int64_t rowStride(MlirType element, int64_t padded) {
  return gpuSkewedRowStride(padded, mlirFloatTypeGetWidth(element) / 8);
}

/// The row of this thread within its chunk.
static MlirValue chunkRow(GPULowering *l, const Chunks *chunks) {
  return chunks->count == 1
             ? l->threadInBlock
             : coopvecBuildBinaryOp(&l->p.body, "arith.remui", l->threadInBlock,
                                    indexConstant(l, chunks->rows));
}

/// Stages `n` rows for chunk `c`: a block barrier (earlier readers of the
/// buffer are done), the chunk's threads' rows, a block barrier.
static void stageChunkRows(GPULowering *l, const Chunks *chunks, int64_t c,
                           const GPUStagedRow *rows, int n) {
  CoopvecBuilder *b = &l->p.body;
  coopvecBuildBarrier(b);
  if (chunks->count == 1) {
    for (int i = 0; i < n; ++i)
      gpuStageRow(l, b, &rows[i]);
  } else {
    MlirValue chunk = coopvecBuildBinaryOp(b, "arith.divui", l->threadInBlock,
                                           indexConstant(l, chunks->rows));
    CoopvecIf mine = coopvecBuildIf(
        b, coopvecBuildCmpI(b, COOPVEC_CMPI_EQ, chunk, indexConstant(l, c)));
    for (int i = 0; i < n; ++i)
      gpuStageRow(l, &mine.then, &rows[i]);
    coopvecFinishIf(&mine);
  }
  coopvecBuildBarrier(b);
}

//===----------------------------------------------------------------------===//
// outer_product_accumulate
//===----------------------------------------------------------------------===//

typedef struct BlockProduct {
  const CoopvecMatrixView *view;
  GPUSchedule schedule;
  Chunks chunks;
  GPUStagedRow a, b;        // A rows at 0, B rows after the chunk's A rows
  int64_t strideA, strideB; // element strides of the staged rows
  int64_t bRows;            // the element where the B rows start
  int64_t tilesK, tiles;    // 16 x 16 tiles of G along K, in all
  MlirValue group;          // this thread's tile group
} BlockProduct;

/// G[i0 + i, j0 + j] += Y[i, j] for this thread's 256 / T elements of the
/// tile group's result rows, inside G.
static void addTile(GPULowering *l, CoopvecBuilder *b, const BlockProduct *bp,
                    MlirValue i0, MlirValue j0, MlirValue outRow) {
  int64_t threads = l->config->tileThreads, rowStride, colStride;
  gpuMatrixStrides(bp->view, &rowStride, &colStride);
  MlirValue lane =
      coopvecBuildBinaryOp(b, "arith.subi", l->threadInBlock, l->tileRow);
  MlirValue tile = indexConstant(l, GPU_MMA_TILE);
  MlirValue i = coopvecBuildBinaryOp(b, "arith.divui", lane, tile);
  MlirValue j = coopvecBuildBinaryOp(b, "arith.remui", lane, tile);
  MlirValue gj = addIndex(b, j0, j);
  MlirValue jInside =
      coopvecBuildCmpI(b, COOPVEC_CMPI_ULT, gj, indexConstant(l, bp->b.count));
  int64_t outStride = gpuOutputRowStride(&l->plan->staging);
  MlirType element = elementOf(bp->view->buffer);
  int64_t perThread = (int64_t)GPU_MMA_TILE * GPU_MMA_TILE / threads;
  for (int64_t q = 0; q < perThread; ++q) {
    MlirValue row = gpuAddIndex(l, b, i, q * (threads / GPU_MMA_TILE));
    MlirValue gi = addIndex(b, i0, row);
    MlirValue inside =
        coopvecBuildBinaryOp(b, "arith.andi", jInside,
                             coopvecBuildCmpI(b, COOPVEC_CMPI_ULT, gi,
                                              indexConstant(l, bp->a.count)));
    CoopvecIf add = coopvecBuildIf(b, inside);
    CoopvecBuilder *in = &add.then;
    MlirValue y = coopvecBuildMemrefLoad(
        in, l->output,
        addIndex(in, gpuMulIndex(l, in, addIndex(in, outRow, row), outStride),
                 j));
    MlirValue rowAt = gpuMulIndex(l, in, gi, rowStride);
    MlirValue at = gpuAddIndex(
        l, in, addIndex(in, rowAt, gpuMulIndex(l, in, gj, colStride)),
        bp->view->base);
    coopvecBuildAtomicAdd(in, coopvecNarrowTo(in, y, element), bp->view->buffer,
                          at);
    coopvecFinishIf(&add);
  }
}

/// Round `round` of the tile groups' loop over G's tiles: tile
/// round * groups + group, where there is one.
static void multiplyRound(GPULowering *l, const BlockProduct *bp,
                          MlirValue round) {
  CoopvecPerThread *p = &l->p;
  int64_t groups = l->config->blockSize / l->config->tileThreads;
  CoopvecBuilder *b = &p->body;
  MlirValue tile = addIndex(b, gpuMulIndex(l, b, round, groups), bp->group);
  MlirValue has =
      coopvecBuildCmpI(b, COOPVEC_CMPI_ULT, tile, indexConstant(l, bp->tiles));
  MlirValue tilesK = indexConstant(l, bp->tilesK);
  MlirValue i0 = gpuMulIndex(
      l, b, coopvecBuildBinaryOp(b, "arith.divui", tile, tilesK), GPU_MMA_TILE);
  MlirValue j0 = gpuMulIndex(
      l, b, coopvecBuildBinaryOp(b, "arith.remui", tile, tilesK), GPU_MMA_TILE);
  MlirValue outRow = gpuMulIndex(l, b, bp->group, GPU_MMA_TILE);
  CoopvecIf multiply = coopvecBuildIf(b, has);
  CoopvecBuilder saved = p->body;
  p->body = multiply.then;
  CoopvecBuilder *in = &p->body;
  // A^T's rows are G's rows (a's elements), B's columns G's columns, and
  // k runs over the chunk's staged rows.
  GPUTileProduct product = {
      .a = {bp->a.buffer, i0, 1, bp->strideA},
      .b = {bp->b.buffer, gpuAddIndex(l, in, j0, bp->bRows), 1, bp->strideB},
      .k = bp->chunks.rows,
      .outputRow = outRow};
  gpuMultiplyTile(l, bp->schedule, &product);
  p->body = saved;
  coopvecFinishIf(&multiply);
  gpuSyncTileGroup(l);
  CoopvecIf add = coopvecBuildIf(&p->body, has);
  addTile(l, &add.then, bp, i0, j0, outRow);
  coopvecFinishIf(&add);
  gpuSyncTileGroup(l); // the group's reads of Y are done
}

static void emitBlockProduct(GPULowering *l, BlockProduct *bp) {
  CoopvecPerThread *p = &l->p;
  int64_t groups = l->config->blockSize / l->config->tileThreads;
  int64_t rounds = (bp->tiles + groups - 1) / groups;
  for (int64_t c = 0; c < bp->chunks.count; ++c) {
    GPUStagedRow rows[] = {bp->a, bp->b};
    stageChunkRows(l, &bp->chunks, c, rows, 2);
    CoopvecLoop loop =
        coopvecBuildFor(&p->body, indexConstant(l, 0), indexConstant(l, rounds),
                        indexConstant(l, 1), 0, NULL);
    CoopvecBuilder saved = p->body;
    p->body = loop.body;
    multiplyRound(l, bp, loop.inductionVar);
    loop.body = p->body;
    p->body = saved;
    coopvecFinishFor(&loop, 0, NULL);
  }
  coopvecBuildBarrier(&p->body); // the buffers are free for the next op
}

void gpuLowerBlockOuterProduct(GPULowering *l, MlirOperation op,
                               const CoopvecMatrixView *view) {
  CoopvecPerThread *p = &l->p;
  BlockProduct bp = {.view = view};
  intptr_t schedule = coopvecPointerMapFind(&l->plan->schedules, op.ptr);
  bp.schedule = schedule > 0 ? (GPUSchedule)schedule : GPUScheduleSIMT;
  bp.chunks = chunksOf(l, op, view->element);
  MlirType element = elementOf(bp.chunks.buffer);
  MlirValue row = chunkRow(l, &bp.chunks);
  int64_t paddedM = gpuRoundUp(view->rows, GPU_MMA_TILE);
  int64_t paddedK = gpuRoundUp(view->cols, GPU_MMA_TILE);
  bp.strideA = rowStride(element, paddedM);
  bp.strideB = rowStride(element, paddedK);
  bp.bRows = bp.chunks.rows * bp.strideA;
  CoopvecBuilder *b = &p->body;
  bp.a = (GPUStagedRow){
      mlirOperationGetOperand(op, 0),     view->rows, paddedM, bp.chunks.buffer,
      gpuMulIndex(l, b, row, bp.strideA), p->active};
  bp.b = (GPUStagedRow){
      mlirOperationGetOperand(op, 1),
      view->cols,
      paddedK,
      bp.chunks.buffer,
      gpuAddIndex(l, b, gpuMulIndex(l, b, row, bp.strideB), bp.bRows),
      p->active};
  bp.tilesK = paddedK / GPU_MMA_TILE;
  bp.tiles = paddedM / GPU_MMA_TILE * bp.tilesK;
  bp.group = coopvecBuildBinaryOp(b, "arith.divui", l->tileRow,
                                  indexConstant(l, l->config->tileThreads));
  emitBlockProduct(l, &bp);
}

//===----------------------------------------------------------------------===//
// reduce_sum_accumulate
//===----------------------------------------------------------------------===//

typedef struct BlockSum {
  Chunks chunks;
  GPUStagedRow v;
  MlirValue gradient, offset, mask; // mask: null, or the elements inside
} BlockSum;

/// grad[offset + e] += sum over the chunk's rows of V[r, e], for e = this
/// thread, + blockSize, ... below N.
static void sumColumns(GPULowering *l, const BlockSum *s) {
  CoopvecBuilder *b = &l->p.body;
  MlirType f32 = l->p.f32;
  int64_t stride = rowStride(elementOf(s->v.buffer), s->v.padded);
  CoopvecLoop columns =
      coopvecBuildFor(b, l->threadInBlock, indexConstant(l, s->v.count),
                      indexConstant(l, l->config->blockSize), 0, NULL);
  CoopvecBuilder *in = &columns.body;
  MlirValue e = columns.inductionVar;
  MlirValue init = coopvecBuildFloatConstant(in, f32, -0.0);
  CoopvecLoop rows =
      coopvecBuildFor(in, indexConstant(l, 0), indexConstant(l, s->chunks.rows),
                      indexConstant(l, 1), 1, &init);
  CoopvecBuilder *r = &rows.body;
  MlirValue x = coopvecWidenToF32(
      r, coopvecBuildMemrefLoad(
             r, s->v.buffer,
             addIndex(r, gpuMulIndex(l, r, rows.inductionVar, stride), e)));
  MlirValue sum =
      coopvecBuildBinaryOp(r, "arith.addf", coopvecLoopIterArg(&rows, 0), x);
  coopvecFinishFor(&rows, 1, &sum);
  sum = mlirOperationGetResult(rows.op, 0);
  CoopvecBuilder *at = in;
  CoopvecIf inside = {0};
  if (!mlirValueIsNull(s->mask)) {
    inside = coopvecBuildIf(in, coopvecBuildExtractDynamic(in, s->mask, e));
    at = &inside.then;
  }
  MlirValue narrowed = coopvecNarrowTo(at, sum, elementOf(s->gradient));
  coopvecBuildAtomicAdd(at, narrowed, s->gradient, addIndex(at, s->offset, e));
  if (!mlirValueIsNull(s->mask))
    coopvecFinishIf(&inside);
  coopvecFinishFor(&columns, 0, NULL);
}

static void emitBlockSum(GPULowering *l, const BlockSum *s) {
  for (int64_t c = 0; c < s->chunks.count; ++c) {
    stageChunkRows(l, &s->chunks, c, &s->v, 1);
    sumColumns(l, s);
  }
  coopvecBuildBarrier(&l->p.body); // the buffer is free for the next op
}

void gpuLowerBlockReduceSum(GPULowering *l, MlirOperation op) {
  CoopvecPerThread *p = &l->p;
  MlirValue v = mlirOperationGetOperand(op, 0);
  MlirType type = mlirValueGetType(v);
  BlockSum s = {.chunks = chunksOf(l, op, coopvecVecTypeGetElementType(type))};
  int64_t count = coopvecVecTypeGetSize(type);
  int64_t padded = gpuRoundUp(count, GPU_MMA_TILE);
  MlirValue row = chunkRow(l, &s.chunks);
  s.v =
      (GPUStagedRow){v,
                     count,
                     padded,
                     s.chunks.buffer,
                     gpuMulIndex(l, &p->body, row,
                                 rowStride(elementOf(s.chunks.buffer), padded)),
                     p->active};
  s.gradient = coopvecScalarOperand(p, mlirOperationGetOperand(op, 1));
  s.offset = coopvecScalarOperand(p, mlirOperationGetOperand(op, 2));
  s.mask = coopvecTransferMask(p, &p->body, (MlirValue){NULL});
  emitBlockSum(l, &s);
}
