//===- DecodeMemory.c - Checks of memref ops ------------------------------===//
//
// memref.load / store / atomic_rmw on a memref argument (rank 1, its size
// known at run time) or a local array (memref.alloca: a static shape, its
// elements in the frame). Indices are checked against the shape when the
// access runs (Memory.c).
//
//===----------------------------------------------------------------------===//

#include "Interpreter/Decode.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>

#include <stdlib.h>

/// The update of an atomic_rmw kind (MLIR's arith::AtomicRMWKind numbers)
/// as the op computing it; false for kinds the spec leaves out.
static bool atomicUpdate(int64_t kind, ElemKind elem, Opcode *update) {
  static const struct {
    int64_t kind;
    bool isFloat;
    Opcode update;
  } kinds[] = {{0, true, OP_FADD},    {1, false, OP_IADD},  {4, true, OP_FMAX},
               {6, false, OP_MAXSI},  {7, false, OP_MAXUI}, {8, true, OP_FMIN},
               {10, false, OP_MINSI}, {11, false, OP_MINUI}};
  for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); ++i)
    if (kinds[i].kind == kind && kinds[i].isFloat == (elem != ELEM_INT)) {
      *update = kinds[i].update;
      return true;
    }
  return false;
}

static bool checkAtomicKind(Interp *interp, Inst *inst, ElemKind elem) {
  MlirAttribute kind = mlirOperationGetAttributeByName(
      inst->op, mlirStringRefCreateFromCString("kind"));
  Opcode update;
  if (mlirAttributeIsNull(kind) || !mlirAttributeIsAInteger(kind) ||
      !atomicUpdate(mlirIntegerAttrGetValueInt(kind), elem, &update))
    return coopvecInterpError(interp, inst->op,
                              "has a kind the reference interpreter does not "
                              "support (addf, addi, maximumf, minimumf, maxs, "
                              "mins, maxu, minu on their element types)");
  inst->variant = update;
  return true;
}

/// Records the shape of the memref operand `operand` in inst->dims.
static void recordShape(Inst *inst, int32_t operand, int32_t rank) {
  MlirType type = mlirValueGetType(mlirOperationGetOperand(inst->op, operand));
  inst->rank = rank;
  inst->dims = malloc(sizeof(int64_t) * (size_t)(rank + 1));
  if (!inst->dims)
    abort();
  for (int32_t k = 0; k < rank; ++k)
    inst->dims[k] = mlirShapedTypeGetDimSize(type, k);
}

/// load: (memref, indices) -> value; store: (value, memref, indices);
/// atomic_rmw: (value, memref, indices) -> old value.
bool coopvecCheckMemRefAccess(Interp *interp, Program *program, int32_t index) {
  Inst *inst = instAt(program, index);
  bool isLoad = inst->opcode == OP_MEMREF_LOAD;
  int32_t memrefOperand = isLoad ? 0 : 1;
  Slot *memref = inst->numOperands > memrefOperand
                     ? operandSlot(program, inst, memrefOperand)
                     : NULL;
  if (!memref || memref->kind != SLOT_MEMREF ||
      (!memref->isLocal && memref->rank != 1))
    return coopvecInterpError(interp, inst->op,
                              "needs a memref argument of rank 1 or a local "
                              "array");
  int32_t results = inst->opcode == OP_MEMREF_STORE ? 0 : 1;
  if (!coopvecCheckCounts(interp, inst, memrefOperand + 1 + memref->rank,
                          results))
    return false;
  for (int32_t k = 0; k < memref->rank; ++k)
    if (!isIntScalar(operandSlot(program, inst, memrefOperand + 1 + k)))
      return coopvecDescribeError(
          interp, inst, operandSlot(program, inst, memrefOperand + 1 + k),
          "an index", "an index scalar");
  Slot *value =
      isLoad ? resultSlot(program, inst, 0) : operandSlot(program, inst, 0);
  SlotKind kind = memref->elem == ELEM_INT ? SLOT_INT : SLOT_FLOAT;
  if (value->kind != kind || value->isVector || value->elem != memref->elem ||
      value->bits != memref->bits ||
      (results && !sameType(resultSlot(program, inst, 0), value)))
    return coopvecDescribeError(interp, inst, value, "the value",
                                "a scalar of the memref's element type");
  recordShape(inst, memrefOperand, memref->rank);
  return inst->opcode != OP_ATOMIC_RMW ||
         checkAtomicKind(interp, inst, memref->elem);
}

/// A local array: its elements get frame cells of their own, zeroed each
/// time the alloca runs.
bool coopvecCheckAlloca(Interp *interp, Program *program, int32_t index) {
  Inst *inst = instAt(program, index);
  if (inst->numResults != 1 ||
      resultSlot(program, inst, 0)->kind != SLOT_MEMREF)
    return coopvecInterpError(interp, inst->op, "must produce one memref");
  Slot *array = resultSlot(program, inst, 0);
  if (inst->numOperands != 0 || array->staticSize < 0)
    return coopvecInterpError(interp, inst->op,
                              "allocates an array of dynamic size; local "
                              "arrays need a static shape");
  if (array->staticSize > COOPVEC_INTERP_MAX_FRAME_CELLS)
    return coopvecInterpError(interp, inst->op,
                              "allocates more than %d elements, the most the "
                              "reference interpreter holds",
                              COOPVEC_INTERP_MAX_FRAME_CELLS);
  array->isLocal = true;
  array->dataOffset = coopvecProgramReserve(program, array->staticSize);
  return true;
}
