// Driver for emit-obj-mlp.mlir: calls the batched entry point of the MLP
// compiled to a native object by `coopvec-opt --emit=obj` and compares it
// with an independent double-precision reference in plain C. It links
// against nothing but libc and libm.

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

// A rank-1 memref descriptor, as convert-func-to-llvm passes it to the
// _mlir_ciface_ wrapper (docs/execution-model.md).
typedef struct {
  float *allocated;
  float *aligned;
  int64_t offset;
  int64_t sizes[1];
  int64_t strides[1];
} MemRef1D;

void _mlir_ciface_mlp_batched(int64_t n, MemRef1D *x, MemRef1D *w, MemRef1D *y);

// The buffer layout of @mlp: W1 17x3 row-major, b1, W2 7x17 col-major at a
// 16-byte aligned element offset, b2.
enum {
  kIn = 3,
  kHidden = 17,
  kOut = 7,
  kW1 = 0,
  kB1 = 51,
  kW2 = 68,
  kB2 = 187,
  kWeights = 194,
  kGuard = 8, // sentinel elements after each output buffer
};

static const float kSentinel = 12345.0f;

static MemRef1D describe(float *data, int64_t size) {
  MemRef1D ref = {data, data, 0, {size}, {1}};
  return ref;
}

// Deterministic values in [-1, 1) from a 64-bit mix (splitmix64 finalizer),
// so the test needs no random state and reproduces exactly.
static float valueAt(uint64_t index) {
  uint64_t z = index * 0x9e3779b97f4a7c15ull + 0x632be59bd9b4e019ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  z ^= z >> 31;
  return (float)((double)(z >> 40) / (double)(1ull << 23) - 1.0);
}

// One thread of the MLP in double. Also returns, per output, the magnitude
// |b2_i| + sum_j |W2_ij| (|b1_j| + sum_k |W1_jk| |x_k|) that bounds the
// rounding error of any evaluation order.
static void referenceThread(const float *w, const float *x, double *y,
                            double *magnitude) {
  double hidden[kHidden], hiddenMagnitude[kHidden];
  for (int j = 0; j < kHidden; ++j) {
    double sum = w[kB1 + j], mag = fabs(w[kB1 + j]);
    for (int k = 0; k < kIn; ++k) {
      sum += (double)w[kW1 + j * kIn + k] * x[k];
      mag += fabs((double)w[kW1 + j * kIn + k] * x[k]);
    }
    hidden[j] = sum > 0 ? sum : 0;
    hiddenMagnitude[j] = mag;
  }
  for (int i = 0; i < kOut; ++i) {
    double sum = w[kB2 + i], mag = fabs(w[kB2 + i]);
    for (int j = 0; j < kHidden; ++j) {
      double weight = w[kW2 + j * kOut + i]; // col-major: (i, j) at j*M + i
      sum += weight * hidden[j];
      mag += fabs(weight) * hiddenMagnitude[j];
    }
    y[i] = sum > 0 ? sum : 0;
    magnitude[i] = mag;
  }
}

// Max |got - ref| / tolerance over all outputs of n threads; the guard
// elements past n threads must be untouched (masked lanes write nothing).
// Tolerance: a K-term f32 dot product is off by at most ~K * 2^-24 times
// the magnitude above (K <= 18 here, two layers: ~1.3e-6 * magnitude);
// 1e-5 * magnitude leaves ~8x room for the evaluation order and FMA
// contraction, while a wrong layout or bias is off by O(magnitude).
static int checkBatch(int64_t n, const float *w) {
  float *x = malloc(sizeof(float) * (size_t)(n * kIn));
  float *y = malloc(sizeof(float) * (size_t)(n * kOut + kGuard));
  if (!x || !y) {
    fprintf(stderr, "out of memory\n");
    exit(2);
  }
  for (int64_t i = 0; i < n * kIn; ++i)
    x[i] = valueAt(1000000 + (uint64_t)i);
  for (int64_t i = 0; i < n * kOut + kGuard; ++i)
    y[i] = kSentinel;

  MemRef1D xRef = describe(x, n * kIn), wRef = describe((float *)w, kWeights);
  MemRef1D yRef = describe(y, n * kOut);
  _mlir_ciface_mlp_batched(n, &xRef, &wRef, &yRef);

  double maxError = 0, worstRatio = 0;
  for (int64_t t = 0; t < n; ++t) {
    double ref[kOut], magnitude[kOut];
    referenceThread(w, x + t * kIn, ref, magnitude);
    for (int i = 0; i < kOut; ++i) {
      double error = fabs((double)y[t * kOut + i] - ref[i]);
      double ratio = error / (1e-5 * magnitude[i] + 1e-30);
      if (!(error <= maxError))
        maxError = error;
      if (!(ratio <= worstRatio))
        worstRatio = ratio;
    }
  }
  int guardsIntact = 1;
  for (int g = 0; g < kGuard; ++g)
    guardsIntact &= y[n * kOut + g] == kSentinel;
  int pass = worstRatio <= 1.0 && guardsIntact;
  printf("n=%lld: max abs error %.3g, max error / tolerance %.3g%s: %s\n",
         (long long)n, maxError, worstRatio,
         guardsIntact ? "" : ", wrote past the last thread",
         pass ? "PASS" : "FAIL");
  free(x);
  free(y);
  return pass;
}

int main(void) {
  float w[kWeights];
  for (int i = 0; i < kWeights; ++i)
    w[i] = valueAt((uint64_t)i);
  // Shift the biases up so that ReLU is active in both directions.
  for (int j = 0; j < kHidden; ++j)
    w[kB1 + j] += 0.25f;

  static const int64_t batches[] = {1, 7, 16, 17, 1000};
  int allPass = 1;
  for (size_t i = 0; i < sizeof(batches) / sizeof(batches[0]); ++i)
    allPass &= checkBatch(batches[i], w);
  puts(allPass ? "PASS" : "FAIL");
  return allPass ? 0 : 1;
}
