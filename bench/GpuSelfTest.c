//===- GpuSelfTest.c - bench/mlp-gpu's training step, checked on the CPU --===//
//
// The training step of bench/mlp-gpu has only minutes of GPU time to run
// right the first time. Everything in it that is not the GPU is checked
// here, on the engine's CPU target: the gradient module coopvec-autodiff
// makes at startup (the same gpuCoopvecOpenGradient), the argument order
// and the gradient buffer's layout (the same gpuCoopvecTrain), dy, the
// reference and the tolerance, at batches 1, 7, 33 and 4099. Then the
// check must refuse gradients laid out wrongly: one layer's W transposed,
// and one layer's b shifted by an element. Run by `mlp-gpu --self-test-cpu`
// and by bench/mlp-gpu-self-test (test/Integration/GPU).
//
//===----------------------------------------------------------------------===//

#include "MlpGpu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { kLargestBatch = 4099 };

/// The buffers of one width, for batches up to kLargestBatch.
typedef struct SelfTest {
  GpuMlp mlp;
  uint16_t *x, *w, *dy, *grad;
  GpuGradReference ref;
} SelfTest;

static void printCheck(const GpuMlp *mlp, const char *what,
                       const GpuGradCheck *check) {
  char where[64];
  gpuDescribeElement(mlp, check->worstIndex, where, sizeof(where));
  printf("%s: err/tol %.4f at %s (got %.6g, reference %.6g, allowed "
         "%.3g); %lld non-finite",
         what, check->worstRatio, where, check->worstGot, check->worstReference,
         check->worstAllowed, (long long)check->nonFinite);
}

/// Layer 1's W (square) transposed, and layer 3's b shifted by one: each
/// must fail the check of the correct `test->grad`.
static bool refusesWrongLayouts(SelfTest *test) {
  const GpuLayer *square = &test->mlp.layers[1], *biased = &test->mlp.layers[3];
  uint16_t *wrong = malloc((size_t)test->mlp.numWeights * sizeof(uint16_t));
  if (!wrong)
    return false;
  bool refused = true;
  for (int variant = 0; variant < 2; ++variant) {
    memcpy(wrong, test->grad, (size_t)test->mlp.numWeights * sizeof(uint16_t));
    int n = square->inputs;
    for (int r = 0; variant == 0 && r < n; ++r)
      for (int c = 0; c < n; ++c)
        wrong[square->weightOffset + (int64_t)r * n + c] =
            test->grad[square->weightOffset + (int64_t)c * n + r];
    for (int o = 0; variant == 1 && o < biased->outputs; ++o)
      wrong[biased->biasOffset + o] =
          test->grad[biased->biasOffset + (o + 1) % biased->outputs];
    GpuGradCheck check;
    gpuCheckGradients(&test->mlp, &test->ref, wrong, &check);
    char what[96];
    snprintf(what, sizeof(what), "self-test: width=%d: %s", test->mlp.width,
             variant == 0 ? "layer 1's dW transposed"
                          : "layer 3's db shifted by one");
    printCheck(&test->mlp, what, &check);
    printf(": %s\n", check.passed ? "NOT REFUSED" : "refused");
    refused = refused && !check.passed;
  }
  free(wrong);
  return refused;
}

static bool checkBatch(SelfTest *test, GpuCoopvec *coopvec, int64_t batch) {
  GpuTrainProblem problem = {&test->mlp, batch, test->x, test->w, test->dy};
  GpuTrainTiming timing;
  if (!gpuCoopvecTrain(coopvec, &problem, 1, 0, test->grad, &timing) ||
      !gpuGradientReference(&problem, &test->ref))
    return false;
  GpuGradCheck check;
  gpuCheckGradients(&test->mlp, &test->ref, test->grad, &check);
  char what[64];
  snprintf(what, sizeof(what), "self-test: width=%d batch=%lld",
           test->mlp.width, (long long)batch);
  printCheck(&test->mlp, what, &check);
  printf(": %s\n", check.passed ? "ok" : "FAIL");
  return check.passed;
}

static bool testWidth(SelfTest *test) {
  static const int64_t kBatches[] = {1, 7, 33, kLargestBatch};
  GpuCoopvec *coopvec = gpuCoopvecOpenGradient(NULL, &test->mlp, NULL);
  if (!coopvec)
    return false;
  bool ok = true;
  for (size_t i = 0; i < sizeof(kBatches) / sizeof(kBatches[0]); ++i)
    ok = checkBatch(test, coopvec, kBatches[i]) && ok;
  gpuCoopvecClose(coopvec);
  // test->grad and the reference are those of kLargestBatch.
  return refusesWrongLayouts(test) && ok;
}

/// The data as mlp-gpu draws it: the same seeds (runTrainData).
static bool testData(int width) {
  SelfTest test;
  gpuMlpInit(&test.mlp, width);
  size_t weights = (size_t)test.mlp.numWeights;
  test.x = malloc((size_t)kLargestBatch * GPU_MLP_INPUTS * sizeof(uint16_t));
  test.dy = malloc((size_t)kLargestBatch * GPU_MLP_OUTPUTS * sizeof(uint16_t));
  test.w = malloc(weights * sizeof(uint16_t));
  test.grad = malloc(weights * sizeof(uint16_t));
  test.ref.grad = malloc(weights * sizeof(double));
  test.ref.squares = malloc(weights * sizeof(double));
  test.ref.uncertain = malloc(weights * sizeof(double));
  bool ok = test.x && test.dy && test.w && test.grad && test.ref.grad &&
            test.ref.squares && test.ref.uncertain;
  if (ok) {
    gpuFillInputs(test.x, (int64_t)kLargestBatch * GPU_MLP_INPUTS, 1);
    gpuFillUpstream(test.dy, (int64_t)kLargestBatch * GPU_MLP_OUTPUTS);
    gpuFillWeights(&test.mlp, test.w, 1000 + (uint64_t)width);
    ok = testWidth(&test);
  } else
    fprintf(stderr, "mlp-gpu: out of host memory\n");
  free(test.x);
  free(test.dy);
  free(test.w);
  free(test.grad);
  free(test.ref.grad);
  free(test.ref.squares);
  free(test.ref.uncertain);
  return ok;
}

int gpuSelfTestCpu(void) {
  printf("self-test: coopvec-autodiff's gradient of bench/mlp-gpu.mlir on "
         "the CPU target against the host reference (tolerance %g * "
         "max(rss, rss_p / 2))\n",
         GPU_MLP_GRAD_TOLERANCE);
  bool ok = testData(64);
  ok = testData(128) && ok;
  printf("self-test: %s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
