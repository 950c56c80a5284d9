//===- Signature.c - What a function takes and which memory it touches ----===//
//
// The engine marshals by the per-thread signature: vec arguments and
// results are batch x N arrays, memrefs are shared 1-D buffers, scalars are
// uniform values. Each use of a memref argument is recorded as an access
// (a range of elements, its offset still symbolic) so that every run can
// be bounds-checked with the actual scalar arguments (Extent.c), and as a
// read, an accumulation or a store. A use the engine does not know is kept
// as an unknown access: running then refuses rather than run unchecked.
//
//===----------------------------------------------------------------------===//

#include "ExecutionEngine/Engine.h"

#include "Dialect/Accesses.h"

#include "coopvec-c/Dialect.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>

#include <stdlib.h>
#include <string.h>

static const char *printType(MlirType type) {
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

static bool isF16OrF32(CoopvecDType dtype) {
  return dtype == CoopvecDTypeF16 || dtype == CoopvecDTypeF32;
}

/// The dtype of a memref argument's element type: f16, f32, or i8, i32,
/// i64 (tables, histograms, counters of per-thread code).
static bool memrefDTypeOf(MlirType element, CoopvecDType *dtype) {
  if (mlirTypeIsAInteger(element) && mlirIntegerTypeGetWidth(element) == 8)
    *dtype = CoopvecDTypeI8;
  else if (mlirTypeIsAInteger(element) &&
           mlirIntegerTypeGetWidth(element) == 32)
    *dtype = CoopvecDTypeI32;
  else if (mlirTypeIsAInteger(element) &&
           mlirIntegerTypeGetWidth(element) == 64)
    *dtype = CoopvecDTypeI64;
  else
    return dtypeOf(element, dtype) && isF16OrF32(*dtype);
  return true;
}

/// Classifies an argument (or, with `isResult`, a result) type; false if the
/// engine cannot pass it.
static bool classify(MlirType type, bool isResult, CoopvecValueInfo *info) {
  info->length = -1;
  if (coopvecTypeIsAVec(type)) {
    info->kind = CoopvecValueKindVec;
    info->length = coopvecVecTypeGetSize(type);
    return dtypeOf(coopvecVecTypeGetElementType(type), &info->dtype) &&
           isF16OrF32(info->dtype);
  }
  if (isResult)
    return false;
  if (mlirTypeIsAMemRef(type)) {
    info->kind = CoopvecValueKindMemRef;
    if (mlirShapedTypeGetRank(type) != 1)
      return false;
    if (!mlirShapedTypeIsDynamicDim(type, 0))
      info->length = mlirShapedTypeGetDimSize(type, 0);
    return memrefDTypeOf(mlirShapedTypeGetElementType(type), &info->dtype);
  }
  info->kind = CoopvecValueKindScalar;
  info->length = 1;
  return dtypeOf(type, &info->dtype);
}

static void classifyAll(MlirType functionType, bool isResult,
                        CoopvecValueInfo *infos, intptr_t count) {
  for (intptr_t i = 0; i < count; ++i) {
    MlirType type = isResult ? mlirFunctionTypeGetResult(functionType, i)
                             : mlirFunctionTypeGetInput(functionType, i);
    infos[i].type = printType(type);
    if (!classify(type, isResult, &infos[i])) {
      infos[i].kind = CoopvecValueKindUnsupported;
      infos[i].length = -1;
    }
  }
}

//===----------------------------------------------------------------------===//
// Uses of memref arguments
//===----------------------------------------------------------------------===//

/// Whether a matrix_view's matrix is accumulated into: anything but matvec
/// (outer_product_accumulate, or an op the engine cannot see into).
static bool viewIsWritten(MlirOperation view) {
  MlirValue matrix = mlirOperationGetResult(view, 0);
  for (MlirOpOperand use = mlirValueGetFirstUse(matrix);
       !mlirOpOperandIsNull(use); use = mlirOpOperandGetNextUse(use))
    if (!coopvecOpIsNamed(mlirOpOperandGetOwner(use), "coopvec.matvec"))
      return true;
  return false;
}

static int64_t vecLength(MlirValue value) {
  return coopvecVecTypeGetSize(mlirValueGetType(value));
}

/// A matrix_view reads (or accumulates into) [offset / size(T), + M * K).
static void describeView(MlirOperation user, int64_t elementBytes,
                         CoopvecAccess *access, CoopvecValueInfo *info) {
  MlirAttribute offset = mlirOperationGetAttributeByName(
      user, mlirStringRefCreateFromCString("offset"));
  MlirType matrix = mlirValueGetType(mlirOperationGetResult(user, 0));
  access->known = mlirAttributeIsAInteger(offset) &&
                  coopvecTypeIsAMatrix(matrix) &&
                  mlirIntegerAttrGetValueInt(offset) >= 0;
  if (!access->known)
    return;
  access->constantStart = mlirIntegerAttrGetValueInt(offset) / elementBytes;
  access->length =
      coopvecMatrixTypeGetRows(matrix) * coopvecMatrixTypeGetCols(matrix);
  info->written |= viewIsWritten(user);
}

/// memref.load / store / atomic_rmw of one element at `offset`; stores
/// and atomics write.
static bool describeElementUse(MlirOperation user, CoopvecAccess *access,
                               CoopvecValueInfo *info) {
  bool load = coopvecOpIsNamed(user, "memref.load");
  bool store = coopvecOpIsNamed(user, "memref.store") ||
               coopvecOpIsNamed(user, "memref.atomic_rmw");
  if (!load && !store)
    return false;
  access->offset = mlirOperationGetOperand(user, load ? 1 : 2);
  access->length = 1;
  info->written |= store;
  return true;
}

/// Fills `access` for one use of a memref argument; sets `written` and
/// `*stored` for writing uses. An access the lowering checks at run time
/// (Dialect/Accesses.h) is known and adds nothing to the extent.
static void describeUse(MlirOperation user, int64_t elementBytes,
                        CoopvecAccess *access, CoopvecValueInfo *info,
                        bool *stored) {
  memset(access, 0, sizeof(*access));
  access->op = user;
  access->known = true;
  if (coopvecOpIsNamed(user, "memref.dim"))
    access->runTime = true; // reads the size only
  else if (describeElementUse(user, access, info)) {
    access->runTime = !coopvecAccessIsPrechecked(user, access->offset);
    return;
  }
  bool load = coopvecOpIsNamed(user, "coopvec.load");
  bool maskedLoad = coopvecOpIsNamed(user, "coopvec.masked_load");
  bool store = coopvecOpIsNamed(user, "coopvec.store");
  bool maskedStore = coopvecOpIsNamed(user, "coopvec.masked_store");
  bool reduce = coopvecOpIsNamed(user, "coopvec.reduce_sum_accumulate");
  if (coopvecOpIsNamed(user, "coopvec.matrix_view")) {
    describeView(user, elementBytes, access, info);
  } else if (load || maskedLoad) {
    access->offset = mlirOperationGetOperand(user, 1);
    access->runTime = !coopvecAccessIsPrechecked(user, access->offset);
    access->length = vecLength(mlirOperationGetResult(user, 0));
    if (maskedLoad)
      access->mask = mlirOperationGetOperand(user, 2);
  } else if (store || maskedStore || reduce) {
    access->offset = mlirOperationGetOperand(user, 2);
    access->runTime = !coopvecAccessIsPrechecked(user, access->offset);
    access->length = vecLength(mlirOperationGetOperand(user, 0));
    if (maskedStore)
      access->mask = mlirOperationGetOperand(user, 3);
    info->written = true;
    *stored |= !reduce;
  } else if (access->runTime) {
    return;
  } else {
    access->known = false; // a call, a cast, ...: may read or write anything
    info->written = true;
  }
}

static CoopvecStatus collectAccesses(CoopvecFunction *function, intptr_t index,
                                     MlirValue arg) {
  CoopvecValueInfo *info = &function->args[index];
  CoopvecAccessList *list = &function->accesses[index];
  int64_t elementBytes = coopvecDTypeGetSize(info->dtype);
  for (MlirOpOperand use = mlirValueGetFirstUse(arg); !mlirOpOperandIsNull(use);
       use = mlirOpOperandGetNextUse(use)) {
    CoopvecAccess *grown =
        realloc(list->items, (size_t)(list->count + 1) * sizeof(CoopvecAccess));
    if (!grown)
      return coopvecEngineFail(function->engine, CoopvecStatusOutOfMemory,
                               "out of memory");
    list->items = grown;
    describeUse(mlirOpOperandGetOwner(use), elementBytes,
                &list->items[list->count++], info, &function->ordered);
  }
  return CoopvecStatusSuccess;
}

//===----------------------------------------------------------------------===//
// The function
//===----------------------------------------------------------------------===//

static CoopvecStatus allocate(CoopvecFunction *function) {
  function->args =
      calloc((size_t)function->numArgs + 1, sizeof(CoopvecValueInfo));
  function->results =
      calloc((size_t)function->numResults + 1, sizeof(CoopvecValueInfo));
  function->accesses =
      calloc((size_t)function->numArgs + 1, sizeof(CoopvecAccessList));
  if (function->args && function->results && function->accesses)
    return CoopvecStatusSuccess;
  return coopvecEngineFail(function->engine, CoopvecStatusOutOfMemory,
                           "out of memory");
}

CoopvecStatus coopvecFunctionInit(CoopvecFunction *function,
                                  MlirOperation func) {
  CoopvecEngine *engine = function->engine;
  function->func = func;
  MlirAttribute typeAttr = mlirOperationGetAttributeByName(
      func, mlirStringRefCreateFromCString("function_type"));
  if (mlirAttributeIsNull(typeAttr) || !mlirAttributeIsAType(typeAttr))
    return coopvecEngineFail(engine, CoopvecStatusInvalidModule,
                             "@%s has no function_type", function->name);
  MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
  if (mlirBlockIsNull(entry))
    return coopvecEngineFail(engine, CoopvecStatusInvalidModule,
                             "@%s is a declaration (it has no body)",
                             function->name);
  MlirType type = mlirTypeAttrGetValue(typeAttr);
  function->numArgs = mlirFunctionTypeGetNumInputs(type);
  function->numResults = mlirFunctionTypeGetNumResults(type);
  CoopvecStatus status = allocate(function);
  if (status != CoopvecStatusSuccess)
    return status;
  classifyAll(type, false, function->args, function->numArgs);
  classifyAll(type, true, function->results, function->numResults);
  for (intptr_t i = 0; i < function->numArgs && !status; ++i)
    if (function->args[i].kind == CoopvecValueKindMemRef)
      status = collectAccesses(function, i, mlirBlockGetArgument(entry, i));
  return status;
}

void coopvecFunctionFree(CoopvecFunction *function) {
  for (intptr_t i = 0; function->args && i < function->numArgs; ++i) {
    free((void *)function->args[i].type);
    free(function->accesses ? function->accesses[i].items : NULL);
  }
  for (intptr_t i = 0; function->results && i < function->numResults; ++i)
    free((void *)function->results[i].type);
  free(function->args);
  free(function->results);
  free(function->accesses);
  free(function->shadowed);
  free(function->name);
  memset(function, 0, sizeof(*function));
}

//===----------------------------------------------------------------------===//
// Queries
//===----------------------------------------------------------------------===//

const char *coopvecFunctionGetName(const CoopvecFunction *function) {
  return function ? function->name : "";
}

intptr_t coopvecFunctionGetNumArgs(const CoopvecFunction *function) {
  return function ? function->numArgs : 0;
}

intptr_t coopvecFunctionGetNumResults(const CoopvecFunction *function) {
  return function ? function->numResults : 0;
}

static CoopvecStatus getInfo(const CoopvecFunction *function, intptr_t index,
                             bool isResult, CoopvecValueInfo *info) {
  if (!function || !info)
    return CoopvecStatusInvalidArgument;
  intptr_t count = isResult ? function->numResults : function->numArgs;
  if (index < 0 || index >= count)
    return coopvecEngineFail(function->engine, CoopvecStatusInvalidArgument,
                             "@%s has no %s #%ld (it has %ld)", function->name,
                             isResult ? "result" : "argument", (long)index,
                             (long)count);
  *info = isResult ? function->results[index] : function->args[index];
  return CoopvecStatusSuccess;
}

CoopvecStatus coopvecFunctionGetArg(const CoopvecFunction *function,
                                    intptr_t index, CoopvecValueInfo *info) {
  return getInfo(function, index, false, info);
}

CoopvecStatus coopvecFunctionGetResult(const CoopvecFunction *function,
                                       intptr_t index, CoopvecValueInfo *info) {
  return getInfo(function, index, true, info);
}
