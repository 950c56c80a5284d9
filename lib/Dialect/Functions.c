//===- Functions.c - Per-thread functions and symbols ---------------------===//

#include "Dialect/Functions.h"
#include "Dialect/OpTable.h"

#include "coopvec-c/Dialect.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>

#include <stdlib.h>

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

static MlirType dynamicMemRefOf(MlirType element) {
  int64_t shape[] = {mlirShapedTypeGetDynamicSize()};
  return mlirMemRefTypeContiguousGet(element, 1, shape, mlirAttributeGetNull());
}

MlirType coopvecBatchedFunctionType(MlirContext ctx, MlirType type) {
  intptr_t numInputs = mlirFunctionTypeGetNumInputs(type);
  intptr_t numResults = mlirFunctionTypeGetNumResults(type);
  intptr_t count = 1 + numInputs + numResults;
  MlirType *inputs = calloc((size_t)count, sizeof(MlirType));
  if (!inputs)
    abort();
  inputs[0] = mlirIndexTypeGet(ctx);
  for (intptr_t i = 0; i < numInputs; ++i) {
    MlirType input = mlirFunctionTypeGetInput(type, i);
    inputs[1 + i] = coopvecTypeIsAVec(input)
                        ? dynamicMemRefOf(coopvecVecTypeGetElementType(input))
                        : input;
  }
  for (intptr_t i = 0; i < numResults; ++i)
    inputs[1 + numInputs + i] = dynamicMemRefOf(
        coopvecVecTypeGetElementType(mlirFunctionTypeGetResult(type, i)));
  MlirType batched = mlirFunctionTypeGet(ctx, count, inputs, 0, NULL);
  free(inputs);
  return batched;
}
