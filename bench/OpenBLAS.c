//===- OpenBLAS.c - The MLP with OpenBLAS sgemm ---------------------------===//
//
// Two ways to run the MLP on an f32 BLAS:
//   - `openblas`: how a framework without fusion runs it: per layer one
//     sgemm over the whole batch, H_out[batch x out] = H_in[batch x in] *
//     W^T, on OpenBLAS's own threads, then a separate bias + activation
//     pass on as many threads. Each hidden activation (batch x width
//     floats) is written to memory and read back twice.
//   - `openblas-tiled`: the MLP over tiles of the batch that stay in L2
//     (Tiled.c), one sgemm per layer and tile, OpenBLAS single-threaded
//     inside each of our threads.
// f16 workloads widen the inputs (and once, the weights) to f32 and round
// the outputs: OpenBLAS has no f16 GEMM.
//
//===----------------------------------------------------------------------===//

#include "Bench.h"

#include <stdio.h>
#include <stdlib.h>

#if defined(COOPVEC_BENCH_HAVE_OPENBLAS)

#include <cblas.h>

//===----------------------------------------------------------------------===//
// Layer by layer over the whole batch
//===----------------------------------------------------------------------===//

typedef struct Workspace {
  int64_t batch;
  float *activations[2]; // batch x width each, used in turn
} Workspace;

static void workspaceDestroy(void *state) {
  Workspace *workspace = state;
  if (!workspace)
    return;
  free(workspace->activations[0]);
  free(workspace->activations[1]);
  free(workspace);
}

static void *workspaceCreate(const MlpProblem *problem, int tile) {
  (void)tile;
  Workspace *workspace = calloc(1, sizeof(*workspace));
  if (!workspace)
    return NULL;
  workspace->batch = problem->batch;
  size_t bytes =
      (size_t)problem->batch * mlpMaxWidth(problem->workload) * sizeof(float);
  for (int i = 0; i < 2; ++i)
    if (!(workspace->activations[i] = malloc(bytes)))
      return workspaceDestroy(workspace), NULL;
  return workspace;
}

typedef struct Pass {
  const MlpProblem *problem;
  float *values; // batch x width
  const float *bias;
  int width, activate;
  const float *from; // f32 outputs to round into y (the f16 output pass)
} Pass;

static void biasChunk(void *context, int thread, int64_t begin, int64_t end) {
  (void)thread;
  const Pass *pass = context;
  biasActivation(pass->values + begin * pass->width, end - begin, pass->width,
                 pass->bias, pass->activate,
                 pass->problem->workload->activation);
}

static void widenChunk(void *context, int thread, int64_t begin, int64_t end) {
  (void)thread;
  const Pass *pass = context;
  widenHalves((const uint16_t *)pass->problem->x + begin * pass->width,
              pass->values + begin * pass->width, (end - begin) * pass->width);
}

static void narrowChunk(void *context, int thread, int64_t begin, int64_t end) {
  (void)thread;
  const Pass *pass = context;
  narrowFloats(pass->from + begin * pass->width,
               (uint16_t *)pass->problem->y + begin * pass->width,
               (end - begin) * pass->width);
}

static int runLayer(const MlpProblem *problem, int l, const float *input,
                    float *output, int threads) {
  const MlpWorkload *workload = problem->workload;
  const MlpLayer *layer = &workload->layers[l];
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, (blasint)problem->batch,
              layer->outputs, layer->inputs, 1.0f, input, layer->inputs,
              problem->w32 + layer->weightOffset, layer->inputs, 0.0f, output,
              layer->outputs);
  Pass pass = {problem,
               output,
               problem->w32 + layer->biasOffset,
               layer->outputs,
               l < workload->numLayers - 1,
               NULL};
  return runParallel(threads, problem->batch, biasChunk, &pass);
}

static int layersRun(void *state, const MlpProblem *problem, int threads) {
  Workspace *workspace = state;
  const MlpWorkload *workload = problem->workload;
  int half = workload->storage == MLP_F16;
  if (problem->batch > workspace->batch) {
    fprintf(stderr, "mlp-cpu: OpenBLAS workspace too small\n");
    return -1;
  }
  openblas_set_num_threads(threads);
  const float *input = problem->x;
  Pass widen = {
      problem, workspace->activations[1], NULL, mlpInputs(workload), 0, NULL};
  if (half && runParallel(threads, problem->batch, widenChunk, &widen))
    return -1;
  if (half)
    input = workspace->activations[1];
  for (int l = 0; l < workload->numLayers; ++l) {
    int last = l == workload->numLayers - 1;
    float *output = last && !half ? problem->y : workspace->activations[l % 2];
    if (runLayer(problem, l, input, output, threads))
      return -1;
    input = output;
  }
  Pass narrow = {problem, NULL, NULL, mlpOutputs(workload), 0, input};
  return half ? runParallel(threads, problem->batch, narrowChunk, &narrow) : 0;
}

//===----------------------------------------------------------------------===//
// Tiled
//===----------------------------------------------------------------------===//

typedef struct TiledState {
  const MlpWorkload *workload;
  const float *w32;
  TiledMlp *mlp;
} TiledState;

static void sgemmLayer(void *context, int l, int64_t rows, const float *input,
                       float *output) {
  const TiledState *state = context;
  const MlpLayer *layer = &state->workload->layers[l];
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, (blasint)rows,
              layer->outputs, layer->inputs, 1.0f, input, layer->inputs,
              state->w32 + layer->weightOffset, layer->inputs, 0.0f, output,
              layer->outputs);
}

static void tiledDestroy(void *opaque) {
  TiledState *state = opaque;
  if (state)
    tiledMlpDestroy(state->mlp);
  free(state);
}

static void *tiledCreate(const MlpProblem *problem, int tile) {
  TiledState *state = calloc(1, sizeof(*state));
  if (!state)
    return NULL;
  state->workload = problem->workload;
  state->w32 = problem->w32;
  state->mlp = tiledMlpCreate(problem->workload, tile, sgemmLayer, state);
  if (!state->mlp)
    return tiledDestroy(state), NULL;
  return state;
}

static int tiledRun(void *opaque, const MlpProblem *problem, int threads) {
  TiledState *state = opaque;
  // Our threads call OpenBLAS concurrently; it must not start its own.
  openblas_set_num_threads(1);
  return tiledMlpRun(state->mlp, problem, threads);
}

const char *openblasDescription(void) {
  static char description[256];
  const char *timeout = getenv("OPENBLAS_THREAD_TIMEOUT");
  snprintf(description, sizeof(description),
           "%s; kernels: %s; OPENBLAS_THREAD_TIMEOUT=%s", openblas_get_config(),
           openblas_get_corename(), timeout ? timeout : "(unset)");
  return description;
}

const Variant openblasVariant = {
    "openblas", workspaceCreate, layersRun, workspaceDestroy, 0, NULL};
const Variant openblasTiledVariant = {"openblas-tiled", tiledCreate, tiledRun,
                                      tiledDestroy,     1,           NULL};

#else

const char *openblasDescription(void) { return NULL; }

static const char missingOpenBLAS[] =
    "built without OpenBLAS (pkg-config openblas not found)";
const Variant openblasVariant = {"openblas", NULL, NULL,
                                 NULL,       0,    missingOpenBLAS};
const Variant openblasTiledVariant = {"openblas-tiled", NULL, NULL, NULL, 1,
                                      missingOpenBLAS};

#endif
