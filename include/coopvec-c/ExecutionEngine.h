/*===- coopvec-c/ExecutionEngine.h - Compile and run coopvec code --*- C
-*-===*\
|*                                                                            *|
|* The execution engine compiles a module of coopvec IR for a target and     *|
|* runs its per-thread functions for a batch of threads on caller-owned      *|
|* host arrays. Every array is passed with its size, and every size, dtype   *|
|* and memory access is checked before compiled code runs. Errors are a      *|
|* status code plus a message (coopvecEngineGetError); the library never     *|
|* prints, exits or aborts on bad input. Only plain C types cross this API,  *|
|* so it can be called through ctypes. See docs/execution-engine.md.         *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef COOPVEC_C_EXECUTIONENGINE_H
#define COOPVEC_C_EXECUTIONENGINE_H

#include "coopvec-c/Export.h"
#include "coopvec-c/HostArray.h"

#include <mlir-c/IR.h>

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The result of every engine call. The message of the last failure is
/// coopvecEngineGetError.
typedef enum CoopvecStatus {
  CoopvecStatusSuccess = 0,
  CoopvecStatusInvalidArgument = 1, // NULL pointer, bad index or count
  CoopvecStatusNoBackend = 2,       // the target has no backend yet
  CoopvecStatusInvalidModule = 3,   // the module does not verify
  CoopvecStatusCompileError = 4,    // lowering or JIT compilation failed
  CoopvecStatusHostMismatch = 5,    // code for a CPU this host is not
  CoopvecStatusNotFound = 6,        // no such function or entry point
  CoopvecStatusNotCompiled = 7,     // run before coopvecEngineCompile
  CoopvecStatusUnsupportedType = 8, // a type the engine cannot pass
  CoopvecStatusTypeMismatch = 9,    // an array of the wrong dtype
  CoopvecStatusSizeMismatch = 10,   // an array of the wrong size
  CoopvecStatusOutOfBounds = 11,    // an access outside its buffer
  CoopvecStatusUnknownAccess = 12,  // an access the engine cannot bound
  CoopvecStatusOutOfMemory = 13,
  CoopvecStatusNoDevice = 14,    // no driver or device for the target
  CoopvecStatusDeviceError = 15, // the device or its driver failed a call
} CoopvecStatus;

/// "success", "invalid argument", ... ("unknown status" otherwise).
COOPVEC_EXPORT const char *coopvecStatusGetName(CoopvecStatus status);

/// What the engine compiles for. CUDA loads the NVIDIA driver when an
/// engine compiles, Vulkan the Vulkan loader (CoopvecStatusNoDevice without
/// a driver or device). A target without a backend in this build (Vulkan
/// when it was built without the Vulkan headers) is refused by
/// coopvecEngineCreate with CoopvecStatusNoBackend.
typedef enum CoopvecTarget {
  CoopvecTargetCPU = 0,
  CoopvecTargetCUDA = 1,
  CoopvecTargetVulkan = 2,
} CoopvecTarget;

/// "cpu", "cuda", "vulkan" ("unknown target" otherwise).
COOPVEC_EXPORT const char *coopvecTargetGetName(CoopvecTarget target);
/// Parses a name of coopvecTargetGetName; false for any other name and when
/// `name` or `target` is NULL.
COOPVEC_EXPORT bool coopvecTargetFromName(const char *name,
                                          CoopvecTarget *target);

typedef struct CoopvecEngineOptions {
  CoopvecTarget target;
  /// The lowering, a pipeline for coopvecParsePassPipeline anchored on
  /// builtin.module. NULL: "builtin.module(coopvec-lower-to-cpu)"; "": none
  /// (the module to compile is already in the LLVM dialect).
  const char *pipeline;
  /// Null (the default): compile a clone of the engine's module. Otherwise
  /// compile a clone of this module instead, after `pipeline`: code lowered
  /// elsewhere (or by hand) for the functions of the engine's module, whose
  /// signatures still come from that module.
  MlirOperation loweredModule;
  /// Shared libraries the compiled code may call (paths).
  const char *const *sharedLibPaths;
  intptr_t numSharedLibPaths;
  /// Which device of the target runs the code (default 0): the CUDA device
  /// ordinal, or the index of the Vulkan physical device in the loader's
  /// order (coopvecTargetListDevices). A device that does not exist fails
  /// coopvecEngineCompile with CoopvecStatusNoDevice. The CPU ignores it.
  int device;
  /// NULL (the default) or option words (`reduce-mode=local`) that the
  /// target's default pipeline gets in the braces of its
  /// `coopvec-lower-to-<target>{...}`, after the options the backend
  /// chooses for the device; a word the pipeline does not know fails
  /// coopvecEngineCompile with the pipeline's message. Not with `pipeline`
  /// (CoopvecStatusInvalidArgument: that pipeline is the whole lowering).
  const char *pipelineOptions;
} CoopvecEngineOptions;

/// The CPU target, the default pipeline, no lowered module, no libraries.
COOPVEC_EXPORT CoopvecEngineOptions coopvecEngineOptionsGetDefault(void);

typedef struct CoopvecEngine CoopvecEngine;
typedef struct CoopvecFunction CoopvecFunction;

/// Creates an engine for `module` (a builtin.module of coopvec IR in a
/// context set up with coopvecSetupContext; `options` may be NULL for the
/// defaults). The engine keeps a verified clone of the module, so the
/// caller may change or destroy its module afterwards; functions can be
/// looked up and inspected at once, and run after coopvecEngineCompile.
///
/// Unless `engine` is NULL or memory runs out, `*engine` is set even when
/// the call fails, so that coopvecEngineGetError can say why; destroy it
/// with coopvecEngineDestroy in every case (before the context).
COOPVEC_EXPORT CoopvecStatus
coopvecEngineCreate(MlirOperation module, const CoopvecEngineOptions *options,
                    CoopvecEngine **engine);

/// Lowers a clone of the module (or of the options' loweredModule) with the
/// pipeline and JIT-compiles it at -O3. In the clone of the module, each
/// f16 memref argument that a function only accumulates into becomes f32
/// (docs/execution-engine.md, "f16 gradients"; not in a loweredModule). Refuses
/// code stamped with a `target_cpu` / `target_features` whose vector ISA this
/// host lacks. Diagnostics of the lowering become part of the error message.
/// Calling it again after success does nothing.
COOPVEC_EXPORT CoopvecStatus coopvecEngineCompile(CoopvecEngine *engine);

/// Whether coopvecEngineCompile succeeded.
COOPVEC_EXPORT bool coopvecEngineIsCompiled(const CoopvecEngine *engine);

/// Wall-clock seconds coopvecEngineCompile spent lowering and in the JIT
/// (translation to LLVM IR, optimization, code generation); 0 before.
COOPVEC_EXPORT void coopvecEngineGetCompileTimes(const CoopvecEngine *engine,
                                                 double *loweringSeconds,
                                                 double *jitSeconds);

/// Seconds the device spent in the kernel of the last successful
/// coopvecFunctionRun, from the device's own timestamps, transfers excluded
/// (Vulkan: timestamp queries around the dispatches; CUDA: events around
/// the launch); -1 when the target does not measure (cpu), the device's
/// queue has no timestamps, or the run launched nothing (batch 0).
COOPVEC_EXPORT double
coopvecEngineGetDeviceSeconds(const CoopvecEngine *engine);

/// Lists the devices of `target`, one line each ("0: llvmpipe (CPU, Vulkan
/// 1.3, subgroup size 8, ...): mode=portable"), through `callback`.
/// CoopvecStatusNoDevice when the target's driver cannot be loaded or finds
/// no device; `callback` then gets the reason, one line. Implemented for
/// Vulkan; other targets answer CoopvecStatusNoBackend with a reason.
COOPVEC_EXPORT CoopvecStatus coopvecTargetListDevices(
    CoopvecTarget target, MlirStringCallback callback, void *userData);

/// The message of the last failed call on this engine or its functions
/// ("" if none); valid until the next call on the engine.
COOPVEC_EXPORT const char *coopvecEngineGetError(const CoopvecEngine *engine);

/// Frees the engine, its compiled code and its functions. NULL is a no-op.
COOPVEC_EXPORT void coopvecEngineDestroy(CoopvecEngine *engine);

//===----------------------------------------------------------------------===//
// Functions and their signatures
//===----------------------------------------------------------------------===//

/// How an argument or result is passed.
typedef enum CoopvecValueKind {
  CoopvecValueKindVec = 0,         // per thread: batch x N elements, row-major
  CoopvecValueKindMemRef = 1,      // rank-1 memref shared by all threads
  CoopvecValueKindScalar = 2,      // uniform scalar: one element
  CoopvecValueKindUnsupported = 3, // the engine cannot pass this type
} CoopvecValueKind;

typedef struct CoopvecValueInfo {
  CoopvecValueKind kind;
  /// The element (vec, memref) or scalar dtype; index and i64 are I64.
  CoopvecDType dtype;
  /// vec: N; static memref: its size; scalar: 1; dynamic memref and
  /// unsupported: -1.
  int64_t length;
  /// memref: the function may write it (store, masked_store,
  /// outer_product_accumulate, reduce_sum_accumulate).
  bool written;
  /// The MLIR type as printed, for messages (owned by the function).
  const char *type;
} CoopvecValueInfo;

/// Finds the top-level func.func @name (its per-thread name, e.g. "mlp"
/// for the compiled @mlp_batched) and reads its signature. The function
/// belongs to the engine; repeated lookups return the same one. A function
/// with types the engine cannot pass is found (their kind is
/// CoopvecValueKindUnsupported) but cannot run.
COOPVEC_EXPORT CoopvecStatus coopvecEngineLookup(CoopvecEngine *engine,
                                                 const char *name,
                                                 CoopvecFunction **function);

COOPVEC_EXPORT const char *
coopvecFunctionGetName(const CoopvecFunction *function);
COOPVEC_EXPORT intptr_t
coopvecFunctionGetNumArgs(const CoopvecFunction *function);
COOPVEC_EXPORT intptr_t
coopvecFunctionGetNumResults(const CoopvecFunction *function);
/// Describes argument / result `index`; CoopvecStatusInvalidArgument when
/// `index` is out of range.
COOPVEC_EXPORT CoopvecStatus coopvecFunctionGetArg(
    const CoopvecFunction *function, intptr_t index, CoopvecValueInfo *info);
COOPVEC_EXPORT CoopvecStatus coopvecFunctionGetResult(
    const CoopvecFunction *function, intptr_t index, CoopvecValueInfo *info);

/// How many leading elements of memref argument `argIndex` the function
/// accesses when called with `args` (numArgs entries; only the index / i64
/// scalars are read, the other entries may be empty): one past the highest
/// element any thread may touch, 0 if none. Offsets are evaluated from
/// constants, index / i64 arguments and arith addi / subi / muli /
/// index_cast, with overflow checks. CoopvecStatusOutOfBounds for a
/// negative or overflowing offset, CoopvecStatusUnknownAccess when an
/// offset or a use cannot be evaluated.
COOPVEC_EXPORT CoopvecStatus coopvecFunctionGetMemRefExtent(
    CoopvecFunction *function, intptr_t argIndex, const CoopvecArray *args,
    intptr_t numArgs, int64_t *extent);

/// Runs the function for threads 0 .. batch-1 on `numThreads` host threads
/// (0: all online cores; at most 1024). The batch is split into contiguous
/// chunks of a multiple of 64 threads, which the host threads take in turn;
/// a thread's results do not depend on `numThreads`. Gradients are
/// accumulated atomically by the compiled code; an f16 buffer that it only
/// accumulates into is summed in an f32 shadow of the engine's and rounded
/// to f16 once, after the run (docs/dialect.md, "f16 accumulation"), so
/// its sum does not depend on `numThreads` either. When the function stores
/// into a memref, the 64 threads ending the batch run after all others, so
/// the stored values are those of the highest-numbered thread, as with one
/// host thread.
///
/// args[i] by kind: vec: batch * N elements (thread t's vector at t * N);
/// memref: the shared buffer, at least as long as what the function
/// accesses (exactly the static size of a static memref); scalar: one
/// element. results[i] (vecs): batch * N elements, written. Dtypes must
/// match exactly. Everything is checked before any compiled code runs;
/// on failure nothing was run or written.
COOPVEC_EXPORT CoopvecStatus coopvecFunctionRun(
    CoopvecFunction *function, int64_t batch, const CoopvecArray *args,
    intptr_t numArgs, const CoopvecArray *results, intptr_t numResults,
    int numThreads);

/// The number of host threads a run with `numThreads` = 0 uses: the online
/// cores.
COOPVEC_EXPORT int coopvecGetDefaultNumThreads(void);

#ifdef __cplusplus
}
#endif

#endif // COOPVEC_C_EXECUTIONENGINE_H
