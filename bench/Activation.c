//===- Activation.c - Bias + activation passes of the baselines -----------===//
//
// What a framework's bias kernel does after a GEMM: v = act(v + b) over a
// rows x width block. Built with -O3 -march=native -ffast-math (see
// bench/CMakeLists.txt) so that gcc vectorizes it, tanhf included: glibc's
// libmvec provides the vector tanhf (_ZGVdN8v_tanhf on AVX2), about 4 ulp.
// ReLU is branch-free, so random signs cost no mispredictions.
//
//===----------------------------------------------------------------------===//

#include "Bench.h"

#include <math.h>

static void reluRows(float *values, int64_t rows, int width,
                     const float *bias) {
  for (int64_t i = 0; i < rows; ++i) {
    float *row = values + i * width;
    for (int j = 0; j < width; ++j) {
      float value = row[j] + bias[j];
      row[j] = value > 0.0f ? value : 0.0f;
    }
  }
}

static void tanhRows(float *values, int64_t rows, int width,
                     const float *bias) {
  for (int64_t i = 0; i < rows; ++i) {
    float *row = values + i * width;
    for (int j = 0; j < width; ++j)
      row[j] = tanhf(row[j] + bias[j]);
  }
}

static void biasRows(float *values, int64_t rows, int width,
                     const float *bias) {
  for (int64_t i = 0; i < rows; ++i) {
    float *row = values + i * width;
    for (int j = 0; j < width; ++j)
      row[j] += bias[j];
  }
}

void biasActivation(float *values, int64_t rows, int width, const float *bias,
                    int activate, MlpActivation activation) {
  if (!activate)
    biasRows(values, rows, width, bias);
  else if (activation == MLP_RELU)
    reluRows(values, rows, width, bias);
  else
    tanhRows(values, rows, width, bias);
}
