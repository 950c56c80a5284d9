//===- Jit.c - Lower, JIT-compile and run <entry>_batched -----------------===//
//
// The ABI (docs/coopvec-run.md): coopvec-lower-to-cpu turns `@f` into
// `@f_batched(%n: index, args..., results...)` with llvm.emit_c_interface.
// vec arguments and results become memref<?xT> of n*N elements; memrefs and
// scalars pass through. The packed entry point takes one pointer per
// argument of `_mlir_ciface_f_batched`: a pointer to a descriptor pointer for
// a memref, a pointer to the value for a scalar.
//
//===----------------------------------------------------------------------===//

// clock_gettime(CLOCK_MONOTONIC) is POSIX, not C11.
#define _POSIX_C_SOURCE 200809L

#include "Runner.h"

#include "coopvec-c/Passes.h"

#include <mlir-c/ExecutionEngine.h>
#include <mlir-c/Pass.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/// The C layout of a rank-1 memref descriptor.
typedef struct MemRef1D {
  void *allocated;
  void *aligned;
  int64_t offset;
  int64_t sizes[1];
  int64_t strides[1];
} MemRef1D;

static double nowSeconds(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (double)now.tv_sec + 1e-9 * (double)now.tv_nsec;
}

static void printToStderr(MlirStringRef text, void *userData) {
  (void)userData;
  fwrite(text.data, 1, text.length, stderr);
}

/// The module to compile: the --lowered file, or a clone of the input (the
/// input stays untouched for the interpreter).
static MlirModule moduleToCompile(const Options *options, MlirModule module) {
  if (!options->loweredPath)
    return mlirModuleFromOperation(
        mlirOperationClone(mlirModuleGetOperation(module)));
  MlirModule lowered = mlirModuleCreateParseFromFile(
      mlirModuleGetContext(module),
      mlirStringRefCreateFromCString(options->loweredPath));
  if (mlirModuleIsNull(lowered))
    runError("%s: cannot parse the lowered module", options->loweredPath);
  return lowered;
}

static MlirLogicalResult lower(const Options *options, MlirModule module) {
  char pipeline[256];
  if (options->pipeline)
    snprintf(pipeline, sizeof(pipeline), "%s", options->pipeline);
  else if (options->lanes > 0)
    snprintf(pipeline, sizeof(pipeline),
             "builtin.module(coopvec-lower-to-cpu{lanes=%lld})",
             (long long)options->lanes);
  else
    snprintf(pipeline, sizeof(pipeline),
             "builtin.module(coopvec-lower-to-cpu)");
  MlirContext ctx = mlirModuleGetContext(module);
  // Anchored on builtin.module: a plain mlirPassManagerCreate is anchored on
  // "any", and `builtin.module(...)` would then nest on modules *inside*
  // ours and run nothing.
  MlirPassManager pm = mlirPassManagerCreateOnOperation(
      ctx, mlirStringRefCreateFromCString("builtin.module"));
  MlirLogicalResult status = coopvecParsePassPipeline(
      mlirPassManagerGetAsOpPassManager(pm),
      mlirStringRefCreateFromCString(pipeline), false, printToStderr, NULL);
  if (mlirLogicalResultIsSuccess(status))
    status = mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(module));
  if (mlirLogicalResultIsFailure(status))
    runError("lowering with '%s' failed", pipeline);
  mlirPassManagerDestroy(pm);
  return status;
}

static MemRef1D describe(CoopvecNpyArray *array) {
  MemRef1D descriptor = {
      array->array.data, array->array.data, 0, {array->array.size}, {1}};
  return descriptor;
}

/// Builds the packed argument array and calls the entry point.
static MlirLogicalResult invoke(MlirExecutionEngine engine, const char *symbol,
                                const Options *options,
                                const Signature *signature,
                                CoopvecNpyArray *inputs,
                                CoopvecNpyArray *results) {
  size_t count = 1 + (size_t)(signature->numArgs + signature->numResults);
  MemRef1D *descriptors = calloc(count, sizeof(MemRef1D));
  MemRef1D **descriptorPointers = calloc(count, sizeof(MemRef1D *));
  void **packed = calloc(count, sizeof(void *));
  int64_t batch = options->batch;
  packed[0] = &batch;
  for (size_t slot = 1; slot < count; ++slot) {
    size_t arg = slot - 1;
    bool isResult = arg >= (size_t)signature->numArgs;
    CoopvecNpyArray *array =
        isResult ? &results[arg - (size_t)signature->numArgs] : &inputs[arg];
    if (!isResult && signature->args[arg].kind == ArgKindScalar) {
      packed[slot] = array->array.data;
      continue;
    }
    descriptors[slot] = describe(array);
    descriptorPointers[slot] = &descriptors[slot];
    packed[slot] = &descriptorPointers[slot];
  }
  MlirLogicalResult status = mlirExecutionEngineInvokePacked(
      engine, mlirStringRefCreateFromCString(symbol), packed);
  if (mlirLogicalResultIsFailure(status))
    runError("invoking @%s failed", symbol);
  free(packed);
  free(descriptorPointers);
  free(descriptors);
  return status;
}

static MlirExecutionEngine compile(const Options *options, MlirModule module) {
  MlirStringRef libs[8];
  for (int i = 0; i < options->numSharedLibs; ++i)
    libs[i] = mlirStringRefCreateFromCString(options->sharedLibs[i]);
  MlirExecutionEngine engine = mlirExecutionEngineCreate(
      module, 3, options->numSharedLibs, libs, false, false);
  if (mlirExecutionEngineIsNull(engine))
    runError("JIT compilation failed (the lowered module must be in the LLVM "
             "dialect only)");
  return engine;
}

/// Whether the engine has the C-interface entry point `symbol`.
static bool hasEntryPoint(MlirExecutionEngine engine, const char *symbol) {
  char wrapper[600];
  snprintf(wrapper, sizeof(wrapper), "_mlir_ciface_%s", symbol);
  return mlirExecutionEngineLookupPacked(
             engine, mlirStringRefCreateFromCString(wrapper)) != NULL;
}

static void reportTimes(const Options *options, double lowerSeconds,
                        double compileSeconds, double runSeconds) {
  if (!options->time)
    return;
  fprintf(stderr,
          "coopvec-run: lowering %.3f ms, JIT compile %.3f ms, run %.3f ms "
          "(%.1f ns per thread)\n",
          1e3 * lowerSeconds, 1e3 * compileSeconds, 1e3 * runSeconds,
          1e9 * runSeconds / (double)options->batch);
}

MlirLogicalResult jitRun(const Options *options, MlirModule module,
                         const Signature *signature, CoopvecNpyArray *inputs,
                         CoopvecNpyArray *results) {
  double start = nowSeconds();
  MlirModule compiled = moduleToCompile(options, module);
  if (mlirModuleIsNull(compiled))
    return mlirLogicalResultFailure();
  MlirLogicalResult status = lower(options, compiled);
  double loweredAt = nowSeconds();
  MlirExecutionEngine engine = {NULL};
  if (mlirLogicalResultIsSuccess(status))
    engine = compile(options, compiled);
  // The engine holds its own LLVM module; ours can go now.
  mlirModuleDestroy(compiled);
  if (mlirExecutionEngineIsNull(engine))
    return mlirLogicalResultFailure();
  char symbol[512];
  snprintf(symbol, sizeof(symbol), "%s_batched", options->entry);
  // ORC compiles lazily, on the first lookup: it belongs to compile time.
  bool found = hasEntryPoint(engine, symbol);
  double compiledAt = nowSeconds();
  status = mlirLogicalResultFailure();
  if (!found)
    runError("the lowered module has no @%s with llvm.emit_c_interface",
             symbol);
  else
    status = invoke(engine, symbol, options, signature, inputs, results);
  double ranAt = nowSeconds();
  if (mlirLogicalResultIsSuccess(status))
    reportTimes(options, loweredAt - start, compiledAt - loweredAt,
                ranAt - compiledAt);
  mlirExecutionEngineDestroy(engine);
  return status;
}
