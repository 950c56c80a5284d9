//===- PlainC.c - The MLP as plain C loops --------------------------------===//
//
// The straightforward code a C programmer writes for one sample, left to the
// compiler (-O3 -march=native, no -ffast-math). Each output is a dot product
// over a row of W; without reassociation the compiler cannot vectorize that
// reduction, which is what this baseline shows.
//
//===----------------------------------------------------------------------===//

#include "Bench.h"

// Inlined with constant sizes, so the compiler knows every trip count.
static inline void denseLayer(int inputs, int outputs, const float *matrix,
                              const float *bias, const float *input,
                              float *output, int applyRelu) {
  for (int row = 0; row < outputs; ++row) {
    float sum = bias[row];
    for (int col = 0; col < inputs; ++col)
      sum += matrix[row * inputs + col] * input[col];
    output[row] = applyRelu && sum < 0.0f ? 0.0f : sum;
  }
}

// Weight offsets as in mlpLayers (Common.c), spelled out as constants.
static void mlpSample(const float *w, const float *x, float *y) {
  float ping[MLP_MAX_WIDTH], pong[MLP_MAX_WIDTH];
  denseLayer(32, 64, w, w + 2048, x, ping, 1);
  denseLayer(64, 64, w + 2112, w + 6208, ping, pong, 1);
  denseLayer(64, 64, w + 6272, w + 10368, pong, ping, 1);
  denseLayer(64, 16, w + 10432, w + 11456, ping, y, 0);
}

static void plainChunk(void *context, int64_t begin, int64_t end) {
  const MlpProblem *problem = context;
  for (int64_t i = begin; i < end; ++i)
    mlpSample(problem->w, problem->x + i * MLP_INPUTS,
              problem->y + i * MLP_OUTPUTS);
}

int runPlainC(const MlpProblem *problem, int threads) {
  return runParallel(threads, problem->batch, plainChunk, (void *)problem);
}
