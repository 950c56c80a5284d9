//===- GpuTrainData.c - The training step's reference of bench/mlp-gpu ----===//
//
// The gradients of one training step in plain C and double precision,
// independent of coopvec's and cuBLASLt's code: per sample the forward
// (keeping each layer's input and pre-activation), then the backward from
// dy, every term added into the gradient and its square into the sums the
// tolerance is made of (GPU_MLP_GRAD_TOLERANCE).
//
//===----------------------------------------------------------------------===//

#include "MlpGpu.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void gpuFillUpstream(uint16_t *dy, int64_t count) {
  gpuFillInputs(dy, count, 3); // the inputs use seed 1
}

double gpuTrainFlopsPerSample(const GpuMlp *mlp) {
  const GpuLayer *first = &mlp->layers[0];
  return 3 * gpuMlpFlopsPerSample(mlp) - 2.0 * first->inputs * first->outputs;
}

//===----------------------------------------------------------------------===//
// The reference
//===----------------------------------------------------------------------===//

static double roundHalf(double value) {
  return gpuHalfToDouble(gpuDoubleToHalf(value));
}

/// d max(z, 0) / dz as coopvec-autodiff defines it: 1/2 at the tie z == 0.
static double reluDerivative(double z) { return z > 0 ? 1 : z < 0 ? 0 : 0.5; }

/// Whether a device may put z on the other side of ReLU's threshold.
static bool nearThreshold(int l, const GpuSample *s, int o) {
  return l + 1 < GPU_MLP_LAYERS && fabs(s->z[l][o]) < GPU_MLP_RELU_MARGIN;
}

/// Adds layer l's terms: dW[o][j] += dz[o] in[j], db[o] += dz[o].
static void addTerms(const GpuMlp *mlp, int l, const GpuSample *s,
                     const double *dz, const GpuGradReference *ref) {
  const GpuLayer *layer = &mlp->layers[l];
  for (int o = 0; o < layer->outputs; ++o) {
    int64_t row = layer->weightOffset + (int64_t)o * layer->inputs;
    bool uncertain = nearThreshold(l, s, o);
    for (int j = 0; j < layer->inputs; ++j) {
      double term = dz[o] * s->in[l][j];
      ref->grad[row + j] += term;
      ref->squares[row + j] += term * term;
      ref->uncertain[row + j] += uncertain ? fabs(term) : 0;
    }
    int64_t bias = layer->biasOffset + o;
    ref->grad[bias] += dz[o];
    ref->squares[bias] += dz[o] * dz[o];
    ref->uncertain[bias] += uncertain ? fabs(dz[o]) : 0;
  }
}

/// dz of layer l - 1 from layer l's: f16(W^T dz), as the transposed matvec
/// (and cuBLASLt's dgrad) rounds it, times ReLU's derivative (exact: 0,
/// 1/2 or 1, rounded again as coopvec.mul's f16 result is).
static void backwardLayer(const GpuMlp *mlp, const double *w, int l,
                          const GpuSample *s, const double *dz, double *below) {
  const GpuLayer *layer = &mlp->layers[l];
  double sums[GPU_MLP_MAX_WIDTH] = {0};
  for (int o = 0; o < layer->outputs; ++o) {
    const double *row = w + layer->weightOffset + (int64_t)o * layer->inputs;
    for (int j = 0; j < layer->inputs; ++j)
      sums[j] += row[j] * dz[o];
  }
  for (int j = 0; j < layer->inputs; ++j)
    below[j] = roundHalf(roundHalf(sums[j]) * reluDerivative(s->z[l - 1][j]));
}

/// The terms of every sample; `w` is the weights in double.
static void addSamples(const GpuTrainProblem *problem, const double *w,
                       const GpuGradReference *ref) {
  const GpuMlp *mlp = problem->mlp;
  static GpuSample s; // 10 KiB: off the stack
  double dz[GPU_MLP_MAX_WIDTH], below[GPU_MLP_MAX_WIDTH];
  for (int64_t sample = 0; sample < problem->batch; ++sample) {
    gpuForwardSample(mlp, w, problem->x + sample * GPU_MLP_INPUTS, &s);
    for (int o = 0; o < GPU_MLP_OUTPUTS; ++o)
      dz[o] = gpuHalfToDouble(problem->dy[sample * GPU_MLP_OUTPUTS + o]);
    for (int l = GPU_MLP_LAYERS - 1; l >= 0; --l) {
      addTerms(mlp, l, &s, dz, ref);
      if (l == 0)
        break; // the inputs need no gradient
      backwardLayer(mlp, w, l, &s, dz, below);
      memcpy(dz, below, sizeof(double) * (size_t)mlp->layers[l].inputs);
    }
  }
}

bool gpuGradientReference(const GpuTrainProblem *problem,
                          const GpuGradReference *ref) {
  size_t bytes = (size_t)problem->mlp->numWeights * sizeof(double);
  double *w = gpuWeightsToDouble(problem->mlp, problem->w);
  if (!w)
    return false;
  memset(ref->grad, 0, bytes);
  memset(ref->squares, 0, bytes);
  memset(ref->uncertain, 0, bytes);
  addSamples(problem, w, ref);
  free(w);
  return true;
}

//===----------------------------------------------------------------------===//
// The check
//===----------------------------------------------------------------------===//

/// The root mean square of sqrt(squares) over [begin, end): rss_p.
static double parameterRss(const double *squares, int64_t begin, int64_t end) {
  double sum = 0;
  for (int64_t e = begin; e < end; ++e)
    sum += squares[e];
  return sqrt(sum / (double)(end - begin));
}

/// Checks the elements [begin, end) of one parameter.
static void checkParameter(const GpuGradReference *ref, const uint16_t *got,
                           int64_t begin, int64_t end, GpuGradCheck *check) {
  double floor = parameterRss(ref->squares, begin, end) / 2;
  for (int64_t e = begin; e < end; ++e) {
    double value = gpuHalfToDouble(got[e]);
    double error = fabs(value - ref->grad[e]);
    double allowed =
        GPU_MLP_GRAD_TOLERANCE * fmax(sqrt(ref->squares[e]), floor) +
        ref->uncertain[e];
    double ratio = error == 0 ? 0 : error / allowed; // allowed 0: infinite
    if (!isfinite(value)) {
      ++check->nonFinite;
      ratio = INFINITY;
    }
    if (ratio > check->worstRatio || check->elements == 0) {
      check->worstRatio = ratio;
      check->worstIndex = e;
      check->worstGot = value;
      check->worstReference = ref->grad[e];
      check->worstAllowed = allowed;
    }
    ++check->elements;
  }
}

void gpuCheckGradients(const GpuMlp *mlp, const GpuGradReference *ref,
                       const uint16_t *got, GpuGradCheck *check) {
  memset(check, 0, sizeof(*check));
  for (int l = 0; l < GPU_MLP_LAYERS; ++l) {
    const GpuLayer *layer = &mlp->layers[l];
    checkParameter(ref, got, layer->weightOffset, layer->biasOffset, check);
    checkParameter(ref, got, layer->biasOffset,
                   layer->biasOffset + layer->outputs, check);
  }
  check->passed = check->worstRatio <= 1.0 && check->nonFinite == 0;
}

int64_t gpuCountNonFinite(const uint16_t *got, int64_t count) {
  int64_t nonFinite = 0;
  for (int64_t e = 0; e < count; ++e)
    nonFinite += (got[e] & 0x7c00) == 0x7c00; // exponent all ones
  return nonFinite;
}

void gpuDescribeElement(const GpuMlp *mlp, int64_t index, char *text,
                        size_t size) {
  for (int l = 0; l < GPU_MLP_LAYERS; ++l) {
    const GpuLayer *layer = &mlp->layers[l];
    int64_t inWeights = index - layer->weightOffset;
    int64_t inBias = index - layer->biasOffset;
    if (inWeights >= 0 && index < layer->biasOffset) {
      snprintf(text, size, "layer %d W[%lld][%lld]", l,
               (long long)(inWeights / layer->inputs),
               (long long)(inWeights % layer->inputs));
      return;
    }
    if (inBias >= 0 && inBias < layer->outputs) {
      snprintf(text, size, "layer %d b[%lld]", l, (long long)inBias);
      return;
    }
  }
  snprintf(text, size, "element %lld", (long long)index);
}
