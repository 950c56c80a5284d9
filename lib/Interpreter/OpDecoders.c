//===- OpDecoders.c - Per-op checks of the reference interpreter ----------===//
//
// The interpreter does not trust the IR to have passed coopvec-verify: each
// op's operand and result shapes are checked here, so that execution never
// indexes past a value. The messages name what the op needs.
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

static bool isFloatScalar(const Slot *slot) {
  return slot->kind == SLOT_FLOAT && !slot->isVector;
}

static bool isIntScalar(const Slot *slot) {
  return slot->kind == SLOT_INT && !slot->isVector;
}

/// A right-hand operand of an elementwise op: a vector as wide as the
/// result, or a scalar that is broadcast.
static bool isBroadcastable(const Slot *slot, int64_t width) {
  return slot->kind == SLOT_FLOAT && (!slot->isVector || slot->width == width);
}

static bool sameShape(const Slot *a, const Slot *b) {
  return a->kind == b->kind && a->isVector == b->isVector &&
         coopvecSlotCells(a) == coopvecSlotCells(b);
}

static bool checkCounts(Interp *interp, Inst *inst, int32_t operands,
                        int32_t results) {
  if (inst->numOperands == operands && inst->numResults == results)
    return true;
  return coopvecInterpError(interp, inst->op,
                            "has %d operands and %d results; expected %d "
                            "and %d",
                            inst->numOperands, inst->numResults, operands,
                            results);
}

static bool describeError(Interp *interp, Inst *inst, const Slot *slot,
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
  int32_t arity = inst->opcode == OP_FMA ? 3
                  : (inst->opcode == OP_FNEG || inst->opcode == OP_EXP2 ||
                     inst->opcode == OP_LOG2 || inst->opcode == OP_TANH)
                      ? 1
                      : 2;
  if (!checkCounts(interp, inst, arity, 1))
    return false;
  Slot *result = resultSlot(program, inst, 0);
  if (!isFloatVec(result, -1))
    return describeError(interp, inst, result, "the result", "a vec");
  if (!isFloatVec(operandSlot(program, inst, 0), result->width))
    return describeError(interp, inst, operandSlot(program, inst, 0),
                         "operand #0", "a vec of the result's size");
  for (int32_t i = 1; i < arity; ++i)
    if (!isBroadcastable(operandSlot(program, inst, i), result->width))
      return describeError(interp, inst, operandSlot(program, inst, i),
                           i == 1 ? "operand #1" : "operand #2",
                           "a vec of the result's size or a scalar");
  return true;
}

/// arith float ops on scalars or vectors: all operands shaped like the
/// result.
static bool checkArithFloat(Interp *interp, Program *program, int32_t index) {
  Inst *inst = instAt(program, index);
  int32_t arity = inst->opcode == OP_FNEG ? 1 : 2;
  if (!checkCounts(interp, inst, arity, 1))
    return false;
  Slot *result = resultSlot(program, inst, 0);
  if (result->kind != SLOT_FLOAT)
    return describeError(interp, inst, result, "the result",
                         "a float scalar or vector");
  for (int32_t i = 0; i < arity; ++i)
    if (!sameShape(operandSlot(program, inst, i), result))
      return describeError(interp, inst, operandSlot(program, inst, i),
                           "an operand", "the result's type");
  return true;
}

static bool checkArithInt(Interp *interp, Program *program, int32_t index) {
  Inst *inst = instAt(program, index);
  if (!checkCounts(interp, inst, 2, 1))
    return false;
  for (int32_t i = 0; i < 2; ++i)
    if (!isIntScalar(operandSlot(program, inst, i)))
      return describeError(interp, inst, operandSlot(program, inst, i),
                           "an operand", "an integer or index scalar");
  if (!isIntScalar(resultSlot(program, inst, 0)))
    return describeError(interp, inst, resultSlot(program, inst, 0),
                         "the result", "an integer or index scalar");
  return true;
}

/// One operand converted elementwise into a result of the same width:
/// index_cast (int), extf / truncf (float), cast / from_vector / to_vector.
static bool checkConversion(Interp *interp, Program *program, int32_t index) {
  Inst *inst = instAt(program, index);
  if (!checkCounts(interp, inst, 1, 1))
    return false;
  Slot *source = operandSlot(program, inst, 0);
  Slot *result = resultSlot(program, inst, 0);
  if (source->kind != result->kind || source->width != result->width ||
      (source->kind != SLOT_FLOAT && source->kind != SLOT_INT))
    return describeError(interp, inst, source, "the source",
                         "a value of the result's kind and size");
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
      return describeError(interp, inst, operandSlot(program, inst, i),
                           "an element", "a float scalar");
  return true;
}

static bool checkSplat(Interp *interp, Program *program, int32_t index) {
  Inst *inst = instAt(program, index);
  if (!checkCounts(interp, inst, 1, 1))
    return false;
  if (!isFloatScalar(operandSlot(program, inst, 0)))
    return describeError(interp, inst, operandSlot(program, inst, 0),
                         "the value", "a float scalar");
  if (!isFloatVec(resultSlot(program, inst, 0), -1))
    return describeError(interp, inst, resultSlot(program, inst, 0),
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
      return describeError(interp, inst, resultSlot(program, inst, i),
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
  if (base->kind != SLOT_MEMREF || base->elem != elem)
    return describeError(interp, inst, base, "the buffer",
                         "a memref of the vec's element type");
  if (!isIntScalar(operandSlot(program, inst, first + 1)))
    return describeError(interp, inst, operandSlot(program, inst, first + 1),
                         "the offset", "an index");
  return true;
}

static bool checkMask(Interp *interp, Program *program, Inst *inst,
                      int32_t operand, int64_t width) {
  Slot *mask = operandSlot(program, inst, operand);
  if (mask->kind != SLOT_INT || !mask->isVector || mask->width != width)
    return describeError(interp, inst, mask, "the mask",
                         "a vector of i1 as wide as the vec");
  return true;
}

static bool checkLoad(Interp *interp, Program *program, int32_t index) {
  Inst *inst = instAt(program, index);
  bool masked = inst->opcode == OP_MASKED_LOAD;
  if (!checkCounts(interp, inst, masked ? 4 : 2, 1))
    return false;
  Slot *result = resultSlot(program, inst, 0);
  if (!isFloatVec(result, -1))
    return describeError(interp, inst, result, "the result", "a vec");
  if (!checkAddress(interp, program, inst, 0, result->elem))
    return false;
  if (!masked)
    return true;
  if (!isFloatScalar(operandSlot(program, inst, 3)))
    return describeError(interp, inst, operandSlot(program, inst, 3),
                         "the padding", "a float scalar");
  return checkMask(interp, program, inst, 2, result->width);
}

static bool checkStore(Interp *interp, Program *program, int32_t index) {
  Inst *inst = instAt(program, index);
  bool masked = inst->opcode == OP_MASKED_STORE;
  if (!checkCounts(interp, inst, masked ? 4 : 3, 0))
    return false;
  Slot *value = operandSlot(program, inst, 0);
  if (!isFloatVec(value, -1))
    return describeError(interp, inst, value, "the value", "a vec");
  if (!checkAddress(interp, program, inst, 1, value->elem))
    return false;
  return !masked || checkMask(interp, program, inst, 3, value->width);
}

static bool checkMatrixView(Interp *interp, Program *program, int32_t index) {
  Inst *inst = instAt(program, index);
  if (!checkCounts(interp, inst, 1, 1))
    return false;
  Slot *buffer = operandSlot(program, inst, 0);
  Slot *matrix = resultSlot(program, inst, 0);
  if (matrix->kind != SLOT_MATRIX)
    return describeError(interp, inst, matrix, "the result", "a matrix");
  if (buffer->kind != SLOT_MEMREF || buffer->elem != matrix->elem)
    return describeError(interp, inst, buffer, "the buffer",
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
  if (!checkCounts(interp, inst, inst->hasBias ? 3 : 2, 1))
    return false;
  inst->transpose = !mlirAttributeIsNull(mlirOperationGetAttributeByName(
      inst->op, mlirStringRefCreateFromCString("transpose")));
  Slot *matrix = operandSlot(program, inst, 0);
  if (matrix->kind != SLOT_MATRIX)
    return describeError(interp, inst, matrix, "operand #0", "a matrix");
  int64_t inputs = inst->transpose ? matrix->rows : matrix->cols;
  int64_t outputs = inst->transpose ? matrix->cols : matrix->rows;
  Slot *input = operandSlot(program, inst, 1);
  if (!isFloatVec(input, inputs) || input->elem != matrix->elem)
    return describeError(interp, inst, input, "the input",
                         inst->transpose ? "a vec of the matrix's rows"
                                         : "a vec of the matrix's columns");
  Slot *result = resultSlot(program, inst, 0);
  if (!isFloatVec(result, outputs) || result->elem != matrix->elem)
    return describeError(interp, inst, result, "the result",
                         inst->transpose ? "a vec of the matrix's columns"
                                         : "a vec of the matrix's rows");
  if (inst->hasBias && !sameShape(operandSlot(program, inst, 2), result))
    return describeError(interp, inst, operandSlot(program, inst, 2),
                         "the bias", "a vec of the result's size");
  return true;
}

static bool checkOuterProduct(Interp *interp, Program *program, int32_t index) {
  Inst *inst = instAt(program, index);
  if (!checkCounts(interp, inst, 3, 0))
    return false;
  Slot *matrix = operandSlot(program, inst, 2);
  if (matrix->kind != SLOT_MATRIX)
    return describeError(interp, inst, matrix, "the gradient", "a matrix");
  if (matrix->layout == CoopvecLayoutInference)
    return coopvecInterpError(interp, inst->op,
                              "accumulates into a matrix with the "
                              "'inference' layout, which is read-only");
  if (!isFloatVec(operandSlot(program, inst, 0), matrix->rows))
    return describeError(interp, inst, operandSlot(program, inst, 0),
                         "operand #0", "a vec of the matrix's rows");
  if (!isFloatVec(operandSlot(program, inst, 1), matrix->cols))
    return describeError(interp, inst, operandSlot(program, inst, 1),
                         "operand #1", "a vec of the matrix's columns");
  return true;
}

static bool checkReduceSum(Interp *interp, Program *program, int32_t index) {
  Inst *inst = instAt(program, index);
  if (!checkCounts(interp, inst, 3, 0))
    return false;
  Slot *value = operandSlot(program, inst, 0);
  if (!isFloatVec(value, -1))
    return describeError(interp, inst, value, "the value", "a vec");
  return checkAddress(interp, program, inst, 1, value->elem);
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
  cell->i = mlirIntegerAttrGetValueInt(attr);
  return true;
}

static bool checkConstant(Interp *interp, Program *program, int32_t index) {
  Inst *inst = instAt(program, index);
  if (!checkCounts(interp, inst, 0, 1))
    return false;
  Slot *result = resultSlot(program, inst, 0);
  MlirAttribute value = mlirOperationGetAttributeByName(
      inst->op, mlirStringRefCreateFromCString("value"));
  inst->constant = calloc((size_t)result->width, sizeof(Cell));
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

//===----------------------------------------------------------------------===//
// Control flow: func.return, func.call, scf.for, scf.yield
//===----------------------------------------------------------------------===//

static bool checkReturn(Interp *interp, Program *program, int32_t index) {
  Inst *inst = instAt(program, index);
  (void)interp;
  program->numReturns = inst->numOperands;
  program->returnSlots =
      malloc(sizeof(int32_t) * (size_t)(inst->numOperands + 1));
  if (!program->returnSlots)
    abort();
  if (inst->numOperands)
    memcpy(program->returnSlots, inst->operands,
           sizeof(int32_t) * (size_t)inst->numOperands);
  return true;
}

/// Checks that values in `from` can be copied into `to`, pairwise.
static bool checkCopies(Interp *interp, Inst *inst, const Program *fromProgram,
                        const int32_t *from, const Program *toProgram,
                        const int32_t *to, int32_t count, const char *what) {
  for (int32_t i = 0; i < count; ++i) {
    const Slot *source = &fromProgram->slots[from[i]];
    // Callers pass `count` defined slots; the analyzer cannot see that the
    // decoders filled them (a false positive).
    // NOLINTNEXTLINE(clang-analyzer-core.uninitialized.ArraySubscript)
    const Slot *target = &toProgram->slots[to[i]];
    if (!sameShape(source, target) || source->elem != target->elem)
      return coopvecInterpError(
          interp, inst->op, "%s #%d does not match its target's type", what, i);
  }
  return true;
}

static bool checkCall(Interp *interp, Program *program, int32_t index) {
  Inst *inst = instAt(program, index);
  MlirAttribute callee = mlirOperationGetAttributeByName(
      inst->op, mlirStringRefCreateFromCString("callee"));
  if (mlirAttributeIsNull(callee) || !mlirAttributeIsAFlatSymbolRef(callee))
    return coopvecInterpError(interp, inst->op, "has no flat 'callee'");
  MlirStringRef name = mlirFlatSymbolRefAttrGetValue(callee);
  MlirOperation func = coopvecInterpLookupFunction(interp, name);
  if (mlirOperationIsNull(func))
    return coopvecInterpError(interp, inst->op,
                              "calls '%.*s', which is not a func.func of "
                              "the module",
                              (int)name.length, name.data);
  Program *target = coopvecInterpDecode(interp, func);
  if (!target)
    return false;
  inst = instAt(program, index);
  if (target->decoding)
    return coopvecInterpError(interp, inst->op,
                              "calls '%.*s' recursively, which the "
                              "reference interpreter does not support",
                              (int)name.length, name.data);
  inst->callee = target;
  if (inst->numOperands != target->numArgs ||
      inst->numResults != target->numReturns)
    return coopvecInterpError(interp, inst->op,
                              "does not match the signature of '%.*s'",
                              (int)name.length, name.data);
  return checkCopies(interp, inst, program, inst->operands, target,
                     target->argSlots, inst->numOperands, "argument") &&
         checkCopies(interp, inst, target, target->returnSlots, program,
                     inst->results, inst->numResults, "result");
}

/// scf.for: targets = [induction variable, iteration arguments...]; the
/// body follows the instruction and ends with its scf.yield.
static bool checkFor(Interp *interp, Program *program, int32_t index) {
  Inst *inst = instAt(program, index);
  MlirOperation op = inst->op;
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0));
  int32_t numIterArgs = inst->numResults;
  if (inst->numOperands != 3 + numIterArgs || mlirBlockIsNull(body) ||
      mlirBlockGetNumArguments(body) != 1 + numIterArgs)
    return coopvecInterpError(interp, op, "has an unexpected structure");
  for (int32_t i = 0; i < 3; ++i)
    if (!isIntScalar(operandSlot(program, inst, i)))
      return describeError(interp, inst, operandSlot(program, inst, i),
                           "a bound or step", "an integer or index");
  int32_t *targets = malloc(sizeof(int32_t) * (size_t)(1 + numIterArgs));
  if (!targets)
    abort();
  inst->targets = targets;
  for (int32_t i = 0; i < 1 + numIterArgs; ++i) {
    targets[i] = coopvecProgramDefine(interp, program, op,
                                      mlirBlockGetArgument(body, i));
    if (targets[i] < 0)
      return false;
  }
  if (!checkCopies(interp, inst, program, inst->operands + 3, program,
                   targets + 1, numIterArgs, "initial value") ||
      !checkCopies(interp, inst, program, targets + 1, program, inst->results,
                   numIterArgs, "result"))
    return false;
  if (!coopvecDecodeBlock(interp, program, body))
    return false;
  instAt(program, index)->bodyEnd = program->numInsts;
  return true;
}

static bool checkYield(Interp *interp, Program *program, int32_t index) {
  Inst *inst = instAt(program, index);
  MlirOperation parent = mlirOperationGetParentOperation(inst->op);
  if (!coopvecOpIsNamed(parent, "scf.for"))
    return coopvecInterpError(interp, inst->op, "is supported in scf.for only");
  MlirBlock body = mlirOperationGetBlock(inst->op);
  if (mlirBlockGetNumArguments(body) != 1 + inst->numOperands)
    return coopvecInterpError(interp, inst->op,
                              "yields a value per iteration argument");
  int64_t cells = 0;
  const int32_t numYielded = inst->numOperands;
  inst->targets = malloc(sizeof(int32_t) * (size_t)(numYielded + 1));
  if (!inst->targets)
    abort();
  for (int32_t i = 0; i < numYielded; ++i) {
    inst->targets[i] = coopvecProgramLookup(interp, program, inst->op,
                                            mlirBlockGetArgument(body, 1 + i));
    if (inst->targets[i] < 0)
      return false;
    cells += coopvecSlotCells(operandSlot(program, inst, i));
  }
  // Values are staged through scratch cells: a yield may swap iteration
  // arguments (scf.yield %b, %a).
  inst->scratch = coopvecProgramReserve(program, cells);
  return checkCopies(interp, inst, program, inst->operands, program,
                     inst->targets, numYielded, "yielded value");
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
    return (OpDecoder){info->name, OP_COPY, checkConversion};
  case CoopvecOpCast:
    return (OpDecoder){info->name, OP_ROUND, checkConversion};
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

/// The upstream ops a per-thread function may contain.
static const OpDecoder decoders[] = {
    {"arith.constant", OP_CONSTANT, checkConstant},
    {"arith.addf", OP_FADD, checkArithFloat},
    {"arith.subf", OP_FSUB, checkArithFloat},
    {"arith.mulf", OP_FMUL, checkArithFloat},
    {"arith.divf", OP_FDIV, checkArithFloat},
    {"arith.negf", OP_FNEG, checkArithFloat},
    {"arith.maximumf", OP_FMAX, checkArithFloat},
    {"arith.minimumf", OP_FMIN, checkArithFloat},
    {"arith.maxnumf", OP_FMAXNUM, checkArithFloat},
    {"arith.minnumf", OP_FMINNUM, checkArithFloat},
    {"arith.extf", OP_COPY, checkConversion},
    {"arith.truncf", OP_ROUND, checkConversion},
    {"arith.addi", OP_IADD, checkArithInt},
    {"arith.subi", OP_ISUB, checkArithInt},
    {"arith.muli", OP_IMUL, checkArithInt},
    {"arith.index_cast", OP_ROUND, checkConversion},
    {"func.return", OP_RETURN, checkReturn},
    {"func.call", OP_CALL, checkCall},
    {"scf.for", OP_FOR, checkFor},
    {"scf.yield", OP_YIELD, checkYield},
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
