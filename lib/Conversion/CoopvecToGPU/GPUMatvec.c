//===- GPUMatvec.c - matvec on tensor cores or per-thread FMA loops -------===//
//
// Tensor cores (GPUScheduleMMA*): the S threads of a subgroup hold S
// vectors of K elements, i.e. an S x K matrix X, and y = W x for each of
// them is the S x M matrix X W^T. With Kp = K rounded up to the MMA k-step
// and Mp = M rounded up to 16:
//
//   X[t, :] = x (padded with +0.0)        every thread its row of the
//                                          subgroup's tile in workgroup
//                                          memory, in 16-byte vectors
//   for each 16-column output tile n:     (unrolled: Mp / 16 tiles)
//     barrier
//     R[j, k] = W(16n + j, k)              all threads of the workgroup copy
//                                          the 16 x Kp weight slice, -0.0
//                                          outside W, in 16-byte vectors
//                                          where the layout allows
//     barrier
//     for each 16-row tile m of X:         (S / 16 tiles)
//       C = -0.0; for k: C += X[m, k] R^T   gpu.subgroup_mma_*, f32 C, R
//                                          read as a column-major B (or
//                                          FMAs: emulate-mma, GPUEmulatedMMA.c)
//       Y[m] = C
//     subgroup barrier                     (Y[m] is the subgroup's own rows)
//     y_{16n + j} = Y[t, j] (+ b_{16n+j})  every thread reads its row, in
//                                          16-byte vectors
//
// The rows of X, R and Y are 16 bytes longer than their data (GPU.h,
// GPU_STAGING_SKEW_BYTES): with rows of 2^n bytes, the 32 threads of a
// warp writing or reading their rows all hit one bank of workgroup memory
// (a 32-way conflict per access). R holds W's rows as they are in a
// row-major W (k contiguous), so the copy moves whole 16-byte vectors and
// the tensor cores read it as the column-major B = R^T: an H200 profile
// (docs/performance.md) showed the k-major slice of 16 columns costing
// 8-way conflicts on its 2-byte stores and 2-way on its transposed
// fragment loads.
//
// Padding contributes (+0.0) * (-0.0) = -0.0, the additive identity, so
// padded sums equal unpadded ones; padded output columns are dropped.
// Tensor cores give +0.0 for a sum of -0.0 products, so a zero result
// takes its sign from the zero products alone (fixZeroSigns).
// Rows of threads past the end of the batch are computed and not used.
// The weights are staged through workgroup memory because a wmma load
// from global memory needs 32-byte aligned rows, which a `matrix_view` at
// a 16-byte offset or an odd width does not give, and reading them per
// 16-column slice keeps the buffer small.
//
// mma-regions: the matvecs the plan puts on mma.sync fragments are
// GPUFragmentMatvec.c's (cooperative regions).
//
// SIMT (GPUScheduleSIMT): every thread computes y_o = sum_k W(o, k) x_k
// with FMAs from the bias or -0.0, unrolled over the elements held in SSA
// form and looping over those in tiles.
//
//===----------------------------------------------------------------------===//

#include "Conversion/CoopvecToGPU/GPU.h"

#include "Dialect/Verifier.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>

#include <stdlib.h>

typedef GPUMatvec Matvec;

static MlirValue indexConstant(GPULowering *l, int64_t value) {
  return coopvecPerThreadIndex(&l->p, value);
}

static MlirValue addIndex(CoopvecBuilder *b, MlirValue x, MlirValue y) {
  return coopvecBuildBinaryOp(b, "arith.addi", x, y);
}

static MlirValue mulIndex(GPULowering *l, CoopvecBuilder *b, MlirValue x,
                          int64_t constant) {
  return gpuMulIndex(l, b, x, constant);
}

/// The element index of W(o, k).
static MlirValue weightIndex(GPULowering *l, CoopvecBuilder *b, const Matvec *m,
                             MlirValue o, MlirValue k) {
  return gpuAddIndex(l, b,
                     addIndex(b, mulIndex(l, b, o, m->outputStride),
                              mulIndex(l, b, k, m->inputStride)),
                     m->view->base);
}

/// The element index of W(o, k) for constants o and k.
static MlirValue constantWeightIndex(GPULowering *l, const Matvec *m, int64_t o,
                                     int64_t k) {
  return indexConstant(l, m->view->base + o * m->outputStride +
                              k * m->inputStride);
}

void gpuSetMatvecOutput(GPULowering *l, GPUMatvec *m, int64_t o,
                        MlirValue value) {
  if (mlirValueIsNull(m->tile))
    m->values[o] = value;
  else
    gpuStoreRow(&l->p, &l->p.body, m->tile, indexConstant(l, o), value);
}

//===----------------------------------------------------------------------===//
// Tensor cores
//===----------------------------------------------------------------------===//

/// Every thread writes its input (rounded to the staging type) and the
/// +0.0 padding to its row of the block's tile, in 16-byte vectors
/// (GPUStagedRows.c: conflict-free with the rows' skew).
void gpuStageMatvecInput(GPULowering *l, const GPUMatvec *m) {
  GPUStagedRow row = {m->input,
                      m->numInputs,
                      m->paddedInputs,
                      m->inputBuffer,
                      mulIndex(l, &l->p.body, l->threadInBlock, m->rowStride),
                      {NULL}};
  gpuStageRow(l, &l->p.body, &row);
}

/// Splits the slice index `i` into (j, k) so that consecutive threads read
/// consecutive weights when the layout allows.
static void sliceCoordinates(GPULowering *l, CoopvecBuilder *b, const Matvec *m,
                             int64_t rows, MlirValue i, MlirValue *k,
                             MlirValue *j) {
  bool inputsContiguous = m->inputStride == 1;
  MlirValue fast = indexConstant(l, inputsContiguous ? m->paddedInputs : rows);
  MlirValue minor = coopvecBuildBinaryOp(b, "arith.remui", i, fast);
  MlirValue major = coopvecBuildBinaryOp(b, "arith.divui", i, fast);
  *k = inputsContiguous ? minor : major;
  *j = inputsContiguous ? major : minor;
}

/// The element index of W(o, k) with o and k clamped to the last output
/// and to `lastInput`, so that it is inside W; whether (o, k) itself is
/// in `*inside`.
static MlirValue clampedWeightIndex(GPULowering *l, CoopvecBuilder *b,
                                    const Matvec *m, MlirValue o, MlirValue k,
                                    int64_t lastInput, MlirValue *inside) {
  *inside = coopvecBuildBinaryOp(
      b, "arith.andi",
      coopvecBuildCmpI(b, COOPVEC_CMPI_ULT, o, indexConstant(l, m->numOutputs)),
      coopvecBuildCmpI(b, COOPVEC_CMPI_ULT, k, indexConstant(l, m->numInputs)));
  MlirValue oo = coopvecBuildBinaryOp(b, "arith.minui", o,
                                      indexConstant(l, m->numOutputs - 1));
  MlirValue kk =
      coopvecBuildBinaryOp(b, "arith.minui", k, indexConstant(l, lastInput));
  return weightIndex(l, b, m, oo, kk);
}

/// W(o, k), or -0.0 outside W (read at a clamped, valid index).
static MlirValue paddedWeight(GPULowering *l, CoopvecBuilder *b,
                              const Matvec *m, MlirValue o, MlirValue k) {
  MlirValue inside;
  MlirValue at = clampedWeightIndex(l, b, m, o, k, m->numInputs - 1, &inside);
  MlirValue weight = coopvecBuildMemrefLoad(b, m->view->buffer, at);
  return coopvecBuildSelect(
      b, inside, weight,
      coopvecBuildFloatConstant(b, mlirValueGetType(weight), -0.0));
}

/// Whether whole 16-byte vectors of W's rows can be copied: k contiguous,
/// and every row start 16-byte aligned (buffers are: docs/execution-
/// model.md, "GPU targets").
static bool copiesWeightChunks(const Matvec *m, MlirType chunk) {
  int64_t width = mlirShapedTypeGetDimSize(chunk, 0);
  return m->inputStride == 1 && m->numInputs % width == 0 &&
         m->outputStride % width == 0 && m->view->base % width == 0;
}

/// The copy of R element by element, each thread every blockSize-th:
/// `rows` rows from W's row 16 `tile`. (Unrolling this loop, so that a
/// thread's loads are in flight together, changed nothing measurable on an
/// H200 and cost 9 registers: docs/performance.md.)
static void stageWeightElements(GPULowering *l, const Matvec *m, int64_t tile,
                                int64_t rows) {
  int64_t count = m->paddedInputs * rows;
  CoopvecLoop loop =
      coopvecBuildFor(&l->p.body, l->threadInBlock, indexConstant(l, count),
                      indexConstant(l, l->config->blockSize), 0, NULL);
  CoopvecBuilder *b = &loop.body;
  MlirValue k, j;
  sliceCoordinates(l, b, m, rows, loop.inductionVar, &k, &j);
  MlirValue o = gpuAddIndex(l, b, j, tile * GPU_MMA_TILE);
  MlirValue at = addIndex(b, mulIndex(l, b, j, m->weightStride), k);
  coopvecBuildMemrefStore(b, paddedWeight(l, b, m, o, k), m->weightBuffer, at);
  coopvecFinishFor(&loop, 0, NULL);
}

/// The copy of R in 16-byte vectors: chunk i is row i / (Kp / width),
/// elements from k = width * (i % (Kp / width)); -0.0 outside W (the load
/// clamped to a valid chunk).
static void stageWeightChunks(GPULowering *l, const Matvec *m, int64_t tile,
                              int64_t rows, MlirType chunk) {
  int64_t width = mlirShapedTypeGetDimSize(chunk, 0);
  int64_t perRow = m->paddedInputs / width;
  CoopvecLoop loop = coopvecBuildFor(
      &l->p.body, l->threadInBlock, indexConstant(l, perRow * rows),
      indexConstant(l, l->config->blockSize), 0, NULL);
  CoopvecBuilder *b = &loop.body;
  MlirValue i = loop.inductionVar;
  MlirValue j =
      coopvecBuildBinaryOp(b, "arith.divui", i, indexConstant(l, perRow));
  MlirValue k = mulIndex(
      l, b, coopvecBuildBinaryOp(b, "arith.remui", i, indexConstant(l, perRow)),
      width);
  MlirValue o = gpuAddIndex(l, b, j, tile * GPU_MMA_TILE);
  MlirValue inside;
  MlirValue from =
      clampedWeightIndex(l, b, m, o, k, m->numInputs - width, &inside);
  MlirValue loaded = gpuBuildAlignedVectorLoad(b, chunk, m->view->buffer, from);
  MlirValue zero = coopvecBuildFloatSplatConstant(b, chunk, -0.0);
  MlirValue at = addIndex(b, mulIndex(l, b, j, m->weightStride), k);
  gpuBuildAlignedVectorStore(b, coopvecBuildSelect(b, inside, loaded, zero),
                             m->weightBuffer, at);
  coopvecFinishFor(&loop, 0, NULL);
}

/// The workgroup copies the rows x Kp weights R[j, k] = W(16 tile + j, k):
/// a 16-row slice, or every row (mma-weights=whole, fragment matvecs).
void gpuStageMatvecWeights(GPULowering *l, const GPUMatvec *m, int64_t tile,
                           int64_t rows) {
  MlirType chunk = gpuStagingChunkType(m->view->element);
  if (copiesWeightChunks(m, chunk))
    stageWeightChunks(l, m, tile, rows, chunk);
  else
    stageWeightElements(l, m, tile, rows);
}

MlirValue gpuAddZeroProduct(GPULowering *l, CoopvecBuilder *b, MlirValue w,
                            MlirValue x, MlirValue sum) {
  MlirValue zero = coopvecPerThreadConstant(&l->p, 0.0);
  MlirValue product =
      coopvecBuildBinaryOp(b, "arith.mulf", coopvecWidenToF32(b, w), x);
  MlirValue isZero = coopvecBuildCmpF(b, COOPVEC_CMPF_OEQ, product, zero);
  return coopvecBuildBinaryOp(b, "arith.addf", sum,
                              coopvecBuildSelect(b, isZero, product, zero));
}

/// The sum of the zero products W(16 tile + j, k) x_k alone, from -0.0,
/// for j < count, read from the staged input row and weight slice: -0.0
/// exactly when every product is -0.0. The loop runs only for a thread
/// with a zero result (`isZero[j]`; its trip count is 0 otherwise).
static void sumZeroProducts(GPULowering *l, const Matvec *m,
                            const MlirValue *isZero, int64_t count,
                            MlirValue *sums) {
  CoopvecBuilder *b = &l->p.body;
  MlirValue anyZero = isZero[0];
  for (int64_t j = 0; j < count; ++j) {
    if (j)
      anyZero = coopvecBuildBinaryOp(b, "arith.ori", anyZero, isZero[j]);
    sums[j] = coopvecPerThreadConstant(&l->p, -0.0);
  }
  MlirValue trips = coopvecBuildSelect(
      b, anyZero, indexConstant(l, m->numInputs), indexConstant(l, 0));
  MlirValue rowStart = mulIndex(l, b, l->threadInBlock, m->rowStride);
  CoopvecLoop loop = coopvecBuildFor(b, indexConstant(l, 0), trips,
                                     indexConstant(l, 1), count, sums);
  CoopvecBuilder *in = &loop.body;
  MlirValue x = coopvecWidenToF32(
      in, coopvecBuildMemrefLoad(in, m->inputBuffer,
                                 addIndex(in, rowStart, loop.inductionVar)));
  MlirValue next[GPU_MMA_TILE];
  for (int64_t j = 0; j < count; ++j) {
    MlirValue w = coopvecBuildMemrefLoad(
        in, m->weightBuffer,
        gpuAddIndex(l, in, loop.inductionVar,
                    m->weightStart + j * m->weightStride));
    next[j] = gpuAddZeroProduct(l, in, w, x, coopvecLoopIterArg(&loop, j));
  }
  coopvecFinishFor(&loop, count, next);
  for (int64_t j = 0; j < count; ++j)
    sums[j] = mlirOperationGetResult(loop.op, j);
}

/// Tensor cores do not keep IEEE signed zeros: a sum of -0.0 products
/// comes out +0.0 (an H200, sm_90), where the dialect's sum from -0.0 is
/// -0.0. An exact-zero IEEE sum is -0.0 only when every product is -0.0,
/// so a zero result takes the sign of the sum of the zero products alone.
static void fixZeroSigns(GPULowering *l, const Matvec *m, MlirValue *values,
                         int64_t count) {
  CoopvecBuilder *b = &l->p.body;
  MlirValue zero = coopvecPerThreadConstant(&l->p, 0.0);
  MlirValue isZero[GPU_MMA_TILE] = {{NULL}}, sums[GPU_MMA_TILE];
  for (int64_t j = 0; j < count; ++j)
    isZero[j] = coopvecBuildCmpF(b, COOPVEC_CMPF_OEQ, values[j], zero);
  sumZeroProducts(l, m, isZero, count, sums);
  for (int64_t j = 0; j < count; ++j)
    values[j] = coopvecBuildSelect(b, isZero[j], sums[j], values[j]);
}

/// Every thread reads its row of output tile `tile` from Y, in 16-byte
/// vectors (conflict-free as the input rows are, when skewed:
/// gpuOutputRowStride).
static void readOutputTile(GPULowering *l, Matvec *m, int64_t tile) {
  CoopvecBuilder *b = &l->p.body;
  MlirValue rowStart =
      mulIndex(l, b, l->threadInBlock, gpuOutputRowStride(&l->plan->staging));
  int64_t first = tile * GPU_MMA_TILE;
  int64_t count = m->numOutputs - first < GPU_MMA_TILE ? m->numOutputs - first
                                                       : GPU_MMA_TILE;
  MlirType chunk = gpuStagingChunkType(l->p.f32);
  int64_t width = mlirShapedTypeGetDimSize(chunk, 0);
  MlirValue values[GPU_MMA_TILE], vector = {NULL};
  for (int64_t j = 0; j < count; ++j) {
    if (j % width == 0)
      vector = gpuBuildAlignedVectorLoad(b, chunk, l->output,
                                         gpuAddIndex(l, b, rowStart, j));
    values[j] = coopvecBuildExtract(b, vector, j % width);
  }
  fixZeroSigns(l, m, values, count);
  for (int64_t j = 0; j < count; ++j) {
    MlirValue value = values[j];
    if (!mlirValueIsNull(m->bias))
      value = coopvecBuildBinaryOp(
          b, "arith.addf", value,
          coopvecOperandElement(&l->p, m->bias, first + j));
    gpuSetMatvecOutput(l, m, first + j, value);
  }
}

/// The 16 rows from `rowStart` of X times the weight rows from element
/// `m->weightStart` (R^T) into the same rows of Y: on tensor cores, or
/// emulated (emulate-mma, GPUEmulatedMMA.c).
static void multiplyTile(GPULowering *l, const Matvec *m, MlirValue rowStart) {
  CoopvecBuilder *b = &l->p.body;
  GPUTileProduct product = {
      .a = {m->inputBuffer, mulIndex(l, b, rowStart, m->rowStride),
            m->rowStride, 1},
      .b = {m->weightBuffer,
            m->weightStart ? indexConstant(l, m->weightStart) : (MlirValue){0},
            m->weightStride, 1},
      .k = m->paddedInputs,
      .outputRow = rowStart};
  gpuMultiplyTile(l, m->schedule, &product);
}

/// mma-weights=slices: per output tile, a barrier pair around the copy of
/// its 16 weight rows, every row tile multiplied, the results read back.
static void emitSlicedWeights(GPULowering *l, Matvec *m, int64_t tiles) {
  for (int64_t tile = 0; tile < tiles; ++tile) {
    // Earlier readers of the weight slice and of Y are done.
    coopvecBuildBarrier(&l->p.body);
    gpuStageMatvecWeights(l, m, tile, GPU_MMA_TILE);
    coopvecBuildBarrier(&l->p.body);
    for (int64_t first = 0; first < l->config->tileThreads;
         first += GPU_MMA_TILE)
      multiplyTile(l, m, gpuAddIndex(l, &l->p.body, l->tileRow, first));
    gpuSyncTileGroup(l);
    readOutputTile(l, m, tile);
  }
}

/// The accumulators of every (row tile, output tile) pair of the tile
/// group from -0.0 over the k-steps: each step loads a row tile's X
/// fragment once for all output tiles (slices load it once per output
/// tile). acc[r * tiles + n] is row tile r times output tile n.
static void multiplyWhole(GPULowering *l, const Matvec *m, int64_t rowTiles,
                          int64_t tiles, MlirValue *acc) {
  CoopvecBuilder *b = &l->p.body;
  GPUFragments f = gpuFragments(
      l, m->schedule,
      mlirShapedTypeGetElementType(mlirValueGetType(m->inputBuffer)), b);
  int64_t kStep = f.kStep, count = rowTiles * tiles;
  for (int64_t i = 0; i < count; ++i)
    acc[i] = f.zero;
  CoopvecLoop loop = coopvecBuildFor(b, indexConstant(l, 0),
                                     indexConstant(l, m->paddedInputs / kStep),
                                     indexConstant(l, 1), count, acc);
  CoopvecBuilder *in = &loop.body;
  MlirValue k = mulIndex(l, in, loop.inductionVar, kStep);
  MlirValue x[GPU_WHOLE_WEIGHTS_MAX_TILES];
  for (int64_t n = 0; n < tiles; ++n)
    x[n] = coopvecBuildMMALoad(
        in, f.b, m->weightBuffer,
        gpuAddIndex(l, in, k, n * GPU_MMA_TILE * m->weightStride),
        m->weightStride, true);
  for (int64_t r = 0; r < rowTiles; ++r) {
    MlirValue rowStart = gpuAddIndex(l, in, l->tileRow, r * GPU_MMA_TILE);
    MlirValue a = coopvecBuildMMALoad(
        in, f.a, m->inputBuffer,
        addIndex(in, mulIndex(l, in, rowStart, m->rowStride), k), m->rowStride,
        false);
    for (int64_t n = 0; n < tiles; ++n)
      acc[r * tiles + n] = coopvecBuildMMACompute(
          in, a, x[n], coopvecLoopIterArg(&loop, r * tiles + n), false, true);
  }
  coopvecFinishFor(&loop, count, acc);
  for (int64_t i = 0; i < count; ++i)
    acc[i] = mlirOperationGetResult(loop.op, i);
}

/// Output tile n of every row tile into Y: the accumulators on tensor
/// cores, or the emulated products (which compute it now, from the staged
/// rows: the same staging, barriers and read-back).
static void storeWholeTile(GPULowering *l, Matvec *m, int64_t rowTiles,
                           int64_t tiles, int64_t n, const MlirValue *acc) {
  CoopvecBuilder *b = &l->p.body;
  int64_t outStride = gpuOutputRowStride(&l->plan->staging);
  for (int64_t r = 0; r < rowTiles; ++r) {
    MlirValue rowStart = gpuAddIndex(l, b, l->tileRow, r * GPU_MMA_TILE);
    if (l->config->emulateMMA)
      multiplyTile(l, m, rowStart);
    else
      coopvecBuildMMAStore(b, acc[r * tiles + n], l->output,
                           mulIndex(l, b, rowStart, outStride), outStride);
  }
}

/// mma-weights=whole: one barrier pair around the copy of every weight
/// row, the k-steps over all output tiles at once (multiplyWhole), then the
/// result tiles stored and read back one by one through Y (a tile group's
/// own rows: tile-group barriers only).
static void emitWholeWeights(GPULowering *l, Matvec *m, int64_t tiles) {
  int64_t rowTiles = l->config->tileThreads / GPU_MMA_TILE;
  MlirValue acc[GPU_WHOLE_WEIGHTS_MAX_TILES] = {{NULL}}; // emulated: unused
  // Earlier readers of the weights and of Y are done.
  coopvecBuildBarrier(&l->p.body);
  gpuStageMatvecWeights(l, m, 0, tiles * GPU_MMA_TILE);
  coopvecBuildBarrier(&l->p.body);
  if (!l->config->emulateMMA)
    multiplyWhole(l, m, rowTiles, tiles, acc);
  for (int64_t n = 0; n < tiles; ++n) {
    m->weightStart = n * GPU_MMA_TILE * m->weightStride;
    if (n)
      gpuSyncTileGroup(l); // the group's reads of tile n - 1 are done
    storeWholeTile(l, m, rowTiles, tiles, n, acc);
    gpuSyncTileGroup(l);
    readOutputTile(l, m, n);
  }
  m->weightStart = 0;
}

/// The staging buffers and strides of a tensor-core matvec.
static void setUpTensorCores(GPULowering *l, Matvec *m) {
  bool f16 = m->schedule == GPUScheduleMMAF16;
  m->inputBuffer = f16 ? l->inputF16 : l->inputF32;
  m->weightBuffer = f16 ? l->weightF16 : l->weightF32;
  m->paddedInputs = gpuRoundUp(m->numInputs, gpuMMAKStep(m->schedule));
  m->rowStride = gpuStagedRowStride(m->schedule, m->paddedInputs);
  m->weightStride =
      gpuWeightRowStride(&l->plan->staging, m->schedule, m->paddedInputs);
}

static void emitTensorCoreMatvec(GPULowering *l, Matvec *m) {
  setUpTensorCores(l, m);
  if (coopvecPointerMapFind(&l->plan->fragmentMatvecs, m->op.ptr) >= 0) {
    gpuEmitFragmentMatvec(l, m);
    return;
  }
  gpuStageMatvecInput(l, m);
  int64_t tiles = gpuRoundUp(m->numOutputs, GPU_MMA_TILE) / GPU_MMA_TILE;
  if (m->wholeWeights)
    emitWholeWeights(l, m, tiles);
  else
    emitSlicedWeights(l, m, tiles);
}

//===----------------------------------------------------------------------===//
// SIMT
//===----------------------------------------------------------------------===//

MlirValue gpuBuildAccumulate(CoopvecBuilder *b, MlirValue w, MlirValue x,
                             MlirValue acc) {
  MlirValue sum =
      coopvecBuildTernaryOp(b, "math.fma", coopvecWidenToF32(b, w), x, acc);
  mlirOperationSetDiscardableAttributeByName(
      mlirOpResultGetOwner(sum),
      mlirStringRefCreateFromCString(COOPVEC_GPU_ACCUMULATE_ATTR),
      mlirUnitAttrGet(mlirTypeGetContext(mlirValueGetType(sum))));
  return sum;
}

/// acc + sum_k W(o, k) x_k at `b`, for the output index `o`, the constant
/// `oConstant` when that is not negative.
static MlirValue dotProduct(GPULowering *l, CoopvecBuilder *b, const Matvec *m,
                            MlirValue o, int64_t oConstant, MlirValue acc) {
  CoopvecPerThread *p = &l->p;
  const CoopvecElements *input = coopvecLookupElements(p, m->input);
  if (mlirValueIsNull(input->tile)) {
    for (int64_t k = 0; k < m->numInputs; ++k) {
      MlirValue at = oConstant >= 0
                         ? constantWeightIndex(l, m, oConstant, k)
                         : weightIndex(l, b, m, o, indexConstant(l, k));
      MlirValue w = coopvecBuildMemrefLoad(b, m->view->buffer, at);
      acc =
          gpuBuildAccumulate(b, w, coopvecOperandElement(p, m->input, k), acc);
    }
    return acc;
  }
  CoopvecLoop loop =
      coopvecBuildFor(b, indexConstant(l, 0), indexConstant(l, m->numInputs),
                      indexConstant(l, 1), 1, &acc);
  CoopvecBuilder *in = &loop.body;
  MlirValue x = gpuLoadRow(p, in, input->tile, loop.inductionVar);
  MlirValue w = coopvecBuildMemrefLoad(
      in, m->view->buffer, weightIndex(l, in, m, o, loop.inductionVar));
  MlirValue sum = gpuBuildAccumulate(in, w, x, coopvecLoopIterArg(&loop, 0));
  coopvecFinishFor(&loop, 1, &sum);
  return mlirOperationGetResult(loop.op, 0);
}

/// Unrolled over outputs in SSA form; a loop over the rows of a tiled
/// result (whose tile may be the bias's: row o is read before written).
static void emitSIMTMatvec(GPULowering *l, Matvec *m) {
  CoopvecPerThread *p = &l->p;
  MlirValue noBias = coopvecPerThreadConstant(p, -0.0);
  if (mlirValueIsNull(m->tile)) {
    for (int64_t o = 0; o < m->numOutputs; ++o) {
      MlirValue init = mlirValueIsNull(m->bias)
                           ? noBias
                           : coopvecOperandElement(p, m->bias, o);
      m->values[o] = dotProduct(l, &p->body, m, indexConstant(l, o), o, init);
    }
    return;
  }
  if (!mlirValueIsNull(m->bias))
    coopvecPrepareForLoop(p, m->bias);
  CoopvecLoop loop = coopvecElementLoop(p, m->numOutputs);
  MlirValue o = loop.inductionVar;
  MlirValue init = mlirValueIsNull(m->bias)
                       ? noBias
                       : coopvecOperandRow(p, &loop.body, m->bias, o);
  gpuStoreRow(p, &loop.body, m->tile, o,
              dotProduct(l, &loop.body, m, o, -1, init));
  coopvecFinishFor(&loop, 0, NULL);
}

//===----------------------------------------------------------------------===//
// The hook
//===----------------------------------------------------------------------===//

static Matvec matvecOf(GPULowering *l, MlirOperation op,
                       const CoopvecMatrixView *view) {
  bool transpose = !mlirAttributeIsNull(mlirOperationGetAttributeByName(
      op, mlirStringRefCreateFromCString("transpose")));
  int64_t rowStride, colStride;
  gpuMatrixStrides(view, &rowStride, &colStride);
  Matvec m = {.view = view, .op = op};
  m.input = mlirOperationGetOperand(op, 1);
  if (mlirOperationGetNumOperands(op) > 2)
    m.bias = mlirOperationGetOperand(op, 2);
  m.numOutputs = transpose ? view->cols : view->rows;
  m.numInputs = transpose ? view->rows : view->cols;
  m.outputStride = transpose ? colStride : rowStride;
  m.inputStride = transpose ? rowStride : colStride;
  intptr_t planned = coopvecPointerMapFind(&l->plan->schedules, op.ptr);
  m.schedule = planned > 0 ? (GPUSchedule)planned : GPUScheduleSIMT;
  m.wholeWeights = coopvecPointerMapFind(&l->plan->wholeWeights, op.ptr) >= 0;
  return m;
}

/// Where the result of `m` goes: its tile, or SSA values.
static void allocateResult(CoopvecPerThread *p, Matvec *m) {
  if (coopvecWantsTile(p, m->numOutputs))
    m->tile = coopvecTileFor(p, m->op, m->numOutputs, 0x4);
  else
    m->values = coopvecAllocValues(m->numOutputs);
  if (mlirValueIsNull(m->tile) && !m->values)
    abort(); // coopvecTileFor made no tile
}

static void mapResult(CoopvecPerThread *p, const Matvec *m, MlirValue result) {
  if (mlirValueIsNull(m->tile))
    coopvecMapElements(p, result, m->numOutputs, m->values);
  else
    coopvecMapTile(p, result, m->numOutputs, m->tile);
}

bool gpuLowerMatvec(CoopvecPerThread *p, MlirOperation op) {
  GPULowering *l = gpuOf(p);
  const CoopvecMatrixView *view =
      gpuCheckedView(p, op, mlirOperationGetOperand(op, 0));
  if (!view)
    return false;
  Matvec m = matvecOf(l, op, view);
  MlirValue result = mlirOperationGetResult(op, 0);
  if (coopvecPointerMapFind(&l->plan->fragmentValues, result.ptr) >= 0) {
    // A region's value: the fragment matvec maps it.
    setUpTensorCores(l, &m);
    gpuEmitFragmentMatvec(l, &m);
    return true;
  }
  allocateResult(p, &m);
  if (m.schedule == GPUScheduleSIMT)
    emitSIMTMatvec(l, &m);
  else
    emitTensorCoreMatvec(l, &m);
  mapResult(p, &m, result);
  free(m.values);
  return true;
}
