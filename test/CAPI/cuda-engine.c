//===- cuda-engine.c - C API: the CUDA backend of the execution engine ----===//
//
// One program, three drivers:
// - none (COOPVEC_LIBCUDA names a missing library): the engine is created
//   and its functions are read without a driver; compiling fails with
//   CoopvecStatusNoDevice and says why, every time it is tried;
// - the fake driver of test/cuda: every call of the backend's host side
//   (compile, batch 0, runs, a function without a kernel) with its status;
//   no kernel runs, so the results are not compared;
// - a GPU (the cuda-gpu feature): the same runs, and every output agrees
//   with a double-precision reference computed here in plain C.
//
//===----------------------------------------------------------------------===//

// RUN: env COOPVEC_LIBCUDA=%t.no-driver/libcuda.so.1 coopvec-capi-cuda-engine 2>&1 | FileCheck %s --check-prefixes=CHECK,NODRIVER
// RUN: env COOPVEC_LIBCUDA=%fake_libcuda coopvec-capi-cuda-engine 2>&1 | FileCheck %s --check-prefixes=CHECK,FAKE,DEVICE
// RUN: %if cuda-gpu %{ coopvec-capi-cuda-engine 2>&1 | FileCheck %s --check-prefixes=CHECK,GPU,DEVICE %}

#include "coopvec-c/Coopvec.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/// relu(A x + b), A 5x3 row-major at w[0, 15), b at w[off, off + 5); the
/// outputs are summed over threads into g[1, 6) (atomics on the GPU).
static const char *const kModule =
    "func.func @layer(%x: !coopvec.vec<3, f32>, %w: memref<?xf32>,\n"
    "                 %off: index, %g: memref<?xf32>) -> "
    "!coopvec.vec<5, f32> {\n"
    "  %zero = arith.constant 0.0 : f32\n"
    "  %c1 = arith.constant 1 : index\n"
    "  %A = \"coopvec.matrix_view\"(%w) {offset = 0} : (memref<?xf32>) -> "
    "!coopvec.matrix<5, 3, f32, \"row_major\">\n"
    "  %b = \"coopvec.load\"(%w, %off) : (memref<?xf32>, index) -> "
    "!coopvec.vec<5, f32>\n"
    "  %y = \"coopvec.matvec\"(%A, %x, %b) : (!coopvec.matrix<5, 3, f32, "
    "\"row_major\">, !coopvec.vec<3, f32>, !coopvec.vec<5, f32>) -> "
    "!coopvec.vec<5, f32>\n"
    "  %r = \"coopvec.max\"(%y, %zero) : (!coopvec.vec<5, f32>, f32) -> "
    "!coopvec.vec<5, f32>\n"
    "  \"coopvec.reduce_sum_accumulate\"(%r, %g, %c1) : "
    "(!coopvec.vec<5, f32>, memref<?xf32>, index) -> ()\n"
    "  return %r : !coopvec.vec<5, f32>\n"
    "}\n"
    // No coopvec value: no kernel.
    "func.func @plain(%s: f32) {\n"
    "  return\n"
    "}\n";

enum { kOffset = 20, kWeights = 25, kGradient = 6 };

static void report(CoopvecEngine *engine, const char *what,
                   CoopvecStatus status) {
  printf("%s: %s%s%s\n", what, coopvecStatusGetName(status), status ? ": " : "",
         status ? coopvecEngineGetError(engine) : "");
}

/// Deterministic values in [-2, 2), multiples of 1/64: exact in f32.
static float nextValue(unsigned *state) {
  *state = *state * 1103515245u + 12345u;
  return (float)((int)((*state >> 16) % 256) - 128) / 64.0f;
}

typedef struct Data {
  int64_t batch, off;
  float *x, *w, *g, *y;
} Data;

static void fill(Data *d, int64_t batch) {
  unsigned state = 7;
  d->batch = batch;
  d->off = kOffset;
  d->x = calloc((size_t)batch * 3 + 1, sizeof(float));
  d->y = calloc((size_t)batch * 5 + 1, sizeof(float));
  d->w = calloc(kWeights, sizeof(float));
  d->g = calloc(kGradient, sizeof(float));
  for (int64_t i = 0; i < batch * 3; ++i)
    d->x[i] = nextValue(&state);
  for (int i = 0; i < kWeights; ++i)
    d->w[i] = nextValue(&state);
}

static void release(Data *d) {
  free(d->x);
  free(d->y);
  free(d->w);
  free(d->g);
}

/// The largest difference from the reference, relative to max(1, |ref|).
static double compare(const Data *d) {
  double worst = 0, sums[5] = {0};
  for (int64_t t = 0; t < d->batch; ++t)
    for (int o = 0; o < 5; ++o) {
      double y = d->w[d->off + o];
      for (int k = 0; k < 3; ++k)
        y += (double)d->w[o * 3 + k] * d->x[t * 3 + k];
      y = y > 0 ? y : 0;
      sums[o] += y;
      double e = fabs(d->y[t * 5 + o] - y) / (fabs(y) > 1 ? fabs(y) : 1);
      worst = e > worst ? e : worst;
    }
  for (int o = 0; o < 5; ++o) {
    double e = fabs(d->g[1 + o] - sums[o]) / (fabs(sums[o]) > 1 ? sums[o] : 1);
    worst = e > worst ? e : worst;
  }
  return worst;
}

static void run(CoopvecEngine *engine, CoopvecFunction *layer, int64_t batch) {
  Data d;
  fill(&d, batch);
  CoopvecArray args[4] = {{d.x, CoopvecDTypeF32, batch * 3},
                          {d.w, CoopvecDTypeF32, kWeights},
                          {&d.off, CoopvecDTypeI64, 1},
                          {d.g, CoopvecDTypeF32, kGradient}};
  CoopvecArray results[1] = {{d.y, CoopvecDTypeF32, batch * 5}};
  CoopvecStatus status =
      coopvecFunctionRun(layer, batch, args, 4, results, 1, 0);
  char what[64];
  snprintf(what, sizeof(what), "batch %lld", (long long)batch);
  report(engine, what, status);
  // y is exact (multiples of 1/4096 below 16); g sums up to 1000 of
  // them with f32 atomics in any order: a few roundings of 2^-24 relative
  // each, 1e-4 bounds them all.
  double error = compare(&d);
  if (!status && batch)
    printf("batch %lld results: %s (max relative error %.3g)\n",
           (long long)batch, error < 1e-4 ? "ok" : "differ", error);
  release(&d);
}

static void testCompiled(CoopvecEngine *engine, CoopvecFunction *layer);

int main(void) {
  setvbuf(stdout, NULL, _IONBF, 0); // in order with the fake driver's stderr
  MlirContext ctx = mlirContextCreate();
  if (mlirLogicalResultIsFailure(coopvecSetupContext(ctx)))
    return 1;
  MlirModule module =
      mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(kModule));
  CoopvecEngineOptions options = coopvecEngineOptionsGetDefault();
  options.target = CoopvecTargetCUDA;
  CoopvecEngine *engine = NULL;
  CoopvecStatus status =
      coopvecEngineCreate(mlirModuleGetOperation(module), &options, &engine);
  // CHECK: create: success
  report(engine, "create", status);
  mlirModuleDestroy(module);
  CoopvecFunction *layer = NULL;
  // CHECK-NEXT: lookup: success, 4 argument(s)
  status = coopvecEngineLookup(engine, "layer", &layer);
  printf("lookup: %s, %ld argument(s)\n", coopvecStatusGetName(status),
         (long)coopvecFunctionGetNumArgs(layer));
  // CHECK-NEXT: batch 1: not compiled: the engine is not compiled (call coopvecEngineCompile first)
  run(engine, layer, 1);

  // NODRIVER-NEXT: compile: no device: CUDA: cannot load {{.*}}.no-driver/libcuda.so.1 (no NVIDIA driver): {{.*}}cannot open shared object file
  // NODRIVER-NEXT: compiled: 0
  // NODRIVER-NEXT: again: no device: CUDA: cannot load
  // FAKE-NEXT: fake-cuda: cuModuleLoadDataEx: {{[0-9]+}} bytes of PTX, .target sm_80
  // DEVICE-NEXT: compile: success
  // DEVICE-NEXT: compiled: 1
  // DEVICE-NEXT: again: success
  report(engine, "compile", coopvecEngineCompile(engine));
  printf("compiled: %d\n", coopvecEngineIsCompiled(engine));
  report(engine, "again", coopvecEngineCompile(engine));
  if (coopvecEngineIsCompiled(engine))
    testCompiled(engine, layer);
  coopvecEngineDestroy(engine);
  mlirContextDestroy(ctx);
  return 0;
}

static void testCompiled(CoopvecEngine *engine, CoopvecFunction *layer) {
  // DEVICE-NEXT: batch 0: success
  run(engine, layer, 0);
  // FAKE-NEXT: fake-cuda: launch layer_kernel: grid 1x1x1, block 128x1x1
  // DEVICE: batch 1: success
  // GPU-NEXT: batch 1 results: ok
  run(engine, layer, 1);
  // FAKE: fake-cuda: launch layer_kernel: grid 1x1x1, block 128x1x1
  // DEVICE: batch 17: success
  // GPU-NEXT: batch 17 results: ok
  run(engine, layer, 17);
  // FAKE: fake-cuda: launch layer_kernel: grid 8x1x1, block 128x1x1
  // DEVICE: batch 1000: success
  // GPU-NEXT: batch 1000 results: ok
  run(engine, layer, 1000);

  float x[3] = {0};
  double wrong[kWeights] = {0};
  int64_t off = kOffset;
  float y[5], g[kGradient];
  CoopvecArray args[4] = {{x, CoopvecDTypeF32, 3},
                          {wrong, CoopvecDTypeF64, kWeights},
                          {&off, CoopvecDTypeI64, 1},
                          {g, CoopvecDTypeF32, kGradient}};
  CoopvecArray results[1] = {{y, CoopvecDTypeF32, 5}};
  // The target-independent checks come first.
  // DEVICE: wrong dtype: type mismatch: argument #1 (memref<?xf32>) of @layer expects f32 data, got f64
  report(engine, "wrong dtype",
         coopvecFunctionRun(layer, 1, args, 4, results, 1, 0));

  CoopvecFunction *plain = NULL;
  coopvecEngineLookup(engine, "plain", &plain);
  float s = 1;
  CoopvecArray scalar = {&s, CoopvecDTypeF32, 1};
  // DEVICE-NEXT: no kernel: not found: the lowered module has no kernel @plain_kernel
  report(engine, "no kernel",
         coopvecFunctionRun(plain, 1, &scalar, 1, NULL, 0, 0));
}

// FAKE-NEXT: fake-cuda: at exit: 0 buffers, 0 modules, 0 contexts retained, 0 pushed
