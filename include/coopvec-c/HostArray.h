/*===- coopvec-c/HostArray.h - Host arrays and f16 helpers --------*- C -*-===*\
|*                                                                            *|
|* Flat host arrays, the currency of the interpreter, the execution engine   *|
|* and the .npy reader, and IEEE binary16 conversions.                        *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef COOPVEC_C_HOSTARRAY_H
#define COOPVEC_C_HOSTARRAY_H

#include "coopvec-c/Export.h"

#include <mlir-c/Support.h>

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Element types of host arrays.
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

#endif // COOPVEC_C_HOSTARRAY_H
