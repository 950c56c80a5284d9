//===- Coopvec.c - The fused MLP compiled by coopvec-opt ------------------===//
//
// mlp_coopvec.o is built from examples/mlp.mlir by
//   coopvec-opt --pass-pipeline='builtin.module(coopvec-lower-to-cpu)'
//               --emit=obj
// Its entry point evaluates the per-thread function @mlp over a batch; the
// memref arguments use MLIR's C interface (rank-1 descriptors by pointer).
//
//===----------------------------------------------------------------------===//

#include "Bench.h"

typedef struct MemRef1D {
  float *allocated, *aligned;
  int64_t offset, sizes[1], strides[1];
} MemRef1D;

void _mlir_ciface_mlp_batched(int64_t n, MemRef1D *x, MemRef1D *w, MemRef1D *y);

static MemRef1D memrefOf(float *data, int64_t size) {
  return (MemRef1D){data, data, 0, {size}, {1}};
}

static void coopvecChunk(void *context, int64_t begin, int64_t end) {
  const MlpProblem *problem = context;
  int64_t count = end - begin;
  if (count == 0)
    return;
  // The callee only reads x and w; const is cast away because a memref
  // descriptor has no const variant.
  MemRef1D x =
      memrefOf((float *)problem->x + begin * MLP_INPUTS, count * MLP_INPUTS);
  MemRef1D w = memrefOf((float *)problem->w, MLP_NUM_WEIGHTS);
  MemRef1D y = memrefOf(problem->y + begin * MLP_OUTPUTS, count * MLP_OUTPUTS);
  _mlir_ciface_mlp_batched(count, &x, &w, &y);
}

int runCoopvec(const MlpProblem *problem, int threads) {
  return runParallel(threads, problem->batch, coopvecChunk, (void *)problem);
}
