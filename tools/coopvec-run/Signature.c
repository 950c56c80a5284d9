//===- Signature.c - What the entry function takes and touches ------------===//
//
// The runner marshals by the per-thread signature: vec arguments become
// batch x N arrays, memrefs are shared 1-D buffers, scalars are shared
// values. Memref uses are inspected for two facts the types do not carry:
// how many elements the function touches (to size random buffers and to
// refuse a too-small input file before the JIT code reads out of bounds),
// and whether it writes the buffer (gradients are outputs too).
//
//===----------------------------------------------------------------------===//

#include "Runner.h"
#include "coopvec-c/Support.h"
#include "coopvec-c/Support.h"

#include "coopvec-c/Dialect.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>

#include <stdlib.h>
#include <string.h>

static char *printType(MlirType type) {
  CoopvecBuffer buffer = {0};
  mlirTypePrint(type, coopvecBufferCallback, &buffer);
  return buffer.data ? buffer.data : calloc(1, 1);
}

/// The host dtype of a scalar or element type; false if unsupported.
static bool dtypeOf(MlirType type, CoopvecDType *dtype) {
  if (mlirTypeIsAF16(type))
    *dtype = CoopvecDTypeF16;
  else if (mlirTypeIsAF32(type))
    *dtype = CoopvecDTypeF32;
  else if (mlirTypeIsAF64(type))
    *dtype = CoopvecDTypeF64;
  else if (mlirTypeIsAIndex(type) ||
           (mlirTypeIsAInteger(type) && mlirIntegerTypeGetWidth(type) == 64))
    *dtype = CoopvecDTypeI64;
  else
    return false;
  return true;
}

/// Classifies an argument (or, with `isResult`, a result) type.
static bool classify(MlirType type, bool isResult, ValueInfo *info) {
  info->length = -1;
  info->usedExtent = -1;
  if (coopvecTypeIsAVec(type)) {
    info->kind = ArgKindVec;
    info->length = coopvecVecTypeGetSize(type);
    return dtypeOf(coopvecVecTypeGetElementType(type), &info->dtype);
  }
  if (isResult)
    return false;
  if (mlirTypeIsAMemRef(type)) {
    info->kind = ArgKindMemRef;
    if (mlirShapedTypeGetRank(type) != 1)
      return false;
    if (!mlirShapedTypeIsDynamicDim(type, 0))
      info->length = mlirShapedTypeGetDimSize(type, 0);
    MlirType element = mlirShapedTypeGetElementType(type);
    return (mlirTypeIsAF16(element) || mlirTypeIsAF32(element)) &&
           dtypeOf(element, &info->dtype);
  }
  info->kind = ArgKindScalar;
  info->length = 1;
  return dtypeOf(type, &info->dtype);
}

static void recordMatvec(MlirOperation op, Signature *signature) {
  MlirType x = mlirValueGetType(mlirOperationGetOperand(op, 1));
  int64_t length = coopvecVecTypeGetSize(x);
  if (length > signature->maxReduction)
    signature->maxReduction = length;
}

static MlirWalkResult findMatvecs(MlirOperation op, void *userData) {
  if (coopvecOpIsNamed(op, "coopvec.matvec") &&
      mlirOperationGetNumOperands(op) >= 2)
    recordMatvec(op, userData);
  return MlirWalkResultAdvance;
}

static MlirLogicalResult classifyAll(MlirType functionType, bool isResult,
                                     ValueInfo *infos, intptr_t count) {
  for (intptr_t i = 0; i < count; ++i) {
    MlirType type = isResult ? mlirFunctionTypeGetResult(functionType, i)
                             : mlirFunctionTypeGetInput(functionType, i);
    infos[i].typeText = printType(type);
    if (!classify(type, isResult, &infos[i])) {
      runError("%s #%ld has type %s, which coopvec-run cannot pass (%s)",
               isResult ? "result" : "argument", (long)i, infos[i].typeText,
               isResult ? "results must be !coopvec.vec of f16/f32"
                        : "supported: !coopvec.vec and rank-1 memref of "
                          "f16/f32, scalar f16/f32/f64/index/i64");
      return mlirLogicalResultFailure();
    }
  }
  return mlirLogicalResultSuccess();
}

/// Whether a matrix_view's matrix is accumulated into.
static bool viewIsWritten(MlirOperation view) {
  MlirValue matrix = mlirOperationGetResult(view, 0);
  for (MlirOpOperand use = mlirValueGetFirstUse(matrix);
       !mlirOpOperandIsNull(use); use = mlirOpOperandGetNextUse(use)) {
    if (!coopvecOpIsNamed(mlirOpOperandGetOwner(use), "coopvec.matvec"))
      return true; // outer_product_accumulate, or an op we cannot see into
  }
  return false;
}

/// Whether `user` of a memref argument may write it.
static bool useWrites(MlirOperation user) {
  if (coopvecOpIsNamed(user, "coopvec.load") ||
      coopvecOpIsNamed(user, "coopvec.masked_load"))
    return false;
  if (coopvecOpIsNamed(user, "coopvec.matrix_view"))
    return viewIsWritten(user);
  return true; // stores, accumulations, calls: conservatively written
}

MlirLogicalResult signatureInit(Signature *signature, MlirOperation func) {
  memset(signature, 0, sizeof(*signature));
  signature->func = func;
  signature->maxReduction = 1;
  MlirAttribute typeAttr = mlirOperationGetAttributeByName(
      func, mlirStringRefCreateFromCString("function_type"));
  if (mlirAttributeIsNull(typeAttr) || !mlirAttributeIsAType(typeAttr)) {
    runError("the entry function has no function_type");
    return mlirLogicalResultFailure();
  }
  MlirType functionType = mlirTypeAttrGetValue(typeAttr);
  signature->numArgs = mlirFunctionTypeGetNumInputs(functionType);
  signature->numResults = mlirFunctionTypeGetNumResults(functionType);
  signature->args = calloc((size_t)signature->numArgs + 1, sizeof(ValueInfo));
  signature->results =
      calloc((size_t)signature->numResults + 1, sizeof(ValueInfo));
  if (mlirLogicalResultIsFailure(classifyAll(
          functionType, false, signature->args, signature->numArgs)) ||
      mlirLogicalResultIsFailure(classifyAll(
          functionType, true, signature->results, signature->numResults)))
    return mlirLogicalResultFailure();
  MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
  if (mlirBlockIsNull(entry)) {
    runError("the entry function is a declaration (it has no body)");
    return mlirLogicalResultFailure();
  }
  for (intptr_t i = 0; i < signature->numArgs; ++i) {
    if (signature->args[i].kind != ArgKindMemRef)
      continue;
    MlirValue arg = mlirBlockGetArgument(entry, i);
    for (MlirOpOperand use = mlirValueGetFirstUse(arg);
         !mlirOpOperandIsNull(use); use = mlirOpOperandGetNextUse(use))
      signature->args[i].written |= useWrites(mlirOpOperandGetOwner(use));
  }
  mlirOperationWalk(func, findMatvecs, signature, MlirWalkPreOrder);
  return mlirLogicalResultSuccess();
}

void signatureDestroy(Signature *signature) {
  for (intptr_t i = 0; signature->args && i < signature->numArgs; ++i)
    free((void *)signature->args[i].typeText);
  for (intptr_t i = 0; signature->results && i < signature->numResults; ++i)
    free((void *)signature->results[i].typeText);
  free(signature->args);
  free(signature->results);
  memset(signature, 0, sizeof(*signature));
}

//===----------------------------------------------------------------------===//
// Extents
//===----------------------------------------------------------------------===//

/// The value of an index operand: a constant, or an entry argument whose
/// input is known. -1 when unknown.
static int64_t resolveIndex(MlirValue value, MlirBlock entry,
                            const CoopvecNpyArray *const *inputs) {
  if (mlirValueIsAOpResult(value)) {
    MlirOperation def = mlirOpResultGetOwner(value);
    if (!coopvecOpIsNamed(def, "arith.constant"))
      return -1;
    MlirAttribute attr = mlirOperationGetAttributeByName(
        def, mlirStringRefCreateFromCString("value"));
    return mlirAttributeIsAInteger(attr) ? mlirIntegerAttrGetValueInt(attr)
                                         : -1;
  }
  if (!mlirBlockEqual(mlirBlockArgumentGetOwner(value), entry))
    return -1;
  const CoopvecNpyArray *input = inputs[mlirBlockArgumentGetArgNumber(value)];
  if (!input || input->array.dtype != CoopvecDTypeI64 || input->array.size < 1)
    return -1;
  return ((const int64_t *)input->array.data)[0];
}

/// Elements [0, extent) of the memref that `user` touches; -1 if unknown.
static int64_t extentOfUse(MlirOperation user, int64_t elementBytes,
                           MlirBlock entry,
                           const CoopvecNpyArray *const *inputs) {
  if (coopvecOpIsNamed(user, "coopvec.matrix_view")) {
    MlirAttribute offset = mlirOperationGetAttributeByName(
        user, mlirStringRefCreateFromCString("offset"));
    MlirType matrix = mlirValueGetType(mlirOperationGetResult(user, 0));
    if (!mlirAttributeIsAInteger(offset))
      return -1;
    return mlirIntegerAttrGetValueInt(offset) / elementBytes +
           coopvecMatrixTypeGetRows(matrix) * coopvecMatrixTypeGetCols(matrix);
  }
  MlirValue vector, offset;
  if (coopvecOpIsNamed(user, "coopvec.load") ||
      coopvecOpIsNamed(user, "coopvec.masked_load")) {
    vector = mlirOperationGetResult(user, 0);
    offset = mlirOperationGetOperand(user, 1);
  } else if (coopvecOpIsNamed(user, "coopvec.store") ||
             coopvecOpIsNamed(user, "coopvec.masked_store") ||
             coopvecOpIsNamed(user, "coopvec.reduce_sum_accumulate")) {
    vector = mlirOperationGetOperand(user, 0);
    offset = mlirOperationGetOperand(user, 2);
  } else {
    return -1;
  }
  int64_t start = resolveIndex(offset, entry, inputs);
  if (start < 0)
    return -1;
  return start + coopvecVecTypeGetSize(mlirValueGetType(vector));
}

void signatureDeriveExtents(Signature *signature,
                            const CoopvecNpyArray *const *inputs) {
  MlirBlock entry =
      mlirRegionGetFirstBlock(mlirOperationGetRegion(signature->func, 0));
  for (intptr_t i = 0; i < signature->numArgs; ++i) {
    ValueInfo *info = &signature->args[i];
    if (info->kind != ArgKindMemRef)
      continue;
    int64_t elementBytes = coopvecDTypeGetSize(info->dtype);
    int64_t extent = 0;
    MlirValue arg = mlirBlockGetArgument(entry, i);
    for (MlirOpOperand use = mlirValueGetFirstUse(arg);
         !mlirOpOperandIsNull(use) && extent >= 0;
         use = mlirOpOperandGetNextUse(use)) {
      int64_t used =
          extentOfUse(mlirOpOperandGetOwner(use), elementBytes, entry, inputs);
      extent = used < 0 ? -1 : (used > extent ? used : extent);
    }
    info->usedExtent = extent;
  }
}
