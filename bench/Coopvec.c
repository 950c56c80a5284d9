//===- Coopvec.c - The fused MLPs compiled by coopvec-opt -----------------===//
//
// The objects are built from the workloads' .mlir files by
//   coopvec-opt --pass-pipeline='builtin.module(coopvec-lower-to-cpu)'
//               --emit=obj
// (bench/CMakeLists.txt). Each entry point evaluates a per-thread function
// over a batch; the memref arguments use MLIR's C interface (rank-1
// descriptors by pointer). The batch is split into one contiguous chunk per
// thread, one call per chunk.
//
//===----------------------------------------------------------------------===//

#include "Bench.h"

#include <stddef.h>

static MemRef1D memrefOf(void *data, int64_t size) {
  return (MemRef1D){data, data, 0, {size}, {1}};
}

static void coopvecChunk(void *context, int thread, int64_t begin,
                         int64_t end) {
  (void)thread;
  const MlpProblem *problem = context;
  const MlpWorkload *workload = problem->workload;
  int64_t count = end - begin;
  if (count == 0)
    return;
  int bytes = mlpElementBytes(workload);
  int inputs = mlpInputs(workload), outputs = mlpOutputs(workload);
  // The callee only reads x and w; const is cast away because a memref
  // descriptor has no const variant.
  MemRef1D x =
      memrefOf((char *)problem->x + begin * inputs * bytes, count * inputs);
  MemRef1D w = memrefOf((void *)problem->w, workload->numWeights);
  MemRef1D y =
      memrefOf((char *)problem->y + begin * outputs * bytes, count * outputs);
  (problem->avx2 ? workload->coopvecAvx2 : workload->coopvec)(count, &x, &w,
                                                              &y);
}

static void *coopvecCreate(const MlpProblem *problem, int tile) {
  (void)problem, (void)tile;
  return (void *)1; // stateless
}

static int coopvecRun(void *state, const MlpProblem *problem, int threads) {
  (void)state;
  return runParallel(threads, problem->batch, coopvecChunk, (void *)problem);
}

static void coopvecDestroy(void *state) { (void)state; }

const Variant coopvecVariant = {
    "coopvec", coopvecCreate, coopvecRun, coopvecDestroy, 0, NULL};
