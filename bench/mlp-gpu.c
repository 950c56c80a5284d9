//===- mlp-gpu.c - The fused f16 MLP on a CUDA GPU: coopvec vs cuBLASLt ---===//
//
//   mlp-gpu [--mode=forward|train|both] [--batch=N[,N...]] [--width=64,128]
//           [--reps=R] [--peak-tflops=X] [--device=N] [--gpu-options=OPTS]
//           [--train-batch=N[,N...]] [--check-batch=N] [--train-seconds=S]
//   mlp-gpu --self-test-cpu
//
// Forward, per width W and batch: coopvec-mma (the engine's default CUDA
// pipeline: tensor-core matvecs for f16), coopvec-simt (matvec=simt) and
// cublaslt (GpuCublasLt.c), on the same inputs; each output is checked
// against a double-precision reference on the host. Training, per width
// and training batch (GpuTrain.c): one step of coopvec's gradient
// (coopvec-autodiff's @mlp_reluW_grad, GpuCoopvec.c) and of cuBLASLt's
// forward and backward GEMMs (GpuCublasLtTrain.c), their gradients first
// checked in full at a small batch against a host reference. Prints a
// table per (W, batch) and then one `summary:` line each
// (docs/performance.md). Exits 1 without a GPU (with the driver's reason)
// or when a variant fails or is wrong. --self-test-cpu runs the training
// step's coopvec gradient on the CPU instead, without a GPU (GpuSelfTest.c).
//
//===----------------------------------------------------------------------===//

#include "MlpGpu.h"

#include "Target/NVPTXTarget.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { kMaxBatches = 8, kMaxWidths = 2, kVariants = 3 };

enum { kForward = 1, kTrain = 2 }; // --mode bits

typedef struct Options {
  int64_t batches[kMaxBatches];
  int numBatches;
  int widths[kMaxWidths];
  int numWidths;
  int reps;
  double peakTflops; // 0: from the device's name
  int device;
  const char *gpuOptions; // more convert-coopvec-to-gpu options, or NULL
  int mode;               // kForward | kTrain
  int64_t trainBatches[kMaxBatches];
  int numTrainBatches;
  int64_t checkBatch;
  double trainSeconds; // timed steps per variant and batch, at most
  bool selfTest;
} Options;

//===----------------------------------------------------------------------===//
// Helpers shared with the variants
//===----------------------------------------------------------------------===//

bool gpuCheck(const GpuDevice *device, CUresult result, const char *call) {
  if (result == CUDA_SUCCESS)
    return true;
  CoopvecBuffer text = {0};
  coopvecCUDACheck(&device->driver, result, call, &text);
  fprintf(stderr, "mlp-gpu: %s\n", coopvecBufferStr(&text));
  coopvecBufferFree(&text);
  return false;
}

//===----------------------------------------------------------------------===//
// Options
//===----------------------------------------------------------------------===//

static void usage(FILE *out) {
  fprintf(out,
          "usage: mlp-gpu [--mode=forward|train|both] [--batch=N[,N...]]\n"
          "               [--width=64,128] [--reps=R] [--peak-tflops=X] "
          "[--device=N]\n"
          "               [--gpu-options=OPTS] [--train-batch=N[,N...]] "
          "[--check-batch=N]\n"
          "               [--train-seconds=S]\n"
          "       mlp-gpu --self-test-cpu\n"
          "  --mode           forward passes, training steps or both "
          "(default both)\n"
          "  --batch          samples per forward pass (default "
          "1048576,4194304; odd ones welcome)\n"
          "  --width          hidden widths to run, 64 and/or 128 (default "
          "both)\n"
          "  --reps           timed repetitions, the median is reported "
          "(default 10)\n"
          "  --peak-tflops    the device's dense FP16 tensor-core peak "
          "(default: from its name)\n"
          "  --device         CUDA device ordinal (default 0)\n"
          "  --gpu-options    convert-coopvec-to-gpu options for the coopvec "
          "variants,\n"
          "                   e.g. 'register-elements=128 block-size=64'\n"
          "  --train-batch    samples per training step (default 1048576)\n"
          "  --check-batch    the batch whose gradients are checked against "
          "the host\n"
          "                   reference, at most 65536 (default 4099)\n"
          "  --train-seconds  stop a training variant's timed steps after "
          "this many\n"
          "                   seconds, at least one step (default 5)\n"
          "  --self-test-cpu  check coopvec's training step on the CPU "
          "target against\n"
          "                   the reference, without a GPU\n");
}

/// Parses a comma list of integers in [low, high] into `values`.
static bool parseList(const char *text, int64_t low, int64_t high,
                      int64_t *values, int *count, int max) {
  *count = 0;
  while (*text) {
    char *end;
    long long value = strtoll(text, &end, 10);
    if (end == text || (*end && *end != ',') || value < low || value > high ||
        *count == max)
      return false;
    values[(*count)++] = value;
    text = *end ? end + 1 : end;
  }
  return *count > 0;
}

static bool parseWidths(const char *text, Options *options) {
  int64_t widths[kMaxWidths];
  if (!parseList(text, 64, 128, widths, &options->numWidths, kMaxWidths))
    return false;
  for (int i = 0; i < options->numWidths; ++i) {
    if (widths[i] != 64 && widths[i] != 128)
      return false;
    options->widths[i] = (int)widths[i];
  }
  return true;
}

static bool parseMode(const char *text, Options *options) {
  options->mode = strcmp(text, "forward") == 0 ? kForward
                  : strcmp(text, "train") == 0 ? kTrain
                  : strcmp(text, "both") == 0  ? kForward | kTrain
                                               : 0;
  return options->mode != 0;
}

/// The options of the training step.
static bool parseTrainOption(const char *arg, Options *options) {
  int64_t value = 0;
  int count;
  char *end;
  if (strncmp(arg, "--mode=", 7) == 0)
    return parseMode(arg + 7, options);
  if (strncmp(arg, "--train-batch=", 14) == 0)
    // cuBLASLt keeps 6 activation buffers: 2^27 samples of W = 128 are
    // 192 GiB, beyond any GPU; 2^25 fit an H200 (48 GiB).
    return parseList(arg + 14, 1, 1ll << 25, options->trainBatches,
                     &options->numTrainBatches, kMaxBatches);
  if (strncmp(arg, "--check-batch=", 14) == 0) {
    // GPU_MLP_GRAD_TOLERANCE's reasoning holds up to 65536 samples.
    bool ok = parseList(arg + 14, 1, 65536, &value, &count, 1);
    options->checkBatch = value;
    return ok;
  }
  if (strncmp(arg, "--train-seconds=", 16) == 0) {
    options->trainSeconds = strtod(arg + 16, &end);
    return end != arg + 16 && !*end && options->trainSeconds > 0;
  }
  return false;
}

/// One `--name=value`; false if it is none of ours or its value is bad.
static bool parseOption(const char *arg, Options *options) {
  int64_t value = 0;
  int count;
  char *end;
  if (strncmp(arg, "--batch=", 8) == 0)
    // 2^27 samples: cuBLASLt's two hidden buffers of W = 128 take 64 GiB.
    return parseList(arg + 8, 1, 1ll << 27, options->batches,
                     &options->numBatches, kMaxBatches);
  if (strncmp(arg, "--width=", 8) == 0)
    return parseWidths(arg + 8, options);
  if (strncmp(arg, "--reps=", 7) == 0) {
    bool ok = parseList(arg + 7, 1, GPU_MLP_MAX_REPS, &value, &count, 1);
    options->reps = (int)value;
    return ok;
  }
  if (strncmp(arg, "--device=", 9) == 0) {
    bool ok = parseList(arg + 9, 0, 1024, &value, &count, 1);
    options->device = (int)value;
    return ok;
  }
  if (strncmp(arg, "--gpu-options=", 14) == 0) {
    options->gpuOptions = arg + 14;
    return strlen(options->gpuOptions) < 100;
  }
  if (strncmp(arg, "--peak-tflops=", 14) == 0) {
    options->peakTflops = strtod(arg + 14, &end);
    return end != arg + 14 && !*end && options->peakTflops > 0;
  }
  return parseTrainOption(arg, options);
}

/// 0: run; 1: exit 0 (--help); -1: exit 2 (bad usage).
static int parseOptions(int argc, char **argv, Options *options) {
  *options = (Options){.batches = {1 << 20, 1 << 22},
                       .numBatches = 2,
                       .widths = {64, 128},
                       .numWidths = 2,
                       .reps = 10,
                       .mode = kForward | kTrain,
                       .trainBatches = {1 << 20},
                       .numTrainBatches = 1,
                       .checkBatch = 4099,
                       .trainSeconds = 5};
  for (int i = 1; i < argc; ++i) {
    if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
      usage(stdout);
      return 1;
    }
    if (strcmp(argv[i], "--self-test-cpu") == 0) {
      options->selfTest = true;
      continue;
    }
    if (!parseOption(argv[i], options)) {
      fprintf(stderr, "mlp-gpu: bad argument '%s'\n", argv[i]);
      usage(stderr);
      return -1;
    }
  }
  return 0;
}

//===----------------------------------------------------------------------===//
// The device
//===----------------------------------------------------------------------===//

static bool describeDevice(GpuDevice *device) {
  const CoopvecCUDADriver *driver = &device->driver;
  int major = 0, minor = 0;
  bool ok =
      gpuCheck(device, driver->cuDeviceGet(&device->device, device->ordinal),
               "cuDeviceGet") &&
      gpuCheck(device,
               driver->cuDeviceGetName(device->name, (int)sizeof(device->name),
                                       device->device),
               "cuDeviceGetName") &&
      gpuCheck(device,
               driver->cuDeviceGetAttribute(
                   &major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR,
                   device->device),
               "cuDeviceGetAttribute(COMPUTE_CAPABILITY_MAJOR)") &&
      gpuCheck(device,
               driver->cuDeviceGetAttribute(
                   &minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR,
                   device->device),
               "cuDeviceGetAttribute(COMPUTE_CAPABILITY_MINOR)") &&
      gpuCheck(device,
               driver->cuDeviceGetAttribute(
                   &device->multiprocessors,
                   CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, device->device),
               "cuDeviceGetAttribute(MULTIPROCESSOR_COUNT)");
  device->smVersion = 10 * major + minor;
  return ok;
}

/// Loads the driver, opens device `ordinal` and makes its primary context
/// current. Prints why not (the loader's reason without a driver).
static bool openDevice(GpuDevice *device, int ordinal) {
  memset(device, 0, sizeof(*device));
  device->ordinal = ordinal;
  CoopvecBuffer reason = {0};
  bool loaded = coopvecCUDADriverLoad(&device->driver, &reason);
  if (!loaded)
    fprintf(stderr, "mlp-gpu: %s\n", coopvecBufferStr(&reason));
  coopvecBufferFree(&reason);
  int count = 0;
  if (!loaded || !gpuCheck(device, device->driver.cuDeviceGetCount(&count),
                           "cuDeviceGetCount"))
    return false;
  if (ordinal >= count) {
    fprintf(stderr, "mlp-gpu: no CUDA device %d (the driver sees %d)\n",
            ordinal, count);
    return false;
  }
  if (!describeDevice(device) ||
      !gpuCheck(device,
                device->driver.cuDevicePrimaryCtxRetain(&device->context,
                                                        device->device),
                "cuDevicePrimaryCtxRetain"))
    return false;
  if (gpuCheck(device, device->driver.cuCtxPushCurrent(device->context),
               "cuCtxPushCurrent"))
    return true;
  device->driver.cuDevicePrimaryCtxRelease(device->device);
  device->context = NULL;
  return false;
}

static void closeDevice(GpuDevice *device) {
  CUcontext popped;
  if (!device->context)
    return;
  device->driver.cuCtxPopCurrent(&popped);
  device->driver.cuDevicePrimaryCtxRelease(device->device);
}

/// Dense FP16 tensor-core TFLOP/s (NVIDIA's data sheets: the sparse
/// figures halved) by device name; 0 if unknown. NVL boards are slower
/// than the SXM ones of the same name and are left out.
static double peakTflops(const char *name) {
  if (strstr(name, "NVL"))
    return 0;
  if (strstr(name, "H200"))
    return 989.4;
  if (strstr(name, "H100") && strstr(name, "PCIe"))
    return 756.0;
  if (strstr(name, "H100") && (strstr(name, "SXM") || strstr(name, "HBM3")))
    return 989.4;
  return 0;
}

//===----------------------------------------------------------------------===//
// Runs
//===----------------------------------------------------------------------===//

static const char *const kVariantNames[kVariants] = {
    "coopvec-mma", "coopvec-simt", "cublaslt"};

/// One variant's numbers for one (width, batch).
typedef struct Row {
  bool ran;
  const char *missing; // why there are no numbers (NULL if it ran)
  GpuTiming timing;
  double lowering, jit; // coopvec's compile seconds; < 0 for cuBLASLt
  GpuCheck check;
} Row;

typedef struct Result {
  int width;
  int64_t batch;
  double flops; // per pass
  Row rows[kVariants];
} Result;

typedef struct Bench {
  Options options;
  GpuDevice device;
  double peak; // dense FP16 TFLOP/s; 0: unknown
  char chip[32];
  char mmaPipeline[256]; // empty: the engine's default
  char simtPipeline[256];
  GpuCublasLt *cublasLt; // NULL: its rows are skipped
  bool failed;
  Result results[kMaxWidths * kMaxBatches];
  int numResults;
  GpuTrainResult trainResults[kMaxWidths * kMaxBatches];
  int numTrainResults;
} Bench;

/// The variants compiled for one width (NULL: it did not compile).
typedef struct Compiled {
  GpuCoopvec *coopvec[2]; // mma, simt
} Compiled;

static bool runVariant(Bench *bench, const Compiled *compiled, int variant,
                       const GpuProblem *problem, uint16_t *y, Row *row) {
  int reps = bench->options.reps;
  row->lowering = row->jit = -1;
  if (variant < 2) {
    GpuCoopvec *coopvec = compiled->coopvec[variant];
    if (!coopvec) {
      row->missing = "did not compile (see above)";
      return false;
    }
    gpuCoopvecCompileTimes(coopvec, &row->lowering, &row->jit);
    return gpuCoopvecRun(coopvec, problem, reps, y, &row->timing);
  }
  if (!bench->cublasLt) {
    row->missing = "skipped: cuBLASLt is not loaded (see above)";
    return true; // a missing library is no failure
  }
  return gpuCublasLtRun(bench->cublasLt, problem, reps, y, &row->timing);
}

static void runProblem(Bench *bench, const Compiled *compiled,
                       const GpuProblem *problem, uint16_t *y, Result *result) {
  for (int variant = 0; variant < kVariants; ++variant) {
    Row *row = &result->rows[variant];
    // NaN everywhere: outputs a variant did not write cannot pass.
    memset(y, 0xff, (size_t)problem->batch * GPU_MLP_OUTPUTS * sizeof(*y));
    bool ok = runVariant(bench, compiled, variant, problem, y, row);
    if (ok && !row->missing) {
      row->ran = true;
      gpuCheckOutputs(problem, y, &row->check);
      bench->failed |= !row->check.passed;
    } else if (!ok) {
      row->missing = row->missing ? row->missing : "failed (see above)";
      bench->failed = true;
    }
  }
}

//===----------------------------------------------------------------------===//
// Reports
//===----------------------------------------------------------------------===//

static double tflopsOf(const Result *result, const Row *row) {
  if (!row->ran || !(row->timing.medianMs > 0))
    return 0;
  return result->flops / (row->timing.medianMs * 1e-3) / 1e12;
}

static void printRow(const Bench *bench, const Result *result, int variant) {
  const Row *row = &result->rows[variant];
  if (!row->ran) {
    printf("  %-13s %s\n", kVariantNames[variant], row->missing);
    return;
  }
  char ms[32], tflops[32], pct[32], compile[64] = "-";
  double rate = tflopsOf(result, row);
  if (row->lowering >= 0)
    snprintf(compile, sizeof(compile), "%.1f (%.1f + %.1f)",
             1e3 * (row->lowering + row->jit), 1e3 * row->lowering,
             1e3 * row->jit);
  printf("  %-13s %10s %9s %7s  %-7s %-26s %9.2e %9.3f  %s\n",
         kVariantNames[variant],
         gpuFormatted(ms, sizeof(ms), "%.4f", row->timing.medianMs),
         gpuFormatted(tflops, sizeof(tflops), "%.2f", rate),
         gpuFormatted(pct, sizeof(pct), "%.1f",
                      bench->peak > 0 ? 100 * rate / bench->peak : 0),
         row->timing.timed, compile, row->check.maxError, row->check.worstRatio,
         row->check.passed ? "ok" : "FAIL");
  if (!row->check.passed)
    printf("    worst: sample %lld output %d: got %.6g, reference %.6g; "
           "%lld non-finite errors\n",
           (long long)row->check.worstSample, row->check.worstOutput,
           row->check.worstGot, row->check.worstReference,
           (long long)row->check.nonFinite);
}

static void printResult(const Bench *bench, const Result *result) {
  printf("\nwidth=%d batch=%lld: %.2f GFLOP per pass; each output checked "
         "on %lld samples (tolerance %g * max(1, |ref|))\n",
         result->width, (long long)result->batch, result->flops * 1e-9,
         (long long)gpuCheckedSamples(result->batch), GPU_MLP_TOLERANCE);
  printf("  %-13s %10s %9s %7s  %-7s %-26s %9s %9s  %s\n", "variant",
         "median ms", "TFLOP/s", "% peak", "timed", "compile ms (lower + JIT)",
         "max error", "err/tol", "check");
  for (int variant = 0; variant < kVariants; ++variant)
    printRow(bench, result, variant);
}

/// coopvec is coopvec-mma (the default compile); the baselines are
/// coopvec-simt and cublaslt.
static void printSummary(const Bench *bench, const Result *result) {
  double coopvec = tflopsOf(result, &result->rows[0]);
  int best = -1;
  for (int variant = 1; variant < kVariants; ++variant)
    if (tflopsOf(result, &result->rows[variant]) > 0 &&
        (best < 0 || tflopsOf(result, &result->rows[variant]) >
                         tflopsOf(result, &result->rows[best])))
      best = variant;
  double baseline = best < 0 ? 0 : tflopsOf(result, &result->rows[best]);
  char rate[32], pct[32], baselineRate[32], ratio[32];
  printf("summary: width=%d batch=%lld coopvec_tflops=%s peak_pct=%s "
         "best_baseline=%s best_baseline_tflops=%s ratio=%s\n",
         result->width, (long long)result->batch,
         gpuFormatted(rate, sizeof(rate), "%.2f", coopvec),
         gpuFormatted(pct, sizeof(pct), "%.1f",
                      bench->peak > 0 ? 100 * coopvec / bench->peak : 0),
         best < 0 ? "none" : kVariantNames[best],
         gpuFormatted(baselineRate, sizeof(baselineRate), "%.2f", baseline),
         gpuFormatted(ratio, sizeof(ratio), "%.3f",
                      baseline > 0 ? coopvec / baseline : 0));
}

//===----------------------------------------------------------------------===//
// The benchmark
//===----------------------------------------------------------------------===//

static int64_t largestBatch(const Options *options) {
  int64_t largest = 1; // batches are at least 1
  for (int i = 0; i < options->numBatches; ++i)
    largest = options->batches[i] > largest ? options->batches[i] : largest;
  return largest;
}

/// Compiles both coopvec variants once per width; runs every batch.
static void runWidth(Bench *bench, const GpuMlp *mlp, const uint16_t *x,
                     const uint16_t *w, uint16_t *y) {
  Compiled compiled;
  compiled.coopvec[0] = gpuCoopvecOpen(
      &bench->device, mlp, bench->mmaPipeline[0] ? bench->mmaPipeline : NULL);
  compiled.coopvec[1] =
      bench->simtPipeline[0]
          ? gpuCoopvecOpen(&bench->device, mlp, bench->simtPipeline)
          : NULL;
  bench->failed |= !compiled.coopvec[0] || !compiled.coopvec[1];
  for (int i = 0; i < bench->options.numBatches; ++i) {
    Result *result = &bench->results[bench->numResults++];
    GpuProblem problem = {mlp, bench->options.batches[i], x, w};
    result->width = mlp->width;
    result->batch = problem.batch;
    result->flops = gpuMlpFlopsPerSample(mlp) * (double)problem.batch;
    runProblem(bench, &compiled, &problem, y, result);
    printResult(bench, result);
  }
  gpuCoopvecClose(compiled.coopvec[0]);
  gpuCoopvecClose(compiled.coopvec[1]);
}

/// The data of one width: inputs for the largest batch (smaller batches
/// take a prefix), its weights, and room for the outputs.
static void runData(Bench *bench, int width) {
  GpuMlp mlp;
  gpuMlpInit(&mlp, width);
  size_t samples = (size_t)largestBatch(&bench->options);
  uint16_t *x = malloc(samples * GPU_MLP_INPUTS * sizeof(uint16_t));
  uint16_t *w = malloc((size_t)mlp.numWeights * sizeof(uint16_t));
  uint16_t *y = malloc(samples * GPU_MLP_OUTPUTS * sizeof(uint16_t));
  if (x && w && y) {
    gpuFillInputs(x, (int64_t)samples * GPU_MLP_INPUTS, 1);
    gpuFillWeights(&mlp, w, 1000 + (uint64_t)width);
    runWidth(bench, &mlp, x, w, y);
  } else {
    fprintf(stderr, "mlp-gpu: out of host memory for %zu samples\n", samples);
    bench->failed = true;
  }
  free(x);
  free(w);
  free(y);
}

/// The peak, the chip and the SIMT pipeline; prints the header.
static void describe(Bench *bench) {
  const GpuDevice *device = &bench->device;
  bench->peak = bench->options.peakTflops > 0 ? bench->options.peakTflops
                                              : peakTflops(device->name);
  const char *extra = bench->options.gpuOptions;
  if (coopvecNVPTXChipForDevice(device->smVersion, bench->chip,
                                sizeof(bench->chip))) {
    snprintf(bench->simtPipeline, sizeof(bench->simtPipeline),
             "builtin.module(coopvec-lower-to-nvvm{chip=%s binary=false "
             "matvec=simt%s%s})",
             bench->chip, extra ? " " : "", extra ? extra : "");
    if (extra)
      snprintf(bench->mmaPipeline, sizeof(bench->mmaPipeline),
               "builtin.module(coopvec-lower-to-nvvm{chip=%s binary=false "
               "%s})",
               bench->chip, extra);
  } else
    fprintf(stderr, "mlp-gpu: LLVM's NVPTX backend knows no chip for sm_%d\n",
            device->smVersion);
  printf("mlp-gpu: device %d: %s, compute capability %d.%d, %d SMs; dense "
         "FP16 tensor-core peak: ",
         device->ordinal, device->name, device->smVersion / 10,
         device->smVersion % 10, device->multiprocessors);
  if (bench->peak > 0)
    printf("%.1f TFLOP/s (%s)\n", bench->peak,
           bench->options.peakTflops > 0 ? "--peak-tflops" : "by name");
  else
    printf("unknown (pass --peak-tflops=X)\n");
  printf("mlp-gpu: MLP 32-W-W-W-W-16, ReLU after layers 1-4, f16 storage; "
         "median of %d timed runs\n",
         bench->options.reps);
  printf("coopvec-mma: %s\n", bench->mmaPipeline[0]
                                  ? bench->mmaPipeline
                                  : "the engine's default CUDA pipeline");
  printf("coopvec-simt: %s\n",
         bench->simtPipeline[0] ? bench->simtPipeline : "(no chip)");
}

/// The training steps of every width (GpuTrain.c).
static void runTraining(Bench *bench) {
  const Options *options = &bench->options;
  GpuTrainOptions train = {
      options->trainBatches, options->numTrainBatches,
      options->checkBatch,   options->reps,
      options->trainSeconds, bench->mmaPipeline[0] ? bench->mmaPipeline : NULL};
  printf("\ntraining: one step = the gradient of every weight and bias for "
         "dy (batch x 16, uniform in [-1, 1]): coopvec runs @mlp_reluW_grad "
         "(coopvec-autodiff, input-gradients=false; it recomputes the "
         "forward), cuBLASLt the forward and 9 backward GEMMs\n");
  for (int i = 0; i < options->numWidths; ++i) {
    GpuTrainResult *results = &bench->trainResults[bench->numTrainResults];
    bench->failed |= !gpuTrainWidth(&bench->device, bench->cublasLt, &train,
                                    options->widths[i], results);
    bench->numTrainResults += options->numTrainBatches;
  }
}

int main(int argc, char **argv) {
  static Bench bench; // large: off the stack
  int parsed = parseOptions(argc, argv, &bench.options);
  if (parsed)
    return parsed > 0 ? 0 : 2;
  // Lines in order with stderr's messages when both go to one file.
  setvbuf(stdout, NULL, _IOLBF, 0);
  if (bench.options.selfTest)
    return gpuSelfTestCpu();
  if (!openDevice(&bench.device, bench.options.device)) {
    closeDevice(&bench.device);
    return 1;
  }
  describe(&bench);
  bench.cublasLt = gpuCublasLtOpen(&bench.device);
  if (!bench.cublasLt)
    printf("cublaslt: skipped, its rows are empty (see above)\n");
  for (int i = 0;
       (bench.options.mode & kForward) && i < bench.options.numWidths; ++i)
    runData(&bench, bench.options.widths[i]);
  if (bench.options.mode & kTrain)
    runTraining(&bench);
  printf("\n");
  for (int i = 0; i < bench.numResults; ++i)
    printSummary(&bench, &bench.results[i]);
  for (int i = 0; i < bench.numTrainResults; ++i)
    gpuTrainPrintSummary(&bench.trainResults[i]);
  gpuCublasLtClose(bench.cublasLt);
  closeDevice(&bench.device);
  if (bench.failed)
    fprintf(stderr, "mlp-gpu: FAILED: a variant failed or exceeded the "
                    "error tolerance (see above)\n");
  return bench.failed ? 1 : 0;
}
