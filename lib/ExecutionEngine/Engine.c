//===- Engine.c - Engines: creation, options, errors ----------------------===//
//
// An engine owns a verified clone of the caller's module, so signatures and
// access checks never depend on IR the caller may change later. Creation is
// cheap (no lowering): a caller can inspect functions and size its buffers
// first, and a caller that only needs signatures (coopvec-run --reference)
// never compiles.
//
//===----------------------------------------------------------------------===//

#include "ExecutionEngine/Engine.h"
#include "ExecutionEngine/Shadows.h"

#include "Conversion/PerThread/PerThread.h"
#include "Support/Location.h"
#include "Transforms/Inline.h"

#include "coopvec-c/Passes.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/Diagnostics.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *coopvecStatusGetName(CoopvecStatus status) {
  static const char *const names[] = {
      "success",          "invalid argument", "no backend",    "invalid module",
      "compile error",    "host mismatch",    "not found",     "not compiled",
      "unsupported type", "type mismatch",    "size mismatch", "out of bounds",
      "unknown access",   "out of memory",    "no device",     "device error",
  };
  if ((unsigned)status >= sizeof(names) / sizeof(names[0]))
    return "unknown status";
  return names[status];
}

static const char *const kTargetNames[] = {"cpu", "cuda", "vulkan"};
enum { kNumTargets = sizeof(kTargetNames) / sizeof(kTargetNames[0]) };

const char *coopvecTargetGetName(CoopvecTarget target) {
  return (unsigned)target < kNumTargets ? kTargetNames[target]
                                        : "unknown target";
}

bool coopvecTargetFromName(const char *name, CoopvecTarget *target) {
  // NULL arguments are refused like every other API argument, not read.
  for (int i = 0; name && target && i < kNumTargets; ++i) {
    if (strcmp(name, kTargetNames[i]) == 0) {
      *target = (CoopvecTarget)i;
      return true;
    }
  }
  return false;
}

CoopvecEngineOptions coopvecEngineOptionsGetDefault(void) {
  CoopvecEngineOptions options;
  memset(&options, 0, sizeof(options));
  options.target = CoopvecTargetCPU;
  return options;
}

CoopvecStatus coopvecEngineFail(CoopvecEngine *engine, CoopvecStatus status,
                                const char *format, ...) {
  char message[1024];
  va_list args;
  va_start(args, format);
  vsnprintf(message, sizeof(message), format, args);
  va_end(args);
  coopvecBufferClear(&engine->error);
  coopvecBufferAppendStr(&engine->error, message);
  return status;
}

const char *coopvecEngineGetError(const CoopvecEngine *engine) {
  return engine ? coopvecBufferStr(&engine->error) : "no engine";
}

//===----------------------------------------------------------------------===//
// Diagnostics
//===----------------------------------------------------------------------===//

void coopvecAppendLocation(CoopvecBuffer *buffer, MlirOperation op) {
  coopvecBufferAppendLocation(buffer, mlirOperationGetLocation(op));
}

static void appendDiagnostic(CoopvecBuffer *text, MlirDiagnostic diagnostic) {
  coopvecBufferAppendStr(text, "\n");
  coopvecBufferAppendLocation(text, mlirDiagnosticGetLocation(diagnostic));
  coopvecBufferAppendf(
      text,
      ": %s: ", coopvecSeverityName(mlirDiagnosticGetSeverity(diagnostic)));
  mlirDiagnosticPrint(diagnostic, coopvecBufferCallback, text);
  for (intptr_t i = 0; i < mlirDiagnosticGetNumNotes(diagnostic); ++i)
    appendDiagnostic(text, mlirDiagnosticGetNote(diagnostic, i));
}

/// Consumes the diagnostic (success): the library must not print, and
/// MLIR's fallback handler would print unhandled errors to stderr.
static MlirLogicalResult captureDiagnostic(MlirDiagnostic diagnostic,
                                           void *userData) {
  appendDiagnostic(userData, diagnostic);
  return mlirLogicalResultSuccess();
}

void coopvecDiagnosticCaptureBegin(CoopvecDiagnosticCapture *capture,
                                   MlirContext ctx) {
  memset(capture, 0, sizeof(*capture));
  capture->ctx = ctx;
  capture->id = mlirContextAttachDiagnosticHandler(ctx, captureDiagnostic,
                                                   &capture->text, NULL);
}

void coopvecDiagnosticCaptureEnd(CoopvecDiagnosticCapture *capture,
                                 CoopvecEngine *engine) {
  mlirContextDetachDiagnosticHandler(capture->ctx, capture->id);
  if (engine && capture->text.size)
    coopvecBufferAppend(&engine->error, capture->text.data, capture->text.size);
  coopvecBufferFree(&capture->text);
}

//===----------------------------------------------------------------------===//
// Creation
//===----------------------------------------------------------------------===//

static char *copyString(const char *text) {
  size_t length = strlen(text) + 1;
  char *copy = malloc(length);
  if (copy)
    memcpy(copy, text, length);
  return copy;
}

static CoopvecStatus copyOptions(CoopvecEngine *engine,
                                 const CoopvecEngineOptions *options) {
  if (options->numSharedLibPaths < 0 ||
      (options->numSharedLibPaths > 0 && !options->sharedLibPaths))
    return coopvecEngineFail(engine, CoopvecStatusInvalidArgument,
                             "invalid shared library list (%ld paths)",
                             (long)options->numSharedLibPaths);
  if (options->device < 0)
    return coopvecEngineFail(engine, CoopvecStatusInvalidArgument,
                             "device index %d is negative", options->device);
  engine->device = options->device;
  if (options->pipeline && options->pipelineOptions)
    return coopvecEngineFail(engine, CoopvecStatusInvalidArgument,
                             "pipeline options '%s' are for the target's "
                             "default pipeline, not with pipeline '%s'",
                             options->pipelineOptions, options->pipeline);
  if ((options->pipeline &&
       !(engine->pipeline = copyString(options->pipeline))) ||
      (options->pipelineOptions &&
       !(engine->pipelineOptions = copyString(options->pipelineOptions))))
    return coopvecEngineFail(engine, CoopvecStatusOutOfMemory, "out of memory");
  intptr_t count = options->numSharedLibPaths;
  engine->sharedLibPaths = calloc((size_t)count + 1, sizeof(char *));
  if (!engine->sharedLibPaths)
    return coopvecEngineFail(engine, CoopvecStatusOutOfMemory, "out of memory");
  for (intptr_t i = 0; i < count; ++i) {
    const char *path = options->sharedLibPaths[i];
    if (!path)
      return coopvecEngineFail(engine, CoopvecStatusInvalidArgument,
                               "shared library path #%ld is NULL", (long)i);
    if (!(engine->sharedLibPaths[i] = copyString(path)))
      return coopvecEngineFail(engine, CoopvecStatusOutOfMemory,
                               "out of memory");
    engine->numSharedLibPaths = i + 1;
  }
  return CoopvecStatusSuccess;
}

static CoopvecStatus checkTarget(CoopvecEngine *engine, CoopvecTarget target) {
  if ((unsigned)target >= kNumTargets)
    return coopvecEngineFail(engine, CoopvecStatusInvalidArgument,
                             "unknown target %d (expected CoopvecTargetCPU, "
                             "CoopvecTargetCUDA or CoopvecTargetVulkan)",
                             (int)target);
  const char *reason = "";
  engine->backend = coopvecGetBackend(target, &reason);
  if (!engine->backend)
    return coopvecEngineFail(engine, CoopvecStatusNoBackend,
                             "the execution engine has no %s backend (target "
                             "'%s'): %s",
                             target == CoopvecTargetCUDA ? "CUDA" : "Vulkan",
                             coopvecTargetGetName(target), reason);
  return CoopvecStatusSuccess;
}

static bool isModule(MlirOperation op) {
  return coopvecOpIsNamed(op, "builtin.module");
}

/// Inlines the calls inside the per-thread functions of the engine's module
/// and erases the private helpers they called, as the lowering pipelines do
/// first: the accesses the engine checks
/// before a run are then those the lowered code does not check itself
/// (Dialect/Accesses.h). Recursion is refused here.
static CoopvecStatus inlineCalls(CoopvecEngine *engine) {
  CoopvecFunctionList list = coopvecCollectPerThreadFunctions(engine->source);
  CoopvecDiagnosticCapture capture;
  coopvecDiagnosticCaptureBegin(&capture,
                                mlirOperationGetContext(engine->source));
  bool ok = coopvecInlineAndEraseHelpers(engine->source, &list, "the engine");
  if (!ok)
    coopvecEngineFail(engine, CoopvecStatusInvalidModule,
                      "the module's calls cannot be inlined:");
  coopvecDiagnosticCaptureEnd(&capture, ok ? NULL : engine);
  free(list.ops);
  return ok ? CoopvecStatusSuccess : CoopvecStatusInvalidModule;
}

/// Verifies `module` (diagnostics become the message) and keeps a clone.
static CoopvecStatus cloneVerified(CoopvecEngine *engine,
                                   MlirOperation module) {
  CoopvecDiagnosticCapture capture;
  coopvecDiagnosticCaptureBegin(&capture, mlirOperationGetContext(module));
  bool valid = mlirLogicalResultIsSuccess(coopvecVerify(module));
  if (!valid)
    coopvecEngineFail(engine, CoopvecStatusInvalidModule,
                      "the module does not verify:");
  coopvecDiagnosticCaptureEnd(&capture, valid ? NULL : engine);
  if (!valid)
    return CoopvecStatusInvalidModule;
  engine->source = mlirOperationClone(module);
  return inlineCalls(engine);
}

static CoopvecStatus initEngine(CoopvecEngine *engine, MlirOperation module,
                                const CoopvecEngineOptions *options) {
  if (!isModule(module))
    return coopvecEngineFail(engine, CoopvecStatusInvalidArgument,
                             "the engine needs a builtin.module");
  if (!mlirOperationIsNull(options->loweredModule) &&
      !isModule(options->loweredModule))
    return coopvecEngineFail(engine, CoopvecStatusInvalidArgument,
                             "the lowered module must be a builtin.module");
  CoopvecStatus status = checkTarget(engine, options->target);
  if (status == CoopvecStatusSuccess)
    status = copyOptions(engine, options);
  if (status == CoopvecStatusSuccess)
    status = cloneVerified(engine, module);
  if (status == CoopvecStatusSuccess &&
      !mlirOperationIsNull(options->loweredModule))
    engine->lowered = mlirOperationClone(options->loweredModule);
  return status;
}

CoopvecStatus coopvecEngineCreate(MlirOperation module,
                                  const CoopvecEngineOptions *options,
                                  CoopvecEngine **engine) {
  if (!engine)
    return CoopvecStatusInvalidArgument;
  *engine = calloc(1, sizeof(CoopvecEngine));
  if (!*engine)
    return CoopvecStatusOutOfMemory;
  CoopvecEngineOptions defaults = coopvecEngineOptionsGetDefault();
  (*engine)->target = options ? options->target : defaults.target;
  (*engine)->deviceSeconds = -1;
  return initEngine(*engine, module, options ? options : &defaults);
}

double coopvecEngineGetDeviceSeconds(const CoopvecEngine *engine) {
  return engine ? engine->deviceSeconds : -1;
}

void coopvecEngineDestroy(CoopvecEngine *engine) {
  if (!engine)
    return;
  // The backend's state of the functions goes first.
  if (engine->backend)
    engine->backend->destroy(engine);
  for (intptr_t i = 0; i < engine->numFunctions; ++i) {
    coopvecFunctionFree(engine->functions[i]);
    free(engine->functions[i]);
  }
  free(engine->functions);
  coopvecEngineFreeChecks(engine);
  if (!mlirOperationIsNull(engine->source))
    mlirOperationDestroy(engine->source);
  if (!mlirOperationIsNull(engine->lowered))
    mlirOperationDestroy(engine->lowered);
  for (intptr_t i = 0; i < engine->numSharedLibPaths; ++i)
    free(engine->sharedLibPaths[i]);
  free(engine->sharedLibPaths);
  coopvecEngineFreeExpanded(engine);
  free(engine->pipeline);
  free(engine->pipelineOptions);
  coopvecBufferFree(&engine->error);
  free(engine);
}

bool coopvecEngineIsCompiled(const CoopvecEngine *engine) {
  return engine && engine->backend && engine->backend->isCompiled(engine);
}

CoopvecStatus coopvecEngineCompile(CoopvecEngine *engine) {
  if (!engine)
    return CoopvecStatusInvalidArgument;
  if (mlirOperationIsNull(engine->source) || !engine->backend)
    return coopvecEngineFail(engine, CoopvecStatusInvalidArgument,
                             "the engine was not created successfully");
  if (coopvecEngineIsCompiled(engine))
    return CoopvecStatusSuccess;
  return engine->backend->compile(engine);
}

void coopvecEngineGetCompileTimes(const CoopvecEngine *engine,
                                  double *loweringSeconds, double *jitSeconds) {
  if (loweringSeconds)
    *loweringSeconds = engine ? engine->loweringSeconds : 0;
  if (jitSeconds)
    *jitSeconds = engine ? engine->jitSeconds : 0;
}

//===----------------------------------------------------------------------===//
// Lookup
//===----------------------------------------------------------------------===//

static MlirStringRef symbolOf(MlirOperation op) {
  MlirAttribute symbol = mlirOperationGetAttributeByName(
      op, mlirSymbolTableGetSymbolAttributeName());
  return mlirAttributeIsNull(symbol) || !mlirAttributeIsAString(symbol)
             ? mlirStringRefCreate(NULL, 0)
             : mlirStringAttrGetValue(symbol);
}

static MlirOperation findFunc(MlirOperation module, const char *name) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  MlirStringRef wanted = mlirStringRefCreateFromCString(name);
  for (MlirOperation op = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    if (coopvecOpIsNamed(op, "func.func") &&
        mlirStringRefEqual(symbolOf(op), wanted))
      return op;
  return (MlirOperation){NULL};
}

/// "no function @x; available: @a, @b" (or "(none)").
static CoopvecStatus failNotFound(CoopvecEngine *engine, const char *name) {
  coopvecEngineFail(engine, CoopvecStatusNotFound,
                    "no function @%s; available:", name);
  MlirBlock body =
      mlirRegionGetFirstBlock(mlirOperationGetRegion(engine->source, 0));
  int count = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    MlirStringRef symbol = symbolOf(op);
    if (coopvecOpIsNamed(op, "func.func") && symbol.data)
      coopvecBufferAppendf(&engine->error, "%s @%.*s", count++ ? "," : "",
                           (int)symbol.length, symbol.data);
  }
  if (!count)
    coopvecBufferAppendStr(&engine->error, " (none)");
  return CoopvecStatusNotFound;
}

static CoopvecFunction *findLookedUp(CoopvecEngine *engine, const char *name) {
  for (intptr_t i = 0; i < engine->numFunctions; ++i)
    if (strcmp(engine->functions[i]->name, name) == 0)
      return engine->functions[i];
  return NULL;
}

/// Appends `function` to the engine's list; false when out of memory.
static bool remember(CoopvecEngine *engine, CoopvecFunction *function) {
  CoopvecFunction **grown =
      realloc(engine->functions,
              (size_t)(engine->numFunctions + 1) * sizeof(CoopvecFunction *));
  if (!grown)
    return false;
  engine->functions = grown;
  engine->functions[engine->numFunctions++] = function;
  return true;
}

CoopvecStatus coopvecEngineLookup(CoopvecEngine *engine, const char *name,
                                  CoopvecFunction **function) {
  if (!engine || !name || !function)
    return engine ? coopvecEngineFail(engine, CoopvecStatusInvalidArgument,
                                      "coopvecEngineLookup: NULL argument")
                  : CoopvecStatusInvalidArgument;
  *function = NULL;
  if (mlirOperationIsNull(engine->source))
    return coopvecEngineFail(engine, CoopvecStatusInvalidArgument,
                             "the engine was not created successfully");
  if ((*function = findLookedUp(engine, name)))
    return CoopvecStatusSuccess;
  MlirOperation func = findFunc(engine->source, name);
  if (mlirOperationIsNull(func))
    return failNotFound(engine, name);
  CoopvecFunction *created = calloc(1, sizeof(CoopvecFunction));
  if (!created)
    return coopvecEngineFail(engine, CoopvecStatusOutOfMemory, "out of memory");
  created->engine = engine;
  created->name = copyString(name);
  CoopvecStatus status =
      created->name ? coopvecFunctionInit(created, func)
                    : coopvecEngineFail(engine, CoopvecStatusOutOfMemory,
                                        "out of memory");
  if (status == CoopvecStatusSuccess)
    status = coopvecFunctionFindShadows(created);
  if (status == CoopvecStatusSuccess && !remember(engine, created))
    status =
        coopvecEngineFail(engine, CoopvecStatusOutOfMemory, "out of memory");
  if (status != CoopvecStatusSuccess) {
    coopvecFunctionFree(created);
    free(created);
    return status;
  }
  *function = created;
  return status;
}
