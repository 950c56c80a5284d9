/*===- coopvec-c/Dialect.h - The coopvec dialect and its types ---*- C -*-===*\
|*                                                                            *|
|* Loading the coopvec dialect into an MlirContext, and building and         *|
|* inspecting its types from C.                                              *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef COOPVEC_C_DIALECT_H
#define COOPVEC_C_DIALECT_H

#include "coopvec-c/Export.h"

#include <mlir-c/IR.h>
#include <mlir-c/Support.h>

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The text of dialect/coopvec.irdl.mlir, embedded at build time.
COOPVEC_EXPORT MlirStringRef coopvecGetIRDLSource(void);

/// Loads the coopvec dialect into `ctx` (parses the embedded IRDL definition
/// and calls mlirLoadIRDLDialects) and registers what coopvec's pipelines,
/// the execution engine and coopvecEmitLLVM need, so that a host registers
/// nothing itself (docs/embedding.md): in `ctx`, MLIR's dialects and their
/// extensions (mlirRegisterAllDialects: available, not loaded) and LLVM IR
/// translations; once per process and thread-safe, MLIR's passes and
/// pipelines (mlirRegisterAllPasses: its registry is process-wide, and the
/// host gets them all too). Loading twice is a no-op. Diagnostics go to the
/// context's handlers.
COOPVEC_EXPORT MlirLogicalResult coopvecLoadDialect(MlirContext ctx);

/// The same as coopvecLoadDialect (the name coopvec-opt and older hosts
/// use).
COOPVEC_EXPORT MlirLogicalResult coopvecSetupContext(MlirContext ctx);

/// The ops of the dialect (lib/Dialect/Ops.def), by index: their full names
/// ("coopvec.matvec") and classes ("construction", "transfer",
/// "elementwise-unary", "elementwise-binary", "elementwise-ternary",
/// "matvec", "training"). Out-of-range indices give empty strings.
COOPVEC_EXPORT intptr_t coopvecGetNumOps(void);
COOPVEC_EXPORT MlirStringRef coopvecOpGetName(intptr_t index);
COOPVEC_EXPORT MlirStringRef coopvecOpGetClassName(intptr_t index);

/// Matrix layouts. `inference` and `training` are opaque, target-optimal
/// layouts produced by the packing routine.
typedef enum CoopvecLayout {
  CoopvecLayoutRowMajor = 0,
  CoopvecLayoutColMajor = 1,
  CoopvecLayoutInference = 2,
  CoopvecLayoutTraining = 3,
} CoopvecLayout;

/// "row_major", "col_major", "inference" or "training".
COOPVEC_EXPORT const char *coopvecLayoutGetName(CoopvecLayout layout);
/// Parses a layout name; returns false for an unknown name.
COOPVEC_EXPORT bool coopvecLayoutFromName(MlirStringRef name,
                                          CoopvecLayout *layout);

/// Whether `type` is an element type coopvec supports (f16, f32).
COOPVEC_EXPORT bool coopvecIsSupportedElementType(MlirType type);

/// !coopvec.vec<size, element>. Returns a null type on invalid parameters.
COOPVEC_EXPORT MlirType coopvecVecTypeGet(MlirContext ctx, int64_t size,
                                          MlirType element);
COOPVEC_EXPORT bool coopvecTypeIsAVec(MlirType type);
/// Size of a vec type; -1 if `type` is not one.
COOPVEC_EXPORT int64_t coopvecVecTypeGetSize(MlirType type);
/// Element type of a vec type; null if `type` is not one.
COOPVEC_EXPORT MlirType coopvecVecTypeGetElementType(MlirType type);

/// !coopvec.matrix<rows, cols, element, layout>. Null on invalid parameters.
COOPVEC_EXPORT MlirType coopvecMatrixTypeGet(MlirContext ctx, int64_t rows,
                                             int64_t cols, MlirType element,
                                             CoopvecLayout layout);
COOPVEC_EXPORT bool coopvecTypeIsAMatrix(MlirType type);
/// Rows / columns of a matrix type; -1 if `type` is not one.
COOPVEC_EXPORT int64_t coopvecMatrixTypeGetRows(MlirType type);
COOPVEC_EXPORT int64_t coopvecMatrixTypeGetCols(MlirType type);
/// Element type of a matrix type; null if `type` is not one.
COOPVEC_EXPORT MlirType coopvecMatrixTypeGetElementType(MlirType type);
/// Layout of a matrix type; returns false if `type` is not one.
COOPVEC_EXPORT bool coopvecMatrixTypeGetLayout(MlirType type,
                                               CoopvecLayout *layout);

#ifdef __cplusplus
}
#endif

#endif // COOPVEC_C_DIALECT_H
