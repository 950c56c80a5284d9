//===- GpuTrain.c - bench/mlp-gpu's training step: checks and tables ------===//
//
// Per width: coopvec's gradient (@mlp_reluW_grad, made by coopvec-autodiff
// with input-gradients=false, GpuCoopvec.c) and cuBLASLt's forward and
// backward GEMMs (GpuCublasLtTrain.c) run one step at the check batch
// (default 4099), whose gradients are checked in full against the host
// reference (GpuTrainData.c); then every timed batch, for the variants
// that passed, with a table each. A variant that fails or is wrong gets no
// time: gradients are sums over the batch, so a large batch cannot be
// checked on the host in reasonable time, but its gradient must at least
// be finite.
//
//===----------------------------------------------------------------------===//

#include "MlpGpu.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const kVariantNames[GPU_TRAIN_VARIANTS] = {"coopvec",
                                                              "cublaslt"};

/// One width's data, for the largest of its batches.
typedef struct TrainData {
  GpuMlp mlp;
  uint16_t *x, *w, *dy, *grad;
  GpuGradReference ref;
} TrainData;

typedef struct Train {
  const GpuTrainOptions *options;
  GpuCoopvec *coopvec; // NULL: it did not compile
  GpuCublasLt *lt;     // NULL: not loaded
  TrainData data;
  GpuTrainRow checked[GPU_TRAIN_VARIANTS]; // at the check batch
} Train;

//===----------------------------------------------------------------------===//
// Data
//===----------------------------------------------------------------------===//

static int64_t largestBatch(const GpuTrainOptions *options) {
  int64_t largest = options->checkBatch;
  for (int i = 0; i < options->numBatches; ++i)
    largest = options->batches[i] > largest ? options->batches[i] : largest;
  return largest;
}

static void freeData(TrainData *data) {
  free(data->x);
  free(data->w);
  free(data->dy);
  free(data->grad);
  free(data->ref.grad);
  free(data->ref.squares);
  free(data->ref.uncertain);
}

/// Inputs and weights as the forward draws them (mlp-gpu.c), and dy.
static bool makeData(TrainData *data, int width, int64_t samples) {
  memset(data, 0, sizeof(*data));
  gpuMlpInit(&data->mlp, width);
  size_t weights = (size_t)data->mlp.numWeights, count = (size_t)samples;
  data->x = malloc(count * GPU_MLP_INPUTS * sizeof(uint16_t));
  data->dy = malloc(count * GPU_MLP_OUTPUTS * sizeof(uint16_t));
  data->w = malloc(weights * sizeof(uint16_t));
  data->grad = malloc(weights * sizeof(uint16_t));
  data->ref.grad = malloc(weights * sizeof(double));
  data->ref.squares = malloc(weights * sizeof(double));
  data->ref.uncertain = malloc(weights * sizeof(double));
  if (!data->x || !data->dy || !data->w || !data->grad || !data->ref.grad ||
      !data->ref.squares || !data->ref.uncertain) {
    fprintf(stderr, "mlp-gpu: out of host memory for %lld samples\n",
            (long long)samples);
    return false;
  }
  gpuFillInputs(data->x, samples * GPU_MLP_INPUTS, 1);
  gpuFillUpstream(data->dy, samples * GPU_MLP_OUTPUTS);
  gpuFillWeights(&data->mlp, data->w, 1000 + (uint64_t)width);
  return true;
}

//===----------------------------------------------------------------------===//
// Runs
//===----------------------------------------------------------------------===//

/// One variant's steps on `problem`; `grad` gets the last step's gradient.
static bool runVariant(Train *train, int variant,
                       const GpuTrainProblem *problem, int reps,
                       double maxSeconds, GpuTrainRow *row) {
  row->lowering = row->jit = -1;
  // NaN everywhere: elements a variant did not write cannot pass.
  memset(train->data.grad, 0xff,
         (size_t)train->data.mlp.numWeights * sizeof(uint16_t));
  if (variant == 0) {
    if (!train->coopvec) {
      row->missing = "did not compile (see above)";
      return false;
    }
    gpuCoopvecCompileTimes(train->coopvec, &row->lowering, &row->jit);
    return gpuCoopvecTrain(train->coopvec, problem, reps, maxSeconds,
                           train->data.grad, &row->timing);
  }
  if (!train->lt) {
    row->missing = "skipped: cuBLASLt is not loaded (see above)";
    return true; // a missing library is no failure
  }
  return gpuCublasLtTrain(train->lt, problem, reps, maxSeconds,
                          train->data.grad, &row->timing);
}

static void printCheck(const TrainData *data, int variant,
                       const GpuTrainRow *row) {
  const GpuGradCheck *check = &row->check;
  char where[64];
  gpuDescribeElement(&data->mlp, check->worstIndex, where, sizeof(where));
  char compiled[64] = "";
  if (row->lowering >= 0)
    snprintf(compiled, sizeof(compiled), " (compiled in %.1f + %.1f ms)",
             1e3 * row->lowering, 1e3 * row->jit);
  printf("  %-9s err/tol %.4f, worst at %s: got %.6g, reference %.6g, "
         "allowed %.3g; %lld non-finite: %s%s\n",
         kVariantNames[variant], check->worstRatio, where, check->worstGot,
         check->worstReference, check->worstAllowed,
         (long long)check->nonFinite, check->passed ? "ok" : "FAIL", compiled);
}

/// One step of each variant at the check batch against the reference.
static bool checkVariants(Train *train) {
  TrainData *data = &train->data;
  GpuTrainProblem problem = {&data->mlp, train->options->checkBatch, data->x,
                             data->w, data->dy};
  printf("\ntrain width=%d: gradients of one step at batch %lld against the "
         "reference (tolerance %g * max(rss, rss_p / 2) + uncertain)\n",
         data->mlp.width, (long long)problem.batch, GPU_MLP_GRAD_TOLERANCE);
  if (!gpuGradientReference(&problem, &data->ref))
    return false;
  bool ok = true;
  for (int variant = 0; variant < GPU_TRAIN_VARIANTS; ++variant) {
    GpuTrainRow *row = &train->checked[variant];
    if (!runVariant(train, variant, &problem, 1, 0, row)) {
      row->missing = row->missing ? row->missing : "failed (see above)";
      printf("  %-9s %s\n", kVariantNames[variant], row->missing);
      ok = false;
    } else if (row->missing)
      printf("  %-9s %s\n", kVariantNames[variant], row->missing);
    else {
      gpuCheckGradients(&data->mlp, &data->ref, data->grad, &row->check);
      row->ran = true;
      printCheck(data, variant, row);
      ok = ok && row->check.passed;
    }
  }
  return ok;
}

/// Times one variant at one batch, if it passed the check.
static bool timeVariant(Train *train, int variant,
                        const GpuTrainProblem *problem, GpuTrainRow *row) {
  const GpuTrainRow *checked = &train->checked[variant];
  *row = *checked;
  row->ran = false;
  if (!checked->ran || !checked->check.passed) {
    row->missing = checked->missing ? checked->missing
                                    : "not timed: its gradient is wrong";
    return true; // the check failed already
  }
  const GpuTrainOptions *options = train->options;
  if (!runVariant(train, variant, problem, options->reps, options->maxSeconds,
                  row)) {
    row->missing = row->missing ? row->missing : "failed (see above)";
    return false;
  }
  if (row->missing)
    return true;
  row->nonFinite =
      gpuCountNonFinite(train->data.grad, train->data.mlp.numWeights);
  row->ran = row->nonFinite == 0;
  row->missing = row->ran ? NULL : "not timed: non-finite gradient";
  return row->ran;
}

//===----------------------------------------------------------------------===//
// Tables
//===----------------------------------------------------------------------===//

static void printRow(const GpuTrainResult *result, int variant) {
  const GpuTrainRow *row = &result->rows[variant];
  if (!row->ran) {
    printf("  %-9s %s\n", kVariantNames[variant], row->missing);
    return;
  }
  char ms[32], tflops[32], back[32], compile[64] = "-";
  if (row->lowering >= 0)
    snprintf(compile, sizeof(compile), "%.1f (%.1f + %.1f)",
             1e3 * (row->lowering + row->jit), 1e3 * row->lowering,
             1e3 * row->jit);
  double rate = result->flops / (row->timing.stepMs * 1e-3) / 1e12;
  printf("  %-9s %10s %9s %11s  %-7s %4d  %-26s %9.4f  ok\n",
         kVariantNames[variant],
         gpuFormatted(ms, sizeof(ms), "%.4f", row->timing.stepMs),
         gpuFormatted(tflops, sizeof(tflops), "%.2f", rate),
         gpuFormatted(back, sizeof(back), "%.4f", row->timing.backwardMs),
         row->timing.timed, row->timing.reps, compile, row->check.worstRatio);
}

static void printResult(const GpuTrainResult *result, int64_t checkBatch) {
  printf("\ntrain width=%d batch=%lld: %.2f GFLOP per step (the forward, "
         "all weight gradients, input gradients of layers 1-4); gradients "
         "checked at batch %lld\n",
         result->width, (long long)result->batch, result->flops * 1e-9,
         (long long)checkBatch);
  printf("  %-9s %10s %9s %11s  %-7s %4s  %-26s %9s  %s\n", "variant",
         "step ms", "TFLOP/s", "backward ms", "timed", "reps",
         "compile ms (lower + JIT)", "err/tol", "check");
  for (int variant = 0; variant < GPU_TRAIN_VARIANTS; ++variant)
    printRow(result, variant);
}

void gpuTrainPrintSummary(const GpuTrainResult *result) {
  const GpuTrainRow *coopvec = &result->rows[0], *lt = &result->rows[1];
  double mine = coopvec->ran ? coopvec->timing.stepMs : 0;
  double theirs = lt->ran ? lt->timing.stepMs : 0;
  char a[32], b[32], c[32], ratio[32];
  printf(
      "summary: train width=%d batch=%lld coopvec_step_ms=%s "
      "cublaslt_step_ms=%s cublaslt_backward_ms=%s ratio=%s\n",
      result->width, (long long)result->batch,
      gpuFormatted(a, sizeof(a), "%.4f", mine),
      gpuFormatted(b, sizeof(b), "%.4f", theirs),
      gpuFormatted(c, sizeof(c), "%.4f", lt->ran ? lt->timing.backwardMs : 0),
      gpuFormatted(ratio, sizeof(ratio), "%.3f",
                   mine > 0 && theirs > 0 ? theirs / mine : 0));
}

//===----------------------------------------------------------------------===//
// One width
//===----------------------------------------------------------------------===//

static bool timeBatches(Train *train, GpuTrainResult *results) {
  const GpuTrainOptions *options = train->options;
  TrainData *data = &train->data;
  bool ok = true;
  for (int i = 0; i < options->numBatches; ++i) {
    GpuTrainResult *result = &results[i];
    GpuTrainProblem problem = {&data->mlp, options->batches[i], data->x,
                               data->w, data->dy};
    memset(result, 0, sizeof(*result));
    result->width = data->mlp.width;
    result->batch = problem.batch;
    result->flops = gpuTrainFlopsPerSample(&data->mlp) * (double)problem.batch;
    for (int variant = 0; variant < GPU_TRAIN_VARIANTS; ++variant)
      ok = timeVariant(train, variant, &problem, &result->rows[variant]) && ok;
    printResult(result, options->checkBatch);
  }
  return ok;
}

/// Rows without numbers, for a width whose data could not be made.
static void markMissing(const GpuTrainOptions *options, int width,
                        GpuTrainResult *results) {
  for (int i = 0; i < options->numBatches; ++i) {
    memset(&results[i], 0, sizeof(results[i]));
    results[i].width = width;
    results[i].batch = options->batches[i];
    for (int variant = 0; variant < GPU_TRAIN_VARIANTS; ++variant)
      results[i].rows[variant].missing = "out of host memory";
  }
}

bool gpuTrainWidth(const GpuDevice *device, GpuCublasLt *lt,
                   const GpuTrainOptions *options, int width,
                   GpuTrainResult *results) {
  Train train;
  memset(&train, 0, sizeof(train));
  train.options = options;
  train.lt = lt;
  bool ok = makeData(&train.data, width, largestBatch(options));
  if (ok) {
    train.coopvec =
        gpuCoopvecOpenGradient(device, &train.data.mlp, options->pipeline);
    ok = checkVariants(&train); // fails without coopvec
    ok = timeBatches(&train, results) && ok;
  } else
    markMissing(options, width, results);
  gpuCoopvecClose(train.coopvec);
  freeData(&train.data);
  return ok;
}
