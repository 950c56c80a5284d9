//===- OpRulesMemory.c - Rules of the ops that access memrefs -------------===//
//
// IRDL can say "a builtin memref" or "a builtin vector" but not look at
// their rank, shape or element type, so every buffer and mask is checked
// here against the coopvec type it is used with.
//
//===----------------------------------------------------------------------===//

#include "coopvec-c/Dialect.h"

#include "Dialect/ElementTypes.h"
#include "Dialect/OpRules.h"
#include "Dialect/Verifier.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>

/// `mask` must be vector<N x i1> for a vec of N elements.
static bool checkMask(MlirOperation op, MlirType mask, MlirType vec) {
  if (mlirTypeIsAVector(mask) && mlirShapedTypeGetRank(mask) == 1 &&
      !mlirVectorTypeIsScalable(mask) &&
      mlirShapedTypeGetDimSize(mask, 0) == coopvecVecTypeGetSize(vec)) {
    MlirType bit = mlirShapedTypeGetElementType(mask);
    if (mlirTypeIsAInteger(bit) && mlirIntegerTypeIsSignless(bit) &&
        mlirIntegerTypeGetWidth(bit) == 1)
      return true;
  }
  coopvecEmitOpError(op,
                     "mask must be vector<%lldxi1> (one bit per element "
                     "of %s), got %s",
                     (long long)coopvecVecTypeGetSize(vec),
                     coopvecTypeText(vec).text, coopvecTypeText(mask).text);
  return false;
}

/// The memref `operand` holds the elements of the vec type `vec`.
static bool checkVecBuffer(MlirOperation op, const char *role, intptr_t operand,
                           MlirType vec) {
  return coopvecCheckBuffer(op, role, coopvecOperandType(op, operand),
                            coopvecVecTypeGetElementType(vec));
}

bool coopvecVerifyLoad(MlirOperation op) {
  return checkVecBuffer(op, "base", 0, coopvecResultType(op, 0)) &&
         coopvecCheckConstantAccess(op, 0, 1, -1, coopvecResultType(op, 0));
}

bool coopvecVerifyMaskedLoad(MlirOperation op) {
  MlirType vec = coopvecResultType(op, 0);
  return checkVecBuffer(op, "base", 0, vec) &&
         checkMask(op, coopvecOperandType(op, 2), vec) &&
         coopvecCheckConstantAccess(op, 0, 1, 2, vec);
}

bool coopvecVerifyStore(MlirOperation op) {
  MlirType vec = coopvecOperandType(op, 0);
  return checkVecBuffer(op, "base", 1, vec) &&
         coopvecCheckConstantAccess(op, 1, 2, -1, vec);
}

bool coopvecVerifyMaskedStore(MlirOperation op) {
  MlirType vec = coopvecOperandType(op, 0);
  return checkVecBuffer(op, "base", 1, vec) &&
         checkMask(op, coopvecOperandType(op, 3), vec) &&
         coopvecCheckConstantAccess(op, 1, 2, 3, vec);
}

bool coopvecVerifyReduceSumAccumulate(MlirOperation op) {
  MlirType vec = coopvecOperandType(op, 0);
  return checkVecBuffer(op, "gradient", 1, vec) &&
         coopvecCheckConstantAccess(op, 1, 2, -1, vec) &&
         coopvecCheckAccumulationTarget(op);
}

//===----------------------------------------------------------------------===//
// matrix_view
//===----------------------------------------------------------------------===//

/// Reads the `offset` attribute (bytes) into `bytes`. Only signless integers
/// of at most 64 bits and index are accepted, so that the value is exact.
static bool readByteOffset(MlirOperation op, int64_t *bytes) {
  MlirAttribute attr = mlirOperationGetAttributeByName(
      op, mlirStringRefCreateFromCString("offset"));
  if (!mlirAttributeIsNull(attr) && mlirAttributeIsAInteger(attr)) {
    MlirType type = mlirAttributeGetType(attr);
    if (mlirTypeIsAIndex(type) || (mlirIntegerTypeIsSignless(type) &&
                                   mlirIntegerTypeGetWidth(type) <= 64)) {
      *bytes = mlirIntegerAttrGetValueInt(attr);
      return true;
    }
  }
  coopvecEmitOpError(op, "requires an 'offset' attribute holding a byte "
                         "offset as a signless integer (e.g. `{offset = 0}`)");
  return false;
}

/// Optimal layouts are 64-byte aligned (OptiX requires it); row- and
/// column-major matrices 16-byte aligned (one vector load).
static int64_t requiredAlignment(CoopvecLayout layout) {
  return layout == CoopvecLayoutInference || layout == CoopvecLayoutTraining
             ? 64
             : 16;
}

static bool checkByteOffset(MlirOperation op, int64_t bytes,
                            int64_t elementBytes, CoopvecLayout layout) {
  int64_t alignment = requiredAlignment(layout);
  if (bytes < 0) {
    coopvecEmitOpError(op, "offset %lld must not be negative",
                       (long long)bytes);
    return false;
  }
  if (bytes % elementBytes != 0) {
    coopvecEmitOpError(op,
                       "offset %lld is not a multiple of the element "
                       "size (%lld bytes)",
                       (long long)bytes, (long long)elementBytes);
    return false;
  }
  if (bytes % alignment != 0) {
    coopvecEmitOpError(op,
                       "offset %lld is not a multiple of %lld bytes, the "
                       "alignment of layout '%s'",
                       (long long)bytes, (long long)alignment,
                       coopvecLayoutGetName(layout));
    return false;
  }
  return true;
}

/// A statically sized buffer must hold the whole matrix.
static bool checkMatrixFits(MlirOperation op, MlirType buffer, int64_t bytes,
                            int64_t elementBytes, MlirType matrix) {
  if (!mlirShapedTypeIsStaticDim(buffer, 0))
    return true;
  int64_t available = mlirShapedTypeGetDimSize(buffer, 0);
  // Sizes are at most COOPVEC_MAX_DIMENSION (checked on the types first), so
  // the product cannot overflow.
  int64_t needed = bytes / elementBytes + coopvecMatrixTypeGetRows(matrix) *
                                              coopvecMatrixTypeGetCols(matrix);
  if (needed <= available)
    return true;
  coopvecEmitOpError(op,
                     "%s at byte offset %lld needs %lld elements, but "
                     "the buffer has %lld",
                     coopvecTypeText(matrix).text, (long long)bytes,
                     (long long)needed, (long long)available);
  return false;
}

bool coopvecVerifyMatrixView(MlirOperation op) {
  MlirType buffer = coopvecOperandType(op, 0);
  MlirType matrix = coopvecResultType(op, 0);
  MlirType element = coopvecMatrixTypeGetElementType(matrix);
  const CoopvecElementTypeInfo *info = coopvecLookupElementType(element);
  CoopvecLayout layout;
  int64_t bytes;
  if (!info || !coopvecMatrixTypeGetLayout(matrix, &layout)) {
    coopvecEmitOpError(op, "result must be a coopvec matrix, got %s",
                       coopvecTypeText(matrix).text);
    return false;
  }
  int64_t elementBytes = info->bitWidth / 8;
  return coopvecCheckBuffer(op, "buffer", buffer, element) &&
         readByteOffset(op, &bytes) &&
         checkByteOffset(op, bytes, elementBytes, layout) &&
         checkMatrixFits(op, buffer, bytes, elementBytes, matrix);
}
