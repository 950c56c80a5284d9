//===- CPUCompile.c - The CPU backend: lower, check, JIT-compile ----------===//
//
// A clone is lowered (the engine's module stays coopvec IR for signatures
// and access checks), checked to be LLVM dialect only and to target a CPU
// this host can run, and handed to MLIR's execution engine at -O3.
//
// Everything that MLIR's execution engine would report by printing is
// checked before it is called: a module it cannot translate (an op left
// outside the LLVM dialect) and shared libraries it cannot open. ORC
// compiles lazily at the first symbol lookup, so one symbol is looked up
// here and code generation counts as compile time.
//
//===----------------------------------------------------------------------===//

// clock_gettime(CLOCK_MONOTONIC) is POSIX, not C11.
#define _POSIX_C_SOURCE 200809L

#include "ExecutionEngine/Engine.h"
#include "ExecutionEngine/Shadows.h"

#include "Target/CPUTarget.h"

#include "coopvec-c/Passes.h"
#include "coopvec-c/Support.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/Pass.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char kDefaultPipeline[] = "builtin.module(coopvec-lower-to-cpu)";

static double nowSeconds(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (double)now.tv_sec + 1e-9 * (double)now.tv_nsec;
}

static void appendToBuffer(MlirStringRef text, void *userData) {
  coopvecBufferAppend(userData, text.data, text.length);
}

CoopvecStatus coopvecEngineLower(CoopvecEngine *engine, MlirOperation module,
                                 const char *pipeline) {
  if (!*pipeline)
    return CoopvecStatusSuccess;
  MlirContext ctx = mlirOperationGetContext(module);
  // Anchored on builtin.module: a pass manager anchored on "any" would nest
  // `builtin.module(...)` on modules inside ours and run nothing.
  MlirPassManager pm = mlirPassManagerCreateOnOperation(
      ctx, mlirStringRefCreateFromCString("builtin.module"));
  CoopvecDiagnosticCapture capture;
  coopvecDiagnosticCaptureBegin(&capture, ctx);
  CoopvecBuffer syntax = {0};
  MlirLogicalResult result = coopvecParsePassPipeline(
      mlirPassManagerGetAsOpPassManager(pm),
      mlirStringRefCreateFromCString(pipeline), false, appendToBuffer, &syntax);
  if (mlirLogicalResultIsSuccess(result))
    result = mlirPassManagerRunOnOp(pm, module);
  bool failed = mlirLogicalResultIsFailure(result);
  while (syntax.size && syntax.data[syntax.size - 1] == '\n')
    syntax.data[--syntax.size] = '\0';
  if (failed)
    coopvecEngineFail(engine, CoopvecStatusCompileError,
                      "lowering with '%s' failed%s%s", pipeline,
                      syntax.size ? ": " : "", coopvecBufferStr(&syntax));
  coopvecDiagnosticCaptureEnd(&capture, failed ? engine : NULL);
  coopvecBufferFree(&syntax);
  mlirPassManagerDestroy(pm);
  return failed ? CoopvecStatusCompileError : CoopvecStatusSuccess;
}

//===----------------------------------------------------------------------===//
// Checks of the lowered module
//===----------------------------------------------------------------------===//

typedef struct Walk {
  MlirOperation root;
  MlirOperation offender; // the first op outside the LLVM dialect
} Walk;

static MlirWalkResult findNonLLVM(MlirOperation op, void *userData) {
  Walk *walk = userData;
  if (mlirOperationEqual(op, walk->root))
    return MlirWalkResultAdvance;
  MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
  if (name.length > 5 && strncmp(name.data, "llvm.", 5) == 0)
    return MlirWalkResultAdvance;
  walk->offender = op;
  return MlirWalkResultInterrupt;
}

static CoopvecStatus checkLLVMOnly(CoopvecEngine *engine,
                                   MlirOperation module) {
  Walk walk = {module, {NULL}};
  mlirOperationWalk(module, findNonLLVM, &walk, MlirWalkPreOrder);
  if (mlirOperationIsNull(walk.offender))
    return CoopvecStatusSuccess;
  MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(walk.offender));
  coopvecEngineFail(engine, CoopvecStatusCompileError,
                    "the lowered module still holds '%.*s' (at ",
                    (int)name.length, name.data);
  coopvecAppendLocation(&engine->error, walk.offender);
  coopvecBufferAppendStr(&engine->error,
                         "): the pipeline must lower everything to the LLVM "
                         "dialect");
  return CoopvecStatusCompileError;
}

/// The entries of `#llvm.target_features<["+a", "-b"]>` as "+a,-b".
static void featureList(MlirAttribute attr, CoopvecBuffer *list) {
  CoopvecBuffer text = {0};
  mlirAttributePrint(attr, coopvecBufferCallback, &text);
  const char *p = coopvecBufferStr(&text);
  while ((p = strchr(p, '"'))) {
    const char *end = strchr(p + 1, '"');
    if (!end)
      break;
    coopvecBufferAppendf(list, "%s%.*s", list->size ? "," : "",
                         (int)(end - p - 1), p + 1);
    p = end + 1;
  }
  coopvecBufferFree(&text);
}

typedef struct HostCheck {
  CoopvecBuffer checked; // "cpu|features" of the last target that passed
  CoopvecBuffer error;
} HostCheck;

static bool checkFunctionTarget(MlirOperation func, HostCheck *check) {
  MlirAttribute cpu = mlirOperationGetAttributeByName(
      func, mlirStringRefCreateFromCString("target_cpu"));
  MlirAttribute features = mlirOperationGetAttributeByName(
      func, mlirStringRefCreateFromCString("target_features"));
  if (mlirAttributeIsNull(cpu) && mlirAttributeIsNull(features))
    return true; // compiled for the JIT's own target: the host
  CoopvecBuffer cpuName = {0}, list = {0}, key = {0};
  if (!mlirAttributeIsNull(cpu) && mlirAttributeIsAString(cpu)) {
    MlirStringRef value = mlirStringAttrGetValue(cpu);
    coopvecBufferAppend(&cpuName, value.data, value.length);
  }
  if (!mlirAttributeIsNull(features))
    featureList(features, &list);
  coopvecBufferAppendf(&key, "%s|%s", coopvecBufferStr(&cpuName),
                       coopvecBufferStr(&list));
  bool ok =
      strcmp(coopvecBufferStr(&key), coopvecBufferStr(&check->checked)) == 0 ||
      coopvecCPUTargetCheckHost(coopvecBufferStr(&cpuName),
                                coopvecBufferStr(&list), &check->error);
  if (ok) {
    coopvecBufferClear(&check->checked);
    coopvecBufferAppendStr(&check->checked, coopvecBufferStr(&key));
  }
  coopvecBufferFree(&cpuName);
  coopvecBufferFree(&list);
  coopvecBufferFree(&key);
  return ok;
}

static MlirWalkResult checkTargets(MlirOperation op, void *userData) {
  if (!coopvecOpIsNamed(op, "llvm.func") || checkFunctionTarget(op, userData))
    return MlirWalkResultAdvance;
  return MlirWalkResultInterrupt;
}

/// Refuses code whose `target_cpu` / `target_features` need an ISA the host
/// lacks: running it would die of SIGILL.
static CoopvecStatus checkHost(CoopvecEngine *engine, MlirOperation module) {
  HostCheck check = {{0}, {0}};
  mlirOperationWalk(module, checkTargets, &check, MlirWalkPreOrder);
  CoopvecStatus status = CoopvecStatusSuccess;
  if (check.error.size)
    status = coopvecEngineFail(engine, CoopvecStatusHostMismatch, "%s",
                               coopvecBufferStr(&check.error));
  coopvecBufferFree(&check.checked);
  coopvecBufferFree(&check.error);
  return status;
}

//===----------------------------------------------------------------------===//
// The JIT
//===----------------------------------------------------------------------===//

static CoopvecStatus checkSharedLibs(CoopvecEngine *engine) {
  for (intptr_t i = 0; i < engine->numSharedLibPaths; ++i) {
    FILE *file = fopen(engine->sharedLibPaths[i], "rb");
    if (!file)
      return coopvecEngineFail(engine, CoopvecStatusCompileError,
                               "cannot open shared library '%s'",
                               engine->sharedLibPaths[i]);
    fclose(file);
  }
  return CoopvecStatusSuccess;
}

/// The name of the first function with a body, to make ORC compile.
static MlirStringRef firstDefinedFunction(MlirOperation module) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    MlirAttribute name = mlirOperationGetAttributeByName(
        op, mlirStringRefCreateFromCString("sym_name"));
    if (coopvecOpIsNamed(op, "llvm.func") &&
        !mlirBlockIsNull(
            mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0))) &&
        !mlirAttributeIsNull(name) && mlirAttributeIsAString(name))
      return mlirStringAttrGetValue(name);
  }
  return mlirStringRefCreate(NULL, 0);
}

static CoopvecStatus jit(CoopvecEngine *engine, MlirOperation module) {
  CoopvecStatus status = checkSharedLibs(engine);
  if (status != CoopvecStatusSuccess)
    return status;
  intptr_t count = engine->numSharedLibPaths;
  MlirStringRef *libs = calloc((size_t)count + 1, sizeof(MlirStringRef));
  if (!libs)
    return coopvecEngineFail(engine, CoopvecStatusOutOfMemory, "out of memory");
  for (intptr_t i = 0; i < count; ++i)
    libs[i] = mlirStringRefCreateFromCString(engine->sharedLibPaths[i]);
  CoopvecDiagnosticCapture capture;
  coopvecDiagnosticCaptureBegin(&capture, mlirOperationGetContext(module));
  engine->jit = mlirExecutionEngineCreate(mlirModuleFromOperation(module), 3,
                                          (int)count, libs, false, false);
  free(libs);
  bool failed = mlirExecutionEngineIsNull(engine->jit);
  if (failed)
    coopvecEngineFail(engine, CoopvecStatusCompileError,
                      "JIT compilation failed");
  coopvecDiagnosticCaptureEnd(&capture, failed ? engine : NULL);
  if (failed)
    return CoopvecStatusCompileError;
  MlirStringRef first = firstDefinedFunction(module);
  if (first.length)
    (void)mlirExecutionEngineLookup(engine->jit, first);
  return CoopvecStatusSuccess;
}

CoopvecStatus coopvecCPUCompile(CoopvecEngine *engine) {
  double start = nowSeconds();
  MlirOperation module;
  CoopvecStatus status = coopvecEngineCloneForLowering(engine, &module);
  CoopvecBuffer pipeline = {0};
  if (engine->pipelineOptions)
    coopvecBufferAppendf(&pipeline, "builtin.module(coopvec-lower-to-cpu{%s})",
                         engine->pipelineOptions);
  else
    coopvecBufferAppendStr(&pipeline, engine->pipeline ? engine->pipeline
                                                       : kDefaultPipeline);
  if (status == CoopvecStatusSuccess)
    status = coopvecEngineLower(engine, module, coopvecBufferStr(&pipeline));
  coopvecBufferFree(&pipeline);
  double lowered = nowSeconds();
  if (status == CoopvecStatusSuccess)
    status = checkLLVMOnly(engine, module);
  if (status == CoopvecStatusSuccess)
    status = checkHost(engine, module);
  if (status == CoopvecStatusSuccess) {
    coopvecEngineCollectChecks(engine, module, "_batched");
    coopvecEngineCollectExpanded(engine, module, "_batched");
  }
  if (status == CoopvecStatusSuccess)
    status = jit(engine, module);
  // The JIT holds its own LLVM module; the lowered clone can go.
  mlirOperationDestroy(module);
  engine->loweringSeconds = lowered - start;
  engine->jitSeconds = nowSeconds() - lowered;
  return status;
}

bool coopvecCPUIsCompiled(const CoopvecEngine *engine) {
  return !mlirExecutionEngineIsNull(engine->jit);
}

void coopvecCPUDestroy(CoopvecEngine *engine) {
  coopvecEngineFreeChecks(engine);
  if (!mlirExecutionEngineIsNull(engine->jit))
    mlirExecutionEngineDestroy(engine->jit);
  engine->jit = (MlirExecutionEngine){NULL};
}
