//===- Decode.h - Decoding functions into programs (internal) -----*- C -*-===//

#ifndef COOPVEC_LIB_INTERPRETER_DECODE_H
#define COOPVEC_LIB_INTERPRETER_DECODE_H

#include "Interpreter/Interpreter.h"

/// Checks the operand and result slots of a freshly added instruction and
/// fills its op-specific fields. Returns false after reporting an error.
typedef bool (*DecodeCheckFn)(Interp *interp, Program *program,
                              int32_t instIndex);

typedef struct OpDecoder {
  const char *name; // "coopvec.add", "arith.addf", ...
  Opcode opcode;
  DecodeCheckFn check;
} OpDecoder;

/// Fills `decoder` for the op named `name`; false if it is not supported.
bool coopvecInterpFindDecoder(MlirStringRef name, OpDecoder *decoder);

/// The per-op checks, by file: DecodeArith.c (arith, math), DecodeMemory.c
/// (memref), DecodeControl.c (func, scf). OpDecoders.c has the table.
bool coopvecCheckConstant(Interp *interp, Program *program, int32_t index);
bool coopvecCheckArithFloat(Interp *interp, Program *program, int32_t index);
bool coopvecCheckArithInt(Interp *interp, Program *program, int32_t index);
bool coopvecCheckCompare(Interp *interp, Program *program, int32_t index);
bool coopvecCheckSelect(Interp *interp, Program *program, int32_t index);
bool coopvecCheckConversion(Interp *interp, Program *program, int32_t index);
bool coopvecCheckMemRefAccess(Interp *interp, Program *program, int32_t index);
bool coopvecCheckAlloca(Interp *interp, Program *program, int32_t index);
bool coopvecCheckReturn(Interp *interp, Program *program, int32_t index);
bool coopvecCheckCall(Interp *interp, Program *program, int32_t index);
bool coopvecCheckIf(Interp *interp, Program *program, int32_t index);
bool coopvecCheckFor(Interp *interp, Program *program, int32_t index);
bool coopvecCheckWhile(Interp *interp, Program *program, int32_t index);
bool coopvecCheckSwitch(Interp *interp, Program *program, int32_t index);
bool coopvecCheckTerminator(Interp *interp, Program *program, int32_t index);

/// Shared by the checks (OpDecoders.c).
bool coopvecCheckCounts(Interp *interp, Inst *inst, int32_t operands,
                        int32_t results);
/// Reports "<what> is a <slot's type>; expected <expected>".
bool coopvecDescribeError(Interp *interp, Inst *inst, const Slot *slot,
                          const char *what, const char *expected);
/// Checks that values in `from` can be copied into `to`, pairwise (local
/// arrays cannot be). In DecodeControl.c.
bool coopvecCheckCopies(Interp *interp, Inst *inst, const Program *fromProgram,
                        const int32_t *from, const Program *toProgram,
                        const int32_t *to, int32_t count, const char *what);

/// Describes a slot's type for messages ("vec<7, f32>", "index", ...).
void coopvecSlotDescribe(const Slot *slot, char *text, size_t size);
/// Byte size of one element of a float element kind.
int64_t coopvecElemBytes(ElemKind elem);

/// The slot of `value`; -1 after reporting an error on `user`.
int32_t coopvecProgramLookup(Interp *interp, Program *program,
                             MlirOperation user, MlirValue value);
/// Creates the slot of `value` from its type. Returns -1 after reporting
/// an error on `owner`.
int32_t coopvecProgramDefine(Interp *interp, Program *program,
                             MlirOperation owner, MlirValue value);
/// Reserves `cells` frame cells nobody else uses; returns the first.
int64_t coopvecProgramReserve(Program *program, int64_t cells);
/// Decodes every op of `block` into `program`.
bool coopvecDecodeBlock(Interp *interp, Program *program, MlirBlock block);
/// Appends an instruction (no operands or results bound); returns its index.
int32_t coopvecProgramAddInst(Program *program, Opcode opcode,
                              MlirOperation op);
/// The largest frame a program may have, in cells (local arrays included).
enum { COOPVEC_INTERP_MAX_FRAME_CELLS = 1 << 24 };

static inline Inst *instAt(Program *program, int32_t index) {
  return &program->insts[index];
}
static inline Slot *operandSlot(Program *program, Inst *inst, int32_t i) {
  return &program->slots[inst->operands[i]];
}
static inline Slot *resultSlot(Program *program, Inst *inst, int32_t i) {
  return &program->slots[inst->results[i]];
}

static inline bool isIntScalar(const Slot *slot) {
  return slot->kind == SLOT_INT && !slot->isVector;
}

static inline bool isFloatScalar(const Slot *slot) {
  return slot->kind == SLOT_FLOAT && !slot->isVector;
}

static inline bool sameShape(const Slot *a, const Slot *b) {
  return a->kind == b->kind && a->isVector == b->isVector &&
         coopvecSlotCells(a) == coopvecSlotCells(b);
}

/// Same shape and element type.
static inline bool sameType(const Slot *a, const Slot *b) {
  return sameShape(a, b) && a->elem == b->elem && a->bits == b->bits &&
         a->rank == b->rank;
}

#endif // COOPVEC_LIB_INTERPRETER_DECODE_H
