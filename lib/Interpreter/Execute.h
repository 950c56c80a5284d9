//===- Execute.h - Running decoded programs (internal) ------------*- C -*-===//

#ifndef COOPVEC_LIB_INTERPRETER_EXECUTE_H
#define COOPVEC_LIB_INTERPRETER_EXECUTE_H

#include "Interpreter/Interpreter.h"

//===----------------------------------------------------------------------===//
// One element (Scalar.c): arith and math on cells, no program involved
//===----------------------------------------------------------------------===//

/// `value` rounded to nearest even in `elem` (f64: unchanged).
double coopvecInterpRoundTo(ElemKind elem, double value);
/// The bits of `value` kept as an integer of width `bits`: sign-extended,
/// except i1, which is 0 or 1.
int64_t coopvecInterpWrap(uint64_t value, int bits);
/// A normalized cell read as a signed / unsigned integer of width `bits`.
int64_t coopvecInterpSigned(int64_t cell, int bits);
uint64_t coopvecInterpUnsigned(int64_t cell, int bits);

/// A float op of Interpreter.h's list on one element. `to` is the type to
/// round to: the result type for arith / math, ELEM_F64 (no rounding) for
/// coopvec ops.
double coopvecInterpFloatOp(Opcode opcode, double a, double b, double c,
                            ElemKind to);
/// An integer op on normalized cells of width `bits`; normalized result.
int64_t coopvecInterpIntOp(Opcode opcode, int64_t a, int64_t b, int bits);
/// arith.cmpf / arith.cmpi with MLIR's predicate numbers.
bool coopvecInterpCompareFloat(int64_t predicate, double a, double b);
bool coopvecInterpCompareInt(int64_t predicate, int64_t a, int64_t b, int bits);
/// One element of a conversion (OP_COPY ... OP_BITCAST) from a value of
/// `from`'s element type to `to`'s.
Cell coopvecInterpConvert(Opcode opcode, Cell value, const Slot *from,
                          const Slot *to);

//===----------------------------------------------------------------------===//
// Memory (Memory.c)
//===----------------------------------------------------------------------===//

/// Out-of-bounds accesses are counted in interp->outOfBounds, not errors;
/// only a matrix_view outside its buffer fails (false after reporting).
void coopvecInterpRunTransfer(Interp *interp, Program *program, int32_t index);
void coopvecInterpRunReduceSum(Interp *interp, Program *program, int32_t index);
bool coopvecInterpRunMatrixView(Interp *interp, Program *program,
                                int32_t index);
void coopvecInterpRunMemRef(Interp *interp, Program *program, int32_t index);
void coopvecInterpRunAlloca(Program *program, const Inst *inst);
/// The double cell of matrix element (row, col) of a matrix value.
double *coopvecInterpMatrixElement(Interp *interp, Program *program,
                                   int32_t slot, int64_t row, int64_t col);

//===----------------------------------------------------------------------===//
// Control flow (Control.c)
//===----------------------------------------------------------------------===//

/// Runs control-flow instruction `index` (OP_CALL ... OP_RETURN); returns
/// the index of the next instruction (numInsts after func.return), or -1
/// after reporting an error.
int32_t coopvecInterpRunControl(Interp *interp, Program *program,
                                int32_t index);

static inline Cell *cellsOf(Program *program, int32_t slot) {
  return &program->frame[program->slots[slot].offset];
}

#endif // COOPVEC_LIB_INTERPRETER_EXECUTE_H
