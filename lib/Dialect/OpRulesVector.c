//===- OpRulesVector.c - Rules of the vec construction and arith ops ------===//
//
// IRDL in MLIR 22 ties types together through constraint variables, but it
// cannot count a variadic list against a type parameter, look into a
// builtin vector's shape, or accept "the same vec or its element type" for
// one operand (any_of cannot mix parametric constraints). The elementwise
// ops therefore leave their broadcast operands `irdl.any`, checked here.
//
//===----------------------------------------------------------------------===//

#include "coopvec-c/Dialect.h"

#include "Dialect/OpRules.h"
#include "Dialect/OpTable.h"
#include "Dialect/Verifier.h"

#include <mlir-c/BuiltinTypes.h>

/// A variadic list of scalars (operands or results, `role`) has one value
/// per element of `vec`. IRDL already ties each scalar to the element type.
static bool checkElementCount(MlirOperation op, const char *role, MlirType vec,
                              intptr_t count) {
  int64_t size = coopvecVecTypeGetSize(vec);
  if (count == size)
    return true;
  coopvecEmitOpError(op, "has %ld %s, but %s has %lld elements", (long)count,
                     role, coopvecTypeText(vec).text, (long long)size);
  return false;
}

bool coopvecVerifyFromElements(MlirOperation op) {
  return checkElementCount(op, "operands", coopvecResultType(op, 0),
                           mlirOperationGetNumOperands(op));
}

bool coopvecVerifyUnpack(MlirOperation op) {
  return checkElementCount(op, "results", coopvecOperandType(op, 0),
                           mlirOperationGetNumResults(op));
}

/// `vector` (the builtin side of from_vector / to_vector) must be exactly
/// vector<N x T> for `vec` = !coopvec.vec<N, T>.
static bool checkVectorMatchesVec(MlirOperation op, MlirType vector,
                                  MlirType vec) {
  if (mlirTypeIsAVector(vector) && mlirShapedTypeGetRank(vector) == 1 &&
      !mlirVectorTypeIsScalable(vector) &&
      mlirShapedTypeGetDimSize(vector, 0) == coopvecVecTypeGetSize(vec) &&
      mlirTypeEqual(mlirShapedTypeGetElementType(vector),
                    coopvecVecTypeGetElementType(vec)))
    return true;
  coopvecEmitOpError(op,
                     "requires a 1-D, fixed-length builtin vector with the "
                     "size and element type of %s, got %s",
                     coopvecTypeText(vec).text, coopvecTypeText(vector).text);
  return false;
}

bool coopvecVerifyFromVector(MlirOperation op) {
  return checkVectorMatchesVec(op, coopvecOperandType(op, 0),
                               coopvecResultType(op, 0));
}

bool coopvecVerifyToVector(MlirOperation op) {
  return checkVectorMatchesVec(op, coopvecResultType(op, 0),
                               coopvecOperandType(op, 0));
}

/// Operand `index` of an elementwise op is either the vec type of operand 0
/// or a scalar of its element type (broadcast to every element).
static bool checkBroadcastOperand(MlirOperation op, intptr_t index) {
  MlirType vec = coopvecOperandType(op, 0);
  MlirType operand = coopvecOperandType(op, index);
  MlirType element = coopvecVecTypeGetElementType(vec);
  if (mlirTypeEqual(operand, vec) || mlirTypeEqual(operand, element))
    return true;
  coopvecEmitOpError(op,
                     "operand #%ld must be %s or its element type %s, got "
                     "%s",
                     (long)index, coopvecTypeText(vec).text,
                     coopvecTypeText(element).text,
                     coopvecTypeText(operand).text);
  return false;
}

bool coopvecVerifyElementwise(MlirOperation op) {
  const CoopvecOpInfo *info = coopvecLookupOp(op);
  for (intptr_t i = 1; i < mlirOperationGetNumOperands(op); ++i)
    if ((info->broadcastOperands & (1u << i)) && !checkBroadcastOperand(op, i))
      return false;
  return true;
}
