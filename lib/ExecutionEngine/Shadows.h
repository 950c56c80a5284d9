//===- Shadows.h - f32 shadows of accumulated f16 buffers ------*- C -*-===//
//
// An f16 gradient buffer that a function only accumulates into
// (reduce_sum_accumulate, outer_product_accumulate through matrix_view; on
// the CPU also scatter-add memref.atomic_rmw addf) would be rounded to f16
// by every atomic add of the lowered code: once per subgroup on GPUs, per
// lane group or call on the CPU, so a long sum stops growing once an
// addend is half an ulp of it. The engine instead compiles
// such an argument as an f32 buffer, runs on an f32 shadow that starts at
// -0.0, and adds the shadow to the caller's f16 buffer once after the run,
// rounding once (docs/execution-engine.md, "f16 gradients"). On the CPU
// the shadow is an f32 buffer that reduce-mode=expand may copy per host
// thread (Expand.c): the copies sum in f32 into the shadow, and the
// buffer is still rounded once.
//
//===----------------------------------------------------------------------===//

#ifndef COOPVEC_LIB_EXECUTIONENGINE_SHADOWS_H
#define COOPVEC_LIB_EXECUTIONENGINE_SHADOWS_H

#include "ExecutionEngine/Engine.h"

/// Whether argument `index` of per-thread function `func` (a top-level
/// func.func of `module`) is an accumulated f16 buffer: a rank-1 memref of
/// f16 used at least once, only as the gradient of reduce_sum_accumulate
/// and by matrix_views whose matrices only outer_product_accumulate uses
/// or as the memref of scatter-add memref.atomic_rmw addf, in a function
/// that no call refers to (its callers pass f16 buffers).
bool coopvecIsAccumulatedF16Buffer(MlirOperation module, MlirOperation func,
                                   intptr_t index);

/// Marks the accumulated f16 buffers of `function` (at lookup, on the
/// engine's module: the same IR the compiled clone is made from).
CoopvecStatus coopvecFunctionFindShadows(CoopvecFunction *function);

/// The module a backend lowers, in `*module` (the caller destroys it, also
/// on failure): a clone of `engine->lowered` as it is, or of
/// `engine->source` with every accumulated f16 buffer of its per-thread
/// functions turned into an f32 buffer (then `engine->shadows` is set).
CoopvecStatus coopvecEngineCloneForLowering(CoopvecEngine *engine,
                                            MlirOperation *module);

/// Runs a checked call on the backend, with an f32 shadow in place of each
/// accumulated f16 buffer when the compiled code takes one; each shadow is
/// added into its f16 buffer after the run, rounding once.
CoopvecStatus coopvecRunWithShadows(CoopvecFunction *function, int64_t batch,
                                    const CoopvecArray *args,
                                    const CoopvecArray *results,
                                    int numThreads);

#endif // COOPVEC_LIB_EXECUTIONENGINE_SHADOWS_H
