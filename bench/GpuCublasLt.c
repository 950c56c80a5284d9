//===- GpuCublasLt.c - The cuBLASLt baseline of bench/mlp-gpu -------------===//
//
// The MLP's forward layer by layer (the training step's GEMMs are in
// GpuCublasLtTrain.c), as a framework runs it on NVIDIA's best GEMM
// library: per layer ONE cublasLtMatmul with the bias and the ReLU fused
// into its epilogue (RELU_BIAS; BIAS for the last, linear layer), f16
// matrices, f32 compute and scale, alpha 1, beta 0, and an algorithm
// picked once per layer by cuBLASLt's heuristic.
//
// Activations are column-major (features x batch), which is the row-major
// batch x features layout of the inputs and outputs. With the row-major W
// (out x in) as the column-major A (in x out, lda = in) and TRANSA = T:
//   D (out x batch, ldd = out) = op(A) (out x in) * B (in x batch, ldb = in)
// m = out, n = batch, k = in; C is D (beta = 0).
//
// cuBLASLt runs on the CUDA runtime, which uses the context current to the
// thread: the device's primary context, pushed by mlp-gpu for the whole
// run, in which the driver allocates every buffer here. Everything runs on
// the NULL stream (the legacy default stream, shared by the runtime and the
// driver's events).
//
//===----------------------------------------------------------------------===//

// dladdr is a GNU extension (dlopen and dlsym are POSIX).
#define _GNU_SOURCE

#include "GpuCublasLt.h"
#include "Timing.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const uint64_t kWorkspaceBytes = GPU_CUBLASLT_WORKSPACE_BYTES;

bool gpuLtCheck(const GpuCublasLt *lt, cublasStatus_t status,
                const char *call) {
  if (status == CUBLAS_STATUS_SUCCESS)
    return true;
  fprintf(stderr, "mlp-gpu: cublaslt: %s failed: %s (%s)\n", call,
          lt->api.cublasLtGetStatusName(status),
          lt->api.cublasLtGetStatusString(status));
  return false;
}

//===----------------------------------------------------------------------===//
// Loading the library
//===----------------------------------------------------------------------===//

static bool lookUp(void *library, const char *path, const char *name,
                   void *field) {
  void *symbol = dlsym(library, name);
  if (!symbol) {
    fprintf(stderr, "mlp-gpu: cublaslt: %s has no %s\n", path, name);
    return false;
  }
  // POSIX: a data pointer from dlsym holds the function's address.
  memcpy(field, &symbol, sizeof(symbol));
  return true;
}

static bool resolve(CublasLt *api, const char *path) {
  bool ok = true;
#define COOPVEC_CUBLASLT_RESOLVE(type, name, params)                           \
  ok = ok && lookUp(api->library, path, #name, &api->name);
  COOPVEC_CUBLASLT_ENTRY_POINTS(COOPVEC_CUBLASLT_RESOLVE)
#undef COOPVEC_CUBLASLT_RESOLVE
  return ok;
}

/// The file the dynamic loader opened, for the header line.
static const char *loadedPath(const CublasLt *api, const char *requested) {
  Dl_info info;
  void *symbol = dlsym(api->library, "cublasLtCreate");
  if (symbol && dladdr(symbol, &info) && info.dli_fname)
    return info.dli_fname;
  return requested;
}

/// Loads `path` and creates a handle. A library whose cublasLtCreate ran
/// stays loaded even when it failed: the CUDA runtime it started may have
/// registered exit handlers in it.
static bool tryLibrary(GpuCublasLt *lt, const char *path) {
  lt->api.library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!lt->api.library) {
    const char *reason = dlerror();
    fprintf(stderr, "mlp-gpu: cublaslt: cannot load %s: %s\n", path,
            reason ? reason : "unknown error");
    return false;
  }
  if (!resolve(&lt->api, path)) {
    dlclose(lt->api.library);
    memset(&lt->api, 0, sizeof(lt->api));
    return false;
  }
  char call[512];
  snprintf(call, sizeof(call), "cublasLtCreate (%s)", path);
  if (!gpuLtCheck(lt, lt->api.cublasLtCreate(&lt->handle), call)) {
    lt->handle = NULL;
    return false;
  }
  size_t version = lt->api.cublasLtGetVersion();
  size_t runtime = lt->api.cublasLtGetCudartVersion();
  printf("cublaslt: %s (cuBLASLt %zu.%zu.%zu, CUDA runtime %zu.%zu)\n",
         loadedPath(&lt->api, path), version / 10000, version / 100 % 100,
         version % 100, runtime / 1000, runtime % 1000 / 10);
  return true;
}

/// $COOPVEC_LIBCUBLASLT, else cuBLAS 13, else cuBLAS 12 (each needs a
/// driver recent enough for its CUDA runtime: the next one is tried when
/// cublasLtCreate fails).
static bool loadLibrary(GpuCublasLt *lt) {
  const char *chosen = getenv("COOPVEC_LIBCUBLASLT");
  if (chosen && *chosen)
    return tryLibrary(lt, chosen);
  static const char *const kLibraries[] = {"libcublasLt.so.13",
                                           "libcublasLt.so.12"};
  for (size_t i = 0; i < sizeof(kLibraries) / sizeof(kLibraries[0]); ++i)
    if (tryLibrary(lt, kLibraries[i]))
      return true;
  return false;
}

/// The heuristic's preference: at most the workspace we allocate.
static bool createPreference(GpuCublasLt *lt) {
  if (!gpuLtCheck(lt, lt->api.cublasLtMatmulPreferenceCreate(&lt->preference),
                  "cublasLtMatmulPreferenceCreate")) {
    lt->preference = NULL;
    return false;
  }
  uint64_t bytes = kWorkspaceBytes;
  return gpuLtCheck(
      lt,
      lt->api.cublasLtMatmulPreferenceSetAttribute(
          lt->preference, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &bytes,
          sizeof(bytes)),
      "cublasLtMatmulPreferenceSetAttribute(MAX_WORKSPACE_BYTES)");
}

GpuCublasLt *gpuCublasLtOpen(const GpuDevice *device) {
  GpuCublasLt *lt = calloc(1, sizeof(GpuCublasLt));
  if (!lt) {
    fprintf(stderr, "mlp-gpu: out of memory\n");
    return NULL;
  }
  lt->device = device;
  bool ok = loadLibrary(lt) && createPreference(lt);
  if (ok && !gpuCheck(device,
                      device->driver.cuMemAlloc(&lt->workspace,
                                                (size_t)kWorkspaceBytes),
                      "cuMemAlloc (the cuBLASLt workspace)")) {
    lt->workspace = 0;
    ok = false;
  }
  if (ok)
    return lt;
  gpuCublasLtClose(lt);
  return NULL;
}

void gpuCublasLtClose(GpuCublasLt *lt) {
  if (!lt)
    return;
  if (lt->workspace)
    lt->device->driver.cuMemFree(lt->workspace);
  if (lt->preference)
    lt->api.cublasLtMatmulPreferenceDestroy(lt->preference);
  if (lt->handle)
    lt->api.cublasLtDestroy(lt->handle);
  // The library stays loaded (see tryLibrary).
  free(lt);
}

//===----------------------------------------------------------------------===//
// One problem
//===----------------------------------------------------------------------===//

typedef struct LtLayer {
  cublasLtMatmulDesc_t desc;
  cublasLtMatrixLayout_t a, b, d; // C is D
  cublasLtMatmulAlgo_t algo;
  CUdeviceptr weights, bias; // own allocations: aligned as cuBLASLt wants
} LtLayer;

typedef struct LtRun {
  GpuCublasLt *lt;
  const GpuProblem *problem;
  LtLayer layers[GPU_MLP_LAYERS];
  CUdeviceptr x, hidden[2], y; // features x batch, column-major
} LtRun;

void *gpuLtPointer(CUdeviceptr pointer) {
  return (void *)(uintptr_t)pointer; // NOLINT(performance-no-int-to-ptr)
}

/// Layer `i` reads the inputs or a hidden buffer and writes the other
/// hidden buffer or the outputs.
static CUdeviceptr layerInput(const LtRun *run, int i) {
  return i == 0 ? run->x : run->hidden[(i - 1) % 2];
}
static CUdeviceptr layerOutput(const LtRun *run, int i) {
  return i == GPU_MLP_LAYERS - 1 ? run->y : run->hidden[i % 2];
}

bool gpuLtAllocate(const GpuCublasLt *lt, CUdeviceptr *pointer, size_t bytes,
                   const char *what) {
  const GpuDevice *device = lt->device;
  char call[128];
  snprintf(call, sizeof(call), "cuMemAlloc (%s, %zu bytes)", what, bytes);
  if (gpuCheck(device, device->driver.cuMemAlloc(pointer, bytes), call))
    return true;
  *pointer = 0;
  return false;
}

bool gpuLtUpload(const GpuCublasLt *lt, CUdeviceptr *pointer, const void *data,
                 size_t bytes, const char *what) {
  const GpuDevice *device = lt->device;
  return gpuLtAllocate(lt, pointer, bytes, what) &&
         gpuCheck(device, device->driver.cuMemcpyHtoD(*pointer, data, bytes),
                  "cuMemcpyHtoD");
}

static bool allocateBuffers(LtRun *run) {
  const GpuProblem *problem = run->problem;
  size_t batch = (size_t)problem->batch;
  size_t hidden = batch * (size_t)problem->mlp->width * sizeof(uint16_t);
  bool ok =
      gpuLtUpload(run->lt, &run->x, problem->x,
                  batch * GPU_MLP_INPUTS * sizeof(uint16_t), "inputs") &&
      gpuLtAllocate(run->lt, &run->hidden[0], hidden, "hidden layer") &&
      gpuLtAllocate(run->lt, &run->hidden[1], hidden, "hidden layer") &&
      gpuLtAllocate(run->lt, &run->y,
                    batch * GPU_MLP_OUTPUTS * sizeof(uint16_t), "outputs");
  for (int i = 0; ok && i < GPU_MLP_LAYERS; ++i) {
    const GpuLayer *layer = &problem->mlp->layers[i];
    size_t outputs = (size_t)layer->outputs;
    ok = gpuLtUpload(
             run->lt, &run->layers[i].weights, problem->w + layer->weightOffset,
             outputs * (size_t)layer->inputs * sizeof(uint16_t), "weights") &&
         gpuLtUpload(run->lt, &run->layers[i].bias,
                     problem->w + layer->biasOffset, outputs * sizeof(uint16_t),
                     "bias");
  }
  return ok;
}

static bool setAttribute(LtRun *run, cublasLtMatmulDesc_t desc,
                         cublasLtMatmulDescAttributes_t attribute,
                         const void *value, size_t bytes, const char *call) {
  const CublasLt *api = &run->lt->api;
  return gpuLtCheck(
      run->lt,
      api->cublasLtMatmulDescSetAttribute(desc, attribute, value, bytes), call);
}

/// f32 compute and scale; TRANSA = T; the epilogue and its bias.
static bool createDesc(LtRun *run, int i) {
  LtLayer *layer = &run->layers[i];
  if (!gpuLtCheck(run->lt,
                  run->lt->api.cublasLtMatmulDescCreate(
                      &layer->desc, CUBLAS_COMPUTE_32F, CUDA_R_32F),
                  "cublasLtMatmulDescCreate")) {
    layer->desc = NULL;
    return false;
  }
  int32_t transA = CUBLAS_OP_T, transB = CUBLAS_OP_N;
  uint32_t epilogue = i + 1 < GPU_MLP_LAYERS ? CUBLASLT_EPILOGUE_RELU_BIAS
                                             : CUBLASLT_EPILOGUE_BIAS;
  const void *bias = gpuLtPointer(layer->bias);
  return setAttribute(run, layer->desc, CUBLASLT_MATMUL_DESC_TRANSA, &transA,
                      sizeof(transA),
                      "cublasLtMatmulDescSetAttribute(TRANSA)") &&
         setAttribute(run, layer->desc, CUBLASLT_MATMUL_DESC_TRANSB, &transB,
                      sizeof(transB),
                      "cublasLtMatmulDescSetAttribute(TRANSB)") &&
         setAttribute(run, layer->desc, CUBLASLT_MATMUL_DESC_EPILOGUE,
                      &epilogue, sizeof(epilogue),
                      "cublasLtMatmulDescSetAttribute(EPILOGUE)") &&
         setAttribute(run, layer->desc, CUBLASLT_MATMUL_DESC_BIAS_POINTER,
                      &bias, sizeof(bias),
                      "cublasLtMatmulDescSetAttribute(BIAS_POINTER)");
}

static bool createLayout(LtRun *run, cublasLtMatrixLayout_t *layout,
                         uint64_t rows, uint64_t cols, int64_t ld) {
  if (gpuLtCheck(run->lt,
                 run->lt->api.cublasLtMatrixLayoutCreate(layout, CUDA_R_16F,
                                                         rows, cols, ld),
                 "cublasLtMatrixLayoutCreate"))
    return true;
  *layout = NULL;
  return false;
}

/// A: W as column-major in x out; B: in x batch; D (and C): out x batch.
static bool createLayouts(LtRun *run, int i) {
  const GpuLayer *layer = &run->problem->mlp->layers[i];
  LtLayer *lt = &run->layers[i];
  uint64_t in = (uint64_t)layer->inputs, out = (uint64_t)layer->outputs;
  uint64_t batch = (uint64_t)run->problem->batch;
  return createLayout(run, &lt->a, in, out, (int64_t)in) &&
         createLayout(run, &lt->b, in, batch, (int64_t)in) &&
         createLayout(run, &lt->d, out, batch, (int64_t)out);
}

/// The heuristic's first choice (the bias pointer is set: its alignment
/// counts).
static bool pickAlgorithm(LtRun *run, int i) {
  LtLayer *layer = &run->layers[i];
  cublasLtMatmulHeuristicResult_t result;
  memset(&result, 0, sizeof(result));
  int returned = 0;
  if (!gpuLtCheck(run->lt,
                  run->lt->api.cublasLtMatmulAlgoGetHeuristic(
                      run->lt->handle, layer->desc, layer->a, layer->b,
                      layer->d, layer->d, run->lt->preference, 1, &result,
                      &returned),
                  "cublasLtMatmulAlgoGetHeuristic"))
    return false;
  if (returned < 1 || result.state != CUBLAS_STATUS_SUCCESS) {
    const GpuLayer *shape = &run->problem->mlp->layers[i];
    fprintf(stderr,
            "mlp-gpu: cublaslt: no algorithm for layer %d (%d -> %d, batch "
            "%lld): %d returned, state %s\n",
            i, shape->inputs, shape->outputs, (long long)run->problem->batch,
            returned, run->lt->api.cublasLtGetStatusName(result.state));
    return false;
  }
  layer->algo = result.algo;
  return true;
}

static bool prepare(LtRun *run) {
  bool ok = allocateBuffers(run);
  for (int i = 0; ok && i < GPU_MLP_LAYERS; ++i)
    ok = createDesc(run, i) && createLayouts(run, i) && pickAlgorithm(run, i);
  return ok;
}

static void release(LtRun *run) {
  const CublasLt *api = &run->lt->api;
  const CoopvecCUDADriver *driver = &run->lt->device->driver;
  for (int i = 0; i < GPU_MLP_LAYERS; ++i) {
    LtLayer *layer = &run->layers[i];
    if (layer->desc)
      api->cublasLtMatmulDescDestroy(layer->desc);
    cublasLtMatrixLayout_t layouts[] = {layer->a, layer->b, layer->d};
    for (int j = 0; j < 3; ++j)
      if (layouts[j])
        api->cublasLtMatrixLayoutDestroy(layouts[j]);
    if (layer->weights)
      driver->cuMemFree(layer->weights);
    if (layer->bias)
      driver->cuMemFree(layer->bias);
  }
  CUdeviceptr buffers[] = {run->x, run->hidden[0], run->hidden[1], run->y};
  for (int j = 0; j < 4; ++j)
    if (buffers[j])
      driver->cuMemFree(buffers[j]);
}

//===----------------------------------------------------------------------===//
// Forward passes
//===----------------------------------------------------------------------===//

/// The 5 matmuls of one pass, queued on the NULL stream.
static bool forward(LtRun *run) {
  const float alpha = 1.0f, beta = 0.0f;
  GpuCublasLt *lt = run->lt;
  for (int i = 0; i < GPU_MLP_LAYERS; ++i) {
    LtLayer *layer = &run->layers[i];
    void *output = gpuLtPointer(layerOutput(run, i));
    if (!gpuLtCheck(
            lt,
            lt->api.cublasLtMatmul(
                lt->handle, layer->desc, &alpha, gpuLtPointer(layer->weights),
                layer->a, gpuLtPointer(layerInput(run, i)), layer->b, &beta,
                output, layer->d, output, layer->d, &layer->algo,
                gpuLtPointer(lt->workspace), (size_t)kWorkspaceBytes, NULL),
            "cublasLtMatmul"))
      return false;
  }
  return true;
}

/// Milliseconds of one pass between two events on the NULL stream.
static bool timedPass(LtRun *run, CUevent start, CUevent end, double *ms) {
  const GpuDevice *device = run->lt->device;
  const CoopvecCUDADriver *driver = &device->driver;
  float elapsed = 0;
  bool ok =
      gpuCheck(device, driver->cuEventRecord(start, NULL), "cuEventRecord") &&
      forward(run) &&
      gpuCheck(device, driver->cuEventRecord(end, NULL), "cuEventRecord") &&
      gpuCheck(device, driver->cuEventSynchronize(end),
               "cuEventSynchronize (the cuBLASLt pass)") &&
      gpuCheck(device, driver->cuEventElapsedTime(&elapsed, start, end),
               "cuEventElapsedTime");
  *ms = elapsed;
  return ok;
}

/// Two warm-up passes, then `reps` timed ones.
static bool timePasses(LtRun *run, int reps, double *ms) {
  const GpuDevice *device = run->lt->device;
  const CoopvecCUDADriver *driver = &device->driver;
  CUevent start = NULL, end = NULL;
  bool ok =
      gpuCheck(device, driver->cuEventCreate(&start, 0), "cuEventCreate") &&
      gpuCheck(device, driver->cuEventCreate(&end, 0), "cuEventCreate");
  for (int pass = 0; ok && pass < 2; ++pass)
    ok = forward(run);
  for (int rep = 0; ok && rep < reps; ++rep)
    ok = timedPass(run, start, end, &ms[rep]);
  if (start)
    driver->cuEventDestroy(start);
  if (end)
    driver->cuEventDestroy(end);
  return ok;
}

bool gpuCublasLtRun(GpuCublasLt *lt, const GpuProblem *problem, int reps,
                    uint16_t *y, GpuTiming *timing) {
  LtRun run;
  memset(&run, 0, sizeof(run));
  run.lt = lt;
  run.problem = problem;
  double ms[GPU_MLP_MAX_REPS];
  const CoopvecCUDADriver *driver = &lt->device->driver;
  bool ok =
      prepare(&run) && timePasses(&run, reps, ms) &&
      gpuCheck(lt->device,
               driver->cuMemcpyDtoH(y, run.y,
                                    (size_t)problem->batch * GPU_MLP_OUTPUTS *
                                        sizeof(uint16_t)),
               "cuMemcpyDtoH (the cuBLASLt outputs)");
  release(&run);
  if (!ok)
    return false;
  timing->medianMs = benchMedian(ms, reps);
  timing->timed = "events";
  return true;
}
