//===- Jit.c - Compile and run <entry>_batched with the execution engine --===//
//
// The engine lowers a clone of the module (or the --lowered file) with the
// pipeline chosen when it was created, JIT-compiles it, checks every array
// against the signature and the function's memory accesses, and runs the
// batch on host threads (docs/execution-engine.md).
//
//===----------------------------------------------------------------------===//

// clock_gettime(CLOCK_MONOTONIC) is POSIX, not C11.
#define _POSIX_C_SOURCE 200809L

#include "Runner.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double nowSeconds(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (double)now.tv_sec + 1e-9 * (double)now.tv_nsec;
}

static void reportTimes(const Options *options, const CoopvecEngine *engine,
                        double runSeconds) {
  if (!options->time)
    return;
  double lowerSeconds, compileSeconds;
  coopvecEngineGetCompileTimes(engine, &lowerSeconds, &compileSeconds);
  int threads =
      options->threads ? (int)options->threads : coopvecGetDefaultNumThreads();
  char where[64];
  // A GPU run includes the transfers to and from the device.
  if (options->target == CoopvecTargetCPU)
    snprintf(where, sizeof(where), "on %d host thread%s", threads,
             threads == 1 ? "" : "s");
  else
    snprintf(where, sizeof(where), "on the %s device, with transfers",
             coopvecTargetGetName(options->target));
  fprintf(stderr,
          "coopvec-run: lowering %.3f ms, JIT compile %.3f ms, run %.3f ms "
          "(%.1f ns per thread) %s\n",
          1e3 * lowerSeconds, 1e3 * compileSeconds, 1e3 * runSeconds,
          1e9 * runSeconds / (double)options->batch, where);
  // The device's own timestamps, where the target measures them.
  double kernelSeconds = coopvecEngineGetDeviceSeconds(engine);
  if (kernelSeconds >= 0)
    fprintf(stderr,
            "coopvec-run: kernel %.3f ms (%.1f ns per thread) by the "
            "device's timestamps\n",
            1e3 * kernelSeconds, 1e9 * kernelSeconds / (double)options->batch);
}

/// The engine's view of the host arrays.
static CoopvecArray *viewsOf(CoopvecNpyArray *arrays, intptr_t count) {
  CoopvecArray *views = calloc((size_t)count + 1, sizeof(CoopvecArray));
  for (intptr_t i = 0; views && i < count; ++i)
    views[i] = arrays[i].array;
  return views;
}

MlirLogicalResult jitRun(const Options *options, CoopvecEngine *engine,
                         const Signature *signature, CoopvecNpyArray *inputs,
                         CoopvecNpyArray *results) {
  if (coopvecEngineCompile(engine) != CoopvecStatusSuccess) {
    runError("%s", coopvecEngineGetError(engine));
    return mlirLogicalResultFailure();
  }
  CoopvecArray *args = viewsOf(inputs, signature->numArgs);
  CoopvecArray *outs = viewsOf(results, signature->numResults);
  CoopvecStatus status = CoopvecStatusOutOfMemory;
  double start = nowSeconds();
  if (args && outs)
    status = coopvecFunctionRun(signature->function, options->batch, args,
                                signature->numArgs, outs, signature->numResults,
                                (int)options->threads);
  double ranAt = nowSeconds();
  bool allocated = args && outs;
  free(args);
  free(outs);
  if (status != CoopvecStatusSuccess) {
    runError("%s", allocated ? coopvecEngineGetError(engine) : "out of memory");
    return mlirLogicalResultFailure();
  }
  reportTimes(options, engine, ranAt - start);
  return mlirLogicalResultSuccess();
}
