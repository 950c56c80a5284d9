//===- Execute.c - Running a decoded program for one thread ---------------===//
//
// Every value is computed in double precision and is not rounded to its
// element type between ops: the interpreter is the exact reference the
// lowerings are compared against. Rounding happens only where a program asks
// for it (coopvec.cast, arith.truncf) and where values reach typed memory
// (stores; accumulations when they are written back).
//
//===----------------------------------------------------------------------===//

#include "Interpreter/Decode.h"

#include <math.h>
#include <string.h>

static Cell *cells(Program *program, int32_t slot) {
  return &program->frame[program->slots[slot].offset];
}

/// Element `i` of a float operand; scalars are broadcast.
static double floatAt(Program *program, int32_t slot, int64_t i) {
  const Slot *s = &program->slots[slot];
  return program->frame[s->offset + (s->isVector ? i : 0)].f;
}

static double roundTo(ElemKind elem, double value) {
  switch (elem) {
  case ELEM_F16:
    return coopvecHalfToDouble(coopvecDoubleToHalf(value));
  case ELEM_F32:
    return (double)(float)value;
  default:
    return value;
  }
}

/// Wraps to a signless integer of `bits`, sign-extended into the int64.
static int64_t wrapInt(uint64_t value, int bits) {
  if (bits >= 64)
    return (int64_t)value;
  uint64_t sign = UINT64_C(1) << (bits - 1);
  value &= (sign << 1) - 1;
  return (int64_t)((value ^ sign) - sign);
}

/// NaN-propagating minimum / maximum (IEEE 754-2019 minimum / maximum).
static double minimum(double a, double b) {
  if (isnan(a) || isnan(b))
    return NAN;
  if (a == b)
    return signbit(a) ? a : b; // -0 < +0
  return a < b ? a : b;
}

static double maximum(double a, double b) {
  if (isnan(a) || isnan(b))
    return NAN;
  if (a == b)
    return signbit(a) ? b : a;
  return a > b ? a : b;
}

/// One element of an elementwise op. NaN, infinities, signed zeros and
/// subnormals follow docs/dialect.md, "Special values": IEEE 754 double
/// arithmetic, C's fmin / fmax (minNum / maxNum) for coopvec.min / max, an
/// ordered compare for step (NaN gives 1), and C99 Annex F exp2 / log2 /
/// tanh; results are rounded to the element type where the program rounds.
static double applyFloat(Opcode opcode, double a, double b, double c) {
  switch (opcode) {
  case OP_FADD:
    return a + b;
  case OP_FSUB:
    return a - b;
  case OP_FMUL:
    return a * b;
  case OP_FDIV:
    return a / b;
  case OP_FMAX:
    return maximum(a, b);
  case OP_FMIN:
    return minimum(a, b);
  case OP_FMAXNUM: // coopvec.max, arith.maxnumf: a NaN operand loses
    return fmax(a, b);
  case OP_FMINNUM:
    return fmin(a, b);
  case OP_STEP:
    return a < b ? 0.0 : 1.0;
  case OP_FMA:
    return fma(a, b, c);
  case OP_FNEG:
    return -a;
  case OP_EXP2:
    return exp2(a);
  case OP_LOG2:
    return log2(a);
  case OP_TANH:
    return tanh(a);
  default:
    return NAN;
  }
}

static void runElementwise(Program *program, const Inst *inst) {
  const Slot *result = &program->slots[inst->results[0]];
  Cell *out = cells(program, inst->results[0]);
  for (int64_t i = 0; i < result->width; ++i) {
    double a = floatAt(program, inst->operands[0], i);
    double b =
        inst->numOperands > 1 ? floatAt(program, inst->operands[1], i) : 0.0;
    double c =
        inst->numOperands > 2 ? floatAt(program, inst->operands[2], i) : 0.0;
    out[i].f = applyFloat(inst->opcode, a, b, c);
  }
}

static void runIntBinary(Program *program, const Inst *inst) {
  uint64_t a = (uint64_t)cells(program, inst->operands[0])->i;
  uint64_t b = (uint64_t)cells(program, inst->operands[1])->i;
  uint64_t value = inst->opcode == OP_IADD   ? a + b
                   : inst->opcode == OP_ISUB ? a - b
                                             : a * b;
  cells(program, inst->results[0])->i =
      wrapInt(value, program->slots[inst->results[0]].bits);
}

/// OP_ROUND: cast / truncf round floats to the result's element type;
/// index_cast wraps integers to the result's width.
static void runRound(Program *program, const Inst *inst) {
  const Slot *result = &program->slots[inst->results[0]];
  const Cell *in = cells(program, inst->operands[0]);
  Cell *out = cells(program, inst->results[0]);
  for (int64_t i = 0; i < result->width; ++i) {
    if (result->kind == SLOT_INT)
      out[i].i = wrapInt((uint64_t)in[i].i, result->bits);
    else
      out[i].f = roundTo(result->elem, in[i].f);
  }
}

static void copySlot(Program *to, int32_t toSlot, Program *from,
                     int32_t fromSlot) {
  memcpy(cells(to, toSlot), cells(from, fromSlot),
         sizeof(Cell) * (size_t)coopvecSlotCells(&from->slots[fromSlot]));
}

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

/// Checks that elements [offset + skip, offset + skip + count) lie in
/// `buffer`, without overflowing on hostile offsets.
static bool checkRange(Interp *interp, const Inst *inst, const Buffer *buffer,
                       int64_t offset, int64_t skip, int64_t count,
                       const char *access) {
  int64_t size = buffer->array.size;
  if (offset >= 0 && offset <= size && skip <= size - offset &&
      count <= size - offset - skip)
    return true;
  // Unsigned, so that the message cannot overflow on absurd offsets.
  uint64_t first = (uint64_t)offset + (uint64_t)skip;
  uint64_t end = first + (uint64_t)count;
  return coopvecInterpError(interp, inst->op,
                            "%s elements [%lld, %lld) of a buffer of %lld "
                            "elements",
                            access, (long long)first, (long long)end,
                            (long long)size);
}

static Buffer *bufferOf(Interp *interp, Program *program, int32_t slot) {
  return &interp->buffers[cells(program, slot)->i];
}

/// Load / store with optional mask; masked-off elements are not accessed.
static bool runTransfer(Interp *interp, Program *program, const Inst *inst) {
  bool isLoad = inst->opcode == OP_LOAD || inst->opcode == OP_MASKED_LOAD;
  bool masked =
      inst->opcode == OP_MASKED_LOAD || inst->opcode == OP_MASKED_STORE;
  int32_t valueSlot = isLoad ? inst->results[0] : inst->operands[0];
  int32_t base = isLoad ? 0 : 1;
  int32_t maskOperand = isLoad ? 2 : 3;
  const Slot *value = &program->slots[valueSlot];
  Buffer *buffer = bufferOf(interp, program, inst->operands[base]);
  int64_t offset = cells(program, inst->operands[base + 1])->i;
  Cell *vec = cells(program, valueSlot);
  const Cell *mask =
      masked ? cells(program, inst->operands[maskOperand]) : NULL;
  const char *access = isLoad ? "loads" : "stores";
  if (!mask &&
      !checkRange(interp, inst, buffer, offset, 0, value->width, access))
    return false;
  for (int64_t i = 0; i < value->width; ++i) {
    if (mask && !mask[i].i) {
      if (isLoad)
        vec[i].f = cells(program, inst->operands[3])->f;
      continue;
    }
    if (mask && !checkRange(interp, inst, buffer, offset, i, 1, access))
      return false;
    if (isLoad) {
      vec[i].f = buffer->shadow[offset + i];
    } else {
      buffer->shadow[offset + i] = roundTo(buffer->elem, vec[i].f);
      buffer->dirty = true;
    }
  }
  return true;
}

static bool runMatrixView(Interp *interp, Program *program, const Inst *inst) {
  const Slot *matrix = &program->slots[inst->results[0]];
  Buffer *buffer = bufferOf(interp, program, inst->operands[0]);
  if (!checkRange(interp, inst, buffer, inst->elementOffset, 0,
                  matrix->rows * matrix->cols, "views"))
    return false;
  Cell *out = cells(program, inst->results[0]);
  out[0].i = cells(program, inst->operands[0])->i;
  out[1].i = inst->elementOffset;
  return true;
}

/// Element (row, col) of a matrix value. inference / training are
/// row-major on the CPU.
static double *matrixElement(Interp *interp, Program *program, int32_t slot,
                             int64_t row, int64_t col) {
  const Slot *matrix = &program->slots[slot];
  const Cell *view = cells(program, slot);
  int64_t position = matrix->layout == CoopvecLayoutColMajor
                         ? col * matrix->rows + row
                         : row * matrix->cols + col;
  return &interp->buffers[view[0].i].shadow[view[1].i + position];
}

static void runMatvec(Interp *interp, Program *program, const Inst *inst) {
  const Slot *matrix = &program->slots[inst->operands[0]];
  const Slot *result = &program->slots[inst->results[0]];
  const Cell *x = cells(program, inst->operands[1]);
  Cell *y = cells(program, inst->results[0]);
  int64_t inputs = inst->transpose ? matrix->rows : matrix->cols;
  for (int64_t out = 0; out < result->width; ++out) {
    // Without a bias the sum starts at -0.0, the additive identity: a sum
    // of -0.0 products stays -0.0 (docs/dialect.md, "Special values").
    double sum =
        inst->hasBias ? cells(program, inst->operands[2])[out].f : -0.0;
    for (int64_t in = 0; in < inputs; ++in) {
      int64_t row = inst->transpose ? in : out;
      int64_t col = inst->transpose ? out : in;
      sum += *matrixElement(interp, program, inst->operands[0], row, col) *
             x[in].f;
    }
    y[out].f = sum;
  }
}

static void runOuterProduct(Interp *interp, Program *program,
                            const Inst *inst) {
  const Slot *matrix = &program->slots[inst->operands[2]];
  const Cell *a = cells(program, inst->operands[0]);
  const Cell *b = cells(program, inst->operands[1]);
  for (int64_t row = 0; row < matrix->rows; ++row)
    for (int64_t col = 0; col < matrix->cols; ++col)
      *matrixElement(interp, program, inst->operands[2], row, col) +=
          a[row].f * b[col].f;
  interp->buffers[cells(program, inst->operands[2])[0].i].dirty = true;
}

static bool runReduceSum(Interp *interp, Program *program, const Inst *inst) {
  const Slot *value = &program->slots[inst->operands[0]];
  Buffer *buffer = bufferOf(interp, program, inst->operands[1]);
  int64_t offset = cells(program, inst->operands[2])->i;
  if (!checkRange(interp, inst, buffer, offset, 0, value->width,
                  "accumulates into"))
    return false;
  const Cell *v = cells(program, inst->operands[0]);
  for (int64_t i = 0; i < value->width; ++i)
    buffer->shadow[offset + i] += v[i].f;
  buffer->dirty = true;
  return true;
}

//===----------------------------------------------------------------------===//
// Control flow
//===----------------------------------------------------------------------===//

static bool runCall(Interp *interp, Program *program, const Inst *inst) {
  Program *callee = inst->callee;
  for (int32_t i = 0; i < inst->numOperands; ++i)
    copySlot(callee, callee->argSlots[i], program, inst->operands[i]);
  if (!coopvecInterpRun(interp, callee, 0, callee->numInsts))
    return false;
  for (int32_t i = 0; i < inst->numResults; ++i)
    copySlot(program, inst->results[i], callee, callee->returnSlots[i]);
  return true;
}

static bool runFor(Interp *interp, Program *program, int32_t index) {
  const Inst *inst = &program->insts[index];
  int32_t numIterArgs = inst->numResults;
  for (int32_t i = 0; i < numIterArgs; ++i)
    copySlot(program, inst->targets[1 + i], program, inst->operands[3 + i]);
  int64_t lower = cells(program, inst->operands[0])->i;
  int64_t upper = cells(program, inst->operands[1])->i;
  int64_t step = cells(program, inst->operands[2])->i;
  if (step <= 0)
    return coopvecInterpError(interp, inst->op,
                              "has step %lld; the step must be positive",
                              (long long)step);
  for (int64_t iv = lower; iv < upper; iv += step) {
    cells(program, inst->targets[0])->i = iv;
    if (!coopvecInterpRun(interp, program, index + 1, inst->bodyEnd))
      return false;
    inst = &program->insts[index];
    // Stop before `iv += step` could overflow.
    if ((uint64_t)upper - (uint64_t)iv <= (uint64_t)step)
      break;
  }
  for (int32_t i = 0; i < numIterArgs; ++i)
    copySlot(program, inst->results[i], program, inst->targets[1 + i]);
  return true;
}

static void runYield(Program *program, const Inst *inst) {
  Cell *scratch = &program->frame[inst->scratch];
  int64_t used = 0;
  for (int32_t i = 0; i < inst->numOperands; ++i) {
    int64_t count = coopvecSlotCells(&program->slots[inst->operands[i]]);
    memcpy(scratch + used, cells(program, inst->operands[i]),
           sizeof(Cell) * (size_t)count);
    used += count;
  }
  used = 0;
  for (int32_t i = 0; i < inst->numOperands; ++i) {
    int64_t count = coopvecSlotCells(&program->slots[inst->targets[i]]);
    memcpy(cells(program, inst->targets[i]), scratch + used,
           sizeof(Cell) * (size_t)count);
    used += count;
  }
}

//===----------------------------------------------------------------------===//
// The loop
//===----------------------------------------------------------------------===//

/// Ops that need neither the interpreter's buffers nor control flow.
static void runLocal(Program *program, const Inst *inst) {
  // Every local op defines a result (the decoders check it).
  if (inst->numResults == 0)
    return;
  Cell *out = cells(program, inst->results[0]);
  switch (inst->opcode) {
  case OP_CONSTANT:
    memcpy(out, inst->constant,
           sizeof(Cell) *
               (size_t)coopvecSlotCells(&program->slots[inst->results[0]]));
    return;
  case OP_IADD:
  case OP_ISUB:
  case OP_IMUL:
    runIntBinary(program, inst);
    return;
  case OP_COPY:
    copySlot(program, inst->results[0], program, inst->operands[0]);
    return;
  case OP_ROUND:
    runRound(program, inst);
    return;
  case OP_FROM_ELEMENTS:
    for (int32_t i = 0; i < inst->numOperands; ++i)
      out[i] = *cells(program, inst->operands[i]);
    return;
  case OP_SPLAT:
    for (int64_t i = 0; i < program->slots[inst->results[0]].width; ++i)
      out[i] = *cells(program, inst->operands[0]);
    return;
  case OP_UNPACK:
    for (int32_t i = 0; i < inst->numResults; ++i)
      *cells(program, inst->results[i]) = cells(program, inst->operands[0])[i];
    return;
  default:
    runElementwise(program, inst);
    return;
  }
}

bool coopvecInterpRun(Interp *interp, Program *program, int32_t begin,
                      int32_t end) {
  for (int32_t index = begin; index < end;) {
    const Inst *inst = &program->insts[index];
    bool ok = true;
    switch (inst->opcode) {
    case OP_LOAD:
    case OP_MASKED_LOAD:
    case OP_STORE:
    case OP_MASKED_STORE:
      ok = runTransfer(interp, program, inst);
      break;
    case OP_MATRIX_VIEW:
      ok = runMatrixView(interp, program, inst);
      break;
    case OP_MATVEC:
      runMatvec(interp, program, inst);
      break;
    case OP_OUTER_PRODUCT:
      runOuterProduct(interp, program, inst);
      break;
    case OP_REDUCE_SUM:
      ok = runReduceSum(interp, program, inst);
      break;
    case OP_CALL:
      ok = runCall(interp, program, inst);
      break;
    case OP_FOR:
      ok = runFor(interp, program, index);
      index = program->insts[index].bodyEnd;
      if (!ok)
        return false;
      continue;
    case OP_YIELD:
      runYield(program, inst);
      break;
    case OP_RETURN:
      return true;
    default:
      runLocal(program, inst);
      break;
    }
    if (!ok)
      return false;
    ++index;
  }
  return true;
}
