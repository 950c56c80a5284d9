/*===- coopvec-c/Runtime.h - Reference interpreter and f16 helpers -*- C
-*-===*\
|*                                                                            *|
|* The reference interpreter runs a coopvec function directly, one thread at  *|
|* a time, in double precision. It is the oracle every lowering is tested     *|
|* against, so it shares no code with them. See docs/interpreter.md.          *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef COOPVEC_C_RUNTIME_H
#define COOPVEC_C_RUNTIME_H

#include "coopvec-c/Export.h"

#include <mlir-c/IR.h>
#include <mlir-c/Support.h>

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Element types of the flat host arrays exchanged with the interpreter.
typedef enum CoopvecDType {
  CoopvecDTypeF16 = 0, // IEEE binary16, stored as uint16_t bits
  CoopvecDTypeF32 = 1,
  CoopvecDTypeF64 = 2,
  CoopvecDTypeI8 = 3, // i1 / i8 values (masks: non-zero is true)
  CoopvecDTypeI32 = 4,
  CoopvecDTypeI64 = 5, // i64 and index values
} CoopvecDType;

/// A flat host buffer of `size` elements of `dtype`. The caller owns `data`.
typedef struct CoopvecArray {
  void *data;
  CoopvecDType dtype;
  int64_t size;
} CoopvecArray;

/// Size in bytes of one element of `dtype` (0 for an invalid dtype).
COOPVEC_EXPORT int64_t coopvecDTypeGetSize(CoopvecDType dtype);
/// "f16", "f32", "f64", "i8", "i32", "i64" ("<invalid dtype>" otherwise).
COOPVEC_EXPORT const char *coopvecDTypeGetName(CoopvecDType dtype);

/// Runs the func.func named `funcName` in `moduleOp` (a builtin.module, or
/// any op whose first region holds the function) for `numThreads` threads.
///
/// args[i], by the kind of the function's argument i:
///  - !coopvec.vec<N, T> or vector<NxT>: numThreads * N elements, row-major
///    (thread t's vector is elements [t*N, t*N+N)), dtype matching T.
///  - memref<?xT> / memref<NxT>: one buffer shared by all threads, dtype
///    matching T. Stores and gradient accumulations write into it.
///  - a scalar (f16, f32, f64, index, iN): 1 element shared by all threads,
///    or numThreads elements, one per thread.
/// results[i]: numThreads * N elements for vec/vector results, numThreads
/// for scalar results, allocated by the caller. Floating-point results may
/// be of any float dtype (f64 keeps the oracle's full precision); integer
/// results of any integer dtype.
///
/// Returns failure, after reporting one message through `errorCallback`
/// (which may be NULL), on bad arguments, IR the interpreter does not
/// support, or an out-of-bounds memory access. Memref buffers are written
/// back only when every thread succeeded; on failure they are unchanged
/// (result arrays may be partially written).
COOPVEC_EXPORT MlirLogicalResult coopvecInterpret(
    MlirOperation moduleOp, MlirStringRef funcName, int64_t numThreads,
    const CoopvecArray *args, intptr_t numArgs, CoopvecArray *results,
    intptr_t numResults, MlirStringCallback errorCallback, void *userData);

/// IEEE binary16 conversions. Double -> half rounds to nearest, ties to even
/// (directly from double, so there is no double rounding through f32);
/// overflow gives infinity and NaN stays a (quiet) NaN.
COOPVEC_EXPORT double coopvecHalfToDouble(uint16_t half);
COOPVEC_EXPORT uint16_t coopvecDoubleToHalf(double value);
COOPVEC_EXPORT float coopvecHalfToFloat(uint16_t half);
COOPVEC_EXPORT uint16_t coopvecFloatToHalf(float value);

/// Reads element `index` of `array` as a double / writes `value` converted
/// to the array's dtype (rounded to nearest even for f16/f32, truncated
/// toward zero and wrapped for integers). No bounds checks.
COOPVEC_EXPORT double coopvecArrayGet(const CoopvecArray *array, int64_t index);
COOPVEC_EXPORT void coopvecArraySet(CoopvecArray *array, int64_t index,
                                    double value);

#ifdef __cplusplus
}
#endif

#endif // COOPVEC_C_RUNTIME_H
