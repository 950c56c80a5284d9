//===- GpuCoopvec.c - The coopvec variants of bench/mlp-gpu ---------------===//
//
// The public execution engine with the CUDA target, as a user calls it:
// each coopvecFunctionRun copies the inputs and weights in, launches one
// kernel and copies the outputs back. The benchmark reports the kernel's
// time, which the engine measures with CUDA events around the launch
// (coopvecEngineGetDeviceSeconds).
//
// The training step's gradient is made from the same embedded
// bench/mlp-gpu.mlir at startup, by coopvec-autodiff through the C API
// (coopvecParsePassPipeline), rather than by coopvec-opt at build time:
// the binary stays self-contained, and the gradient always comes from the
// forward it is checked beside and from the library that compiles it.
//
//===----------------------------------------------------------------------===//

#include "MlpGpu.h"
#include "Timing.h"

#include "coopvec-c/Dialect.h"
#include "coopvec-c/ExecutionEngine.h"
#include "coopvec-c/Passes.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/IR.h>
#include <mlir-c/Pass.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/// A module holding a clone of @name of `all` only, so that the engine
/// compiles (and its compile time counts) that one function.
static MlirModule extractFunction(MlirModule all, const char *name) {
  MlirContext context = mlirModuleGetContext(all);
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
  return one;
}

static MlirModule parseSource(MlirContext context) {
  MlirModule all = mlirModuleCreateParse(
      context, mlirStringRefCreateFromCString(mlpGpuSource));
  if (mlirModuleIsNull(all))
    fprintf(stderr, "mlp-gpu: bench/mlp-gpu.mlir does not parse\n");
  return all;
}

static void printPipelineError(MlirStringRef message, void *userData) {
  (void)userData;
  fprintf(stderr, "%.*s", (int)message.length, message.data);
}

/// Adds @function_grad to `module` (its diagnostics go to stderr).
static bool differentiate(MlirModule module, const char *function) {
  char pipeline[128];
  snprintf(pipeline, sizeof(pipeline),
           "builtin.module(coopvec-autodiff{func=%s input-gradients=false})",
           function);
  MlirContext context = mlirModuleGetContext(module);
  MlirPassManager pm = mlirPassManagerCreateOnOperation(
      context, mlirStringRefCreateFromCString("builtin.module"));
  MlirLogicalResult result =
      coopvecParsePassPipeline(mlirPassManagerGetAsOpPassManager(pm),
                               mlirStringRefCreateFromCString(pipeline), false,
                               printPipelineError, NULL);
  if (mlirLogicalResultIsSuccess(result))
    result = mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(module));
  mlirPassManagerDestroy(pm);
  if (mlirLogicalResultIsFailure(result))
    fprintf(stderr, "mlp-gpu: %s failed\n", pipeline);
  return mlirLogicalResultIsSuccess(result);
}

/// The module to compile: @function of bench/mlp-gpu.mlir, or (`gradient`)
/// its @function_grad alone; null after printing why.
static MlirModule buildModule(MlirContext context, const char *function,
                              bool gradient, char *name, size_t size) {
  snprintf(name, size, gradient ? "%s_grad" : "%s", function);
  MlirModule all = parseSource(context);
  if (mlirModuleIsNull(all))
    return all;
  MlirModule one = (MlirModule){NULL};
  if (!gradient || differentiate(all, function))
    one = extractFunction(all, name);
  mlirModuleDestroy(all);
  return one;
}

/// Compiles @name of `module` (which it destroys) for `device` (NULL: the
/// CPU target).
static bool compile(GpuCoopvec *coopvec, const GpuDevice *device,
                    MlirModule module, const char *name, const char *pipeline) {
  CoopvecEngineOptions options = coopvecEngineOptionsGetDefault();
  options.target = device ? CoopvecTargetCUDA : CoopvecTargetCPU;
  options.pipeline = pipeline;
  options.device = device ? device->ordinal : 0;
  // The engine keeps a clone of the module.
  CoopvecStatus status = coopvecEngineCreate(mlirModuleGetOperation(module),
                                             &options, &coopvec->engine);
  mlirModuleDestroy(module);
  if (status)
    return engineFailed(coopvec->engine, status, "coopvecEngineCreate");
  status = coopvecEngineCompile(coopvec->engine);
  if (status)
    return engineFailed(coopvec->engine, status, "coopvecEngineCompile");
  status = coopvecEngineLookup(coopvec->engine, name, &coopvec->function);
  if (status)
    return engineFailed(coopvec->engine, status, "coopvecEngineLookup");
  return true;
}

/// A variant of @mlp_reluW or of its gradient; NULL after printing why.
static GpuCoopvec *openVariant(const GpuDevice *device, const GpuMlp *mlp,
                               const char *pipeline, bool gradient) {
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
  char name[64];
  MlirModule module = buildModule(coopvec->context, mlp->function, gradient,
                                  name, sizeof(name));
  if (!mlirModuleIsNull(module) &&
      compile(coopvec, device, module, name, pipeline))
    return coopvec;
  gpuCoopvecClose(coopvec);
  return NULL;
}

GpuCoopvec *gpuCoopvecOpen(const GpuDevice *device, const GpuMlp *mlp,
                           const char *pipeline) {
  return openVariant(device, mlp, pipeline, false);
}

GpuCoopvec *gpuCoopvecOpenGradient(const GpuDevice *device, const GpuMlp *mlp,
                                   const char *pipeline) {
  return openVariant(device, mlp, pipeline, true);
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

/// One training step into `grad`, zeroed first: its wall-clock seconds and
/// the kernel's (< 0 where the engine did not measure them).
static bool timedStep(GpuCoopvec *coopvec, const GpuTrainProblem *problem,
                      uint16_t *grad, double *wall, double *kernel) {
  const GpuMlp *mlp = problem->mlp;
  memset(grad, 0, (size_t)mlp->numWeights * sizeof(*grad));
  // @mlp_reluW_grad(x, w, grad_w, dy); no results (input-gradients=false).
  CoopvecArray args[4] = {
      {(void *)problem->x, CoopvecDTypeF16, problem->batch * GPU_MLP_INPUTS},
      {(void *)problem->w, CoopvecDTypeF16, mlp->numWeights},
      {grad, CoopvecDTypeF16, mlp->numWeights},
      {(void *)problem->dy, CoopvecDTypeF16, problem->batch * GPU_MLP_OUTPUTS}};
  double start = benchSeconds();
  CoopvecStatus status = coopvecFunctionRun(coopvec->function, problem->batch,
                                            args, 4, NULL, 0, 0);
  *wall = benchSeconds() - start;
  if (status)
    return engineFailed(coopvec->engine, status, "coopvecFunctionRun");
  *kernel = coopvecEngineGetDeviceSeconds(coopvec->engine);
  return true;
}

bool gpuCoopvecTrain(GpuCoopvec *coopvec, const GpuTrainProblem *problem,
                     int reps, double maxSeconds, uint16_t *grad,
                     GpuTrainTiming *timing) {
  double wall[GPU_MLP_MAX_REPS], kernel[GPU_MLP_MAX_REPS], spent = 0;
  if (!timedStep(coopvec, problem, grad, &wall[0], &kernel[0])) // warm-up
    return false;
  bool measured = true;
  int rep = 0;
  while (rep < reps && (rep == 0 || spent < maxSeconds)) {
    if (!timedStep(coopvec, problem, grad, &wall[rep], &kernel[rep]))
      return false;
    measured = measured && kernel[rep] >= 0;
    spent += wall[rep++];
  }
  timing->stepMs = 1e3 * benchMedian(measured ? kernel : wall, rep);
  timing->backwardMs = -1; // recomputed with the forward in one kernel
  timing->reps = rep;
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
