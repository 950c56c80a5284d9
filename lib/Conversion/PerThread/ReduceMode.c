//===- ReduceMode.c - How scatter-adds at per-thread places are built -----===//

#include "Conversion/PerThread/ReduceMode.h"

#include "Conversion/PerThread/PerThread.h"

#include "coopvec-c/Support.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>

#include <string.h>

const char coopvecReduceModeValues[] = "direct, local, expand or auto";

bool coopvecParseReduceMode(const char *text, CoopvecReduceMode *mode) {
  static const struct {
    const char *name;
    CoopvecReduceMode mode;
  } modes[] = {{"direct", CoopvecReduceDirect},
               {"local", CoopvecReduceLocal},
               {"expand", CoopvecReduceExpand},
               {"auto", CoopvecReduceAuto}};
  for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); ++i)
    if (strcmp(text, modes[i].name) == 0) {
      *mode = modes[i].mode;
      return true;
    }
  return false;
}

/// The old value of a memref.atomic_rmw is per thread: summing first would
/// have to hand each thread its own partial sum, so an atomic whose result
/// is used stays one per thread. reduce_sum_accumulate has no result.
static bool resultUnused(MlirOperation op) {
  if (mlirOperationGetNumResults(op) == 0)
    return true;
  return mlirOpOperandIsNull(
      mlirValueGetFirstUse(mlirOperationGetResult(op, 0)));
}

static bool isAdd(MlirAttribute kind) {
  int64_t value = mlirIntegerAttrGetValueInt(kind);
  return value == COOPVEC_ATOMIC_ADDF || value == COOPVEC_ATOMIC_ADDI;
}

bool coopvecIsScatterAdd(const CoopvecElementAccess *a, MlirAttribute kind) {
  if (a->local || !isAdd(kind))
    return false;
  return mlirOperationIsNull(a->op) || resultUnused(a->op);
}

bool coopvecOpIsScatterAdd(MlirOperation op) {
  if (!coopvecOpIsNamed(op, "memref.atomic_rmw") ||
      !isAdd(mlirOperationGetAttributeByName(
          op, mlirStringRefCreateFromCString("kind"))))
    return false;
  MlirValue memref = mlirOperationGetOperand(op, 1);
  bool local = mlirValueIsAOpResult(memref) &&
               coopvecOpIsNamed(mlirOpResultGetOwner(memref), "memref.alloca");
  return !local && resultUnused(op);
}

/// A matrix_view whose matrix only outer_product_accumulate adds into (its
/// gradient operand): a linear layer's weight gradient, next to the
/// table gradients of a hash grid in one buffer. Its atomics stay; into a
/// host thread's own copy they are as right as into the buffer.
static bool isAccumulatedView(MlirOperation view) {
  if (!coopvecOpIsNamed(view, "coopvec.matrix_view"))
    return false;
  MlirValue matrix = mlirOperationGetResult(view, 0);
  for (MlirOpOperand use = mlirValueGetFirstUse(matrix);
       !mlirOpOperandIsNull(use); use = mlirOpOperandGetNextUse(use))
    if (mlirOpOperandGetOperandNumber(use) != 2 ||
        !coopvecOpIsNamed(mlirOpOperandGetOwner(use),
                          "coopvec.outer_product_accumulate"))
      return false;
  return true;
}

/// A use that only adds into the buffer, so that a zeroed copy per host
/// thread summed afterwards gives the same sum.
static bool isAddingUse(MlirOpOperand use) {
  MlirOperation user = mlirOpOperandGetOwner(use);
  intptr_t operand = mlirOpOperandGetOperandNumber(use);
  if (coopvecOpIsNamed(user, "coopvec.reduce_sum_accumulate"))
    return operand == 1;
  if (coopvecOpIsNamed(user, "coopvec.matrix_view"))
    return isAccumulatedView(user);
  return operand == 1 && coopvecOpIsScatterAdd(user);
}

bool coopvecArgumentIsExpandable(MlirValue arg) {
  MlirType type = mlirValueGetType(arg);
  if (!mlirTypeIsAMemRef(type) || mlirShapedTypeGetRank(type) != 1)
    return false;
  MlirType element = mlirShapedTypeGetElementType(type);
  if (!mlirTypeIsAF32(element) &&
      !(mlirTypeIsAInteger(element) && mlirIntegerTypeGetWidth(element) == 32))
    return false;
  MlirOpOperand use = mlirValueGetFirstUse(arg);
  if (mlirOpOperandIsNull(use))
    return false;
  for (; !mlirOpOperandIsNull(use); use = mlirOpOperandGetNextUse(use))
    if (!isAddingUse(use))
      return false;
  return true;
}
