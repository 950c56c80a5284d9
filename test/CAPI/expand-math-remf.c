//===- expand-math-remf.c - C API: the expanded arith.remf is exact -------===//
//
// arith.remf as coopvec-expand-math expands it (lib/Math/Fmod.c), lowered by
// coopvec-lower-to-cpu and JIT-compiled, against C's fmodf bit for bit (a
// NaN matches any NaN): fmod is exact, so nothing but the same bits is
// right. The inputs aim at the reduction's corners:
//   - f16, vector<8xf16>: every one of the 65536 x against 32 y (+-0,
//     +-inf, NaN, the smallest and largest subnormals and normals, and
//     values with long mantissas), computed via f32 in 3 steps;
//   - f32, vector<8xf32>: every pair of 72 special and boundary values,
//     2^19 random bit patterns (mostly |x| < |y| or far apart: the
//     exponent difference of random patterns spreads over [-254, 254]),
//     2^19 pairs whose exponents differ by d, uniform in [0, 276] (every
//     step count of the reduction), and 2^16 pairs of subnormals and small
//     normals;
//   - f32 scalars (the same code on f32 values): the first 2^16 pairs.
//
//===----------------------------------------------------------------------===//

// RUN: coopvec-capi-expand-math-remf 2>&1 | FileCheck %s

// CHECK-NOT: FAIL
// CHECK: remf f16 vector: 2097152 pairs: PASS
// CHECK-NEXT: remf f32 vector: 1119296 pairs: PASS
// CHECK-NEXT: remf f32 scalar: 65536 pairs: PASS
// CHECK-NOT: FAIL

#include "coopvec-c/Coopvec.h"

#include <mlir-c/ExecutionEngine.h>

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct MemRef1D {
  void *allocated, *aligned;
  int64_t offset, size, stride;
} MemRef1D;

/// r[i] = remf(x[i], y[i]) for i < size (a multiple of the step).
typedef void (*RemFn)(MemRef1D *, MemRef1D *, MemRef1D *);

/// The three functions: name, element type, the form of one step.
typedef struct Form {
  const char *name, *type, *element;
  int step;
} Form;
static const Form forms[] = {{"f16_vector", "f16", "vector<8xf16>", 8},
                             {"f32_vector", "f32", "vector<8xf32>", 8},
                             {"f32_scalar", "f32", "f32", 1}};
enum { NUM_FORMS = sizeof(forms) / sizeof(forms[0]) };

//===----------------------------------------------------------------------===//
// The module
//===----------------------------------------------------------------------===//

static void appendFunction(CoopvecBuffer *text, const Form *f) {
  const char *access = f->step > 1 ? "vector" : "memref";
  const char *suffix = f->step > 1 ? ", " : "";
  const char *element = f->step > 1 ? f->element : "";
  coopvecBufferAppendf(
      text,
      "func.func @%s(%%x: memref<?x%s>, %%y: memref<?x%s>, "
      "%%r: memref<?x%s>) attributes {llvm.emit_c_interface} {\n"
      "  %%c0 = arith.constant 0 : index\n"
      "  %%cs = arith.constant %d : index\n"
      "  %%cn = memref.dim %%x, %%c0 : memref<?x%s>\n"
      "  scf.for %%i = %%c0 to %%cn step %%cs {\n",
      f->name, f->type, f->type, f->type, f->step, f->type);
  coopvecBufferAppendf(text,
                       "    %%a = %s.load %%x[%%i] : memref<?x%s>%s%s\n"
                       "    %%b = %s.load %%y[%%i] : memref<?x%s>%s%s\n"
                       "    %%v = arith.remf %%a, %%b : %s\n"
                       "    %s.store %%v, %%r[%%i] : memref<?x%s>%s%s\n"
                       "  }\n  return\n}\n",
                       access, f->type, suffix, element, access, f->type,
                       suffix, element, f->element, access, f->type, suffix,
                       element);
}

static void printError(MlirStringRef message, void *userData) {
  (void)userData;
  fprintf(stderr, "%.*s\n", (int)message.length, message.data);
}

/// The module lowered by coopvec-lower-to-cpu, JIT-compiled (null on
/// failure); *module stays alive as long as the engine.
static MlirExecutionEngine compile(MlirContext ctx, MlirModule *module) {
  CoopvecBuffer text = {0};
  for (int f = 0; f < NUM_FORMS; ++f)
    appendFunction(&text, &forms[f]);
  *module =
      mlirModuleCreateParse(ctx, mlirStringRefCreate(text.data, text.size));
  coopvecBufferFree(&text);
  if (mlirModuleIsNull(*module))
    return (MlirExecutionEngine){NULL};
  MlirPassManager pm = mlirPassManagerCreateOnOperation(
      ctx, mlirStringRefCreateFromCString("builtin.module"));
  MlirLogicalResult result = coopvecParsePassPipeline(
      mlirPassManagerGetAsOpPassManager(pm),
      mlirStringRefCreateFromCString("builtin.module(coopvec-lower-to-cpu)"),
      true, printError, NULL);
  if (mlirLogicalResultIsSuccess(result))
    result = mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(*module));
  mlirPassManagerDestroy(pm);
  if (!mlirLogicalResultIsSuccess(result))
    return (MlirExecutionEngine){NULL};
  return mlirExecutionEngineCreate(*module, 2, 0, NULL, false, false);
}

/// Runs function `form` on n elements of 2- or 4-byte x, y into r.
static void run(MlirExecutionEngine jit, int form, void *x, void *y, void *r,
                int64_t n) {
  char name[64];
  snprintf(name, sizeof(name), "_mlir_ciface_%s", forms[form].name);
  void *fn =
      mlirExecutionEngineLookup(jit, mlirStringRefCreateFromCString(name));
  if (!fn) {
    printf("%s: missing\n", name);
    exit(1);
  }
  MemRef1D mx = {x, x, 0, n, 1}, my = {y, y, 0, n, 1}, mr = {r, r, 0, n, 1};
  ((RemFn)fn)(&mx, &my, &mr);
}

//===----------------------------------------------------------------------===//
// Inputs
//===----------------------------------------------------------------------===//

static uint64_t splitMix64(uint64_t *state) {
  uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

static float floatOfBits(uint32_t bits) {
  float value;
  memcpy(&value, &bits, sizeof(value));
  return value;
}

static uint32_t bitsOfFloat(float value) {
  uint32_t bits;
  memcpy(&bits, &value, sizeof(bits));
  return bits;
}

/// f32 special and boundary values, each used with both signs: zeros,
/// subnormals, the normal boundaries, the largest values, mantissas of all
/// ones, and neighbours that make long remainder chains.
static const float specials32[] = {0.0f,
                                   0x1p-149f,
                                   0x1.8p-148f,
                                   0x1.fffffcp-127f,
                                   0x1p-126f,
                                   0x1.000002p-126f,
                                   0x1.fffffep-126f,
                                   0x1p-100f,
                                   0x1.fffffep-1f,
                                   1.0f,
                                   0x1.000002p+0f,
                                   1.5f,
                                   2.0f,
                                   3.0f,
                                   0.1f,
                                   3.14159274f,
                                   0x1.fffffep+23f,
                                   0x1p+24f,
                                   0x1.000002p+24f,
                                   1e30f,
                                   0x1p+127f,
                                   0x1.fffffep+127f,
                                   0x1.800002p+77f,
                                   0x1.5555p-140f,
                                   0x1.abcdeep+50f,
                                   0x1.fedcbap-60f,
                                   0x1.000ffep+12f,
                                   0x1.fff001p+3f,
                                   0x1.001p+0f,
                                   0x1.234566p-130f,
                                   0x1.7ffffep+100f,
                                   0x1.c0ffeep-77f,
                                   7.0f,
                                   0x1p-24f,
                                   INFINITY,
                                   NAN};
enum { NUM_SPECIALS32 = 2 * sizeof(specials32) / sizeof(specials32[0]) };

/// f16 divisors (bit patterns): +-0, +-inf, NaN, the smallest and largest
/// subnormals, the smallest normal, 1, 1 + ulp, 3, 0.1, 65504, 2^-13 + ulp,
/// mantissas of all ones, and small odd subnormals (3, 5, 7, 11, 25 times
/// 2^-24: the largest exponent differences, all 3 steps).
static const uint16_t divisors16[] = {
    0x0000, 0x8000, 0x7c00, 0xfc00, 0x7e00, 0x0001, 0x8001, 0x03ff,
    0x0400, 0x3c00, 0xbc00, 0x3c01, 0x4200, 0x2e66, 0x7bff, 0xfbff,
    0x0801, 0x3bff, 0x57ff, 0x0155, 0x1abc, 0xc7ff, 0x6001, 0x23ff,
    0x0002, 0x43ff, 0x0003, 0x8005, 0x0007, 0x000b, 0x0019, 0x00ff};
enum { NUM_DIVISORS16 = sizeof(divisors16) / sizeof(divisors16[0]) };

enum {
  RANDOM32 = 1 << 19,
  SCALED32 = 1 << 19,
  SMALL32 = 1 << 16,
  COUNT16 = 65536 * NUM_DIVISORS16,
  COUNT32 = NUM_SPECIALS32 * NUM_SPECIALS32 + RANDOM32 + SCALED32 + SMALL32,
  COUNT_SCALAR = 1 << 16,
};

/// A pair whose exponents differ by d, uniform in [0, 276] (every step
/// count of the reduction, up to the largest): x = 1.m1 2^e, e in
/// [d - 149, 127], y = 1.m2 2^(e - d) (rounded where it is subnormal).
static void scaledPair(float *x, float *y, uint64_t *state) {
  uint64_t bits = splitMix64(state), more = splitMix64(state);
  int d = (int)(bits % 277);
  int e = d - 149 + (int)((bits >> 16) % (uint64_t)(277 - d));
  *x = ldexpf(floatOfBits(0x3f800000u | ((uint32_t)more & 0x7fffff)), e);
  *y = ldexpf(floatOfBits(0x3f800000u | ((uint32_t)(more >> 32) & 0x7fffff)),
              e - d);
  *x = (bits >> 62) & 1 ? -*x : *x;
  *y = (bits >> 63) & 1 ? -*y : *y;
}

/// The f32 pairs: the grid of specials, random bit patterns, scaled
/// pairs, and small values (subnormals and normals below 2^-100).
static void fillF32(float *x, float *y) {
  int n = 0;
  for (int i = 0; i < NUM_SPECIALS32; ++i)
    for (int j = 0; j < NUM_SPECIALS32; ++j, ++n) {
      x[n] = i % 2 ? -specials32[i / 2] : specials32[i / 2];
      y[n] = j % 2 ? -specials32[j / 2] : specials32[j / 2];
    }
  uint64_t state = 0xf3d0;
  for (int i = 0; i < RANDOM32; ++i, ++n) {
    uint64_t bits = splitMix64(&state);
    x[n] = floatOfBits((uint32_t)bits);
    y[n] = floatOfBits((uint32_t)(bits >> 32));
  }
  for (int i = 0; i < SCALED32; ++i, ++n)
    scaledPair(&x[n], &y[n], &state);
  for (int i = 0; i < SMALL32; ++i, ++n) {
    uint64_t bits = splitMix64(&state);
    x[n] = floatOfBits((uint32_t)bits & 0x8d7fffffu);
    y[n] = floatOfBits((uint32_t)(bits >> 32) & 0x8d7fffffu);
  }
}

//===----------------------------------------------------------------------===//
// Checking
//===----------------------------------------------------------------------===//

/// Counts (and prints the first few of) the results that are not fmodf's
/// bits; NaN matches any NaN.
static int mismatches32(const char *form, const float *x, const float *y,
                        const float *r, int n) {
  int bad = 0;
  for (int i = 0; i < n; ++i) {
    float ref = fmodf(x[i], y[i]);
    if (isnan(ref) ? isnan(r[i]) : bitsOfFloat(ref) == bitsOfFloat(r[i]))
      continue;
    if (++bad <= 10)
      printf("remf(%a, %a) %s: got %a, expected %a: FAIL\n", x[i], y[i], form,
             r[i], ref);
  }
  return bad;
}

static bool checkF16(MlirExecutionEngine jit) {
  static uint16_t x[COUNT16], y[COUNT16], r[COUNT16];
  for (int i = 0; i < COUNT16; ++i) {
    x[i] = (uint16_t)(i % 65536);
    y[i] = divisors16[i / 65536];
  }
  run(jit, 0, x, y, r, COUNT16);
  int bad = 0;
  for (int i = 0; i < COUNT16; ++i) {
    double hx = coopvecHalfToDouble(x[i]), hy = coopvecHalfToDouble(y[i]);
    // The f32 remainder of f16 values is an f16 value: the conversion is
    // exact.
    float ref = fmodf((float)hx, (float)hy);
    double got = coopvecHalfToDouble(r[i]);
    bool ok = isnan(ref)
                  ? isnan(got)
                  : r[i] == coopvecFloatToHalf(ref) && (double)ref == got;
    if (!ok && ++bad <= 10)
      printf("remf(%a, %a) f16: got %a, expected %a: FAIL\n", hx, hy, got,
             (double)ref);
  }
  printf("remf f16 vector: %d pairs: %s\n", COUNT16, bad ? "FAIL" : "PASS");
  return bad == 0;
}

static bool checkF32(MlirExecutionEngine jit) {
  static float x[COUNT32], y[COUNT32], r[COUNT32];
  fillF32(x, y);
  run(jit, 1, x, y, r, COUNT32);
  int bad = mismatches32("f32 vector", x, y, r, COUNT32);
  printf("remf f32 vector: %d pairs: %s\n", COUNT32, bad ? "FAIL" : "PASS");
  memset(r, 0, sizeof(r));
  run(jit, 2, x, y, r, COUNT_SCALAR);
  int badScalar = mismatches32("f32 scalar", x, y, r, COUNT_SCALAR);
  printf("remf f32 scalar: %d pairs: %s\n", COUNT_SCALAR,
         badScalar ? "FAIL" : "PASS");
  return bad == 0 && badScalar == 0;
}

int main(void) {
  MlirContext ctx = mlirContextCreate();
  coopvecSetupContext(ctx);
  MlirModule module;
  MlirExecutionEngine jit = compile(ctx, &module);
  if (mlirExecutionEngineIsNull(jit)) {
    printf("compile: FAIL\n");
    return 1;
  }
  bool ok = checkF16(jit);
  ok &= checkF32(jit);
  mlirExecutionEngineDestroy(jit);
  mlirModuleDestroy(module);
  mlirContextDestroy(ctx);
  return ok ? 0 : 1;
}
