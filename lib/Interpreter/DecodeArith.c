//===- DecodeArith.c - Checks of arith and math ops -----------------------===//
//
// Elementwise ops on scalars or 1-D vectors: every operand has the
// result's shape (a condition of select may be a scalar), so execution can
// index all of them by the result's elements.
//
//===----------------------------------------------------------------------===//

#include "Interpreter/Decode.h"
#include "Interpreter/Execute.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>

#include <stdlib.h>

/// Every operand of the result's type, the result of `kind`.
static bool checkUniform(Interp *interp, Program *program, int32_t index,
                         int32_t arity, SlotKind kind, const char *expected) {
  Inst *inst = instAt(program, index);
  if (!coopvecCheckCounts(interp, inst, arity, 1))
    return false;
  Slot *result = resultSlot(program, inst, 0);
  if (result->kind != kind)
    return coopvecDescribeError(interp, inst, result, "the result", expected);
  for (int32_t i = 0; i < arity; ++i)
    if (!sameType(operandSlot(program, inst, i), result))
      return coopvecDescribeError(interp, inst, operandSlot(program, inst, i),
                                  "an operand", "the result's type");
  return true;
}

/// arith and math float ops: each result is rounded to its type.
bool coopvecCheckArithFloat(Interp *interp, Program *program, int32_t index) {
  Opcode opcode = instAt(program, index)->opcode;
  if (!checkUniform(interp, program, index, coopvecInterpFloatArity(opcode),
                    SLOT_FLOAT, "a float scalar or vector"))
    return false;
  instAt(program, index)->rounds = true;
  return true;
}

bool coopvecCheckArithInt(Interp *interp, Program *program, int32_t index) {
  return checkUniform(interp, program, index, 2, SLOT_INT,
                      "an integer or index scalar or vector");
}

/// The integer attribute `name` of `op` in [0, limit], or -1.
static int64_t enumAttribute(MlirOperation op, const char *name,
                             int64_t limit) {
  MlirAttribute attr =
      mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString(name));
  if (mlirAttributeIsNull(attr) || !mlirAttributeIsAInteger(attr))
    return -1;
  int64_t value = mlirIntegerAttrGetValueInt(attr);
  return value >= 0 && value <= limit ? value : -1;
}

/// cmpf / cmpi: two operands of one type, an i1 result of their shape.
bool coopvecCheckCompare(Interp *interp, Program *program, int32_t index) {
  Inst *inst = instAt(program, index);
  bool isFloat = inst->opcode == OP_CMPF;
  if (!coopvecCheckCounts(interp, inst, 2, 1))
    return false;
  Slot *lhs = operandSlot(program, inst, 0);
  Slot *result = resultSlot(program, inst, 0);
  if (lhs->kind != (isFloat ? SLOT_FLOAT : SLOT_INT) ||
      !sameType(operandSlot(program, inst, 1), lhs))
    return coopvecDescribeError(interp, inst, operandSlot(program, inst, 1),
                                "an operand",
                                isFloat ? "a float of the other's type"
                                        : "an integer of the other's type");
  if (result->kind != SLOT_INT || result->bits != 1 ||
      result->isVector != lhs->isVector || result->width != lhs->width)
    return coopvecDescribeError(interp, inst, result, "the result",
                                "i1 of the operands' shape");
  inst->variant = enumAttribute(inst->op, "predicate", isFloat ? 15 : 9);
  if (inst->variant < 0)
    return coopvecInterpError(interp, inst->op, "has an unknown predicate");
  return true;
}

/// select: a scalar i1 picks a whole value; an i1 vector picks elements.
bool coopvecCheckSelect(Interp *interp, Program *program, int32_t index) {
  Inst *inst = instAt(program, index);
  if (!coopvecCheckCounts(interp, inst, 3, 1))
    return false;
  Slot *condition = operandSlot(program, inst, 0);
  Slot *result = resultSlot(program, inst, 0);
  if (result->kind != SLOT_FLOAT && result->kind != SLOT_INT)
    return coopvecDescribeError(interp, inst, result, "the result",
                                "a scalar, vector or vec");
  for (int32_t i = 1; i < 3; ++i)
    if (!sameType(operandSlot(program, inst, i), result))
      return coopvecDescribeError(interp, inst, operandSlot(program, inst, i),
                                  "a value", "the result's type");
  if (condition->kind != SLOT_INT || condition->bits != 1 ||
      (condition->isVector &&
       (!result->isVector || condition->width != result->width)))
    return coopvecDescribeError(interp, inst, condition, "the condition",
                                "i1, or an i1 vector as wide as the result");
  return true;
}

//===----------------------------------------------------------------------===//
// Conversions
//===----------------------------------------------------------------------===//

static void conversionKinds(Opcode opcode, SlotKind *from, SlotKind *to) {
  *from = opcode == OP_SITOFP || opcode == OP_UITOFP || opcode == OP_INT_CAST ||
                  opcode == OP_INT_CAST_U
              ? SLOT_INT
              : SLOT_FLOAT;
  *to = opcode == OP_FPTOSI || opcode == OP_FPTOUI || opcode == OP_INT_CAST ||
                opcode == OP_INT_CAST_U
            ? SLOT_INT
            : SLOT_FLOAT;
}

/// arith.truncf rounds to nearest even unless told otherwise.
static bool checkRoundingMode(Interp *interp, Inst *inst) {
  MlirAttribute mode = mlirOperationGetAttributeByName(
      inst->op, mlirStringRefCreateFromCString("roundingmode"));
  if (mlirAttributeIsNull(mode) ||
      (mlirAttributeIsAInteger(mode) && mlirIntegerAttrGetValueInt(mode) == 0))
    return true;
  return coopvecInterpError(interp, inst->op,
                            "has a rounding mode other than to_nearest_even, "
                            "which the reference interpreter does not "
                            "support");
}

/// One operand converted elementwise into a result of the same width:
/// arith casts, coopvec.cast / from_vector / to_vector. bitcast keeps the
/// element's bit width and may change its kind.
bool coopvecCheckConversion(Interp *interp, Program *program, int32_t index) {
  Inst *inst = instAt(program, index);
  if (!coopvecCheckCounts(interp, inst, 1, 1))
    return false;
  Slot *source = operandSlot(program, inst, 0);
  Slot *result = resultSlot(program, inst, 0);
  SlotKind from, to;
  conversionKinds(inst->opcode, &from, &to);
  bool kindsOk =
      inst->opcode == OP_BITCAST
          ? source->bits == result->bits && source->kind != SLOT_MEMREF &&
                source->kind != SLOT_MATRIX && result->kind != SLOT_MEMREF &&
                result->kind != SLOT_MATRIX
          : source->kind == from && result->kind == to;
  if (!kindsOk || source->width != result->width ||
      source->isVector != result->isVector)
    return coopvecDescribeError(interp, inst, source, "the source",
                                "a value this conversion takes, as wide as "
                                "the result");
  return inst->opcode != OP_ROUND || checkRoundingMode(interp, inst);
}

//===----------------------------------------------------------------------===//
// arith.constant
//===----------------------------------------------------------------------===//

/// Reads one scalar attribute into `cell` as the slot's kind needs.
static bool constantCell(const Slot *slot, MlirAttribute attr, Cell *cell) {
  if (slot->kind == SLOT_FLOAT && mlirAttributeIsAFloat(attr)) {
    cell->f = mlirFloatAttrGetValueDouble(attr);
    return true;
  }
  if (slot->kind != SLOT_INT || !mlirAttributeIsAInteger(attr))
    return false;
  MlirType type = mlirAttributeGetType(attr);
  if (!mlirTypeIsAIndex(type) && !mlirIntegerTypeIsSignless(type))
    return false;
  // `true` reads as -1 (sign-extended from i1); cells hold it as 1.
  cell->i =
      coopvecInterpWrap((uint64_t)mlirIntegerAttrGetValueInt(attr), slot->bits);
  return true;
}

bool coopvecCheckConstant(Interp *interp, Program *program, int32_t index) {
  Inst *inst = instAt(program, index);
  if (!coopvecCheckCounts(interp, inst, 0, 1))
    return false;
  Slot *result = resultSlot(program, inst, 0);
  MlirAttribute value = mlirOperationGetAttributeByName(
      inst->op, mlirStringRefCreateFromCString("value"));
  inst->constant = calloc((size_t)result->width, sizeof(Cell));
  if (!inst->constant)
    abort();
  bool ok = !mlirAttributeIsNull(value) &&
            (result->kind == SLOT_FLOAT || result->kind == SLOT_INT);
  if (ok && !result->isVector)
    ok = constantCell(result, value, &inst->constant[0]);
  else if (ok)
    ok = mlirAttributeIsAElements(value) &&
         mlirElementsAttrGetNumElements(value) == result->width;
  for (int64_t i = 0; ok && result->isVector && i < result->width; ++i) {
    uint64_t position = (uint64_t)i;
    ok = constantCell(result, mlirElementsAttrGetValue(value, 1, &position),
                      &inst->constant[i]);
  }
  if (!ok)
    return coopvecInterpError(interp, inst->op,
                              "has a constant value the reference "
                              "interpreter cannot read");
  return true;
}
