//===- autodiff.c - C API: coopvec-autodiff against finite differences ----===//
//
// Every case is a small module with a per-thread function @f. The test runs
// coopvec-autodiff{func=f} through coopvecParsePassPipeline, runs @f_grad
// with the reference interpreter, and compares every dX and every
// gradient buffer with central finite differences of
//
//   L = sum over threads and results of dY . @f(args)
//
// also computed with the interpreter, in double precision. Then known
// values (a 3x2 matvec worked by hand, accumulation over calls) and the
// tie rule of max / min.
//
// Why the finite differences are accurate enough to be strict. The
// interpreter evaluates @f exactly in double (it rounds only at casts and
// stores, which the forward functions here do not use), so the FD error is
// the truncation h^2/6 |f'''| plus rounding 1e-16 |L| / h. Inputs are
// perturbed by h = 2^-12 max(|x|, 1/4). An f16 program cannot take such
// steps (its inputs must be f16 values), so its differences are taken on
// the same function written in f32 (the "reference" text: same ops,
// offsets in elements, "training" -> "row_major", which is how the
// interpreter lays out "training"): at f16 inputs both compute the same
// double, and the f32 one extends it to the neighbours. Tolerances, as
// |ad - fd| <= tol * max(1, |fd|):
//   f32: 1e-6. The gradient is exact in double; FD errors are ~1e-8.
//   f16: 4e-3 = 8 u (u = 2^-11): the gradient is rounded to f16 where the
//        program says so: gradient buffers when written, the f32 -> f16
//        cast after exp2 / log2 derivatives, f16 dX of casts.
// A wrong rule (a missing term, swapped operands, a transposed matrix)
// errs by the size of the gradient itself.
//
// Kinks: max / min / step are not differentiable where the operands meet.
// When the one-sided differences disagree by more than 1e-3 (a kink within
// h; smooth functions differ by h |f''| ~ 1e-4 |f''|), the gradient must
// lie between them instead.
//
//===----------------------------------------------------------------------===//

// RUN: coopvec-capi-autodiff 2>&1 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: known values f32: PASS
// CHECK-NOT: FAIL
// CHECK: known values f16: PASS
// CHECK-NOT: FAIL
// CHECK: ties: PASS
// CHECK-NOT: FAIL
// CHECK: finite differences: 506 cases, 0 failed

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

enum { MAX_ARGS = 8, MAX_SAMPLES = 32 };

static void printError(MlirStringRef message, void *userData) {
  (void)userData;
  fprintf(stderr, "%.*s\n", (int)message.length, message.data);
}

//===----------------------------------------------------------------------===//
// Modules
//===----------------------------------------------------------------------===//

/// Parses `source` and, when `differentiate`, runs coopvec-autodiff{func=f}
/// on it (with coopvec-verify after it). Null on failure.
static MlirModule load(MlirContext ctx, const char *source,
                       bool differentiate) {
  MlirModule module =
      mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(source));
  if (mlirModuleIsNull(module) || !differentiate)
    return module;
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
  if (mlirLogicalResultIsSuccess(result))
    return module;
  mlirModuleDestroy(module);
  return (MlirModule){NULL};
}

static MlirType functionType(MlirModule module, const char *name) {
  MlirBlock body = mlirModuleGetBody(module);
  for (MlirOperation op = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    MlirAttribute symbol = mlirOperationGetAttributeByName(
        op, mlirStringRefCreateFromCString("sym_name"));
    if (!mlirAttributeIsNull(symbol) &&
        mlirStringRefEqual(mlirStringAttrGetValue(symbol),
                           mlirStringRefCreateFromCString(name)))
      return mlirTypeAttrGetValue(mlirOperationGetAttributeByName(
          op, mlirStringRefCreateFromCString("function_type")));
  }
  return (MlirType){NULL};
}

//===----------------------------------------------------------------------===//
// Arguments
//===----------------------------------------------------------------------===//

typedef enum ArgKind { ArgVec, ArgMemref, ArgScalar, ArgIndex } ArgKind;

/// One argument or result of @f and its host array.
typedef struct Slot {
  ArgKind kind;
  CoopvecDType dtype;
  CoopvecArray array;
} Slot;

static CoopvecDType dtypeOf(MlirType element) {
  return mlirTypeIsAF16(element) ? CoopvecDTypeF16 : CoopvecDTypeF32;
}

/// Element count of a vec / builtin vector type, else 1.
static int64_t widthOf(MlirType type) {
  if (coopvecTypeIsAVec(type))
    return coopvecVecTypeGetSize(type);
  return mlirTypeIsAVector(type) ? mlirShapedTypeGetDimSize(type, 0) : 1;
}

static MlirType elementOf(MlirType type) {
  if (coopvecTypeIsAVec(type))
    return coopvecVecTypeGetElementType(type);
  if (mlirTypeIsAShaped(type))
    return mlirShapedTypeGetElementType(type);
  return type;
}

static Slot makeSlot(MlirType type, int64_t threads, int64_t memrefSize) {
  Slot slot = {ArgScalar, dtypeOf(elementOf(type)), {NULL, 0, 1}};
  if (mlirTypeIsAIndex(type)) {
    slot.kind = ArgIndex;
    slot.dtype = CoopvecDTypeI64;
  } else if (mlirTypeIsAMemRef(type)) {
    slot.kind = ArgMemref;
    slot.array.size = memrefSize;
  } else if (coopvecTypeIsAVec(type) || mlirTypeIsAVector(type)) {
    slot.kind = ArgVec;
    slot.array.size = threads * widthOf(type);
  }
  slot.array.dtype = slot.dtype;
  slot.array.data = calloc((size_t)slot.array.size, 8);
  if (!slot.array.data)
    abort();
  return slot;
}

static uint64_t nextRandom(uint64_t *state) {
  uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/// Uniform in [lo, hi), rounded to the array's dtype.
static void fillRandom(CoopvecArray *array, double lo, double hi,
                       uint64_t *state) {
  for (int64_t i = 0; i < array->size; ++i) {
    double unit = (double)(nextRandom(state) >> 11) / 9007199254740992.0;
    coopvecArraySet(array, i, lo + (hi - lo) * unit);
  }
}

/// The same values in another dtype (f16 values are exact in f32).
static CoopvecArray convertArray(const CoopvecArray *from, CoopvecDType to) {
  CoopvecArray array = {calloc((size_t)from->size + 1, 8), to, from->size};
  if (!array.data)
    abort();
  for (int64_t i = 0; i < from->size; ++i)
    coopvecArraySet(&array, i, coopvecArrayGet(from, i));
  return array;
}

//===----------------------------------------------------------------------===//
// One finite-difference case
//===----------------------------------------------------------------------===//

typedef struct Case {
  char name[160];
  CoopvecBuffer source;    // the program under test, with @f
  CoopvecBuffer reference; // @f written in f32 (the same text for f32)
  int64_t threads, memrefSize, index;
  double lo, hi; // range of vec and scalar arguments
} Case;

typedef struct Program {
  const Case *c;
  MlirModule module, reference;
  intptr_t numArgs, numResults, numBuffers;
  Slot args[MAX_ARGS], dy[MAX_ARGS];
  CoopvecArray refArgs[MAX_ARGS]; // args in the reference's dtypes
  CoopvecArray outputs[MAX_ARGS]; // results of the reference, f64
  CoopvecArray buffers[MAX_ARGS]; // gradient buffers, in argument order
  CoopvecArray dx[MAX_ARGS];      // per argument; data null if not a vec
  double baseline;                // L at the unperturbed arguments
} Program;

static CoopvecArray f64Array(int64_t size) {
  CoopvecArray array = {calloc((size_t)size + 1, sizeof(double)),
                        CoopvecDTypeF64, size};
  if (!array.data)
    abort();
  return array;
}

static void setupArguments(Program *p, MlirType type, uint64_t *seed) {
  const Case *c = p->c;
  p->numArgs = mlirFunctionTypeGetNumInputs(type);
  for (intptr_t i = 0; i < p->numArgs; ++i) {
    MlirType argType = mlirFunctionTypeGetInput(type, i);
    Slot *slot = &p->args[i];
    *slot = makeSlot(argType, c->threads, c->memrefSize);
    if (slot->kind == ArgIndex)
      coopvecArraySet(&slot->array, 0, (double)c->index);
    else if (slot->kind == ArgMemref)
      fillRandom(&slot->array, -1.0, 1.0, seed);
    else
      fillRandom(&slot->array, c->lo, c->hi, seed);
    p->refArgs[i] = convertArray(&slot->array, slot->dtype == CoopvecDTypeF16
                                                   ? CoopvecDTypeF32
                                                   : slot->dtype);
    if (coopvecTypeIsAVec(argType))
      p->dx[i] = f64Array(slot->array.size);
  }
}

static void setupResults(Program *p, MlirType type, uint64_t *seed) {
  p->numResults = mlirFunctionTypeGetNumResults(type);
  for (intptr_t j = 0; j < p->numResults; ++j) {
    MlirType resultType = mlirFunctionTypeGetResult(type, j);
    p->dy[j] = makeSlot(resultType, p->c->threads, 0);
    fillRandom(&p->dy[j].array, -1.0, 1.0, seed);
    p->outputs[j] = f64Array(p->dy[j].array.size);
  }
}

/// One gradient buffer per memref argument, which every case here reads
/// weights from; their count must match @f_grad's signature.
static bool setupBuffers(Program *p, MlirType gradType) {
  for (intptr_t i = 0; i < p->numArgs; ++i)
    if (p->args[i].kind == ArgMemref)
      p->buffers[p->numBuffers++] =
          convertArray(&p->args[i].array, p->args[i].dtype);
  for (intptr_t k = 0; k < p->numBuffers; ++k)
    memset(p->buffers[k].data, 0,
           (size_t)(p->buffers[k].size *
                    coopvecDTypeGetSize(p->buffers[k].dtype)));
  intptr_t expected = p->numArgs + p->numBuffers + p->numResults;
  if (mlirFunctionTypeGetNumInputs(gradType) == expected)
    return true;
  fprintf(stderr, "FAIL %s: @f_grad takes %ld arguments, expected %ld\n",
          p->c->name, (long)mlirFunctionTypeGetNumInputs(gradType),
          (long)expected);
  return false;
}

static void freeProgram(Program *p) {
  for (intptr_t i = 0; i < MAX_ARGS; ++i) {
    free(p->args[i].array.data);
    free(p->dy[i].array.data);
    free(p->refArgs[i].data);
    free(p->outputs[i].data);
    free(p->buffers[i].data);
    free(p->dx[i].data);
  }
  if (!mlirModuleIsNull(p->module))
    mlirModuleDestroy(p->module);
  if (!mlirModuleIsNull(p->reference))
    mlirModuleDestroy(p->reference);
}

/// L = sum of dY . @f(refArgs), @f run from the reference text.
static double objective(Program *p) {
  MlirLogicalResult ran = coopvecInterpret(
      mlirModuleGetOperation(p->reference), mlirStringRefCreateFromCString("f"),
      p->c->threads, p->refArgs, p->numArgs, p->outputs, p->numResults,
      printError, NULL);
  if (mlirLogicalResultIsFailure(ran))
    return NAN;
  double sum = 0.0;
  for (intptr_t j = 0; j < p->numResults; ++j)
    for (int64_t k = 0; k < p->outputs[j].size; ++k)
      sum += coopvecArrayGet(&p->dy[j].array, k) *
             ((const double *)p->outputs[j].data)[k];
  return sum;
}

static bool runGradient(Program *p) {
  CoopvecArray args[3 * MAX_ARGS], results[MAX_ARGS];
  intptr_t numArgs = 0, numResults = 0;
  for (intptr_t i = 0; i < p->numArgs; ++i)
    args[numArgs++] = p->args[i].array;
  for (intptr_t k = 0; k < p->numBuffers; ++k)
    args[numArgs++] = p->buffers[k];
  for (intptr_t j = 0; j < p->numResults; ++j)
    args[numArgs++] = p->dy[j].array;
  for (intptr_t i = 0; i < p->numArgs; ++i)
    if (p->dx[i].data)
      results[numResults++] = p->dx[i];
  return mlirLogicalResultIsSuccess(
      coopvecInterpret(mlirModuleGetOperation(p->module),
                       mlirStringRefCreateFromCString("f_grad"), p->c->threads,
                       args, numArgs, results, numResults, printError, NULL));
}

static double objectiveOf(void *context) { return objective(context); }

static Difference difference(Program *p, CoopvecArray *x, int64_t i) {
  return finiteDifference(objectiveOf, p, p->baseline, x, i);
}

/// Compares element `i` of `gradient` with finite differences of L in the
/// reference argument `x`. Returns whether it matches (prints if not).
static bool checkElement(Program *p, const char *what, CoopvecArray *x,
                         const CoopvecArray *gradient, int64_t i, double tol) {
  Difference d = difference(p, x, i);
  double got = coopvecArrayGet(gradient, i);
  if (matches(got, d, tol))
    return true;
  fprintf(stderr,
          "FAIL %s: %s[%lld] is %.9g, finite differences give %.9g "
          "(one-sided %.9g, %.9g)\n",
          p->c->name, what, (long long)i, got, d.central, d.forward,
          d.backward);
  return false;
}

/// Checks up to MAX_SAMPLES evenly spread elements of `gradient` (first
/// and last included) and, for a per-thread argument of `width` elements,
/// the middle element of every thread: the one the cases use as a
/// per-thread scalar. Returns the number of mismatches.
static int checkGradient(Program *p, const char *what, CoopvecArray *x,
                         const CoopvecArray *gradient, CoopvecDType dtype,
                         int64_t width) {
  double tol = dtype == CoopvecDTypeF16 ? 4e-3 : 1e-6;
  int64_t count = x->size < MAX_SAMPLES ? x->size : MAX_SAMPLES;
  int failures = 0;
  for (int64_t k = 0; k < count; ++k) {
    int64_t i = count == 1 ? 0 : k * (x->size - 1) / (count - 1);
    failures += !checkElement(p, what, x, gradient, i, tol);
  }
  for (int64_t t = 0; width && t < p->c->threads; ++t)
    failures += !checkElement(p, what, x, gradient, t * width + width / 2, tol);
  return failures;
}

static int checkAll(Program *p) {
  int failures = 0;
  intptr_t buffer = 0;
  for (intptr_t i = 0; i < p->numArgs; ++i) {
    char what[32];
    snprintf(what, sizeof(what), "argument %ld", (long)i);
    if (p->dx[i].data)
      failures +=
          checkGradient(p, what, &p->refArgs[i], &p->dx[i], p->args[i].dtype,
                        p->args[i].array.size / p->c->threads);
    else if (p->args[i].kind == ArgMemref)
      failures += checkGradient(p, what, &p->refArgs[i], &p->buffers[buffer++],
                                p->args[i].dtype, 0);
  }
  return failures;
}

static bool setupProgram(MlirContext ctx, Program *p) {
  p->module = load(ctx, coopvecBufferStr(&p->c->source), true);
  p->reference = load(ctx, coopvecBufferStr(&p->c->reference), false);
  if (mlirModuleIsNull(p->module) || mlirModuleIsNull(p->reference)) {
    fprintf(stderr, "FAIL %s: could not build the module\n%s", p->c->name,
            coopvecBufferStr(&p->c->source));
    return false;
  }
  uint64_t seed = 0x5eed;
  for (const char *s = p->c->name; *s; ++s)
    seed = seed * 131 + (unsigned char)*s;
  setupArguments(p, functionType(p->module, "f"), &seed);
  setupResults(p, functionType(p->module, "f"), &seed);
  return setupBuffers(p, functionType(p->module, "f_grad"));
}

/// Runs one case; returns whether it passed.
static bool runCase(MlirContext ctx, const Case *c) {
  Program p;
  memset(&p, 0, sizeof(p));
  p.c = c;
  bool ok = setupProgram(ctx, &p);
  if (ok && !runGradient(&p)) {
    fprintf(stderr, "FAIL %s: @f_grad did not run\n", c->name);
    ok = false;
  }
  if (ok) {
    p.baseline = objective(&p);
    ok = checkAll(&p) == 0;
  }
  freeProgram(&p);
  return ok;
}

//===----------------------------------------------------------------------===//
// Case generators. Each writes @f for an element type and layout; it is
// called once for the program under test and once for its f32 reference.
//===----------------------------------------------------------------------===//

static int64_t elementBytes(const char *type) {
  return strcmp(type, "f16") == 0 ? 2 : 4;
}

/// The reference's layout: the interpreter lays out "training" row-major.
static const char *referenceLayout(const char *layout) {
  return strcmp(layout, "training") == 0 ? "row_major" : layout;
}

static const char *const biasNames[] = {"", " bias-buffer", " bias-arg"};

/// y = A x (+ b), A (rows x cols) at element 32 of %w; the bias is read at
/// element %boff (an index argument) of %w, or is the argument %b.
typedef struct MatvecSpec {
  int rows, cols, transpose, bias; // bias: 0 none, 1 buffer, 2 argument
} MatvecSpec;

static void matvecSource(CoopvecBuffer *out, const MatvecSpec *s, const char *t,
                         const char *layout) {
  int in = s->transpose ? s->rows : s->cols;
  int outs = s->transpose ? s->cols : s->rows;
  char matrix[96], vin[48], vout[48];
  snprintf(matrix, sizeof(matrix), "!coopvec.matrix<%d, %d, %s, \"%s\">",
           s->rows, s->cols, t, layout);
  snprintf(vin, sizeof(vin), "!coopvec.vec<%d, %s>", in, t);
  snprintf(vout, sizeof(vout), "!coopvec.vec<%d, %s>", outs, t);
  coopvecBufferAppendf(out,
                       "func.func @f(%%x: %s, %%w: memref<?x%s>, %%boff: "
                       "index%s%s) -> %s {\n",
                       vin, t, s->bias == 2 ? ", %b: " : "",
                       s->bias == 2 ? vout : "", vout);
  coopvecBufferAppendf(out,
                       "  %%A = \"coopvec.matrix_view\"(%%w) {offset = %lld} "
                       ": (memref<?x%s>) -> %s\n",
                       (long long)(32 * elementBytes(t)), t, matrix);
  if (s->bias == 1)
    coopvecBufferAppendf(out,
                         "  %%b = \"coopvec.load\"(%%w, %%boff) : "
                         "(memref<?x%s>, index) -> %s\n",
                         t, vout);
  coopvecBufferAppendf(out,
                       "  %%y = \"coopvec.matvec\"(%%A, %%x%s) %s : (%s, "
                       "%s%s%s) -> %s\n  return %%y : %s\n}\n",
                       s->bias ? ", %b" : "", s->transpose ? "{transpose}" : "",
                       matrix, vin, s->bias ? ", " : "", s->bias ? vout : "",
                       vout, vout);
}

static void addMatvecCase(Case *c, const MatvecSpec *s, const char *t,
                          const char *layout) {
  snprintf(c->name, sizeof(c->name), "matvec %dx%d %s %s%s%s", s->rows, s->cols,
           t, layout, s->transpose ? " transpose" : "", biasNames[s->bias]);
  matvecSource(&c->source, s, t, layout);
  matvecSource(&c->reference, s, "f32", referenceLayout(layout));
  c->threads = 3;
  c->index = 32 + (int64_t)s->rows * s->cols + 3;
  c->memrefSize = c->index + s->rows + s->cols + 5;
  c->lo = -1.0;
  c->hi = 1.0;
}

/// Two layers: tanh(A2 relu(A1 x + b1) + b2); A1 (hidden x in) and A2
/// (out x hidden) in their own layouts, 32-element aligned.
typedef struct MlpSpec {
  int in, hidden, out;
  const char *layout1, *layout2;
} MlpSpec;

static void mlpSource(CoopvecBuffer *out, const MlpSpec *s, const char *t,
                      const char *l1, const char *l2) {
  int64_t b1 = 32 + (int64_t)s->hidden * s->in;
  int64_t a2 = (b1 + s->hidden + 31) / 32 * 32;
  int64_t b2 = a2 + (int64_t)s->out * s->hidden;
  int64_t bytes = elementBytes(t);
  coopvecBufferAppendf(
      out,
      "func.func @f(%%x: !coopvec.vec<%d, %s>, %%w: memref<?x%s>) -> "
      "!coopvec.vec<%d, %s> {\n"
      "  %%c1 = arith.constant %lld : index\n"
      "  %%c2 = arith.constant %lld : index\n"
      "  %%zero = arith.constant 0.0 : %s\n"
      "  %%A1 = \"coopvec.matrix_view\"(%%w) {offset = %lld} : "
      "(memref<?x%s>) -> !coopvec.matrix<%d, %d, %s, \"%s\">\n"
      "  %%b1 = \"coopvec.load\"(%%w, %%c1) : (memref<?x%s>, index) -> "
      "!coopvec.vec<%d, %s>\n",
      s->in, t, t, s->out, t, (long long)b1, (long long)b2, t,
      (long long)(32 * bytes), t, s->hidden, s->in, t, l1, t, s->hidden, t);
  coopvecBufferAppendf(
      out,
      "  %%h = \"coopvec.matvec\"(%%A1, %%x, %%b1) : (!coopvec.matrix<%d, "
      "%d, %s, \"%s\">, !coopvec.vec<%d, %s>, !coopvec.vec<%d, %s>) -> "
      "!coopvec.vec<%d, %s>\n"
      "  %%a = \"coopvec.max\"(%%h, %%zero) : (!coopvec.vec<%d, %s>, %s) -> "
      "!coopvec.vec<%d, %s>\n",
      s->hidden, s->in, t, l1, s->in, t, s->hidden, t, s->hidden, t, s->hidden,
      t, t, s->hidden, t);
  coopvecBufferAppendf(
      out,
      "  %%A2 = \"coopvec.matrix_view\"(%%w) {offset = %lld} : "
      "(memref<?x%s>) -> !coopvec.matrix<%d, %d, %s, \"%s\">\n"
      "  %%b2 = \"coopvec.load\"(%%w, %%c2) : (memref<?x%s>, index) -> "
      "!coopvec.vec<%d, %s>\n"
      "  %%y = \"coopvec.matvec\"(%%A2, %%a, %%b2) : (!coopvec.matrix<%d, "
      "%d, %s, \"%s\">, !coopvec.vec<%d, %s>, !coopvec.vec<%d, %s>) -> "
      "!coopvec.vec<%d, %s>\n",
      (long long)(a2 * bytes), t, s->out, s->hidden, t, l2, t, s->out, t,
      s->out, s->hidden, t, l2, s->hidden, t, s->out, t, s->out, t);
  coopvecBufferAppendf(out,
                       "  %%r = \"coopvec.tanh\"(%%y) : (!coopvec.vec<%d, "
                       "%s>) -> !coopvec.vec<%d, %s>\n"
                       "  return %%r : !coopvec.vec<%d, %s>\n}\n",
                       s->out, t, s->out, t, s->out, t);
}

static void addMlpCase(Case *c, const MlpSpec *s, const char *t) {
  snprintf(c->name, sizeof(c->name), "mlp %d-%d-%d %s %s %s", s->in, s->hidden,
           s->out, t, s->layout1, s->layout2);
  mlpSource(&c->source, s, t, s->layout1, s->layout2);
  mlpSource(&c->reference, s, "f32", referenceLayout(s->layout1),
            referenceLayout(s->layout2));
  int64_t b1 = 32 + (int64_t)s->hidden * s->in;
  int64_t a2 = (b1 + s->hidden + 31) / 32 * 32;
  c->threads = 3;
  c->memrefSize = a2 + (int64_t)s->out * s->hidden + s->out + 7;
  c->lo = -1.0;
  c->hi = 1.0;
}

/// One weight matrix used three times, two of them through a second view of
/// the same bytes, and one bias used twice: every use adds its own
/// outer_product_accumulate / reduce_sum_accumulate into one gradient.
static void twiceSource(CoopvecBuffer *out, int n, const char *t,
                        const char *layout) {
  char v[48], m[96];
  snprintf(v, sizeof(v), "!coopvec.vec<%d, %s>", n, t);
  snprintf(m, sizeof(m), "!coopvec.matrix<%d, %d, %s, \"%s\">", n, n, t,
           layout);
  long long bytes = 32 * elementBytes(t), bias = 32 + (long long)n * n + 1;
  coopvecBufferAppendf(
      out,
      "func.func @f(%%x: %s, %%w: memref<?x%s>) -> %s {\n"
      "  %%c = arith.constant %lld : index\n"
      "  %%A = \"coopvec.matrix_view\"(%%w) {offset = %lld} : (memref<?x%s>) "
      "-> %s\n"
      "  %%y1 = \"coopvec.matvec\"(%%A, %%x) : (%s, %s) -> %s\n"
      "  %%t = \"coopvec.tanh\"(%%y1) : (%s) -> %s\n"
      "  %%y2 = \"coopvec.matvec\"(%%A, %%t) {transpose} : (%s, %s) -> %s\n",
      v, t, v, bias, bytes, t, m, m, v, v, v, v, m, v, v);
  coopvecBufferAppendf(
      out,
      "  %%B = \"coopvec.matrix_view\"(%%w) {offset = %lld} : (memref<?x%s>) "
      "-> %s\n"
      "  %%b = \"coopvec.load\"(%%w, %%c) : (memref<?x%s>, index) -> %s\n"
      "  %%y3 = \"coopvec.matvec\"(%%B, %%y2, %%b) : (%s, %s, %s) -> %s\n"
      "  %%y4 = \"coopvec.add\"(%%y3, %%b) : (%s, %s) -> %s\n"
      "  return %%y4 : %s\n}\n",
      bytes, t, m, t, v, m, v, v, v, v, v, v, v);
}

static void addTwiceCase(Case *c, int n, const char *t, const char *layout) {
  snprintf(c->name, sizeof(c->name), "weight used twice %d %s %s", n, t,
           layout);
  twiceSource(&c->source, n, t, layout);
  twiceSource(&c->reference, n, "f32", referenceLayout(layout));
  c->threads = 3;
  c->memrefSize = 32 + (int64_t)n * n + n + 4;
  c->lo = -1.0;
  c->hi = 1.0;
}

/// Elementwise and construction ops on %a, %b (vecs) and %s (a shared
/// scalar, a constant to the gradient); %e are the elements of %b, per
/// thread. In the text, $V is the vec type, $T the element type, $N the
/// width, $M the middle element, $U the N element types, $R the elements
/// of %b reversed with the middle one in place of the first, $W the vec of
/// N f32.
typedef struct ElementwiseBody {
  const char *name;
  const char *body; // defines %r
  const char *result;
  double lo, hi;
  bool f16Only;
} ElementwiseBody;

#define VV "($V, $V) -> $V"
#define VT "($V, $T) -> $V"
static const ElementwiseBody bodies[] = {
    {"add", "%r = \"coopvec.add\"(%a, %b) : " VV, "$V", -1, 1, false},
    {"add scalar", "%r = \"coopvec.add\"(%a, %s) : " VT, "$V", -1, 1, false},
    {"add element", "%r = \"coopvec.add\"(%a, %e#$M) : " VT, "$V", -1, 1,
     false},
    {"sub", "%r = \"coopvec.sub\"(%a, %b) : " VV, "$V", -1, 1, false},
    {"sub element", "%r = \"coopvec.sub\"(%a, %e#$M) : " VT, "$V", -1, 1,
     false},
    {"mul", "%r = \"coopvec.mul\"(%a, %b) : " VV, "$V", -1, 1, false},
    {"mul scalar", "%r = \"coopvec.mul\"(%a, %s) : " VT, "$V", -1, 1, false},
    {"mul element", "%r = \"coopvec.mul\"(%a, %e#$M) : " VT, "$V", -1, 1,
     false},
    {"mul self", "%r = \"coopvec.mul\"(%a, %a) : " VV, "$V", -1, 1, false},
    {"min", "%r = \"coopvec.min\"(%a, %b) : " VV, "$V", -1, 1, false},
    {"min element", "%r = \"coopvec.min\"(%a, %e#$M) : " VT, "$V", -1, 1,
     false},
    {"max", "%r = \"coopvec.max\"(%a, %b) : " VV, "$V", -1, 1, false},
    {"max scalar", "%r = \"coopvec.max\"(%a, %s) : " VT, "$V", -1, 1, false},
    {"max element", "%r = \"coopvec.max\"(%b, %e#$M) : " VT, "$V", -1, 1,
     false},
    {"fma", "%r = \"coopvec.fma\"(%a, %b, %a) : ($V, $V, $V) -> $V", "$V", -1,
     1, false},
    {"fma scalars", "%r = \"coopvec.fma\"(%a, %s, %e#$M) : ($V, $T, $T) -> $V",
     "$V", -1, 1, false},
    {"fma element", "%r = \"coopvec.fma\"(%b, %e#$M, %a) : ($V, $T, $V) -> $V",
     "$V", -1, 1, false},
    {"neg", "%r = \"coopvec.neg\"(%a) : ($V) -> $V", "$V", -1, 1, false},
    {"exp2", "%r = \"coopvec.exp2\"(%a) : ($V) -> $V", "$V", -2, 2, false},
    {"log2", "%r = \"coopvec.log2\"(%a) : ($V) -> $V", "$V", 0.25, 4, false},
    {"tanh", "%r = \"coopvec.tanh\"(%a) : ($V) -> $V", "$V", -2, 2, false},
    {"step",
     "%t = \"coopvec.step\"(%a, %b) : " VV "\n"
     "  %r = \"coopvec.mul\"(%t, %a) : " VV,
     "$V", -1, 1, false},
    {"step scalar",
     "%t = \"coopvec.step\"(%a, %s) : " VT "\n"
     "  %r = \"coopvec.fma\"(%t, %b, %a) : ($V, $V, $V) -> $V",
     "$V", -1, 1, false},
    {"from_elements unpack",
     "%p = \"coopvec.from_elements\"($R) : ($U) -> $V\n"
     "  %r = \"coopvec.mul\"(%p, %a) : " VV,
     "$V", -1, 1, false},
    {"splat",
     "%p = \"coopvec.splat\"(%e#$M) : ($T) -> $V\n"
     "  %r = \"coopvec.mul\"(%p, %a) : " VV,
     "$V", -1, 1, false},
    {"to_vector from_vector",
     "%v = \"coopvec.to_vector\"(%a) : ($V) -> "
     "vector<$Nx$T>\n"
     "  %w = \"coopvec.from_vector\"(%v) : "
     "(vector<$Nx$T>) -> $V\n"
     "  %r = \"coopvec.mul\"(%w, %b) : " VV,
     "$V", -1, 1, false},
    {"vector result",
     "%m = \"coopvec.mul\"(%a, %b) : " VV "\n"
     "  %r = \"coopvec.to_vector\"(%m) : ($V) -> "
     "vector<$Nx$T>",
     "vector<$Nx$T>", -1, 1, false},
    {"cast",
     "%c = \"coopvec.cast\"(%a) : ($V) -> $W\n"
     "  %r = \"coopvec.tanh\"(%c) : ($W) -> $W",
     "$W", -2, 2, true},
    {"chain",
     "%p = \"coopvec.mul\"(%a, %b) : " VV "\n"
     "  %q = \"coopvec.tanh\"(%p) : ($V) -> $V\n"
     "  %u = \"coopvec.exp2\"(%q) : ($V) -> $V\n"
     "  %d = \"coopvec.sub\"(%u, %a) : " VV "\n"
     "  %r = \"coopvec.fma\"(%d, %p, %q) : ($V, $V, $V) -> $V",
     "$V", -1, 1, false},
};
#undef VV
#undef VT

/// Appends `text` with the $-names of ElementwiseBody expanded.
static void expand(CoopvecBuffer *out, const char *text, const char *t, int n) {
  for (; *text; ++text) {
    if (*text != '$') {
      coopvecBufferAppend(out, text, 1);
      continue;
    }
    char key = *++text;
    if (key == 'V')
      coopvecBufferAppendf(out, "!coopvec.vec<%d, %s>", n, t);
    else if (key == 'W')
      coopvecBufferAppendf(out, "!coopvec.vec<%d, f32>", n);
    else if (key == 'T')
      coopvecBufferAppendStr(out, t);
    else if (key == 'N')
      coopvecBufferAppendf(out, "%d", n);
    else if (key == 'M')
      coopvecBufferAppendf(out, "%d", n / 2);
    for (int i = 0; i < n && (key == 'U' || key == 'R'); ++i) {
      int element = i == 0 ? n / 2 : n - 1 - i;
      if (key == 'U')
        coopvecBufferAppendf(out, "%s%s", i ? ", " : "", t);
      else
        coopvecBufferAppendf(out, "%s%%e#%d", i ? ", " : "", element);
    }
  }
}

static void elementwiseSource(CoopvecBuffer *out, const ElementwiseBody *b,
                              const char *t, int n) {
  CoopvecBuffer result = {0};
  expand(&result, b->result, t, n);
  expand(out, "func.func @f(%a: $V, %b: $V, %s: $T) -> ", t, n);
  coopvecBufferAppendStr(out, coopvecBufferStr(&result));
  expand(out, " {\n  %e:$N = \"coopvec.unpack\"(%b) : ($V) -> ($U)\n  ", t, n);
  expand(out, b->body, t, n);
  coopvecBufferAppendf(out, "\n  return %%r : %s\n}\n",
                       coopvecBufferStr(&result));
  coopvecBufferFree(&result);
}

static void addElementwiseCase(Case *c, const ElementwiseBody *b, const char *t,
                               int n) {
  snprintf(c->name, sizeof(c->name), "%s %d %s", b->name, n, t);
  elementwiseSource(&c->source, b, t, n);
  elementwiseSource(&c->reference, b, "f32", n);
  c->threads = 2;
  c->lo = b->lo;
  c->hi = b->hi;
}

//===----------------------------------------------------------------------===//
// The finite-difference suite
//===----------------------------------------------------------------------===//

static int widths[] = {1, 3, 17, 33, 127};
enum { NUM_WIDTHS = sizeof(widths) / sizeof(widths[0]) };
static const char *const types[] = {"f32", "f16"};

/// Runs `c` and frees its texts; counts it in *cases / *failed.
static void runAndCount(MlirContext ctx, Case *c, int *cases, int *failed) {
  ++*cases;
  *failed += !runCase(ctx, c);
  coopvecBufferFree(&c->source);
  coopvecBufferFree(&c->reference);
  memset(c, 0, sizeof(*c));
}

/// Layouts with a gradient for `type` ("training" exists for f16 only).
static int layoutsFor(const char *type, const char **layouts) {
  layouts[0] = "row_major";
  layouts[1] = "col_major";
  layouts[2] = "training";
  return strcmp(type, "f16") == 0 ? 3 : 2;
}

static void runMatvecCases(MlirContext ctx, int *cases, int *failed) {
  static const int shapes[][2] = {{1, 1},    {3, 17},   {17, 3}, {1, 33},
                                  {33, 127}, {127, 33}, {127, 1}};
  for (size_t s = 0; s < sizeof(shapes) / sizeof(shapes[0]); ++s)
    for (int t = 0; t < 2; ++t) {
      const char *layouts[3];
      int numLayouts = layoutsFor(types[t], layouts);
      for (int l = 0; l < numLayouts; ++l)
        for (int flags = 0; flags < 6; ++flags) {
          MatvecSpec spec = {shapes[s][0], shapes[s][1], flags & 1, flags >> 1};
          Case c;
          memset(&c, 0, sizeof(c));
          addMatvecCase(&c, &spec, types[t], layouts[l]);
          runAndCount(ctx, &c, cases, failed);
        }
    }
}

static void runNetworkCases(MlirContext ctx, int *cases, int *failed) {
  static const MlpSpec mlps[] = {{3, 17, 1, "row_major", "col_major"},
                                 {17, 33, 3, "col_major", "row_major"},
                                 {33, 17, 127, "training", "training"},
                                 {1, 127, 17, "training", "col_major"}};
  for (size_t m = 0; m < sizeof(mlps) / sizeof(mlps[0]); ++m)
    for (int t = 0; t < 2; ++t) {
      if (strcmp(types[t], "f32") == 0 &&
          (strcmp(mlps[m].layout1, "training") == 0 ||
           strcmp(mlps[m].layout2, "training") == 0))
        continue;
      Case c;
      memset(&c, 0, sizeof(c));
      addMlpCase(&c, &mlps[m], types[t]);
      runAndCount(ctx, &c, cases, failed);
    }
  for (int t = 0; t < 2; ++t) {
    const char *layouts[3];
    int numLayouts = layoutsFor(types[t], layouts);
    for (int l = 0; l < numLayouts; ++l) {
      Case c;
      memset(&c, 0, sizeof(c));
      addTwiceCase(&c, l == 0 ? 3 : 17, types[t], layouts[l]);
      runAndCount(ctx, &c, cases, failed);
    }
  }
}

static void runElementwiseCases(MlirContext ctx, int *cases, int *failed) {
  for (size_t b = 0; b < sizeof(bodies) / sizeof(bodies[0]); ++b)
    for (int t = 0; t < 2; ++t) {
      if (bodies[b].f16Only && strcmp(types[t], "f16") != 0)
        continue;
      for (int w = 0; w < NUM_WIDTHS; ++w) {
        Case c;
        memset(&c, 0, sizeof(c));
        addElementwiseCase(&c, &bodies[b], types[t], widths[w]);
        runAndCount(ctx, &c, cases, failed);
      }
    }
}

//===----------------------------------------------------------------------===//
// Known values: A = [[1, 3], [-2, 4], [3, -2]], x = (2, 4), dY = (-2, 5, 10)
// give dX = A^T dY = (18, -6), dA = dY x^T = [[-4, -8], [10, 20], [20, 40]]
// and db = dY. Every value is exact in f16, so the comparison is exact.
//===----------------------------------------------------------------------===//

enum { KV_MATRIX = 32, KV_BIAS = 40, KV_SIZE = 48 };

static const double kvA[3][2] = {{1, 3}, {-2, 4}, {3, -2}};
static const double kvDA[3][2] = {{-4, -8}, {10, 20}, {20, 40}};
static const double kvX[2] = {2, 4}, kvDY[3] = {-2, 5, 10};
static const double kvDX[2] = {18, -6};

/// Where element (i, j) of the 3x2 matrix lives in the buffer: row- or
/// column-major, or stored transposed (2x3 row-major, used with
/// {transpose}).
static int64_t kvPosition(const char *form, int i, int j) {
  if (strcmp(form, "col_major") == 0)
    return KV_MATRIX + j * 3 + i;
  if (strcmp(form, "transpose") == 0)
    return KV_MATRIX + j * 3 + i;
  return KV_MATRIX + i * 2 + j;
}

static void kvSource(CoopvecBuffer *out, const char *t, const char *form) {
  bool transposed = strcmp(form, "transpose") == 0;
  const char *layout = transposed ? "row_major" : form;
  char m[96];
  snprintf(m, sizeof(m), "!coopvec.matrix<%d, %d, %s, \"%s\">",
           transposed ? 2 : 3, transposed ? 3 : 2, t, layout);
  coopvecBufferAppendf(
      out,
      "func.func @f(%%x: !coopvec.vec<2, %s>, %%w: memref<?x%s>) -> "
      "!coopvec.vec<3, %s> {\n"
      "  %%c = arith.constant %d : index\n"
      "  %%A = \"coopvec.matrix_view\"(%%w) {offset = %lld} : "
      "(memref<?x%s>) -> %s\n"
      "  %%b = \"coopvec.load\"(%%w, %%c) : (memref<?x%s>, index) -> "
      "!coopvec.vec<3, %s>\n"
      "  %%y = \"coopvec.matvec\"(%%A, %%x, %%b) %s : (%s, !coopvec.vec<2, "
      "%s>, !coopvec.vec<3, %s>) -> !coopvec.vec<3, %s>\n"
      "  return %%y : !coopvec.vec<3, %s>\n}\n",
      t, t, t, KV_BIAS, (long long)(KV_MATRIX * elementBytes(t)), t, m, t, t,
      transposed ? "{transpose}" : "", m, t, t, t, t);
}

/// The expected gradient buffer after `calls` calls.
static double kvExpected(const char *form, int64_t k, int calls) {
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 2; ++j)
      if (kvPosition(form, i, j) == k)
        return calls * kvDA[i][j];
  if (k >= KV_BIAS && k < KV_BIAS + 3)
    return calls * kvDY[k - KV_BIAS];
  return 0.0;
}

/// Runs @f_grad twice on the same gradient buffer; returns the mismatches.
static int kvRun(MlirModule module, const char *form, CoopvecDType dtype) {
  double dx[2];
  uint32_t raw[4][KV_SIZE]; // f32 or f16 elements
  CoopvecArray x = {raw[0], dtype, 2}, w = {raw[1], dtype, KV_SIZE},
               g = {raw[2], dtype, KV_SIZE}, dy = {raw[3], dtype, 3};
  for (int64_t k = 0; k < KV_SIZE; ++k) {
    coopvecArraySet(&w, k, 0.25 * (double)(k % 5)); // unread: any value
    coopvecArraySet(&g, k, 0.0);
  }
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 2; ++j)
      coopvecArraySet(&w, kvPosition(form, i, j), kvA[i][j]);
  for (int i = 0; i < 3; ++i)
    coopvecArraySet(&dy, i, kvDY[i]);
  for (int j = 0; j < 2; ++j)
    coopvecArraySet(&x, j, kvX[j]);
  CoopvecArray args[4] = {x, w, g, dy}, result = {dx, CoopvecDTypeF64, 2};
  int mismatches = 0;
  for (int call = 1; call <= 2; ++call) {
    if (mlirLogicalResultIsFailure(
            coopvecInterpret(mlirModuleGetOperation(module),
                             mlirStringRefCreateFromCString("f_grad"), 1, args,
                             4, &result, 1, printError, NULL)))
      return 1;
    for (int j = 0; j < 2; ++j)
      mismatches += dx[j] != kvDX[j];
    for (int64_t k = 0; k < KV_SIZE; ++k)
      mismatches += coopvecArrayGet(&g, k) != kvExpected(form, k, call);
  }
  return mismatches;
}

static void testKnownValues(MlirContext ctx, const char *t) {
  static const char *const forms[] = {"row_major", "col_major", "transpose",
                                      "training"};
  int numForms = strcmp(t, "f16") == 0 ? 4 : 3, mismatches = 0;
  for (int f = 0; f < numForms; ++f) {
    CoopvecBuffer source = {0};
    kvSource(&source, t, forms[f]);
    MlirModule module = load(ctx, coopvecBufferStr(&source), true);
    int bad =
        mlirModuleIsNull(module)
            ? 1
            : kvRun(module, forms[f],
                    strcmp(t, "f16") == 0 ? CoopvecDTypeF16 : CoopvecDTypeF32);
    if (bad)
      fprintf(stderr, "FAIL known values %s %s: %d mismatches\n", t, forms[f],
              bad);
    mismatches += bad;
    if (!mlirModuleIsNull(module))
      mlirModuleDestroy(module);
    coopvecBufferFree(&source);
  }
  fprintf(stderr, "known values %s: %s\n", t, mismatches ? "FAIL" : "PASS");
}

//===----------------------------------------------------------------------===//
// Ties: max / min send dY to the selected operand and split it in halves
// on a tie (central differences at a tie give the same halves); a NaN
// operand is never selected (maxNum / minNum). Checked against the rule,
// written out here, for max, min, relu (max with a constant 0) and tanh
// after max.
//===----------------------------------------------------------------------===//

enum { TIE_N = 8 };

static const char *const tieSource =
    "func.func @f(%a: $V, %b: $V) -> ($V, $V, $V, $V) {\n"
    "  %zero = arith.constant 0.0 : $T\n"
    "  %0 = \"coopvec.max\"(%a, %b) : ($V, $V) -> $V\n"
    "  %1 = \"coopvec.min\"(%a, %b) : ($V, $V) -> $V\n"
    "  %2 = \"coopvec.max\"(%a, %zero) : ($V, $T) -> $V\n"
    "  %3 = \"coopvec.tanh\"(%0) : ($V) -> $V\n"
    "  return %0, %1, %2, %3 : $V, $V, $V, $V\n"
    "}\n";

static const double tieA[TIE_N] = {1, 2, -1, 0, 0.5, 3, NAN, -4};
static const double tieB[TIE_N] = {1, 1, -1, 2, 0.5, -3, 5, NAN};

/// The weight of the first operand of max(a, b) (of min with `isMin`).
static double firstWeight(double a, double b, bool isMin) {
  if (isnan(a) || isnan(b))
    return isnan(a) ? 0.0 : 1.0;
  if (a == b)
    return 0.5;
  return (a > b) != isMin ? 1.0 : 0.0;
}

static void tieExpected(const double dy[4][TIE_N], double *da, double *db) {
  for (int i = 0; i < TIE_N; ++i) {
    double a = tieA[i], b = tieB[i];
    double m = fmax(a, b), t = tanh(m);
    double dm = dy[0][i] + dy[3][i] * (1 - t * t);
    double wMax = firstWeight(a, b, false), wMin = firstWeight(a, b, true);
    da[i] = dm * wMax + dy[1][i] * wMin + dy[2][i] * firstWeight(a, 0, false);
    db[i] = dm * (1 - wMax) + dy[1][i] * (1 - wMin);
  }
}

static int tieRun(MlirContext ctx, const char *t) {
  CoopvecBuffer source = {0};
  expand(&source, tieSource, t, TIE_N);
  MlirModule module = load(ctx, coopvecBufferStr(&source), true);
  coopvecBufferFree(&source);
  if (mlirModuleIsNull(module))
    return 1;
  CoopvecDType dtype =
      strcmp(t, "f16") == 0 ? CoopvecDTypeF16 : CoopvecDTypeF32;
  uint32_t raw[6][TIE_N];
  double dy[4][TIE_N], da[TIE_N], db[TIE_N], want[2][TIE_N];
  CoopvecArray args[6];
  for (int k = 0; k < 6; ++k)
    args[k] = (CoopvecArray){raw[k], dtype, TIE_N};
  for (int i = 0; i < TIE_N; ++i) {
    coopvecArraySet(&args[0], i, tieA[i]);
    coopvecArraySet(&args[1], i, tieB[i]);
    for (int r = 0; r < 4; ++r) {
      coopvecArraySet(&args[2 + r], i, 0.25 * (r + 1) + 0.125 * i);
      dy[r][i] = coopvecArrayGet(&args[2 + r], i);
    }
  }
  CoopvecArray results[2] = {{da, CoopvecDTypeF64, TIE_N},
                             {db, CoopvecDTypeF64, TIE_N}};
  bool ran = mlirLogicalResultIsSuccess(coopvecInterpret(
      mlirModuleGetOperation(module), mlirStringRefCreateFromCString("f_grad"),
      1, args, 6, results, 2, printError, NULL));
  mlirModuleDestroy(module);
  tieExpected((const double(*)[TIE_N])dy, want[0], want[1]);
  int mismatches = !ran;
  for (int i = 0; ran && i < TIE_N; ++i)
    mismatches += !(fabs(da[i] - want[0][i]) <= 1e-12) || // NaN mismatches
                  !(fabs(db[i] - want[1][i]) <= 1e-12);
  if (mismatches)
    fprintf(stderr, "FAIL ties %s: %d mismatches\n", t, mismatches);
  return mismatches;
}

int main(void) {
  MlirContext ctx = mlirContextCreate();
  if (mlirLogicalResultIsFailure(coopvecSetupContext(ctx)))
    return 1;
  testKnownValues(ctx, "f32");
  testKnownValues(ctx, "f16");
  int tieFailures = tieRun(ctx, "f32") + tieRun(ctx, "f16");
  fprintf(stderr, "ties: %s\n", tieFailures ? "FAIL" : "PASS");
  int cases = 0, failed = 0;
  runMatvecCases(ctx, &cases, &failed);
  runNetworkCases(ctx, &cases, &failed);
  runElementwiseCases(ctx, &cases, &failed);
  fprintf(stderr, "finite differences: %d cases, %d failed\n", cases, failed);
  mlirContextDestroy(ctx);
  return 0;
}
