//===- interpreter.c - C API: the reference interpreter -------------------===//
//
// Each case parses a small coopvec module, runs it with coopvecInterpret and
// compares the results with values computed here in plain C, independently
// of the interpreter.
//
//===----------------------------------------------------------------------===//

// RUN: coopvec-capi-interpreter 2>&1 | FileCheck %s

#include "coopvec-c/Interpreter.h"
#include "coopvec-c/Coopvec.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void printError(MlirStringRef message, void *userData) {
  (void)userData;
  fprintf(stderr, "%.*s\n", (int)message.length, message.data);
}

/// Parses `source`, runs `name` and destroys the module. Returns 0 on
/// success; errors are printed.
static int interpret(MlirContext ctx, const char *source, const char *name,
                     int64_t threads, CoopvecArray *args, intptr_t numArgs,
                     CoopvecArray *results, intptr_t numResults) {
  MlirModule module =
      mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(source));
  if (mlirModuleIsNull(module)) {
    fprintf(stderr, "parse failed\n");
    return 1;
  }
  MlirLogicalResult result = coopvecInterpret(
      mlirModuleGetOperation(module), mlirStringRefCreateFromCString(name),
      threads, args, numArgs, results, numResults, printError, NULL);
  mlirModuleDestroy(module);
  return mlirLogicalResultIsFailure(result);
}

static CoopvecArray array(void *data, CoopvecDType dtype, int64_t size) {
  CoopvecArray result = {data, dtype, size};
  return result;
}

/// Whether |got - want| <= tolerance * max(1, |want|) for all n elements;
/// prints the first mismatch.
static int closeTo(const char *what, const double *got, const double *want,
                   int64_t n, double tolerance) {
  for (int64_t i = 0; i < n; ++i) {
    if (fabs(got[i] - want[i]) <= tolerance * fmax(1.0, fabs(want[i])))
      continue;
    fprintf(stderr, "FAIL %s: element %lld is %.17g, expected %.17g\n", what,
            (long long)i, got[i], want[i]);
    return 0;
  }
  return 1;
}

/// Deterministic values in [-2, 2), multiples of 1/64: exact in f16 and f32.
static double nextValue(unsigned *state) {
  *state = *state * 1103515245u + 12345u;
  return (double)((int)((*state >> 16) % 256) - 128) / 64.0;
}

//===----------------------------------------------------------------------===//
// Elementwise ops
//===----------------------------------------------------------------------===//

static const char *elementwiseSource =
    "func.func @f(%x: !coopvec.vec<3, f32>, %y: !coopvec.vec<3, f32>,\n"
    "             %s: f32) -> (!coopvec.vec<3, f32>, !coopvec.vec<3, f32>,\n"
    "    !coopvec.vec<3, f32>, !coopvec.vec<3, f32>, !coopvec.vec<3, f32>,\n"
    "    !coopvec.vec<3, f32>, !coopvec.vec<3, f32>, !coopvec.vec<3, f32>,\n"
    "    !coopvec.vec<3, f32>, !coopvec.vec<3, f32>, !coopvec.vec<3, f32>,\n"
    "    !coopvec.vec<3, f32>, !coopvec.vec<3, f32>) {\n"
    "  %0 = \"coopvec.add\"(%x, %y) : (!coopvec.vec<3, f32>, "
    "!coopvec.vec<3, f32>) -> !coopvec.vec<3, f32>\n"
    "  %1 = \"coopvec.sub\"(%x, %s) : (!coopvec.vec<3, f32>, f32) -> "
    "!coopvec.vec<3, f32>\n"
    "  %2 = \"coopvec.mul\"(%x, %y) : (!coopvec.vec<3, f32>, "
    "!coopvec.vec<3, f32>) -> !coopvec.vec<3, f32>\n"
    "  %3 = \"coopvec.min\"(%x, %y) : (!coopvec.vec<3, f32>, "
    "!coopvec.vec<3, f32>) -> !coopvec.vec<3, f32>\n"
    "  %4 = \"coopvec.max\"(%x, %s) : (!coopvec.vec<3, f32>, f32) -> "
    "!coopvec.vec<3, f32>\n"
    "  %5 = \"coopvec.step\"(%x, %y) : (!coopvec.vec<3, f32>, "
    "!coopvec.vec<3, f32>) -> !coopvec.vec<3, f32>\n"
    "  %6 = \"coopvec.step\"(%x, %s) : (!coopvec.vec<3, f32>, f32) -> "
    "!coopvec.vec<3, f32>\n"
    "  %7 = \"coopvec.fma\"(%x, %y, %s) : (!coopvec.vec<3, f32>, "
    "!coopvec.vec<3, f32>, f32) -> !coopvec.vec<3, f32>\n"
    "  %8 = \"coopvec.fma\"(%x, %s, %y) : (!coopvec.vec<3, f32>, f32, "
    "!coopvec.vec<3, f32>) -> !coopvec.vec<3, f32>\n"
    "  %9 = \"coopvec.neg\"(%x) : (!coopvec.vec<3, f32>) -> "
    "!coopvec.vec<3, f32>\n"
    "  %10 = \"coopvec.exp2\"(%x) : (!coopvec.vec<3, f32>) -> "
    "!coopvec.vec<3, f32>\n"
    "  %11 = \"coopvec.log2\"(%y) : (!coopvec.vec<3, f32>) -> "
    "!coopvec.vec<3, f32>\n"
    "  %12 = \"coopvec.tanh\"(%x) : (!coopvec.vec<3, f32>) -> "
    "!coopvec.vec<3, f32>\n"
    "  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12 :\n"
    "    !coopvec.vec<3, f32>, !coopvec.vec<3, f32>, !coopvec.vec<3, f32>,\n"
    "    !coopvec.vec<3, f32>, !coopvec.vec<3, f32>, !coopvec.vec<3, f32>,\n"
    "    !coopvec.vec<3, f32>, !coopvec.vec<3, f32>, !coopvec.vec<3, f32>,\n"
    "    !coopvec.vec<3, f32>, !coopvec.vec<3, f32>, !coopvec.vec<3, f32>,\n"
    "    !coopvec.vec<3, f32>\n"
    "}\n";

enum { EW_THREADS = 4, EW_N = 3, EW_OPS = 13 };

static double elementwiseReference(int opIndex, double x, double y, double s) {
  switch (opIndex) {
  case 0:
    return x + y;
  case 1:
    return x - s;
  case 2:
    return x * y;
  case 3:
    return x < y ? x : y;
  case 4:
    return x > s ? x : s;
  case 5:
    return x < y ? 0.0 : 1.0;
  case 6:
    return x < s ? 0.0 : 1.0;
  case 7:
    return x * y + s;
  case 8:
    return x * s + y;
  case 9:
    return -x;
  case 10:
    return pow(2.0, x);
  case 11:
    return log(y) / log(2.0);
  default:
    return (exp(2 * x) - 1) / (exp(2 * x) + 1);
  }
}

static int testElementwise(MlirContext ctx) {
  // CHECK-LABEL: testElementwise
  fprintf(stderr, "testElementwise\n");
  enum { N = EW_THREADS * EW_N };
  float x[N], y[N], s = 0.25f;
  unsigned seed = 1;
  for (int i = 0; i < N; ++i) {
    x[i] = (float)nextValue(&seed);
    y[i] = (float)fabs(nextValue(&seed)) + 0.5f; // positive, for log2
  }
  x[4] = y[4]; // step's edge case: x == edge gives 1
  double got[EW_OPS][N];
  CoopvecArray args[3] = {array(x, CoopvecDTypeF32, N),
                          array(y, CoopvecDTypeF32, N),
                          array(&s, CoopvecDTypeF32, 1)};
  CoopvecArray results[EW_OPS];
  for (int op = 0; op < EW_OPS; ++op)
    results[op] = array(got[op], CoopvecDTypeF64, N);
  if (interpret(ctx, elementwiseSource, "f", EW_THREADS, args, 3, results,
                EW_OPS))
    return 1;
  int ok = 1;
  static const char *names[EW_OPS] = {
      "add", "sub scalar",   "mul", "min",  "max scalar", "step", "step scalar",
      "fma", "fma scalar b", "neg", "exp2", "log2",       "tanh"};
  for (int op = 0; op < EW_OPS; ++op) {
    double want[N];
    for (int i = 0; i < N; ++i)
      want[i] = elementwiseReference(op, x[i], y[i], s);
    ok &= closeTo(names[op], got[op], want, N, 1e-14);
  }
  // CHECK: elementwise ok: 1
  fprintf(stderr, "elementwise ok: %d\n", ok);
  return 0;
}

//===----------------------------------------------------------------------===//
// matvec
//===----------------------------------------------------------------------===//

typedef struct MatvecCase {
  int rows, cols;
  const char *type; // "f32" or "f16"
  const char *layout;
  int bias, transpose;
} MatvecCase;

enum { MV_THREADS = 5, MV_MATRIX_BYTES = 64 };

/// y = A x (+ b) or A^T x (+ b); A is viewed 64 bytes into %w, the bias is
/// loaded from %w at element %boff.
static void matvecSource(const MatvecCase *c, char *text, size_t size) {
  int in = c->transpose ? c->rows : c->cols;
  int out = c->transpose ? c->cols : c->rows;
  const char *t = c->type;
  char matrix[96];
  snprintf(matrix, sizeof(matrix), "!coopvec.matrix<%d, %d, %s, \"%s\">",
           c->rows, c->cols, t, c->layout);
  char bias[512] = "", biasType[64] = "";
  if (c->bias) {
    snprintf(bias, sizeof(bias),
             "  %%b = \"coopvec.load\"(%%w, %%boff) : (memref<?x%s>, index) "
             "-> !coopvec.vec<%d, %s>\n",
             t, out, t);
    snprintf(biasType, sizeof(biasType), ", !coopvec.vec<%d, %s>", out, t);
  }
  snprintf(text, size,
           "func.func @mv(%%x: !coopvec.vec<%d, %s>, %%w: memref<?x%s>,\n"
           "              %%boff: index) -> !coopvec.vec<%d, %s> {\n"
           "  %%A = \"coopvec.matrix_view\"(%%w) {offset = %d} : "
           "(memref<?x%s>) -> %s\n"
           "%s"
           "  %%y = \"coopvec.matvec\"(%%A, %%x%s) %s : (%s, "
           "!coopvec.vec<%d, %s>%s) -> !coopvec.vec<%d, %s>\n"
           "  return %%y : !coopvec.vec<%d, %s>\n"
           "}\n",
           in, t, t, out, t, MV_MATRIX_BYTES, t, matrix, bias,
           c->bias ? ", %b" : "", c->transpose ? "{transpose}" : "", matrix, in,
           t, biasType, out, t, out, t);
}

/// Fills `weights` (as doubles and in the case's dtype) and returns the
/// element offset of the bias.
static int64_t fillWeights(const MatvecCase *c, double *values, void *data,
                           int64_t size, unsigned *seed) {
  int isHalf = strcmp(c->type, "f16") == 0;
  for (int64_t i = 0; i < size; ++i) {
    values[i] = nextValue(seed);
    if (isHalf)
      ((uint16_t *)data)[i] = coopvecDoubleToHalf(values[i]);
    else
      ((float *)data)[i] = (float)values[i];
  }
  int64_t elementBytes = isHalf ? 2 : 4;
  return MV_MATRIX_BYTES / elementBytes + (int64_t)c->rows * c->cols;
}

static double matrixAt(const MatvecCase *c, const double *weights, int row,
                       int col) {
  int64_t first = MV_MATRIX_BYTES / (strcmp(c->type, "f16") == 0 ? 2 : 4);
  int64_t position = strcmp(c->layout, "col_major") == 0
                         ? (int64_t)col * c->rows + row
                         : (int64_t)row * c->cols + col;
  return weights[first + position];
}

static int runMatvecCase(MlirContext ctx, const MatvecCase *c) {
  int in = c->transpose ? c->rows : c->cols;
  int out = c->transpose ? c->cols : c->rows;
  int isHalf = strcmp(c->type, "f16") == 0;
  CoopvecDType dtype = isHalf ? CoopvecDTypeF16 : CoopvecDTypeF32;
  int64_t numWeights = 32 + (int64_t)c->rows * c->cols + out;
  double *weights = malloc(sizeof(double) * (size_t)numWeights);
  double *x = malloc(sizeof(double) * MV_THREADS * (size_t)in);
  void *weightData = malloc(8 * (size_t)numWeights);
  void *xData = malloc(8 * MV_THREADS * (size_t)in);
  double *got = malloc(sizeof(double) * MV_THREADS * (size_t)out);
  double *want = malloc(sizeof(double) * MV_THREADS * (size_t)out);
  unsigned seed = (unsigned)(c->rows * 131 + c->cols);
  int64_t biasOffset = fillWeights(c, weights, weightData, numWeights, &seed);
  MatvecCase xCase = *c;
  fillWeights(&xCase, x, xData, MV_THREADS * (int64_t)in, &seed);
  for (int t = 0; t < MV_THREADS; ++t)
    for (int o = 0; o < out; ++o) {
      double sum = c->bias ? weights[biasOffset + o] : 0.0;
      for (int i = 0; i < in; ++i)
        sum += (c->transpose ? matrixAt(c, weights, i, o)
                             : matrixAt(c, weights, o, i)) *
               x[t * in + i];
      want[t * out + o] = sum;
    }
  char source[4096];
  matvecSource(c, source, sizeof(source));
  CoopvecArray args[3] = {array(xData, dtype, MV_THREADS * (int64_t)in),
                          array(weightData, dtype, numWeights),
                          array(&biasOffset, CoopvecDTypeI64, 1)};
  CoopvecArray result = array(got, CoopvecDTypeF64, MV_THREADS * out);
  char what[128];
  snprintf(what, sizeof(what), "matvec %dx%d %s %s%s%s", c->rows, c->cols,
           c->type, c->layout, c->bias ? " bias" : "",
           c->transpose ? " transpose" : "");
  // The interpreter does not round between ops: the f16 result is the exact
  // double-precision sum of the f16 inputs.
  int ok = !interpret(ctx, source, "mv", MV_THREADS, args, 3, &result, 1) &&
           closeTo(what, got, want, MV_THREADS * (int64_t)out, 1e-12);
  free(weights);
  free(x);
  free(weightData);
  free(xData);
  free(got);
  free(want);
  return ok;
}

static int testMatvec(MlirContext ctx) {
  // CHECK-LABEL: testMatvec
  fprintf(stderr, "testMatvec\n");
  static const int shapes[][2] = {{1, 1},   {3, 7},   {7, 3},
                                  {17, 33}, {33, 17}, {1, 33}};
  static const char *layouts[] = {"row_major", "col_major", "inference",
                                  "training"};
  int cases = 0, failures = 0;
  for (size_t s = 0; s < sizeof(shapes) / sizeof(shapes[0]); ++s)
    for (int layout = 0; layout < 4; ++layout)
      for (int flags = 0; flags < 4; ++flags) {
        // f32 matrices use the explicit layouts only.
        const char *type = layout >= 2 || (flags + (int)s) % 2 ? "f16" : "f32";
        MatvecCase c = {shapes[s][0],    shapes[s][1], type,
                        layouts[layout], flags & 1,    (flags >> 1) & 1};
        ++cases;
        failures += !runMatvecCase(ctx, &c);
      }
  // CHECK: matvec: 96 cases, 0 failures
  fprintf(stderr, "matvec: %d cases, %d failures\n", cases, failures);
  return 0;
}

//===----------------------------------------------------------------------===//
// Masked transfers, construction, unpacking, casts
//===----------------------------------------------------------------------===//

static const char *maskedSource =
    "func.func @masked(%src: memref<?xf32>, %dst: memref<?xf32>, %off: "
    "index, %pad: f32) -> !coopvec.vec<5, f32> {\n"
    "  %mask = arith.constant dense<[true, false, true, true, false]> : "
    "vector<5xi1>\n"
    "  %v = \"coopvec.masked_load\"(%src, %off, %mask, %pad) : "
    "(memref<?xf32>, index, vector<5xi1>, f32) -> !coopvec.vec<5, f32>\n"
    "  %c1 = arith.constant 1 : index\n"
    "  %off1 = arith.addi %off, %c1 : index\n"
    "  \"coopvec.masked_store\"(%v, %dst, %off1, %mask) : "
    "(!coopvec.vec<5, f32>, memref<?xf32>, index, vector<5xi1>) -> ()\n"
    "  return %v : !coopvec.vec<5, f32>\n"
    "}\n";

static int testMasked(MlirContext ctx) {
  // CHECK-LABEL: testMasked
  fprintf(stderr, "testMasked\n");
  // Offset 1: masked-off element 4 would be src[5], past the end; it must
  // not be read.
  float src[5] = {10, 11, 12, 13, 14}, dst[6] = {0}, pad = -1;
  int64_t off = 1;
  double got[5];
  CoopvecArray args[4] = {
      array(src, CoopvecDTypeF32, 5), array(dst, CoopvecDTypeF32, 6),
      array(&off, CoopvecDTypeI64, 1), array(&pad, CoopvecDTypeF32, 1)};
  CoopvecArray result = array(got, CoopvecDTypeF64, 5);
  if (interpret(ctx, maskedSource, "masked", 1, args, 4, &result, 1))
    return 1;
  // CHECK: masked_load: 11 -1 13 14 -1
  fprintf(stderr, "masked_load: %g %g %g %g %g\n", got[0], got[1], got[2],
          got[3], got[4]);
  // Stored at 2.. with lanes 1 and 4 masked off.
  // CHECK: masked_store: 0 0 11 0 13 14
  fprintf(stderr, "masked_store: %g %g %g %g %g %g\n", dst[0], dst[1], dst[2],
          dst[3], dst[4], dst[5]);
  return 0;
}

static const char *packSource =
    "func.func @pack(%a: f32, %b: f32, %h: !coopvec.vec<2, f16>) -> (f32, "
    "!coopvec.vec<3, f32>, !coopvec.vec<2, f16>, vector<2xf16>, "
    "!coopvec.vec<4, f32>) {\n"
    "  %v = \"coopvec.from_elements\"(%a, %b, %a) : (f32, f32, f32) -> "
    "!coopvec.vec<3, f32>\n"
    "  %e:3 = \"coopvec.unpack\"(%v) : (!coopvec.vec<3, f32>) -> (f32, f32, "
    "f32)\n"
    "  %p = arith.mulf %e#0, %e#1 : f32\n"
    "  %q = arith.divf %p, %e#2 : f32\n"
    "  %r = arith.subf %q, %b : f32\n"
    "  %n = arith.negf %r : f32\n"
    "  %mx = arith.maximumf %n, %a : f32\n"
    "  %mn = arith.minimumf %mx, %b : f32\n"
    "  %sum = arith.addf %mn, %e#2 : f32\n"
    "  %third = arith.constant 0.1 : f32\n"
    "  %s = \"coopvec.splat\"(%third) : (f32) -> !coopvec.vec<3, f32>\n"
    "  %w = \"coopvec.add\"(%v, %s) : (!coopvec.vec<3, f32>, "
    "!coopvec.vec<3, f32>) -> !coopvec.vec<3, f32>\n"
    "  %c = \"coopvec.cast\"(%w) : (!coopvec.vec<3, f32>) -> "
    "!coopvec.vec<3, f16>\n"
    "  %c2:3 = \"coopvec.unpack\"(%c) : (!coopvec.vec<3, f16>) -> (f16, "
    "f16, f16)\n"
    "  %h2 = \"coopvec.from_elements\"(%c2#2, %c2#0) : (f16, f16) -> "
    "!coopvec.vec<2, f16>\n"
    "  %hv = \"coopvec.to_vector\"(%h) : (!coopvec.vec<2, f16>) -> "
    "vector<2xf16>\n"
    "  %k = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : vector<4xf32>\n"
    "  %kv = \"coopvec.from_vector\"(%k) : (vector<4xf32>) -> "
    "!coopvec.vec<4, f32>\n"
    "  return %sum, %w, %h2, %hv, %kv : f32, !coopvec.vec<3, f32>, "
    "!coopvec.vec<2, f16>, vector<2xf16>, !coopvec.vec<4, f32>\n"
    "}\n";

static int testPackUnpack(MlirContext ctx) {
  // CHECK-LABEL: testPackUnpack
  fprintf(stderr, "testPackUnpack\n");
  // Two threads with per-thread scalars %a, a shared scalar %b.
  float a[2] = {3, -5}, b = 2;
  uint16_t h[4] = {coopvecDoubleToHalf(1.5), coopvecDoubleToHalf(-2),
                   coopvecDoubleToHalf(0.25), coopvecDoubleToHalf(8)};
  double sum[2], w[6], hv[4], k[8];
  uint16_t h2[4];
  CoopvecArray args[3] = {array(a, CoopvecDTypeF32, 2),
                          array(&b, CoopvecDTypeF32, 1),
                          array(h, CoopvecDTypeF16, 4)};
  CoopvecArray results[5] = {
      array(sum, CoopvecDTypeF64, 2), array(w, CoopvecDTypeF64, 6),
      array(h2, CoopvecDTypeF16, 4), array(hv, CoopvecDTypeF64, 4),
      array(k, CoopvecDTypeF64, 8)};
  if (interpret(ctx, packSource, "pack", 2, args, 3, results, 5))
    return 1;
  for (int t = 0; t < 2; ++t) {
    double q = a[t] * b / a[t] - b;
    double mn = fmin(fmax(-q, a[t]), b);
    fprintf(stderr, "thread %d: scalar %s\n", t,
            sum[t] == mn + a[t] ? "ok" : "wrong");
  }
  // CHECK: thread 0: scalar ok
  // CHECK: thread 1: scalar ok
  // Not rounded between ops: w = v + (double)0.1f exactly.
  // CHECK: vec: 3.1000000014901161 2.1000000014901161 3.1000000014901161
  fprintf(stderr, "vec: %.17g %.17g %.17g\n", w[0], w[1], w[2]);
  // cast rounds to f16 (3.1 -> 3.099609375); from_elements reorders.
  // CHECK: cast: 3.099609375 3.099609375 -4.8984375 -4.8984375
  fprintf(stderr, "cast: %.17g %.17g %.17g %.17g\n", coopvecHalfToDouble(h2[0]),
          coopvecHalfToDouble(h2[1]), coopvecHalfToDouble(h2[2]),
          coopvecHalfToDouble(h2[3]));
  // CHECK: to_vector: 1.5 -2 0.25 8
  fprintf(stderr, "to_vector: %g %g %g %g\n", hv[0], hv[1], hv[2], hv[3]);
  // CHECK: from_vector: 1 2 3 4 1 2 3 4
  fprintf(stderr, "from_vector: %g %g %g %g %g %g %g %g\n", k[0], k[1], k[2],
          k[3], k[4], k[5], k[6], k[7]);
  return 0;
}

//===----------------------------------------------------------------------===//
// Gradient accumulation across threads
//===----------------------------------------------------------------------===//

static const char *accumulateSource =
    "func.func @grad(%a: !coopvec.vec<3, f32>, %b: !coopvec.vec<5, f32>,\n"
    "                %g: memref<?xf32>) {\n"
    "  %G = \"coopvec.matrix_view\"(%g) {offset = 16} : (memref<?xf32>) -> "
    "!coopvec.matrix<3, 5, f32, \"col_major\">\n"
    "  \"coopvec.outer_product_accumulate\"(%a, %b, %G) : "
    "(!coopvec.vec<3, f32>, !coopvec.vec<5, f32>, "
    "!coopvec.matrix<3, 5, f32, \"col_major\">) -> ()\n"
    "  %c1 = arith.constant 1 : index\n"
    "  \"coopvec.reduce_sum_accumulate\"(%b, %g, %c1) : "
    "(!coopvec.vec<5, f32>, memref<?xf32>, index) -> ()\n"
    "  return\n"
    "}\n"
    "func.func @half(%v: !coopvec.vec<1, f16>, %g: memref<?xf16>) {\n"
    "  %c0 = arith.constant 0 : index\n"
    "  \"coopvec.reduce_sum_accumulate\"(%v, %g, %c0) : "
    "(!coopvec.vec<1, f16>, memref<?xf16>, index) -> ()\n"
    "  return\n"
    "}\n";

static int testAccumulate(MlirContext ctx) {
  // CHECK-LABEL: testAccumulate
  fprintf(stderr, "testAccumulate\n");
  enum { T = 9, SIZE = 4 + 15 };
  float a[T * 3], b[T * 5], g[SIZE];
  double want[SIZE], got[SIZE];
  unsigned seed = 7;
  for (int i = 0; i < T * 3; ++i)
    a[i] = (float)nextValue(&seed);
  for (int i = 0; i < T * 5; ++i)
    b[i] = (float)nextValue(&seed);
  for (int i = 0; i < SIZE; ++i)
    want[i] = g[i] = (float)nextValue(&seed);
  for (int t = 0; t < T; ++t)
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 5; ++j)
        want[4 + j * 3 + i] += (double)a[t * 3 + i] * b[t * 5 + j];
  for (int t = 0; t < T; ++t)
    for (int j = 0; j < 5; ++j)
      want[1 + j] += b[t * 5 + j];
  CoopvecArray args[3] = {array(a, CoopvecDTypeF32, T * 3),
                          array(b, CoopvecDTypeF32, T * 5),
                          array(g, CoopvecDTypeF32, SIZE)};
  if (interpret(ctx, accumulateSource, "grad", T, args, 3, NULL, 0))
    return 1;
  for (int i = 0; i < SIZE; ++i) {
    got[i] = g[i];
    want[i] = (float)want[i]; // written back once, rounded to f32
  }
  // CHECK: gradients ok: 1
  fprintf(stderr, "gradients ok: %d\n", closeTo("grad", got, want, SIZE, 0));

  // 2048 + 1 rounds back to 2048 in f16 (ties to even), so summing eight
  // 1s one at a time in f16 would leave 2048; the sum is kept in double.
  uint16_t v[8], h = coopvecDoubleToHalf(2048);
  for (int i = 0; i < 8; ++i)
    v[i] = coopvecDoubleToHalf(1);
  CoopvecArray halfArgs[2] = {array(v, CoopvecDTypeF16, 8),
                              array(&h, CoopvecDTypeF16, 1)};
  if (interpret(ctx, accumulateSource, "half", 8, halfArgs, 2, NULL, 0))
    return 1;
  // CHECK: f16 accumulation: 2056
  fprintf(stderr, "f16 accumulation: %g\n", coopvecHalfToDouble(h));
  return 0;
}

//===----------------------------------------------------------------------===//
// func.call, scf.for, store
//===----------------------------------------------------------------------===//

static const char *controlSource =
    "func.func @layer(%x: !coopvec.vec<2, f32>, %w: memref<?xf32>) -> "
    "!coopvec.vec<2, f32> {\n"
    "  %A = \"coopvec.matrix_view\"(%w) {offset = 0} : (memref<?xf32>) -> "
    "!coopvec.matrix<2, 2, f32, \"row_major\">\n"
    "  %y = \"coopvec.matvec\"(%A, %x) : (!coopvec.matrix<2, 2, f32, "
    "\"row_major\">, !coopvec.vec<2, f32>) -> !coopvec.vec<2, f32>\n"
    "  return %y : !coopvec.vec<2, f32>\n"
    "}\n"
    "func.func @net(%x: !coopvec.vec<2, f32>, %w: memref<?xf32>, %out: "
    "memref<?xf32>, %n: index) {\n"
    "  %c0 = arith.constant 0 : index\n"
    "  %c1 = arith.constant 1 : index\n"
    "  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%v = %x, %u = %x) "
    "-> (!coopvec.vec<2, f32>, !coopvec.vec<2, f32>) {\n"
    "    %y = func.call @layer(%v, %w) : (!coopvec.vec<2, f32>, "
    "memref<?xf32>) -> !coopvec.vec<2, f32>\n"
    "    scf.yield %y, %v : !coopvec.vec<2, f32>, !coopvec.vec<2, f32>\n"
    "  }\n"
    "  %c2 = arith.constant 2 : index\n"
    "  %i64 = arith.index_cast %n : index to i64\n"
    "  %back = arith.index_cast %i64 : i64 to index\n"
    "  %off = arith.muli %back, %c2 : index\n"
    "  \"coopvec.store\"(%r#0, %out, %off) : (!coopvec.vec<2, f32>, "
    "memref<?xf32>, index) -> ()\n"
    "  \"coopvec.store\"(%r#1, %out, %c0) : (!coopvec.vec<2, f32>, "
    "memref<?xf32>, index) -> ()\n"
    "  return\n"
    "}\n";

static int testControlFlow(MlirContext ctx) {
  // CHECK-LABEL: testControlFlow
  fprintf(stderr, "testControlFlow\n");
  // [[0, 1], [1, 1]] takes (1, 0) to (0, 1), (1, 1), (1, 2): the loop
  // returns the last two; the last is stored at 2 * n.
  float x[2] = {1, 0}, w[4] = {0, 1, 1, 1}, out[8] = {0};
  int64_t n = 3;
  CoopvecArray args[4] = {
      array(x, CoopvecDTypeF32, 2), array(w, CoopvecDTypeF32, 4),
      array(out, CoopvecDTypeF32, 8), array(&n, CoopvecDTypeI64, 1)};
  if (interpret(ctx, controlSource, "net", 1, args, 4, NULL, 0))
    return 1;
  // CHECK: loop: previous 1 1, last 1 2
  fprintf(stderr, "loop: previous %g %g, last %g %g\n", out[0], out[1], out[6],
          out[7]);
  return 0;
}

//===----------------------------------------------------------------------===//
// Per-thread programs: shared helpers
//===----------------------------------------------------------------------===//

/// Appends printf-style text to the string in `text` (`size` bytes).
static void append(char *text, size_t size, const char *format, ...)
    __attribute__((format(printf, 3, 4)));

static void append(char *text, size_t size, const char *format, ...) {
  size_t used = strlen(text);
  va_list args;
  va_start(args, format);
  vsnprintf(text + used, size - used, format, args);
  va_end(args);
}

/// The same value: equal with the same sign, or both NaN.
static int same(double a, double b) {
  return (isnan(a) && isnan(b)) || (a == b && signbit(a) == signbit(b));
}

static double toHalf(double x) {
  return coopvecHalfToDouble(coopvecDoubleToHalf(x));
}

/// `x` rounded to f16 (`half`) or f32.
static double roundAs(int half, double x) {
  return half ? toHalf(x) : (double)(float)x;
}

/// Fills a float input array of f16 or f32 with `values`, rounded.
static CoopvecArray floatInputs(int half, void *data, const double *values,
                                int64_t n) {
  CoopvecArray result =
      array(data, half ? CoopvecDTypeF16 : CoopvecDTypeF32, n);
  for (int64_t i = 0; i < n; ++i)
    coopvecArraySet(&result, i, values[i]);
  return result;
}

/// Counts the elements where `got` and `want` differ, printing the first.
static int countMismatches(const char *what, int op, const double *got,
                           const double *want, int n) {
  int mismatches = 0;
  for (int i = 0; i < n; ++i) {
    if (same(got[i], want[i]))
      continue;
    if (!mismatches++)
      fprintf(stderr, "FAIL %s #%d, thread %d: %.17g, expected %.17g\n", what,
              op, i, got[i], want[i]);
  }
  return mismatches;
}

//===----------------------------------------------------------------------===//
// Integer ops
//===----------------------------------------------------------------------===//

// CHECK-LABEL: testIntegerOps

static const char *intOps[] = {
    "addi",       "subi",  "muli",  "divsi", "divui", "ceildivsi", "ceildivui",
    "floordivsi", "remsi", "remui", "maxsi", "maxui", "minsi",     "minui",
    "andi",       "ori",   "xori",  "shli",  "shrsi", "shrui"};
static const char *cmpiPredicates[] = {"eq",  "ne",  "slt", "sle", "sgt",
                                       "sge", "ult", "ule", "ugt", "uge"};
enum { INT_OPS = 20, INT_CMPS = 10, INT_RESULTS = 30, INT_CASES = 16 };

/// @ints(%a: T, %b: T) -> (T x 20, i1 x 10): every integer op and cmpi
/// predicate, in the order of the tables above.
static void intSource(const char *t, char *text, size_t size) {
  text[0] = '\0';
  append(text, size, "func.func @ints(%%a: %s, %%b: %s) -> (", t, t);
  for (int i = 0; i < INT_RESULTS; ++i)
    append(text, size, "%s%s", i ? ", " : "", i < INT_OPS ? t : "i1");
  append(text, size, ") {\n");
  for (int i = 0; i < INT_OPS; ++i)
    append(text, size, "  %%r%d = arith.%s %%a, %%b : %s\n", i, intOps[i], t);
  for (int i = 0; i < INT_CMPS; ++i)
    append(text, size, "  %%r%d = arith.cmpi %s, %%a, %%b : %s\n", INT_OPS + i,
           cmpiPredicates[i], t);
  append(text, size, "  return");
  for (int i = 0; i < INT_RESULTS; ++i)
    append(text, size, "%s %%r%d", i ? "," : "", i);
  append(text, size, " :");
  for (int i = 0; i < INT_RESULTS; ++i)
    append(text, size, "%s %s", i ? "," : "", i < INT_OPS ? t : "i1");
  append(text, size, "\n}\n");
}

/// `v` wrapped to a signed integer of `bits` <= 32.
static int64_t wrapBits(int64_t v, int bits) {
  uint64_t sign = UINT64_C(1) << (bits - 1), mask = (sign << 1) - 1;
  return (int64_t)((((uint64_t)v & mask) ^ sign) - sign);
}

static int64_t ceilDiv(int64_t a, int64_t b) {
  return a / b + (a % b != 0 && (a < 0) == (b < 0));
}

static int64_t floorDiv(int64_t a, int64_t b) {
  return a / b - (a % b != 0 && (a < 0) != (b < 0));
}

/// Integer op `op` at width `bits` <= 32 in int64 arithmetic, which cannot
/// overflow there: a wrapped quotient such as INT_MIN / -1 wraps to
/// INT_MIN by itself.
static int64_t intReference(int op, int64_t a, int64_t b, int bits) {
  int64_t mask = (INT64_C(1) << bits) - 1, ua = a & mask, ub = b & mask;
  int64_t results[INT_OPS] = {a + b,
                              a - b,
                              a * b,
                              b ? a / b : 0,
                              ub ? ua / ub : 0,
                              b ? ceilDiv(a, b) : 0,
                              ub ? (ua + ub - 1) / ub : 0,
                              b ? floorDiv(a, b) : 0,
                              b ? a % b : 0,
                              ub ? ua % ub : 0,
                              a > b ? a : b,
                              ua > ub ? a : b,
                              a < b ? a : b,
                              ua < ub ? a : b,
                              a & b,
                              a | b,
                              a ^ b,
                              ub >= bits ? 0 : ua << ub,
                              ub >= bits ? (a < 0 ? -1 : 0)
                                         : floorDiv(a, INT64_C(1) << ub),
                              ub >= bits ? 0 : ua >> ub};
  int cmps[INT_CMPS] = {
      a == b,  a != b, a<b, a <= b, a> b, a >= b, ua<ub, ua <= ub, ua> ub,
      ua >= ub};
  return op < INT_OPS ? wrapBits(results[op], bits) : cmps[op - INT_OPS];
}

static int runIntWidth(MlirContext ctx, int bits) {
  int64_t min = -(INT64_C(1) << (bits - 1)), max = -min - 1;
  int64_t pairs[INT_CASES][2] = {
      {7, 3},   {-7, 3},    {7, -3},    {-7, -3}, {5, 0},     {min, -1},
      {min, 1}, {max, 1},   {min, min}, {-8, 1},  {-8, bits}, {-8, bits + 3},
      {3, -1},  {max, max}, {0, -1},    {100, 7}};
  int64_t a[INT_CASES], b[INT_CASES], got[INT_RESULTS][INT_CASES];
  for (int t = 0; t < INT_CASES; ++t) {
    a[t] = wrapBits(pairs[t][0], bits);
    b[t] = wrapBits(pairs[t][1], bits);
  }
  char type[8], source[8192];
  snprintf(type, sizeof(type), "i%d", bits);
  intSource(type, source, sizeof(source));
  CoopvecArray args[2] = {array(a, CoopvecDTypeI64, INT_CASES),
                          array(b, CoopvecDTypeI64, INT_CASES)};
  CoopvecArray results[INT_RESULTS];
  for (int i = 0; i < INT_RESULTS; ++i)
    results[i] = array(got[i], CoopvecDTypeI64, INT_CASES);
  if (interpret(ctx, source, "ints", INT_CASES, args, 2, results, INT_RESULTS))
    return 1;
  int mismatches = 0;
  for (int op = 0; op < INT_RESULTS; ++op)
    for (int t = 0; t < INT_CASES; ++t) {
      int64_t want = intReference(op, a[t], b[t], bits);
      if (got[op][t] != want && !mismatches++)
        fprintf(stderr, "FAIL i%d %s(%lld, %lld) = %lld, expected %lld\n", bits,
                op < INT_OPS ? intOps[op] : cmpiPredicates[op - INT_OPS],
                (long long)a[t], (long long)b[t], (long long)got[op][t],
                (long long)want);
    }
  // CHECK-COUNT-3: integer ops i{{8|16|32}}: 0 mismatches
  fprintf(stderr, "integer ops i%d: %d mismatches\n", bits, mismatches);
  return 0;
}

/// i64, where int64 arithmetic cannot be the reference: the defined cases
/// written out.
static int runInt64(MlirContext ctx) {
  enum { N = 6 };
  int64_t a[N] = {INT64_MIN, INT64_MAX, INT64_C(1) << 62, -9, -1, 1};
  int64_t b[N] = {-1, 1, 4, 64, 2, -1};
  int64_t got[INT_RESULTS][N];
  char source[8192];
  intSource("i64", source, sizeof(source));
  CoopvecArray args[2] = {array(a, CoopvecDTypeI64, N),
                          array(b, CoopvecDTypeI64, N)};
  CoopvecArray results[INT_RESULTS];
  for (int i = 0; i < INT_RESULTS; ++i)
    results[i] = array(got[i], CoopvecDTypeI64, N);
  if (interpret(ctx, source, "ints", N, args, 2, results, INT_RESULTS))
    return 1;
  // CHECK: i64 MIN/-1: divsi -9223372036854775808 ceildivsi
  // CHECK-SAME: -9223372036854775808 floordivsi -9223372036854775808 remsi 0
  // CHECK-SAME: muli -9223372036854775808 subi -9223372036854775807
  fprintf(stderr,
          "i64 MIN/-1: divsi %lld ceildivsi %lld floordivsi %lld remsi %lld "
          "muli %lld subi %lld\n",
          (long long)got[3][0], (long long)got[5][0], (long long)got[7][0],
          (long long)got[8][0], (long long)got[2][0], (long long)got[1][0]);
  // CHECK: i64 MAX+1: addi -9223372036854775808, 2^62*4: muli 0
  fprintf(stderr, "i64 MAX+1: addi %lld, 2^62*4: muli %lld\n",
          (long long)got[0][1], (long long)got[2][2]);
  // CHECK: i64 -9 by 64: shli 0 shrsi -1 shrui 0; -1 by 2: divui
  // CHECK-SAME: 9223372036854775807 ceildivui -9223372036854775808
  // CHECK-SAME: shrsi -1 shrui 4611686018427387903; 1 by -1: shli 0 shrsi 0
  // CHECK-SAME: ult 1 slt 0
  fprintf(stderr,
          "i64 -9 by 64: shli %lld shrsi %lld shrui %lld; -1 by 2: divui %lld "
          "ceildivui %lld shrsi %lld shrui %lld; 1 by -1: shli %lld shrsi "
          "%lld ult %lld slt %lld\n",
          (long long)got[17][3], (long long)got[18][3], (long long)got[19][3],
          (long long)got[4][4], (long long)got[6][4], (long long)got[18][4],
          (long long)got[19][4], (long long)got[17][5], (long long)got[18][5],
          (long long)got[26][5], (long long)got[22][5]);
  return 0;
}

static int testIntegerOps(MlirContext ctx) {
  fprintf(stderr, "testIntegerOps\n");
  return runIntWidth(ctx, 8) || runIntWidth(ctx, 16) || runIntWidth(ctx, 32) ||
         runInt64(ctx);
}

//===----------------------------------------------------------------------===//
// Float ops: rounded to their type per op
//===----------------------------------------------------------------------===//

static const char *floatOps[] = {"addf",    "subf",   "mulf",     "divf",
                                 "remf",    "negf",   "maximumf", "minimumf",
                                 "maxnumf", "minnumf"};
static const char *cmpfPredicates[] = {
    "false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord",
    "ueq",   "ugt", "uge", "ult", "ule", "une", "uno", "true"};
enum { FLOAT_OPS = 10, FLOAT_CMPS = 16, FLOAT_RESULTS = 26, FLOAT_CASES = 16 };

/// @floats(%a: T, %b: T) -> (T x 10, i1 x 16).
static void floatSource(const char *t, char *text, size_t size) {
  text[0] = '\0';
  append(text, size, "func.func @floats(%%a: %s, %%b: %s) -> (", t, t);
  for (int i = 0; i < FLOAT_RESULTS; ++i)
    append(text, size, "%s%s", i ? ", " : "", i < FLOAT_OPS ? t : "i1");
  append(text, size, ") {\n");
  for (int i = 0; i < FLOAT_OPS; ++i)
    append(text, size, "  %%r%d = arith.%s %%a%s : %s\n", i, floatOps[i],
           strcmp(floatOps[i], "negf") ? ", %b" : "", t);
  for (int i = 0; i < FLOAT_CMPS; ++i)
    append(text, size, "  %%r%d = arith.cmpf %s, %%a, %%b : %s\n",
           FLOAT_OPS + i, cmpfPredicates[i], t);
  append(text, size, "  return");
  for (int i = 0; i < FLOAT_RESULTS; ++i)
    append(text, size, "%s %%r%d", i ? "," : "", i);
  append(text, size, " :");
  for (int i = 0; i < FLOAT_RESULTS; ++i)
    append(text, size, "%s %s", i ? "," : "", i < FLOAT_OPS ? t : "i1");
  append(text, size, "\n}\n");
}

/// IEEE 754-2019 maximum / minimum: NaN wins, -0 < +0.
static double maximumOf(double a, double b) {
  if (isnan(a) || isnan(b))
    return NAN;
  if (a == 0 && b == 0)
    return signbit(a) ? b : a;
  return a > b ? a : b;
}

static double minimumOf(double a, double b) {
  if (isnan(a) || isnan(b))
    return NAN;
  if (a == 0 && b == 0)
    return signbit(a) ? a : b;
  return a < b ? a : b;
}

/// f32 ops computed in float; f16 ones in double and rounded once (double
/// has more than twice f16's precision, so that is the f16 result).
static double floatReference(int op, double a, double b, int half) {
  float fa = (float)a, fb = (float)b;
  double f32[FLOAT_OPS] = {
      fa + fb, fa - fb,         fa * fb,         fa / fb,       fmodf(fa, fb),
      -fa,     maximumOf(a, b), minimumOf(a, b), fmaxf(fa, fb), fminf(fa, fb)};
  double f16[FLOAT_OPS] = {
      a + b, a - b,           a * b,           a / b,      fmod(a, b),
      -a,    maximumOf(a, b), minimumOf(a, b), fmax(a, b), fmin(a, b)};
  // The predicates, each written from C's comparisons (false on NaN).
  int ord = a == a && b == b;
  int cmps[FLOAT_CMPS] = {0,
                          a == b,
                          a > b,
                          a >= b,
                          a < b,
                          a <= b,
                          a < b || a > b,
                          ord,
                          !(a < b || a > b),
                          !(a <= b),
                          !(a < b),
                          !(a >= b),
                          !(a > b),
                          !(a == b),
                          !ord,
                          1};
  if (op >= FLOAT_OPS)
    return cmps[op - FLOAT_OPS];
  return half ? toHalf(f16[op]) : f32[op];
}

static int runFloatType(MlirContext ctx, int half) {
  double big = half ? 65504 : 3e38,
         tiny = half ? ldexp(1, -24) : ldexp(1, -149);
  double pairs[FLOAT_CASES][2] = {{1.5, 2.25},
                                  {1, 3},
                                  {-0.0, 0.0},
                                  {0.0, -0.0},
                                  {NAN, 1},
                                  {1, NAN},
                                  {INFINITY, -INFINITY},
                                  {INFINITY, INFINITY},
                                  {5.5, 2},
                                  {-5.5, 2},
                                  {tiny, 0.5},
                                  {big, big},
                                  {0.1, 0.2},
                                  {half ? 2048 : 16777216, 1},
                                  {2, 2},
                                  {-1, 0}};
  double a[FLOAT_CASES], b[FLOAT_CASES], got[FLOAT_RESULTS][FLOAT_CASES];
  int64_t flags[FLOAT_RESULTS][FLOAT_CASES];
  uint32_t aData[FLOAT_CASES], bData[FLOAT_CASES];
  for (int t = 0; t < FLOAT_CASES; ++t) {
    a[t] = roundAs(half, pairs[t][0]);
    b[t] = roundAs(half, pairs[t][1]);
  }
  char source[8192];
  floatSource(half ? "f16" : "f32", source, sizeof(source));
  CoopvecArray args[2] = {floatInputs(half, aData, a, FLOAT_CASES),
                          floatInputs(half, bData, b, FLOAT_CASES)};
  CoopvecArray results[FLOAT_RESULTS];
  for (int i = 0; i < FLOAT_RESULTS; ++i)
    results[i] = i < FLOAT_OPS ? array(got[i], CoopvecDTypeF64, FLOAT_CASES)
                               : array(flags[i], CoopvecDTypeI64, FLOAT_CASES);
  if (interpret(ctx, source, "floats", FLOAT_CASES, args, 2, results,
                FLOAT_RESULTS))
    return 1;
  int mismatches = 0;
  for (int op = 0; op < FLOAT_RESULTS; ++op) {
    double want[FLOAT_CASES], value[FLOAT_CASES];
    for (int t = 0; t < FLOAT_CASES; ++t) {
      want[t] = floatReference(op, a[t], b[t], half);
      value[t] = op < FLOAT_OPS ? got[op][t] : (double)flags[op][t];
      // maxnumf / minnumf of -0 and +0 may be either zero (IEEE 754
      // maxNum / minNum; docs/dialect.md, "Special values").
      if ((op == 8 || op == 9) && a[t] == 0 && b[t] == 0)
        value[t] = fabs(value[t]), want[t] = fabs(want[t]);
    }
    mismatches += countMismatches(half ? "f16 op" : "f32 op", op, value, want,
                                  FLOAT_CASES);
  }
  fprintf(stderr, "float ops %s: %d mismatches\n", half ? "f16" : "f32",
          mismatches);
  return 0;
}

static int testFloatOps(MlirContext ctx) {
  // CHECK-LABEL: testFloatOps
  fprintf(stderr, "testFloatOps\n");
  // CHECK: float ops f32: 0 mismatches
  // CHECK: float ops f16: 0 mismatches
  return runFloatType(ctx, 0) || runFloatType(ctx, 1);
}

//===----------------------------------------------------------------------===//
// Conversions
//===----------------------------------------------------------------------===//

static const char *convertSource =
    "func.func @convert(%f: f32, %i: i64) -> (i8, i8, i32, i32, i64, i64,\n"
    "    f32, f32, f16, f16, f16) {\n"
    "  %0 = arith.fptosi %f : f32 to i8\n"
    "  %1 = arith.fptoui %f : f32 to i8\n"
    "  %2 = arith.fptosi %f : f32 to i32\n"
    "  %3 = arith.fptoui %f : f32 to i32\n"
    "  %4 = arith.fptosi %f : f32 to i64\n"
    "  %5 = arith.fptoui %f : f32 to i64\n"
    "  %6 = arith.sitofp %i : i64 to f32\n"
    "  %7 = arith.uitofp %i : i64 to f32\n"
    "  %8 = arith.sitofp %i : i64 to f16\n"
    "  %i8 = arith.trunci %i : i64 to i8\n"
    "  %9 = arith.uitofp %i8 : i8 to f16\n"
    "  %10 = arith.truncf %f : f32 to f16\n"
    "  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10 : i8, i8, i32,\n"
    "    i32, i64, i64, f32, f32, f16, f16, f16\n"
    "}\n"
    "func.func @bits(%f: f32, %i: i64) -> (i32, f32, i16, f16, i32, i32,\n"
    "    index, index, i32, i32, i32, f32) {\n"
    "  %0 = arith.bitcast %f : f32 to i32\n"
    "  %i32 = arith.trunci %i : i64 to i32\n"
    "  %1 = arith.bitcast %i32 : i32 to f32\n"
    "  %h = arith.truncf %f : f32 to f16\n"
    "  %2 = arith.bitcast %h : f16 to i16\n"
    "  %i16 = arith.trunci %i : i64 to i16\n"
    "  %3 = arith.bitcast %i16 : i16 to f16\n"
    "  %i8 = arith.trunci %i : i64 to i8\n"
    "  %4 = arith.extsi %i8 : i8 to i32\n"
    "  %5 = arith.extui %i8 : i8 to i32\n"
    "  %6 = arith.index_cast %i32 : i32 to index\n"
    "  %7 = arith.index_castui %i32 : i32 to index\n"
    "  %x = arith.index_cast %i : i64 to index\n"
    "  %8 = arith.index_cast %x : index to i32\n"
    "  %b = arith.trunci %i : i64 to i1\n"
    "  %9 = arith.extsi %b : i1 to i32\n"
    "  %10 = arith.extui %b : i1 to i32\n"
    "  %11 = arith.extf %h : f16 to f32\n"
    "  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11 : i32, f32,\n"
    "    i16, f16, i32, i32, index, index, i32, i32, i32, f32\n"
    "}\n";

/// fptosi / fptoui: toward zero, saturated to the type's range, NaN 0;
/// the result as the interpreter holds it (sign-extended from `bits`).
static int64_t saturate(double x, int bits, int isUnsigned) {
  if (isnan(x))
    return 0;
  double t = trunc(x);
  double low = isUnsigned ? 0 : -ldexp(1, bits - 1);
  double high = isUnsigned ? ldexp(1, bits) : ldexp(1, bits - 1); // excluded
  if (t <= low)
    return (int64_t)low;
  if (t >= high)
    return isUnsigned
               ? (bits == 64 ? -1 : wrapBits((INT64_C(1) << bits) - 1, bits))
               : (bits == 64 ? INT64_MAX : (INT64_C(1) << (bits - 1)) - 1);
  if (isUnsigned && bits == 64)
    return (int64_t)(uint64_t)t;
  return bits == 64 ? (int64_t)t : wrapBits((int64_t)t, bits);
}

enum { CONVERT_CASES = 12, CONVERT_RESULTS = 11, BITS_RESULTS = 12 };

static const double convertFloats[CONVERT_CASES] = {
    NAN,  INFINITY, -INFINITY, 1e30, -1e30, 2.9,
    -2.9, -0.5,     255.9,     -200, 3e9,   1.8e19};
static const int64_t convertInts[CONVERT_CASES] = {
    (INT64_C(1) << 60) + (INT64_C(1) << 36) + 1, // f32 must not round twice
    -1,
    0x40490fdb,
    INT64_C(0x100007c00),
    300,
    -129,
    65520,
    INT64_C(0xffffffff),
    (INT64_C(1) << 40) + 5,
    65519,
    INT64_MIN,
    2049};

static int checkConversions(double got[CONVERT_RESULTS][CONVERT_CASES],
                            int64_t ints[6][CONVERT_CASES]) {
  int mismatches = 0;
  for (int t = 0; t < CONVERT_CASES; ++t) {
    double f = (float)convertFloats[t];
    int64_t i = convertInts[t];
    int64_t wantInts[6] = {saturate(f, 8, 0),  saturate(f, 8, 1),
                           saturate(f, 32, 0), saturate(f, 32, 1),
                           saturate(f, 64, 0), saturate(f, 64, 1)};
    for (int k = 0; k < 6; ++k)
      mismatches += ints[k][t] != wantInts[k];
    double wantFloats[5] = {(float)i, (float)(uint64_t)i,
                            fabs((double)i) >= 65520 ? copysign(INFINITY, i)
                                                     : toHalf((double)i),
                            toHalf((double)(uint8_t)i), toHalf(f)};
    for (int k = 0; k < 5; ++k)
      mismatches += !same(got[6 + k][t], wantFloats[k]);
  }
  return mismatches;
}

static int testConversions(MlirContext ctx) {
  // CHECK-LABEL: testConversions
  fprintf(stderr, "testConversions\n");
  float f[CONVERT_CASES];
  int64_t i[CONVERT_CASES], ints[6][CONVERT_CASES];
  double got[CONVERT_RESULTS][CONVERT_CASES];
  for (int t = 0; t < CONVERT_CASES; ++t) {
    f[t] = (float)convertFloats[t];
    i[t] = convertInts[t];
  }
  CoopvecArray args[2] = {array(f, CoopvecDTypeF32, CONVERT_CASES),
                          array(i, CoopvecDTypeI64, CONVERT_CASES)};
  CoopvecArray results[CONVERT_RESULTS];
  for (int k = 0; k < CONVERT_RESULTS; ++k)
    results[k] = k < 6 ? array(ints[k], CoopvecDTypeI64, CONVERT_CASES)
                       : array(got[k], CoopvecDTypeF64, CONVERT_CASES);
  if (interpret(ctx, convertSource, "convert", CONVERT_CASES, args, 2, results,
                CONVERT_RESULTS))
    return 1;
  // CHECK: conversions: 0 mismatches
  fprintf(stderr, "conversions: %d mismatches\n", checkConversions(got, ints));
  // 2^60 + 2^36 + 1 lies just above an f32 tie: through double it would
  // round to 2^60.
  // CHECK: sitofp 2^60+2^36+1 to f32: 1152921642045800448
  fprintf(stderr, "sitofp 2^60+2^36+1 to f32: %.0f\n", got[6][0]);

  int64_t bits[BITS_RESULTS][CONVERT_CASES];
  double bitFloats[BITS_RESULTS][CONVERT_CASES];
  CoopvecArray bitResults[BITS_RESULTS];
  for (int k = 0; k < BITS_RESULTS; ++k)
    bitResults[k] = k == 1 || k == 3 || k == 11
                        ? array(bitFloats[k], CoopvecDTypeF64, CONVERT_CASES)
                        : array(bits[k], CoopvecDTypeI64, CONVERT_CASES);
  if (interpret(ctx, convertSource, "bits", CONVERT_CASES, args, 2, bitResults,
                BITS_RESULTS))
    return 1;
  // Thread 2: f = -inf, i = 0x40490fdb (pi's f32 bits); thread 3: 1e30,
  // i = 0x1_0000_7c00 (f16 infinity in the low 16 bits); thread 5: 2.9,
  // i = -129 (i8 127); thread 7: -0.5, i = 0xffffffff (i32 -1).
  // CHECK: bitcast: -inf -> 0xff800000, 0x40490fdb -> 3.14159274
  // CHECK-SAME: 2.9 -> f16 0x41cd, 0x7c00 -> inf
  fprintf(stderr,
          "bitcast: -inf -> 0x%08llx, 0x40490fdb -> %.9g, 2.9 -> f16 "
          "0x%04llx, 0x7c00 -> %g\n",
          (unsigned long long)(uint32_t)bits[0][2], bitFloats[1][2],
          (unsigned long long)(uint16_t)bits[2][5], bitFloats[3][3]);
  // Through i8: -129 is 127, 300 is 44, -1 is 255 unsigned.
  // CHECK: ext: -129 -> extsi 127 extui 127; 300 -> extsi 44; -1 -> extsi
  // CHECK-SAME: -1 extui 255; i32 -1 -> index_cast -1 index_castui
  // CHECK-SAME: 4294967295; 2^40+5 -> i32 5; i1 1 -> extsi -1 extui 1;
  // CHECK-SAME: 2.9 -> f16 -> f32 2.900390625
  fprintf(stderr,
          "ext: -129 -> extsi %lld extui %lld; 300 -> extsi %lld; -1 -> "
          "extsi %lld extui %lld; i32 -1 -> index_cast %lld index_castui "
          "%lld; 2^40+5 -> i32 %lld; i1 1 -> extsi %lld extui %lld; 2.9 -> "
          "f16 -> f32 %.10g\n",
          (long long)bits[4][5], (long long)bits[5][5], (long long)bits[4][4],
          (long long)bits[4][1], (long long)bits[5][1], (long long)bits[6][7],
          (long long)bits[7][7], (long long)bits[8][8], (long long)bits[9][1],
          (long long)bits[10][1], bitFloats[11][5]);
  return 0;
}

//===----------------------------------------------------------------------===//
// math
//===----------------------------------------------------------------------===//

static const char *mathOps[] = {"sin",  "cos",   "exp",   "exp2",     "log",
                                "log2", "sqrt",  "rsqrt", "tanh",     "atan",
                                "erf",  "floor", "ceil",  "round",    "trunc",
                                "absf", "atan2", "powf",  "copysign", "fma"};
enum { MATH_OPS = 20, MATH_UNARY = 16, MATH_CASES = 12 };

/// @math(%a: T, %b: T, %c: T) -> (T x 20).
static void mathSource(const char *t, char *text, size_t size) {
  text[0] = '\0';
  append(text, size, "func.func @math(%%a: %s, %%b: %s, %%c: %s) -> (", t, t,
         t);
  for (int i = 0; i < MATH_OPS; ++i)
    append(text, size, "%s%s", i ? ", " : "", t);
  append(text, size, ") {\n");
  for (int i = 0; i < MATH_OPS; ++i)
    append(text, size, "  %%r%d = math.%s %%a%s : %s\n", i, mathOps[i],
           i < MATH_UNARY     ? ""
           : i < MATH_OPS - 1 ? ", %b"
                              : ", %b, %c",
           t);
  append(text, size, "  return");
  for (int i = 0; i < MATH_OPS; ++i)
    append(text, size, "%s %%r%d", i ? "," : "", i);
  append(text, size, " :");
  for (int i = 0; i < MATH_OPS; ++i)
    append(text, size, "%s %s", i ? "," : "", t);
  append(text, size, "\n}\n");
}

/// C's double function, rounded once to the type; f32 fma is fmaf (one
/// rounding of the exact a * b + c).
static double mathReference(int op, double a, double b, double c, int half) {
  double exact[MATH_OPS] = {
      sin(a),  cos(a),      exp(a),      exp2(a),        log(a),
      log2(a), sqrt(a),     1 / sqrt(a), tanh(a),        atan(a),
      erf(a),  floor(a),    ceil(a),     round(a),       trunc(a),
      fabs(a), atan2(a, b), pow(a, b),   copysign(a, b), fma(a, b, c)};
  if (op == MATH_OPS - 1 && !half)
    return fmaf((float)a, (float)b, (float)c);
  return roundAs(half, exact[op]);
}

static int runMathType(MlirContext ctx, int half) {
  static const double cases[MATH_CASES][3] = {
      {0.5, 2, 1},          {-1.25, 3, -0.5},    {2.5, -0.5, 0.25},
      {-2.5, 0.5, 3},       {0.0, -0.0, -0.0},   {-0.0, 1, 0.0},
      {INFINITY, 2, 1},     {-INFINITY, 0.5, 1}, {NAN, 1, 2},
      {1e-3, -3, INFINITY}, {100, 0.5, -100},    {-0.75, 2, NAN}};
  double a[MATH_CASES], b[MATH_CASES], c[MATH_CASES];
  double got[MATH_OPS][MATH_CASES];
  uint32_t aData[MATH_CASES], bData[MATH_CASES], cData[MATH_CASES];
  for (int t = 0; t < MATH_CASES; ++t) {
    a[t] = roundAs(half, cases[t][0]);
    b[t] = roundAs(half, cases[t][1]);
    c[t] = roundAs(half, cases[t][2]);
  }
  char source[8192];
  mathSource(half ? "f16" : "f32", source, sizeof(source));
  CoopvecArray args[3] = {floatInputs(half, aData, a, MATH_CASES),
                          floatInputs(half, bData, b, MATH_CASES),
                          floatInputs(half, cData, c, MATH_CASES)};
  CoopvecArray results[MATH_OPS];
  for (int i = 0; i < MATH_OPS; ++i)
    results[i] = array(got[i], CoopvecDTypeF64, MATH_CASES);
  if (interpret(ctx, source, "math", MATH_CASES, args, 3, results, MATH_OPS))
    return 1;
  int mismatches = 0;
  for (int op = 0; op < MATH_OPS; ++op) {
    double want[MATH_CASES];
    for (int t = 0; t < MATH_CASES; ++t)
      want[t] = mathReference(op, a[t], b[t], c[t], half);
    mismatches += countMismatches(mathOps[op], op, got[op], want, MATH_CASES);
  }
  fprintf(stderr, "math %s: %d mismatches\n", half ? "f16" : "f32", mismatches);
  return 0;
}

static int testMath(MlirContext ctx) {
  // CHECK-LABEL: testMath
  fprintf(stderr, "testMath\n");
  // CHECK: math f32: 0 mismatches
  // CHECK: math f16: 0 mismatches
  if (runMathType(ctx, 0) || runMathType(ctx, 1))
    return 1;
  // 4097 * 4097 = 2^24 + 8193 lies on an f32 tie; the tiny addend decides
  // it upwards, which fma in double followed by rounding to f32 misses.
  float a = 4097, c = (float)ldexp(1, -100);
  double got[MATH_OPS];
  CoopvecArray args[3] = {array(&a, CoopvecDTypeF32, 1),
                          array(&a, CoopvecDTypeF32, 1),
                          array(&c, CoopvecDTypeF32, 1)};
  CoopvecArray results[MATH_OPS];
  for (int i = 0; i < MATH_OPS; ++i)
    results[i] = array(&got[i], CoopvecDTypeF64, 1);
  char source[8192];
  mathSource("f32", source, sizeof(source));
  if (interpret(ctx, source, "math", 1, args, 3, results, MATH_OPS))
    return 1;
  // CHECK: fma(4097, 4097, 2^-100) in f32: 16785410
  fprintf(stderr, "fma(4097, 4097, 2^-100) in f32: %.0f\n", got[MATH_OPS - 1]);
  return 0;
}

//===----------------------------------------------------------------------===//
// memref: gathers, scatters, atomics, local arrays
//===----------------------------------------------------------------------===//

static const char *memorySource =
    "func.func @memory(%src: memref<?xf32>, %dst: memref<?xf16>,\n"
    "    %ints: memref<?xi32>, %acc: memref<?xf32>, %hacc: memref<?xf16>,\n"
    "    %bytes: memref<?xi8>, %longs: memref<8xi64>, %i: index, %j: index,\n"
    "    %v: i32) -> (f32, i32, i32, i32, i32, i32, f32, f32, f16, f32, i8) {\n"
    "  %c0 = arith.constant 0 : index\n"
    "  %c1 = arith.constant 1 : index\n"
    "  %c2 = arith.constant 2 : index\n"
    "  %c3 = arith.constant 3 : index\n"
    "  %c4 = arith.constant 4 : index\n"
    "  %x = memref.load %src[%i] : memref<?xf32>\n"
    "  %h = arith.truncf %x : f32 to f16\n"
    "  memref.store %h, %dst[%j] : memref<?xf16>\n"
    "  %add = memref.atomic_rmw addi %v, %ints[%c0] : (i32, memref<?xi32>) -> "
    "i32\n"
    "  %maxs = memref.atomic_rmw maxs %v, %ints[%c1] : (i32, memref<?xi32>) -> "
    "i32\n"
    "  %mins = memref.atomic_rmw mins %v, %ints[%c2] : (i32, memref<?xi32>) -> "
    "i32\n"
    "  %maxu = memref.atomic_rmw maxu %v, %ints[%c3] : (i32, memref<?xi32>) -> "
    "i32\n"
    "  %minu = memref.atomic_rmw minu %v, %ints[%c4] : (i32, memref<?xi32>) -> "
    "i32\n"
    "  %fmax = memref.atomic_rmw maximumf %x, %acc[%c0] : (f32, memref<?xf32>) "
    "-> f32\n"
    "  %fmin = memref.atomic_rmw minimumf %x, %acc[%c1] : (f32, memref<?xf32>) "
    "-> f32\n"
    "  %one = arith.constant 1.0 : f16\n"
    "  %hadd = memref.atomic_rmw addf %one, %hacc[%c0] : (f16, memref<?xf16>) "
    "-> f16\n"
    "  %fadd = memref.atomic_rmw addf %x, %acc[%c2] : (f32, memref<?xf32>) -> "
    "f32\n"
    "  %b = memref.load %bytes[%i] : memref<?xi8>\n"
    "  %w = arith.extsi %v : i32 to i64\n"
    "  memref.store %w, %longs[%j] : memref<8xi64>\n"
    "  return %x, %add, %maxs, %mins, %maxu, %minu, %fmax, %fmin, %hadd, "
    "%fadd,\n"
    "    %b : f32, i32, i32, i32, i32, i32, f32, f32, f16, f32, i8\n"
    "}\n";

enum { MEM_THREADS = 8, MEM_RESULTS = 11 };

typedef struct MemoryState {
  float src[8], acc[3];
  uint16_t dst[8], hacc;
  int32_t ints[5];
  int8_t bytes[8];
  int64_t longs[8];
} MemoryState;

/// Runs the threads of @memory one after another in plain C, writing each
/// thread's results (old values for the atomics) into `want`.
static void memoryReference(MemoryState *s, const int64_t *i, const int64_t *j,
                            const int32_t *v, double want[][MEM_THREADS]) {
  for (int t = 0; t < MEM_THREADS; ++t) {
    float x = s->src[i[t]];
    s->dst[j[t]] = coopvecFloatToHalf(x);
    int32_t *n = s->ints;
    double olds[] = {x,         n[0],          n[1],
                     n[2],      n[3],          n[4],
                     s->acc[0], s->acc[1],     coopvecHalfToDouble(s->hacc),
                     s->acc[2], s->bytes[i[t]]};
    for (int k = 0; k < MEM_RESULTS; ++k)
      want[k][t] = olds[k];
    n[0] = (int32_t)((uint32_t)n[0] + (uint32_t)v[t]); // wraps
    n[1] = v[t] > n[1] ? v[t] : n[1];
    n[2] = v[t] < n[2] ? v[t] : n[2];
    n[3] = (uint32_t)v[t] > (uint32_t)n[3] ? v[t] : n[3];
    n[4] = (uint32_t)v[t] < (uint32_t)n[4] ? v[t] : n[4];
    s->acc[0] = (float)maximumOf(s->acc[0], x);
    s->acc[1] = (float)minimumOf(s->acc[1], x);
    s->hacc = coopvecDoubleToHalf(coopvecHalfToDouble(s->hacc) + 1);
    s->acc[2] += x;
    s->longs[j[t]] = v[t];
  }
}

/// @memory's results 1-5 (i32) and 10 (i8) are integers.
static int isIntResult(int k) { return (k >= 1 && k <= 5) || k == 10; }

static int sameMemory(const MemoryState *a, const MemoryState *b) {
  return !memcmp(a->src, b->src, sizeof(a->src)) &&
         !memcmp(a->acc, b->acc, sizeof(a->acc)) &&
         !memcmp(a->dst, b->dst, sizeof(a->dst)) && a->hacc == b->hacc &&
         !memcmp(a->ints, b->ints, sizeof(a->ints)) &&
         !memcmp(a->bytes, b->bytes, sizeof(a->bytes)) &&
         !memcmp(a->longs, b->longs, sizeof(a->longs));
}

static void memoryArgs(MemoryState *s, const int64_t *i, const int64_t *j,
                       const int32_t *v, CoopvecArray *args) {
  args[0] = array(s->src, CoopvecDTypeF32, 8);
  args[1] = array(s->dst, CoopvecDTypeF16, 8);
  args[2] = array(s->ints, CoopvecDTypeI32, 5);
  args[3] = array(s->acc, CoopvecDTypeF32, 3);
  args[4] = array(&s->hacc, CoopvecDTypeF16, 1);
  args[5] = array(s->bytes, CoopvecDTypeI8, 8);
  args[6] = array(s->longs, CoopvecDTypeI64, 8);
  args[7] = array((void *)i, CoopvecDTypeI64, MEM_THREADS);
  args[8] = array((void *)j, CoopvecDTypeI64, MEM_THREADS);
  args[9] = array((void *)v, CoopvecDTypeI32, MEM_THREADS);
}

static int testMemory(MlirContext ctx) {
  // CHECK-LABEL: testMemory
  fprintf(stderr, "testMemory\n");
  MemoryState s = {{1.5f, -0.0f, 0.0f, 3.25f, -2, 70000, 0.1f, 5},
                   {-INFINITY, INFINITY, 0.5f},
                   {0},
                   coopvecDoubleToHalf(2048),
                   {INT32_MAX - 3, 0, 0, 7, 7},
                   {-128, 127, 0, 1, -1, 2, 3, 4},
                   {0}};
  int64_t i[MEM_THREADS] = {3, 0, 7, 1, 1, 5, 2, 6};
  int64_t j[MEM_THREADS] = {7, 6, 5, 4, 0, 1, 2, 3};
  int32_t v[MEM_THREADS] = {5, -3, 1 << 30, INT32_MIN, 7, 1 << 30, -1, 0};
  MemoryState want = s;
  double wantResults[MEM_RESULTS][MEM_THREADS], got[MEM_RESULTS][MEM_THREADS];
  int64_t gotInts[MEM_RESULTS][MEM_THREADS];
  memoryReference(&want, i, j, v, wantResults);
  CoopvecArray args[10], results[MEM_RESULTS];
  memoryArgs(&s, i, j, v, args);
  for (int k = 0; k < MEM_RESULTS; ++k)
    results[k] = isIntResult(k)
                     ? array(gotInts[k], CoopvecDTypeI64, MEM_THREADS)
                     : array(got[k], CoopvecDTypeF64, MEM_THREADS);
  if (interpret(ctx, memorySource, "memory", MEM_THREADS, args, 10, results,
                MEM_RESULTS))
    return 1;
  int mismatches = 0;
  for (int k = 0; k < MEM_RESULTS; ++k) {
    for (int t = 0; isIntResult(k) && t < MEM_THREADS; ++t)
      got[k][t] = (double)gotInts[k][t];
    mismatches += countMismatches("memory result", k, got[k], wantResults[k],
                                  MEM_THREADS);
  }
  mismatches += !sameMemory(&s, &want);
  // Eight atomic f16 additions of 1 to 2048 each round back to 2048 (the
  // sum 2049 ties to even), unlike reduce_sum_accumulate's double sum.
  // CHECK: memory: 0 mismatches, f16 atomic sum 2048, i32 sum wrapped to
  // CHECK-SAME: -2147483644
  fprintf(stderr,
          "memory: %d mismatches, f16 atomic sum %g, i32 sum wrapped to %d\n",
          mismatches, coopvecHalfToDouble(s.hacc), s.ints[0]);
  return 0;
}

static const char *localSource =
    "func.func @histogram(%data: memref<?xi32>, %out: memref<?xi32>,\n"
    "                     %t: index) -> i32 {\n"
    "  %c0 = arith.constant 0 : index\n"
    "  %c1 = arith.constant 1 : index\n"
    "  %c8 = arith.constant 8 : index\n"
    "  %c16 = arith.constant 16 : index\n"
    "  %bins = arith.constant 8 : i32\n"
    "  %one = arith.constant 1 : i32\n"
    "  %hist = memref.alloca() : memref<8xi32>\n"
    "  %base = arith.muli %t, %c16 : index\n"
    "  scf.for %k = %c0 to %c16 step %c1 {\n"
    "    %p = arith.addi %base, %k : index\n"
    "    %v = memref.load %data[%p] : memref<?xi32>\n"
    "    %b = arith.remui %v, %bins : i32\n"
    "    %bi = arith.index_castui %b : i32 to index\n"
    "    %old = memref.load %hist[%bi] : memref<8xi32>\n"
    "    %new = arith.addi %old, %one : i32\n"
    "    memref.store %new, %hist[%bi] : memref<8xi32>\n"
    "  }\n"
    "  %first = arith.muli %t, %c8 : index\n"
    "  scf.for %b = %c0 to %c8 step %c1 {\n"
    "    %n = memref.load %hist[%b] : memref<8xi32>\n"
    "    %o = arith.addi %first, %b : index\n"
    "    memref.store %n, %out[%o] : memref<?xi32>\n"
    "  }\n"
    "  %n0 = memref.atomic_rmw addi %one, %hist[%c0] : (i32, memref<8xi32>) -> "
    "i32\n"
    "  return %n0 : i32\n"
    "}\n"
    // Every iteration's alloca is a new array of zeros; [1, 2] is row-major
    // element 5 of 2x3. Small local arrays of the other element types.
    "func.func @zeroing(%n: index) -> (f32, i32, i64, f16, i16, index) {\n"
    "  %c0 = arith.constant 0 : index\n"
    "  %c1 = arith.constant 1 : index\n"
    "  %c2 = arith.constant 2 : index\n"
    "  %zero = arith.constant 0.0 : f32\n"
    "  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%s = %zero,\n"
    "      %old = %zero) -> (f32, f32) {\n"
    "    %a = memref.alloca() : memref<2x3xf32>\n"
    "    %before = memref.load %a[%c1, %c2] : memref<2x3xf32>\n"
    "    %i64 = arith.index_cast %i : index to i64\n"
    "    %x = arith.sitofp %i64 : i64 to f32\n"
    "    memref.store %x, %a[%c1, %c2] : memref<2x3xf32>\n"
    "    %after = memref.load %a[%c1, %c2] : memref<2x3xf32>\n"
    "    %corner = memref.load %a[%c0, %c0] : memref<2x3xf32>\n"
    "    %s1 = arith.addf %s, %after : f32\n"
    "    %o1 = arith.addf %old, %before : f32\n"
    "    %o2 = arith.addf %o1, %corner : f32\n"
    "    scf.yield %s1, %o2 : f32, f32\n"
    "  }\n"
    "  %flags = memref.alloca() : memref<4xi1>\n"
    "  %true = arith.constant true\n"
    "  memref.store %true, %flags[%c2] : memref<4xi1>\n"
    "  %f2 = memref.load %flags[%c2] : memref<4xi1>\n"
    "  %f1 = memref.load %flags[%c1] : memref<4xi1>\n"
    "  %f2i = arith.extui %f2 : i1 to i32\n"
    "  %f1i = arith.extui %f1 : i1 to i32\n"
    "  %ten = arith.constant 10 : i32\n"
    "  %f = arith.muli %f2i, %ten : i32\n"
    "  %flagBits = arith.addi %f, %f1i : i32\n"
    "  %bytes = memref.alloca() : memref<2xi8>\n"
    "  %m1 = arith.constant -1 : i8\n"
    "  memref.store %m1, %bytes[%c1] : memref<2xi8>\n"
    "  %byte = memref.load %bytes[%c1] : memref<2xi8>\n"
    "  %wide = arith.extui %byte : i8 to i64\n"
    "  %halves = memref.alloca() : memref<2xf16>\n"
    "  %tenth = arith.constant 0.1 : f32\n"
    "  %h = arith.truncf %tenth : f32 to f16\n"
    "  memref.store %h, %halves[%c0] : memref<2xf16>\n"
    "  %hl = memref.load %halves[%c0] : memref<2xf16>\n"
    "  %shorts = memref.alloca() : memref<3xi16>\n"
    "  %big = arith.constant -30000 : i16\n"
    "  memref.store %big, %shorts[%c2] : memref<3xi16>\n"
    "  %short = memref.load %shorts[%c2] : memref<3xi16>\n"
    "  %indices = memref.alloca() : memref<1x1xindex>\n"
    "  memref.store %n, %indices[%c0, %c0] : memref<1x1xindex>\n"
    "  %idx = memref.load %indices[%c0, %c0] : memref<1x1xindex>\n"
    "  %sum = arith.addf %r#0, %r#1 : f32\n"
    "  return %sum, %flagBits, %wide, %hl, %short, %idx : f32, i32, i64, f16,\n"
    "    i16, index\n"
    "}\n";

static int testLocalArrays(MlirContext ctx) {
  // CHECK-LABEL: testLocalArrays
  fprintf(stderr, "testLocalArrays\n");
  enum { T = 4 };
  int32_t data[T * 16], out[T * 8] = {0}, want[T * 8] = {0};
  int64_t t[T] = {0, 1, 2, 3}, firstBin[T];
  unsigned seed = 3;
  for (int i = 0; i < T * 16; ++i) {
    data[i] = (int32_t)(nextValue(&seed) * 1000); // negatives too
    ++want[i / 16 * 8 + (uint32_t)data[i] % 8];
  }
  CoopvecArray args[3] = {array(data, CoopvecDTypeI32, T * 16),
                          array(out, CoopvecDTypeI32, T * 8),
                          array(t, CoopvecDTypeI64, T)};
  CoopvecArray result = array(firstBin, CoopvecDTypeI64, T);
  if (interpret(ctx, localSource, "histogram", T, args, 3, &result, 1))
    return 1;
  int ok = !memcmp(out, want, sizeof(out));
  for (int i = 0; i < T; ++i)
    ok &= firstBin[i] == want[i * 8];
  // CHECK: histogram ok: 1
  fprintf(stderr, "histogram ok: %d\n", ok);

  int64_t n = 5, flags, wide, shortValue, index;
  double sum, halfValue;
  CoopvecArray zeroingArgs[1] = {array(&n, CoopvecDTypeI64, 1)};
  CoopvecArray results[6] = {array(&sum, CoopvecDTypeF64, 1),
                             array(&flags, CoopvecDTypeI64, 1),
                             array(&wide, CoopvecDTypeI64, 1),
                             array(&halfValue, CoopvecDTypeF64, 1),
                             array(&shortValue, CoopvecDTypeI64, 1),
                             array(&index, CoopvecDTypeI64, 1)};
  if (interpret(ctx, localSource, "zeroing", 1, zeroingArgs, 1, results, 6))
    return 1;
  // 0 + 1 + 2 + 3 + 4 stored and read back; every load before a store
  // found 0. i1 element 2 is true, element 1 false.
  // CHECK: zeroing: 10, i1 flags 10, i8 255, f16 0.0999755859375, i16
  // CHECK-SAME: -30000, index 5
  fprintf(stderr,
          "zeroing: %g, i1 flags %lld, i8 %lld, f16 %.15g, i16 %lld, "
          "index %lld\n",
          sum, (long long)flags, (long long)wide, halfValue,
          (long long)shortValue, (long long)index);
  return 0;
}

//===----------------------------------------------------------------------===//
// Structured control flow: every thread takes its own path
//===----------------------------------------------------------------------===//

// CHECK-LABEL: testRegions

static const char *branchSource =
    "func.func @branch(%x: !coopvec.vec<2, f32>, %s: f32, %out: "
    "memref<?xf32>)\n"
    "    -> (!coopvec.vec<2, f32>, f32) {\n"
    "  %zero = arith.constant 0.0 : f32\n"
    "  %neg = arith.cmpf olt, %s, %zero : f32\n"
    "  %v, %k = scf.if %neg -> (!coopvec.vec<2, f32>, f32) {\n"
    "    %two = arith.constant 2.0 : f32\n"
    "    %d = \"coopvec.mul\"(%x, %two) : (!coopvec.vec<2, f32>, f32) -> "
    "!coopvec.vec<2, f32>\n"
    "    %m = arith.mulf %s, %two : f32\n"
    "    scf.yield %d, %m : !coopvec.vec<2, f32>, f32\n"
    "  } else {\n"
    "    %one = arith.constant 1.0 : f32\n"
    "    %d = \"coopvec.add\"(%x, %one) : (!coopvec.vec<2, f32>, f32) -> "
    "!coopvec.vec<2, f32>\n"
    "    %m = arith.addf %s, %one : f32\n"
    "    scf.yield %d, %m : !coopvec.vec<2, f32>, f32\n"
    "  }\n"
    "  scf.if %neg {\n"
    "    %c0 = arith.constant 0 : index\n"
    "    \"coopvec.store\"(%v, %out, %c0) : (!coopvec.vec<2, f32>, "
    "memref<?xf32>, index) -> ()\n"
    "  }\n"
    "  return %v, %k : !coopvec.vec<2, f32>, f32\n"
    "}\n"
    // Per-thread trip counts, carrying a vec and a count.
    "func.func @trips(%n: index, %x: !coopvec.vec<3, f32>)\n"
    "    -> (!coopvec.vec<3, f32>, index) {\n"
    "  %c0 = arith.constant 0 : index\n"
    "  %c1 = arith.constant 1 : index\n"
    "  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%v = %x, %k = %c0)\n"
    "      -> (!coopvec.vec<3, f32>, index) {\n"
    "    %i64 = arith.index_cast %i : index to i64\n"
    "    %f = arith.sitofp %i64 : i64 to f32\n"
    "    %w = \"coopvec.add\"(%v, %f) : (!coopvec.vec<3, f32>, f32) -> "
    "!coopvec.vec<3, f32>\n"
    "    %k1 = arith.addi %k, %c1 : index\n"
    "    scf.yield %w, %k1 : !coopvec.vec<3, f32>, index\n"
    "  }\n"
    "  return %r#0, %r#1 : !coopvec.vec<3, f32>, index\n"
    "}\n"
    "func.func @steps(%lb: i32, %ub: i32, %step: i32) -> i32 {\n"
    "  %zero = arith.constant 0 : i32\n"
    "  %one = arith.constant 1 : i32\n"
    "  %r = scf.for %i = %lb to %ub step %step iter_args(%c = %zero) -> (i32)"
    " : i32 {\n"
    "    %c1 = arith.addi %c, %one : i32\n"
    "    scf.yield %c1 : i32\n"
    "  }\n"
    "  return %r : i32\n"
    "}\n"
    "func.func @steps64(%lb: i64, %ub: i64, %step: i64) -> i64 {\n"
    "  %zero = arith.constant 0 : i64\n"
    "  %one = arith.constant 1 : i64\n"
    "  %r = scf.for %i = %lb to %ub step %step iter_args(%c = %zero) -> (i64)"
    " : i64 {\n"
    "    %c1 = arith.addi %c, %one : i64\n"
    "    scf.yield %c1 : i64\n"
    "  }\n"
    "  return %r : i64\n"
    "}\n";

static int runBranch(MlirContext ctx) {
  enum { T = 4 };
  float x[T * 2] = {1, 2, 3, 4, 5, 6, 7, 8}, s[T] = {-1, 2, -0.5f, 0};
  float out[2] = {0};
  double v[T * 2], k[T];
  CoopvecArray args[3] = {array(x, CoopvecDTypeF32, T * 2),
                          array(s, CoopvecDTypeF32, T),
                          array(out, CoopvecDTypeF32, 2)};
  CoopvecArray results[2] = {array(v, CoopvecDTypeF64, T * 2),
                             array(k, CoopvecDTypeF64, T)};
  if (interpret(ctx, branchSource, "branch", T, args, 3, results, 2))
    return 1;
  int ok = 1;
  for (int t = 0; t < T; ++t) {
    int neg = s[t] < 0;
    for (int e = 0; e < 2; ++e)
      ok &= v[t * 2 + e] == (neg ? x[t * 2 + e] * 2.0 : x[t * 2 + e] + 1.0);
    ok &= k[t] == (neg ? s[t] * 2.0 : s[t] + 1.0);
  }
  // The store ran for threads 0 and 2 only; thread 2's landed last.
  // CHECK: scf.if ok: 1, stored 10 12
  fprintf(stderr, "scf.if ok: %d, stored %g %g\n", ok, out[0], out[1]);
  return 0;
}

static int runTrips(MlirContext ctx) {
  enum { T = 41 };
  int64_t n[T], k[T];
  float x[T * 3];
  double v[T * 3];
  for (int t = 0; t < T; ++t) {
    n[t] = t;
    for (int e = 0; e < 3; ++e)
      x[t * 3 + e] = (float)(t - e);
  }
  CoopvecArray args[2] = {array(n, CoopvecDTypeI64, T),
                          array(x, CoopvecDTypeF32, T * 3)};
  CoopvecArray results[2] = {array(v, CoopvecDTypeF64, T * 3),
                             array(k, CoopvecDTypeI64, T)};
  if (interpret(ctx, branchSource, "trips", T, args, 2, results, 2))
    return 1;
  int ok = 1;
  for (int t = 0; t < T; ++t) {
    ok &= k[t] == t;
    for (int e = 0; e < 3; ++e) // x + 0 + 1 + ... + (t - 1)
      ok &= v[t * 3 + e] == x[t * 3 + e] + t * (t - 1) / 2.0;
  }
  // CHECK: scf.for trip counts 0..40: 1
  fprintf(stderr, "scf.for trip counts 0..40: %d\n", ok);
  return 0;
}

/// Counts the iterations of `for (i = lb; i < ub; i += step)` by running
/// it (in int64, where i32 bounds cannot overflow); none when step <= 0.
static int64_t countTrips(int64_t lb, int64_t ub, int64_t step) {
  int64_t trips = 0;
  for (int64_t i = lb; step > 0 && i < ub; i += step)
    ++trips;
  return trips;
}

static int runSteps(MlirContext ctx) {
  enum { T = 9 };
  int32_t lb[T] = {0, 0, 0, 10, 5, INT32_MIN, -7, INT32_MAX - 1, -3};
  int32_t ub[T] = {10, 10, 10, 0, 5, INT32_MAX, 7, INT32_MAX, 2};
  int32_t step[T] = {3, 0, -1, 1, 1, 1 << 30, 7, 5, 1};
  int64_t got[T];
  CoopvecArray args[3] = {array(lb, CoopvecDTypeI32, T),
                          array(ub, CoopvecDTypeI32, T),
                          array(step, CoopvecDTypeI32, T)};
  CoopvecArray result = array(got, CoopvecDTypeI64, T);
  if (interpret(ctx, branchSource, "steps", T, args, 3, &result, 1))
    return 1;
  int ok = 1;
  for (int t = 0; t < T; ++t)
    ok &= got[t] == countTrips(lb[t], ub[t], step[t]);
  int64_t lb64[3] = {INT64_MIN, INT64_MAX - 1, INT64_MIN};
  int64_t ub64[3] = {INT64_MAX, INT64_MAX, INT64_MAX};
  int64_t step64[3] = {INT64_C(1) << 62, INT64_MAX, INT64_MAX}, got64[3];
  CoopvecArray args64[3] = {array(lb64, CoopvecDTypeI64, 3),
                            array(ub64, CoopvecDTypeI64, 3),
                            array(step64, CoopvecDTypeI64, 3)};
  CoopvecArray result64 = array(got64, CoopvecDTypeI64, 3);
  if (interpret(ctx, branchSource, "steps64", 3, args64, 3, &result64, 1))
    return 1;
  // CHECK: scf.for steps (<= 0 runs nothing): 1; i64 extremes: 4 1 3
  fprintf(stderr,
          "scf.for steps (<= 0 runs nothing): %d; i64 extremes: %lld "
          "%lld %lld\n",
          ok, (long long)got64[0], (long long)got64[1], (long long)got64[2]);
  return 0;
}

static const char *loopSource =
    // The index of the first element equal to %target among the first %n,
    // and the sum of those before it: a loop that exits early.
    "func.func @search(%data: memref<?xf32>, %n: index, %target: f32)\n"
    "    -> (index, f32) {\n"
    "  %c0 = arith.constant 0 : index\n"
    "  %c1 = arith.constant 1 : index\n"
    "  %zero = arith.constant 0.0 : f32\n"
    "  %false = arith.constant false\n"
    "  %r:2 = scf.while (%i = %c0, %acc = %zero) : (index, f32) -> (index, "
    "f32) {\n"
    "    %inRange = arith.cmpi slt, %i, %n : index\n"
    "    %go = scf.if %inRange -> i1 {\n"
    "      %v = memref.load %data[%i] : memref<?xf32>\n"
    "      %ne = arith.cmpf une, %v, %target : f32\n"
    "      scf.yield %ne : i1\n"
    "    } else {\n"
    "      scf.yield %false : i1\n"
    "    }\n"
    "    scf.condition(%go) %i, %acc : index, f32\n"
    "  } do {\n"
    "  ^bb0(%j: index, %a: f32):\n"
    "    %v = memref.load %data[%j] : memref<?xf32>\n"
    "    %a1 = arith.addf %a, %v : f32\n"
    "    %j1 = arith.addi %j, %c1 : index\n"
    "    scf.yield %j1, %a1 : index, f32\n"
    "  }\n"
    "  return %r#0, %r#1 : index, f32\n"
    "}\n"
    "func.func @switch(%s: index, %x: f32) -> f32 {\n"
    "  %r = scf.index_switch %s -> f32\n"
    "  case 1 {\n"
    "    %a = arith.addf %x, %x : f32\n"
    "    scf.yield %a : f32\n"
    "  }\n"
    "  case 3 {\n"
    "    %m = arith.negf %x : f32\n"
    "    scf.yield %m : f32\n"
    "  }\n"
    "  default {\n"
    "    scf.yield %x : f32\n"
    "  }\n"
    "  return %r : f32\n"
    "}\n"
    // for { if { while } }: each odd %i < %n adds 1 to the vec %i times.
    "func.func @nested(%n: index, %x: !coopvec.vec<2, f32>)\n"
    "    -> (!coopvec.vec<2, f32>, index) {\n"
    "  %c0 = arith.constant 0 : index\n"
    "  %c1 = arith.constant 1 : index\n"
    "  %c2 = arith.constant 2 : index\n"
    "  %one = arith.constant 1.0 : f32\n"
    "  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%v = %x, %k = %c0)\n"
    "      -> (!coopvec.vec<2, f32>, index) {\n"
    "    %parity = arith.remui %i, %c2 : index\n"
    "    %odd = arith.cmpi eq, %parity, %c1 : index\n"
    "    %s:2 = scf.if %odd -> (!coopvec.vec<2, f32>, index) {\n"
    "      %w:2 = scf.while (%j = %c0, %u = %v) : (index, !coopvec.vec<2, "
    "f32>)\n"
    "          -> (index, !coopvec.vec<2, f32>) {\n"
    "        %lt = arith.cmpi ult, %j, %i : index\n"
    "        scf.condition(%lt) %j, %u : index, !coopvec.vec<2, f32>\n"
    "      } do {\n"
    "      ^bb0(%j2: index, %u2: !coopvec.vec<2, f32>):\n"
    "        %u3 = \"coopvec.add\"(%u2, %one) : (!coopvec.vec<2, f32>, f32) -> "
    "!coopvec.vec<2, f32>\n"
    "        %j3 = arith.addi %j2, %c1 : index\n"
    "        scf.yield %j3, %u3 : index, !coopvec.vec<2, f32>\n"
    "      }\n"
    "      %k2 = arith.addi %k, %w#0 : index\n"
    "      scf.yield %w#1, %k2 : !coopvec.vec<2, f32>, index\n"
    "    } else {\n"
    "      scf.yield %v, %k : !coopvec.vec<2, f32>, index\n"
    "    }\n"
    "    scf.yield %s#0, %s#1 : !coopvec.vec<2, f32>, index\n"
    "  }\n"
    "  return %r#0, %r#1 : !coopvec.vec<2, f32>, index\n"
    "}\n";

static int runSearch(MlirContext ctx) {
  enum { T = 5 };
  float data[6] = {1, 2, 3, 4, 2, 6}, target[T] = {3, 1, 9, 2, 6};
  int64_t n[T] = {6, 6, 6, 6, 5}, index[T];
  double sum[T];
  CoopvecArray args[3] = {array(data, CoopvecDTypeF32, 6),
                          array(n, CoopvecDTypeI64, T),
                          array(target, CoopvecDTypeF32, T)};
  CoopvecArray results[2] = {array(index, CoopvecDTypeI64, T),
                             array(sum, CoopvecDTypeF64, T)};
  if (interpret(ctx, loopSource, "search", T, args, 3, results, 2))
    return 1;
  int ok = 1;
  for (int t = 0; t < T; ++t) {
    int64_t i = 0;
    double before = 0;
    while (i < n[t] && data[i] != target[t])
      before += data[i++];
    ok &= index[t] == i && sum[t] == before;
  }
  // CHECK: scf.while early exits: 1 (found at 2 0 6 1 5)
  fprintf(stderr,
          "scf.while early exits: %d (found at %lld %lld %lld %lld "
          "%lld)\n",
          ok, (long long)index[0], (long long)index[1], (long long)index[2],
          (long long)index[3], (long long)index[4]);
  return 0;
}

static int runSwitch(MlirContext ctx) {
  enum { T = 6 };
  int64_t s[T] = {0, 1, 2, 3, 4, -1};
  float x[T] = {1, 2, 3, 4, 5, 6};
  double got[T];
  CoopvecArray args[2] = {array(s, CoopvecDTypeI64, T),
                          array(x, CoopvecDTypeF32, T)};
  CoopvecArray result = array(got, CoopvecDTypeF64, T);
  if (interpret(ctx, loopSource, "switch", T, args, 2, &result, 1))
    return 1;
  // CHECK: scf.index_switch: 1 4 3 -4 5 6
  fprintf(stderr, "scf.index_switch: %g %g %g %g %g %g\n", got[0], got[1],
          got[2], got[3], got[4], got[5]);
  return 0;
}

static int runNested(MlirContext ctx) {
  enum { T = 5 };
  int64_t n[T] = {0, 1, 2, 5, 8}, k[T];
  float x[T * 2] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
  double v[T * 2];
  CoopvecArray args[2] = {array(n, CoopvecDTypeI64, T),
                          array(x, CoopvecDTypeF32, T * 2)};
  CoopvecArray results[2] = {array(v, CoopvecDTypeF64, T * 2),
                             array(k, CoopvecDTypeI64, T)};
  if (interpret(ctx, loopSource, "nested", T, args, 2, results, 2))
    return 1;
  int ok = 1;
  for (int t = 0; t < T; ++t) {
    int64_t added = 0;
    for (int64_t i = 1; i < n[t]; i += 2)
      added += i;
    ok &= k[t] == added && v[t * 2] == x[t * 2] + (double)added &&
          v[t * 2 + 1] == x[t * 2 + 1] + (double)added;
  }
  // CHECK: nested three deep: 1 (added 0 0 1 4 16)
  fprintf(stderr, "nested three deep: %d (added %lld %lld %lld %lld %lld)\n",
          ok, (long long)k[0], (long long)k[1], (long long)k[2],
          (long long)k[3], (long long)k[4]);
  return 0;
}

static int testRegions(MlirContext ctx) {
  fprintf(stderr, "testRegions\n");
  return runBranch(ctx) || runTrips(ctx) || runSteps(ctx) || runSearch(ctx) ||
         runSwitch(ctx) || runNested(ctx);
}

//===----------------------------------------------------------------------===//
// Out-of-bounds accesses: counted, the run goes on, then fails
//===----------------------------------------------------------------------===//

// CHECK-LABEL: testOutOfBounds

static const char *boundsSource =
    "func.func @oob(%w: memref<?xf32>, %out: memref<?xf32>,\n" // line 1
    "    %counts: memref<?xi32>, %i: index, %o: index)\n"
    "    -> (f32, i32, !coopvec.vec<2, f32>) {\n"
    "  %x = memref.load %w[%i] : memref<?xf32>\n" // line 4: the first
    "  %v = \"coopvec.load\"(%w, %o) : (memref<?xf32>, index) -> "
    "!coopvec.vec<2, f32>\n"
    "  \"coopvec.store\"(%v, %out, %o) : (!coopvec.vec<2, f32>, "
    "memref<?xf32>, index) -> ()\n"
    "  %one = arith.constant 1 : i32\n"
    "  %old = memref.atomic_rmw addi %one, %counts[%i] : "
    "(i32, memref<?xi32>) -> i32\n"
    "  memref.store %x, %out[%i] : memref<?xf32>\n"
    "  return %x, %old, %v : f32, i32, !coopvec.vec<2, f32>\n"
    "}\n"
    // In thread 1, the load on line 21 is out of bounds in iteration 0 and
    // the one on line 19 in iteration 1: the first in the text is named.
    "func.func @order(%w: memref<?xf32>, %n: index) -> f32 {\n" // line 12
    "  %c0 = arith.constant 0 : index\n"
    "  %c2 = arith.constant 2 : index\n"
    "  %c1 = arith.constant 1 : index\n"
    "  %zero = arith.constant 0.0 : f32\n"
    "  %r = scf.for %k = %c0 to %c2 step %c1 iter_args(%s = %zero) -> f32 {\n"
    "    %p = arith.muli %k, %n : index\n"
    "    %a = memref.load %w[%p] : memref<?xf32>\n" // line 19
    "    %q = arith.subi %n, %p : index\n"
    "    %b = memref.load %w[%q] : memref<?xf32>\n" // line 21
    "    %s1 = arith.addf %s, %a : f32\n"
    "    %s2 = arith.addf %s1, %b : f32\n"
    "    scf.yield %s2 : f32\n"
    "  }\n"
    "  return %r : f32\n"
    "}\n"
    // The callee's load comes first once the call is inlined, though the
    // callee's text is below.
    "func.func @outer(%w: memref<?xf32>, %i: index) -> f32 {\n" // line 28
    "  %a = func.call @inner(%w, %i) : (memref<?xf32>, index) -> f32\n"
    "  %b = memref.load %w[%i] : memref<?xf32>\n"
    "  %s = arith.addf %a, %b : f32\n"
    "  return %s : f32\n"
    "}\n"
    "func.func @inner(%w: memref<?xf32>, %i: index) -> f32 {\n" // line 34
    "  %x = memref.load %w[%i] : memref<?xf32>\n"
    "  return %x : f32\n"
    "}\n"
    // Local arrays: [0, 3] is outside 2x3 though row-major element 3 is not.
    "func.func @local(%i: index, %j: index) -> f32 {\n" // line 38
    "  %a = memref.alloca() : memref<2x3xf32>\n"
    "  %one = arith.constant 1.0 : f32\n"
    "  memref.store %one, %a[%i, %j] : memref<2x3xf32>\n"
    "  %x = memref.load %a[%i, %j] : memref<2x3xf32>\n"
    "  return %x : f32\n"
    "}\n"
    "func.func @counter(%j: index) -> i32 {\n" // line 45
    "  %b = memref.alloca() : memref<4xi32>\n"
    "  %k = arith.constant 7 : i32\n"
    "  %r = memref.atomic_rmw addi %k, %b[%j] : (i32, memref<4xi32>) -> i32\n"
    "  return %r : i32\n"
    "}\n"
    "func.func @vecs(%w: memref<?xf32>, %o: index, %g: memref<?xf32>) {\n"
    "  %v = \"coopvec.load\"(%w, %o) : (memref<?xf32>, index) -> "
    "!coopvec.vec<2, f32>\n" // line 52
    "  %c0 = arith.constant 0 : index\n"
    "  \"coopvec.reduce_sum_accumulate\"(%v, %g, %o) : (!coopvec.vec<2, f32>, "
    "memref<?xf32>, index) -> ()\n"
    "  return\n"
    "}\n";

static int runOutOfBounds(MlirContext ctx) {
  float w[8] = {1, 2, 3, 4, 5, 6, 7, 8}, out[8] = {0};
  int32_t counts[8] = {10, 11, 12, 13, 14, 15, 16, 17};
  float wCopy[8], outCopy[8];
  int32_t countsCopy[8];
  memcpy(wCopy, w, sizeof(w));
  memcpy(outCopy, out, sizeof(out));
  memcpy(countsCopy, counts, sizeof(counts));
  int64_t i[4] = {0, 9, -1, 3}, o[4] = {0, 2, 7, 100}, old[4];
  double x[4], v[8];
  CoopvecArray args[5] = {
      array(w, CoopvecDTypeF32, 8), array(out, CoopvecDTypeF32, 8),
      array(counts, CoopvecDTypeI32, 8), array(i, CoopvecDTypeI64, 4),
      array(o, CoopvecDTypeI64, 4)};
  CoopvecArray results[3] = {array(x, CoopvecDTypeF64, 4),
                             array(old, CoopvecDTypeI64, 4),
                             array(v, CoopvecDTypeF64, 8)};
  // Thread 1: 3 (load, atomic, store at 9); thread 2: 5 (those at -1, the
  // vec load and store at [7, 9)); thread 3: 2 (vec load and store at 100).
  // CHECK: -:4:8: error: 'memref.load' op 10 accesses outside their buffer
  // CHECK-SAME: (reads gave 0, writes were dropped); the first: thread 1,
  // CHECK-SAME: element 9 of a buffer of 8 elements
  int failed = interpret(ctx, boundsSource, "oob", 4, args, 5, results, 3);
  int unchanged = !memcmp(w, wCopy, sizeof(w)) &&
                  !memcmp(out, outCopy, sizeof(out)) &&
                  !memcmp(counts, countsCopy, sizeof(counts));
  // Results are written for every thread: reads outside gave 0, the atomic
  // outside returned 0.
  // CHECK: out of bounds: failed 1, buffers unchanged 1, x 1 0 0 4, old 10
  // CHECK-SAME: 0 0 13, v 1 2 3 4 0 0 0 0
  fprintf(stderr,
          "out of bounds: failed %d, buffers unchanged %d, x %g %g %g "
          "%g, old %lld %lld %lld %lld, v %g %g %g %g %g %g %g %g\n",
          failed, unchanged, x[0], x[1], x[2], x[3], (long long)old[0],
          (long long)old[1], (long long)old[2], (long long)old[3], v[0], v[1],
          v[2], v[3], v[4], v[5], v[6], v[7]);
  return 0;
}

static int runOutOfBoundsOrder(MlirContext ctx) {
  float w[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  int64_t n[2] = {1, 8};
  double r[2];
  CoopvecArray args[2] = {array(w, CoopvecDTypeF32, 8),
                          array(n, CoopvecDTypeI64, 2)};
  CoopvecArray result = array(r, CoopvecDTypeF64, 2);
  int failures = 0;
  // CHECK: -:19:10: error: 'memref.load' op 2 accesses outside their buffer
  // CHECK-SAME: (reads gave 0, writes were dropped); the first: thread 1,
  // CHECK-SAME: element 8 of a buffer of 8 elements
  failures += interpret(ctx, boundsSource, "order", 2, args, 2, &result, 1);
  // CHECK: -:35:8: error: 'memref.load' op 2 accesses outside their buffer
  // CHECK-SAME: the first: thread 1, element 8 of a buffer of 8 elements
  failures += interpret(ctx, boundsSource, "outer", 2, args, 2, &result, 1);
  int64_t li[2] = {1, 0}, lj[2] = {2, 3};
  CoopvecArray localArgs[2] = {array(li, CoopvecDTypeI64, 2),
                               array(lj, CoopvecDTypeI64, 2)};
  // CHECK: -:41:3: error: 'memref.store' op 2 accesses outside their buffer
  // CHECK-SAME: the first: thread 1, element [0, 3] of a local array of 2x3
  // CHECK-SAME: elements
  failures +=
      interpret(ctx, boundsSource, "local", 2, localArgs, 2, &result, 1);
  // CHECK: local array reads outside gave 0: 1 0
  fprintf(stderr, "local array reads outside gave 0: %g %g\n", r[0], r[1]);
  int64_t far[2] = {3, INT64_MAX}, oldValues[2];
  CoopvecArray counterArg = array(far, CoopvecDTypeI64, 2);
  CoopvecArray counterResult = array(oldValues, CoopvecDTypeI64, 2);
  // CHECK: -:48:8: error: 'memref.atomic_rmw' op 1 access outside its
  // CHECK-SAME: buffer (reads gave 0, writes were dropped); the first:
  // CHECK-SAME: thread 1, element 9223372036854775807 of a local array of 4
  // CHECK-SAME: elements
  failures += interpret(ctx, boundsSource, "counter", 2, &counterArg, 1,
                        &counterResult, 1);
  float g[4] = {0};
  int64_t offsets[2] = {3, INT64_MAX - 1};
  CoopvecArray vecArgs[3] = {array(w, CoopvecDTypeF32, 4),
                             array(offsets, CoopvecDTypeI64, 2),
                             array(g, CoopvecDTypeF32, 4)};
  // CHECK: -:52:8: error: 'coopvec.load' op 4 accesses outside their buffer
  // CHECK-SAME: the first: thread 0, elements [3, 5) of a buffer of 4
  // CHECK-SAME: elements
  failures += interpret(ctx, boundsSource, "vecs", 2, vecArgs, 3, NULL, 0);
  offsets[0] = INT64_MAX - 1;
  // CHECK: -:52:8: error: 'coopvec.load' op 4 accesses outside their buffer
  // CHECK-SAME: the first: thread 0, elements [9223372036854775806,
  // CHECK-SAME: 9223372036854775808) of a buffer of 4 elements
  failures += interpret(ctx, boundsSource, "vecs", 2, vecArgs, 3, NULL, 0);
  // CHECK: failed out-of-bounds runs: 6, gradient unchanged 0 0 0 0
  fprintf(stderr,
          "failed out-of-bounds runs: %d, gradient unchanged %g %g "
          "%g %g\n",
          failures, g[0], g[1], g[2], g[3]);
  return 0;
}

static int testOutOfBounds(MlirContext ctx) {
  fprintf(stderr, "testOutOfBounds\n");
  return runOutOfBounds(ctx) || runOutOfBoundsOrder(ctx);
}

//===----------------------------------------------------------------------===//
// Programs the interpreter refuses
//===----------------------------------------------------------------------===//

static const char *refusedSource =
    "func.func @dynamic(%n: index) -> f32 {\n"
    "  %a = memref.alloca(%n) : memref<?xf32>\n"
    "  %c0 = arith.constant 0 : index\n"
    "  %x = memref.load %a[%c0] : memref<?xf32>\n"
    "  return %x : f32\n"
    "}\n"
    "func.func @unsigned(%n: index) -> f32 {\n"
    "  %c0 = arith.constant 0 : index\n"
    "  %c1 = arith.constant 1 : index\n"
    "  %zero = arith.constant 0.0 : f32\n"
    "  %r = scf.for unsigned %i = %c0 to %n step %c1 iter_args(%s = %zero)\n"
    "      -> (f32) : index {\n"
    "    scf.yield %s : f32\n"
    "  }\n"
    "  return %r : f32\n"
    "}\n"
    "func.func private @external(f32) -> f32\n"
    "func.func @declared(%n: index) -> f32 {\n"
    "  %x = arith.constant 1.0 : f32\n"
    "  %y = func.call @external(%x) : (f32) -> f32\n"
    "  return %y : f32\n"
    "}\n"
    "func.func @huge(%n: index) -> f32 {\n"
    "  %a = memref.alloca() : memref<4096x4096x2xf32>\n"
    "  %c0 = arith.constant 0 : index\n"
    "  %x = memref.load %a[%c0, %c0, %c0] : memref<4096x4096x2xf32>\n"
    "  return %x : f32\n"
    "}\n"
    "func.func @escape(%n: index) -> f32 {\n"
    "  %a = memref.alloca() : memref<4xf32>\n"
    "  %x = func.call @take(%a, %n) : (memref<4xf32>, index) -> f32\n"
    "  return %x : f32\n"
    "}\n"
    "func.func @take(%a: memref<4xf32>, %n: index) -> f32 {\n"
    "  %x = memref.load %a[%n] : memref<4xf32>\n"
    "  return %x : f32\n"
    "}\n";

static int testRefused(MlirContext ctx) {
  // CHECK-LABEL: testRefused
  fprintf(stderr, "testRefused\n");
  int64_t n = 1;
  double out;
  CoopvecArray arg = array(&n, CoopvecDTypeI64, 1);
  CoopvecArray result = array(&out, CoopvecDTypeF64, 1);
  static const char *names[] = {"dynamic", "unsigned", "declared", "huge",
                                "escape"};
  int failures = 0;
  // CHECK: -:2:8: error: 'memref.alloca' op allocates an array of dynamic
  // CHECK-SAME: size; local arrays need a static shape
  // CHECK: -:11:8: error: 'scf.for' op compares unsigned (unsignedCmp),
  // CHECK-SAME: which the reference interpreter does not support
  // CHECK: -:20:8: error: 'func.call' op calls 'external', which is a
  // CHECK-SAME: declaration (it has no body)
  // CHECK: -:24:8: error: 'memref.alloca' op allocates more than 16777216
  // CHECK-SAME: elements, the most the reference interpreter holds
  // CHECK: -:31:8: error: 'func.call' op passes a local array as argument
  // CHECK-SAME: #0; local arrays cannot leave their function or region
  for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); ++i)
    failures += interpret(ctx, refusedSource, names[i], 1, &arg, 1, &result, 1);
  // CHECK: refused: 5
  fprintf(stderr, "refused: %d\n", failures);
  return 0;
}

//===----------------------------------------------------------------------===//
// Errors
//===----------------------------------------------------------------------===//

static const char *loadSource =
    "func.func @load(%w: memref<?xf32>, %off: index) -> "
    "!coopvec.vec<4, f32> {\n"
    "  %v = \"coopvec.load\"(%w, %off) : (memref<?xf32>, index) -> "
    "!coopvec.vec<4, f32>\n"
    "  return %v : !coopvec.vec<4, f32>\n"
    "}\n"
    "func.func @unsupported(%w: memref<?xf32>) -> f32 {\n"
    "  %c = arith.constant 2.0 : f32\n"
    "  %r = math.tan %c : f32\n"
    "  return %r : f32\n"
    "}\n"
    "func.func @view(%w: memref<?xf32>) -> !coopvec.vec<4, f32> {\n"
    "  %x = arith.constant 1.0 : f32\n"
    "  %v = \"coopvec.splat\"(%x) : (f32) -> !coopvec.vec<4, f32>\n"
    "  %A = \"coopvec.matrix_view\"(%w) {offset = 16} : (memref<?xf32>) -> "
    "!coopvec.matrix<4, 4, f32, \"row_major\">\n"
    "  %y = \"coopvec.matvec\"(%A, %v) : (!coopvec.matrix<4, 4, f32, "
    "\"row_major\">, !coopvec.vec<4, f32>) -> !coopvec.vec<4, f32>\n"
    "  return %y : !coopvec.vec<4, f32>\n"
    "}\n"
    "func.func @rec(%x: f32) -> f32 {\n"
    "  %y = func.call @rec(%x) : (f32) -> f32\n"
    "  return %y : f32\n"
    "}\n";

static int testErrors(MlirContext ctx) {
  // CHECK-LABEL: testErrors
  fprintf(stderr, "testErrors\n");
  float w[16] = {0};
  int64_t offsets[3] = {0, 12, 13};
  double out[12];
  CoopvecArray args[2] = {array(w, CoopvecDTypeF32, 16),
                          array(offsets, CoopvecDTypeI64, 3)};
  CoopvecArray result = array(out, CoopvecDTypeF64, 12);
  int failures = 0;
  // CHECK: error: no func.func named 'missing' in the module
  failures += interpret(ctx, loadSource, "missing", 3, args, 2, &result, 1);
  // CHECK: 1:1: error: 'func.func' op takes 2 arguments and returns 1
  // CHECK-SAME: results; 1 arguments and 1 results were given
  failures += interpret(ctx, loadSource, "load", 3, args, 1, &result, 1);
  // Thread 2 loads elements [13, 17) of 16: the run goes on, then fails.
  // CHECK: 2:8: error: 'coopvec.load' op 1 access outside its buffer (reads
  // CHECK-SAME: gave 0, writes were dropped); the first: thread 2, elements
  // CHECK-SAME: [13, 17) of a buffer of 16 elements
  failures += interpret(ctx, loadSource, "load", 3, args, 2, &result, 1);
  // CHECK: error: 'func.func' op argument #1 (scalar i64/index) needs 1 or
  // CHECK-SAME: 2 elements; the array has 3
  failures += interpret(ctx, loadSource, "load", 2, args, 2, &result, 1);
  // CHECK: 7:8: error: 'math.tan' op is not supported by the reference
  // CHECK-SAME: interpreter
  failures += interpret(ctx, loadSource, "unsupported", 1, args, 1, &result, 1);
  // CHECK: error: 'coopvec.matrix_view' op views elements [4, 20) of a
  // CHECK-SAME: buffer of 16 elements (thread 0)
  CoopvecArray oneThread = array(out, CoopvecDTypeF64, 4);
  failures += interpret(ctx, loadSource, "view", 1, args, 1, &oneThread, 1);
  // CHECK: error: 'func.call' op calls 'rec' recursively
  failures += interpret(ctx, loadSource, "rec", 1, args, 1, &result, 1);
  CoopvecArray halfArgs[2] = {array(w, CoopvecDTypeF16, 16), args[1]};
  // CHECK: error: 'func.func' op argument #0 (memref of f32) was given an
  // CHECK-SAME: array of f16
  failures += interpret(ctx, loadSource, "load", 3, halfArgs, 2, &result, 1);
  // CHECK: error: the number of threads must be positive, not 0
  failures += interpret(ctx, loadSource, "load", 0, args, 2, &result, 1);
  // CHECK: failed calls: 9
  fprintf(stderr, "failed calls: %d\n", failures);
  return 0;
}

//===----------------------------------------------------------------------===//
// f16 conversions
//===----------------------------------------------------------------------===//

static int testHalf(void) {
  // CHECK-LABEL: testHalf
  fprintf(stderr, "testHalf\n");
  // Round trips of every finite half are exact.
  int roundTrips = 0;
  for (unsigned bits = 0; bits < 0x10000; ++bits)
    if ((bits & 0x7c00) != 0x7c00 &&
        coopvecDoubleToHalf(coopvecHalfToDouble((uint16_t)bits)) == bits)
      ++roundTrips;
  // CHECK: finite round trips: 63488
  fprintf(stderr, "finite round trips: %d\n", roundTrips);
  // CHECK: 1+2^-11 -> 0x3c00, 1+3*2^-11 -> 0x3c02, 65519 -> 0x7bff,
  // CHECK-SAME: 65520 -> 0x7c00, 2^-25 -> 0x0000, 3*2^-26 -> 0x0001,
  // CHECK-SAME: -0 -> 0x8000, nan -> 0x7e00
  fprintf(stderr,
          "1+2^-11 -> 0x%04x, 1+3*2^-11 -> 0x%04x, 65519 -> 0x%04x, "
          "65520 -> 0x%04x, 2^-25 -> 0x%04x, 3*2^-26 -> 0x%04x, "
          "-0 -> 0x%04x, nan -> 0x%04x\n",
          coopvecDoubleToHalf(1 + ldexp(1, -11)),
          coopvecDoubleToHalf(1 + 3 * ldexp(1, -11)),
          coopvecDoubleToHalf(65519), coopvecDoubleToHalf(65520),
          coopvecDoubleToHalf(ldexp(1, -25)),
          coopvecDoubleToHalf(3 * ldexp(1, -26)), coopvecDoubleToHalf(-0.0),
          coopvecDoubleToHalf(NAN));
  // CHECK: 0x0001 -> 5.9604644775390625e-08, 0xfbff -> -65504
  fprintf(stderr, "0x0001 -> %.17g, 0xfbff -> %g\n",
          coopvecHalfToDouble(0x0001), coopvecHalfToDouble(0xfbff));
  return 0;
}

int main(void) {
  MlirContext ctx = mlirContextCreate();
  if (mlirLogicalResultIsFailure(coopvecSetupContext(ctx)))
    return 1;
  int rc = testElementwise(ctx);
  if (!rc)
    rc = testMatvec(ctx);
  if (!rc)
    rc = testMasked(ctx);
  if (!rc)
    rc = testPackUnpack(ctx);
  if (!rc)
    rc = testAccumulate(ctx);
  if (!rc)
    rc = testControlFlow(ctx);
  if (!rc)
    rc = testIntegerOps(ctx);
  if (!rc)
    rc = testFloatOps(ctx);
  if (!rc)
    rc = testConversions(ctx);
  if (!rc)
    rc = testMath(ctx);
  if (!rc)
    rc = testMemory(ctx);
  if (!rc)
    rc = testLocalArrays(ctx);
  if (!rc)
    rc = testRegions(ctx);
  if (!rc)
    rc = testOutOfBounds(ctx);
  if (!rc)
    rc = testRefused(ctx);
  if (!rc)
    rc = testErrors(ctx);
  if (!rc)
    rc = testHalf();
  mlirContextDestroy(ctx);
  // CHECK: exit: 0
  fprintf(stderr, "exit: %d\n", rc);
  return rc;
}
