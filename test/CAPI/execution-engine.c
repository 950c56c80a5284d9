//===- execution-engine.c - C API: compile and run on the CPU -------------===//
//
// Compiles small coopvec modules with the execution engine, inspects their
// signatures, runs them on 1 and 3 host threads for batches of 1, 17 and
// 1000 threads and compares every output with a double-precision reference
// computed here in plain C. Then every error status, each checked to leave
// the buffers untouched (nothing ran).
//
//===----------------------------------------------------------------------===//

// CUDA without a driver (the library named by COOPVEC_LIBCUDA is missing);
// test/CAPI/cuda-engine.c tests that backend.
// RUN: env COOPVEC_LIBCUDA=%t.no-driver/libcuda.so.1 COOPVEC_LIBVULKAN=%t.no-loader/libvulkan.so.1 coopvec-capi-execution-engine 2>&1 | FileCheck %s

#include "coopvec-c/Coopvec.h"

#include <llvm-c/Core.h>
#include <llvm-c/TargetMachine.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/// relu(A x + b) with A (5x3, row-major) at w[0, 15) and b at w[off, off+5);
/// the outputs are also summed over threads into g[1, 6).
static const char *const kLayer =
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
    // Stores x at v[2 * k + 1]: the offset is an expression of an argument.
    "func.func @store(%x: !coopvec.vec<2, f32>, %v: memref<?xf32>, "
    "%k: i64) {\n"
    "  %c1 = arith.constant 1 : index\n"
    "  %c2 = arith.constant 2 : index\n"
    "  %i = arith.index_cast %k : i64 to index\n"
    "  %t = arith.muli %i, %c2 : index\n"
    "  %o = arith.addi %t, %c1 : index\n"
    "  \"coopvec.store\"(%x, %v, %o) : (!coopvec.vec<2, f32>, "
    "memref<?xf32>, index) -> ()\n"
    "  return\n"
    "}\n"
    // Reads v[off + 1, off + 3) only: the other mask bits are off.
    "func.func @masked(%v: memref<?xf16>, %off: index) -> "
    "!coopvec.vec<4, f16> {\n"
    "  %m = arith.constant dense<[false, true, true, false]> : "
    "vector<4xi1>\n"
    "  %p = arith.constant 0.0 : f16\n"
    "  %y = \"coopvec.masked_load\"(%v, %off, %m, %p) : (memref<?xf16>, "
    "index, vector<4xi1>, f16) -> !coopvec.vec<4, f16>\n"
    "  return %y : !coopvec.vec<4, f16>\n"
    "}\n"
    // An offset the engine cannot evaluate: checked at run time.
    "func.func @divided(%v: memref<?xf32>, %k: index) -> "
    "!coopvec.vec<2, f32> {\n"
    "  %c2 = arith.constant 2 : index\n"
    "  %o = arith.divui %k, %c2 : index\n"
    "  %y = \"coopvec.load\"(%v, %o) : (memref<?xf32>, index) -> "
    "!coopvec.vec<2, f32>\n"
    "  return %y : !coopvec.vec<2, f32>\n"
    "}\n"
    // The same for a store and a reduce_sum_accumulate: their elements
    // inside the buffer are written, the others dropped.
    "func.func @divided_store(%x: !coopvec.vec<2, f32>, %v: memref<?xf32>, "
    "%g: memref<?xf32>, %k: index) {\n"
    "  %c2 = arith.constant 2 : index\n"
    "  %o = arith.divui %k, %c2 : index\n"
    "  \"coopvec.store\"(%x, %v, %o) : (!coopvec.vec<2, f32>, memref<?xf32>, "
    "index) -> ()\n"
    "  \"coopvec.reduce_sum_accumulate\"(%x, %g, %o) : (!coopvec.vec<2, f32>, "
    "memref<?xf32>, index) -> ()\n"
    "  return\n"
    "}\n"
    "func.func @matrix_arg(%m: memref<4x4xf32>, %x: !coopvec.vec<2, f32>) "
    "-> !coopvec.vec<2, f32> {\n"
    "  return %x : !coopvec.vec<2, f32>\n"
    "}\n"
    // Not per-thread: the lowering leaves it alone, without @plain_batched.
    "func.func @plain(%a: f32) {\n"
    "  return\n"
    "}\n";

static MlirModule parse(MlirContext ctx, const char *source) {
  return mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(source));
}

/// Creates and compiles an engine for `source` with `pipeline` (NULL: the
/// default). Prints the error and returns NULL on failure.
static CoopvecEngine *compile(MlirContext ctx, const char *source,
                              const char *pipeline) {
  MlirModule module = parse(ctx, source);
  if (mlirModuleIsNull(module)) {
    fprintf(stderr, "parse failed\n");
    return NULL;
  }
  CoopvecEngineOptions options = coopvecEngineOptionsGetDefault();
  options.pipeline = pipeline;
  CoopvecEngine *engine = NULL;
  CoopvecStatus status =
      coopvecEngineCreate(mlirModuleGetOperation(module), &options, &engine);
  // The engine keeps its own clone.
  mlirModuleDestroy(module);
  if (status == CoopvecStatusSuccess)
    status = coopvecEngineCompile(engine);
  if (status == CoopvecStatusSuccess)
    return engine;
  fprintf(stderr, "compile failed: %s: %s\n", coopvecStatusGetName(status),
          coopvecEngineGetError(engine));
  coopvecEngineDestroy(engine);
  return NULL;
}

static CoopvecFunction *lookup(CoopvecEngine *engine, const char *name) {
  CoopvecFunction *function = NULL;
  if (coopvecEngineLookup(engine, name, &function) != CoopvecStatusSuccess)
    fprintf(stderr, "lookup failed: %s\n", coopvecEngineGetError(engine));
  return function;
}

static CoopvecArray array(void *data, CoopvecDType dtype, int64_t size) {
  CoopvecArray result = {data, dtype, size};
  return result;
}

/// Deterministic values in [-2, 2), multiples of 1/64: exact in f16/f32.
static float nextValue(unsigned *state) {
  *state = *state * 1103515245u + 12345u;
  return (float)((int)((*state >> 16) % 256) - 128) / 64.0f;
}

static const char *kindName(CoopvecValueKind kind) {
  static const char *const names[] = {"vec", "memref", "scalar", "unsupported"};
  return names[kind];
}

static void printInfo(const char *what, intptr_t index,
                      const CoopvecValueInfo *info) {
  printf("%s %ld: %s %s length %lld%s %s\n", what, (long)index,
         kindName(info->kind), coopvecDTypeGetName(info->dtype),
         (long long)info->length, info->written ? " written" : "", info->type);
}

//===----------------------------------------------------------------------===//
// Signatures
//===----------------------------------------------------------------------===//

static void testSignature(CoopvecEngine *engine) {
  // CHECK-LABEL: testSignature
  printf("testSignature\n");
  CoopvecFunction *layer = lookup(engine, "layer");
  CoopvecFunction *again = lookup(engine, "layer");
  // CHECK-NEXT: @layer: 4 argument(s), 1 result(s), same handle: 1
  printf("@%s: %ld argument(s), %ld result(s), same handle: %d\n",
         coopvecFunctionGetName(layer), (long)coopvecFunctionGetNumArgs(layer),
         (long)coopvecFunctionGetNumResults(layer), layer == again);
  CoopvecValueInfo info;
  for (intptr_t i = 0; i < coopvecFunctionGetNumArgs(layer); ++i) {
    coopvecFunctionGetArg(layer, i, &info);
    printInfo("argument", i, &info);
  }
  coopvecFunctionGetResult(layer, 0, &info);
  printInfo("result", 0, &info);
  // CHECK-NEXT: argument 0: vec f32 length 3 !coopvec.vec<3 : i64, f32>
  // CHECK-NEXT: argument 1: memref f32 length -1 memref<?xf32>
  // CHECK-NEXT: argument 2: scalar i64 length 1 index
  // CHECK-NEXT: argument 3: memref f32 length -1 written memref<?xf32>
  // CHECK-NEXT: result 0: vec f32 length 5 !coopvec.vec<5 : i64, f32>

  // w: the matrix (15) and the bias at `off`; g: elements [1, 6).
  int64_t off = 40;
  CoopvecArray args[4] = {{0}, {0}, array(&off, CoopvecDTypeI64, 1), {0}};
  int64_t w = -1, g = -1;
  coopvecFunctionGetMemRefExtent(layer, 1, args, 4, &w);
  coopvecFunctionGetMemRefExtent(layer, 3, args, 4, &g);
  // CHECK-NEXT: extents with off = 40: w 45, g 6
  printf("extents with off = 40: w %lld, g %lld\n", (long long)w, (long long)g);

  CoopvecFunction *masked = lookup(engine, "masked");
  CoopvecArray maskedArgs[2] = {{0}, array(&off, CoopvecDTypeI64, 1)};
  coopvecFunctionGetMemRefExtent(masked, 0, maskedArgs, 2, &w);
  // CHECK-NEXT: masked_load [F, T, T, F] at 40 reaches 43
  printf("masked_load [F, T, T, F] at 40 reaches %lld\n", (long long)w);
  off = -1; // the first mask bit is off: element -1 is not accessed
  CoopvecStatus status =
      coopvecFunctionGetMemRefExtent(masked, 0, maskedArgs, 2, &w);
  // CHECK-NEXT: masked_load at -1: success, reaches 2
  printf("masked_load at -1: %s, reaches %lld\n", coopvecStatusGetName(status),
         (long long)w);

  CoopvecFunction *matrixArg = lookup(engine, "matrix_arg");
  coopvecFunctionGetArg(matrixArg, 0, &info);
  // CHECK-NEXT: argument 0: unsupported {{.*}} memref<4x4xf32>
  printInfo("argument", 0, &info);
}

//===----------------------------------------------------------------------===//
// Running against a plain C reference
//===----------------------------------------------------------------------===//

typedef struct LayerData {
  int64_t batch;
  float *x, *w, *g, *y;
  double *refY, *refG;
  int64_t off;
} LayerData;

enum { kWeights = 64, kGradients = 8 };

static void layerReference(LayerData *d) {
  for (int i = 0; i < kGradients; ++i)
    d->refG[i] = d->g[i];
  for (int64_t t = 0; t < d->batch; ++t) {
    for (int o = 0; o < 5; ++o) {
      double sum = d->w[d->off + o];
      for (int k = 0; k < 3; ++k)
        sum += (double)d->w[3 * o + k] * d->x[3 * t + k];
      d->refY[5 * t + o] = sum > 0 ? sum : 0;
      d->refG[1 + o] += d->refY[5 * t + o];
    }
  }
}

static void layerInit(LayerData *d, int64_t batch) {
  unsigned state = 7;
  d->batch = batch;
  d->off = 20;
  d->x = malloc((size_t)batch * 3 * sizeof(float));
  d->y = calloc((size_t)batch * 5, sizeof(float));
  d->w = malloc(kWeights * sizeof(float));
  d->g = malloc(kGradients * sizeof(float));
  d->refY = malloc((size_t)batch * 5 * sizeof(double));
  d->refG = malloc(kGradients * sizeof(double));
  for (int64_t i = 0; i < batch * 3; ++i)
    d->x[i] = nextValue(&state);
  for (int i = 0; i < kWeights; ++i)
    d->w[i] = nextValue(&state);
  for (int i = 0; i < kGradients; ++i)
    d->g[i] = (float)i;
  layerReference(d);
}

static void layerFree(LayerData *d) {
  free(d->x);
  free(d->y);
  free(d->w);
  free(d->g);
  free(d->refY);
  free(d->refG);
}

/// Whether |got - want| <= tolerance * max(1, |want|) everywhere; prints the
/// first mismatch.
static int closeTo(const char *what, const float *got, const double *want,
                   int64_t n, double tolerance) {
  for (int64_t i = 0; i < n; ++i) {
    if (fabs(got[i] - want[i]) <= tolerance * fmax(1.0, fabs(want[i])))
      continue;
    printf("FAIL %s: element %lld is %.9g, expected %.9g\n", what, (long long)i,
           got[i], want[i]);
    return 0;
  }
  return 1;
}

static CoopvecStatus runLayer(CoopvecFunction *layer, LayerData *d,
                              int threads) {
  CoopvecArray args[4] = {array(d->x, CoopvecDTypeF32, d->batch * 3),
                          array(d->w, CoopvecDTypeF32, kWeights),
                          array(&d->off, CoopvecDTypeI64, 1),
                          array(d->g, CoopvecDTypeF32, kGradients)};
  CoopvecArray results[1] = {array(d->y, CoopvecDTypeF32, d->batch * 5)};
  return coopvecFunctionRun(layer, d->batch, args, 4, results, 1, threads);
}

static void testRun(CoopvecEngine *engine) {
  // CHECK-LABEL: testRun
  printf("testRun\n");
  CoopvecFunction *layer = lookup(engine, "layer");
  const int64_t batches[] = {1, 17, 1000};
  const int threads[] = {1, 3};
  for (int b = 0; b < 3; ++b) {
    for (int t = 0; t < 2; ++t) {
      LayerData d;
      layerInit(&d, batches[b]);
      CoopvecStatus status = runLayer(layer, &d, threads[t]);
      // Products of multiples of 1/64 below 4 are exact in f32; only the
      // gradient sums over threads round.
      int ok = status == CoopvecStatusSuccess &&
               closeTo("y", d.y, d.refY, d.batch * 5, 1e-6) &&
               closeTo("g", d.g, d.refG, kGradients, 1e-6);
      printf("batch %lld, %d thread(s): %s\n", (long long)batches[b],
             threads[t], ok ? "ok" : coopvecEngineGetError(engine));
      layerFree(&d);
    }
  }
  // CHECK-NEXT: batch 1, 1 thread(s): ok
  // CHECK-NEXT: batch 1, 3 thread(s): ok
  // CHECK-NEXT: batch 17, 1 thread(s): ok
  // CHECK-NEXT: batch 17, 3 thread(s): ok
  // CHECK-NEXT: batch 1000, 1 thread(s): ok
  // CHECK-NEXT: batch 1000, 3 thread(s): ok

  // Threads 0 .. n-1 all store to v[5, 7): the last thread's values stay,
  // however many host threads run the chunks.
  CoopvecFunction *store = lookup(engine, "store");
  for (int t = 1; t <= 3; ++t) {
    enum { kBatch = 1000 };
    float x[2 * kBatch], v[8] = {0};
    for (int i = 0; i < 2 * kBatch; ++i)
      x[i] = (float)i;
    int64_t k = 2;
    CoopvecArray args[3] = {array(x, CoopvecDTypeF32, 2 * kBatch),
                            array(v, CoopvecDTypeF32, 8),
                            array(&k, CoopvecDTypeI64, 1)};
    CoopvecStatus status =
        coopvecFunctionRun(store, kBatch, args, 3, NULL, 0, t);
    printf("store, %d thread(s): %s v[5] = %g, v[6] = %g\n", t,
           coopvecStatusGetName(status), v[5], v[6]);
  }
  // CHECK-NEXT: store, 1 thread(s): success v[5] = 1998, v[6] = 1999
  // CHECK-NEXT: store, 2 thread(s): success v[5] = 1998, v[6] = 1999
  // CHECK-NEXT: store, 3 thread(s): success v[5] = 1998, v[6] = 1999

  // An empty batch runs nothing and succeeds.
  LayerData d;
  layerInit(&d, 1);
  d.batch = 0;
  // CHECK-NEXT: batch 0: success
  printf("batch 0: %s\n", coopvecStatusGetName(runLayer(layer, &d, 0)));
  layerFree(&d);
}

//===----------------------------------------------------------------------===//
// Errors: every status, and nothing runs
//===----------------------------------------------------------------------===//

static void report(CoopvecEngine *engine, const char *what,
                   CoopvecStatus status) {
  printf("%s: %s: %s\n", what, coopvecStatusGetName(status),
         coopvecEngineGetError(engine));
}

/// Runs @layer with `d` and reports; then checks that y and g are as before.
static void expectLayerError(CoopvecEngine *engine, CoopvecFunction *layer,
                             const char *what, CoopvecArray *args,
                             CoopvecArray *results, int64_t batch, int threads,
                             LayerData *d) {
  CoopvecStatus status =
      coopvecFunctionRun(layer, batch, args, 4, results, 1, threads);
  report(engine, what, status);
  for (int64_t i = 0; i < d->batch * 5; ++i)
    if (d->y[i] != 0)
      printf("FAIL %s: y[%lld] was written\n", what, (long long)i);
  for (int i = 0; i < kGradients; ++i)
    if (d->g[i] != (float)i)
      printf("FAIL %s: g[%d] was written\n", what, i);
}

static void testRunErrors(CoopvecEngine *engine) {
  // CHECK-LABEL: testRunErrors
  printf("testRunErrors\n");
  CoopvecFunction *layer = lookup(engine, "layer");
  LayerData d;
  layerInit(&d, 17);
  uint16_t half[17 * 3] = {0};
  CoopvecArray args[4] = {array(d.x, CoopvecDTypeF32, 17 * 3),
                          array(d.w, CoopvecDTypeF32, kWeights),
                          array(&d.off, CoopvecDTypeI64, 1),
                          array(d.g, CoopvecDTypeF32, kGradients)};
  CoopvecArray results[1] = {array(d.y, CoopvecDTypeF32, 17 * 5)};
  CoopvecArray good = args[0];
  args[0] = array(half, CoopvecDTypeF16, 17 * 3);
  // CHECK-NEXT: wrong dtype: type mismatch: argument #0 (!coopvec.vec<3 : i64, f32>) of @layer expects f32 data, got f16
  expectLayerError(engine, layer, "wrong dtype", args, results, 17, 1, &d);
  args[0] = array(d.x, CoopvecDTypeF32, 16 * 3);
  // CHECK-NEXT: short vec: size mismatch: argument #0 (!coopvec.vec<3 : i64, f32>) of @layer holds 48 elements, expected 51 (batch x vector length)
  expectLayerError(engine, layer, "short vec", args, results, 17, 1, &d);
  args[0] = good;
  results[0].size = 17 * 5 - 1;
  // CHECK-NEXT: short result: size mismatch: result #0 (!coopvec.vec<5 : i64, f32>) of @layer holds 84 elements, expected 85
  expectLayerError(engine, layer, "short result", args, results, 17, 1, &d);
  results[0].size = 17 * 5;
  args[1].size = 24; // the bias is w[20, 25)
  // CHECK-NEXT: short memref: out of bounds: argument #1 (memref<?xf32>) of @layer holds 24 elements, but the function accesses 25
  expectLayerError(engine, layer, "short memref", args, results, 17, 1, &d);
  args[1].size = kWeights;
  int64_t offsets[] = {-1, INT64_MAX, -((int64_t)1 << 40)};
  for (int i = 0; i < 3; ++i) {
    int64_t off = offsets[i];
    args[2] = array(&off, CoopvecDTypeI64, 1);
    char what[64];
    snprintf(what, sizeof(what), "offset %lld", (long long)off);
    expectLayerError(engine, layer, what, args, results, 17, 3, &d);
  }
  // CHECK-NEXT: offset -1: out of bounds: argument #1 (memref<?xf32>) of @layer: 'coopvec.load' at {{.*}}: offset -1 is negative (elements before the buffer)
  // CHECK-NEXT: offset 9223372036854775807: out of bounds: argument #1 (memref<?xf32>) of @layer: 'coopvec.load' at {{.*}}: offset 9223372036854775807 + 5 elements overflows a 64-bit index
  // CHECK-NEXT: offset -1099511627776: out of bounds: {{.*}}: offset -1099511627776 is negative
  args[2] = array(&d.off, CoopvecDTypeI64, 2);
  // CHECK-NEXT: two offsets: size mismatch: argument #2 (index) of @layer holds 2 elements, expected 1 (one uniform value)
  expectLayerError(engine, layer, "two offsets", args, results, 17, 1, &d);
  args[2].size = 1;
  // CHECK-NEXT: argument count: invalid argument: @layer takes 4 argument(s) and 1 result(s), got 3 and 1
  report(engine, "argument count",
         coopvecFunctionRun(layer, 17, args, 3, results, 1, 1));
  // CHECK-NEXT: threads: invalid argument: -1 threads: use 0 (all cores) to 1024
  expectLayerError(engine, layer, "threads", args, results, 17, -1, &d);
  // CHECK-NEXT: batch: invalid argument: batch -1 is negative
  expectLayerError(engine, layer, "batch", args, results, -1, 1, &d);
  args[1].data = (char *)d.w + 1;
  // CHECK-NEXT: misaligned: invalid argument: argument #1 (memref<?xf32>) of @layer: data not aligned to its element size
  expectLayerError(engine, layer, "misaligned", args, results, 17, 1, &d);
  layerFree(&d);
}

/// @divided_store at k = 14 on 3 threads: elements [7, 9) of 8, one
/// outside. v[7] gets the last thread's x[0] and g[7] the sum of the
/// threads' x[0]; element 8 is dropped, and each thread reports both ops
/// (the report is checked at the call).
static void testDividedStore(CoopvecEngine *engine) {
  CoopvecFunction *function = lookup(engine, "divided_store");
  float x[6] = {1, 2, 3, 4, 5, 6}, v[8] = {0}, g[8] = {0};
  int64_t k = 14;
  CoopvecArray args[4] = {
      array(x, CoopvecDTypeF32, 6), array(v, CoopvecDTypeF32, 8),
      array(g, CoopvecDTypeF32, 8), array(&k, CoopvecDTypeI64, 1)};
  report(engine, "divui store outside",
         coopvecFunctionRun(function, 3, args, 4, NULL, 0, 1));
  for (int i = 0; i < 7; ++i)
    if (v[i] != 0 || g[i] != 0)
      printf("FAIL: element %d written: %g %g\n", i, v[i], g[i]);
  if (v[7] != 5 || g[7] != 9)
    printf("FAIL: v[7] = %g (not 5), g[7] = %g (not 9)\n", v[7], g[7]);
}

/// A store to v[2k + 1, 2k + 3) with k that make the offset invalid.
static void testStoreErrors(CoopvecEngine *engine) {
  // CHECK-LABEL: testStoreErrors
  printf("testStoreErrors\n");
  CoopvecFunction *store = lookup(engine, "store");
  float x[2] = {1, 2}, v[8] = {0};
  int64_t ks[] = {-1, INT64_MAX, -((int64_t)1 << 40), 3};
  for (int i = 0; i < 4; ++i) {
    CoopvecArray args[3] = {array(x, CoopvecDTypeF32, 2),
                            array(v, CoopvecDTypeF32, 8),
                            array(&ks[i], CoopvecDTypeI64, 1)};
    char what[64];
    snprintf(what, sizeof(what), "k = %lld", (long long)ks[i]);
    report(engine, what, coopvecFunctionRun(store, 1, args, 3, NULL, 0, 2));
  }
  // CHECK-NEXT: k = -1: out of bounds: argument #1 (memref<?xf32>) of @store: 'coopvec.store' at {{.*}}: offset -1 is negative
  // CHECK-NEXT: k = 9223372036854775807: out of bounds: argument #1 (memref<?xf32>) of @store: 'coopvec.store' at {{.*}}: its offset cannot be evaluated: arith.muli of 9223372036854775807 and 2 overflows
  // CHECK-NEXT: k = -1099511627776: out of bounds: {{.*}}: offset -2199023255551 is negative
  // CHECK-NEXT: k = 3: out of bounds: argument #1 (memref<?xf32>) of @store holds 8 elements, but the function accesses 9
  for (int i = 0; i < 8; ++i)
    if (v[i] != 0)
      printf("FAIL: v[%d] was written\n", i);

  CoopvecFunction *divided = lookup(engine, "divided");
  float w[8] = {0, 0, 0, 0, 0, 0, 0, 5};
  int64_t k = 4;
  CoopvecArray args[2] = {array(w, CoopvecDTypeF32, 8),
                          array(&k, CoopvecDTypeI64, 1)};
  CoopvecArray result = array(x, CoopvecDTypeF32, 2);
  // The compiled code checks the load: k = 4 reads [2, 4), inside; k = 14
  // reads [7, 9), one element outside (a run-time report, result 0 there).
  // CHECK-NEXT: divui: success
  report(engine, "divui",
         coopvecFunctionRun(divided, 1, args, 2, &result, 1, 1));
  k = 14;
  // CHECK-NEXT: divui outside: out of bounds: @divided: 1 access outside its buffer at run time (reads gave 0, writes were dropped); the first: thread 0 at -:{{[0-9]+}}:8 ('coopvec.load')
  report(engine, "divui outside",
         coopvecFunctionRun(divided, 1, args, 2, &result, 1, 1));
  if (x[0] != 5 || x[1] != 0)
    printf("FAIL: read %g %g, not 5 and 0 (outside)\n", x[0], x[1]);
  // CHECK-NEXT: divui store outside: out of bounds: @divided_store: 6 accesses outside their buffer at run time (reads gave 0, writes were dropped); the first: thread 0 at -:{{[0-9]+}}:3 ('coopvec.store')
  testDividedStore(engine);
  int64_t extent;
  // CHECK-NEXT: divui extent: unknown access: {{.*}} 'arith.divui'
  report(engine, "divui extent",
         coopvecFunctionGetMemRefExtent(divided, 0, args, 2, &extent));
  // CHECK-NEXT: not a memref: invalid argument: argument #1 of @divided is not a memref
  report(engine, "not a memref",
         coopvecFunctionGetMemRefExtent(divided, 1, args, 2, &extent));
  CoopvecValueInfo info;
  // CHECK-NEXT: no result #1: invalid argument: @divided has no result #1 (it has 1)
  report(engine, "no result #1", coopvecFunctionGetResult(divided, 1, &info));

  CoopvecFunction *matrixArg = lookup(engine, "matrix_arg");
  float m[16] = {0};
  CoopvecArray matrixArgs[2] = {array(m, CoopvecDTypeF32, 16),
                                array(x, CoopvecDTypeF32, 2)};
  // CHECK-NEXT: matrix argument: unsupported type: argument #0 of @matrix_arg has type memref<4x4xf32>, which the execution engine cannot pass (supported: !coopvec.vec and rank-1 memref of f16/f32, scalar f16/f32/f64/index/i64)
  report(engine, "matrix argument",
         coopvecFunctionRun(matrixArg, 1, matrixArgs, 2, &result, 1, 1));

  CoopvecFunction *plain = lookup(engine, "plain");
  CoopvecArray scalar = array(&x[0], CoopvecDTypeF32, 1);
  // CHECK-NEXT: no entry point: not found: the lowered module has no @plain_batched with llvm.emit_c_interface
  report(engine, "no entry point",
         coopvecFunctionRun(plain, 1, &scalar, 1, NULL, 0, 1));
  CoopvecFunction *none = NULL;
  // CHECK-NEXT: unknown entry: not found: no function @nope; available: @layer, @store, @masked, @divided, @divided_store, @matrix_arg, @plain
  report(engine, "unknown entry", coopvecEngineLookup(engine, "nope", &none));
}

//===----------------------------------------------------------------------===//
// f16 gradients: summed in f32, rounded once per run
//===----------------------------------------------------------------------===//

/// Every thread adds (1/64, 1/64) to g[1, 3) of an f16 buffer.
static const char *const kAccumulate16 =
    "func.func @acc16(%g: memref<?xf16>) {\n"
    "  %c1 = arith.constant 1 : index\n"
    "  %s = arith.constant 0.015625 : f16\n"
    "  %x = \"coopvec.from_elements\"(%s, %s) : (f16, f16) -> "
    "!coopvec.vec<2, f16>\n"
    "  \"coopvec.reduce_sum_accumulate\"(%x, %g, %c1) : "
    "(!coopvec.vec<2, f16>, memref<?xf16>, index) -> ()\n"
    "  return\n"
    "}\n";

/// Runs @acc16 for `batch` threads on `threads` host threads, then prints g
/// as bits.
static void runAccumulate16(CoopvecFunction *function, uint16_t *g,
                            int64_t batch, int threads) {
  CoopvecArray args[1] = {array(g, CoopvecDTypeF16, 6)};
  CoopvecStatus status =
      coopvecFunctionRun(function, batch, args, 1, NULL, 0, threads);
  printf("batch %lld, %d thread(s): %s", (long long)batch, threads,
         coopvecStatusGetName(status));
  for (int i = 0; i < 6; ++i)
    printf(" %04x", g[i]);
  printf("\n");
}

/// The engine runs the function on an f32 shadow of g and adds it back once
/// (docs/execution-engine.md, "f16 gradients"): 65537 threads give 1024
/// (0x6400), not the 512 of a buffer rounded by every lane group's add,
/// whatever the host threads; elements nothing adds to keep their bits (a
/// NaN's payload, -0.0, a subnormal, -inf). Under valgrind
/// (test/valgrind/execution-engine.test), the shadows are freed.
static void testF16Gradients(MlirContext ctx) {
  // CHECK-LABEL: testF16Gradients
  printf("testF16Gradients\n");
  CoopvecEngine *engine = compile(ctx, kAccumulate16, NULL);
  CoopvecFunction *function = engine ? lookup(engine, "acc16") : NULL;
  if (!function) {
    coopvecEngineDestroy(engine);
    return;
  }
  // The signature is the caller's: f16.
  CoopvecValueInfo info;
  coopvecFunctionGetArg(function, 0, &info);
  printInfo("arg", 0, &info);
  // CHECK-NEXT: arg 0: memref f16 length -1 written memref<?xf16>
  for (int threads = 1; threads <= 3; threads += 2) {
    // NaN with a payload, -0.0, 1.0, -0.0, the least subnormal, -inf.
    uint16_t g[6] = {0x7e01, 0x8000, 0x3c00, 0x8000, 0x0001, 0xfc00};
    runAccumulate16(function, g, 65537, threads);
    runAccumulate16(function, g, 65537, threads);
  }
  // 0 + 1024.016 -> 1024 (6400), 1 + 1024.016 -> 1025 (6401); again:
  // 1024 + 1024.016 -> 2048 (6800), 1025 + 1024.016 -> 2050 (6801).
  // CHECK-NEXT: batch 65537, 1 thread(s): success 7e01 6400 6401 8000 0001 fc00
  // CHECK-NEXT: batch 65537, 1 thread(s): success 7e01 6800 6801 8000 0001 fc00
  // CHECK-NEXT: batch 65537, 3 thread(s): success 7e01 6400 6401 8000 0001 fc00
  // CHECK-NEXT: batch 65537, 3 thread(s): success 7e01 6800 6801 8000 0001 fc00
  coopvecEngineDestroy(engine);
}

/// Creates an engine for `source` with `options` and compiles it; reports
/// the first failure.
static void expectEngineError(MlirContext ctx, const char *what,
                              const char *source,
                              const CoopvecEngineOptions *options) {
  MlirModule module = parse(ctx, source);
  CoopvecEngine *engine = NULL;
  CoopvecStatus status =
      coopvecEngineCreate(mlirModuleGetOperation(module), options, &engine);
  if (status == CoopvecStatusSuccess)
    status = coopvecEngineCompile(engine);
  report(engine, what, status);
  coopvecEngineDestroy(engine);
  mlirModuleDestroy(module);
}

static const char *const kScale =
    "func.func @scale(%x: !coopvec.vec<4, f32>, %s: f32) -> "
    "!coopvec.vec<4, f32> {\n"
    "  %y = \"coopvec.mul\"(%x, %s) : (!coopvec.vec<4, f32>, f32) -> "
    "!coopvec.vec<4, f32>\n"
    "  return %y : !coopvec.vec<4, f32>\n"
    "}\n";

static void testEngineErrors(MlirContext ctx) {
  // CHECK-LABEL: testEngineErrors
  printf("testEngineErrors\n");
  CoopvecEngineOptions options = coopvecEngineOptionsGetDefault();
  options.target = CoopvecTargetCUDA;
  // CHECK-NEXT: cuda: no device: CUDA: cannot load {{.*}}.no-driver/libcuda.so.1 (no NVIDIA driver): {{.*}}cannot open shared object file
  expectEngineError(ctx, "cuda", kScale, &options);
  coopvecTargetFromName("vulkan", &options.target);
  // CHECK-NEXT: vulkan: no device: Vulkan: cannot load {{.*}}.no-loader/libvulkan.so.1 (no Vulkan loader): {{.*}}cannot open shared object file
  expectEngineError(ctx, "vulkan", kScale, &options);
  options.target = (CoopvecTarget)7;
  // CHECK-NEXT: target 7: invalid argument: unknown target 7
  expectEngineError(ctx, "target 7", kScale, &options);
  options = coopvecEngineOptionsGetDefault();
  options.pipeline = "builtin.module(no-such-pass)";
  // CHECK-NEXT: bad pipeline: compile error: lowering with 'builtin.module(no-such-pass)' failed: pass pipeline:1:16: error: 'no-such-pass' is neither a coopvec pass
  // CHECK-NEXT: builtin.module(no-such-pass)
  // CHECK-NEXT: ^
  expectEngineError(ctx, "bad pipeline", kScale, &options);
  options.pipeline = "builtin.module(coopvec-verify)";
  // CHECK-NEXT: not lowered: compile error: the lowered module still holds 'func.func' (at {{.*}}): the pipeline must lower everything to the LLVM dialect
  expectEngineError(ctx, "not lowered", kScale, &options);
  // pipelineOptions go into the default pipeline's braces, so a word the
  // pipeline does not know is its error; with a whole pipeline they have
  // nowhere to go.
  options.pipelineOptions = "reduce-mode=local";
  // CHECK-NEXT: options and pipeline: invalid argument: pipeline options 'reduce-mode=local' are for the target's default pipeline, not with pipeline 'builtin.module(coopvec-verify)'
  expectEngineError(ctx, "options and pipeline", kScale, &options);
  options.pipeline = NULL;
  options.pipelineOptions = "reduce-mode=bogus";
  // CHECK-NEXT: bad pipeline option: compile error: lowering with 'builtin.module(coopvec-lower-to-cpu{reduce-mode=bogus})' failed
  // CHECK-NEXT: {{.*}}error: convert-coopvec-to-cpu: reduce-mode=bogus is not a mode; use direct, local, expand or auto
  expectEngineError(ctx, "bad pipeline option", kScale, &options);
  options.pipelineOptions = NULL;
  const char *unaligned =
      "func.func @f(%w: memref<?xf32>, %x: !coopvec.vec<3, f32>) -> "
      "!coopvec.vec<3, f32> {\n"
      "  %A = \"coopvec.matrix_view\"(%w) {offset = 4} : (memref<?xf32>) -> "
      "!coopvec.matrix<3, 3, f32, \"row_major\">\n"
      "  %y = \"coopvec.matvec\"(%A, %x) : (!coopvec.matrix<3, 3, f32, "
      "\"row_major\">, !coopvec.vec<3, f32>) -> !coopvec.vec<3, f32>\n"
      "  return %y : !coopvec.vec<3, f32>\n"
      "}\n";
  // CHECK-NEXT: invalid module: invalid module: the module does not verify:
  // CHECK-NEXT: {{.*}}error: {{.*}}offset
  expectEngineError(ctx, "invalid module", unaligned, NULL);

  // Lookup works before compiling; running does not.
  MlirModule module = parse(ctx, kScale);
  CoopvecEngine *engine = NULL;
  coopvecEngineCreate(mlirModuleGetOperation(module), NULL, &engine);
  CoopvecFunction *scale = lookup(engine, "scale");
  float x[4] = {1, 2, 3, 4}, s = 2, y[4] = {0};
  CoopvecArray args[2] = {array(x, CoopvecDTypeF32, 4),
                          array(&s, CoopvecDTypeF32, 1)};
  CoopvecArray result = array(y, CoopvecDTypeF32, 4);
  // CHECK-NEXT: not compiled: not compiled: the engine is not compiled (call coopvecEngineCompile first)
  report(engine, "not compiled",
         coopvecFunctionRun(scale, 1, args, 2, &result, 1, 1));
  CoopvecStatus status = coopvecEngineCompile(engine);
  if (status == CoopvecStatusSuccess)
    status = coopvecFunctionRun(scale, 1, args, 2, &result, 1, 1);
  // CHECK-NEXT: compiled afterwards: success 2 4 6 8
  printf("compiled afterwards: %s %g %g %g %g\n", coopvecStatusGetName(status),
         y[0], y[1], y[2], y[3]);
  coopvecEngineDestroy(engine);
  mlirModuleDestroy(module);
  // CHECK-NEXT: null engine: invalid argument
  printf("null engine: %s\n", coopvecStatusGetName(coopvecEngineCreate(
                                  (MlirOperation){NULL}, NULL, NULL)));
  // Issue 24, row 4: a NULL target pointer was written through (SIGSEGV).
  CoopvecTarget target = CoopvecTargetVulkan;
  bool nullTarget = coopvecTargetFromName("cpu", NULL);
  bool nullName = coopvecTargetFromName(NULL, &target);
  // CHECK-NEXT: null target name arguments: 0 0 vulkan
  printf("null target name arguments: %d %d %s\n", nullTarget, nullName,
         coopvecTargetGetName(target));
}

/// A feature of the checked x86 list this host lacks, or NULL.
static const char *missingHostFeature(void) {
  static const char *const candidates[] = {"avx2", "fma", "avx512f", "avx512bw",
                                           "avx512fp16"};
  char *features = LLVMGetHostCPUFeatures();
  const char *missing = NULL;
  for (int i = 0; i < 5 && !missing; ++i) {
    char plus[32];
    snprintf(plus, sizeof(plus), "+%s", candidates[i]);
    const char *at = strstr(features, plus);
    size_t length = strlen(plus);
    // "+avx512f" must not match "+avx512fp16".
    while (at && at[length] && at[length] != ',')
      at = strstr(at + 1, plus);
    if (!at)
      missing = candidates[i];
  }
  LLVMDisposeMessage(features);
  return missing;
}

/// Code for a CPU the host cannot run is refused before it runs: another
/// architecture, and (when this host lacks one) an x86 vector extension.
static void testHostMismatch(MlirContext ctx) {
  // CHECK-LABEL: testHostMismatch
  printf("testHostMismatch\n");
  CoopvecEngineOptions options = coopvecEngineOptionsGetDefault();
#if defined(__x86_64__)
  options.pipeline = "builtin.module(coopvec-lower-to-cpu{target-triple="
                     "aarch64-linux-gnu target-cpu=neoverse-v1})";
#else
  options.pipeline = "builtin.module(coopvec-lower-to-cpu{target-triple="
                     "x86_64-linux-gnu target-cpu=sapphirerapids})";
#endif
  // CHECK-NEXT: other architecture: host mismatch: the code was compiled for CPU '{{.*}}', which this host ({{.*}}) cannot run: unknown target CPU
  expectEngineError(ctx, "other architecture", kScale, &options);
#if defined(__x86_64__)
  const char *feature = missingHostFeature();
  char pipeline[256];
  snprintf(pipeline, sizeof(pipeline),
           "builtin.module(coopvec-lower-to-cpu{target-features=+%s})",
           feature ? feature : "sse4.2");
  options.pipeline = pipeline;
  MlirModule module = parse(ctx, kScale);
  CoopvecEngine *engine = NULL;
  CoopvecStatus status =
      coopvecEngineCreate(mlirModuleGetOperation(module), &options, &engine);
  if (status == CoopvecStatusSuccess)
    status = coopvecEngineCompile(engine);
  // Hosts with every checked extension can run whatever is asked for.
  bool expected = feature ? status == CoopvecStatusHostMismatch &&
                                strstr(coopvecEngineGetError(engine), feature)
                          : status == CoopvecStatusSuccess;
  // CHECK-NEXT: x86 feature the host lacks: as expected
  printf("x86 feature the host lacks: %s\n",
         expected ? "as expected" : coopvecEngineGetError(engine));
  coopvecEngineDestroy(engine);
  mlirModuleDestroy(module);
#else
  printf("x86 feature the host lacks: as expected\n");
#endif
}

int main(void) {
  MlirContext ctx = mlirContextCreate();
  if (mlirLogicalResultIsFailure(coopvecSetupContext(ctx)))
    return 1;
  CoopvecEngine *engine = compile(ctx, kLayer, NULL);
  if (!engine)
    return 1;
  testSignature(engine);
  testRun(engine);
  testRunErrors(engine);
  testStoreErrors(engine);
  coopvecEngineDestroy(engine);
  testF16Gradients(ctx);
  testEngineErrors(ctx);
  testHostMismatch(ctx);
  mlirContextDestroy(ctx);
  return 0;
}
