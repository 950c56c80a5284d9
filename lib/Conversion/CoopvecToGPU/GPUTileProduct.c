//===- GPUTileProduct.c - 16 x 16 tile products in workgroup memory -------===//
//
// The tile product both tensor-core schedules share: a matvec's X W^T
// (GPUMatvec.c: A = the staged input rows, B^T = the staged weight rows,
// both with k along the row) and the training ops' dY^T X
// (GPUBlockTraining.c: A^T and B = the block's staged rows, k = the row).
// On tensor cores an operand whose k is not contiguous is loaded with
// `transpose` (column-major for A, row-major for B), which NVVM's
// wmma.load and SPIR-V's cooperative-matrix load take as a layout, so no
// operand is copied to be transposed.
//
//===----------------------------------------------------------------------===//

#include "Conversion/CoopvecToGPU/GPU.h"

#include <mlir-c/BuiltinTypes.h>

GPUFragments gpuFragments(GPULowering *l, GPUSchedule schedule, MlirType stage,
                          CoopvecBuilder *b) {
  MlirContext ctx = l->p.ctx;
  GPUFragments f = {.kStep = gpuMMAKStep(schedule)};
  f.a = coopvecMMAMatrixType(ctx, GPU_MMA_TILE, f.kStep, stage, "AOp");
  f.b = coopvecMMAMatrixType(ctx, f.kStep, GPU_MMA_TILE, stage, "BOp");
  f.c = coopvecMMAMatrixType(ctx, GPU_MMA_TILE, GPU_MMA_TILE, l->p.f32, "COp");
  f.zero =
      coopvecBuildMMAConstant(b, f.c, coopvecPerThreadConstant(&l->p, -0.0));
  return f;
}

MlirValue gpuOffsetIndex(CoopvecBuilder *b, MlirValue start, MlirValue x) {
  return mlirValueIsNull(start)
             ? x
             : coopvecBuildBinaryOp(b, "arith.addi", start, x);
}

void gpuSyncTileGroup(GPULowering *l) {
  if (l->config->tileThreads == l->config->subgroupSize)
    coopvecBuildSubgroupBarrier(&l->p.body);
  else
    coopvecBuildBarrier(&l->p.body);
}

/// The fragment of `operand` for k-step `step` at `b`: A (16 x k) reads
/// row-major when k is contiguous, B (k x 16) column-major then.
static MlirValue loadFragment(GPULowering *l, CoopvecBuilder *b, MlirType type,
                              const GPUTileOperand *operand, MlirValue step,
                              int64_t kStep, bool isB, bool *transposed) {
  bool kContiguous = operand->kStride == 1;
  *transposed = isB ? kContiguous : !kContiguous;
  MlirValue at = gpuOffsetIndex(
      b, operand->start, gpuMulIndex(l, b, step, kStep * operand->kStride));
  int64_t lead = kContiguous ? operand->stride : operand->kStride;
  return coopvecBuildMMALoad(b, type, operand->buffer, at, lead, *transposed);
}

/// Y = sum over the k-steps of A B from -0.0 on tensor cores.
static void multiplyOnTensorCores(GPULowering *l, GPUSchedule schedule,
                                  const GPUTileProduct *product) {
  CoopvecBuilder *b = &l->p.body;
  MlirType stage =
      mlirShapedTypeGetElementType(mlirValueGetType(product->a.buffer));
  GPUFragments f = gpuFragments(l, schedule, stage, b);
  CoopvecLoop loop =
      coopvecBuildFor(b, coopvecPerThreadIndex(&l->p, 0),
                      coopvecPerThreadIndex(&l->p, product->k / f.kStep),
                      coopvecPerThreadIndex(&l->p, 1), 1, &f.zero);
  CoopvecBuilder *in = &loop.body;
  bool aTransposed, bTransposed;
  MlirValue a = loadFragment(l, in, f.a, &product->a, loop.inductionVar,
                             f.kStep, false, &aTransposed);
  MlirValue x = loadFragment(l, in, f.b, &product->b, loop.inductionVar,
                             f.kStep, true, &bTransposed);
  MlirValue sum = coopvecBuildMMACompute(in, a, x, coopvecLoopIterArg(&loop, 0),
                                         aTransposed, bTransposed);
  coopvecFinishFor(&loop, 1, &sum);
  int64_t outStride = gpuOutputRowStride(&l->plan->staging);
  coopvecBuildMMAStore(b, mlirOperationGetResult(loop.op, 0), l->output,
                       gpuMulIndex(l, b, product->outputRow, outStride),
                       outStride);
}

void gpuMultiplyTile(GPULowering *l, GPUSchedule schedule,
                     const GPUTileProduct *product) {
  if (l->config->emulateMMA || schedule == GPUScheduleSIMT)
    gpuEmulateTileProduct(l, product);
  else
    multiplyOnTensorCores(l, schedule, product);
}
