//===- autodiff-general.c - C API: coopvec-autodiff of per-thread code ----===//
//
// coopvec-autodiff on general per-thread code (docs/autodiff.md, "Scalar
// rules" and "Gathers"), against central finite differences in double.
// Each case is a program @f(%x: vec<N, T>, <tables: memref<?xT>>) ->
// vec<K, T> and a *reference*: the same function written with scalars of
// f64 (%x as vec<N, f32>, unpacked and widened exactly; the tables as
// memref<?xf64>), returning its K results as f64 scalars. The reference
// interpreter rounds every scalar arith / math op to its type
// (docs/interpreter.md, "Precision"), so differences of the f32 program
// itself would carry its rounding (1e-7 |L| / h, about 1e-3 here); the f64
// reference has none, and at the program's inputs it computes what the
// program computes before rounding. The test runs
// coopvec-autodiff{func=f}, runs @f_grad with the interpreter and compares
// dX and every table's gradient buffer with differences of
//
//   L = sum over threads t and results k of dY[t, k] * ref(args)[k, t].
//
// Steps are h = 2^-12 max(|x|, 1/4) (truncation h^2 |f'''| / 6 ~ 1e-8).
// Tolerances, as |ad - fd| <= tol * max(1, |fd|):
//   f32: 2e-5. @f_grad rounds its scalar arith to f32 (a few ulp along a
//        chain of rules) and evaluates the derivatives at the program's
//        rounded intermediate values, which differ from the reference's
//        by an ulp or so, and the scatter-adds round at each add.
//   f16: 4e-3 = 8 u (u = 2^-11): intermediates rounded to f16, and each
//        contribution rounded to f16 once (the rules compute in f32).
// A wrong rule (a missing term, a sign, a factor) errs by the size of the
// gradient itself. Kinks (fptosi, floor, max, a gather's index changing)
// are handled as in test/CAPI/autodiff.c: where the one-sided differences
// disagree, the gradient must lie between them.
//
// Gathers collide: the tables have 8 to 16 entries and up to 127 threads
// gather from them, so many threads scatter-add into the same entry.
//
//===----------------------------------------------------------------------===//

// RUN: coopvec-capi-autodiff-general 2>&1 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: general finite differences: [[N:[0-9]+]] cases, 0 failed

#include "FiniteDifference.h"

#include "coopvec-c/Dialect.h"
#include "coopvec-c/HostArray.h"
#include "coopvec-c/Interpreter.h"
#include "coopvec-c/Passes.h"
#include "coopvec-c/Support.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_TABLES = 3, MAX_SAMPLES = 48 };

static void printError(MlirStringRef message, void *userData) {
  (void)userData;
  fprintf(stderr, "%.*s\n", (int)message.length, message.data);
}

//===----------------------------------------------------------------------===//
// A case
//===----------------------------------------------------------------------===//

typedef struct Case {
  char name[128];
  CoopvecBuffer program, reference;
  bool f16;
  double tol;                      // see the file comment
  int64_t threads, width, results; // N and K
  int64_t numTables, tableSize[MAX_TABLES];
  int64_t numGathered; // the first tables are gathered from: they have a
                       // gradient buffer; the others are not read
  double lo, hi;       // range of %x
} Case;

typedef struct Run {
  const Case *c;
  MlirModule program, reference;
  CoopvecArray x, refX, dy, dx;
  CoopvecArray tables[MAX_TABLES], refTables[MAX_TABLES];
  CoopvecArray grads[MAX_TABLES];
  CoopvecArray *outputs; // K arrays of `threads` f64
  double baseline;
} Run;

static CoopvecArray newArray(CoopvecDType dtype, int64_t size) {
  CoopvecArray array = {calloc((size_t)size + 1, 8), dtype, size};
  if (!array.data)
    abort();
  return array;
}

static uint64_t nextRandom(uint64_t *state) {
  uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

static void fillRandom(CoopvecArray *array, double lo, double hi,
                       uint64_t *state) {
  for (int64_t i = 0; i < array->size; ++i) {
    double unit = (double)(nextRandom(state) >> 11) / 9007199254740992.0;
    coopvecArraySet(array, i, lo + (hi - lo) * unit);
  }
}

static CoopvecArray copyAs(const CoopvecArray *from, CoopvecDType dtype) {
  CoopvecArray array = newArray(dtype, from->size);
  for (int64_t i = 0; i < from->size; ++i)
    coopvecArraySet(&array, i, coopvecArrayGet(from, i));
  return array;
}

static MlirModule parse(MlirContext ctx, const CoopvecBuffer *text) {
  return mlirModuleCreateParse(
      ctx, mlirStringRefCreateFromCString(coopvecBufferStr(text)));
}

static bool differentiate(MlirContext ctx, MlirModule module) {
  MlirPassManager pm = mlirPassManagerCreateOnOperation(
      ctx, mlirStringRefCreateFromCString("builtin.module"));
  MlirLogicalResult result =
      coopvecParsePassPipeline(mlirPassManagerGetAsOpPassManager(pm),
                               mlirStringRefCreateFromCString(
                                   "builtin.module(coopvec-autodiff{func=f})"),
                               true, printError, NULL);
  if (mlirLogicalResultIsSuccess(result))
    result = mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(module));
  mlirPassManagerDestroy(pm);
  return mlirLogicalResultIsSuccess(result);
}

static void setupArrays(Run *r) {
  const Case *c = r->c;
  CoopvecDType t = c->f16 ? CoopvecDTypeF16 : CoopvecDTypeF32;
  uint64_t seed = 0x5eed;
  for (const char *s = c->name; *s; ++s)
    seed = seed * 131 + (unsigned char)*s;
  r->x = newArray(t, c->threads * c->width);
  fillRandom(&r->x, c->lo, c->hi, &seed);
  r->refX = copyAs(&r->x, CoopvecDTypeF32);
  r->dy = newArray(t, c->threads * c->results);
  fillRandom(&r->dy, -1.0, 1.0, &seed);
  r->dx = newArray(CoopvecDTypeF64, c->threads * c->width);
  for (int64_t k = 0; k < c->numTables; ++k) {
    r->tables[k] = newArray(t, c->tableSize[k]);
    fillRandom(&r->tables[k], -1.0, 1.0, &seed);
    r->refTables[k] = copyAs(&r->tables[k], CoopvecDTypeF64);
    r->grads[k] = newArray(t, c->tableSize[k]); // zero
  }
  r->outputs = calloc((size_t)c->results, sizeof(CoopvecArray));
  if (!r->outputs)
    abort();
  for (int64_t k = 0; k < c->results; ++k)
    r->outputs[k] = newArray(CoopvecDTypeF64, c->threads);
}

static void freeRun(Run *r) {
  free(r->x.data);
  free(r->refX.data);
  free(r->dy.data);
  free(r->dx.data);
  for (int64_t k = 0; k < MAX_TABLES; ++k) {
    free(r->tables[k].data);
    free(r->refTables[k].data);
    free(r->grads[k].data);
  }
  for (int64_t k = 0; r->outputs && k < r->c->results; ++k)
    free(r->outputs[k].data);
  free(r->outputs);
  if (!mlirModuleIsNull(r->program))
    mlirModuleDestroy(r->program);
  if (!mlirModuleIsNull(r->reference))
    mlirModuleDestroy(r->reference);
}

static bool runGradient(Run *r) {
  const Case *c = r->c;
  CoopvecArray args[2 * MAX_TABLES + 2];
  intptr_t count = 0;
  args[count++] = r->x;
  for (int64_t k = 0; k < c->numTables; ++k)
    args[count++] = r->tables[k];
  for (int64_t k = 0; k < c->numGathered; ++k)
    args[count++] = r->grads[k];
  args[count++] = r->dy;
  return mlirLogicalResultIsSuccess(
      coopvecInterpret(mlirModuleGetOperation(r->program),
                       mlirStringRefCreateFromCString("f_grad"), c->threads,
                       args, count, &r->dx, 1, printError, NULL));
}

/// L at the reference arguments.
static double objective(Run *r) {
  const Case *c = r->c;
  CoopvecArray args[MAX_TABLES + 1];
  args[0] = r->refX;
  for (int64_t k = 0; k < c->numTables; ++k)
    args[1 + k] = r->refTables[k];
  if (mlirLogicalResultIsFailure(coopvecInterpret(
          mlirModuleGetOperation(r->reference),
          mlirStringRefCreateFromCString("f"), c->threads, args,
          1 + c->numTables, r->outputs, c->results, printError, NULL)))
    return NAN;
  double sum = 0.0;
  for (int64_t t = 0; t < c->threads; ++t)
    for (int64_t k = 0; k < c->results; ++k)
      sum += coopvecArrayGet(&r->dy, t * c->results + k) *
             ((const double *)r->outputs[k].data)[t];
  return sum;
}

//===----------------------------------------------------------------------===//
// Comparison with finite differences
//===----------------------------------------------------------------------===//

static double objectiveOf(void *context) { return objective(context); }

static Difference difference(Run *r, CoopvecArray *x, int64_t i) {
  return finiteDifference(objectiveOf, r, r->baseline, x, i);
}

/// Compares up to MAX_SAMPLES evenly spread elements of `gradient` with
/// differences in `x`; returns the number of mismatches.
static int checkGradient(Run *r, const char *what, CoopvecArray *x,
                         const CoopvecArray *gradient) {
  double tol = r->c->tol;
  int64_t count = x->size < MAX_SAMPLES ? x->size : MAX_SAMPLES;
  int failures = 0;
  for (int64_t s = 0; s < count; ++s) {
    int64_t i = count == 1 ? 0 : s * (x->size - 1) / (count - 1);
    Difference d = difference(r, x, i);
    double got = coopvecArrayGet(gradient, i);
    if (matches(got, d, tol))
      continue;
    ++failures;
    fprintf(stderr,
            "FAIL %s: %s[%lld] is %.9g, finite differences give %.9g "
            "(one-sided %.9g, %.9g)\n",
            r->c->name, what, (long long)i, got, d.central, d.forward,
            d.backward);
  }
  return failures;
}

static bool runCase(MlirContext ctx, const Case *c) {
  Run r;
  memset(&r, 0, sizeof(r));
  r.c = c;
  r.program = parse(ctx, &c->program);
  r.reference = parse(ctx, &c->reference);
  bool ok = !mlirModuleIsNull(r.program) && !mlirModuleIsNull(r.reference) &&
            differentiate(ctx, r.program);
  if (!ok)
    fprintf(stderr, "FAIL %s: could not build the modules\n%s\n%s", c->name,
            coopvecBufferStr(&c->program), coopvecBufferStr(&c->reference));
  setupArrays(&r);
  if (ok && !runGradient(&r)) {
    fprintf(stderr, "FAIL %s: @f_grad did not run\n", c->name);
    ok = false;
  }
  if (ok) {
    r.baseline = objective(&r);
    int failures = checkGradient(&r, "dx", &r.refX, &r.dx);
    for (int64_t k = 0; k < c->numTables; ++k)
      failures +=
          checkGradient(&r, "table gradient", &r.refTables[k], &r.grads[k]);
    ok = failures == 0 && !isnan(r.baseline);
  }
  freeRun(&r);
  return ok;
}

//===----------------------------------------------------------------------===//
// Text
//===----------------------------------------------------------------------===//

/// Appends `text` with every `$<key>` replaced by `values[key]`.
static void appendExpanded(CoopvecBuffer *out, const char *text,
                           const char *const keys[], const char *const values[],
                           int count) {
  while (*text) {
    bool replaced = false;
    for (int i = 0; *text == '$' && i < count && !replaced; ++i) {
      size_t length = strlen(keys[i]);
      if (strncmp(text + 1, keys[i], length) != 0)
        continue;
      coopvecBufferAppendf(out, "%s", values[i]);
      text += 1 + length;
      replaced = true;
    }
    if (!replaced)
      coopvecBufferAppendf(out, "%c", *text++);
  }
}

//===----------------------------------------------------------------------===//
// Scalar ops: @f(%x: vec<3, T>, %t: memref<?xT>) -> vec<1, T> computes %r
// from the elements $a, $b, $c of %x (and the table %t) in type $T.
//===----------------------------------------------------------------------===//

typedef struct ScalarBody {
  const char *name;
  const char *body;      // defines %r : $T
  const char *reference; // a different f64 body, or null for the same
  double lo, hi;
  bool f32Only, f16Only; // f32Only: rounds to f16 inside (f16 tolerance)
} ScalarBody;

#define UNARY(op, lo, hi)                                                      \
  {                                                                            \
    "math." op, "%s = math." op " $a : $T\n  %r = arith.mulf %s, $b : $T",     \
        NULL, lo, hi, false, false                                             \
  }

static const ScalarBody scalarBodies[] = {
    {"addf", "%r = arith.addf $a, $b : $T", NULL, -2, 2, false, false},
    {"subf", "%r = arith.subf $a, $b : $T", NULL, -2, 2, false, false},
    {"mulf", "%r = arith.mulf $a, $b : $T", NULL, -2, 2, false, false},
    {"mulf self", "%r = arith.mulf $a, $a : $T", NULL, -2, 2, false, false},
    {"divf", "%r = arith.divf $a, $b : $T", NULL, 0.5, 2, false, false},
    {"remf", "%q = arith.mulf $a, $c : $T\n  %r = arith.remf %q, $b : $T", NULL,
     0.6, 3, false, false},
    {"negf", "%n = arith.negf $a : $T\n  %r = arith.mulf %n, $b : $T", NULL, -2,
     2, false, false},
    {"maximumf", "%r = arith.maximumf $a, $b : $T", NULL, -2, 2, false, false},
    {"minimumf", "%r = arith.minimumf $a, $b : $T", NULL, -2, 2, false, false},
    {"maxnumf", "%r = arith.maxnumf $a, $b : $T", NULL, -2, 2, false, false},
    {"minnumf", "%r = arith.minnumf $a, $b : $T", NULL, -2, 2, false, false},
    {"max self", "%r = arith.maxnumf $a, $a : $T", NULL, -2, 2, false, false},
    {"select cmpf",
     "%p = arith.cmpf olt, $a, $b : $T\n  %m = arith.mulf $a, $c : $T\n"
     "  %r = arith.select %p, %m, $b : $T",
     NULL, -2, 2, false, false},
    {"truncf extf",
     "%w = arith.truncf $a : f32 to f16\n  %v = arith.extf %w : f16 to f32\n"
     "  %r = arith.mulf %v, $b : $T",
     "%r = arith.mulf $a, $b : $T", -2, 2, true, false},
    {"extf truncf",
     "%w = arith.extf $a : f16 to f32\n  %s = math.sin %w : f32\n"
     "  %v = arith.truncf %s : f32 to f16\n  %r = arith.mulf %v, $b : $T",
     "%s = math.sin $a : $T\n  %r = arith.mulf %s, $b : $T", -2, 2, false,
     true},
    {"fptosi sitofp",
     "%i = arith.fptosi $a : $T to i32\n  %f = arith.sitofp %i : i32 to $T\n"
     "  %s = arith.addf %f, $a : $T\n  %r = arith.mulf %s, $b : $T",
     NULL, -3, 3, false, false},
    {"fptoui uitofp",
     "%i = arith.fptoui $a : $T to i32\n  %f = arith.uitofp %i : i32 to $T\n"
     "  %s = arith.addf %f, $a : $T\n  %r = arith.mulf %s, $b : $T",
     NULL, -3, 3, false, false},
    UNARY("sin", -2, 2),
    UNARY("cos", -2, 2),
    UNARY("exp", -2, 2),
    UNARY("exp2", -2, 2),
    UNARY("log", 0.25, 4),
    UNARY("log2", 0.25, 4),
    UNARY("sqrt", 0.25, 4),
    UNARY("rsqrt", 0.25, 4),
    UNARY("tanh", -2, 2),
    UNARY("atan", -2, 2),
    UNARY("erf", -2, 2),
    UNARY("absf", -2, 2),
    {"atan2", "%r = math.atan2 $a, $b : $T", NULL, -2, 2, false, false},
    {"powf", "%r = math.powf $a, $b : $T", NULL, 0.5, 2, false, false},
    {"fma", "%r = math.fma $a, $b, $c : $T", NULL, -2, 2, false, false},
    {"copysign",
     "%s = math.copysign $a, $b : $T\n  %r = arith.mulf %s, $c : $T", NULL, -2,
     2, false, false},
    {"floor ceil round trunc",
     "%f = math.floor $a : $T\n  %g = math.ceil $b : $T\n"
     "  %h = math.round $c : $T\n  %k = math.trunc $a : $T\n"
     "  %s = arith.addf %f, %g : $T\n  %u = arith.addf %h, %k : $T\n"
     "  %v = arith.addf %s, %u : $T\n  %w = arith.mulf %v, $a : $T\n"
     "  %r = arith.mulf %w, $b : $T",
     NULL, -3, 3, false, false},
    {"chain",
     "%s = math.sin $a : $T\n  %ex = math.exp %s : $T\n"
     "  %m = arith.mulf %ex, $b : $T\n  %d = arith.divf %m, $c : $T\n"
     "  %r = math.tanh %d : $T",
     NULL, 0.5, 2, false, false},
    // A local array: stores of values of the inputs, a load at a per-thread
    // index (from $c), an element overwritten after it was read, and two
    // reads of one element.
    {"local array",
     "%i0 = arith.constant 0 : index\n  %i1 = arith.constant 1 : index\n"
     "  %i2 = arith.constant 2 : index\n"
     "  %arr = memref.alloca() : memref<4x$T>\n"
     "  %s = math.sin $a : $T\n  memref.store %s, %arr[%i0] : memref<4x$T>\n"
     "  memref.store $b, %arr[%i1] : memref<4x$T>\n"
     "  %k4 = arith.constant 4.0 : $T\n  %q = arith.mulf $c, %k4 : $T\n"
     "  %n = arith.fptosi %q : $T to i32\n  %m1 = arith.constant 1 : i32\n"
     "  %j = arith.andi %n, %m1 : i32\n"
     "  %k = arith.index_cast %j : i32 to index\n"
     "  %v = memref.load %arr[%k] : memref<4x$T>\n"
     "  %w = arith.mulf %v, $c : $T\n"
     "  memref.store %w, %arr[%i0] : memref<4x$T>\n"
     "  memref.store %v, %arr[%i2] : memref<4x$T>\n"
     "  %u = memref.load %arr[%i0] : memref<4x$T>\n"
     "  %u1 = memref.load %arr[%i1] : memref<4x$T>\n"
     "  %u2 = memref.load %arr[%i2] : memref<4x$T>\n"
     "  %u3 = memref.load %arr[%i2] : memref<4x$T>\n"
     "  %p = arith.mulf %u, %u1 : $T\n  %p2 = arith.mulf %u2, %u3 : $T\n"
     "  %r = arith.addf %p, %p2 : $T",
     NULL, -2, 2, false, false},
    // scf.for with a per-thread trip count n = fptosi(|4 $c|) (0 to 8),
    // carrying two scalars, gathering %t[i] in the body.
    {"scf.for",
     "%k4 = arith.constant 4.0 : $T\n  %q = arith.mulf $c, %k4 : $T\n"
     "  %qa = math.absf %q : $T\n  %ni = arith.fptosi %qa : $T to i32\n"
     "  %n = arith.index_cast %ni : i32 to index\n"
     "  %i0 = arith.constant 0 : index\n  %i1 = arith.constant 1 : index\n"
     "  %half = arith.constant 0.5 : $T\n"
     "  %l:2 = scf.for %i = %i0 to %n step %i1 iter_args(%u = $a, %s = $b) "
     "-> ($T, $T) {\n"
     "    %v = memref.load %t[%i] : $M\n    %su = math.sin %u : $T\n"
     "    %m = arith.mulf %su, %s : $T\n    %u2 = arith.addf %m, %v : $T\n"
     "    %h = arith.mulf %u, %half : $T\n    %w = arith.addf %s, %h : $T\n"
     "    %s2 = math.tanh %w : $T\n    scf.yield %u2, %s2 : $T, $T\n  }\n"
     "  %r = arith.mulf %l#0, %l#1 : $T",
     NULL, -2, 2, false, false},
    // scf.while with a per-thread trip count n = fptosi(2 $c) (0 for
    // $c < 1/2, most threads, up to 4): `before` computes a value of the
    // inputs (from the captured $c) that it forwards, `after` gathers
    // %t[i] and carries two scalars. Up to 4 trips: at up to 8, f16's
    // rounding along the chain reaches 2.5 % (f32 still passes at 2e-5).
    {"scf.while",
     "%k2 = arith.constant 2.0 : $T\n  %q = arith.mulf $c, %k2 : $T\n"
     "  %n = arith.fptosi %q : $T to i32\n"
     "  %z = arith.constant 0 : i32\n  %one = arith.constant 1 : i32\n"
     "  %half = arith.constant 0.5 : $T\n"
     "  %l:3 = scf.while (%i = %z, %u = $a, %s = $b) : (i32, $T, $T) -> "
     "(i32, $T, $T) {\n"
     "    %go = arith.cmpi slt, %i, %n : i32\n"
     "    %h = arith.mulf %s, %half : $T\n    %s1 = arith.addf %h, $c : $T\n"
     "    scf.condition(%go) %i, %u, %s1 : i32, $T, $T\n  } do {\n"
     "  ^bb0(%j: i32, %p: $T, %w: $T):\n"
     "    %ji = arith.index_cast %j : i32 to index\n"
     "    %v = memref.load %t[%ji] : $M\n    %sp = math.sin %p : $T\n"
     "    %m = arith.mulf %sp, %w : $T\n    %p2 = arith.addf %m, %v : $T\n"
     "    %w2 = math.tanh %w : $T\n    %j2 = arith.addi %j, %one : i32\n"
     "    scf.yield %j2, %p2, %w2 : i32, $T, $T\n  }\n"
     "  %r = arith.mulf %l#1, %l#2 : $T",
     NULL, -2, 2, false, false},
    // Nesting: an scf.while (0 to 4 trips) whose `before` holds an
    // scf.index_switch (reversed twice: for the last `before` and in the
    // reverse loop) and whose `after` holds an scf.for of 2 iterations.
    {"scf.while nested",
     "%k2 = arith.constant 2.0 : $T\n  %q = arith.mulf $c, %k2 : $T\n"
     "  %n = arith.fptosi %q : $T to i32\n"
     "  %z = arith.constant 0 : i32\n  %one = arith.constant 1 : i32\n"
     "  %i0 = arith.constant 0 : index\n  %i1 = arith.constant 1 : index\n"
     "  %i2 = arith.constant 2 : index\n"
     "  %l:2 = scf.while (%i = %z, %u = $a) : (i32, $T) -> (i32, $T) {\n"
     "    %go = arith.cmpi slt, %i, %n : i32\n"
     "    %par = arith.andi %i, %one : i32\n"
     "    %sel = arith.index_cast %par : i32 to index\n"
     "    %xs = scf.index_switch %sel -> $T\n"
     "    case 0 {\n      %s = math.sin %u : $T\n"
     "      %m = arith.mulf %s, $b : $T\n      scf.yield %m : $T\n    }\n"
     "    default {\n      %m = arith.mulf %u, $c : $T\n"
     "      scf.yield %m : $T\n    }\n"
     "    scf.condition(%go) %i, %xs : i32, $T\n  } do {\n"
     "  ^bb0(%j: i32, %p: $T):\n"
     "    %f = scf.for %k = %i0 to %i2 step %i1 iter_args(%v = %p) -> ($T) {\n"
     "      %tv = math.tanh %v : $T\n      %w = arith.addf %tv, $b : $T\n"
     "      scf.yield %w : $T\n    }\n"
     "    %j2 = arith.addi %j, %one : i32\n"
     "    scf.yield %j2, %f : i32, $T\n  }\n"
     "  %r = arith.mulf %l#1, $a : $T",
     NULL, -2, 2, false, false},
    // scf.index_switch on a per-thread selector fptosi(|4 $c|) (0 to 8):
    // threads take every case and the default; a gather in one case, a
    // captured value yielded directly in another, a nested scf.if.
    {"scf.index_switch",
     "%k4 = arith.constant 4.0 : $T\n  %q = arith.mulf $c, %k4 : $T\n"
     "  %qa = math.absf %q : $T\n  %si = arith.fptosi %qa : $T to i32\n"
     "  %sel = arith.index_cast %si : i32 to index\n"
     "  %r = scf.index_switch %sel -> $T\n"
     "  case 0 {\n    %s = math.sin $a : $T\n"
     "    %m = arith.mulf %s, $b : $T\n    scf.yield %m : $T\n  }\n"
     "  case 2 {\n    %v = memref.load %t[%sel] : $M\n"
     "    %m = arith.mulf %v, $a : $T\n    scf.yield %m : $T\n  }\n"
     "  case 3 {\n    scf.yield $b : $T\n  }\n"
     "  case 5 {\n    %p = arith.cmpf olt, $a, $b : $T\n"
     "    %y = scf.if %p -> ($T) {\n      %ex = math.exp $a : $T\n"
     "      scf.yield %ex : $T\n    } else {\n"
     "      %m = arith.mulf $a, $c : $T\n      scf.yield %m : $T\n    }\n"
     "    scf.yield %y : $T\n  }\n"
     "  default {\n    %ex = math.exp $a : $T\n"
     "    %m = arith.mulf %ex, $c : $T\n    scf.yield %m : $T\n  }",
     NULL, -2, 2, false, false},
// Local arrays inside control flow (docs/autodiff.md, "Local arrays
// in control flow"): the reverse recomputes each branch / iteration
// from snapshots of the array. All share the prologue: n =
// fptosi(|4 $c|) (0 to 8, per thread), %arr = (sin $a, $b, 0, 0).
#define LOCAL_PROLOGUE                                                         \
  "%k4 = arith.constant 4.0 : $T\n  %q = arith.mulf $c, %k4 : $T\n"            \
  "  %qa = math.absf %q : $T\n  %ni = arith.fptosi %qa : $T to i32\n"          \
  "  %n = arith.index_cast %ni : i32 to index\n"                               \
  "  %i0 = arith.constant 0 : index\n  %i1 = arith.constant 1 : index\n"       \
  "  %i2 = arith.constant 2 : index\n  %i3 = arith.constant 3 : index\n"       \
  "  %m3 = arith.constant 3 : i32\n"                                           \
  "  %arr = memref.alloca() : memref<4x$T>\n"                                  \
  "  %sa = math.sin $a : $T\n  memref.store %sa, %arr[%i0] : memref<4x$T>\n"   \
  "  memref.store $b, %arr[%i1] : memref<4x$T>\n"
#define LOCAL_EPILOGUE                                                         \
  "  %u0 = memref.load %arr[%i0] : memref<4x$T>\n"                             \
  "  %u1 = memref.load %arr[%i1] : memref<4x$T>\n"                             \
  "  %u2 = memref.load %arr[%i2] : memref<4x$T>\n"                             \
  "  %u3 = memref.load %arr[%i3] : memref<4x$T>\n"                             \
  "  %p01 = arith.mulf %u0, %u1 : $T\n  %p23 = arith.mulf %u2, %u3 : $T\n"     \
  "  %s23 = arith.addf %p23, %u2 : $T\n  %r = arith.addf %p01, %s23 : $T"
    // A histogram: iteration i adds tanh of what the element held (an
    // earlier iteration's store, or the prologue's) and $a $c into
    // element (i + n) & 3.
    {"scf.for local array histogram",
     LOCAL_PROLOGUE
     "  %ac = arith.mulf $a, $c : $T\n"
     "  scf.for %i = %i0 to %n step %i1 {\n"
     "    %ii = arith.index_cast %i : index to i32\n"
     "    %s = arith.addi %ii, %ni : i32\n    %j = arith.andi %s, %m3 : i32\n"
     "    %jx = arith.index_cast %j : i32 to index\n"
     "    %o = memref.load %arr[%jx] : memref<4x$T>\n"
     "    %t0 = math.tanh %o : $T\n    %nv = arith.addf %t0, %ac : $T\n"
     "    memref.store %nv, %arr[%jx] : memref<4x$T>\n  }\n" LOCAL_EPILOGUE,
     NULL, -2, 2, false, false},
    // A recurrence through the array carried with a scalar (n / 2 trips,
    // 0 to 4: f16's rounding along longer chains exceeds 8 u): element
    // (i + 1) & 3 = sin(element i & 3) b + the carried value, which
    // takes the old element; then a nested scf.if that stores on one
    // side only (the carried value > $b).
    {"scf.for local array recurrence",
     LOCAL_PROLOGUE
     "  %sh = arith.constant 1 : i32\n  %nh = arith.shrsi %ni, %sh : i32\n"
     "  %nx = arith.index_cast %nh : i32 to index\n"
     "  %l = scf.for %i = %i0 to %nx step %i1 iter_args(%v = $c) -> ($T) {\n"
     "    %ii = arith.index_cast %i : index to i32\n"
     "    %j = arith.andi %ii, %m3 : i32\n"
     "    %jx = arith.index_cast %j : i32 to index\n"
     "    %one = arith.constant 1 : i32\n    %i2a = arith.addi %ii, %one : "
     "i32\n"
     "    %j2 = arith.andi %i2a, %m3 : i32\n"
     "    %jy = arith.index_cast %j2 : i32 to index\n"
     "    %o = memref.load %arr[%jx] : memref<4x$T>\n"
     "    %so = math.sin %o : $T\n    %m = arith.mulf %so, $b : $T\n"
     "    %old = memref.load %arr[%jy] : memref<4x$T>\n"
     "    %nv = arith.addf %m, %v : $T\n"
     "    memref.store %nv, %arr[%jy] : memref<4x$T>\n"
     "    %big = arith.cmpf ogt, %v, $b : $T\n"
     "    scf.if %big {\n      %h = arith.mulf %old, %v : $T\n"
     "      memref.store %h, %arr[%jx] : memref<4x$T>\n    }\n"
     "    scf.yield %old : $T\n  }\n"
     "  %l3 = memref.load %arr[%i3] : memref<4x$T>\n"
     "  %l4 = arith.mulf %l, %l3 : $T\n"
     "  memref.store %l4, %arr[%i3] : memref<4x$T>\n" LOCAL_EPILOGUE,
     NULL, -2, 2, false, false},
    // scf.if storing on one side only, at a per-thread index; the other
    // side reads the array and stores elsewhere.
    {"scf.if local array",
     LOCAL_PROLOGUE
     "  %j = arith.andi %ni, %m3 : i32\n"
     "  %jx = arith.index_cast %j : i32 to index\n"
     "  %p = arith.cmpf olt, $a, $b : $T\n"
     "  scf.if %p {\n    %o = memref.load %arr[%jx] : memref<4x$T>\n"
     "    %m = arith.mulf %o, $c : $T\n    %ex = math.exp %m : $T\n"
     "    memref.store %ex, %arr[%jx] : memref<4x$T>\n  } else {\n"
     "    %o = memref.load %arr[%i0] : memref<4x$T>\n"
     "    %m = arith.mulf %o, %o : $T\n"
     "    memref.store %m, %arr[%i2] : memref<4x$T>\n  }\n"
     "  scf.if %p {\n    memref.store $c, %arr[%i1] : memref<4x$T>\n  "
     "}\n" LOCAL_EPILOGUE,
     NULL, -2, 2, false, false},
    // scf.while (n / 4 trips, 0 to 2: at up to 4, f16's rounding along
    // the chain through the array reaches 2.4 % while f32 passes at 2e-5):
    // `before` reads the element the last `after` stored, `after` stores
    // at (i + 1) & 3.
    {"scf.while local array",
     LOCAL_PROLOGUE
     "  %one = arith.constant 1 : i32\n  %z = arith.constant 0 : i32\n"
     "  %half = arith.constant 2 : i32\n"
     "  %nh = arith.shrsi %ni, %half : i32\n"
     "  %w:2 = scf.while (%i = %z, %s = $a) : (i32, $T) -> (i32, $T) {\n"
     "    %go = arith.cmpi slt, %i, %nh : i32\n"
     "    %j = arith.andi %i, %m3 : i32\n"
     "    %jx = arith.index_cast %j : i32 to index\n"
     "    %o = memref.load %arr[%jx] : memref<4x$T>\n"
     "    %xo = arith.mulf %o, %s : $T\n"
     "    scf.condition(%go) %i, %xo : i32, $T\n  } do {\n"
     "  ^bb0(%k: i32, %xa: $T):\n"
     "    %k2 = arith.addi %k, %one : i32\n    %j = arith.andi %k2, %m3 : i32\n"
     "    %jx = arith.index_cast %j : i32 to index\n"
     "    %sx = math.sin %xa : $T\n    %y = arith.addf %sx, $c : $T\n"
     "    memref.store %y, %arr[%jx] : memref<4x$T>\n"
     "    %th = math.tanh %xa : $T\n    scf.yield %k2, %th : i32, $T\n  }\n"
     "  %l3 = memref.load %arr[%i3] : memref<4x$T>\n"
     "  %l4 = arith.addf %w#1, %l3 : $T\n"
     "  memref.store %l4, %arr[%i3] : memref<4x$T>\n" LOCAL_EPILOGUE,
     NULL, -2, 2, false, false},
    // scf.index_switch on n (0 to 8): a load and a store in one case, a
    // store only in another, an scf.for storing in a third, nothing in the
    // default.
    {"scf.index_switch local array",
     LOCAL_PROLOGUE
     "  scf.index_switch %n\n"
     "  case 1 {\n    %o = memref.load %arr[%i0] : memref<4x$T>\n"
     "    %m = arith.mulf %o, $c : $T\n"
     "    memref.store %m, %arr[%i2] : memref<4x$T>\n    scf.yield\n  }\n"
     "  case 2 {\n    memref.store $c, %arr[%i0] : memref<4x$T>\n"
     "    scf.yield\n  }\n"
     "  case 4 {\n    scf.for %i = %i0 to %i3 step %i1 {\n"
     "      %o = memref.load %arr[%i] : memref<4x$T>\n"
     "      %o1 = memref.load %arr[%i1] : memref<4x$T>\n"
     "      %m = arith.mulf %o, %o1 : $T\n"
     "      %ip = arith.addi %i, %i1 : index\n"
     "      memref.store %m, %arr[%ip] : memref<4x$T>\n    }\n"
     "    scf.yield\n  }\n"
     "  default {\n    scf.yield\n  }\n" LOCAL_EPILOGUE,
     NULL, -2, 2, false, false},
    // Gathers from the table %t (8 entries) at an index computed from $c:
    // threads collide on the entries; the loaded value is used twice.
    {"gather",
     "%k4 = arith.constant 4.0 : $T\n  %q = arith.mulf $c, %k4 : $T\n"
     "  %i = arith.fptosi %q : $T to i32\n  %m7 = arith.constant 7 : i32\n"
     "  %j = arith.andi %i, %m7 : i32\n"
     "  %k = arith.index_cast %j : i32 to index\n"
     "  %v = memref.load %t[%k] : $M\n  %w = arith.mulf %v, $a : $T\n"
     "  %s = math.sin %v : $T\n  %r = arith.addf %w, %s : $T",
     NULL, -2, 2, false, false},
    {"gather twice",
     "%k4 = arith.constant 4.0 : $T\n  %q = arith.mulf $c, %k4 : $T\n"
     "  %i = arith.fptosi %q : $T to i32\n  %m7 = arith.constant 7 : i32\n"
     "  %j = arith.andi %i, %m7 : i32\n"
     "  %k = arith.index_cast %j : i32 to index\n"
     "  %one = arith.constant 1 : index\n  %k1 = arith.addi %k, %one : index\n"
     "  %v = memref.load %t[%k] : $M\n  %u = memref.load %t[%k1] : $M\n"
     "  %w = arith.mulf %v, %u : $T\n  %r = arith.mulf %w, $a : $T",
     NULL, -2, 2, false, false},
    // A masked_load of 4 from %t (9 entries) at offset 4 + (4 $c & 3), mask
    // (1, 1, 0, 0), padding $b: at offsets 6 and 7 the masked-off elements
    // lie past the end of %t (never touched: the interpreter's bounds
    // checks would fire). Threads collide on the entries; the padding's
    // adjoint is the sum over the masked-off elements (2 $b ȳ here).
    {"masked_load",
     "%k4 = arith.constant 4.0 : $T\n  %q = arith.mulf $c, %k4 : $T\n"
     "  %i = arith.fptosi %q : $T to i32\n  %m3 = arith.constant 3 : i32\n"
     "  %j = arith.andi %i, %m3 : i32\n"
     "  %k = arith.index_cast %j : i32 to index\n"
     "  %c4 = arith.constant 4 : index\n  %o = arith.addi %k, %c4 : index\n"
     "  %mask = arith.constant dense<[true, true, false, false]> : "
     "vector<4xi1>\n"
     "  %v = \"coopvec.masked_load\"(%t, %o, %mask, $b) : ($M, index, "
     "vector<4xi1>, $T) -> !coopvec.vec<4, $T>\n"
     "  %u:4 = \"coopvec.unpack\"(%v) : (!coopvec.vec<4, $T>) -> ($T, $T, "
     "$T, $T)\n"
     "  %s0 = arith.mulf %u#0, $a : $T\n  %s1 = math.sin %u#1 : $T\n"
     "  %s2 = arith.mulf %u#2, %u#3 : $T\n  %s01 = arith.addf %s0, %s1 : $T\n"
     "  %r = arith.addf %s01, %s2 : $T",
     "%k4 = arith.constant 4.0 : $T\n  %q = arith.mulf $c, %k4 : $T\n"
     "  %i = arith.fptosi %q : $T to i32\n  %m3 = arith.constant 3 : i32\n"
     "  %j = arith.andi %i, %m3 : i32\n"
     "  %k = arith.index_cast %j : i32 to index\n"
     "  %c4 = arith.constant 4 : index\n  %o = arith.addi %k, %c4 : index\n"
     "  %one = arith.constant 1 : index\n  %o1 = arith.addi %o, %one : index\n"
     "  %u0 = memref.load %t[%o] : $M\n  %u1 = memref.load %t[%o1] : $M\n"
     "  %s0 = arith.mulf %u0, $a : $T\n  %s1 = math.sin %u1 : $T\n"
     "  %s2 = arith.mulf $b, $b : $T\n  %s01 = arith.addf %s0, %s1 : $T\n"
     "  %r = arith.addf %s01, %s2 : $T",
     -2, 2, false, false},
};

/// @f for one scalar body in `type` (the program) or f64 (the reference).
static void scalarSource(CoopvecBuffer *out, const ScalarBody *s, bool f16,
                         bool reference) {
  const char *t = f16 ? "f16" : "f32";
  const char *vt = reference ? "f32" : t;
  coopvecBufferAppendf(out,
                       "func.func @f(%%x: !coopvec.vec<3, %s>, %%t: "
                       "memref<?x%s>) -> %s {\n"
                       "  %%e:3 = \"coopvec.unpack\"(%%x) : "
                       "(!coopvec.vec<3, %s>) -> (%s, %s, %s)\n",
                       vt, reference ? "f64" : t,
                       reference ? "f64" : "!coopvec.vec<1, $T>", vt, vt, vt,
                       vt);
  if (reference)
    coopvecBufferAppendf(out,
                         "  %%a = arith.extf %%e#0 : %s to f64\n"
                         "  %%b = arith.extf %%e#1 : %s to f64\n"
                         "  %%c = arith.extf %%e#2 : %s to f64\n",
                         vt, vt, vt);
  const char *keys[] = {"T", "M", "a", "b", "c"};
  const char *programValues[] = {t, f16 ? "memref<?xf16>" : "memref<?xf32>",
                                 "%e#0", "%e#1", "%e#2"};
  const char *referenceValues[] = {"f64", "memref<?xf64>", "%a", "%b", "%c"};
  const char *body = reference && s->reference ? s->reference : s->body;
  coopvecBufferAppendf(out, "  ");
  appendExpanded(out, body, keys, reference ? referenceValues : programValues,
                 5);
  if (reference) {
    coopvecBufferAppendf(out, "\n  return %%r : f64\n}\n");
    return;
  }
  appendExpanded(out,
                 "\n  %y = \"coopvec.from_elements\"(%r) : ($T) -> "
                 "!coopvec.vec<1, $T>\n  return %y : !coopvec.vec<1, $T>\n}\n",
                 keys, programValues, 1);
}

static const int64_t threadCounts[] = {1, 3, 7, 17, 33, 127};
enum { NUM_THREAD_COUNTS = sizeof(threadCounts) / sizeof(threadCounts[0]) };

/// One scalar body in f32 or f16 at `threads` threads.
static bool runScalarCase(MlirContext ctx, const ScalarBody *s, bool f16,
                          int64_t threads) {
  Case c;
  memset(&c, 0, sizeof(c));
  c.f16 = f16;
  c.tol = f16 || s->f32Only ? 4e-3 : 2e-5;
  c.threads = threads;
  snprintf(c.name, sizeof(c.name), "%s %s threads %lld", s->name,
           f16 ? "f16" : "f32", (long long)c.threads);
  // The header's `!coopvec.vec<1, $T>` is expanded below.
  CoopvecBuffer raw = {0};
  scalarSource(&raw, s, f16, false);
  const char *keys[] = {"T"};
  const char *values[] = {f16 ? "f16" : "f32"};
  appendExpanded(&c.program, coopvecBufferStr(&raw), keys, values, 1);
  coopvecBufferFree(&raw);
  scalarSource(&c.reference, s, f16, true);
  c.width = 3;
  c.results = 1;
  c.numTables = 1;
  c.numGathered =
      strstr(s->body, "%t[") || strstr(s->body, "load\"(%t") ? 1 : 0;
  c.tableSize[0] = 9;
  c.lo = s->lo;
  c.hi = s->hi;
  bool ok = runCase(ctx, &c);
  coopvecBufferFree(&c.program);
  coopvecBufferFree(&c.reference);
  return ok;
}

/// Each body in f32 and f16, at thread counts taken in turn. The
/// control-flow bodies (scf.*) run at every thread count, so that threads
/// diverge (trip counts, selectors) at odd counts in both precisions; in
/// f16 up to 33 threads: at 127, scf.while's table entry 0 sums about 60
/// threads' chained f16 contributions, which cancel to 1 (it errs by 4 %
/// of the sum, while f32 passes at 2e-5 there).
static void runScalarCases(MlirContext ctx, int *cases, int *failed) {
  int n = 0;
  for (size_t i = 0; i < sizeof(scalarBodies) / sizeof(scalarBodies[0]); ++i) {
    const ScalarBody *s = &scalarBodies[i];
    // masked_load too: its offsets vary between threads.
    bool controlFlow =
        strncmp(s->name, "scf.", 4) == 0 || strcmp(s->name, "masked_load") == 0;
    for (int f16 = 0; f16 < 2; ++f16) {
      if ((f16 && s->f32Only) || (!f16 && s->f16Only))
        continue;
      int repeats = controlFlow ? NUM_THREAD_COUNTS - f16 : 1;
      for (int r = 0; r < repeats; ++r) {
        int64_t threads = controlFlow ? threadCounts[r]
                                      : threadCounts[n++ % NUM_THREAD_COUNTS];
        ++*cases;
        *failed += !runScalarCase(ctx, s, f16, threads);
      }
    }
  }
}

//===----------------------------------------------------------------------===//
// SinEncode: @f(%x: vec<N, T>) -> vec<2N, T> = (sin 2x_i ..., cos 2x_i ...)
// on the unpacked elements, at odd widths.
//===----------------------------------------------------------------------===//

static void encodeSource(CoopvecBuffer *out, int64_t n, const char *t,
                         bool reference) {
  const char *vt = reference ? "f32" : t, *st = reference ? "f64" : t;
  coopvecBufferAppendf(out,
                       "func.func @f(%%x: !coopvec.vec<%lld, %s>, %%t: "
                       "memref<?x%s>) -> ",
                       (long long)n, vt, st);
  for (int64_t i = 0; reference && i < 2 * n; ++i)
    coopvecBufferAppendf(out, "%sf64%s", i ? ", " : "(",
                         i + 1 < 2 * n ? "" : ")");
  if (!reference)
    coopvecBufferAppendf(out, "!coopvec.vec<%lld, %s>", 2 * (long long)n, t);
  coopvecBufferAppendf(out,
                       " {\n  %%e:%lld = \"coopvec.unpack\"(%%x) : "
                       "(!coopvec.vec<%lld, %s>) -> (",
                       (long long)n, (long long)n, vt);
  for (int64_t i = 0; i < n; ++i)
    coopvecBufferAppendf(out, "%s%s", i ? ", " : "", vt);
  coopvecBufferAppendf(out, ")\n");
  for (int64_t i = 0; i < n; ++i) {
    if (reference)
      coopvecBufferAppendf(out,
                           "  %%u%lld = arith.extf %%e#%lld : f32 to f64\n"
                           "  %%w%lld = arith.addf %%u%lld, %%u%lld : f64\n",
                           (long long)i, (long long)i, (long long)i,
                           (long long)i, (long long)i);
    else
      coopvecBufferAppendf(out,
                           "  %%w%lld = arith.addf %%e#%lld, %%e#%lld : %s\n",
                           (long long)i, (long long)i, (long long)i, t);
    coopvecBufferAppendf(out,
                         "  %%s%lld = math.sin %%w%lld : %s\n"
                         "  %%c%lld = math.cos %%w%lld : %s\n",
                         (long long)i, (long long)i, st, (long long)i,
                         (long long)i, st);
  }
  if (reference) {
    // The program's 2x is exact (a doubling); so is the reference's.
    coopvecBufferAppendf(out, "  return ");
    for (int64_t i = 0; i < 2 * n; ++i)
      coopvecBufferAppendf(out, "%s%%%c%lld", i ? ", " : "", i < n ? 's' : 'c',
                           (long long)(i % n));
    coopvecBufferAppendf(out, " : ");
    for (int64_t i = 0; i < 2 * n; ++i)
      coopvecBufferAppendf(out, "%sf64", i ? ", " : "");
    coopvecBufferAppendf(out, "\n}\n");
    return;
  }
  coopvecBufferAppendf(out, "  %%y = \"coopvec.from_elements\"(");
  for (int64_t i = 0; i < 2 * n; ++i)
    coopvecBufferAppendf(out, "%s%%%c%lld", i ? ", " : "", i < n ? 's' : 'c',
                         (long long)(i % n));
  coopvecBufferAppendf(out, ") : (");
  for (int64_t i = 0; i < 2 * n; ++i)
    coopvecBufferAppendf(out, "%s%s", i ? ", " : "", t);
  coopvecBufferAppendf(out,
                       ") -> !coopvec.vec<%lld, %s>\n  return %%y : "
                       "!coopvec.vec<%lld, %s>\n}\n",
                       2 * (long long)n, t, 2 * (long long)n, t);
}

static void runEncodeCases(MlirContext ctx, int *cases, int *failed) {
  static const int64_t widths[] = {1, 3, 7, 17, 33};
  for (size_t i = 0; i < sizeof(widths) / sizeof(widths[0]); ++i) {
    for (int f16 = 0; f16 < 2; ++f16) {
      Case c;
      memset(&c, 0, sizeof(c));
      c.f16 = f16;
      c.tol = f16 ? 4e-3 : 2e-5;
      c.threads = threadCounts[(i + (size_t)f16) % NUM_THREAD_COUNTS];
      c.width = widths[i];
      c.results = 2 * widths[i];
      snprintf(c.name, sizeof(c.name), "sin-cos encoding %lld %s threads %lld",
               (long long)c.width, f16 ? "f16" : "f32", (long long)c.threads);
      encodeSource(&c.program, c.width, f16 ? "f16" : "f32", false);
      encodeSource(&c.reference, c.width, "f32", true);
      c.numTables = 1;
      c.tableSize[0] = 1;
      c.lo = -2.0;
      c.hi = 2.0;
      ++*cases;
      *failed += !runCase(ctx, &c);
      coopvecBufferFree(&c.program);
      coopvecBufferFree(&c.reference);
    }
  }
}

//===----------------------------------------------------------------------===//
// A hash grid (examples/hashgrid.mlir in small): the point %x in [0, 1)^2
// is scaled to a 4 x 4 grid (by 4: exact in f16, so the program and the
// f64 reference find the same cells); the 4 corners of its cell are hashed into
// a table of 8 entries of 2 features (threads collide on them), gathered with
// coopvec.load at per-thread offsets, interpolated bilinearly, and fed to a 2
// -> 3 -> 1 tanh MLP whose weights are in %w (A1 3x2 at 0, b1 at 6, A2 1x3 at
// 16). The reference does the same in f64 scalars.
//===----------------------------------------------------------------------===//

static const char *const hashPrologue =
    "  %res = arith.constant 4.0 : $S\n"
    "  %gx = arith.mulf $a, %res : $S\n  %gy = arith.mulf $b, %res : $S\n"
    "  %ix = arith.fptosi %gx : $S to i32\n"
    "  %iy = arith.fptosi %gy : $S to i32\n"
    "  %x0 = arith.sitofp %ix : i32 to $S\n"
    "  %y0 = arith.sitofp %iy : i32 to $S\n"
    "  %fx = arith.subf %gx, %x0 : $S\n  %fy = arith.subf %gy, %y0 : $S\n"
    "  %c1 = arith.constant 1 : i32\n"
    "  %prime = arith.constant 2654435761 : i32\n"
    "  %mask = arith.constant 7 : i32\n  %c2 = arith.constant 2 : index\n"
    "  %ix1 = arith.addi %ix, %c1 : i32\n  %iy1 = arith.addi %iy, %c1 : i32\n"
    "  %hy0 = arith.muli %iy, %prime : i32\n"
    "  %hy1 = arith.muli %iy1, %prime : i32\n"
    "  %h00 = arith.xori %ix, %hy0 : i32\n  %h10 = arith.xori %ix1, %hy0 : "
    "i32\n"
    "  %h01 = arith.xori %ix, %hy1 : i32\n  %h11 = arith.xori %ix1, %hy1 : "
    "i32\n"
    "  %m00 = arith.andi %h00, %mask : i32\n  %m10 = arith.andi %h10, %mask : "
    "i32\n"
    "  %m01 = arith.andi %h01, %mask : i32\n  %m11 = arith.andi %h11, %mask : "
    "i32\n"
    "  %e00 = arith.index_cast %m00 : i32 to index\n"
    "  %e10 = arith.index_cast %m10 : i32 to index\n"
    "  %e01 = arith.index_cast %m01 : i32 to index\n"
    "  %e11 = arith.index_cast %m11 : i32 to index\n"
    "  %o00 = arith.muli %e00, %c2 : index\n  %o10 = arith.muli %e10, %c2 : "
    "index\n"
    "  %o01 = arith.muli %e01, %c2 : index\n  %o11 = arith.muli %e11, %c2 : "
    "index\n";

static const char *const hashProgram =
    "  %v00 = \"coopvec.load\"(%table, %o00) : ($M, index) -> $V2\n"
    "  %v10 = \"coopvec.load\"(%table, %o10) : ($M, index) -> $V2\n"
    "  %v01 = \"coopvec.load\"(%table, %o01) : ($M, index) -> $V2\n"
    "  %v11 = \"coopvec.load\"(%table, %o11) : ($M, index) -> $V2\n"
    "  %d0 = \"coopvec.sub\"(%v10, %v00) : ($V2, $V2) -> $V2\n"
    "  %r0 = \"coopvec.fma\"(%d0, %fx, %v00) : ($V2, $S, $V2) -> $V2\n"
    "  %d1 = \"coopvec.sub\"(%v11, %v01) : ($V2, $V2) -> $V2\n"
    "  %r1 = \"coopvec.fma\"(%d1, %fx, %v01) : ($V2, $S, $V2) -> $V2\n"
    "  %dd = \"coopvec.sub\"(%r1, %r0) : ($V2, $V2) -> $V2\n"
    "  %f = \"coopvec.fma\"(%dd, %fy, %r0) : ($V2, $S, $V2) -> $V2\n"
    "  %A = \"coopvec.matrix_view\"(%w) {offset = 0} : ($M) -> "
    "!coopvec.matrix<3, 2, $S, \"row_major\">\n"
    "  %c6 = arith.constant 6 : index\n"
    "  %bias = \"coopvec.load\"(%w, %c6) : ($M, index) -> $V3\n"
    "  %h = \"coopvec.matvec\"(%A, %f, %bias) : (!coopvec.matrix<3, 2, $S, "
    "\"row_major\">, $V2, $V3) -> $V3\n"
    "  %act = \"coopvec.tanh\"(%h) : ($V3) -> $V3\n"
    "  %A2 = \"coopvec.matrix_view\"(%w) {offset = $OFF} : ($M) -> "
    "!coopvec.matrix<1, 3, $S, \"row_major\">\n"
    "  %y = \"coopvec.matvec\"(%A2, %act) : (!coopvec.matrix<1, 3, $S, "
    "\"row_major\">, $V3) -> $V1\n"
    "  return %y : $V1\n}\n";

/// The reference's gathers, interpolation and MLP in f64 scalars.
static void hashReference(CoopvecBuffer *out) {
  static const char *const corners[] = {"00", "10", "01", "11"};
  coopvecBufferAppendf(out, "  %%i1 = arith.constant 1 : index\n");
  for (int k = 0; k < 4; ++k)
    coopvecBufferAppendf(out,
                         "  %%p%s = arith.addi %%o%s, %%i1 : index\n"
                         "  %%v%s_0 = memref.load %%table[%%o%s] : "
                         "memref<?xf64>\n"
                         "  %%v%s_1 = memref.load %%table[%%p%s] : "
                         "memref<?xf64>\n",
                         corners[k], corners[k], corners[k], corners[k],
                         corners[k], corners[k]);
  for (int j = 0; j < 2; ++j)
    coopvecBufferAppendf(out,
                         "  %%d0_%d = arith.subf %%v10_%d, %%v00_%d : f64\n"
                         "  %%q0_%d = arith.mulf %%d0_%d, %%fx : f64\n"
                         "  %%r0_%d = arith.addf %%q0_%d, %%v00_%d : f64\n"
                         "  %%d1_%d = arith.subf %%v11_%d, %%v01_%d : f64\n"
                         "  %%q1_%d = arith.mulf %%d1_%d, %%fx : f64\n"
                         "  %%r1_%d = arith.addf %%q1_%d, %%v01_%d : f64\n"
                         "  %%dd_%d = arith.subf %%r1_%d, %%r0_%d : f64\n"
                         "  %%qq_%d = arith.mulf %%dd_%d, %%fy : f64\n"
                         "  %%f_%d = arith.addf %%qq_%d, %%r0_%d : f64\n",
                         j, j, j, j, j, j, j, j, j, j, j, j, j, j, j, j, j, j,
                         j, j, j, j, j, j);
  coopvecBufferAppendf(out, "  %%y_0 = arith.constant 0.0 : f64\n");
  for (int i = 0; i < 3; ++i) {
    coopvecBufferAppendf(out,
                         "  %%ia%d = arith.constant %d : index\n"
                         "  %%ib%d = arith.constant %d : index\n"
                         "  %%ic%d = arith.constant %d : index\n"
                         "  %%iw%d = arith.constant %d : index\n"
                         "  %%wa%d = memref.load %%w[%%ia%d] : memref<?xf64>\n"
                         "  %%wb%d = memref.load %%w[%%ib%d] : memref<?xf64>\n"
                         "  %%wc%d = memref.load %%w[%%ic%d] : memref<?xf64>\n"
                         "  %%ww%d = memref.load %%w[%%iw%d] : memref<?xf64>\n",
                         i, 2 * i, i, 2 * i + 1, i, 6 + i, i, 16 + i, i, i, i,
                         i, i, i, i, i);
    coopvecBufferAppendf(out,
                         "  %%ha%d = arith.mulf %%wa%d, %%f_0 : f64\n"
                         "  %%hb%d = arith.mulf %%wb%d, %%f_1 : f64\n"
                         "  %%hs%d = arith.addf %%ha%d, %%hb%d : f64\n"
                         "  %%h%d = arith.addf %%hs%d, %%wc%d : f64\n"
                         "  %%t%d = math.tanh %%h%d : f64\n"
                         "  %%z%d = arith.mulf %%ww%d, %%t%d : f64\n"
                         "  %%y_%d = arith.addf %%y_%d, %%z%d : f64\n",
                         i, i, i, i, i, i, i, i, i, i, i, i, i, i, i, i + 1, i,
                         i);
  }
  coopvecBufferAppendf(out, "  return %%y_3 : f64\n}\n");
}

static void hashSource(CoopvecBuffer *out, const char *t, bool reference) {
  const char *vt = reference ? "f32" : t, *st = reference ? "f64" : t;
  char m[32], v1[40], v2[40], v3[40], off[16];
  snprintf(m, sizeof(m), "memref<?x%s>", st);
  snprintf(v1, sizeof(v1), "!coopvec.vec<1, %s>", t);
  snprintf(v2, sizeof(v2), "!coopvec.vec<2, %s>", t);
  snprintf(v3, sizeof(v3), "!coopvec.vec<3, %s>", t);
  snprintf(off, sizeof(off), "%d", strcmp(t, "f16") == 0 ? 32 : 64);
  coopvecBufferAppendf(out,
                       "func.func @f(%%x: !coopvec.vec<2, %s>, %%table: %s, "
                       "%%w: %s) -> %s {\n"
                       "  %%e:2 = \"coopvec.unpack\"(%%x) : "
                       "(!coopvec.vec<2, %s>) -> (%s, %s)\n",
                       vt, m, m, reference ? "f64" : v1, vt, vt, vt);
  if (reference)
    coopvecBufferAppendf(out, "  %%a = arith.extf %%e#0 : f32 to f64\n"
                              "  %%b = arith.extf %%e#1 : f32 to f64\n");
  const char *keys[] = {"S", "a", "b", "M", "V1", "V2", "V3", "OFF"};
  const char *values[] = {
      st, reference ? "%a" : "%e#0", reference ? "%b" : "%e#1", m, v1, v2, v3,
      off};
  appendExpanded(out, hashPrologue, keys, values, 3);
  if (reference)
    hashReference(out);
  else
    appendExpanded(out, hashProgram, keys, values, 8);
}

static void runHashCases(MlirContext ctx, int *cases, int *failed) {
  for (size_t i = 0; i < NUM_THREAD_COUNTS; ++i) {
    for (int f16 = 0; f16 < 2; ++f16) {
      Case c;
      memset(&c, 0, sizeof(c));
      c.f16 = f16;
      c.tol = f16 ? 4e-3 : 2e-5;
      c.threads = threadCounts[i];
      c.width = 2;
      c.results = 1;
      snprintf(c.name, sizeof(c.name), "hash grid %s threads %lld",
               f16 ? "f16" : "f32", (long long)c.threads);
      hashSource(&c.program, f16 ? "f16" : "f32", false);
      hashSource(&c.reference, "f32", true);
      c.numTables = c.numGathered = 2;
      c.tableSize[0] = 16;
      c.tableSize[1] = 19;
      c.lo = 0.0;
      c.hi = 1.0;
      ++*cases;
      *failed += !runCase(ctx, &c);
      coopvecBufferFree(&c.program);
      coopvecBufferFree(&c.reference);
    }
  }
}

//===----------------------------------------------------------------------===//
// scf.if on a per-thread condition (x2 > 0: threads take different
// branches), yielding a vec and a scalar: the then branch multiplies a
// gathered vec by the 2x2 matrix at element 0 of %w (a matvec inside
// divergent control flow) and by sin x0; the else branch scales it by
// exp x1 and holds a nested scf.if (x0 > 0 ? x0 * x0 : x0), whose else
// yields an outer value. The reference writes the same in f64 scalars.
//===----------------------------------------------------------------------===//

static const char *const ifProgram =
    "func.func @f(%x: !coopvec.vec<3, $T>, %t: memref<?x$T>, %w: "
    "memref<?x$T>) -> $V2 {\n"
    "  %e:3 = \"coopvec.unpack\"(%x) : (!coopvec.vec<3, $T>) -> ($T, $T, "
    "$T)\n"
    "  %z = arith.constant 0.0 : $T\n"
    "  %c = arith.cmpf ogt, %e#2, %z : $T\n"
    "  %c0 = arith.cmpf ogt, %e#0, %z : $T\n"
    "  %k4 = arith.constant 4.0 : $T\n"
    "  %q = arith.mulf %e#1, %k4 : $T\n"
    "  %i = arith.fptosi %q : $T to i32\n"
    "  %m7 = arith.constant 7 : i32\n"
    "  %j = arith.andi %i, %m7 : i32\n"
    "  %k = arith.index_cast %j : i32 to index\n"
    "  %v = \"coopvec.load\"(%t, %k) : (memref<?x$T>, index) -> $V2\n"
    "  %A = \"coopvec.matrix_view\"(%w) {offset = 0} : (memref<?x$T>) -> "
    "!coopvec.matrix<2, 2, $T, \"row_major\">\n"
    "  %r:2 = scf.if %c -> ($V2, $T) {\n"
    "    %y = \"coopvec.matvec\"(%A, %v) : (!coopvec.matrix<2, 2, $T, "
    "\"row_major\">, $V2) -> $V2\n"
    "    %s = math.sin %e#0 : $T\n"
    "    %m = \"coopvec.mul\"(%y, %s) : ($V2, $T) -> $V2\n"
    "    %p = arith.mulf %e#0, %e#1 : $T\n"
    "    scf.yield %m, %p : $V2, $T\n"
    "  } else {\n"
    "    %ex = math.exp %e#1 : $T\n"
    "    %n = \"coopvec.mul\"(%v, %ex) : ($V2, $T) -> $V2\n"
    "    %in = scf.if %c0 -> $T {\n"
    "      %a = arith.mulf %e#0, %e#0 : $T\n"
    "      scf.yield %a : $T\n"
    "    } else {\n"
    "      scf.yield %e#0 : $T\n"
    "    }\n"
    "    scf.yield %n, %in : $V2, $T\n"
    "  }\n"
    "  %o = \"coopvec.mul\"(%r#0, %r#1) : ($V2, $T) -> $V2\n"
    "  return %o : $V2\n}\n";

static const char *const ifReference =
    "func.func @f(%x: !coopvec.vec<3, f32>, %t: memref<?xf64>, %w: "
    "memref<?xf64>) -> (f64, f64) {\n"
    "  %e:3 = \"coopvec.unpack\"(%x) : (!coopvec.vec<3, f32>) -> (f32, f32, "
    "f32)\n"
    "  %a = arith.extf %e#0 : f32 to f64\n"
    "  %b = arith.extf %e#1 : f32 to f64\n"
    "  %cc = arith.extf %e#2 : f32 to f64\n"
    "  %z = arith.constant 0.0 : f64\n"
    "  %c = arith.cmpf ogt, %cc, %z : f64\n"
    "  %c0 = arith.cmpf ogt, %a, %z : f64\n"
    "  %k4 = arith.constant 4.0 : f64\n"
    "  %q = arith.mulf %b, %k4 : f64\n"
    "  %i = arith.fptosi %q : f64 to i32\n"
    "  %m7 = arith.constant 7 : i32\n"
    "  %j = arith.andi %i, %m7 : i32\n"
    "  %k = arith.index_cast %j : i32 to index\n"
    "  %one = arith.constant 1 : index\n"
    "  %k1 = arith.addi %k, %one : index\n"
    "  %v0 = memref.load %t[%k] : memref<?xf64>\n"
    "  %v1 = memref.load %t[%k1] : memref<?xf64>\n"
    "  %r:3 = scf.if %c -> (f64, f64, f64) {\n"
    "    %i0 = arith.constant 0 : index\n"
    "    %i2 = arith.constant 2 : index\n"
    "    %i3 = arith.constant 3 : index\n"
    "    %w0 = memref.load %w[%i0] : memref<?xf64>\n"
    "    %w1 = memref.load %w[%one] : memref<?xf64>\n"
    "    %w2 = memref.load %w[%i2] : memref<?xf64>\n"
    "    %w3 = memref.load %w[%i3] : memref<?xf64>\n"
    "    %p0 = arith.mulf %w0, %v0 : f64\n"
    "    %p1 = arith.mulf %w1, %v1 : f64\n"
    "    %y0 = arith.addf %p0, %p1 : f64\n"
    "    %p2 = arith.mulf %w2, %v0 : f64\n"
    "    %p3 = arith.mulf %w3, %v1 : f64\n"
    "    %y1 = arith.addf %p2, %p3 : f64\n"
    "    %s = math.sin %a : f64\n"
    "    %m0 = arith.mulf %y0, %s : f64\n"
    "    %m1 = arith.mulf %y1, %s : f64\n"
    "    %p = arith.mulf %a, %b : f64\n"
    "    scf.yield %m0, %m1, %p : f64, f64, f64\n"
    "  } else {\n"
    "    %ex = math.exp %b : f64\n"
    "    %n0 = arith.mulf %v0, %ex : f64\n"
    "    %n1 = arith.mulf %v1, %ex : f64\n"
    "    %in = scf.if %c0 -> f64 {\n"
    "      %sq = arith.mulf %a, %a : f64\n"
    "      scf.yield %sq : f64\n"
    "    } else {\n"
    "      scf.yield %a : f64\n"
    "    }\n"
    "    scf.yield %n0, %n1, %in : f64, f64, f64\n"
    "  }\n"
    "  %o0 = arith.mulf %r#0, %r#2 : f64\n"
    "  %o1 = arith.mulf %r#1, %r#2 : f64\n"
    "  return %o0, %o1 : f64, f64\n}\n";

static void runIfCases(MlirContext ctx, int *cases, int *failed) {
  for (size_t i = 0; i < NUM_THREAD_COUNTS; ++i) {
    for (int f16 = 0; f16 < 2; ++f16) {
      Case c;
      memset(&c, 0, sizeof(c));
      c.f16 = f16;
      c.tol = f16 ? 4e-3 : 2e-5;
      c.threads = threadCounts[i];
      c.width = 3;
      c.results = 2;
      snprintf(c.name, sizeof(c.name), "scf.if %s threads %lld",
               f16 ? "f16" : "f32", (long long)c.threads);
      const char *keys[] = {"T", "V2"};
      const char *values[] = {f16 ? "f16" : "f32",
                              f16 ? "!coopvec.vec<2, f16>"
                                  : "!coopvec.vec<2, f32>"};
      appendExpanded(&c.program, ifProgram, keys, values, 2);
      coopvecBufferAppendf(&c.reference, "%s", ifReference);
      c.numTables = c.numGathered = 2;
      c.tableSize[0] = 9;
      c.tableSize[1] = 4;
      c.lo = -2.0;
      c.hi = 2.0;
      ++*cases;
      *failed += !runCase(ctx, &c);
      coopvecBufferFree(&c.program);
      coopvecBufferFree(&c.reference);
    }
  }
}

int main(void) {
  MlirContext ctx = mlirContextCreate();
  if (mlirLogicalResultIsFailure(coopvecSetupContext(ctx)))
    return 1;
  int cases = 0, failed = 0;
  runScalarCases(ctx, &cases, &failed);
  runEncodeCases(ctx, &cases, &failed);
  runHashCases(ctx, &cases, &failed);
  runIfCases(ctx, &cases, &failed);
  fprintf(stderr, "general finite differences: %d cases, %d failed\n", cases,
          failed);
  mlirContextDestroy(ctx);
  return 0;
}
