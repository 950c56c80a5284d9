//===- expand-math.c - C API: the expanded math ops run on the CPU --------===//
//
// Builds a module with one function per math op that coopvec-expand-math
// expands and per form (f32 scalars in a loop, vector<8xf32>, vector<8xf16>),
// lowers it through coopvec-lower-to-cpu (which runs the pass) with the C
// API, JIT-compiles it, and compares every result with C's double-precision
// libm: special values exactly (NaN for NaN, the same infinity, a zero of
// the same sign), the rest within the bounds of docs/execution-model.md,
// "Transcendentals" (f32: 1 ulp, atan2 and powf 2 ulp; f16: half an ulp of
// f16 plus the f32 error, 0.51 ulp). Inputs: C99 Annex F's special values
// and boundaries, and 400 deterministic ones per op (random bit patterns
// and values in the op's working range).
//
//===----------------------------------------------------------------------===//

// RUN: coopvec-capi-expand-math 2>&1 | FileCheck %s

// CHECK-NOT: FAIL
// CHECK: sin f32 scalar: PASS
// CHECK: powf f16 vector: PASS
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

/// Every function takes x, y and the result (y unused by one-operand ops).
typedef void (*MathFn)(MemRef1D *, MemRef1D *, MemRef1D *);

typedef struct Op {
  const char *name;
  double (*unary)(double);
  double (*binary)(double, double);
  double bound; // f32 ulps
} Op;

static double rsqrtDouble(double x) { return 1.0 / sqrt(x); }

static const Op ops[] = {
    {"sin", sin, NULL, 1},     {"cos", cos, NULL, 1},
    {"exp", exp, NULL, 1},     {"exp2", exp2, NULL, 1},
    {"log", log, NULL, 1},     {"log2", log2, NULL, 1},
    {"tanh", tanh, NULL, 1},   {"atan", atan, NULL, 1},
    {"erf", erf, NULL, 1},     {"rsqrt", rsqrtDouble, NULL, 1},
    {"atan2", NULL, atan2, 2}, {"powf", NULL, pow, 2},
};
enum { NUM_OPS = sizeof(ops) / sizeof(ops[0]), COUNT = 512 };

/// The three forms of each op: name suffix, element type, lanes (0: a
/// scalar loop).
typedef struct Form {
  const char *name, *type;
  int lanes;
} Form;
static const Form forms[] = {
    {"scalar", "f32", 0}, {"vector", "f32", 8}, {"vector", "f16", 8}};
enum { NUM_FORMS = sizeof(forms) / sizeof(forms[0]) };

//===----------------------------------------------------------------------===//
// The module
//===----------------------------------------------------------------------===//

/// One function @OP_FORM(x, y, result) over COUNT elements (y unused by
/// the one-operand ops).
static void appendFunction(CoopvecBuffer *text, const Op *op, int form) {
  const Form *f = &forms[form];
  char element[32];
  if (f->lanes)
    snprintf(element, sizeof(element), "vector<%dx%s>", f->lanes, f->type);
  else
    snprintf(element, sizeof(element), "%s", f->type);
  const char *access = f->lanes ? "vector" : "memref";
  coopvecBufferAppendf(
      text,
      "func.func @%s_%d(%%x: memref<?x%s>, %%y: memref<?x%s>, "
      "%%r: memref<?x%s>) attributes {llvm.emit_c_interface} {\n"
      "  %%c0 = arith.constant 0 : index\n"
      "  %%cn = arith.constant %d : index\n"
      "  %%cs = arith.constant %d : index\n"
      "  scf.for %%i = %%c0 to %%cn step %%cs {\n"
      "    %%a = %s.load %%x[%%i] : memref<?x%s>%s%s\n"
      "    %%b = %s.load %%y[%%i] : memref<?x%s>%s%s\n",
      op->name, form, f->type, f->type, f->type, COUNT, f->lanes ? f->lanes : 1,
      access, f->type, f->lanes ? ", " : "", f->lanes ? element : "", access,
      f->type, f->lanes ? ", " : "", f->lanes ? element : "");
  coopvecBufferAppendf(text, "    %%v = math.%s %%a%s : %s\n", op->name,
                       op->binary ? ", %b" : "", element);
  coopvecBufferAppendf(text,
                       "    %s.store %%v, %%r[%%i] : memref<?x%s>%s%s\n"
                       "  }\n  return\n}\n",
                       access, f->type, f->lanes ? ", " : "",
                       f->lanes ? element : "");
}

static void printError(MlirStringRef message, void *userData) {
  (void)userData;
  fprintf(stderr, "%.*s\n", (int)message.length, message.data);
}

/// The module lowered by coopvec-lower-to-cpu, JIT-compiled (null on
/// failure); *module stays alive as long as the engine.
static MlirExecutionEngine compile(MlirContext ctx, MlirModule *module) {
  CoopvecBuffer text = {0};
  for (int o = 0; o < NUM_OPS; ++o)
    for (int f = 0; f < NUM_FORMS; ++f)
      appendFunction(&text, &ops[o], f);
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

//===----------------------------------------------------------------------===//
// Inputs
//===----------------------------------------------------------------------===//

/// C99 Annex F's special values and the boundaries of the reductions; each
/// is used with both signs.
static const float specials[] = {0.0f,
                                 0x1p-149f,
                                 0x1p-126f,
                                 0x1p-12f,
                                 0.4142135f,
                                 0.5f,
                                 0.785398f,
                                 0.875f,
                                 1.0f,
                                 1.5707964f,
                                 2.0f,
                                 2.4142137f,
                                 3.0f,
                                 3.95f,
                                 9.1f,
                                 88.72f,
                                 89.0f,
                                 104.0f,
                                 128.0f,
                                 150.0f,
                                 1e10f,
                                 0x1p24f,
                                 0x1.fffffep127f,
                                 INFINITY,
                                 NAN};
enum { NUM_SPECIALS = 2 * sizeof(specials) / sizeof(specials[0]) };

static uint64_t splitMix64(uint64_t *state) {
  uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/// Input i: a special value, a random bit pattern (every third), or a value
/// uniform in [-8, 8) (powf's x: in [0, 8)).
static float inputAt(int i, uint64_t *state, bool positive) {
  if (i < NUM_SPECIALS)
    return i % 2 ? -specials[i / 2] : specials[i / 2];
  uint64_t bits = splitMix64(state);
  if (i % 3 == 0) {
    uint32_t pattern = (uint32_t)bits;
    float value;
    memcpy(&value, &pattern, sizeof(value));
    return value;
  }
  double u = (double)(bits >> 11) * 0x1p-53;
  return (float)(positive ? 8 * u : 16 * u - 8);
}

//===----------------------------------------------------------------------===//
// The comparison
//===----------------------------------------------------------------------===//

/// The error of `got` against `ref` in ulps of a format with `mantissa`
/// bits and normal exponents from `minExponent`; negative for a wrong
/// special value, 0 for a right one.
static double ulpError(double got, double ref, int mantissa, int minExponent,
                       double max) {
  if (isnan(ref) || isnan(got))
    return isnan(ref) && isnan(got) ? 0 : -1;
  if (isinf(ref) || ref == 0)
    return got == ref && signbit(got) == signbit(ref) ? 0 : -1;
  if (isinf(got)) // overflow: right if ref rounds beyond the largest value
    return fabs(ref) > max && signbit(got) == signbit(ref) ? 0 : -1;
  int exponent = ilogb(ref);
  if (exponent < minExponent)
    exponent = minExponent;
  return fabs(got - ref) / ldexp(1.0, exponent - mantissa);
}

//===----------------------------------------------------------------------===//
// Running
//===----------------------------------------------------------------------===//

typedef struct Buffers {
  float x[COUNT], y[COUNT], r[COUNT];
  uint16_t hx[COUNT], hy[COUNT], hr[COUNT];
} Buffers;

static void run(MlirExecutionEngine jit, const Op *op, int form, Buffers *b) {
  char name[64];
  snprintf(name, sizeof(name), "_mlir_ciface_%s_%d", op->name, form);
  void *fn =
      mlirExecutionEngineLookup(jit, mlirStringRefCreateFromCString(name));
  bool f16 = strcmp(forms[form].type, "f16") == 0;
  MemRef1D x = {f16 ? (void *)b->hx : b->x, f16 ? (void *)b->hx : b->x, 0,
                COUNT, 1},
           y = {f16 ? (void *)b->hy : b->y, f16 ? (void *)b->hy : b->y, 0,
                COUNT, 1},
           r = {f16 ? (void *)b->hr : b->r, f16 ? (void *)b->hr : b->r, 0,
                COUNT, 1};
  if (!fn) {
    printf("%s: missing\n", name);
    exit(1);
  }
  ((MathFn)fn)(&x, &y, &r);
}

/// Checks op in one form; prints its verdict and the largest error.
static bool check(MlirExecutionEngine jit, const Op *op, int form) {
  static Buffers b;
  uint64_t state = 0xe4a7 + (uint64_t)(op - ops);
  bool f16 = strcmp(forms[form].type, "f16") == 0;
  for (int i = 0; i < COUNT; ++i) {
    b.x[i] = inputAt(i, &state, op->binary == pow);
    b.y[i] = op->binary ? inputAt((i * 7 + 3) % COUNT, &state, false) : 0;
    b.hx[i] = coopvecFloatToHalf(b.x[i]);
    b.hy[i] = coopvecFloatToHalf(b.y[i]);
  }
  run(jit, op, form, &b);
  double worst = 0, bound = f16 ? 0.51 : op->bound;
  bool ok = true;
  for (int i = 0; i < COUNT; ++i) {
    double x = f16 ? coopvecHalfToDouble(b.hx[i]) : b.x[i];
    double y = f16 ? coopvecHalfToDouble(b.hy[i]) : b.y[i];
    double ref = op->binary ? op->binary(x, y) : op->unary(x);
    double got = f16 ? coopvecHalfToDouble(b.hr[i]) : b.r[i];
    double error = f16 ? ulpError(got, ref, 10, -14, 65504.0)
                       : ulpError(got, ref, 23, -126, 0x1.fffffep127);
    if (error < 0 || error > bound) {
      printf("%s(%a, %a) %s: got %a, expected %a: FAIL\n", op->name, x, y,
             forms[form].type, got, ref);
      ok = false;
    }
    worst = error > worst ? error : worst;
  }
  printf("%s %s %s: %s (max %.3f ulp, bound %.2f)\n", op->name,
         forms[form].type, forms[form].name, ok ? "PASS" : "FAIL", worst,
         bound);
  return ok;
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
  bool ok = true;
  for (int o = 0; o < NUM_OPS; ++o)
    for (int f = 0; f < NUM_FORMS; ++f)
      ok &= check(jit, &ops[o], f);
  mlirExecutionEngineDestroy(jit);
  mlirModuleDestroy(module);
  mlirContextDestroy(ctx);
  return ok ? 0 : 1;
}
