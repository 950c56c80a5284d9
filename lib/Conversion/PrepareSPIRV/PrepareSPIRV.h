//===- PrepareSPIRV.h - coopvec-prepare-spirv internals -----------*- C -*-===//
//
// The steps of coopvec-prepare-spirv on one kernel (a gpu.func of a
// gpu.module from convert-coopvec-to-gpu), each in its own file.
//
//===----------------------------------------------------------------------===//

#ifndef COOPVEC_LIB_CONVERSION_PREPARESPIRV_PREPARESPIRV_H
#define COOPVEC_LIB_CONVERSION_PREPARESPIRV_PREPARESPIRV_H

#include <mlir-c/IR.h>

#include <stdbool.h>
#include <stdint.h>

/// The discardable attributes that mark an atomic the SPIR-V conversion
/// cannot express (lib/Conversion/FinishSPIRV), on a `spirv.GL.SClamp`
/// placeholder: `coopvec.atomic` is "fadd" or "cas", `coopvec.atomic_arg` the
/// index of the kernel argument (the buffer) it works on.
#define COOPVEC_SPIRV_ATOMIC_ATTR "coopvec.atomic"
#define COOPVEC_SPIRV_ATOMIC_ARG_ATTR "coopvec.atomic_arg"

/// Replaces every 1-D builtin vector value of `kernel` by its elements
/// (Scalarize.c): SPIR-V vectors have 2, 3 or 4 elements (8 and 16 with
/// Vector16), and the uniform loads and masks of the per-thread layer are
/// of any length. Returns false after emitting an error at an op it
/// cannot scalarize.
bool coopvecScalarizeVectors(MlirOperation kernel, const char *passName);

/// Makes the local arrays (`memref.alloca`) of `kernel` convertible
/// (LocalArrays.c): an atomic on one becomes load, combine, store (the
/// array is private), and an array of `index` holds integers of
/// `indexBitwidth` bits. Returns false after emitting an error.
bool coopvecPrepareLocalArrays(MlirOperation kernel, unsigned indexBitwidth,
                               const char *passName);

/// Replaces every `scf.index_switch` of `kernel` by a chain of `scf.if`
/// (IndexSwitch.c), which MLIR's SCF-to-SPIR-V patterns convert.
void coopvecLowerIndexSwitches(MlirOperation kernel);

/// Puts every `scf.for` with results of `kernel` inside `scf.if (lb < ub)`
/// whose else branch yields the initial values (ZeroTripLoops.c): MLIR's
/// SCF-to-SPIR-V conversion leaves the results of a loop that runs zero
/// times undefined.
void coopvecGuardZeroTripLoops(MlirOperation kernel);

/// Expands the ops MLIR's SPIR-V conversions do not take (Expand.c):
/// `math.trunc`, `arith.ceildivsi`, `arith.ceildivui`, `arith.floordivsi`.
void coopvecExpandForSPIRV(MlirOperation kernel);

/// Replaces `fma`, a `math.fma`, by the same fma computed in the float type
/// `wideElement` (of the same shape), in which the product must be exact,
/// rounded to odd and then to the fma's type (WideFma.c): rounded once,
/// whether the driver fuses GLSL Fma or not.
void coopvecReplaceByWideFma(MlirOperation fma, MlirType wideElement);

/// Computes every f16 `math.fma` of `kernel` in f32, rounded to odd and
/// then to f16 (F16Fma.c): exact, whether the driver fuses GLSL Fma or not.
void coopvecExpandF16Fma(MlirOperation kernel);

/// Extends f16 values to f32 in `kernel` through an integer or with a
/// run-time 0, so that no driver folds extf(truncf(y)) to y
/// (F16Extension.c).
void coopvecHideF16Extensions(MlirOperation kernel);

/// Computes every f32 `math.fma` of `kernel` not marked
/// `coopvec.accumulate` (a matvec's dot product) in f64, rounded to odd and
/// then to f32 (F32Fma.c). Returns false after emitting an error at an fma
/// when the gpu.module's target environment lacks Float64 or Int64.
bool coopvecExpandF32Fma(MlirOperation kernel, const char *passName);

/// Expands every `arith.maximumf` / `minimumf` of `kernel` into compares
/// and selects (MinMax.c): GLSL's FMax / FMin leave the sign of a zero
/// result to the driver.
void coopvecExpandMinMax(MlirOperation kernel);

/// Replaces the status atomics of `kernel`'s run-time bounds reports
/// (marked by convert-coopvec-to-gpu) by private per-thread accumulators
/// that are added to the status buffer once, before the kernel returns
/// (Status.c): lavapipe miscompiles loops that hold 64-bit atomics.
void coopvecGatherStatusReports(MlirOperation kernel);

/// The arith op that combines an element with the value of a
/// memref.atomic_rmw of one of the dialect's kinds (addf, addi, maximumf,
/// minimumf, maxs, mins, maxu, minu), or NULL for another kind.
const char *coopvecAtomicCombineOp(MlirOperation atomic);

/// Rewrites every `memref.atomic_rmw addf` of `kernel` (Atomics.c): f32
/// with `atomicFloat` into a placeholder that coopvec-finish-spirv makes
/// an `OpAtomicFAddEXT`, otherwise (and always for f16) into a
/// compare-and-swap loop (`scf.while`) on the 32-bit word holding the
/// element, whose compare-exchange is a placeholder that
/// coopvec-finish-spirv makes an `OpAtomicCompareExchange` on an aliased
/// view of the buffer as i32 words. Returns false after emitting an error.
bool coopvecLowerFloatAtomics(MlirOperation kernel, bool atomicFloat,
                              const char *passName);

#endif // COOPVEC_LIB_CONVERSION_PREPARESPIRV_PREPARESPIRV_H
