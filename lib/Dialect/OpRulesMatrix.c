//===- OpRulesMatrix.c - Rules of matvec and outer_product_accumulate -----===//
//
// matvec's shapes depend on the optional `transpose` attribute, which IRDL
// in MLIR 22 cannot declare (it has no optional attributes), so matvec's
// operand sizes are free in IRDL and checked here. IRDL does unify the
// element types and the bias with the result.
//
//===----------------------------------------------------------------------===//

#include "coopvec-c/Dialect.h"

#include "Dialect/OpRules.h"
#include "Dialect/Verifier.h"

#include <mlir-c/BuiltinAttributes.h>

/// `transpose`, when present, is a unit attribute: `{transpose}`.
static bool readTranspose(MlirOperation op, bool *transpose) {
  MlirAttribute attr = mlirOperationGetAttributeByName(
      op, mlirStringRefCreateFromCString("transpose"));
  *transpose = !mlirAttributeIsNull(attr);
  if (!*transpose || mlirAttributeIsAUnit(attr))
    return true;
  coopvecEmitOpError(op, "attribute 'transpose' must be a unit attribute "
                         "(write `{transpose}`)");
  return false;
}

/// Without `transpose`, an M x K matrix maps vec<K> to vec<M>; with it,
/// vec<M> to vec<K>.
static bool checkMatvecShapes(MlirOperation op, MlirType matrix, MlirType input,
                              MlirType result, bool transpose) {
  int64_t rows = coopvecMatrixTypeGetRows(matrix);
  int64_t cols = coopvecMatrixTypeGetCols(matrix);
  int64_t inputSize = coopvecVecTypeGetSize(input);
  int64_t resultSize = coopvecVecTypeGetSize(result);
  int64_t expectedInput = transpose ? rows : cols;
  int64_t expectedResult = transpose ? cols : rows;
  const char *how = transpose ? "transposed " : "";
  if (inputSize != expectedInput) {
    coopvecEmitOpError(op,
                       "input has %lld elements, but the %s%lld x %lld "
                       "matrix needs %lld",
                       (long long)inputSize, how, (long long)rows,
                       (long long)cols, (long long)expectedInput);
    return false;
  }
  if (resultSize != expectedResult) {
    coopvecEmitOpError(op,
                       "result has %lld elements, but the %s%lld x %lld "
                       "matrix produces %lld",
                       (long long)resultSize, how, (long long)rows,
                       (long long)cols, (long long)expectedResult);
    return false;
  }
  return true;
}

bool coopvecVerifyMatvec(MlirOperation op) {
  bool transpose;
  return readTranspose(op, &transpose) &&
         checkMatvecShapes(op, coopvecOperandType(op, 0),
                           coopvecOperandType(op, 1), coopvecResultType(op, 0),
                           transpose);
}

/// `inference` is for read-only weights: a target may pack it in a form with
/// no atomic update. Gradients go to `training` or a plain layout.
bool coopvecVerifyOuterProductAccumulate(MlirOperation op) {
  CoopvecLayout layout;
  if (!coopvecMatrixTypeGetLayout(coopvecOperandType(op, 2), &layout) ||
      layout != CoopvecLayoutInference)
    return coopvecCheckAccumulationTarget(op);
  coopvecEmitOpError(op, "cannot accumulate into a matrix with layout "
                         "'inference'; use 'training', 'row_major' or "
                         "'col_major'");
  return false;
}
