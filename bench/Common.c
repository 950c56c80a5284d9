//===- Common.c - Workloads, the thread splitter, f16 conversions ---------===//

#define _POSIX_C_SOURCE 200809L

#include "Bench.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

#if defined(__F16C__)
#include <immintrin.h>
#endif

//===----------------------------------------------------------------------===//
// Workloads
//===----------------------------------------------------------------------===//

// The entry points of the objects coopvec-opt builds (bench/CMakeLists.txt).
void _mlir_ciface_mlp_batched(int64_t n, MemRef1D *x, MemRef1D *w, MemRef1D *y);
void _mlir_ciface_mlp_tanh64_batched(int64_t n, MemRef1D *x, MemRef1D *w,
                                     MemRef1D *y);
void _mlir_ciface_mlp_tanh128_batched(int64_t n, MemRef1D *x, MemRef1D *w,
                                      MemRef1D *y);
void _mlir_ciface_mlp_avx2_batched(int64_t n, MemRef1D *x, MemRef1D *w,
                                   MemRef1D *y);
void _mlir_ciface_mlp_tanh64_avx2_batched(int64_t n, MemRef1D *x, MemRef1D *w,
                                          MemRef1D *y);
void _mlir_ciface_mlp_tanh128_avx2_batched(int64_t n, MemRef1D *x, MemRef1D *w,
                                           MemRef1D *y);

// Offsets follow the .mlir files (matrix_view offsets there are in bytes).
const MlpWorkload mlpWorkloads[] = {
    {"relu-f32",
     "examples/mlp.mlir",
     _mlir_ciface_mlp_batched,
     _mlir_ciface_mlp_avx2_batched,
     4,
     {{32, 64, 0, 2048},
      {64, 64, 2112, 6208},
      {64, 64, 6272, 10368},
      {64, 16, 10432, 11456}},
     11472,
     MLP_RELU,
     MLP_F32},
    {"tanh-f16-64",
     "bench/mlp-tanh-f16.mlir",
     _mlir_ciface_mlp_tanh64_batched,
     _mlir_ciface_mlp_tanh64_avx2_batched,
     4,
     {{32, 64, 0, 2048},
      {64, 64, 2112, 6208},
      {64, 64, 6272, 10368},
      {64, 16, 10432, 11456}},
     11472,
     MLP_TANH,
     MLP_F16},
    {"tanh-f16-128",
     "bench/mlp-tanh-f16.mlir",
     _mlir_ciface_mlp_tanh128_batched,
     _mlir_ciface_mlp_tanh128_avx2_batched,
     4,
     {{32, 128, 0, 4096},
      {128, 128, 4224, 20608},
      {128, 128, 20736, 37120},
      {128, 16, 37248, 39296}},
     39312,
     MLP_TANH,
     MLP_F16},
};
const int mlpNumWorkloads = sizeof(mlpWorkloads) / sizeof(mlpWorkloads[0]);

int mlpInputs(const MlpWorkload *workload) {
  return workload->layers[0].inputs;
}

int mlpOutputs(const MlpWorkload *workload) {
  return workload->layers[workload->numLayers - 1].outputs;
}

int mlpMaxWidth(const MlpWorkload *workload) {
  int width = 0;
  for (int l = 0; l < workload->numLayers; ++l) {
    const MlpLayer *layer = &workload->layers[l];
    width = layer->inputs > width ? layer->inputs : width;
    width = layer->outputs > width ? layer->outputs : width;
  }
  return width;
}

double mlpFlopsPerSample(const MlpWorkload *workload) {
  double macs = 0.0;
  for (int l = 0; l < workload->numLayers; ++l)
    macs += (double)workload->layers[l].inputs * workload->layers[l].outputs;
  return 2.0 * macs;
}

int mlpElementBytes(const MlpWorkload *workload) {
  return workload->storage == MLP_F16 ? 2 : 4;
}

//===----------------------------------------------------------------------===//
// ISA
//===----------------------------------------------------------------------===//

// This file is compiled with -march=COOPVEC_BENCH_MARCH, so its macros say
// what the compiler may have used. Only the extensions gcc emits for C code
// like the benchmark's are checked: -march=sapphirerapids also defines,
// say, __AVX512VP2INTERSECT__, which Sapphire Rapids itself lacks.
#define RETURN_IF_MISSING(feature)                                             \
  do {                                                                         \
    if (!__builtin_cpu_supports(feature))                                      \
      return feature;                                                          \
  } while (0)

const char *mlpMissingIsa(void) {
  __builtin_cpu_init();
#if defined(__AVX2__)
  RETURN_IF_MISSING("avx2");
#endif
#if defined(__FMA__)
  RETURN_IF_MISSING("fma");
#endif
#if defined(__F16C__)
  RETURN_IF_MISSING("f16c");
#endif
#if defined(__AVX512F__)
  RETURN_IF_MISSING("avx512f");
#endif
#if defined(__AVX512BW__)
  RETURN_IF_MISSING("avx512bw");
#endif
#if defined(__AVX512DQ__)
  RETURN_IF_MISSING("avx512dq");
#endif
#if defined(__AVX512VL__)
  RETURN_IF_MISSING("avx512vl");
#endif
#if defined(__AVX512FP16__)
  RETURN_IF_MISSING("avx512fp16");
#endif
  return NULL;
}

#undef RETURN_IF_MISSING

//===----------------------------------------------------------------------===//
// Threads
//===----------------------------------------------------------------------===//

enum { CHUNK_ALIGNMENT = 64 };

typedef struct Chunk {
  void (*body)(void *context, int thread, int64_t begin, int64_t end);
  void *context;
  int thread;
  int64_t begin, end;
} Chunk;

static void *runChunk(void *argument) {
  Chunk *chunk = argument;
  chunk->body(chunk->context, chunk->thread, chunk->begin, chunk->end);
  return NULL;
}

int runParallel(int threads, int64_t count,
                void (*body)(void *context, int thread, int64_t begin,
                             int64_t end),
                void *context) {
  if (threads < 1 || threads > MLP_MAX_THREADS) {
    fprintf(stderr, "mlp-cpu: thread count %d out of range\n", threads);
    return -1;
  }
  int64_t perThread = (count + threads - 1) / threads;
  perThread =
      (perThread + CHUNK_ALIGNMENT - 1) / CHUNK_ALIGNMENT * CHUNK_ALIGNMENT;
  Chunk chunks[MLP_MAX_THREADS];
  pthread_t ids[MLP_MAX_THREADS];
  for (int t = 0; t < threads; ++t) {
    int64_t begin = t * perThread < count ? t * perThread : count;
    int64_t end = begin + perThread < count ? begin + perThread : count;
    chunks[t] = (Chunk){body, context, t, begin, end};
  }
  // The calling thread takes chunk 0 itself: one thread means no spawn.
  int started = 1, status = 0;
  for (; started < threads; ++started) {
    int error = pthread_create(&ids[started], NULL, runChunk, &chunks[started]);
    if (error) {
      fprintf(stderr, "mlp-cpu: pthread_create: %s\n", strerror(error));
      status = -1;
      break;
    }
  }
  runChunk(&chunks[0]);
  for (int t = 1; t < started; ++t)
    pthread_join(ids[t], NULL);
  // On failure chunks [started, threads) were not computed: report it
  // rather than let the caller time and check a partial result.
  return status;
}

//===----------------------------------------------------------------------===//
// f16
//===----------------------------------------------------------------------===//

#if !defined(__F16C__)
/// IEEE binary16 -> binary32, exact.
static float halfToFloat(uint16_t half) {
  uint32_t sign = (uint32_t)(half & 0x8000) << 16;
  uint32_t exponent = (half >> 10) & 0x1f, mantissa = half & 0x3ff;
  uint32_t bits;
  if (exponent == 0x1f) {
    bits = sign | 0x7f800000u | (mantissa << 13);
  } else if (exponent) {
    bits = sign | ((exponent + 112) << 23) | (mantissa << 13);
  } else if (!mantissa) {
    bits = sign;
  } else { // subnormal: normalize
    int shift = 0;
    while (!(mantissa & 0x400)) {
      mantissa <<= 1;
      ++shift;
    }
    bits = sign | ((uint32_t)(113 - shift) << 23) | ((mantissa & 0x3ff) << 13);
  }
  float value;
  memcpy(&value, &bits, sizeof(value));
  return value;
}

/// binary32 -> binary16, round to nearest even (the compiler's conversion).
static uint16_t floatToHalf(float value) {
  _Float16 half = (_Float16)value;
  uint16_t bits;
  memcpy(&bits, &half, sizeof(bits));
  return bits;
}
#endif

void widenHalves(const uint16_t *from, float *to, int64_t count) {
  int64_t i = 0;
#if defined(__F16C__)
  for (; i + 8 <= count; i += 8)
    _mm256_storeu_ps(to + i, _mm256_cvtph_ps(_mm_loadu_si128(
                                 (const __m128i *)(const void *)(from + i))));
  for (; i < count; ++i)
    to[i] = _cvtsh_ss(from[i]);
#else
  for (; i < count; ++i)
    to[i] = halfToFloat(from[i]);
#endif
}

void narrowFloats(const float *from, uint16_t *to, int64_t count) {
  int64_t i = 0;
#if defined(__F16C__)
  for (; i + 8 <= count; i += 8)
    _mm_storeu_si128(
        (__m128i *)(void *)(to + i),
        _mm256_cvtps_ph(_mm256_loadu_ps(from + i), _MM_FROUND_TO_NEAREST_INT));
  for (; i < count; ++i)
    to[i] = _cvtss_sh(from[i], _MM_FROUND_TO_NEAREST_INT);
#else
  for (; i < count; ++i)
    to[i] = floatToHalf(from[i]);
#endif
}
