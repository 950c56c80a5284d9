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
    if (mlirOpOperandGetOperandNumber(use) != 1 ||
        !coopvecOpIsScatterAdd(mlirOpOperandGetOwner(use)))
      return false;
  return true;
}
