//===- LocalArrays.c - Private arrays MLIR's SPIR-V conversion refuses ----===//
//
// Local arrays (`memref.alloca`, per thread: Function storage) are used by
// memref.load, memref.store and memref.atomic_rmw only (docs/dialect.md).
// Two of their forms fail memref-to-spirv ("failed to legalize"):
//
//   - an atomic on one: SPIR-V atomics take Workgroup or StorageBuffer
//     pointers, and the array is private anyway, so the update need not be
//     atomic: `old = load; store combine(old, v)`, the result `old`;
//   - an array of `index`: it holds i32 elements instead (the pipeline's
//     index width, convert-gpu-to-spirv{use-64bit-index=false}; i64 with
//     `index-bitwidth=64`), with `arith.index_cast` where a load's result
//     or a store's value is an index.
//
//===----------------------------------------------------------------------===//

#include "Conversion/PrepareSPIRV/PrepareSPIRV.h"

#include "Dialect/Verifier.h"
#include "IR/UpstreamBuilders.h"
#include "Support/Alloc.h"

#include "coopvec-c/Support.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>

#include <stdlib.h>

typedef struct OpList {
  MlirOperation *ops;
  intptr_t count, capacity;
} OpList;

static void append(OpList *list, MlirOperation op) {
  list->ops = coopvecGrowArray(list->ops, &list->capacity, list->count + 1,
                               sizeof(MlirOperation));
  list->ops[list->count++] = op;
}

/// Whether a memref type is private: no memory space, 0, or Function
/// storage (where coopvec-prepare-spirv moves local arrays).
static bool isPrivate(MlirType type) {
  MlirAttribute space = mlirMemRefTypeGetMemorySpace(type);
  if (mlirAttributeIsNull(space))
    return true;
  if (mlirAttributeIsAInteger(space))
    return mlirIntegerAttrGetValueInt(space) == 0;
  MlirAttribute function = mlirAttributeParseGet(
      mlirAttributeGetContext(space),
      mlirStringRefCreateFromCString("#spirv.storage_class<Function>"));
  return mlirAttributeEqual(space, function);
}

static MlirWalkResult collectAlloca(MlirOperation op, void *userData) {
  if (coopvecOpIsNamed(op, "memref.alloca") &&
      isPrivate(mlirValueGetType(mlirOperationGetResult(op, 0))))
    append(userData, op);
  return MlirWalkResultAdvance;
}

/// The operands of `op` from `first` on (its indices).
static MlirValue *indicesOf(MlirOperation op, intptr_t first, intptr_t *n) {
  *n = mlirOperationGetNumOperands(op) - first;
  intptr_t capacity = 0;
  MlirValue *indices =
      coopvecGrowArray(NULL, &capacity, *n + 1, sizeof(MlirValue));
  for (intptr_t i = 0; i < *n; ++i)
    indices[i] = mlirOperationGetOperand(op, first + i);
  return indices;
}

/// `memref.load %memref[%indices]` / `memref.store` of any rank.
static MlirValue load(CoopvecBuilder *b, MlirValue memref, intptr_t n,
                      const MlirValue *indices) {
  intptr_t capacity = 0;
  MlirValue *operands =
      coopvecGrowArray(NULL, &capacity, n + 1, sizeof(MlirValue));
  operands[0] = memref;
  for (intptr_t i = 0; i < n; ++i)
    operands[1 + i] = indices[i];
  MlirValue value = coopvecBuild1(
      b, "memref.load", n + 1, operands,
      mlirShapedTypeGetElementType(mlirValueGetType(memref)), 0, NULL);
  free(operands);
  return value;
}

static void store(CoopvecBuilder *b, MlirValue value, MlirValue memref,
                  intptr_t n, const MlirValue *indices) {
  intptr_t capacity = 0;
  MlirValue *operands =
      coopvecGrowArray(NULL, &capacity, n + 2, sizeof(MlirValue));
  operands[0] = value;
  operands[1] = memref;
  for (intptr_t i = 0; i < n; ++i)
    operands[2 + i] = indices[i];
  coopvecBuild0(b, "memref.store", n + 2, operands, 0, NULL);
  free(operands);
}

/// An atomic on a private array as load, combine, store.
static bool lowerPrivateAtomic(MlirOperation atomic, const char *passName) {
  const char *combine = coopvecAtomicCombineOp(atomic);
  if (!combine) {
    coopvecEmitOpError(
        atomic, "has a kind that %s cannot lower on a local array", passName);
    return false;
  }
  CoopvecBuilder b =
      coopvecBuilderBefore(atomic, mlirOperationGetLocation(atomic));
  MlirValue memref = mlirOperationGetOperand(atomic, 1);
  intptr_t n;
  MlirValue *indices = indicesOf(atomic, 2, &n);
  MlirValue old = load(&b, memref, n, indices);
  MlirValue value = mlirOperationGetOperand(atomic, 0);
  MlirValue updated = coopvecBuildBinaryOp(&b, combine, old, value);
  store(&b, updated, memref, n, indices);
  free(indices);
  mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(atomic, 0), old);
  mlirOperationDestroy(atomic);
  return true;
}

/// The users of `value` (each op once per use).
static OpList usersOf(MlirValue value) {
  OpList users = {NULL, 0, 0};
  for (MlirOpOperand use = mlirValueGetFirstUse(value);
       !mlirOpOperandIsNull(use); use = mlirOpOperandGetNextUse(use))
    append(&users, mlirOpOperandGetOwner(use));
  return users;
}

/// A load of an index array now loads `element`: its result goes through
/// index_cast to the index its users expect.
static void retypeLoad(MlirOperation op, MlirType element) {
  MlirValue result = mlirOperationGetResult(op, 0);
  MlirType index = mlirValueGetType(result);
  mlirValueSetType(result, element);
  MlirOperation next = mlirOperationGetNextInBlock(op);
  CoopvecBuilder b = coopvecBuilderBefore(next, mlirOperationGetLocation(op));
  MlirValue cast = coopvecBuildCast1(&b, "arith.index_cast", result, index);
  MlirOperation castOp = mlirOpResultGetOwner(cast);
  mlirValueReplaceAllUsesExcept(result, cast, 1, &castOp);
}

/// An index array (alloca result `array`) holding `element` instead.
static void retypeIndexArray(MlirValue array, MlirType element) {
  MlirType type = mlirValueGetType(array);
  intptr_t rank = mlirShapedTypeGetRank(type);
  int64_t shape[8];
  for (intptr_t i = 0; i < rank && i < 8; ++i)
    shape[i] = mlirShapedTypeGetDimSize(type, i);
  mlirValueSetType(array,
                   mlirMemRefTypeGet(element, rank, shape,
                                     mlirMemRefTypeGetLayout(type),
                                     mlirMemRefTypeGetMemorySpace(type)));
  OpList users = usersOf(array);
  for (intptr_t i = 0; i < users.count; ++i) {
    MlirOperation op = users.ops[i];
    if (coopvecOpIsNamed(op, "memref.load")) {
      retypeLoad(op, element);
    } else if (coopvecOpIsNamed(op, "memref.store") &&
               mlirValueEqual(mlirOperationGetOperand(op, 1), array)) {
      CoopvecBuilder b = coopvecBuilderBefore(op, mlirOperationGetLocation(op));
      MlirValue value = coopvecBuildCast1(
          &b, "arith.index_cast", mlirOperationGetOperand(op, 0), element);
      mlirOperationSetOperand(op, 0, value);
    }
  }
  free(users.ops);
}

static bool prepareLocalArray(MlirOperation alloca, unsigned indexBitwidth,
                              const char *passName) {
  MlirValue array = mlirOperationGetResult(alloca, 0);
  OpList users = usersOf(array);
  bool ok = true;
  for (intptr_t i = 0; ok && i < users.count; ++i)
    if (coopvecOpIsNamed(users.ops[i], "memref.atomic_rmw"))
      ok = lowerPrivateAtomic(users.ops[i], passName);
  free(users.ops);
  MlirType type = mlirValueGetType(array);
  if (ok && mlirShapedTypeGetRank(type) <= 8 &&
      mlirTypeIsAIndex(mlirShapedTypeGetElementType(type)))
    retypeIndexArray(
        array, mlirIntegerTypeGet(mlirTypeGetContext(type), indexBitwidth));
  return ok;
}

bool coopvecPrepareLocalArrays(MlirOperation kernel, unsigned indexBitwidth,
                               const char *passName) {
  OpList allocas = {NULL, 0, 0};
  mlirOperationWalk(kernel, collectAlloca, &allocas, MlirWalkPreOrder);
  bool ok = true;
  for (intptr_t i = 0; ok && i < allocas.count; ++i)
    ok = prepareLocalArray(allocas.ops[i], indexBitwidth, passName);
  free(allocas.ops);
  return ok;
}
