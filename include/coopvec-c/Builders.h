/*===- coopvec-c/Builders.h - Building coopvec IR from C ----------*- C -*-===*\
|*                                                                            *|
|* One function per coopvec op. MLIR 22's C API creates ops only through the  *|
|* generic MlirOperationState; these functions fill it (operands, inferred    *|
|* result types, attributes) so that a C program builds coopvec IR as it      *|
|* would call a C++ builder. The library's own passes build with them.        *|
|*                                                                            *|
|* Every builder checks its operands as far as the result type depends on    *|
|* them and returns a null value (creating nothing) when they do not fit;     *|
|* the remaining rules are checked by coopvecVerify on the finished IR.       *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef COOPVEC_C_BUILDERS_H
#define COOPVEC_C_BUILDERS_H

#include "coopvec-c/Export.h"

#include <mlir-c/IR.h>
#include <mlir-c/Rewrite.h>

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Where new ops go and which location they get. With a rewriter, ops are
/// inserted through it at its insertion point (so that pattern drivers see
/// them); otherwise into `block`, before `before` or at the end when
/// `before` is null.
typedef struct CoopvecBuilder {
  MlirContext context;
  MlirLocation location;
  MlirBlock block;
  MlirOperation before;
  MlirRewriterBase rewriter;
} CoopvecBuilder;

/// A builder appending to `block`.
COOPVEC_EXPORT CoopvecBuilder coopvecBuilderAtEnd(MlirBlock block,
                                                  MlirLocation location);
/// A builder inserting before `op` (which must be in a block).
COOPVEC_EXPORT CoopvecBuilder coopvecBuilderBefore(MlirOperation op,
                                                   MlirLocation location);
/// A builder inserting through `rewriter` at its insertion point.
COOPVEC_EXPORT CoopvecBuilder
coopvecBuilderFromRewriter(MlirRewriterBase rewriter, MlirLocation location);

/// Creates `name(operands) -> resultTypes {attributes}` at the builder's
/// insertion point. Returns a null op if MLIR refuses to create it.
COOPVEC_EXPORT MlirOperation coopvecBuildOperation(
    CoopvecBuilder *builder, const char *name, intptr_t numOperands,
    const MlirValue *operands, intptr_t numResults, const MlirType *resultTypes,
    intptr_t numAttributes, const MlirNamedAttribute *attributes);

//===----------------------------------------------------------------------===//
// Construction and unpacking
//===----------------------------------------------------------------------===//

/// !coopvec.vec<count, T> from `count` scalars of one element type T.
COOPVEC_EXPORT MlirValue coopvecBuildFromElements(CoopvecBuilder *builder,
                                                  intptr_t count,
                                                  const MlirValue *elements);
/// `vecType` with every element `scalar` (of the vec's element type).
COOPVEC_EXPORT MlirValue coopvecBuildSplat(CoopvecBuilder *builder,
                                           MlirType vecType, MlirValue scalar);
/// The N elements of a vec, as the results of the returned op.
COOPVEC_EXPORT MlirOperation coopvecBuildUnpack(CoopvecBuilder *builder,
                                                MlirValue vec);
/// vector<N x T> -> !coopvec.vec<N, T> and back.
COOPVEC_EXPORT MlirValue coopvecBuildFromVector(CoopvecBuilder *builder,
                                                MlirValue vector);
COOPVEC_EXPORT MlirValue coopvecBuildToVector(CoopvecBuilder *builder,
                                              MlirValue vec);
/// The vec converted to `element` (round to nearest even).
COOPVEC_EXPORT MlirValue coopvecBuildCast(CoopvecBuilder *builder,
                                          MlirValue vec, MlirType element);

//===----------------------------------------------------------------------===//
// Transfer
//===----------------------------------------------------------------------===//

/// A `vecType` read from the rank-1 memref `base` at element `offset`.
COOPVEC_EXPORT MlirValue coopvecBuildLoad(CoopvecBuilder *builder,
                                          MlirType vecType, MlirValue base,
                                          MlirValue offset);
/// Like coopvecBuildLoad; elements whose `mask` bit is clear are not read
/// and take `padding`.
COOPVEC_EXPORT MlirValue coopvecBuildMaskedLoad(
    CoopvecBuilder *builder, MlirType vecType, MlirValue base, MlirValue offset,
    MlirValue mask, MlirValue padding);
COOPVEC_EXPORT MlirOperation coopvecBuildStore(CoopvecBuilder *builder,
                                               MlirValue value, MlirValue base,
                                               MlirValue offset);
COOPVEC_EXPORT MlirOperation coopvecBuildMaskedStore(CoopvecBuilder *builder,
                                                     MlirValue value,
                                                     MlirValue base,
                                                     MlirValue offset,
                                                     MlirValue mask);
/// A `matrixType` view of `buffer` starting `byteOffset` bytes in.
COOPVEC_EXPORT MlirValue coopvecBuildMatrixView(CoopvecBuilder *builder,
                                                MlirValue buffer,
                                                int64_t byteOffset,
                                                MlirType matrixType);

//===----------------------------------------------------------------------===//
// Elementwise. `rhs`, `b` and `c` may be a vec of lhs's type or a scalar of
// its element type; the result has lhs's type.
//===----------------------------------------------------------------------===//

COOPVEC_EXPORT MlirValue coopvecBuildAdd(CoopvecBuilder *builder, MlirValue lhs,
                                         MlirValue rhs);
COOPVEC_EXPORT MlirValue coopvecBuildSub(CoopvecBuilder *builder, MlirValue lhs,
                                         MlirValue rhs);
COOPVEC_EXPORT MlirValue coopvecBuildMul(CoopvecBuilder *builder, MlirValue lhs,
                                         MlirValue rhs);
COOPVEC_EXPORT MlirValue coopvecBuildMin(CoopvecBuilder *builder, MlirValue lhs,
                                         MlirValue rhs);
COOPVEC_EXPORT MlirValue coopvecBuildMax(CoopvecBuilder *builder, MlirValue lhs,
                                         MlirValue rhs);
/// step(x, edge) = x < edge ? 0 : 1.
COOPVEC_EXPORT MlirValue coopvecBuildStep(CoopvecBuilder *builder, MlirValue x,
                                          MlirValue edge);
/// a * b + c.
COOPVEC_EXPORT MlirValue coopvecBuildFma(CoopvecBuilder *builder, MlirValue a,
                                         MlirValue b, MlirValue c);
COOPVEC_EXPORT MlirValue coopvecBuildNeg(CoopvecBuilder *builder, MlirValue x);
COOPVEC_EXPORT MlirValue coopvecBuildExp2(CoopvecBuilder *builder, MlirValue x);
COOPVEC_EXPORT MlirValue coopvecBuildLog2(CoopvecBuilder *builder, MlirValue x);
COOPVEC_EXPORT MlirValue coopvecBuildTanh(CoopvecBuilder *builder, MlirValue x);

//===----------------------------------------------------------------------===//
// Matrix-vector product and training
//===----------------------------------------------------------------------===//

/// matrix * input (+ bias), or matrix^T * input (+ bias) with `transpose`.
/// `bias` may be null. The result is a vec of the matrix's rows (columns
/// with `transpose`) and element type.
COOPVEC_EXPORT MlirValue coopvecBuildMatvec(CoopvecBuilder *builder,
                                            MlirValue matrix, MlirValue input,
                                            MlirValue bias, bool transpose);
/// gradient += lhs * rhs^T over all threads.
COOPVEC_EXPORT MlirOperation coopvecBuildOuterProductAccumulate(
    CoopvecBuilder *builder, MlirValue lhs, MlirValue rhs, MlirValue gradient);
/// gradient[offset + i] += value[i] over all threads.
COOPVEC_EXPORT MlirOperation
coopvecBuildReduceSumAccumulate(CoopvecBuilder *builder, MlirValue value,
                                MlirValue gradient, MlirValue offset);

#ifdef __cplusplus
}
#endif

#endif // COOPVEC_C_BUILDERS_H
