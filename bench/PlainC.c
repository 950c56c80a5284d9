//===- PlainC.c - The MLP as plain C loops --------------------------------===//
//
// The straightforward code a C programmer writes for one sample, left to the
// compiler (-O3 -march=native, no -ffast-math). Each output is a dot product
// over a row of W; without reassociation the compiler cannot vectorize that
// reduction, which is what this baseline shows. f16 data is widened to f32
// on the way in (the weights once, see MlpProblem.w32) and rounded on the
// way out; tanh is libm's tanhf. Its 1-thread output is the reference every
// other variant is checked against.
//
//===----------------------------------------------------------------------===//

#include "Bench.h"

#include <math.h>
#include <stddef.h>

static float activate(MlpActivation activation, float value) {
  if (activation == MLP_RELU)
    return value < 0.0f ? 0.0f : value;
  return tanhf(value);
}

static void denseLayer(const MlpLayer *layer, const float *w,
                       const float *input, float *output, int apply,
                       MlpActivation activation) {
  const float *matrix = w + layer->weightOffset;
  const float *bias = w + layer->biasOffset;
  for (int row = 0; row < layer->outputs; ++row) {
    float sum = bias[row];
    for (int col = 0; col < layer->inputs; ++col)
      sum += matrix[row * layer->inputs + col] * input[col];
    output[row] = apply ? activate(activation, sum) : sum;
  }
}

/// y = mlp(x) for one sample, in f32.
static void mlpSample(const MlpWorkload *workload, const float *w,
                      const float *x, float *y) {
  float ping[MLP_MAX_WIDTH], pong[MLP_MAX_WIDTH];
  const float *input = x;
  for (int l = 0; l < workload->numLayers; ++l) {
    int last = l == workload->numLayers - 1;
    float *output = last ? y : (l % 2 ? pong : ping);
    denseLayer(&workload->layers[l], w, input, output, !last,
               workload->activation);
    input = output;
  }
}

static void plainChunk(void *context, int thread, int64_t begin, int64_t end) {
  (void)thread;
  const MlpProblem *problem = context;
  const MlpWorkload *workload = problem->workload;
  int inputs = mlpInputs(workload), outputs = mlpOutputs(workload);
  for (int64_t i = begin; i < end; ++i) {
    if (workload->storage == MLP_F32) {
      mlpSample(workload, problem->w32, (const float *)problem->x + i * inputs,
                (float *)problem->y + i * outputs);
      continue;
    }
    float x[MLP_MAX_WIDTH], y[MLP_MAX_WIDTH];
    widenHalves((const uint16_t *)problem->x + i * inputs, x, inputs);
    mlpSample(workload, problem->w32, x, y);
    narrowFloats(y, (uint16_t *)problem->y + i * outputs, outputs);
  }
}

static void *plainCreate(const MlpProblem *problem, int tile) {
  (void)problem, (void)tile;
  return (void *)1; // stateless
}

static int plainRun(void *state, const MlpProblem *problem, int threads) {
  (void)state;
  return runParallel(threads, problem->batch, plainChunk, (void *)problem);
}

static void plainDestroy(void *state) { (void)state; }

const Variant plainCVariant = {"plain-c",    plainCreate, plainRun,
                               plainDestroy, 0,           NULL};
