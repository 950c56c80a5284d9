//===- GpuData.c - Inputs, weights and the reference of bench/mlp-gpu -----===//
//
// The data is drawn from a fixed seed, so every run and every variant sees
// the same numbers. The reference is plain C in double precision with its
// own f16 conversions, independent of coopvec's code.
//
//===----------------------------------------------------------------------===//

#include "MlpGpu.h"
#include "Timing.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

//===----------------------------------------------------------------------===//
// f16
//===----------------------------------------------------------------------===//

double gpuHalfToDouble(uint16_t half) {
  int sign = half >> 15, exponent = (half >> 10) & 0x1f,
      mantissa = half & 0x3ff;
  double magnitude;
  if (exponent == 0x1f)
    magnitude = mantissa ? NAN : INFINITY;
  else if (exponent == 0) // subnormal: mantissa * 2^-24
    magnitude = ldexp(mantissa, -24);
  else
    magnitude = ldexp(1024 + mantissa, exponent - 25);
  return sign ? -magnitude : magnitude;
}

/// Round to nearest even, with overflow to infinity and gradual underflow.
uint16_t gpuDoubleToHalf(double value) {
  uint16_t sign = signbit(value) ? 0x8000 : 0;
  double magnitude = fabs(value);
  if (isnan(value))
    return 0x7e00;
  if (magnitude >= 65520.0) // halfway between 65504 and 2^16 rounds up
    return sign | 0x7c00;
  int exponent;
  frexp(magnitude, &exponent); // magnitude = f * 2^exponent, f in [0.5, 1)
  // The unit in the last place: 2^(exponent - 11), at least 2^-24.
  int ulp = exponent - 11 < -24 ? -24 : exponent - 11;
  double units = nearbyint(ldexp(magnitude, -ulp)); // ties to even
  double rounded = ldexp(units, ulp);
  if (rounded == 0)
    return sign;
  int e;
  frexp(rounded, &e);
  if (e - 1 < -14) // subnormal: the units are the mantissa
    return sign | (uint16_t)units;
  uint16_t mantissa = (uint16_t)(ldexp(rounded, 11 - e) - 1024);
  return sign | (uint16_t)((e - 1 + 15) << 10) | mantissa;
}

//===----------------------------------------------------------------------===//
// The MLP
//===----------------------------------------------------------------------===//

// The layout of bench/mlp-gpu.mlir: per layer W (out x in), then b (out).
void gpuMlpInit(GpuMlp *mlp, int width) {
  const int inputs[GPU_MLP_LAYERS] = {GPU_MLP_INPUTS, width, width, width,
                                      width};
  const int outputs[GPU_MLP_LAYERS] = {width, width, width, width,
                                       GPU_MLP_OUTPUTS};
  memset(mlp, 0, sizeof(*mlp));
  mlp->width = width;
  snprintf(mlp->function, sizeof(mlp->function), "mlp_relu%d", width);
  int64_t offset = 0;
  for (int i = 0; i < GPU_MLP_LAYERS; ++i) {
    GpuLayer *layer = &mlp->layers[i];
    layer->inputs = inputs[i];
    layer->outputs = outputs[i];
    layer->weightOffset = offset;
    layer->biasOffset = offset + (int64_t)inputs[i] * outputs[i];
    offset = layer->biasOffset + outputs[i];
  }
  mlp->numWeights = offset;
}

double gpuMlpFlopsPerSample(const GpuMlp *mlp) {
  double flops = 0;
  for (int i = 0; i < GPU_MLP_LAYERS; ++i)
    flops += 2.0 * mlp->layers[i].inputs * mlp->layers[i].outputs;
  return flops;
}

//===----------------------------------------------------------------------===//
// Data
//===----------------------------------------------------------------------===//

/// Uniform in [-bound, bound], rounded to f16.
static uint16_t uniformHalf(uint64_t *state, double bound) {
  double unit = (double)(benchSplitMix64(state) >> 11) * 0x1p-53; // [0, 1)
  return gpuDoubleToHalf((2 * unit - 1) * bound);
}

void gpuFillInputs(uint16_t *x, int64_t count, uint64_t seed) {
  uint64_t state = seed;
  for (int64_t i = 0; i < count; ++i)
    x[i] = uniformHalf(&state, 1.0);
}

/// Weights uniform in +-1/sqrt(in) (activations keep their scale through
/// the layers), biases in +-0.1.
void gpuFillWeights(const GpuMlp *mlp, uint16_t *w, uint64_t seed) {
  uint64_t state = seed;
  for (int i = 0; i < GPU_MLP_LAYERS; ++i) {
    const GpuLayer *layer = &mlp->layers[i];
    double bound = 1.0 / sqrt((double)layer->inputs);
    for (int64_t j = 0; j < (int64_t)layer->inputs * layer->outputs; ++j)
      w[layer->weightOffset + j] = uniformHalf(&state, bound);
    for (int j = 0; j < layer->outputs; ++j)
      w[layer->biasOffset + j] = uniformHalf(&state, 0.1);
  }
}

//===----------------------------------------------------------------------===//
// The reference
//===----------------------------------------------------------------------===//

/// The outputs of one sample. Each layer's outputs are rounded to f16, as
/// cuBLASLt stores them and as an f16 matvec result is (docs/dialect.md:
/// f16 products accumulate in f32 and round once at the end); a target
/// that keeps f32 between layers differs by that rounding, well within
/// the tolerance.
double *gpuWeightsToDouble(const GpuMlp *mlp, const uint16_t *w) {
  double *copy = malloc(sizeof(double) * (size_t)mlp->numWeights);
  if (!copy) {
    fprintf(stderr, "mlp-gpu: out of host memory\n");
    return NULL;
  }
  for (int64_t e = 0; e < mlp->numWeights; ++e)
    copy[e] = gpuHalfToDouble(w[e]);
  return copy;
}

void gpuForwardSample(const GpuMlp *mlp, const double *w, const uint16_t *x,
                      GpuSample *s) {
  for (int j = 0; j < GPU_MLP_INPUTS; ++j)
    s->in[0][j] = gpuHalfToDouble(x[j]);
  for (int l = 0; l < GPU_MLP_LAYERS; ++l) {
    const GpuLayer *layer = &mlp->layers[l];
    for (int o = 0; o < layer->outputs; ++o) {
      const double *row = w + layer->weightOffset + (int64_t)o * layer->inputs;
      double sum = w[layer->biasOffset + o];
      for (int j = 0; j < layer->inputs; ++j)
        sum += row[j] * s->in[l][j];
      s->z[l][o] = gpuHalfToDouble(gpuDoubleToHalf(sum));
      if (l + 1 < GPU_MLP_LAYERS) // ReLU
        s->in[l + 1][o] = s->z[l][o] > 0 ? s->z[l][o] : 0;
    }
  }
}

/// Checks one sample's outputs against the forward in double with the
/// weights `w` (`s`: scratch); updates the worst error.
static void checkSample(const GpuProblem *problem, const double *w,
                        const uint16_t *y, int64_t sample, GpuSample *s,
                        GpuCheck *check) {
  gpuForwardSample(problem->mlp, w, problem->x + sample * GPU_MLP_INPUTS, s);
  const double *reference = s->z[GPU_MLP_LAYERS - 1];
  for (int o = 0; o < GPU_MLP_OUTPUTS; ++o) {
    double got = gpuHalfToDouble(y[sample * GPU_MLP_OUTPUTS + o]);
    double error = fabs(got - reference[o]);
    double allowed = GPU_MLP_TOLERANCE * fmax(1.0, fabs(reference[o]));
    // A NaN or an infinity is an error no tolerance covers.
    double ratio = isfinite(error) ? error / allowed : INFINITY;
    if (isfinite(error))
      check->maxError = fmax(check->maxError, error);
    else
      ++check->nonFinite;
    if (ratio > check->worstRatio) {
      check->worstRatio = ratio;
      check->worstSample = sample;
      check->worstOutput = o;
      check->worstGot = got;
      check->worstReference = reference[o];
    }
  }
  ++check->samples;
}

/// The first 4096 samples and the last 37 (a partial warp and block when
/// the batch is not a multiple of 32): [0, head) and [tail, batch).
static void checkedRange(int64_t batch, int64_t *head, int64_t *tail) {
  *head = batch < 4096 ? batch : 4096;
  *tail = batch - 37 > *head ? batch - 37 : *head;
}

int64_t gpuCheckedSamples(int64_t batch) {
  int64_t head, tail;
  checkedRange(batch, &head, &tail);
  return head + batch - tail;
}

void gpuCheckOutputs(const GpuProblem *problem, const uint16_t *y,
                     GpuCheck *check) {
  memset(check, 0, sizeof(*check));
  double *w = gpuWeightsToDouble(problem->mlp, problem->w);
  if (!w)
    return; // not passed
  GpuSample s;
  int64_t head, tail;
  checkedRange(problem->batch, &head, &tail);
  for (int64_t sample = 0; sample < head; ++sample)
    checkSample(problem, w, y, sample, &s, check);
  for (int64_t sample = tail; sample < problem->batch; ++sample)
    checkSample(problem, w, y, sample, &s, check);
  free(w);
  check->passed = check->worstRatio <= 1.0;
}

const char *gpuFormatted(char *text, size_t size, const char *format,
                         double value) {
  if (value > 0 && isfinite(value))
    snprintf(text, size, format, value);
  else
    snprintf(text, size, "n/a");
  return text;
}
