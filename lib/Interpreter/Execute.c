//===- Execute.c - Running a decoded program for one thread ---------------===//
//
// Values between coopvec ops are kept in double precision, not rounded to
// their element type: the interpreter is the exact reference the lowerings
// are compared against. Rounding happens where a program asks for it
// (coopvec.cast, arith.truncf), where values leave vecs (coopvec.unpack),
// after every arith / math float op (the targets compute those in their
// type), and where values reach typed memory (stores; accumulations when
// they are written back).
//
//===----------------------------------------------------------------------===//

#include "Interpreter/Execute.h"

#include <string.h>

/// Element `i` of an operand; scalars are broadcast.
static Cell cellAt(Program *program, int32_t slot, int64_t i) {
  const Slot *s = &program->slots[slot];
  return program->frame[s->offset + (s->isVector ? i : 0)];
}

static int64_t resultWidth(Program *program, const Inst *inst) {
  return program->slots[inst->results[0]].width;
}

static void runFloat(Program *program, const Inst *inst) {
  const Slot *result = &program->slots[inst->results[0]];
  ElemKind to = inst->rounds ? result->elem : ELEM_F64;
  Cell *out = cellsOf(program, inst->results[0]);
  for (int64_t i = 0; i < result->width; ++i) {
    double in[3] = {0.0, 0.0, 0.0};
    for (int32_t k = 0; k < inst->numOperands; ++k)
      in[k] = cellAt(program, inst->operands[k], i).f;
    out[i].f = coopvecInterpFloatOp(inst->opcode, in[0], in[1], in[2], to);
  }
}

static void runInt(Program *program, const Inst *inst) {
  int bits = program->slots[inst->results[0]].bits;
  Cell *out = cellsOf(program, inst->results[0]);
  for (int64_t i = 0; i < resultWidth(program, inst); ++i)
    out[i].i = coopvecInterpIntOp(
        inst->opcode, cellAt(program, inst->operands[0], i).i,
        cellAt(program, inst->operands[1], i).i, bits);
}

static void runCompare(Program *program, const Inst *inst) {
  int bits = program->slots[inst->operands[0]].bits;
  Cell *out = cellsOf(program, inst->results[0]);
  for (int64_t i = 0; i < resultWidth(program, inst); ++i) {
    Cell a = cellAt(program, inst->operands[0], i);
    Cell b = cellAt(program, inst->operands[1], i);
    out[i].i = inst->opcode == OP_CMPF
                   ? coopvecInterpCompareFloat(inst->variant, a.f, b.f)
                   : coopvecInterpCompareInt(inst->variant, a.i, b.i, bits);
  }
}

/// arith.select: a scalar condition picks a whole value, a vector one
/// picks each element. Values may be vecs, vectors or scalars.
static void runSelect(Program *program, const Inst *inst) {
  int64_t cells = coopvecSlotCells(&program->slots[inst->results[0]]);
  Cell *out = cellsOf(program, inst->results[0]);
  for (int64_t i = 0; i < cells; ++i) {
    bool pick = cellAt(program, inst->operands[0], i).i != 0;
    out[i] = cellsOf(program, inst->operands[pick ? 1 : 2])[i];
  }
}

static void runConvert(Program *program, const Inst *inst) {
  const Slot *from = &program->slots[inst->operands[0]];
  const Slot *to = &program->slots[inst->results[0]];
  const Cell *in = cellsOf(program, inst->operands[0]);
  Cell *out = cellsOf(program, inst->results[0]);
  for (int64_t i = 0; i < to->width; ++i)
    out[i] = coopvecInterpConvert(inst->opcode, in[i], from, to);
}

/// coopvec.unpack rounds each element to the vec's element type: a target
/// may hold f16 elements in f32 between coopvec ops, but the scalar is the
/// f16 value.
static void runUnpack(Program *program, const Inst *inst) {
  const Slot *vec = &program->slots[inst->operands[0]];
  const Cell *in = cellsOf(program, inst->operands[0]);
  for (int32_t i = 0; i < inst->numResults; ++i)
    cellsOf(program, inst->results[i])->f =
        coopvecInterpRoundTo(vec->elem, in[i].f);
}

//===----------------------------------------------------------------------===//
// Matrices
//===----------------------------------------------------------------------===//

static void runMatvec(Interp *interp, Program *program, const Inst *inst) {
  const Slot *matrix = &program->slots[inst->operands[0]];
  const Cell *x = cellsOf(program, inst->operands[1]);
  Cell *y = cellsOf(program, inst->results[0]);
  int64_t inputs = inst->transpose ? matrix->rows : matrix->cols;
  for (int64_t out = 0; out < resultWidth(program, inst); ++out) {
    // Without a bias the sum starts at -0.0, the additive identity: a sum
    // of -0.0 products stays -0.0 (docs/dialect.md, "Special values").
    double sum =
        inst->hasBias ? cellsOf(program, inst->operands[2])[out].f : -0.0;
    for (int64_t in = 0; in < inputs; ++in) {
      int64_t row = inst->transpose ? in : out;
      int64_t col = inst->transpose ? out : in;
      sum += *coopvecInterpMatrixElement(interp, program, inst->operands[0],
                                         row, col) *
             x[in].f;
    }
    y[out].f = sum;
  }
}

static void runOuterProduct(Interp *interp, Program *program,
                            const Inst *inst) {
  const Slot *matrix = &program->slots[inst->operands[2]];
  const Cell *a = cellsOf(program, inst->operands[0]);
  const Cell *b = cellsOf(program, inst->operands[1]);
  for (int64_t row = 0; row < matrix->rows; ++row)
    for (int64_t col = 0; col < matrix->cols; ++col)
      *coopvecInterpMatrixElement(interp, program, inst->operands[2], row,
                                  col) += a[row].f * b[col].f;
  interp->buffers[cellsOf(program, inst->operands[2])[0].i].dirty = true;
}

//===----------------------------------------------------------------------===//
// The loop
//===----------------------------------------------------------------------===//

/// Ops that need neither the interpreter's buffers nor control flow.
static void runLocal(Program *program, const Inst *inst) {
  Opcode opcode = inst->opcode;
  Cell *out = cellsOf(program, inst->results[0]);
  if (opcode == OP_CONSTANT)
    memcpy(out, inst->constant,
           sizeof(Cell) *
               (size_t)coopvecSlotCells(&program->slots[inst->results[0]]));
  else if (opcode == OP_FROM_ELEMENTS)
    for (int32_t i = 0; i < inst->numOperands; ++i)
      out[i] = *cellsOf(program, inst->operands[i]);
  else if (opcode == OP_SPLAT)
    for (int64_t i = 0; i < resultWidth(program, inst); ++i)
      out[i] = *cellsOf(program, inst->operands[0]);
  else if (opcode == OP_UNPACK)
    runUnpack(program, inst);
  else if (opcode == OP_COPY)
    memcpy(out, cellsOf(program, inst->operands[0]),
           sizeof(Cell) *
               (size_t)coopvecSlotCells(&program->slots[inst->results[0]]));
  else if (opcode >= OP_ROUND && opcode <= OP_BITCAST)
    runConvert(program, inst);
  else if (opcode == OP_SELECT)
    runSelect(program, inst);
  else if (opcode == OP_CMPF || opcode == OP_CMPI)
    runCompare(program, inst);
  else if (opcode >= OP_IADD && opcode <= OP_SHRUI)
    runInt(program, inst);
  else
    runFloat(program, inst);
}

/// Runs instruction `index`; returns the next one's index, or -1 after an
/// error.
static int32_t step(Interp *interp, Program *program, int32_t index) {
  const Inst *inst = &program->insts[index];
  switch (inst->opcode) {
  case OP_LOAD:
  case OP_MASKED_LOAD:
  case OP_STORE:
  case OP_MASKED_STORE:
    coopvecInterpRunTransfer(interp, program, index);
    break;
  case OP_REDUCE_SUM:
    coopvecInterpRunReduceSum(interp, program, index);
    break;
  case OP_MEMREF_LOAD:
  case OP_MEMREF_STORE:
  case OP_ATOMIC_RMW:
    coopvecInterpRunMemRef(interp, program, index);
    break;
  case OP_ALLOCA:
    coopvecInterpRunAlloca(program, inst);
    break;
  case OP_MATRIX_VIEW:
    return coopvecInterpRunMatrixView(interp, program, index) ? index + 1 : -1;
  case OP_MATVEC:
    runMatvec(interp, program, inst);
    break;
  case OP_OUTER_PRODUCT:
    runOuterProduct(interp, program, inst);
    break;
  default:
    if (inst->opcode >= OP_CALL)
      return coopvecInterpRunControl(interp, program, index);
    runLocal(program, inst);
    break;
  }
  return index + 1;
}

bool coopvecInterpRun(Interp *interp, Program *program) {
  int32_t index = 0;
  while (index >= 0 && index < program->numInsts)
    index = step(interp, program, index);
  return index >= 0;
}
