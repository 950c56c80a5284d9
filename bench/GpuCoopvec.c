//===- GpuCoopvec.c - The coopvec variants of bench/mlp-gpu ---------------===//
//
// The public execution engine with the CUDA target, as a user calls it:
// each coopvecFunctionRun copies the inputs and weights in, launches one
// kernel and copies the outputs back. The benchmark reports the kernel's
// time, which the engine measures with CUDA events around the launch
// (coopvecEngineGetDeviceSeconds).
//
//===----------------------------------------------------------------------===//

#include "MlpGpu.h"
#include "Timing.h"

#include "coopvec-c/Dialect.h"
#include "coopvec-c/ExecutionEngine.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/IR.h>

#include <stdio.h>
#include <stdlib.h>

struct GpuCoopvec {
  MlirContext context;
  CoopvecEngine *engine;
  CoopvecFunction *function;
};

/// Prints "mlp-gpu: <call> failed: <status>: <the engine's message>".
static bool engineFailed(const CoopvecEngine *engine, CoopvecStatus status,
                         const char *call) {
  fprintf(stderr, "mlp-gpu: %s failed: %s: %s\n", call,
          coopvecStatusGetName(status),
          engine ? coopvecEngineGetError(engine) : "no engine");
  return false;
}

/// A module holding only @name of bench/mlp-gpu.mlir, so that the engine
/// compiles (and its compile time counts) that one function.
static MlirModule parseFunction(MlirContext context, const char *name) {
  MlirModule all = mlirModuleCreateParse(
      context, mlirStringRefCreateFromCString(mlpGpuSource));
  if (mlirModuleIsNull(all))
    return all;
  MlirModule one = mlirModuleCreateEmpty(mlirLocationUnknownGet(context));
  MlirStringRef wanted = mlirStringRefCreateFromCString(name);
  for (MlirOperation op = mlirBlockGetFirstOperation(mlirModuleGetBody(all));
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    MlirAttribute symbol = mlirOperationGetAttributeByName(
        op, mlirStringRefCreateFromCString("sym_name"));
    if (!mlirAttributeIsNull(symbol) &&
        mlirStringRefEqual(mlirStringAttrGetValue(symbol), wanted))
      mlirBlockAppendOwnedOperation(mlirModuleGetBody(one),
                                    mlirOperationClone(op));
  }
  mlirModuleDestroy(all);
  return one;
}

static bool compile(GpuCoopvec *coopvec, const GpuDevice *device,
                    const GpuMlp *mlp, const char *pipeline) {
  MlirModule module = parseFunction(coopvec->context, mlp->function);
  if (mlirModuleIsNull(module)) {
    fprintf(stderr, "mlp-gpu: bench/mlp-gpu.mlir does not parse\n");
    return false;
  }
  CoopvecEngineOptions options = coopvecEngineOptionsGetDefault();
  options.target = CoopvecTargetCUDA;
  options.pipeline = pipeline;
  options.device = device->ordinal;
  // The engine keeps a clone of the module.
  CoopvecStatus status = coopvecEngineCreate(mlirModuleGetOperation(module),
                                             &options, &coopvec->engine);
  mlirModuleDestroy(module);
  if (status)
    return engineFailed(coopvec->engine, status, "coopvecEngineCreate");
  status = coopvecEngineCompile(coopvec->engine);
  if (status)
    return engineFailed(coopvec->engine, status, "coopvecEngineCompile");
  status =
      coopvecEngineLookup(coopvec->engine, mlp->function, &coopvec->function);
  if (status)
    return engineFailed(coopvec->engine, status, "coopvecEngineLookup");
  return true;
}

GpuCoopvec *gpuCoopvecOpen(const GpuDevice *device, const GpuMlp *mlp,
                           const char *pipeline) {
  GpuCoopvec *coopvec = calloc(1, sizeof(GpuCoopvec));
  if (!coopvec) {
    fprintf(stderr, "mlp-gpu: out of memory\n");
    return NULL;
  }
  coopvec->context = mlirContextCreate();
  if (mlirLogicalResultIsFailure(coopvecSetupContext(coopvec->context))) {
    fprintf(stderr, "mlp-gpu: coopvecSetupContext failed\n");
    gpuCoopvecClose(coopvec);
    return NULL;
  }
  if (compile(coopvec, device, mlp, pipeline))
    return coopvec;
  gpuCoopvecClose(coopvec);
  return NULL;
}

void gpuCoopvecCompileTimes(const GpuCoopvec *coopvec, double *lowering,
                            double *jit) {
  coopvecEngineGetCompileTimes(coopvec->engine, lowering, jit);
}

/// One run: its wall-clock seconds and the kernel's (< 0 where the engine
/// did not measure them).
static bool timedRun(GpuCoopvec *coopvec, const GpuProblem *problem,
                     uint16_t *y, double *wall, double *kernel) {
  CoopvecArray args[2] = {
      {(void *)problem->x, CoopvecDTypeF16, problem->batch * GPU_MLP_INPUTS},
      {(void *)problem->w, CoopvecDTypeF16, problem->mlp->numWeights}};
  CoopvecArray result = {y, CoopvecDTypeF16, problem->batch * GPU_MLP_OUTPUTS};
  double start = benchSeconds();
  CoopvecStatus status = coopvecFunctionRun(coopvec->function, problem->batch,
                                            args, 2, &result, 1, 0);
  *wall = benchSeconds() - start;
  if (status)
    return engineFailed(coopvec->engine, status, "coopvecFunctionRun");
  *kernel = coopvecEngineGetDeviceSeconds(coopvec->engine);
  return true;
}

bool gpuCoopvecRun(GpuCoopvec *coopvec, const GpuProblem *problem, int reps,
                   uint16_t *y, GpuTiming *timing) {
  double wall[GPU_MLP_MAX_REPS], kernel[GPU_MLP_MAX_REPS];
  if (!timedRun(coopvec, problem, y, &wall[0], &kernel[0])) // warm-up
    return false;
  bool measured = true;
  for (int rep = 0; rep < reps; ++rep) {
    if (!timedRun(coopvec, problem, y, &wall[rep], &kernel[rep]))
      return false;
    measured = measured && kernel[rep] >= 0;
  }
  if (!measured)
    fprintf(stderr,
            "mlp-gpu: coopvecEngineGetDeviceSeconds < 0 (the engine did not "
            "time the kernel): reporting the wall time of whole runs, "
            "copies included\n");
  timing->medianMs = 1e3 * benchMedian(measured ? kernel : wall, reps);
  timing->timed = measured ? "kernel" : "wall";
  return true;
}

void gpuCoopvecClose(GpuCoopvec *coopvec) {
  if (!coopvec)
    return;
  coopvecEngineDestroy(coopvec->engine); // before its context
  mlirContextDestroy(coopvec->context);
  free(coopvec);
}
