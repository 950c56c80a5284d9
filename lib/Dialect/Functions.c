//===- Functions.c - Per-thread functions and symbols ---------------------===//

#include "Dialect/Functions.h"
#include "Dialect/OpTable.h"

#include "coopvec-c/Dialect.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>

MlirType coopvecFunctionTypeOf(MlirOperation func) {
  MlirAttribute attr = mlirOperationGetAttributeByName(
      func, mlirStringRefCreateFromCString("function_type"));
  return mlirAttributeIsNull(attr) || !mlirAttributeIsAType(attr)
             ? (MlirType){NULL}
             : mlirTypeAttrGetValue(attr);
}

MlirStringRef coopvecSymbolNameOf(MlirOperation op) {
  MlirAttribute attr = mlirOperationGetAttributeByName(
      op, mlirStringRefCreateFromCString("sym_name"));
  if (mlirAttributeIsNull(attr) || !mlirAttributeIsAString(attr))
    return mlirStringRefCreate("", 0);
  return mlirStringAttrGetValue(attr);
}

MlirBlock coopvecModuleBody(MlirOperation module) {
  return mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
}

MlirOperation coopvecLookupSymbol(MlirOperation module, MlirStringRef name) {
  MlirStringRef symbol = mlirStringRefCreateFromCString("sym_name");
  for (MlirOperation op = mlirBlockGetFirstOperation(coopvecModuleBody(module));
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    if (!mlirAttributeIsNull(mlirOperationGetAttributeByName(op, symbol)) &&
        mlirStringRefEqual(coopvecSymbolNameOf(op), name))
      return op;
  return (MlirOperation){NULL};
}

static bool isCoopvecType(MlirType type) {
  return coopvecTypeIsAVec(type) || coopvecTypeIsAMatrix(type);
}

static MlirWalkResult findCoopvecOp(MlirOperation op, void *userData) {
  if (!coopvecLookupOp(op))
    return MlirWalkResultAdvance;
  *(bool *)userData = true;
  return MlirWalkResultInterrupt;
}

bool coopvecIsPerThreadFunction(MlirOperation func) {
  MlirType type = coopvecFunctionTypeOf(func);
  if (mlirTypeIsNull(type) || !mlirTypeIsAFunction(type))
    return false;
  for (intptr_t i = 0; i < mlirFunctionTypeGetNumInputs(type); ++i)
    if (isCoopvecType(mlirFunctionTypeGetInput(type, i)))
      return true;
  for (intptr_t i = 0; i < mlirFunctionTypeGetNumResults(type); ++i)
    if (isCoopvecType(mlirFunctionTypeGetResult(type, i)))
      return true;
  bool found = false;
  mlirOperationWalk(func, findCoopvecOp, &found, MlirWalkPreOrder);
  return found;
}
