//===- autodiff-train.c - C API: train an MLP with coopvec-autodiff -------===//
//
// End to end: a per-thread loss 0.5 (mlp(x) - t)^2 of a 2 -> 16 (tanh) -> 1
// MLP, its gradient made by coopvec-autodiff, both lowered with
// coopvec-lower-to-cpu and JIT-compiled with MLIR's execution engine
// (mlirExecutionEngineCreate). A plain C loop then runs full-batch
// gradient descent on 256 samples of t = x0 x1 + sin(2 x0) / 2: each step
// zeroes the gradient buffer, calls @loss_grad for every sample (one
// thread each, dL = 1), which adds the weight gradients summed over the
// batch, and moves the weights against their mean.
//
// Checks: the first gradient equals the reference interpreter's (run on
// the module before lowering), and the mean loss falls by at least a
// factor of 10 within 400 steps (it falls by about 25 here).
//
//===----------------------------------------------------------------------===//

// RUN: coopvec-capi-autodiff-train 2>&1 | FileCheck %s
// CHECK: step 0: mean loss
// CHECK: first gradient matches the interpreter: PASS
// CHECK: step 400: mean loss
// CHECK: loss fell by a factor of {{[0-9.]+}} (at least 10): PASS

#include "coopvec-c/Dialect.h"
#include "coopvec-c/HostArray.h"
#include "coopvec-c/Interpreter.h"
#include "coopvec-c/Passes.h"

#include <mlir-c/ExecutionEngine.h>
#include <mlir-c/IR.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// Weights in one buffer: W1 16x2 row-major at 0, b1 at 32, W2 1x16
// column-major at element 48 (byte 192), b2 at 64.
enum {
  kHidden = 16,
  kW1 = 0,
  kB1 = 32,
  kW2 = 48,
  kB2 = 64,
  kWeights = 68,
  kSamples = 256,
  kSteps = 400,
};

static const char *const kSource =
    "func.func @loss(%x: !coopvec.vec<2, f32>, %t: !coopvec.vec<1, f32>,\n"
    "                %w: memref<?xf32>) -> !coopvec.vec<1, f32> {\n"
    "  %c32 = arith.constant 32 : index\n"
    "  %c64 = arith.constant 64 : index\n"
    "  %half = arith.constant 0.5 : f32\n"
    "  %W1 = \"coopvec.matrix_view\"(%w) {offset = 0} : (memref<?xf32>) -> "
    "!coopvec.matrix<16, 2, f32, \"row_major\">\n"
    "  %b1 = \"coopvec.load\"(%w, %c32) : (memref<?xf32>, index) -> "
    "!coopvec.vec<16, f32>\n"
    "  %h = \"coopvec.matvec\"(%W1, %x, %b1) : (!coopvec.matrix<16, 2, f32, "
    "\"row_major\">, !coopvec.vec<2, f32>, !coopvec.vec<16, f32>) -> "
    "!coopvec.vec<16, f32>\n"
    "  %a = \"coopvec.tanh\"(%h) : (!coopvec.vec<16, f32>) -> "
    "!coopvec.vec<16, f32>\n"
    "  %W2 = \"coopvec.matrix_view\"(%w) {offset = 192} : (memref<?xf32>) "
    "-> !coopvec.matrix<1, 16, f32, \"col_major\">\n"
    "  %b2 = \"coopvec.load\"(%w, %c64) : (memref<?xf32>, index) -> "
    "!coopvec.vec<1, f32>\n"
    "  %y = \"coopvec.matvec\"(%W2, %a, %b2) : (!coopvec.matrix<1, 16, f32, "
    "\"col_major\">, !coopvec.vec<16, f32>, !coopvec.vec<1, f32>) -> "
    "!coopvec.vec<1, f32>\n"
    "  %d = \"coopvec.sub\"(%y, %t) : (!coopvec.vec<1, f32>, "
    "!coopvec.vec<1, f32>) -> !coopvec.vec<1, f32>\n"
    "  %dd = \"coopvec.mul\"(%d, %d) : (!coopvec.vec<1, f32>, "
    "!coopvec.vec<1, f32>) -> !coopvec.vec<1, f32>\n"
    "  %l = \"coopvec.mul\"(%dd, %half) : (!coopvec.vec<1, f32>, f32) -> "
    "!coopvec.vec<1, f32>\n"
    "  return %l : !coopvec.vec<1, f32>\n"
    "}\n";

/// A rank-1 memref descriptor as the _mlir_ciface_ wrappers take it.
typedef struct MemRef1D {
  float *allocated, *aligned;
  int64_t offset, sizes[1], strides[1];
} MemRef1D;

typedef void (*LossFn)(int64_t, MemRef1D *, MemRef1D *, MemRef1D *, MemRef1D *);
typedef void (*GradFn)(int64_t, MemRef1D *, MemRef1D *, MemRef1D *, MemRef1D *,
                       MemRef1D *, MemRef1D *, MemRef1D *);

static MemRef1D describe(float *data, int64_t size) {
  MemRef1D ref = {data, data, 0, {size}, {1}};
  return ref;
}

static void printError(MlirStringRef message, void *userData) {
  (void)userData;
  fprintf(stderr, "%.*s\n", (int)message.length, message.data);
}

static int runPipeline(MlirContext ctx, MlirModule module,
                       const char *pipeline) {
  MlirPassManager pm = mlirPassManagerCreateOnOperation(
      ctx, mlirStringRefCreateFromCString("builtin.module"));
  MlirLogicalResult result = coopvecParsePassPipeline(
      mlirPassManagerGetAsOpPassManager(pm),
      mlirStringRefCreateFromCString(pipeline), true, printError, NULL);
  if (mlirLogicalResultIsSuccess(result))
    result = mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(module));
  mlirPassManagerDestroy(pm);
  return mlirLogicalResultIsSuccess(result);
}

/// Deterministic values in [-1, 1) (splitmix64).
static float uniform(uint64_t *state) {
  uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  z ^= z >> 31;
  return (float)((double)(z >> 40) / (double)(1ull << 23) - 1.0);
}

typedef struct Problem {
  float x[2 * kSamples], t[kSamples], w[kWeights], g[kWeights];
  float loss[kSamples], ones[kSamples], dx[2 * kSamples], dt[kSamples];
} Problem;

static void initProblem(Problem *p) {
  uint64_t seed = 2026;
  for (int s = 0; s < kSamples; ++s) {
    float x0 = uniform(&seed), x1 = uniform(&seed);
    p->x[2 * s] = x0;
    p->x[2 * s + 1] = x1;
    p->t[s] = x0 * x1 + 0.5f * sinf(2.0f * x0);
    p->ones[s] = 1.0f;
  }
  memset(p->w, 0, sizeof(p->w));
  for (int i = 0; i < 2 * kHidden; ++i)
    p->w[kW1 + i] = uniform(&seed);
  for (int i = 0; i < kHidden; ++i)
    p->w[kW2 + i] = 0.5f * uniform(&seed);
}

static double meanLoss(Problem *p, LossFn loss) {
  MemRef1D x = describe(p->x, 2 * kSamples), t = describe(p->t, kSamples),
           w = describe(p->w, kWeights), l = describe(p->loss, kSamples);
  loss(kSamples, &x, &t, &w, &l);
  double sum = 0.0;
  for (int s = 0; s < kSamples; ++s)
    sum += p->loss[s];
  return sum / kSamples;
}

/// g = the gradient of the summed loss, by the JIT-compiled @loss_grad.
static void gradient(Problem *p, GradFn grad) {
  memset(p->g, 0, sizeof(p->g));
  MemRef1D x = describe(p->x, 2 * kSamples), t = describe(p->t, kSamples),
           w = describe(p->w, kWeights), g = describe(p->g, kWeights),
           dl = describe(p->ones, kSamples), dx = describe(p->dx, 2 * kSamples),
           dt = describe(p->dt, kSamples);
  grad(kSamples, &x, &t, &w, &g, &dl, &dx, &dt);
}

/// Whether the JIT's first gradient p->g equals the interpreter's on the
/// unlowered module: sums over 256 threads in f32 against double, so
/// agreement to 1e-4 of the largest entry.
static int matchesInterpreter(MlirModule module, Problem *p) {
  float g[kWeights] = {0};
  double dx[2 * kSamples], dt[kSamples];
  CoopvecArray args[5] = {{p->x, CoopvecDTypeF32, 2 * kSamples},
                          {p->t, CoopvecDTypeF32, kSamples},
                          {p->w, CoopvecDTypeF32, kWeights},
                          {g, CoopvecDTypeF32, kWeights},
                          {p->ones, CoopvecDTypeF32, kSamples}};
  CoopvecArray results[2] = {{dx, CoopvecDTypeF64, 2 * kSamples},
                             {dt, CoopvecDTypeF64, kSamples}};
  if (mlirLogicalResultIsFailure(
          coopvecInterpret(mlirModuleGetOperation(module),
                           mlirStringRefCreateFromCString("loss_grad"),
                           kSamples, args, 5, results, 2, printError, NULL)))
    return 0;
  double scale = 0.0, error = 0.0;
  for (int i = 0; i < kWeights; ++i) {
    scale = fmax(scale, fabs(g[i]));
    error = fmax(error, fabs((double)g[i] - p->g[i]));
  }
  return scale > 0.0 && error <= 1e-4 * scale;
}

/// Lowers a copy of `module` into *lowered and JIT-compiles it (null on
/// failure); *lowered stays alive as long as the engine.
static MlirExecutionEngine compile(MlirContext ctx, MlirModule module,
                                   MlirModule *lowered) {
  *lowered = mlirModuleFromOperation(
      mlirOperationClone(mlirModuleGetOperation(module)));
  if (!runPipeline(ctx, *lowered, "builtin.module(coopvec-lower-to-cpu)"))
    return (MlirExecutionEngine){NULL};
  return mlirExecutionEngineCreate(*lowered, 3, 0, NULL, false, false);
}

static double train(MlirModule module, LossFn loss, GradFn grad) {
  static Problem p;
  initProblem(&p);
  double first = meanLoss(&p, loss), last = first;
  fprintf(stderr, "step 0: mean loss %.6f\n", first);
  for (int step = 1; step <= kSteps; ++step) {
    gradient(&p, grad);
    if (step == 1)
      fprintf(stderr, "first gradient matches the interpreter: %s\n",
              matchesInterpreter(module, &p) ? "PASS" : "FAIL");
    for (int i = 0; i < kWeights; ++i)
      p.w[i] -= 0.5f * p.g[i] / kSamples;
    if (step % 100 == 0) {
      last = meanLoss(&p, loss);
      fprintf(stderr, "step %d: mean loss %.6f\n", step, last);
    }
  }
  return first / last;
}

int main(void) {
  MlirContext ctx = mlirContextCreate();
  coopvecSetupContext(ctx);
  MlirModule module =
      mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(kSource));
  if (mlirModuleIsNull(module) ||
      !runPipeline(ctx, module, "builtin.module(coopvec-autodiff{func=loss})"))
    return 1;
  MlirModule lowered;
  MlirExecutionEngine jit = compile(ctx, module, &lowered);
  if (mlirExecutionEngineIsNull(jit))
    return 1;
  LossFn loss = (LossFn)mlirExecutionEngineLookup(
      jit, mlirStringRefCreateFromCString("_mlir_ciface_loss_batched"));
  GradFn grad = (GradFn)mlirExecutionEngineLookup(
      jit, mlirStringRefCreateFromCString("_mlir_ciface_loss_grad_batched"));
  if (!loss || !grad)
    return 1;
  double factor = train(module, loss, grad);
  fprintf(stderr, "loss fell by a factor of %.1f (at least 10): %s\n", factor,
          factor >= 10.0 ? "PASS" : "FAIL");
  mlirExecutionEngineDestroy(jit);
  mlirModuleDestroy(lowered);
  mlirModuleDestroy(module);
  mlirContextDestroy(ctx);
  return 0;
}
