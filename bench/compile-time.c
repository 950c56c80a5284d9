//===- compile-time.c - Compile time of coopvec programs by size ----------===//
//
// Times parsing, lowering (coopvec-lower-to-cpu) and JIT compilation (LLVM
// -O3 through MLIR's execution engine) of generated programs, to show how
// compile time grows with program size (docs/performance.md):
//   - the case of the architecture issue: an elementwise function on
//     vec<127, f32> with 8 results;
//   - MLPs of `depth` layers of width `width` (matvec + bias + ReLU);
//   - elementwise chains of `depth` ops on vec<width, f32>.
// Every case is compiled `repetitions` times in a fresh context; the table
// shows medians. Usage: compile-time [repetitions]   (default 3)
//
//===----------------------------------------------------------------------===//

// clock_gettime(CLOCK_MONOTONIC) is POSIX, not C11.
#define _POSIX_C_SOURCE 200809L

#include "coopvec-c/Coopvec.h"

#include <mlir-c/ExecutionEngine.h>
#include <mlir-c/Pass.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double nowMs(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return 1e3 * (double)now.tv_sec + 1e-6 * (double)now.tv_nsec;
}

//===----------------------------------------------------------------------===//
// Programs
//===----------------------------------------------------------------------===//

/// `depth` layers relu(W x + b) of width x width, f32, weights packed.
static void generateMlp(CoopvecBuffer *text, int width, int depth) {
  coopvecBufferAppendf(text,
                       "func.func @f(%%x: !coopvec.vec<%d, f32>, %%w: "
                       "memref<?xf32>) -> !coopvec.vec<%d, f32> {\n"
                       "  %%zero = arith.constant 0.0 : f32\n",
                       width, width);
  const char *input = "%x";
  char previous[32];
  // Each layer: W (width^2 floats) then b (width floats); widths are
  // multiples of 16, so every matrix starts 16-byte aligned.
  long layerFloats = (long)width * width + width;
  for (int l = 0; l < depth; ++l) {
    long offset = l * layerFloats;
    coopvecBufferAppendf(
        text,
        "  %%W%d = \"coopvec.matrix_view\"(%%w) {offset = %ld} : "
        "(memref<?xf32>) -> !coopvec.matrix<%d, %d, f32, \"row_major\">\n"
        "  %%o%d = arith.constant %ld : index\n"
        "  %%b%d = \"coopvec.load\"(%%w, %%o%d) : (memref<?xf32>, index) -> "
        "!coopvec.vec<%d, f32>\n"
        "  %%y%d = \"coopvec.matvec\"(%%W%d, %s, %%b%d) : "
        "(!coopvec.matrix<%d, %d, f32, \"row_major\">, !coopvec.vec<%d, f32>, "
        "!coopvec.vec<%d, f32>) -> !coopvec.vec<%d, f32>\n"
        "  %%h%d = \"coopvec.max\"(%%y%d, %%zero) : (!coopvec.vec<%d, f32>, "
        "f32) -> !coopvec.vec<%d, f32>\n",
        l, 4 * offset, width, width, l, offset + (long)width * width, l, l,
        width, l, l, input, l, width, width, width, width, width, l, l, width,
        width);
    snprintf(previous, sizeof(previous), "%%h%d", l);
    input = previous;
  }
  coopvecBufferAppendf(text, "  return %s : !coopvec.vec<%d, f32>\n}\n", input,
                       width);
}

/// A chain of `depth` elementwise ops on two vec<width, f32> arguments; the
/// last `results` values are returned.
static void generateElementwise(CoopvecBuffer *text, int width, int depth,
                                int results) {
  static const char *const ops[] = {"add", "mul", "max", "sub", "min", "fma"};
  char type[48];
  snprintf(type, sizeof(type), "!coopvec.vec<%d, f32>", width);
  coopvecBufferAppendf(text, "func.func @f(%%a: %s, %%b: %s) -> (", type, type);
  for (int r = 0; r < results; ++r)
    coopvecBufferAppendf(text, "%s%s", r ? ", " : "", type);
  coopvecBufferAppendStr(text, ") {\n");
  for (int d = 0; d < depth; ++d) {
    const char *op = ops[d % 6];
    char lhs[16] = "%a";
    if (d)
      snprintf(lhs, sizeof(lhs), "%%v%d", d - 1);
    if (d % 6 == 5)
      coopvecBufferAppendf(text,
                           "  %%v%d = \"coopvec.fma\"(%s, %%b, %s) : (%s, %s, "
                           "%s) -> %s\n",
                           d, lhs, lhs, type, type, type, type);
    else
      coopvecBufferAppendf(text,
                           "  %%v%d = \"coopvec.%s\"(%s, %%b) : (%s, %s) -> "
                           "%s\n",
                           d, op, lhs, type, type, type);
  }
  coopvecBufferAppendStr(text, "  return ");
  for (int r = 0; r < results; ++r)
    coopvecBufferAppendf(text, "%s%%v%d", r ? ", " : "", depth - results + r);
  coopvecBufferAppendStr(text, " : ");
  for (int r = 0; r < results; ++r)
    coopvecBufferAppendf(text, "%s%s", r ? ", " : "", type);
  coopvecBufferAppendStr(text, "\n}\n");
}

//===----------------------------------------------------------------------===//
// Timing
//===----------------------------------------------------------------------===//

typedef struct Times {
  double lower, jit;
} Times;

static void printToStderr(MlirStringRef text, void *userData) {
  (void)userData;
  fwrite(text.data, 1, text.length, stderr);
}

/// Lowers and JIT-compiles `text` once; false on any failure.
static bool compileOnce(const CoopvecBuffer *text, Times *times) {
  MlirContext ctx = mlirContextCreate();
  bool ok = mlirLogicalResultIsSuccess(coopvecSetupContext(ctx));
  MlirModule module =
      mlirModuleCreateParse(ctx, mlirStringRefCreate(text->data, text->size));
  ok = ok && !mlirModuleIsNull(module);
  MlirPassManager pm = mlirPassManagerCreateOnOperation(
      ctx, mlirStringRefCreateFromCString("builtin.module"));
  double start = nowMs();
  ok = ok &&
       mlirLogicalResultIsSuccess(coopvecParsePassPipeline(
           mlirPassManagerGetAsOpPassManager(pm),
           mlirStringRefCreateFromCString("coopvec-lower-to-cpu"), false,
           printToStderr, NULL)) &&
       mlirLogicalResultIsSuccess(
           mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(module)));
  double lowered = nowMs();
  MlirExecutionEngine engine = {NULL};
  if (ok)
    engine = mlirExecutionEngineCreate(module, 3, 0, NULL, false, false);
  ok = ok && !mlirExecutionEngineIsNull(engine) &&
       mlirExecutionEngineLookupPacked(
           engine, mlirStringRefCreateFromCString("_mlir_ciface_f_batched"));
  double compiled = nowMs();
  times->lower = lowered - start;
  times->jit = compiled - lowered;
  if (!mlirExecutionEngineIsNull(engine))
    mlirExecutionEngineDestroy(engine);
  mlirPassManagerDestroy(pm);
  if (!mlirModuleIsNull(module))
    mlirModuleDestroy(module);
  mlirContextDestroy(ctx);
  return ok;
}

static int compareDoubles(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

enum { MAX_REPETITIONS = 15 };

/// Medians of `repetitions` compilations; false on failure.
static bool measure(const CoopvecBuffer *text, int repetitions, Times *median) {
  double lower[MAX_REPETITIONS], jit[MAX_REPETITIONS];
  for (int r = 0; r < repetitions; ++r) {
    Times times;
    if (!compileOnce(text, &times))
      return false;
    lower[r] = times.lower;
    jit[r] = times.jit;
  }
  qsort(lower, (size_t)repetitions, sizeof(double), compareDoubles);
  qsort(jit, (size_t)repetitions, sizeof(double), compareDoubles);
  median->lower = lower[repetitions / 2];
  median->jit = jit[repetitions / 2];
  return true;
}

static bool report(const char *kind, int width, int depth, int ops,
                   const CoopvecBuffer *text, int repetitions, double *total) {
  Times t;
  if (!measure(text, repetitions, &t)) {
    fprintf(stderr, "compile-time: %s width %d depth %d failed\n", kind, width,
            depth);
    return false;
  }
  *total = t.lower + t.jit;
  printf("| %-11s | %5d | %5d | %5d | %9.1f | %9.1f | %9.1f | %7.2f |\n", kind,
         width, depth, ops, t.lower, t.jit, *total, *total / ops);
  return true;
}

int main(int argc, char **argv) {
  int repetitions = argc > 1 ? atoi(argv[1]) : 3;
  if (repetitions < 1 || repetitions > MAX_REPETITIONS) {
    fprintf(stderr, "usage: compile-time [repetitions 1..%d]\n",
            MAX_REPETITIONS);
    return 1;
  }
  printf("coopvec-lower-to-cpu + JIT (-O3) for the host CPU, median of %d "
         "runs, ms\n",
         repetitions);
  printf("| program     | width | depth |   ops |  lower ms |    JIT ms |  "
         "total ms | ms/op   |\n");
  static const int widths[] = {16, 32, 64, 128};
  static const int depths[] = {1, 2, 4, 8, 16, 32, 64};
  bool ok = true;
  double total = 0; // report() sets it; gcc -O3 cannot see that it always does
  CoopvecBuffer text = {0};
  generateElementwise(&text, 127, 8, 8);
  ok &= report("issue-case", 127, 8, 8, &text, repetitions, &total);
  for (size_t f = 0; f < 2; ++f) {
    for (size_t w = 0; w < sizeof(widths) / sizeof(widths[0]); ++w) {
      double previous = 0;
      for (size_t d = 0; d < sizeof(depths) / sizeof(depths[0]); ++d) {
        coopvecBufferClear(&text);
        int width = widths[w], depth = depths[d];
        if (f == 0)
          generateMlp(&text, width, depth);
        else
          generateElementwise(&text, width, depth, depth < 8 ? depth : 8);
        // An MLP layer is 4 ops (view, load, matvec, max).
        int ops = f == 0 ? 4 * depth : depth;
        ok &= report(f == 0 ? "mlp" : "elementwise", width, depth, ops, &text,
                     repetitions, &total);
        if (previous > 0)
          printf("|   growth x%.2f for x%.0f ops\n", total / previous,
                 (double)depths[d] / depths[d - 1]);
        previous = total;
      }
    }
  }
  coopvecBufferFree(&text);
  return ok ? 0 : 1;
}
