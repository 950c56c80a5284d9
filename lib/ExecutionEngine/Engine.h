//===- Engine.h - The execution engine (internal) ------------------*- C
//-*-===//
//
// The engine is split by concern: Engine.c creates and destroys engines and
// keeps their error message, Signature.c reads a function's signature and
// the uses of its memref arguments, Extent.c evaluates those uses to element
// ranges for given scalar arguments, Run.c checks the caller's arrays,
// Shadows.c gives f16 gradient buffers f32 shadows (rounded once per run).
// Everything target-specific is a backend (CoopvecBackend below, Backends.c
// picks one per target): the CPU's lowers and JIT-compiles (CPUCompile.c,
// which also checks that the host can run the code) and runs the batch on
// host threads (CPURun.c). The CUDA backend loads the NVIDIA driver at run
// time (CUDADriver.c), lowers to PTX and loads it (CUDABackend.c), and
// launches one kernel per run (CUDARun.c). The Vulkan backend loads the
// Vulkan loader at run time (VulkanLoader.c), lowers to SPIR-V, checks
// what the module needs against the device (SPIRVReflect.c) and creates
// its pipelines (VulkanBackend.c), and dispatches once per run
// (VulkanRun.c).
//
//===----------------------------------------------------------------------===//

#ifndef COOPVEC_LIB_EXECUTIONENGINE_ENGINE_H
#define COOPVEC_LIB_EXECUTIONENGINE_ENGINE_H

#include "coopvec-c/ExecutionEngine.h"
#include "coopvec-c/Support.h"

#include <mlir-c/ExecutionEngine.h>
#include <mlir-c/IR.h>

/// One use of a memref argument: elements [start, start + length) of the
/// buffer, where start is `offset` (an index value) or, for a matrix view,
/// the constant `constantStart`. Masked ops touch only the elements whose
/// mask bit is set.
typedef struct CoopvecAccess {
  MlirOperation op;      // the user, for messages
  MlirValue offset;      // null for matrix_view
  int64_t constantStart; // matrix_view: its element offset
  int64_t length;        // N, or M * K for a matrix view
  MlirValue mask;        // masked_load / masked_store, else null
  bool known;            // false: a use whose accesses cannot be bounded
  bool runTime;          // checked at run time by the lowered code
} CoopvecAccess;

typedef struct CoopvecAccessList {
  CoopvecAccess *items;
  intptr_t count;
} CoopvecAccessList;

/// The packed entry point of mlirExecutionEngineLookupPacked.
typedef void (*CoopvecPackedFunction)(void **);

/// A target's backend. The engine does everything target-independent first
/// (verifying the module, reading signatures, checking every array, offset
/// and extent of a call); a backend compiles and runs.
typedef struct CoopvecBackend {
  /// Lowers a clone of `engine->source` (with `engine->pipeline` or the
  /// backend's default pipeline), or takes `engine->lowered` as it is, and
  /// loads the code. On failure, the engine's message says why.
  CoopvecStatus (*compile)(CoopvecEngine *engine);
  /// Whether the engine holds loaded code.
  bool (*isCompiled)(const CoopvecEngine *engine);
  /// Runs threads [0, batch) of a call whose arrays the engine checked;
  /// `numThreads` is 0 for the default.
  CoopvecStatus (*run)(CoopvecFunction *function, int64_t batch,
                       const CoopvecArray *args, const CoopvecArray *results,
                       int numThreads);
  /// Releases what compile / run allocated (backend state of the engine
  /// and of its functions).
  void (*destroy)(CoopvecEngine *engine);
} CoopvecBackend;

/// The backend of `target`, or NULL when this build has none; then
/// `*reason` says why (e.g. which library was missing at build time).
const CoopvecBackend *coopvecGetBackend(CoopvecTarget target,
                                        const char **reason);

extern const CoopvecBackend coopvecCPUBackend;
extern const CoopvecBackend coopvecCUDABackend;
extern const CoopvecBackend coopvecVulkanBackend;

/// Runs `pipeline` (for coopvecParsePassPipeline, anchored on builtin.module;
/// "" runs nothing) on `module`; diagnostics and pipeline syntax errors
/// become the engine's message (CoopvecStatusCompileError). CPUCompile.c.
CoopvecStatus coopvecEngineLower(CoopvecEngine *engine, MlirOperation module,
                                 const char *pipeline);

struct CoopvecFunction {
  CoopvecEngine *engine;
  char *name;
  MlirOperation func; // in the engine's clone of the module
  intptr_t numArgs, numResults;
  CoopvecValueInfo *args, *results;
  CoopvecAccessList *accesses; // per argument (empty unless memref)
  /// A memref is stored into (not accumulated): the last thread's store
  /// must be the final one, so its chunk runs after the others.
  bool ordered;
  /// Per argument: an accumulated f16 buffer, which the compiled code takes
  /// as an f32 shadow when the engine rewrote it (Shadows.h).
  bool *shadowed;
  intptr_t numShadowed;
  CoopvecPackedFunction entry; // CPU: resolved on the first run
  /// CPU, reduce-mode=auto: the function's expand variant
  /// (`<name>.expand_batched`, Expand.c), resolved on its first run.
  CoopvecPackedFunction expandEntry;
  void *backendData; // other backends' per-function state
};

/// The run-time bounds checks of one lowered function (Status.c): its name
/// (without the target's suffix) and what each check names.
typedef struct CoopvecCheckTable {
  char *function;
  char **names;
  intptr_t count;
} CoopvecCheckTable;

/// The arguments reduce-mode=expand gives per-host-thread copies in one
/// lowered function (Expand.c): its name (without the target's suffix)
/// and the argument indices.
typedef struct CoopvecExpandTable {
  char *function;
  int64_t *args;
  intptr_t count;
} CoopvecExpandTable;

struct CoopvecEngine {
  CoopvecTarget target;
  const CoopvecBackend *backend;
  void *backendState;    // the backend's (the CPU uses `jit`)
  char *pipeline;        // NULL: the default
  char *pipelineOptions; // for the default pipeline; NULL: none
  int device;            // CoopvecEngineOptions.device
  double deviceSeconds;  // the last run's kernel time, -1: not measured
  MlirOperation source;
  MlirOperation lowered; // a clone of the options' module, or null
  bool shadows;          // the compiled code takes f32 shadows (Shadows.h)
  char **sharedLibPaths;
  intptr_t numSharedLibPaths;
  MlirExecutionEngine jit;
  double loweringSeconds, jitSeconds;
  CoopvecBuffer error;
  CoopvecFunction **functions;
  intptr_t numFunctions;
  CoopvecCheckTable *checkTables; // of the compiled code
  intptr_t numCheckTables;
  CoopvecExpandTable *expandTables; // of the compiled code (CPU)
  intptr_t numExpandTables;
};

/// Expand.c: the `coopvec.expanded_args` of the functions of `lowered`
/// whose names end in `suffix`, kept by the engine; the table of compiled
/// function `function` (its source name), or NULL when it has none.
void coopvecEngineCollectExpanded(CoopvecEngine *engine, MlirOperation lowered,
                                  const char *suffix);
const CoopvecExpandTable *coopvecEngineExpandedOf(const CoopvecEngine *engine,
                                                  const char *function);
void coopvecEngineFreeExpanded(CoopvecEngine *engine);
/// Adds the copies of hosts 0 .. hosts-1 (copies[host * count + i], the
/// copy of argument table->args[i]; host 0's NULL where it added into the
/// run's own shadow) into the arguments' buffers: the caller's buffers
/// with atomic adds.
void coopvecExpandMerge(const CoopvecExpandTable *table,
                        const CoopvecArray *args, void *const *copies,
                        int hosts);

/// Status.c: the `coopvec.bounds_checks` of the functions of `lowered`
/// whose names end in `suffix` ("_batched", "_kernel"), kept by the engine.
void coopvecEngineCollectChecks(CoopvecEngine *engine, MlirOperation lowered,
                                const char *suffix);
/// The checks of compiled function `function` (its source name), or NULL
/// when it has none: then it takes no status argument.
const CoopvecCheckTable *coopvecEngineChecksOf(const CoopvecEngine *engine,
                                               const char *function);
void coopvecEngineFreeChecks(CoopvecEngine *engine);
/// A run's status words: success when `count` is 0, else the failure that
/// names the first out-of-bounds access (CoopvecStatusOutOfBounds).
CoopvecStatus coopvecEngineReportAccesses(CoopvecFunction *function,
                                          int64_t count, int64_t key);

/// Replaces the engine's message with the formatted one; returns `status`.
CoopvecStatus coopvecEngineFail(CoopvecEngine *engine, CoopvecStatus status,
                                const char *format, ...)
    __attribute__((format(printf, 3, 4)));

/// Collects the diagnostics of `ctx` into a buffer while attached, so that
/// they become part of an error message instead of being printed.
typedef struct CoopvecDiagnosticCapture {
  MlirContext ctx;
  MlirDiagnosticHandlerID id;
  CoopvecBuffer text;
} CoopvecDiagnosticCapture;

void coopvecDiagnosticCaptureBegin(CoopvecDiagnosticCapture *capture,
                                   MlirContext ctx);
/// Detaches; appends what was captured (one "\n"-led line per diagnostic)
/// to the engine's message and frees the capture.
void coopvecDiagnosticCaptureEnd(CoopvecDiagnosticCapture *capture,
                                 CoopvecEngine *engine);

/// Prints `op`'s location as `file:line:col` (or MLIR's form of others).
void coopvecAppendLocation(CoopvecBuffer *buffer, MlirOperation op);

/// Signature.c: reads the signature of func.func `func`.
CoopvecStatus coopvecFunctionInit(CoopvecFunction *function,
                                  MlirOperation func);
void coopvecFunctionFree(CoopvecFunction *function);

/// Extent.c: the extent of memref argument `index` (see
/// coopvecFunctionGetMemRefExtent); `args` have been checked to be numArgs
/// entries.
/// `forRun`: the check before a run, which leaves the accesses the lowered
/// code checks at run time to it; otherwise (coopvecFunctionGetMemRefExtent)
/// an access that cannot be evaluated is an error, so that no size is
/// derived from the others alone.
CoopvecStatus coopvecComputeExtent(CoopvecFunction *function, intptr_t index,
                                   const CoopvecArray *args, bool forRun,
                                   int64_t *extent);

#endif // COOPVEC_LIB_EXECUTIONENGINE_ENGINE_H
