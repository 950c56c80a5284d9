//===- OpDecoders.c - Per-op checks of the reference interpreter ----------===//
//
// The interpreter does not trust the IR to have passed coopvec-verify: each
// op's operand and result shapes are checked here, so that execution never
// indexes past a value. The messages name what the op needs. This file has
// the coopvec ops and the table of every supported op; the upstream ops'
// checks are in DecodeArith.c, DecodeMemory.c and DecodeControl.c.
//
//===----------------------------------------------------------------------===//

#include "Dialect/OpTable.h"
#include "Interpreter/Decode.h"
#include "coopvec-c/Support.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>

#include <stdlib.h>
#include <string.h>

static bool isFloatVec(const Slot *slot, int64_t width) {
  return slot->kind == SLOT_FLOAT && slot->isVector &&
         (width < 0 || slot->width == width);
}

/// A right-hand operand of an elementwise op: a vector as wide as the
/// result, or a scalar that is broadcast.
static bool isBroadcastable(const Slot *slot, int64_t width) {
  return slot->kind == SLOT_FLOAT && (!slot->isVector || slot->width == width);
}

bool coopvecCheckCounts(Interp *interp, Inst *inst, int32_t operands,
                        int32_t results) {
  if (inst->numOperands == operands && inst->numResults == results)
    return true;
  return coopvecInterpError(interp, inst->op,
                            "has %d operands and %d results; expected %d "
                            "and %d",
                            inst->numOperands, inst->numResults, operands,
                            results);
}

bool coopvecDescribeError(Interp *interp, Inst *inst, const Slot *slot,
                          const char *what, const char *expected) {
  char text[96];
  coopvecSlotDescribe(slot, text, sizeof(text));
  return coopvecInterpError(interp, inst->op, "%s is a %s; expected %s", what,
                            text, expected);
}

//===----------------------------------------------------------------------===//
// Elementwise
//===----------------------------------------------------------------------===//

/// coopvec add/sub/mul/min/max/step/fma/neg/exp2/log2/tanh: a vec result,
/// a vec first operand of the same width, scalars allowed after it.
static bool checkVecElementwise(Interp *interp, Program *program,
                                int32_t index) {
  Inst *inst = instAt(program, index);
  int32_t arity = coopvecInterpFloatArity(inst->opcode);
  if (!coopvecCheckCounts(interp, inst, arity, 1))
    return false;
  Slot *result = resultSlot(program, inst, 0);
  if (!isFloatVec(result, -1))
    return coopvecDescribeError(interp, inst, result, "the result", "a vec");
  if (!isFloatVec(operandSlot(program, inst, 0), result->width))
    return coopvecDescribeError(interp, inst, operandSlot(program, inst, 0),
                                "operand #0", "a vec of the result's size");
  for (int32_t i = 1; i < arity; ++i)
    if (!isBroadcastable(operandSlot(program, inst, i), result->width))
      return coopvecDescribeError(interp, inst, operandSlot(program, inst, i),
                                  i == 1 ? "operand #1" : "operand #2",
                                  "a vec of the result's size or a scalar");
  return true;
}

//===----------------------------------------------------------------------===//
// Construction and unpacking
//===----------------------------------------------------------------------===//

static bool checkFromElements(Interp *interp, Program *program, int32_t index) {
  Inst *inst = instAt(program, index);
  Slot *result = resultSlot(program, inst, 0);
  if (inst->numResults != 1 || !isFloatVec(result, -1))
    return coopvecInterpError(interp, inst->op, "must produce one vec");
  if (inst->numOperands != result->width)
    return coopvecInterpError(interp, inst->op,
                              "has %d elements for a vec of %lld",
                              inst->numOperands, (long long)result->width);
  for (int32_t i = 0; i < inst->numOperands; ++i)
    if (!isFloatScalar(operandSlot(program, inst, i)))
      return coopvecDescribeError(interp, inst, operandSlot(program, inst, i),
                                  "an element", "a float scalar");
  return true;
}

static bool checkSplat(Interp *interp, Program *program, int32_t index) {
  Inst *inst = instAt(program, index);
  if (!coopvecCheckCounts(interp, inst, 1, 1))
    return false;
  if (!isFloatScalar(operandSlot(program, inst, 0)))
    return coopvecDescribeError(interp, inst, operandSlot(program, inst, 0),
                                "the value", "a float scalar");
  if (!isFloatVec(resultSlot(program, inst, 0), -1))
    return coopvecDescribeError(interp, inst, resultSlot(program, inst, 0),
                                "the result", "a vec");
  return true;
}

static bool checkUnpack(Interp *interp, Program *program, int32_t index) {
  Inst *inst = instAt(program, index);
  Slot *source = operandSlot(program, inst, 0);
  if (inst->numOperands != 1 || !isFloatVec(source, -1))
    return coopvecInterpError(interp, inst->op, "must unpack one vec");
  if (inst->numResults != source->width)
    return coopvecInterpError(interp, inst->op,
                              "has %d results for a vec of %lld",
                              inst->numResults, (long long)source->width);
  for (int32_t i = 0; i < inst->numResults; ++i)
    if (!isFloatScalar(resultSlot(program, inst, i)))
      return coopvecDescribeError(interp, inst, resultSlot(program, inst, i),
                                  "a result", "a float scalar");
  return true;
}

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

/// Checks (base: memref, offset: index) at operand `first` against a vec
/// of `elem`.
static bool checkAddress(Interp *interp, Program *program, Inst *inst,
                         int32_t first, ElemKind elem) {
  Slot *base = operandSlot(program, inst, first);
  if (base->kind != SLOT_MEMREF || base->isLocal || base->rank != 1 ||
      base->elem != elem)
    return coopvecDescribeError(interp, inst, base, "the buffer",
                                "a memref argument of the vec's element type");
  if (!isIntScalar(operandSlot(program, inst, first + 1)))
    return coopvecDescribeError(interp, inst,
                                operandSlot(program, inst, first + 1),
                                "the offset", "an index");
  return true;
}

static bool checkMask(Interp *interp, Program *program, Inst *inst,
                      int32_t operand, int64_t width) {
  Slot *mask = operandSlot(program, inst, operand);
  if (mask->kind != SLOT_INT || !mask->isVector || mask->width != width)
    return coopvecDescribeError(interp, inst, mask, "the mask",
                                "a vector of i1 as wide as the vec");
  return true;
}

static bool checkLoad(Interp *interp, Program *program, int32_t index) {
  Inst *inst = instAt(program, index);
  bool masked = inst->opcode == OP_MASKED_LOAD;
  if (!coopvecCheckCounts(interp, inst, masked ? 4 : 2, 1))
    return false;
  Slot *result = resultSlot(program, inst, 0);
  if (!isFloatVec(result, -1))
    return coopvecDescribeError(interp, inst, result, "the result", "a vec");
  if (!checkAddress(interp, program, inst, 0, result->elem))
    return false;
  if (!masked)
    return true;
  if (!isFloatScalar(operandSlot(program, inst, 3)))
    return coopvecDescribeError(interp, inst, operandSlot(program, inst, 3),
                                "the padding", "a float scalar");
  return checkMask(interp, program, inst, 2, result->width);
}

static bool checkStore(Interp *interp, Program *program, int32_t index) {
  Inst *inst = instAt(program, index);
  bool masked = inst->opcode == OP_MASKED_STORE;
  if (!coopvecCheckCounts(interp, inst, masked ? 4 : 3, 0))
    return false;
  Slot *value = operandSlot(program, inst, 0);
  if (!isFloatVec(value, -1))
    return coopvecDescribeError(interp, inst, value, "the value", "a vec");
  if (!checkAddress(interp, program, inst, 1, value->elem))
    return false;
  return !masked || checkMask(interp, program, inst, 3, value->width);
}

static bool checkMatrixView(Interp *interp, Program *program, int32_t index) {
  Inst *inst = instAt(program, index);
  if (!coopvecCheckCounts(interp, inst, 1, 1))
    return false;
  Slot *buffer = operandSlot(program, inst, 0);
  Slot *matrix = resultSlot(program, inst, 0);
  if (matrix->kind != SLOT_MATRIX)
    return coopvecDescribeError(interp, inst, matrix, "the result", "a matrix");
  if (buffer->kind != SLOT_MEMREF || buffer->isLocal ||
      buffer->elem != matrix->elem)
    return coopvecDescribeError(interp, inst, buffer, "the buffer",
                                "a memref of the matrix's element type");
  MlirAttribute offset = mlirOperationGetAttributeByName(
      inst->op, mlirStringRefCreateFromCString("offset"));
  if (mlirAttributeIsNull(offset) || !mlirAttributeIsAInteger(offset) ||
      mlirIntegerTypeIsUnsigned(mlirAttributeGetType(offset)) ||
      mlirIntegerTypeIsSigned(mlirAttributeGetType(offset)))
    return coopvecInterpError(interp, inst->op,
                              "needs an integer 'offset' attribute (bytes)");
  int64_t bytes = mlirIntegerAttrGetValueInt(offset);
  int64_t elementBytes = coopvecElemBytes(matrix->elem);
  if (bytes < 0 || bytes % elementBytes != 0)
    return coopvecInterpError(interp, inst->op,
                              "has byte offset %lld, which is not a "
                              "non-negative multiple of the element size %lld",
                              (long long)bytes, (long long)elementBytes);
  inst->elementOffset = bytes / elementBytes;
  return true;
}

//===----------------------------------------------------------------------===//
// Matrix ops
//===----------------------------------------------------------------------===//

static bool checkMatvec(Interp *interp, Program *program, int32_t index) {
  Inst *inst = instAt(program, index);
  inst->hasBias = inst->numOperands == 3;
  if (!coopvecCheckCounts(interp, inst, inst->hasBias ? 3 : 2, 1))
    return false;
  inst->transpose = !mlirAttributeIsNull(mlirOperationGetAttributeByName(
      inst->op, mlirStringRefCreateFromCString("transpose")));
  Slot *matrix = operandSlot(program, inst, 0);
  if (matrix->kind != SLOT_MATRIX)
    return coopvecDescribeError(interp, inst, matrix, "operand #0", "a matrix");
  int64_t inputs = inst->transpose ? matrix->rows : matrix->cols;
  int64_t outputs = inst->transpose ? matrix->cols : matrix->rows;
  Slot *input = operandSlot(program, inst, 1);
  if (!isFloatVec(input, inputs) || input->elem != matrix->elem)
    return coopvecDescribeError(interp, inst, input, "the input",
                                inst->transpose
                                    ? "a vec of the matrix's rows"
                                    : "a vec of the matrix's columns");
  Slot *result = resultSlot(program, inst, 0);
  if (!isFloatVec(result, outputs) || result->elem != matrix->elem)
    return coopvecDescribeError(interp, inst, result, "the result",
                                inst->transpose
                                    ? "a vec of the matrix's columns"
                                    : "a vec of the matrix's rows");
  if (inst->hasBias && !sameShape(operandSlot(program, inst, 2), result))
    return coopvecDescribeError(interp, inst, operandSlot(program, inst, 2),
                                "the bias", "a vec of the result's size");
  return true;
}

static bool checkOuterProduct(Interp *interp, Program *program, int32_t index) {
  Inst *inst = instAt(program, index);
  if (!coopvecCheckCounts(interp, inst, 3, 0))
    return false;
  Slot *matrix = operandSlot(program, inst, 2);
  if (matrix->kind != SLOT_MATRIX)
    return coopvecDescribeError(interp, inst, matrix, "the gradient",
                                "a matrix");
  if (matrix->layout == CoopvecLayoutInference)
    return coopvecInterpError(interp, inst->op,
                              "accumulates into a matrix with the "
                              "'inference' layout, which is read-only");
  if (!isFloatVec(operandSlot(program, inst, 0), matrix->rows))
    return coopvecDescribeError(interp, inst, operandSlot(program, inst, 0),
                                "operand #0", "a vec of the matrix's rows");
  if (!isFloatVec(operandSlot(program, inst, 1), matrix->cols))
    return coopvecDescribeError(interp, inst, operandSlot(program, inst, 1),
                                "operand #1", "a vec of the matrix's columns");
  return true;
}

static bool checkReduceSum(Interp *interp, Program *program, int32_t index) {
  Inst *inst = instAt(program, index);
  if (!coopvecCheckCounts(interp, inst, 3, 0))
    return false;
  Slot *value = operandSlot(program, inst, 0);
  if (!isFloatVec(value, -1))
    return coopvecDescribeError(interp, inst, value, "the value", "a vec");
  return checkAddress(interp, program, inst, 1, value->elem);
}

//===----------------------------------------------------------------------===//
// The table
//===----------------------------------------------------------------------===//

/// The interpreter's case of every coopvec op; the compiler checks that no
/// op of Ops.def is missing (-Wswitch).
static OpDecoder coopvecDecoder(const CoopvecOpInfo *info) {
  switch (info->id) {
  case CoopvecOpFromElements:
    return (OpDecoder){info->name, OP_FROM_ELEMENTS, checkFromElements};
  case CoopvecOpSplat:
    return (OpDecoder){info->name, OP_SPLAT, checkSplat};
  case CoopvecOpUnpack:
    return (OpDecoder){info->name, OP_UNPACK, checkUnpack};
  case CoopvecOpFromVector:
  case CoopvecOpToVector:
    return (OpDecoder){info->name, OP_COPY, coopvecCheckConversion};
  case CoopvecOpCast:
    return (OpDecoder){info->name, OP_ROUND, coopvecCheckConversion};
  case CoopvecOpLoad:
    return (OpDecoder){info->name, OP_LOAD, checkLoad};
  case CoopvecOpMaskedLoad:
    return (OpDecoder){info->name, OP_MASKED_LOAD, checkLoad};
  case CoopvecOpStore:
    return (OpDecoder){info->name, OP_STORE, checkStore};
  case CoopvecOpMaskedStore:
    return (OpDecoder){info->name, OP_MASKED_STORE, checkStore};
  case CoopvecOpMatrixView:
    return (OpDecoder){info->name, OP_MATRIX_VIEW, checkMatrixView};
  case CoopvecOpAdd:
    return (OpDecoder){info->name, OP_FADD, checkVecElementwise};
  case CoopvecOpSub:
    return (OpDecoder){info->name, OP_FSUB, checkVecElementwise};
  case CoopvecOpMul:
    return (OpDecoder){info->name, OP_FMUL, checkVecElementwise};
  case CoopvecOpMin:
    return (OpDecoder){info->name, OP_FMINNUM, checkVecElementwise};
  case CoopvecOpMax:
    return (OpDecoder){info->name, OP_FMAXNUM, checkVecElementwise};
  case CoopvecOpStep:
    return (OpDecoder){info->name, OP_STEP, checkVecElementwise};
  case CoopvecOpFma:
    return (OpDecoder){info->name, OP_FMA, checkVecElementwise};
  case CoopvecOpNeg:
    return (OpDecoder){info->name, OP_FNEG, checkVecElementwise};
  case CoopvecOpExp2:
    return (OpDecoder){info->name, OP_EXP2, checkVecElementwise};
  case CoopvecOpLog2:
    return (OpDecoder){info->name, OP_LOG2, checkVecElementwise};
  case CoopvecOpTanh:
    return (OpDecoder){info->name, OP_TANH, checkVecElementwise};
  case CoopvecOpMatvec:
    return (OpDecoder){info->name, OP_MATVEC, checkMatvec};
  case CoopvecOpOuterProductAccumulate:
    return (OpDecoder){info->name, OP_OUTER_PRODUCT, checkOuterProduct};
  case CoopvecOpReduceSumAccumulate:
    return (OpDecoder){info->name, OP_REDUCE_SUM, checkReduceSum};
  case CoopvecOpCount:
    break;
  }
  return (OpDecoder){NULL, OP_RETURN, NULL};
}

/// The upstream ops a per-thread function may contain
/// (docs/per-thread-programs.md).
static const OpDecoder decoders[] = {
    {"arith.constant", OP_CONSTANT, coopvecCheckConstant},
    {"arith.addf", OP_FADD, coopvecCheckArithFloat},
    {"arith.subf", OP_FSUB, coopvecCheckArithFloat},
    {"arith.mulf", OP_FMUL, coopvecCheckArithFloat},
    {"arith.divf", OP_FDIV, coopvecCheckArithFloat},
    {"arith.remf", OP_FREM, coopvecCheckArithFloat},
    {"arith.negf", OP_FNEG, coopvecCheckArithFloat},
    {"arith.maximumf", OP_FMAX, coopvecCheckArithFloat},
    {"arith.minimumf", OP_FMIN, coopvecCheckArithFloat},
    {"arith.maxnumf", OP_FMAXNUM, coopvecCheckArithFloat},
    {"arith.minnumf", OP_FMINNUM, coopvecCheckArithFloat},
    {"arith.cmpf", OP_CMPF, coopvecCheckCompare},
    {"arith.addi", OP_IADD, coopvecCheckArithInt},
    {"arith.subi", OP_ISUB, coopvecCheckArithInt},
    {"arith.muli", OP_IMUL, coopvecCheckArithInt},
    {"arith.divsi", OP_DIVSI, coopvecCheckArithInt},
    {"arith.divui", OP_DIVUI, coopvecCheckArithInt},
    {"arith.ceildivsi", OP_CEILDIVSI, coopvecCheckArithInt},
    {"arith.ceildivui", OP_CEILDIVUI, coopvecCheckArithInt},
    {"arith.floordivsi", OP_FLOORDIVSI, coopvecCheckArithInt},
    {"arith.remsi", OP_REMSI, coopvecCheckArithInt},
    {"arith.remui", OP_REMUI, coopvecCheckArithInt},
    {"arith.maxsi", OP_MAXSI, coopvecCheckArithInt},
    {"arith.maxui", OP_MAXUI, coopvecCheckArithInt},
    {"arith.minsi", OP_MINSI, coopvecCheckArithInt},
    {"arith.minui", OP_MINUI, coopvecCheckArithInt},
    {"arith.andi", OP_ANDI, coopvecCheckArithInt},
    {"arith.ori", OP_ORI, coopvecCheckArithInt},
    {"arith.xori", OP_XORI, coopvecCheckArithInt},
    {"arith.shli", OP_SHLI, coopvecCheckArithInt},
    {"arith.shrsi", OP_SHRSI, coopvecCheckArithInt},
    {"arith.shrui", OP_SHRUI, coopvecCheckArithInt},
    {"arith.cmpi", OP_CMPI, coopvecCheckCompare},
    {"arith.select", OP_SELECT, coopvecCheckSelect},
    {"arith.extf", OP_COPY, coopvecCheckConversion},
    {"arith.truncf", OP_ROUND, coopvecCheckConversion},
    {"arith.extsi", OP_INT_CAST, coopvecCheckConversion},
    {"arith.extui", OP_INT_CAST_U, coopvecCheckConversion},
    {"arith.trunci", OP_INT_CAST, coopvecCheckConversion},
    {"arith.sitofp", OP_SITOFP, coopvecCheckConversion},
    {"arith.uitofp", OP_UITOFP, coopvecCheckConversion},
    {"arith.fptosi", OP_FPTOSI, coopvecCheckConversion},
    {"arith.fptoui", OP_FPTOUI, coopvecCheckConversion},
    {"arith.index_cast", OP_INT_CAST, coopvecCheckConversion},
    {"arith.index_castui", OP_INT_CAST_U, coopvecCheckConversion},
    {"arith.bitcast", OP_BITCAST, coopvecCheckConversion},
    {"math.sin", OP_SIN, coopvecCheckArithFloat},
    {"math.cos", OP_COS, coopvecCheckArithFloat},
    {"math.exp", OP_EXP, coopvecCheckArithFloat},
    {"math.exp2", OP_EXP2, coopvecCheckArithFloat},
    {"math.log", OP_LOG, coopvecCheckArithFloat},
    {"math.log2", OP_LOG2, coopvecCheckArithFloat},
    {"math.sqrt", OP_SQRT, coopvecCheckArithFloat},
    {"math.rsqrt", OP_RSQRT, coopvecCheckArithFloat},
    {"math.tanh", OP_TANH, coopvecCheckArithFloat},
    {"math.atan", OP_ATAN, coopvecCheckArithFloat},
    {"math.atan2", OP_ATAN2, coopvecCheckArithFloat},
    {"math.erf", OP_ERF, coopvecCheckArithFloat},
    {"math.powf", OP_POW, coopvecCheckArithFloat},
    {"math.floor", OP_FLOOR, coopvecCheckArithFloat},
    {"math.ceil", OP_CEIL, coopvecCheckArithFloat},
    {"math.round", OP_FROUND_AWAY, coopvecCheckArithFloat},
    {"math.trunc", OP_FTRUNC, coopvecCheckArithFloat},
    {"math.absf", OP_FABS, coopvecCheckArithFloat},
    {"math.copysign", OP_COPYSIGN, coopvecCheckArithFloat},
    {"math.fma", OP_FMA, coopvecCheckArithFloat},
    {"memref.load", OP_MEMREF_LOAD, coopvecCheckMemRefAccess},
    {"memref.store", OP_MEMREF_STORE, coopvecCheckMemRefAccess},
    {"memref.atomic_rmw", OP_ATOMIC_RMW, coopvecCheckMemRefAccess},
    {"memref.alloca", OP_ALLOCA, coopvecCheckAlloca},
    {"func.return", OP_RETURN, coopvecCheckReturn},
    {"func.call", OP_CALL, coopvecCheckCall},
    {"scf.if", OP_IF, coopvecCheckIf},
    {"scf.for", OP_FOR, coopvecCheckFor},
    {"scf.while", OP_WHILE, coopvecCheckWhile},
    {"scf.index_switch", OP_SWITCH, coopvecCheckSwitch},
    {"scf.yield", OP_YIELD, coopvecCheckTerminator},
    {"scf.condition", OP_CONDITION, coopvecCheckTerminator},
};

bool coopvecInterpFindDecoder(MlirStringRef name, OpDecoder *decoder) {
  const CoopvecOpInfo *info = coopvecLookupOpName(name);
  if (info) {
    *decoder = coopvecDecoder(info);
    return decoder->check != NULL;
  }
  for (size_t i = 0; i < sizeof(decoders) / sizeof(decoders[0]); ++i)
    if (mlirStringRefEqual(name,
                           mlirStringRefCreateFromCString(decoders[i].name))) {
      *decoder = decoders[i];
      return true;
    }
  return false;
}
