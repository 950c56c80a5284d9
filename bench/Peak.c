//===- Peak.c - The measured FMA peak of this machine ---------------------===//
//
// Each thread runs 12 independent FMA chains c = c * a + b. Twelve chains
// cover the FMA latency (4 cycles) times the issue rate (2 per cycle) of
// current x86 cores with room to spare, so the loop is throughput bound.
// Compiled with -O3 -march=native; the widths this build can run follow
// from the ISA macros the compiler defines.
//
//===----------------------------------------------------------------------===//

#define _POSIX_C_SOURCE 200809L

#include "Bench.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#if defined(__AVX2__) || defined(__AVX512F__)
#include <immintrin.h>
#endif

enum { PEAK_ITERATIONS = 1 << 26, CHAINS = 12, MAX_PEAK_THREADS = 64 };

// One loop body over twelve accumulators of type Vector; `set1` broadcasts
// a float and `fmadd(c, a, b)` computes c * a + b. a < 1 keeps every chain
// bounded (it converges to b / (1 - a)) and far from denormals.
#define FMA_CHAINS(Vector, set1, fmadd, add, iterations, result)               \
  do {                                                                         \
    Vector a = set1(0.999999f), b = set1(1e-6f);                               \
    Vector c0 = set1(0.0f), c1 = set1(1.0f), c2 = set1(2.0f), c3 = set1(3.0f), \
           c4 = set1(4.0f), c5 = set1(5.0f), c6 = set1(6.0f), c7 = set1(7.0f), \
           c8 = set1(8.0f), c9 = set1(9.0f), c10 = set1(10.0f),                \
           c11 = set1(11.0f);                                                  \
    for (int64_t i = 0; i < (iterations); ++i) {                               \
      c0 = fmadd(c0, a, b), c1 = fmadd(c1, a, b), c2 = fmadd(c2, a, b);        \
      c3 = fmadd(c3, a, b), c4 = fmadd(c4, a, b), c5 = fmadd(c5, a, b);        \
      c6 = fmadd(c6, a, b), c7 = fmadd(c7, a, b), c8 = fmadd(c8, a, b);        \
      c9 = fmadd(c9, a, b), c10 = fmadd(c10, a, b), c11 = fmadd(c11, a, b);    \
    }                                                                          \
    (result) =                                                                 \
        add(add(add(add(c0, c1), add(c2, c3)), add(add(c4, c5), add(c6, c7))), \
            add(add(c8, c9), add(c10, c11)));                                  \
  } while (0)

#if defined(__AVX512F__)
static float chains512(int64_t iterations) {
  __m512 sum;
  FMA_CHAINS(__m512, _mm512_set1_ps, _mm512_fmadd_ps, _mm512_add_ps, iterations,
             sum);
  return _mm512_reduce_add_ps(sum);
}
#endif

#if defined(__AVX2__) && defined(__FMA__)
static float chains256(int64_t iterations) {
  __m256 sum;
  FMA_CHAINS(__m256, _mm256_set1_ps, _mm256_fmadd_ps, _mm256_add_ps, iterations,
             sum);
  float lanes[8];
  _mm256_storeu_ps(lanes, sum);
  return lanes[0] + lanes[1] + lanes[2] + lanes[3] + lanes[4] + lanes[5] +
         lanes[6] + lanes[7];
}
#endif

static float identity(float value) { return value; }
static float scalarAdd(float lhs, float rhs) { return lhs + rhs; }
// Without __FMA__ fmaf is a library call; c * a + b is what such a machine
// runs (counted as two FLOPs all the same).
static float scalarFmadd(float c, float a, float b) {
#if defined(__FMA__)
  return fmaf(c, a, b);
#else
  return c * a + b;
#endif
}

static float chainsScalar(int64_t iterations) {
  float sum;
  FMA_CHAINS(float, identity, scalarFmadd, scalarAdd, iterations, sum);
  return sum;
}

int widestFmaBits(void) {
#if defined(__AVX512F__)
  return 512;
#elif defined(__AVX2__) && defined(__FMA__)
  return 256;
#else
  return 32;
#endif
}

typedef float (*ChainsFn)(int64_t iterations);

static ChainsFn chainsFor(int vectorBits) {
  switch (vectorBits) {
#if defined(__AVX512F__)
  case 512:
    return chains512;
#endif
#if defined(__AVX2__) && defined(__FMA__)
  case 256:
    return chains256;
#endif
  case 32:
    return chainsScalar;
  default:
    return NULL;
  }
}

typedef struct PeakThread {
  ChainsFn chains;
  volatile float sink; // keeps the chains from being optimized away
} PeakThread;

static void *peakThread(void *argument) {
  PeakThread *thread = argument;
  thread->sink = thread->chains(PEAK_ITERATIONS);
  return NULL;
}

static double seconds(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (double)now.tv_sec + 1e-9 * (double)now.tv_nsec;
}

double measureFmaPeak(int threads, int vectorBits) {
  ChainsFn chains = chainsFor(vectorBits);
  if (!chains || threads < 1 || threads > MAX_PEAK_THREADS)
    return -1.0;
  PeakThread state[MAX_PEAK_THREADS];
  pthread_t ids[MAX_PEAK_THREADS];
  double start = seconds();
  int started = 1;
  for (int t = 0; t < threads; ++t)
    state[t].chains = chains;
  for (; started < threads; ++started) {
    int error =
        pthread_create(&ids[started], NULL, peakThread, &state[started]);
    if (error) {
      fprintf(stderr, "mlp-cpu: pthread_create: %s\n", strerror(error));
      break;
    }
  }
  peakThread(&state[0]);
  for (int t = 1; t < started; ++t)
    pthread_join(ids[t], NULL);
  double elapsed = seconds() - start;
  if (started < threads)
    return -1.0;
  double flops = 2.0 * CHAINS * (vectorBits / 32) * (double)PEAK_ITERATIONS;
  return threads * flops / elapsed * 1e-9;
}
