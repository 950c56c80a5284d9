//===- Accesses.c - Which memory accesses are checked before a run --------===//

#include "Dialect/Accesses.h"

#include "coopvec-c/Support.h"

#include <mlir-c/BuiltinTypes.h>

enum { kMaxDepth = 128 };

/// Whether `block` is the body of a func.func (its top level).
static bool isFunctionBody(MlirBlock block) {
  MlirOperation parent = mlirBlockGetParentOperation(block);
  return !mlirOperationIsNull(parent) && coopvecOpIsNamed(parent, "func.func");
}

static bool evaluable(MlirValue value, int depth) {
  if (depth > kMaxDepth)
    return false;
  if (mlirValueIsABlockArgument(value)) {
    MlirType type = mlirValueGetType(value);
    bool integer =
        mlirTypeIsAIndex(type) ||
        (mlirTypeIsAInteger(type) && mlirIntegerTypeGetWidth(type) == 64);
    return integer && isFunctionBody(mlirBlockArgumentGetOwner(value));
  }
  MlirOperation op = mlirOpResultGetOwner(value);
  if (!isFunctionBody(mlirOperationGetBlock(op)))
    return false;
  if (coopvecOpIsNamed(op, "arith.constant"))
    return true;
  if (coopvecOpIsNamed(op, "arith.index_cast") ||
      coopvecOpIsNamed(op, "arith.index_castui"))
    return evaluable(mlirOperationGetOperand(op, 0), depth + 1);
  if (coopvecOpIsNamed(op, "arith.addi") ||
      coopvecOpIsNamed(op, "arith.subi") || coopvecOpIsNamed(op, "arith.muli"))
    return evaluable(mlirOperationGetOperand(op, 0), depth + 1) &&
           evaluable(mlirOperationGetOperand(op, 1), depth + 1);
  return false;
}

bool coopvecOffsetIsEvaluable(MlirValue offset) { return evaluable(offset, 0); }

bool coopvecAccessIsPrechecked(MlirOperation op, MlirValue offset) {
  return isFunctionBody(mlirOperationGetBlock(op)) &&
         coopvecOffsetIsEvaluable(offset);
}
