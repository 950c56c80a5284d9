//===- Control.c - Structured control flow and calls ----------------------===//
//
// Region ops were flattened by the decoder (layouts in DecodeControl.c):
// each returns the index of the instruction to run next. Values passed
// into or out of a region are staged through scratch cells, because a
// yield may swap loop-carried values (scf.yield %b, %a).
//
//===----------------------------------------------------------------------===//

#include "Interpreter/Execute.h"
#include "Support/Alloc.h"

#include <string.h>

static void copySlot(Program *to, int32_t toSlot, Program *from,
                     int32_t fromSlot) {
  memcpy(cellsOf(to, toSlot), cellsOf(from, fromSlot),
         sizeof(Cell) * (size_t)coopvecSlotCells(&from->slots[fromSlot]));
}

static void copySlots(Program *program, const int32_t *to, const int32_t *from,
                      int32_t count) {
  for (int32_t i = 0; i < count; ++i)
    copySlot(program, to[i], program, from[i]);
}

/// Copies `from` to `inst`'s targets through its scratch cells.
static void stage(Program *program, const Inst *inst, const int32_t *from) {
  Cell *scratch = &program->frame[inst->scratch];
  int64_t used = 0;
  for (int32_t i = 0; i < inst->numTargets; ++i) {
    int64_t count = coopvecSlotCells(&program->slots[from[i]]);
    memcpy(scratch + used, cellsOf(program, from[i]),
           sizeof(Cell) * (size_t)count);
    used += count;
  }
  used = 0;
  for (int32_t i = 0; i < inst->numTargets; ++i) {
    int64_t count = coopvecSlotCells(&program->slots[inst->targets[i]]);
    memcpy(cellsOf(program, inst->targets[i]), scratch + used,
           sizeof(Cell) * (size_t)count);
    used += count;
  }
}

static bool isTrue(Program *program, int32_t slot) {
  return cellsOf(program, slot)->i != 0;
}

static bool runCall(Interp *interp, Program *program, int32_t index) {
  const Inst *inst = &program->insts[index];
  Program *callee = inst->callee;
  for (int32_t i = 0; i < inst->numOperands; ++i)
    copySlot(callee, callee->argSlots[i], program, inst->operands[i]);
  // The call path orders out-of-bounds accesses inside callees.
  interp->callPath = coopvecGrowArray(interp->callPath, &interp->callCapacity,
                                      interp->callDepth + 1, sizeof(int32_t));
  interp->callPath[interp->callDepth++] = index;
  bool ok = coopvecInterpRun(interp, callee);
  --interp->callDepth;
  for (int32_t i = 0; ok && i < inst->numResults; ++i)
    copySlot(program, inst->results[i], callee, callee->returnSlots[i]);
  return ok;
}

/// scf.for: targets = [induction variable, iteration arguments...]. It
/// runs ceil((ub - lb) / step) times when ub > lb (signed) and step > 0,
/// and not at all otherwise; the count is computed in 64-bit unsigned
/// arithmetic, where it cannot overflow.
static int32_t runFor(Program *program, int32_t index) {
  const Inst *inst = &program->insts[index];
  copySlots(program, inst->targets + 1, inst->operands + 3, inst->numResults);
  int bits = program->slots[inst->targets[0]].bits;
  int64_t lower =
      coopvecInterpSigned(cellsOf(program, inst->operands[0])->i, bits);
  int64_t upper =
      coopvecInterpSigned(cellsOf(program, inst->operands[1])->i, bits);
  int64_t step =
      coopvecInterpSigned(cellsOf(program, inst->operands[2])->i, bits);
  uint64_t trips = 0;
  if (step > 0 && upper > lower) {
    uint64_t span = (uint64_t)upper - (uint64_t)lower;
    trips = span / (uint64_t)step + (span % (uint64_t)step != 0);
  }
  program->frame[inst->state].i = (int64_t)trips;
  if (trips == 0) {
    copySlots(program, inst->results, inst->targets + 1, inst->numResults);
    return inst->jump;
  }
  cellsOf(program, inst->targets[0])->i =
      coopvecInterpWrap((uint64_t)lower, bits);
  return index + 1;
}

/// After the body's scf.yield: the next iteration, or the results.
static int32_t runEndFor(Program *program, int32_t index) {
  const Inst *loop = &program->insts[program->insts[index].parent];
  Cell *remaining = &program->frame[loop->state];
  remaining->i = (int64_t)((uint64_t)remaining->i - 1);
  if (remaining->i != 0) {
    // Below the upper bound, so it does not wrap.
    Cell *iv = cellsOf(program, loop->targets[0]);
    iv->i = coopvecInterpWrap(
        (uint64_t)iv->i + (uint64_t)cellsOf(program, loop->operands[2])->i,
        program->slots[loop->targets[0]].bits);
    return program->insts[index].parent + 1;
  }
  copySlots(program, loop->results, loop->targets + 1, loop->numResults);
  return index + 1;
}

/// scf.condition: the forwarded values go to the after region, or, when
/// the condition is false, out of the loop as its results.
static int32_t runCondition(Program *program, int32_t index) {
  const Inst *inst = &program->insts[index];
  stage(program, inst, inst->operands + 1);
  if (isTrue(program, inst->operands[0]))
    return index + 1;
  const Inst *loop = &program->insts[inst->parent];
  copySlots(program, loop->results, inst->targets, loop->numResults);
  return inst->jump;
}

static int32_t runSwitch(Program *program, const Inst *inst) {
  int64_t selector = cellsOf(program, inst->operands[0])->i;
  for (int32_t i = 0; i < inst->numCases; ++i)
    if (inst->caseValues[i] == selector)
      return inst->caseStarts[i];
  return inst->jump;
}

int32_t coopvecInterpRunControl(Interp *interp, Program *program,
                                int32_t index) {
  const Inst *inst = &program->insts[index];
  switch (inst->opcode) {
  case OP_CALL:
    return runCall(interp, program, index) ? index + 1 : -1;
  case OP_IF:
    return isTrue(program, inst->operands[0]) ? index + 1 : inst->jump;
  case OP_FOR:
    return runFor(program, index);
  case OP_END_FOR:
    return runEndFor(program, index);
  case OP_WHILE:
    copySlots(program, inst->targets, inst->operands, inst->numOperands);
    return index + 1;
  case OP_CONDITION:
    return runCondition(program, index);
  case OP_SWITCH:
    return runSwitch(program, inst);
  case OP_YIELD:
    stage(program, inst, inst->operands);
    return inst->jump;
  default: // OP_RETURN
    return program->numInsts;
  }
}
