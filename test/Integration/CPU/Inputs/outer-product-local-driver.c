// Driver for outer-product-local.mlir: the outer product whose gradient
// buffer is a memref.cast inside the function, so the lowered code adds its
// f32 tile after each group of lanes (the engine refuses the cast, which it
// cannot bound, so this runs the object of `coopvec-opt --emit=obj`). It
// compares the buffer with a double-precision sum in plain C for several
// thread counts, partial last groups included; the lanes past the last
// thread hold -inf (log2 of 0) and must add nothing. Links against nothing
// but libc and libm.

#include <math.h>
#include <stdint.h>
#include <stdio.h>

// A rank-1 memref descriptor, as convert-func-to-llvm passes it to the
// _mlir_ciface_ wrapper (docs/execution-model.md).
typedef struct {
  float *allocated;
  float *aligned;
  int64_t offset;
  int64_t sizes[1];
  int64_t strides[1];
} MemRef1D;

void _mlir_ciface_local_batched(int64_t n, MemRef1D *a, MemRef1D *b,
                                MemRef1D *g);

// 17 x 7 row-major at element 0, the sums of a at 119, 200 elements.
enum { kM = 17, kK = 7, kSums = 119, kSize = 200, kMaxThreads = 1029 };

static float a[kMaxThreads * kM], b[kMaxThreads * kK], g[kSize];

// Deterministic values in [-1, 1) (splitmix64 finalizer), never 0.
static float valueAt(uint64_t index) {
  uint64_t z = index * 0x9e3779b97f4a7c15ull + 0x632be59bd9b4e019ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  z ^= z >> 31;
  return (float)(((double)(z >> 40) + 0.5) / (double)(1ull << 23) - 1.0);
}

/// The function's a and b: log2 of the squares, as the target computes it
/// (the square rounded to f32).
static double logSquare(float x) { return log2((double)(x * x)); }

/// Max |g - exact| over the bound 1e-5 * sum of the magnitudes of the
/// terms (f32 sums of up to 1029 terms are off by a few roundings of that
/// sum; a missing thread by 1 / n of it); -1 if an untouched element
/// changed.
static double check(int64_t n, const float *initial) {
  double worst = 0;
  for (int e = 0; e < kSize; ++e) {
    double exact = initial[e], bound = 0;
    int i = e < kM * kK ? e / kK : e - kSums, j = e % kK;
    for (int64_t t = 0; t < n && (e < kM * kK || (i >= 0 && i < kM)); ++t) {
      double ai = logSquare(a[t * kM + i]);
      double term = e < kM * kK ? ai * logSquare(b[t * kK + j]) : ai;
      exact += term;
      bound += fabs(term);
    }
    if (bound == 0) {
      if (g[e] != initial[e])
        return -1;
      continue;
    }
    double ratio = fabs((double)g[e] - exact) / (1e-5 * bound);
    if (!(ratio <= worst))
      worst = ratio;
  }
  return worst;
}

int main(void) {
  static const int64_t counts[] = {1, 7, 16, 31, 1029};
  int failed = 0;
  for (int64_t i = 0; i < kMaxThreads * kM; ++i)
    a[i] = valueAt((uint64_t)i);
  for (int64_t i = 0; i < kMaxThreads * kK; ++i)
    b[i] = valueAt(1000000 + (uint64_t)i);
  for (size_t c = 0; c < sizeof counts / sizeof *counts; ++c) {
    int64_t n = counts[c];
    float initial[kSize];
    for (int e = 0; e < kSize; ++e)
      initial[e] = g[e] = valueAt(2000000 + (uint64_t)e);
    MemRef1D aRef = {a, a, 0, {n * kM}, {1}}, bRef = {b, b, 0, {n * kK}, {1}};
    MemRef1D gRef = {g, g, 0, {kSize}, {1}};
    _mlir_ciface_local_batched(n, &aRef, &bRef, &gRef);
    double worst = check(n, initial);
    int ok = worst >= 0 && worst <= 1;
    printf("n=%lld: worst error %.3g of the tolerance: %s\n", (long long)n,
           worst, ok ? "PASS" : "FAIL");
    failed |= !ok;
  }
  puts(failed ? "FAIL" : "PASS");
  return failed;
}
