//===- GPUEmulatedMMA.c - Tile products without tensor cores --------------===//
//
// convert-coopvec-to-gpu{emulate-mma=true}: the tensor-core schedule of
// GPUMatvec.c and GPUBlockTraining.c runs unchanged (the rows staged and
// skewed, the weight slices copied, the barriers, the result tiles read
// back, the zero signs, the masking of threads past the batch), and only
// its 16 x 16 tile product, `gpu.subgroup_mma_*` on tensor cores, is
// ordinary arithmetic: the T threads of the tile group
// (GPUConfig.tileThreads) each compute 256 / T adjacent results of the
// tile,
//
//   e = (thread - tileRow) * 256 / T,  r = e / 16,  c = e % 16
//   Y[outputRow + r, c + i] = sum_k A(r, k) B^T(c + i, k)
//                             for i < 256 / T, from -0.0,
//
// reading the staged operands (GPUTileOperand) and writing Y where the
// tensor cores would. The training ops' f32 tiles, which tensor cores do
// not multiply exactly, run this way on every device.
// The semantics are the tensor cores' (docs/execution-model.md): f16
// products are exact in f32 and summed in f32, here by FMAs in k order
// (the hardware's order is unspecified); a tf32 product is of the f32
// values unrounded, within the tf32 tolerance. So a device without tensor
// cores or cooperative matrices (lavapipe, in CI) runs and checks the
// schedule's indexing, staging, barriers and partial tiles.
//
//===----------------------------------------------------------------------===//

#include "Conversion/CoopvecToGPU/GPU.h"

enum { TILE_ELEMENTS = GPU_MMA_TILE * GPU_MMA_TILE };

/// The products of one k: sums[i] += A(r, k) B^T(c + i, k), where `aAt`
/// and `bAt` are the elements of A(r, 0) and B^T(c, 0).
static void accumulateStep(GPULowering *l, CoopvecBuilder *b,
                           const GPUTileProduct *product, MlirValue aAt,
                           MlirValue bAt, MlirValue k, int64_t count,
                           MlirValue *sums) {
  const GPUTileOperand *A = &product->a, *B = &product->b;
  MlirValue x = coopvecWidenToF32(
      b, coopvecBuildMemrefLoad(
             b, A->buffer,
             coopvecBuildBinaryOp(b, "arith.addi", aAt,
                                  gpuMulIndex(l, b, k, A->kStride))));
  MlirValue at = coopvecBuildBinaryOp(b, "arith.addi", bAt,
                                      gpuMulIndex(l, b, k, B->kStride));
  for (int64_t i = 0; i < count; ++i) {
    MlirValue w = coopvecBuildMemrefLoad(b, B->buffer,
                                         gpuAddIndex(l, b, at, i * B->stride));
    sums[i] = gpuBuildAccumulate(b, w, x, sums[i]);
  }
}

void gpuEmulateTileProduct(GPULowering *l, const GPUTileProduct *product) {
  CoopvecBuilder *b = &l->p.body;
  int64_t count = TILE_ELEMENTS / l->config->tileThreads;
  MlirValue inGroup =
      coopvecBuildBinaryOp(b, "arith.subi", l->threadInBlock, l->tileRow);
  MlirValue first = gpuMulIndex(l, b, inGroup, count);
  MlirValue tile = coopvecPerThreadIndex(&l->p, GPU_MMA_TILE);
  MlirValue row = coopvecBuildBinaryOp(b, "arith.divui", first, tile);
  MlirValue column = coopvecBuildBinaryOp(b, "arith.remui", first, tile);
  MlirValue sums[TILE_ELEMENTS];
  for (int64_t i = 0; i < count; ++i)
    sums[i] = coopvecPerThreadConstant(&l->p, -0.0);
  MlirValue aAt = gpuOffsetIndex(b, product->a.start,
                                 gpuMulIndex(l, b, row, product->a.stride));
  MlirValue bAt = gpuOffsetIndex(b, product->b.start,
                                 gpuMulIndex(l, b, column, product->b.stride));
  CoopvecLoop loop =
      coopvecBuildFor(b, coopvecPerThreadIndex(&l->p, 0),
                      coopvecPerThreadIndex(&l->p, product->k),
                      coopvecPerThreadIndex(&l->p, 1), count, sums);
  for (int64_t i = 0; i < count; ++i)
    sums[i] = coopvecLoopIterArg(&loop, i);
  accumulateStep(l, &loop.body, product, aAt, bAt, loop.inductionVar, count,
                 sums);
  coopvecFinishFor(&loop, count, sums);
  MlirValue outRow =
      coopvecBuildBinaryOp(b, "arith.addi", product->outputRow, row);
  MlirValue outAt = coopvecBuildBinaryOp(
      b, "arith.addi",
      gpuMulIndex(l, b, outRow, gpuOutputRowStride(&l->plan->staging)), column);
  for (int64_t i = 0; i < count; ++i)
    coopvecBuildMemrefStore(b, mlirOperationGetResult(loop.op, i), l->output,
                            gpuAddIndex(l, b, outAt, i));
}
