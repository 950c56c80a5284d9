//===- OneDNN.c - The MLP on oneDNN matmul primitives ---------------------===//
//
// How a user of oneDNN runs the MLP on a CPU: one matmul primitive per layer,
// dst[rows x out] = src[rows x in] * weights[in x out] + bias, with the
// activation as an eltwise post-op (ReLU or tanh: computed while the
// results are in registers), over tiles of the batch so that the
// activations stay in cache. Each of our threads takes a contiguous chunk
// with its own stream and buffers and keeps oneDNN's OpenMP to one thread
// (primitives may execute concurrently on different memory, but the
// library's default scratchpad is one global buffer: each primitive is
// created with a user scratchpad and each thread passes its own). The weights
// are the buffer's row-major W viewed as the in x out matrix in `ba`
// layout, so nothing is repacked; a last partial tile uses primitives
// created with a run-time row count. oneDNN 2.x has f16 matmuls only on
// AVX512-FP16 CPUs, so f16 workloads run in f32 (inputs widened per tile,
// outputs rounded, weights widened once).
//
//===----------------------------------------------------------------------===//

#include "Bench.h"

#include <stdio.h>
#include <stdlib.h>

#if defined(COOPVEC_BENCH_HAVE_ONEDNN)

#include <dnnl.h>
#include <omp.h>

enum { FULL_TILE, PARTIAL_TILE }; // the two primitives of a layer

typedef struct Layer {
  /// [FULL_TILE]: rows = tile; [PARTIAL_TILE]: rows known at run time.
  dnnl_primitive_t primitives[2];
  dnnl_memory_desc_t scratchpads[2]; // what each primitive asks for
  dnnl_memory_t weights, bias;
  dnnl_memory_desc_t src, dst; // of a full tile
} Layer;

typedef struct Thread {
  dnnl_stream_t stream;
  float *buffers[2]; // tile x width, used in turn
  /// Per layer, src and dst of a full tile: their data handles are set per
  /// tile (creating memory objects per execution costs microseconds).
  dnnl_memory_t src[MLP_MAX_LAYERS], dst[MLP_MAX_LAYERS];
  /// Per layer and primitive, the thread's scratchpad.
  dnnl_memory_t scratchpads[MLP_MAX_LAYERS][2];
} Thread;

typedef struct State {
  const MlpProblem *problem; // the weights it was created with
  int tile;
  dnnl_engine_t engine;
  Layer layers[MLP_MAX_LAYERS];
  Thread threads[MLP_MAX_THREADS];
  const MlpProblem *running; // of the call in progress
  int failed;
} State;

static int check(dnnl_status_t status, const char *what) {
  if (status == dnnl_success)
    return 0;
  fprintf(stderr, "mlp-cpu: oneDNN: %s failed (status %d)\n", what,
          (int)status);
  return -1;
}

static void rowsMd(dnnl_memory_desc_t *md, int64_t rows, int cols) {
  dnnl_dims_t dims = {rows, cols};
  dnnl_memory_desc_init_by_tag(md, 2, dims, dnnl_f32, dnnl_ab);
}

/// The matmul of layer `l` for `rows` rows (DNNL_RUNTIME_DIM_VAL: any) as
/// primitive `which` of the layer.
static int createPrimitive(State *state, int l, int64_t rows, int which) {
  Layer *out = &state->layers[l];
  const MlpWorkload *workload = state->problem->workload;
  const MlpLayer *layer = &workload->layers[l];
  dnnl_memory_desc_t src, weights, bias, dst;
  dnnl_dims_t weightDims = {layer->inputs, layer->outputs};
  dnnl_dims_t biasDims = {1, layer->outputs};
  rowsMd(&src, rows, layer->inputs);
  rowsMd(&dst, rows, layer->outputs);
  dnnl_memory_desc_init_by_tag(&weights, 2, weightDims, dnnl_f32, dnnl_ba);
  dnnl_memory_desc_init_by_tag(&bias, 2, biasDims, dnnl_f32, dnnl_ab);
  dnnl_matmul_desc_t desc;
  dnnl_post_ops_t postOps;
  dnnl_primitive_attr_t attr;
  dnnl_primitive_desc_t pd;
  if (check(dnnl_matmul_desc_init(&desc, &src, &weights, &bias, &dst),
            "matmul_desc_init") ||
      check(dnnl_post_ops_create(&postOps), "post_ops_create"))
    return -1;
  dnnl_alg_kind_t alg =
      workload->activation == MLP_RELU ? dnnl_eltwise_relu : dnnl_eltwise_tanh;
  int status = 0;
  if (l < workload->numLayers - 1)
    status = check(dnnl_post_ops_append_eltwise(postOps, 1.0f, alg, 0.0f, 0.0f),
                   "post_ops_append_eltwise");
  if (!status && !(status = check(dnnl_primitive_attr_create(&attr),
                                  "primitive_attr_create"))) {
    status =
        check(dnnl_primitive_attr_set_post_ops(attr, postOps),
              "attr_set_post_ops") ||
        check(dnnl_primitive_attr_set_scratchpad_mode(
                  attr, dnnl_scratchpad_mode_user),
              "attr_set_scratchpad_mode") ||
        check(dnnl_primitive_desc_create(&pd, &desc, attr, state->engine, NULL),
              "primitive_desc_create (matmul)");
    dnnl_primitive_attr_destroy(attr);
    if (!status) {
      out->scratchpads[which] =
          *dnnl_primitive_desc_query_md(pd, dnnl_query_scratchpad_md, 0);
      status = check(dnnl_primitive_create(&out->primitives[which], pd),
                     "primitive_create");
      dnnl_primitive_desc_destroy(pd);
    }
  }
  dnnl_post_ops_destroy(postOps);
  return status;
}

/// Memory objects of the layer's weights and bias over the f32 weights.
static int createLayer(State *state, int l) {
  const MlpLayer *layer = &state->problem->workload->layers[l];
  Layer *out = &state->layers[l];
  dnnl_memory_desc_t weights, bias;
  dnnl_dims_t weightDims = {layer->inputs, layer->outputs};
  dnnl_dims_t biasDims = {1, layer->outputs};
  dnnl_memory_desc_init_by_tag(&weights, 2, weightDims, dnnl_f32, dnnl_ba);
  dnnl_memory_desc_init_by_tag(&bias, 2, biasDims, dnnl_f32, dnnl_ab);
  rowsMd(&out->src, state->tile, layer->inputs);
  rowsMd(&out->dst, state->tile, layer->outputs);
  float *w32 = (float *)state->problem->w32;
  return check(dnnl_memory_create(&out->weights, &weights, state->engine,
                                  w32 + layer->weightOffset),
               "memory_create (weights)") ||
         check(dnnl_memory_create(&out->bias, &bias, state->engine,
                                  w32 + layer->biasOffset),
               "memory_create (bias)") ||
         createPrimitive(state, l, state->tile, FULL_TILE) ||
         createPrimitive(state, l, DNNL_RUNTIME_DIM_VAL, PARTIAL_TILE);
}

static void onednnDestroy(void *opaque) {
  State *state = opaque;
  if (!state)
    return;
  for (int l = 0; l < MLP_MAX_LAYERS; ++l) {
    Layer *layer = &state->layers[l];
    for (int p = 0; p < 2; ++p)
      if (layer->primitives[p])
        dnnl_primitive_destroy(layer->primitives[p]);
    if (layer->weights)
      dnnl_memory_destroy(layer->weights);
    if (layer->bias)
      dnnl_memory_destroy(layer->bias);
  }
  for (int t = 0; t < MLP_MAX_THREADS; ++t) {
    for (int l = 0; l < MLP_MAX_LAYERS; ++l) {
      if (state->threads[t].src[l])
        dnnl_memory_destroy(state->threads[t].src[l]);
      if (state->threads[t].dst[l])
        dnnl_memory_destroy(state->threads[t].dst[l]);
      for (int p = 0; p < 2; ++p)
        if (state->threads[t].scratchpads[l][p])
          dnnl_memory_destroy(state->threads[t].scratchpads[l][p]);
    }
    if (state->threads[t].stream)
      dnnl_stream_destroy(state->threads[t].stream);
    free(state->threads[t].buffers[0]);
    free(state->threads[t].buffers[1]);
  }
  if (state->engine)
    dnnl_engine_destroy(state->engine);
  free(state);
}

static void *onednnCreate(const MlpProblem *problem, int tile) {
  State *state = calloc(1, sizeof(*state));
  if (!state)
    return NULL;
  state->problem = problem;
  state->tile = tile;
  // Primitives fix their thread count when they are created (the AVX2
  // gemm:jit matmul does): created for OpenMP's default team, they ran
  // that team from each of our threads, idle workers spinning in libgomp.
  omp_set_num_threads(1);
  int failed =
      check(dnnl_engine_create(&state->engine, dnnl_cpu, 0), "engine_create");
  for (int l = 0; !failed && l < problem->workload->numLayers; ++l)
    failed = createLayer(state, l);
  if (failed)
    return onednnDestroy(state), NULL;
  return state;
}

/// Memory objects over `src` and `dst` for `rows` rows of layer `l`: the
/// thread's own for a full tile, new ones (`*owned`) otherwise.
static int bindMemory(State *state, Thread *thread, int l, int64_t rows,
                      const float *src, float *dst, dnnl_memory_t memory[2],
                      int *owned) {
  *owned = rows != state->tile;
  if (!*owned) {
    memory[0] = thread->src[l];
    memory[1] = thread->dst[l];
    return check(dnnl_memory_set_data_handle(memory[0], (void *)src),
                 "memory_set_data_handle") ||
           check(dnnl_memory_set_data_handle(memory[1], dst),
                 "memory_set_data_handle");
  }
  const MlpLayer *shape = &state->problem->workload->layers[l];
  dnnl_memory_desc_t srcMd, dstMd;
  rowsMd(&srcMd, rows, shape->inputs);
  rowsMd(&dstMd, rows, shape->outputs);
  if (check(dnnl_memory_create(&memory[0], &srcMd, state->engine, (void *)src),
            "memory_create (src)"))
    return -1;
  if (check(dnnl_memory_create(&memory[1], &dstMd, state->engine, dst),
            "memory_create (dst)"))
    return dnnl_memory_destroy(memory[0]), -1;
  return 0;
}

/// Runs layer `l` on `rows` rows: src -> dst.
static int runLayer(State *state, Thread *thread, int l, int64_t rows,
                    const float *src, float *dst) {
  Layer *layer = &state->layers[l];
  dnnl_memory_t memory[2];
  int owned;
  if (bindMemory(state, thread, l, rows, src, dst, memory, &owned))
    return -1;
  int which = owned ? PARTIAL_TILE : FULL_TILE;
  dnnl_exec_arg_t args[] = {
      {DNNL_ARG_SRC, memory[0]},
      {DNNL_ARG_WEIGHTS, layer->weights},
      {DNNL_ARG_BIAS, layer->bias},
      {DNNL_ARG_DST, memory[1]},
      {DNNL_ARG_SCRATCHPAD, thread->scratchpads[l][which]}};
  int status = check(
      dnnl_primitive_execute(layer->primitives[which], thread->stream, 5, args),
      "primitive_execute");
  if (owned) {
    dnnl_memory_destroy(memory[0]);
    dnnl_memory_destroy(memory[1]);
  }
  return status;
}

/// The MLP on rows [start, start + rows) of the batch.
static int runTile(State *state, Thread *thread, int64_t start, int64_t rows) {
  const MlpProblem *problem = state->running;
  const MlpWorkload *workload = problem->workload;
  int inputs = mlpInputs(workload), outputs = mlpOutputs(workload);
  int half = workload->storage == MLP_F16;
  const float *input = (const float *)problem->x + start * inputs;
  if (half) {
    widenHalves((const uint16_t *)problem->x + start * inputs,
                thread->buffers[1], rows * inputs);
    input = thread->buffers[1];
  }
  float *output = thread->buffers[0];
  for (int l = 0; l < workload->numLayers; ++l) {
    int last = l == workload->numLayers - 1;
    output = last && !half ? (float *)problem->y + start * outputs
                           : thread->buffers[l % 2];
    if (runLayer(state, thread, l, rows, input, output))
      return -1;
    input = output;
  }
  if (half)
    narrowFloats(output, (uint16_t *)problem->y + start * outputs,
                 rows * outputs);
  return 0;
}

static void onednnChunk(void *context, int index, int64_t begin, int64_t end) {
  State *state = context;
  // OpenMP's thread count is per thread: ours run one chunk each.
  omp_set_num_threads(1);
  for (int64_t start = begin; start < end; start += state->tile) {
    int64_t rows = end - start < state->tile ? end - start : state->tile;
    if (runTile(state, &state->threads[index], start, rows))
      state->failed = 1;
  }
  dnnl_stream_wait(state->threads[index].stream);
}

/// Thread memory objects of layer `l`: src and dst of a full tile (data
/// handles set per tile) and its own scratchpads.
static int createThreadMemory(State *state, Thread *thread, int l) {
  Layer *layer = &state->layers[l];
  if (check(dnnl_memory_create(&thread->src[l], &layer->src, state->engine,
                               DNNL_MEMORY_NONE),
            "memory_create (src)") ||
      check(dnnl_memory_create(&thread->dst[l], &layer->dst, state->engine,
                               DNNL_MEMORY_NONE),
            "memory_create (dst)"))
    return -1;
  for (int p = 0; p < 2; ++p)
    if (check(dnnl_memory_create(&thread->scratchpads[l][p],
                                 &layer->scratchpads[p], state->engine,
                                 DNNL_MEMORY_ALLOCATE),
              "memory_create (scratchpad)"))
      return -1;
  return 0;
}

/// Streams and buffers for `threads` threads, kept across calls (the
/// untimed warm-up call creates them).
static int prepareThreads(State *state, int threads) {
  size_t bytes = (size_t)state->tile * mlpMaxWidth(state->problem->workload) *
                 sizeof(float);
  bytes = (bytes + 63) / 64 * 64;
  for (int t = 0; t < threads && t < MLP_MAX_THREADS; ++t) {
    Thread *thread = &state->threads[t];
    if (!thread->stream &&
        check(dnnl_stream_create(&thread->stream, state->engine,
                                 dnnl_stream_default_flags),
              "stream_create"))
      return -1;
    for (int i = 0; i < 2; ++i)
      if (!thread->buffers[i] &&
          !(thread->buffers[i] = aligned_alloc(64, bytes)))
        return -1;
    for (int l = 0; l < state->problem->workload->numLayers; ++l)
      if (!thread->src[l] && createThreadMemory(state, thread, l))
        return -1;
  }
  return 0;
}

static int onednnRun(void *opaque, const MlpProblem *problem, int threads) {
  State *state = opaque;
  if (problem->w32 != state->problem->w32 || prepareThreads(state, threads))
    return -1;
  state->running = problem;
  state->failed = 0;
  if (runParallel(threads, problem->batch, onednnChunk, state))
    return -1;
  return state->failed ? -1 : 0;
}

const char *onednnDescription(void) {
  static char description[128];
  const dnnl_version_t *version = dnnl_version();
  snprintf(description, sizeof(description),
           "oneDNN %d.%d.%d (%s), CPU ISA %#x", version->major, version->minor,
           version->patch, version->hash,
           (unsigned)dnnl_get_effective_cpu_isa());
  return description;
}

const Variant onednnVariant = {"onednn", onednnCreate, onednnRun, onednnDestroy,
                               1,        NULL};

#else

const char *onednnDescription(void) { return NULL; }

const Variant onednnVariant = {
    "onednn", NULL, NULL,
    NULL,     1,    "built without oneDNN (dnnl.h / libdnnl not found)"};

#endif
