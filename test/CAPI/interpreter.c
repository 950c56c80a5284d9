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
    "  %r = math.sqrt %c : f32\n"
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
  // Thread 2 loads elements [13, 17) of 16.
  // CHECK: 2:8: error: 'coopvec.load' op loads elements [13, 17) of a
  // CHECK-SAME: buffer of 16 elements (thread 2)
  failures += interpret(ctx, loadSource, "load", 3, args, 2, &result, 1);
  // CHECK: error: 'func.func' op argument #1 (scalar i64/index) needs 1 or
  // CHECK-SAME: 2 elements; the array has 3
  failures += interpret(ctx, loadSource, "load", 2, args, 2, &result, 1);
  // CHECK: 7:8: error: 'math.sqrt' op is not supported by the reference
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
    rc = testErrors(ctx);
  if (!rc)
    rc = testHalf();
  mlirContextDestroy(ctx);
  // CHECK: exit: 0
  fprintf(stderr, "exit: %d\n", rc);
  return rc;
}
