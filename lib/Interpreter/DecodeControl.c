//===- DecodeControl.c - Calls and structured control flow ----------------===//
//
// Region ops are flattened into the instruction list, their regions right
// after them in text order, each region ending with its terminator:
//
//   scf.if     IF(jump: else or end) then.. YIELD(jump: end)
//                                     [else.. YIELD(jump: end)]
//   scf.for    FOR(jump: end) body.. YIELD(jump: END_FOR) END_FOR(parent: FOR)
//   scf.while  WHILE before.. CONDITION(jump: end, parent: WHILE)
//                     after.. YIELD(jump: WHILE + 1)
//   scf.index_switch  SWITCH(caseStarts; jump: default)
//                     case.. YIELD(jump: end) ... default.. YIELD(jump: end)
//
// where `end` is the instruction after the region op. The targets of a
// terminator (the slots its values go to) are set by its region op once
// the region is decoded.
//
//===----------------------------------------------------------------------===//

#include "Interpreter/Decode.h"
#include "coopvec-c/Support.h"

#include <mlir-c/BuiltinAttributes.h>

#include <stdlib.h>
#include <string.h>

bool coopvecCheckCopies(Interp *interp, Inst *inst, const Program *fromProgram,
                        const int32_t *from, const Program *toProgram,
                        const int32_t *to, int32_t count, const char *what) {
  for (int32_t i = 0; i < count; ++i) {
    // Callers pass `count` defined slots; the analyzer cannot see that the
    // decoders filled them (a false positive).
    // NOLINTBEGIN(clang-analyzer-core.uninitialized.ArraySubscript)
    const Slot *source = &fromProgram->slots[from[i]];
    const Slot *target = &toProgram->slots[to[i]];
    // NOLINTEND(clang-analyzer-core.uninitialized.ArraySubscript)
    if (source->isLocal)
      return coopvecInterpError(interp, inst->op,
                                "passes a local array as %s #%d; local "
                                "arrays cannot leave their function or region",
                                what, i);
    if (!sameType(source, target))
      return coopvecInterpError(
          interp, inst->op, "%s #%d does not match its target's type", what, i);
  }
  return true;
}

static int32_t *copyOf(const int32_t *values, int32_t count) {
  int32_t *copy = malloc(sizeof(int32_t) * (size_t)(count + 1));
  if (!copy)
    abort();
  if (count)
    memcpy(copy, values, sizeof(int32_t) * (size_t)count);
  return copy;
}

//===----------------------------------------------------------------------===//
// func.return, func.call
//===----------------------------------------------------------------------===//

bool coopvecCheckReturn(Interp *interp, Program *program, int32_t index) {
  Inst *inst = instAt(program, index);
  (void)interp;
  program->numReturns = inst->numOperands;
  program->returnSlots = copyOf(inst->operands, inst->numOperands);
  return true;
}

/// The func.func a call names, after checking that it has a body.
static MlirOperation calledFunction(Interp *interp, Inst *inst,
                                    MlirStringRef *name) {
  MlirOperation none = {NULL};
  MlirAttribute callee = mlirOperationGetAttributeByName(
      inst->op, mlirStringRefCreateFromCString("callee"));
  if (mlirAttributeIsNull(callee) || !mlirAttributeIsAFlatSymbolRef(callee)) {
    coopvecInterpError(interp, inst->op, "has no flat 'callee'");
    return none;
  }
  *name = mlirFlatSymbolRefAttrGetValue(callee);
  MlirOperation func = coopvecInterpLookupFunction(interp, *name);
  if (mlirOperationIsNull(func)) {
    coopvecInterpError(interp, inst->op,
                       "calls '%.*s', which is not a func.func of the module",
                       (int)name->length, name->data);
    return none;
  }
  if (mlirBlockIsNull(
          mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0)))) {
    coopvecInterpError(interp, inst->op,
                       "calls '%.*s', which is a declaration (it has no body)",
                       (int)name->length, name->data);
    return none;
  }
  return func;
}

bool coopvecCheckCall(Interp *interp, Program *program, int32_t index) {
  MlirStringRef name = {NULL, 0};
  MlirOperation func = calledFunction(interp, instAt(program, index), &name);
  if (mlirOperationIsNull(func))
    return false;
  Program *target = coopvecInterpDecode(interp, func);
  if (!target)
    return false;
  Inst *inst = instAt(program, index);
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
  return coopvecCheckCopies(interp, inst, program, inst->operands, target,
                            target->argSlots, inst->numOperands, "argument") &&
         coopvecCheckCopies(interp, inst, target, target->returnSlots, program,
                            inst->results, inst->numResults, "result");
}

//===----------------------------------------------------------------------===//
// Regions
//===----------------------------------------------------------------------===//

/// The block of region `r` of region op `index` with `numArgs` arguments;
/// null (no error) for an empty region when `optional`.
static bool regionBlock(Interp *interp, Program *program, int32_t index,
                        intptr_t r, intptr_t numArgs, bool optional,
                        MlirBlock *block) {
  MlirOperation op = instAt(program, index)->op;
  *block = r < mlirOperationGetNumRegions(op)
               ? mlirRegionGetFirstBlock(mlirOperationGetRegion(op, r))
               : (MlirBlock){NULL};
  if (mlirBlockIsNull(*block) && optional)
    return true;
  if (mlirBlockIsNull(*block) ||
      !mlirBlockIsNull(mlirBlockGetNextInRegion(*block)) ||
      mlirBlockGetNumArguments(*block) != numArgs)
    return coopvecInterpError(interp, op, "has an unexpected structure");
  return true;
}

/// Defines slots for the arguments of `block` (owned by the caller).
static int32_t *defineArguments(Interp *interp, Program *program, int32_t index,
                                MlirBlock block) {
  int32_t count = (int32_t)mlirBlockGetNumArguments(block);
  int32_t *slots = malloc(sizeof(int32_t) * (size_t)(count + 1));
  if (!slots)
    abort();
  for (int32_t i = 0; i < count; ++i) {
    slots[i] = coopvecProgramDefine(interp, program, instAt(program, index)->op,
                                    mlirBlockGetArgument(block, i));
    if (slots[i] < 0) {
      free(slots);
      return NULL;
    }
  }
  return slots;
}

/// Decodes `block` and binds its terminator (`opcode`, the last
/// instruction) to `targets` (slot arrays live outside the instruction
/// list, which decoding may move). Returns the terminator's index, or -1.
static int32_t decodeRegion(Interp *interp, Program *program, int32_t owner,
                            MlirBlock block, Opcode opcode,
                            const int32_t *targets, int32_t count) {
  int32_t start = program->numInsts;
  if (!coopvecDecodeBlock(interp, program, block))
    return -1;
  int32_t index = program->numInsts - 1;
  MlirOperation terminator = mlirBlockGetTerminator(block);
  if (index < start || mlirOperationIsNull(terminator) ||
      !mlirOperationEqual(instAt(program, index)->op, terminator) ||
      instAt(program, index)->opcode != opcode) {
    coopvecInterpError(interp, instAt(program, owner)->op,
                       "has a region without its terminator");
    return -1;
  }
  Inst *inst = instAt(program, index);
  int32_t skip = opcode == OP_CONDITION ? 1 : 0; // the condition itself
  if (inst->numOperands - skip != count) {
    coopvecInterpError(interp, inst->op, "yields %d values; %d expected",
                       inst->numOperands - skip, count);
    return -1;
  }
  if (!coopvecCheckCopies(interp, inst, program, inst->operands + skip, program,
                          targets, count, "yielded value"))
    return -1;
  inst->targets = copyOf(targets, count);
  inst->numTargets = count;
  int64_t cells = 0;
  for (int32_t i = 0; i < count; ++i)
    // The targets were defined (a false positive, as in coopvecCheckCopies).
    // NOLINTNEXTLINE(clang-analyzer-core.uninitialized.ArraySubscript)
    cells += coopvecSlotCells(&program->slots[targets[i]]);
  inst->scratch = coopvecProgramReserve(program, cells);
  return index;
}

/// scf.yield, scf.condition: bound by their region op (decodeRegion).
bool coopvecCheckTerminator(Interp *interp, Program *program, int32_t index) {
  Inst *inst = instAt(program, index);
  MlirOperation parent = mlirOperationGetParentOperation(inst->op);
  if (inst->opcode == OP_CONDITION) {
    if (!coopvecOpIsNamed(parent, "scf.while") || inst->numOperands < 1 ||
        operandSlot(program, inst, 0)->kind != SLOT_INT ||
        operandSlot(program, inst, 0)->isVector)
      return coopvecInterpError(interp, inst->op,
                                "must end the before region of an scf.while "
                                "with an i1 condition");
    return true;
  }
  if (!coopvecOpIsNamed(parent, "scf.for") &&
      !coopvecOpIsNamed(parent, "scf.if") &&
      !coopvecOpIsNamed(parent, "scf.while") &&
      !coopvecOpIsNamed(parent, "scf.index_switch"))
    return coopvecInterpError(interp, inst->op,
                              "is supported in scf.for, scf.if, scf.while "
                              "and scf.index_switch only");
  return true;
}

//===----------------------------------------------------------------------===//
// scf.if, scf.index_switch
//===----------------------------------------------------------------------===//

bool coopvecCheckIf(Interp *interp, Program *program, int32_t index) {
  Inst *inst = instAt(program, index);
  if (inst->numOperands != 1 || !isIntScalar(operandSlot(program, inst, 0)))
    return coopvecInterpError(interp, inst->op, "needs an i1 condition");
  MlirBlock thenBlock, elseBlock;
  if (!regionBlock(interp, program, index, 0, 0, false, &thenBlock) ||
      !regionBlock(interp, program, index, 1, 0, true, &elseBlock))
    return false;
  int32_t numResults = inst->numResults;
  if (mlirBlockIsNull(elseBlock) && numResults > 0)
    return coopvecInterpError(interp, inst->op, "has results but no else");
  const int32_t *results = inst->results;
  int32_t thenYield = decodeRegion(interp, program, index, thenBlock, OP_YIELD,
                                   results, numResults);
  int32_t elseStart = program->numInsts, elseYield = -1;
  if (thenYield >= 0 && !mlirBlockIsNull(elseBlock))
    elseYield = decodeRegion(interp, program, index, elseBlock, OP_YIELD,
                             results, numResults);
  if (thenYield < 0 || (elseYield < 0 && !mlirBlockIsNull(elseBlock)))
    return false;
  instAt(program, thenYield)->jump = program->numInsts;
  if (elseYield >= 0)
    instAt(program, elseYield)->jump = program->numInsts;
  instAt(program, index)->jump = elseYield >= 0 ? elseStart : program->numInsts;
  return true;
}

/// Cases are decoded in text order (the default region, region 0, is
/// printed last), so that instruction order stays text order.
static bool decodeCases(Interp *interp, Program *program, int32_t index,
                        int32_t *yields) {
  int32_t numCases = instAt(program, index)->numCases;
  int32_t numResults = instAt(program, index)->numResults;
  const int32_t *results = instAt(program, index)->results;
  bool ok = true;
  for (int32_t k = 0; ok && k <= numCases; ++k) {
    intptr_t region = k < numCases ? k + 1 : 0;
    MlirBlock block;
    ok = regionBlock(interp, program, index, region, 0, false, &block);
    if (k < numCases)
      instAt(program, index)->caseStarts[k] = program->numInsts;
    else
      instAt(program, index)->jump = program->numInsts;
    yields[k] = ok ? decodeRegion(interp, program, index, block, OP_YIELD,
                                  results, numResults)
                   : -1;
    ok = yields[k] >= 0;
  }
  return ok;
}

bool coopvecCheckSwitch(Interp *interp, Program *program, int32_t index) {
  Inst *inst = instAt(program, index);
  MlirAttribute cases = mlirOperationGetAttributeByName(
      inst->op, mlirStringRefCreateFromCString("cases"));
  if (inst->numOperands != 1 || !isIntScalar(operandSlot(program, inst, 0)) ||
      mlirAttributeIsNull(cases) || !mlirAttributeIsADenseI64Array(cases) ||
      mlirDenseArrayGetNumElements(cases) + 1 !=
          mlirOperationGetNumRegions(inst->op))
    return coopvecInterpError(interp, inst->op, "has an unexpected structure");
  inst->numCases = (int32_t)mlirDenseArrayGetNumElements(cases);
  inst->caseValues = malloc(sizeof(int64_t) * (size_t)(inst->numCases + 1));
  inst->caseStarts = malloc(sizeof(int32_t) * (size_t)(inst->numCases + 1));
  int32_t *yields = calloc((size_t)inst->numCases + 1, sizeof(int32_t));
  if (!inst->caseValues || !inst->caseStarts || !yields)
    abort();
  for (int32_t k = 0; k < inst->numCases; ++k)
    inst->caseValues[k] = mlirDenseI64ArrayGetElement(cases, k);
  bool ok = decodeCases(interp, program, index, yields);
  for (int32_t k = 0; ok && k <= instAt(program, index)->numCases; ++k)
    instAt(program, yields[k])->jump = program->numInsts;
  free(yields);
  return ok;
}

//===----------------------------------------------------------------------===//
// scf.for, scf.while
//===----------------------------------------------------------------------===//

bool coopvecCheckFor(Interp *interp, Program *program, int32_t index) {
  Inst *inst = instAt(program, index);
  int32_t numIterArgs = inst->numResults;
  MlirBlock body;
  if (inst->numOperands != 3 + numIterArgs ||
      !regionBlock(interp, program, index, 0, 1 + numIterArgs, false, &body))
    return coopvecInterpError(interp, inst->op, "has an unexpected structure");
  if (!mlirAttributeIsNull(mlirOperationGetAttributeByName(
          inst->op, mlirStringRefCreateFromCString("unsignedCmp"))))
    return coopvecInterpError(interp, inst->op,
                              "compares unsigned (unsignedCmp), which the "
                              "reference interpreter does not support");
  inst->targets = defineArguments(interp, program, index, body);
  if (!inst->targets)
    return false;
  inst = instAt(program, index);
  inst->numTargets = 1 + numIterArgs;
  const Slot *iv = &program->slots[inst->targets[0]];
  for (int32_t i = 0; i < 3; ++i)
    if (!isIntScalar(operandSlot(program, inst, i)) ||
        !sameType(operandSlot(program, inst, i), iv))
      return coopvecDescribeError(interp, inst, operandSlot(program, inst, i),
                                  "a bound or step",
                                  "an integer of the induction variable's "
                                  "type");
  if (!coopvecCheckCopies(interp, inst, program, inst->operands + 3, program,
                          inst->targets + 1, numIterArgs, "initial value") ||
      !coopvecCheckCopies(interp, inst, program, inst->targets + 1, program,
                          inst->results, numIterArgs, "result"))
    return false;
  inst->state = coopvecProgramReserve(program, 1);
  int32_t yield = decodeRegion(interp, program, index, body, OP_YIELD,
                               inst->targets + 1, numIterArgs);
  if (yield < 0)
    return false;
  instAt(program, yield)->jump = program->numInsts;
  int32_t end =
      coopvecProgramAddInst(program, OP_END_FOR, instAt(program, index)->op);
  instAt(program, end)->parent = index;
  instAt(program, index)->jump = program->numInsts;
  return true;
}

/// The before region's scf.condition forwards its values to the after
/// region's arguments, which also pass them out as the results.
static int32_t decodeBefore(Interp *interp, Program *program, int32_t index,
                            MlirBlock before, MlirBlock after) {
  int32_t *afterArgs = defineArguments(interp, program, index, after);
  if (!afterArgs)
    return -1;
  Inst *inst = instAt(program, index);
  int32_t numResults = inst->numResults;
  int32_t condition = -1;
  if (coopvecCheckCopies(interp, inst, program, afterArgs, program,
                         inst->results, numResults, "result"))
    condition = decodeRegion(interp, program, index, before, OP_CONDITION,
                             afterArgs, numResults);
  free(afterArgs);
  return condition;
}

bool coopvecCheckWhile(Interp *interp, Program *program, int32_t index) {
  Inst *inst = instAt(program, index);
  MlirBlock before, after;
  if (!regionBlock(interp, program, index, 0, inst->numOperands, false,
                   &before) ||
      !regionBlock(interp, program, index, 1, inst->numResults, false, &after))
    return false;
  inst->targets = defineArguments(interp, program, index, before);
  if (!inst->targets)
    return false;
  inst = instAt(program, index);
  inst->numTargets = inst->numOperands;
  if (!coopvecCheckCopies(interp, inst, program, inst->operands, program,
                          inst->targets, inst->numOperands, "initial value"))
    return false;
  int32_t condition = decodeBefore(interp, program, index, before, after);
  if (condition < 0)
    return false;
  inst = instAt(program, index);
  int32_t yield = decodeRegion(interp, program, index, after, OP_YIELD,
                               inst->targets, inst->numTargets);
  if (yield < 0)
    return false;
  instAt(program, yield)->jump = index + 1;
  instAt(program, condition)->jump = program->numInsts;
  instAt(program, condition)->parent = index;
  return true;
}
