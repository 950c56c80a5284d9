//===- Libxsmm.c - The MLP on libxsmm's JIT small-GEMM kernels ------------===//
//
// libxsmm generates a GEMM kernel for each (M, N, K) at run time, specialized
// for the CPU (AVX2 here). The MLP runs over batch tiles as with OpenBLAS
// (Tiled.c): per layer and tile, one kernel call computes the column-major
// C[out x rows] = Wt[out x in] * H[in x rows], i.e. the row-major
// H_out[rows x out] = H_in W^T, with the weights transposed once at setup
// (libxsmm's JIT kernels take no transposed A). The kernels for a full
// tile are dispatched at setup, a last partial tile's when it comes.
//
//===----------------------------------------------------------------------===//

#include "Bench.h"

#include <stdio.h>
#include <stdlib.h>

#if defined(COOPVEC_BENCH_HAVE_LIBXSMM)

#include <libxsmm.h>

typedef struct XsmmState {
  const MlpWorkload *workload;
  int tile;
  float *transposed[MLP_MAX_LAYERS]; // in x out, row-major
  libxsmm_smmfunction kernels[MLP_MAX_LAYERS];
  TiledMlp *mlp;
} XsmmState;

static libxsmm_smmfunction dispatch(const MlpLayer *layer, int64_t rows) {
  libxsmm_blasint m = layer->outputs, n = (libxsmm_blasint)rows,
                  k = layer->inputs;
  float alpha = 1.0f, beta = 0.0f;
  int flags = LIBXSMM_GEMM_FLAGS('N', 'N');
  return libxsmm_smmdispatch(m, n, k, &m, &k, &m, &alpha, &beta, &flags, NULL);
}

static void xsmmLayer(void *context, int l, int64_t rows, const float *input,
                      float *output) {
  const XsmmState *state = context;
  libxsmm_smmfunction kernel =
      rows == state->tile ? state->kernels[l]
                          : dispatch(&state->workload->layers[l], rows);
  kernel(state->transposed[l], input, output);
}

static void xsmmDestroy(void *opaque) {
  XsmmState *state = opaque;
  if (!state)
    return;
  tiledMlpDestroy(state->mlp);
  for (int l = 0; l < MLP_MAX_LAYERS; ++l)
    free(state->transposed[l]);
  free(state);
}

/// Wt[i, o] = W[o, i] in f32.
static float *transposeLayer(const float *w32, const MlpLayer *layer) {
  float *transposed =
      malloc(sizeof(float) * (size_t)layer->inputs * layer->outputs);
  if (!transposed)
    return NULL;
  for (int o = 0; o < layer->outputs; ++o)
    for (int i = 0; i < layer->inputs; ++i)
      transposed[i * layer->outputs + o] =
          w32[layer->weightOffset + o * layer->inputs + i];
  return transposed;
}

static void *xsmmCreate(const MlpProblem *problem, int tile) {
  const MlpWorkload *workload = problem->workload;
  libxsmm_init();
  XsmmState *state = calloc(1, sizeof(*state));
  if (!state)
    return NULL;
  state->workload = workload;
  state->tile = tile;
  for (int l = 0; l < workload->numLayers; ++l) {
    const MlpLayer *layer = &workload->layers[l];
    state->kernels[l] = dispatch(layer, tile);
    state->transposed[l] = transposeLayer(problem->w32, layer);
    if (!state->kernels[l] || !state->transposed[l])
      return xsmmDestroy(state), NULL;
  }
  state->mlp = tiledMlpCreate(workload, tile, xsmmLayer, state);
  if (!state->mlp)
    return xsmmDestroy(state), NULL;
  return state;
}

static int xsmmRun(void *opaque, const MlpProblem *problem, int threads) {
  XsmmState *state = opaque;
  return tiledMlpRun(state->mlp, problem, threads);
}

const char *libxsmmDescription(void) {
  static char description[128];
  libxsmm_init();
  snprintf(description, sizeof(description), "libxsmm %s, code for %s",
           LIBXSMM_VERSION, libxsmm_get_target_arch());
  return description;
}

const Variant libxsmmVariant = {"libxsmm",   xsmmCreate, xsmmRun,
                                xsmmDestroy, 1,          NULL};

#else

const char *libxsmmDescription(void) { return NULL; }

const Variant libxsmmVariant = {
    "libxsmm", NULL, NULL,
    NULL,      1,    "built without libxsmm (pkg-config libxsmm not found)"};

#endif
