/*===- coopvec-c/Npy.h - NumPy .npy files ---------------------------*- C
-*-===*\
|*                                                                            *|
|* Reading and writing NumPy's .npy format (versions 1.0, 2.0 and 3.0), so   *|
|* that coopvec-run and embedders exchange inputs and outputs with NumPy     *|
|* without depending on it. Only what coopvec computes with is supported:   *|
|* little-endian '<f2', '<f4', '<f8' and '<i8', C order. See                 *|
|* docs/coopvec-run.md.                                                       *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef COOPVEC_C_NPY_H
#define COOPVEC_C_NPY_H

#include "coopvec-c/Export.h"
#include "coopvec-c/HostArray.h"

#include <mlir-c/Support.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum { COOPVEC_NPY_MAX_RANK = 8 };

/// An n-dimensional array in C order. `array.size` is the product of the
/// shape (1 for rank 0). Arrays filled by coopvecNpyParse / coopvecNpyRead
/// own `array.data` (malloc'ed); release them with coopvecNpyArrayDestroy.
typedef struct CoopvecNpyArray {
  CoopvecArray array;
  int rank;
  int64_t shape[COOPVEC_NPY_MAX_RANK];
} CoopvecNpyArray;

/// Whether `dtype` can be stored in a .npy file by this library
/// (f16, f32, f64, i64, i32, i8).
COOPVEC_EXPORT bool coopvecNpyIsSupportedDType(CoopvecDType dtype);

/// The .npy `descr` this library writes for `dtype` ('<f4', '<i4', '|i1',
/// ...), or NULL when it cannot store it.
COOPVEC_EXPORT const char *coopvecNpyDescr(CoopvecDType dtype);

/// Parses the .npy file image `bytes[0, size)` into `result`. On malformed
/// or unsupported input, reports one message (without a file name, e.g.
/// "unsupported dtype '>f4' (big-endian)") through `errorCallback` (may be
/// NULL) and returns failure with `result` zeroed.
COOPVEC_EXPORT MlirLogicalResult
coopvecNpyParse(const void *bytes, size_t size, CoopvecNpyArray *result,
                MlirStringCallback errorCallback, void *userData);

/// Reads the .npy file at `path` (see coopvecNpyParse). I/O errors are
/// reported like format errors. The file is read as its header announces
/// it: the data bytes the shape needs and nothing more, so a stream that
/// never ends (/dev/zero) fails at once.
COOPVEC_EXPORT MlirLogicalResult
coopvecNpyRead(const char *path, CoopvecNpyArray *result,
               MlirStringCallback errorCallback, void *userData);

/// coopvecNpyRead, refusing a file whose header and data take more than
/// `maxBytes` bytes before reading (or allocating for) its data.
COOPVEC_EXPORT MlirLogicalResult coopvecNpyReadLimited(
    const char *path, uint64_t maxBytes, CoopvecNpyArray *result,
    MlirStringCallback errorCallback, void *userData);

/// Serializes `array` as a version 1.0 .npy image (header padded to a
/// multiple of 64 bytes, as NumPy writes it) through `callback`, in one or
/// more chunks. Fails only for an unsupported dtype, a rank above
/// COOPVEC_NPY_MAX_RANK, or a shape whose product differs from `array.size`.
COOPVEC_EXPORT MlirLogicalResult coopvecNpySerialize(
    const CoopvecNpyArray *array, MlirStringCallback callback, void *userData);

/// Writes `array` to the file at `path` (see coopvecNpySerialize).
COOPVEC_EXPORT MlirLogicalResult
coopvecNpyWrite(const char *path, const CoopvecNpyArray *array,
                MlirStringCallback errorCallback, void *userData);

/// Frees the data of an array filled by coopvecNpyParse / coopvecNpyRead
/// and zeroes it. Safe on a zeroed array.
COOPVEC_EXPORT void coopvecNpyArrayDestroy(CoopvecNpyArray *array);

#ifdef __cplusplus
}
#endif

#endif // COOPVEC_C_NPY_H
