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

/// Number of frame cells a slot occupies.
int64_t coopvecSlotCells(const Slot *slot);
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

static inline Inst *instAt(Program *program, int32_t index) {
  return &program->insts[index];
}
static inline Slot *operandSlot(Program *program, Inst *inst, int32_t i) {
  return &program->slots[inst->operands[i]];
}
static inline Slot *resultSlot(Program *program, Inst *inst, int32_t i) {
  return &program->slots[inst->results[i]];
}

#endif // COOPVEC_LIB_INTERPRETER_DECODE_H
