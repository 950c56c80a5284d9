//===- GpuCublasLtTrain.c - The cuBLASLt training step of bench/mlp-gpu ---===//
//
// The training step layer by layer as a framework runs it on cuBLASLt
// (NVIDIA apex's and flash-attention's fused dense layers use the same
// epilogues), with cuBLASLt calls only (no kernels of ours: there is no
// nvcc). Matrices are column-major as in GpuCublasLt.c: activations and
// their gradients features x batch; W (row-major out x in) is the
// column-major in x out; a GEMM is D (m x n) = op(A) (m x k) op(B) (k x n).
//
//   forward, layer l: D = out_l (out x batch) = W^T in, TRANSA = T, with
//     RELU_AUX_BIAS for the hidden layers, which also writes the ReLU
//     bitmask of D (aux), and BIAS for the last; every output is kept.
//   backward, from the last layer, for l = 4 .. 0:
//     dgrad (l >= 1): dZ_{l-1} (in x batch) = W dZ_l, A = W (in x out, N),
//       B = dZ_l (out x batch, N), epilogue DRELU_BGRAD: times the bitmask
//       of layer l-1's output, and db_{l-1} = D's sums over the batch;
//     wgrad: dW_l (in x out: the weights' own layout) = H_{l-1} dZ_l^T,
//       A = H_{l-1} (in x batch, N), B = dZ_l (out x batch, TRANSB = T),
//       k = the batch; for the last layer with epilogue BGRADB, db_4 = the
//       sums of B = dy over k; DEFAULT for the others (their db came from
//       the dgrad above them).
//   No dgrad for layer 0 (the inputs need no gradient); dZ_4 = dy.
//
// f16 A, B, C, D and bias gradients, f32 compute and scale, alpha 1, beta
// 0: each step overwrites the gradients, which is zeroing them and adding
// one batch, as coopvec's step does. dW is f16 like coopvec's gradient
// buffer and under the same rule (f32 sums rounded to f16 once), and
// half the bytes of f32; it is also the type these epilogues are used
// with (the bias gradient has D's type). Each GEMM takes the heuristic's
// first algorithm for its shape, epilogue and pointers.
//
//===----------------------------------------------------------------------===//

#include "GpuCublasLt.h"
#include "Timing.h"

#include <stdio.h>
#include <string.h>

typedef struct LtGemm {
  cublasLtMatmulDesc_t desc;
  cublasLtMatrixLayout_t a, b, d; // C is D
  cublasLtMatmulAlgo_t algo;
} LtGemm;

/// One GEMM's shape and epilogue; matrices are packed (ld = rows).
typedef struct GemmSpec {
  char name[48]; // "layer 2 dgrad", for messages
  int32_t transA, transB;
  uint64_t m, n, k;
  uint32_t epilogue;
  CUdeviceptr bias; // the bias or bias gradient; 0: none
  CUdeviceptr aux;  // the ReLU bitmask; 0: none
  int64_t auxLd;    // its bits per column
} GemmSpec;

typedef struct TrainLayer {
  LtGemm forward, dgrad, wgrad; // no dgrad for layer 0
  CUdeviceptr weights, bias, gradWeights, gradBias;
  CUdeviceptr out;  // the layer's output, features x batch
  CUdeviceptr mask; // its ReLU bitmask (hidden layers)
  int64_t maskLd;   // bits per column: out rounded up to 128
} TrainLayer;

typedef struct LtTrain {
  GpuCublasLt *lt;
  const GpuTrainProblem *problem;
  TrainLayer layers[GPU_MLP_LAYERS];
  CUdeviceptr x, dy, dz[2]; // dz: the hidden layers' dZ, by turns
} LtTrain;

static bool isHidden(int l) { return l + 1 < GPU_MLP_LAYERS; }

/// dZ of layer l (its output's gradient, ReLU applied): dy for the last.
static CUdeviceptr gradientOf(const LtTrain *run, int l) {
  return isHidden(l) ? run->dz[(GPU_MLP_LAYERS - 2 - l) % 2] : run->dy;
}

/// The input of layer l: x or the previous layer's output.
static CUdeviceptr inputOf(const LtTrain *run, int l) {
  return l == 0 ? run->x : run->layers[l - 1].out;
}

//===----------------------------------------------------------------------===//
// Buffers
//===----------------------------------------------------------------------===//

static bool allocateLayer(LtTrain *run, int l) {
  const GpuLayer *layer = &run->problem->mlp->layers[l];
  TrainLayer *t = &run->layers[l];
  const GpuCublasLt *lt = run->lt;
  size_t in = (size_t)layer->inputs, out = (size_t)layer->outputs;
  size_t batch = (size_t)run->problem->batch, half = sizeof(uint16_t);
  const uint16_t *w = run->problem->w;
  t->maskLd = (int64_t)((out + 127) / 128 * 128);
  return gpuLtUpload(lt, &t->weights, w + layer->weightOffset, out * in * half,
                     "weights") &&
         gpuLtUpload(lt, &t->bias, w + layer->biasOffset, out * half, "bias") &&
         gpuLtAllocate(lt, &t->gradWeights, out * in * half,
                       "weight gradient") &&
         gpuLtAllocate(lt, &t->gradBias, out * half, "bias gradient") &&
         gpuLtAllocate(lt, &t->out, out * batch * half, "layer output") &&
         (!isHidden(l) ||
          gpuLtAllocate(lt, &t->mask, (size_t)t->maskLd / 8 * batch,
                        "ReLU bitmask"));
}

static bool allocateBuffers(LtTrain *run) {
  const GpuTrainProblem *problem = run->problem;
  size_t batch = (size_t)problem->batch, half = sizeof(uint16_t);
  size_t hidden = batch * (size_t)problem->mlp->width * half;
  bool ok = gpuLtUpload(run->lt, &run->x, problem->x,
                        batch * GPU_MLP_INPUTS * half, "inputs") &&
            gpuLtUpload(run->lt, &run->dy, problem->dy,
                        batch * GPU_MLP_OUTPUTS * half, "upstream gradient") &&
            gpuLtAllocate(run->lt, &run->dz[0], hidden, "hidden gradient") &&
            gpuLtAllocate(run->lt, &run->dz[1], hidden, "hidden gradient");
  for (int l = 0; ok && l < GPU_MLP_LAYERS; ++l)
    ok = allocateLayer(run, l);
  return ok;
}

static void releaseGemm(const CublasLt *api, LtGemm *gemm) {
  if (gemm->desc)
    api->cublasLtMatmulDescDestroy(gemm->desc);
  cublasLtMatrixLayout_t layouts[] = {gemm->a, gemm->b, gemm->d};
  for (int j = 0; j < 3; ++j)
    if (layouts[j])
      api->cublasLtMatrixLayoutDestroy(layouts[j]);
}

static void release(LtTrain *run) {
  const CoopvecCUDADriver *driver = &run->lt->device->driver;
  for (int l = 0; l < GPU_MLP_LAYERS; ++l) {
    TrainLayer *t = &run->layers[l];
    releaseGemm(&run->lt->api, &t->forward);
    releaseGemm(&run->lt->api, &t->dgrad);
    releaseGemm(&run->lt->api, &t->wgrad);
    CUdeviceptr buffers[] = {t->weights,  t->bias, t->gradWeights,
                             t->gradBias, t->out,  t->mask};
    for (int j = 0; j < 6; ++j)
      if (buffers[j])
        driver->cuMemFree(buffers[j]);
  }
  CUdeviceptr buffers[] = {run->x, run->dy, run->dz[0], run->dz[1]};
  for (int j = 0; j < 4; ++j)
    if (buffers[j])
      driver->cuMemFree(buffers[j]);
}

//===----------------------------------------------------------------------===//
// GEMMs
//===----------------------------------------------------------------------===//

static bool setAttribute(const LtTrain *run, const LtGemm *gemm,
                         cublasLtMatmulDescAttributes_t attribute,
                         const void *value, size_t bytes, const char *name) {
  char call[96];
  snprintf(call, sizeof(call), "cublasLtMatmulDescSetAttribute(%s)", name);
  return gpuLtCheck(run->lt,
                    run->lt->api.cublasLtMatmulDescSetAttribute(
                        gemm->desc, attribute, value, bytes),
                    call);
}

/// The transposes, the epilogue and its pointers (set before the
/// heuristic: their alignment counts).
static bool createDesc(const LtTrain *run, const GemmSpec *spec, LtGemm *gemm) {
  if (!gpuLtCheck(run->lt,
                  run->lt->api.cublasLtMatmulDescCreate(
                      &gemm->desc, CUBLAS_COMPUTE_32F, CUDA_R_32F),
                  "cublasLtMatmulDescCreate")) {
    gemm->desc = NULL;
    return false;
  }
  void *bias = gpuLtPointer(spec->bias), *aux = gpuLtPointer(spec->aux);
  return setAttribute(run, gemm, CUBLASLT_MATMUL_DESC_TRANSA, &spec->transA,
                      sizeof(spec->transA), "TRANSA") &&
         setAttribute(run, gemm, CUBLASLT_MATMUL_DESC_TRANSB, &spec->transB,
                      sizeof(spec->transB), "TRANSB") &&
         setAttribute(run, gemm, CUBLASLT_MATMUL_DESC_EPILOGUE, &spec->epilogue,
                      sizeof(spec->epilogue), "EPILOGUE") &&
         (!spec->bias ||
          setAttribute(run, gemm, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &bias,
                       sizeof(bias), "BIAS_POINTER")) &&
         (!spec->aux ||
          (setAttribute(run, gemm, CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_POINTER,
                        &aux, sizeof(aux), "EPILOGUE_AUX_POINTER") &&
           setAttribute(run, gemm, CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_LD,
                        &spec->auxLd, sizeof(spec->auxLd), "EPILOGUE_AUX_LD")));
}

static bool createLayout(const LtTrain *run, cublasLtMatrixLayout_t *layout,
                         uint64_t rows, uint64_t cols) {
  if (gpuLtCheck(run->lt,
                 run->lt->api.cublasLtMatrixLayoutCreate(
                     layout, CUDA_R_16F, rows, cols, (int64_t)rows),
                 "cublasLtMatrixLayoutCreate"))
    return true;
  *layout = NULL;
  return false;
}

/// A is m x k (k x m stored when transposed), B k x n (n x k), D m x n.
static bool createLayouts(const LtTrain *run, const GemmSpec *spec,
                          LtGemm *gemm) {
  bool a = spec->transA == CUBLAS_OP_N, b = spec->transB == CUBLAS_OP_N;
  return createLayout(run, &gemm->a, a ? spec->m : spec->k,
                      a ? spec->k : spec->m) &&
         createLayout(run, &gemm->b, b ? spec->k : spec->n,
                      b ? spec->n : spec->k) &&
         createLayout(run, &gemm->d, spec->m, spec->n);
}

static bool pickAlgorithm(const LtTrain *run, const GemmSpec *spec,
                          LtGemm *gemm) {
  cublasLtMatmulHeuristicResult_t result;
  memset(&result, 0, sizeof(result));
  int returned = 0;
  if (!gpuLtCheck(run->lt,
                  run->lt->api.cublasLtMatmulAlgoGetHeuristic(
                      run->lt->handle, gemm->desc, gemm->a, gemm->b, gemm->d,
                      gemm->d, run->lt->preference, 1, &result, &returned),
                  "cublasLtMatmulAlgoGetHeuristic"))
    return false;
  if (returned < 1 || result.state != CUBLAS_STATUS_SUCCESS) {
    fprintf(stderr,
            "mlp-gpu: cublaslt: no algorithm for the %s GEMM (m %llu, n "
            "%llu, k %llu, epilogue %u): %d returned, state %s\n",
            spec->name, (unsigned long long)spec->m,
            (unsigned long long)spec->n, (unsigned long long)spec->k,
            spec->epilogue, returned,
            run->lt->api.cublasLtGetStatusName(result.state));
    return false;
  }
  gemm->algo = result.algo;
  return true;
}

static bool createGemm(const LtTrain *run, const GemmSpec *spec, LtGemm *gemm) {
  return createDesc(run, spec, gemm) && createLayouts(run, spec, gemm) &&
         pickAlgorithm(run, spec, gemm);
}

/// Layer l's forward: out (out x batch) = W^T in, with its bias and, for
/// a hidden layer, ReLU and the bitmask.
static GemmSpec forwardSpec(const LtTrain *run, int l) {
  const GpuLayer *layer = &run->problem->mlp->layers[l];
  const TrainLayer *t = &run->layers[l];
  bool hidden = isHidden(l);
  GemmSpec spec = {.transA = CUBLAS_OP_T,
                   .transB = CUBLAS_OP_N,
                   .m = (uint64_t)layer->outputs,
                   .n = (uint64_t)run->problem->batch,
                   .k = (uint64_t)layer->inputs,
                   .epilogue = hidden ? CUBLASLT_EPILOGUE_RELU_AUX_BIAS
                                      : CUBLASLT_EPILOGUE_BIAS,
                   .bias = t->bias,
                   .aux = hidden ? t->mask : 0,
                   .auxLd = t->maskLd};
  snprintf(spec.name, sizeof(spec.name), "layer %d forward", l);
  return spec;
}

/// Layer l's wgrad: dW (in x out) = in dZ^T, k = the batch; the last
/// layer's db (the sums of dy) with it.
static GemmSpec wgradSpec(const LtTrain *run, int l) {
  const GpuLayer *layer = &run->problem->mlp->layers[l];
  bool hidden = isHidden(l);
  GemmSpec spec = {.transA = CUBLAS_OP_N,
                   .transB = CUBLAS_OP_T,
                   .m = (uint64_t)layer->inputs,
                   .n = (uint64_t)layer->outputs,
                   .k = (uint64_t)run->problem->batch,
                   .epilogue = hidden ? CUBLASLT_EPILOGUE_DEFAULT
                                      : CUBLASLT_EPILOGUE_BGRADB,
                   .bias = hidden ? 0 : run->layers[l].gradBias};
  snprintf(spec.name, sizeof(spec.name), "layer %d wgrad", l);
  return spec;
}

/// Layer l's dgrad (l >= 1): dZ_{l-1} (in x batch) = W dZ_l times layer
/// l-1's bitmask, and db_{l-1}.
static GemmSpec dgradSpec(const LtTrain *run, int l) {
  const GpuLayer *layer = &run->problem->mlp->layers[l];
  const TrainLayer *below = &run->layers[l - 1];
  GemmSpec spec = {.transA = CUBLAS_OP_N,
                   .transB = CUBLAS_OP_N,
                   .m = (uint64_t)layer->inputs,
                   .n = (uint64_t)run->problem->batch,
                   .k = (uint64_t)layer->outputs,
                   .epilogue = CUBLASLT_EPILOGUE_DRELU_BGRAD,
                   .bias = below->gradBias,
                   .aux = below->mask,
                   .auxLd = below->maskLd};
  snprintf(spec.name, sizeof(spec.name), "layer %d dgrad", l);
  return spec;
}

static bool createLayerGemms(LtTrain *run, int l) {
  TrainLayer *t = &run->layers[l];
  GemmSpec forward = forwardSpec(run, l), wgrad = wgradSpec(run, l);
  if (!createGemm(run, &forward, &t->forward) ||
      !createGemm(run, &wgrad, &t->wgrad))
    return false;
  if (l == 0)
    return true; // the inputs need no gradient
  GemmSpec dgrad = dgradSpec(run, l);
  return createGemm(run, &dgrad, &t->dgrad);
}

static bool prepare(LtTrain *run) {
  bool ok = allocateBuffers(run);
  for (int l = 0; ok && l < GPU_MLP_LAYERS; ++l)
    ok = createLayerGemms(run, l);
  return ok;
}

//===----------------------------------------------------------------------===//
// Steps
//===----------------------------------------------------------------------===//

/// D = op(A) op(B) with `gemm`'s epilogue, queued on the NULL stream.
static bool matmul(const LtTrain *run, const LtGemm *gemm, CUdeviceptr a,
                   CUdeviceptr b, CUdeviceptr d) {
  const float alpha = 1.0f, beta = 0.0f;
  const GpuCublasLt *lt = run->lt;
  void *output = gpuLtPointer(d);
  return gpuLtCheck(
      lt,
      lt->api.cublasLtMatmul(lt->handle, gemm->desc, &alpha, gpuLtPointer(a),
                             gemm->a, gpuLtPointer(b), gemm->b, &beta, output,
                             gemm->d, output, gemm->d, &gemm->algo,
                             gpuLtPointer(lt->workspace),
                             (size_t)GPU_CUBLASLT_WORKSPACE_BYTES, NULL),
      "cublasLtMatmul");
}

static bool forward(const LtTrain *run) {
  bool ok = true;
  for (int l = 0; ok && l < GPU_MLP_LAYERS; ++l) {
    const TrainLayer *t = &run->layers[l];
    ok = matmul(run, &t->forward, t->weights, inputOf(run, l), t->out);
  }
  return ok;
}

static bool backward(const LtTrain *run) {
  bool ok = true;
  for (int l = GPU_MLP_LAYERS - 1; ok && l >= 0; --l) {
    const TrainLayer *t = &run->layers[l];
    if (l > 0)
      ok = matmul(run, &t->dgrad, t->weights, gradientOf(run, l),
                  gradientOf(run, l - 1));
    ok = ok && matmul(run, &t->wgrad, inputOf(run, l), gradientOf(run, l),
                      t->gradWeights);
  }
  return ok;
}

/// One step between events: its milliseconds, and the backward's.
static bool timedStep(const LtTrain *run, CUevent events[3], double *stepMs,
                      double *backwardMs) {
  const GpuDevice *device = run->lt->device;
  const CoopvecCUDADriver *driver = &device->driver;
  float step = 0, back = 0;
  bool ok =
      gpuCheck(device, driver->cuEventRecord(events[0], NULL),
               "cuEventRecord") &&
      forward(run) &&
      gpuCheck(device, driver->cuEventRecord(events[1], NULL),
               "cuEventRecord") &&
      backward(run) &&
      gpuCheck(device, driver->cuEventRecord(events[2], NULL),
               "cuEventRecord") &&
      gpuCheck(device, driver->cuEventSynchronize(events[2]),
               "cuEventSynchronize (the cuBLASLt training step)") &&
      gpuCheck(device, driver->cuEventElapsedTime(&step, events[0], events[2]),
               "cuEventElapsedTime") &&
      gpuCheck(device, driver->cuEventElapsedTime(&back, events[1], events[2]),
               "cuEventElapsedTime");
  *stepMs = step;
  *backwardMs = back;
  return ok;
}

/// Two warm-up steps, then up to `reps` timed ones (see gpuCublasLtTrain).
static bool timeSteps(const LtTrain *run, int reps, double maxSeconds,
                      double *stepMs, double *backwardMs, int *timed) {
  const GpuDevice *device = run->lt->device;
  const CoopvecCUDADriver *driver = &device->driver;
  CUevent events[3] = {NULL, NULL, NULL};
  bool ok = true;
  for (int i = 0; ok && i < 3; ++i)
    ok =
        gpuCheck(device, driver->cuEventCreate(&events[i], 0), "cuEventCreate");
  for (int pass = 0; ok && pass < 2; ++pass)
    ok = forward(run) && backward(run);
  double spent = 0;
  *timed = 0;
  while (ok && *timed < reps && (*timed == 0 || spent < 1e3 * maxSeconds)) {
    ok = timedStep(run, events, &stepMs[*timed], &backwardMs[*timed]);
    spent += stepMs[(*timed)++];
  }
  for (int i = 0; i < 3; ++i)
    if (events[i])
      driver->cuEventDestroy(events[i]);
  return ok;
}

/// The last step's dW and db into `grad`, in the weights' layout.
static bool download(const LtTrain *run, uint16_t *grad) {
  const GpuMlp *mlp = run->problem->mlp;
  const GpuDevice *device = run->lt->device;
  bool ok = true;
  for (int l = 0; ok && l < GPU_MLP_LAYERS; ++l) {
    const GpuLayer *layer = &mlp->layers[l];
    size_t out = (size_t)layer->outputs, half = sizeof(uint16_t);
    ok = gpuCheck(device,
                  device->driver.cuMemcpyDtoH(
                      grad + layer->weightOffset, run->layers[l].gradWeights,
                      out * (size_t)layer->inputs * half),
                  "cuMemcpyDtoH (the cuBLASLt weight gradient)") &&
         gpuCheck(device,
                  device->driver.cuMemcpyDtoH(grad + layer->biasOffset,
                                              run->layers[l].gradBias,
                                              out * half),
                  "cuMemcpyDtoH (the cuBLASLt bias gradient)");
  }
  return ok;
}

bool gpuCublasLtTrain(GpuCublasLt *lt, const GpuTrainProblem *problem, int reps,
                      double maxSeconds, uint16_t *grad,
                      GpuTrainTiming *timing) {
  LtTrain run;
  memset(&run, 0, sizeof(run));
  run.lt = lt;
  run.problem = problem;
  double stepMs[GPU_MLP_MAX_REPS], backwardMs[GPU_MLP_MAX_REPS];
  int timed = 0;
  bool ok = prepare(&run) &&
            timeSteps(&run, reps, maxSeconds, stepMs, backwardMs, &timed) &&
            download(&run, grad);
  release(&run);
  if (!ok)
    return false;
  timing->stepMs = benchMedian(stepMs, timed);
  timing->backwardMs = benchMedian(backwardMs, timed);
  timing->reps = timed;
  timing->timed = "events";
  return true;
}
