//===- Tiled.c - The MLP layer by layer over cache-sized batch tiles ------===//
//
// What a careful user writes on top of a GEMM library: each thread takes a
// contiguous chunk of the batch and runs the whole MLP on one tile of
// samples at a time, so that the activations (tile x width floats, twice)
// stay in the core's L2 instead of going to memory between layers. Per
// layer: H_out = H_in W^T (the library's GEMM), then one vectorized bias +
// activation pass over H_out while it is in cache.
//
//===----------------------------------------------------------------------===//

#include "Bench.h"

#include <stdlib.h>

struct TiledMlp {
  const MlpWorkload *workload;
  int tile;
  TiledGemm gemm;
  void *context;
  /// Per thread, two tile x width activation buffers used in turn.
  float *buffers[MLP_MAX_THREADS][2];
  const MlpProblem *problem; // of the running call
};

TiledMlp *tiledMlpCreate(const MlpWorkload *workload, int tile, TiledGemm gemm,
                         void *context) {
  TiledMlp *mlp = calloc(1, sizeof(*mlp));
  if (!mlp || tile < 1)
    return free(mlp), NULL;
  mlp->workload = workload;
  mlp->tile = tile;
  mlp->gemm = gemm;
  mlp->context = context;
  return mlp;
}

void tiledMlpDestroy(TiledMlp *mlp) {
  if (!mlp)
    return;
  for (int t = 0; t < MLP_MAX_THREADS; ++t)
    for (int i = 0; i < 2; ++i)
      free(mlp->buffers[t][i]);
  free(mlp);
}

/// Buffers for `threads` threads (kept across calls: the first, untimed
/// warm-up call allocates them).
static int allocateBuffers(TiledMlp *mlp, int threads) {
  size_t bytes = (size_t)mlp->tile * mlpMaxWidth(mlp->workload) * sizeof(float);
  bytes = (bytes + 63) / 64 * 64;
  for (int t = 0; t < threads && t < MLP_MAX_THREADS; ++t)
    for (int i = 0; i < 2; ++i)
      if (!mlp->buffers[t][i] &&
          !(mlp->buffers[t][i] = aligned_alloc(64, bytes)))
        return -1;
  return 0;
}

/// The MLP on rows [start, start + rows) of the batch.
static void runTile(TiledMlp *mlp, float *const buffers[2], int64_t start,
                    int64_t rows) {
  const MlpWorkload *workload = mlp->workload;
  const MlpProblem *problem = mlp->problem;
  int inputs = mlpInputs(workload), outputs = mlpOutputs(workload);
  int half = workload->storage == MLP_F16;
  const float *input = (const float *)problem->x + start * inputs;
  if (half) {
    widenHalves((const uint16_t *)problem->x + start * inputs, buffers[1],
                rows * inputs);
    input = buffers[1];
  }
  float *output = buffers[0];
  for (int l = 0; l < workload->numLayers; ++l) {
    const MlpLayer *layer = &workload->layers[l];
    int last = l == workload->numLayers - 1;
    output =
        last && !half ? (float *)problem->y + start * outputs : buffers[l % 2];
    mlp->gemm(mlp->context, l, rows, input, output);
    biasActivation(output, rows, layer->outputs,
                   problem->w32 + layer->biasOffset, !last,
                   workload->activation);
    input = output;
  }
  if (half)
    narrowFloats(output, (uint16_t *)problem->y + start * outputs,
                 rows * outputs);
}

static void tiledChunk(void *context, int thread, int64_t begin, int64_t end) {
  TiledMlp *mlp = context;
  for (int64_t start = begin; start < end; start += mlp->tile) {
    int64_t rows = end - start < mlp->tile ? end - start : mlp->tile;
    runTile(mlp, mlp->buffers[thread], start, rows);
  }
}

int tiledMlpRun(TiledMlp *mlp, const MlpProblem *problem, int threads) {
  if (allocateBuffers(mlp, threads))
    return -1;
  mlp->problem = problem;
  return runParallel(threads, problem->batch, tiledChunk, mlp);
}
