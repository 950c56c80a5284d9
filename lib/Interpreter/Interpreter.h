//===- Interpreter.h - Reference interpreter internals ------------*- C -*-===//
//
// A function is first decoded into a Program: a flat list of instructions
// whose operands are frame slots. All type inspection and every shape check
// happen once, during decoding, so that executing the per-thread loop only
// indexes arrays whose sizes were already checked. Execution then runs the
// program once per thread over a frame of double / int64 cells.
//
//===----------------------------------------------------------------------===//

#ifndef COOPVEC_LIB_INTERPRETER_INTERPRETER_H
#define COOPVEC_LIB_INTERPRETER_INTERPRETER_H

#include "coopvec-c/Dialect.h"
#include "coopvec-c/HostArray.h"
#include "coopvec-c/Interpreter.h"

#include "Support/PointerMap.h"

#include <mlir-c/IR.h>

#include <stdbool.h>
#include <stdint.h>

/// One frame cell: floats (of any element type) are held as doubles,
/// integers / index as int64, memrefs and matrices as buffer numbers.
typedef union Cell {
  double f;
  int64_t i;
} Cell;

typedef enum SlotKind {
  SLOT_FLOAT,  // f16 / f32 / f64 scalar, vec or vector
  SLOT_INT,    // iN / index scalar or vector (masks)
  SLOT_MEMREF, // 1 cell: buffer number
  SLOT_MATRIX, // 2 cells: buffer number, element offset
} SlotKind;

typedef enum ElemKind { ELEM_F16, ELEM_F32, ELEM_F64, ELEM_INT } ElemKind;

/// The storage of one SSA value in the frame.
typedef struct Slot {
  SlotKind kind;
  ElemKind elem;      // element type (also of a memref or matrix)
  int bits;           // integer width; 64 for index
  bool isVector;      // !coopvec.vec or vector<...>, even of one element
  int64_t width;      // elements: 1 for scalars
  int64_t staticSize; // memref<NxT>: N; memref<?xT>: -1
  int64_t rows, cols; // matrices
  CoopvecLayout layout;
  int64_t offset; // first cell in the frame
} Slot;

typedef enum Opcode {
  OP_CONSTANT,
  OP_FADD,
  OP_FSUB,
  OP_FMUL,
  OP_FDIV,
  OP_FMAX,
  OP_FMIN,
  OP_FMAXNUM,
  OP_FMINNUM,
  OP_STEP,
  OP_FMA,
  OP_FNEG,
  OP_EXP2,
  OP_LOG2,
  OP_TANH,
  OP_IADD,
  OP_ISUB,
  OP_IMUL,
  OP_COPY,  // from_vector, to_vector, index_cast, extf: value unchanged
  OP_ROUND, // cast, truncf: round to the result element type
  OP_FROM_ELEMENTS,
  OP_SPLAT,
  OP_UNPACK,
  OP_LOAD,
  OP_MASKED_LOAD,
  OP_STORE,
  OP_MASKED_STORE,
  OP_MATRIX_VIEW,
  OP_MATVEC,
  OP_OUTER_PRODUCT,
  OP_REDUCE_SUM,
  OP_CALL,
  OP_FOR,
  OP_YIELD,
  OP_RETURN,
} Opcode;

struct Program;

typedef struct Inst {
  Opcode opcode;
  MlirOperation op; // for error locations
  int32_t *operands;
  int32_t numOperands;
  int32_t *results;
  int32_t numResults;
  bool hasBias, transpose; // matvec
  int64_t elementOffset;   // matrix_view: the byte offset in elements
  Cell *constant;          // arith.constant: one cell per element
  int32_t bodyEnd;         // scf.for: first instruction after the body
  int32_t *targets;        // scf.for / scf.yield: iteration argument slots
  int64_t scratch;         // scf.yield: frame cells to stage values in
  struct Program *callee;  // func.call
} Inst;

typedef struct Program {
  MlirOperation func;
  Slot *slots;
  int32_t numSlots;
  intptr_t slotCapacity;
  Inst *insts;
  int32_t numInsts;
  intptr_t instCapacity;
  int32_t *argSlots;
  int32_t numArgs;
  int32_t *returnSlots;
  int32_t numReturns;
  int64_t frameCells;
  Cell *frame;
  CoopvecPointerMap map; // MlirValue.ptr -> slot
  bool decoding;         // set while decoding, to reject recursion
} Program;

/// A shared buffer: the caller's array plus a double shadow copy that every
/// memory op works on, written back once all threads have finished.
typedef struct Buffer {
  CoopvecArray array;
  ElemKind elem;
  double *shadow;
  bool dirty;
} Buffer;

typedef struct Interp {
  MlirOperation moduleOp;
  Program **programs;
  int32_t numPrograms;
  intptr_t programCapacity;
  Buffer *buffers;
  int32_t numBuffers;
  MlirStringCallback errorCallback;
  void *userData;
  bool failed;
  int64_t thread; // the thread being run, -1 while decoding
} Interp;

/// Reports the first error only: "<location>: '<op>' op <message>" when `op`
/// is not null, else the message alone. Always returns false.
bool coopvecInterpError(Interp *interp, MlirOperation op, const char *format,
                        ...) __attribute__((format(printf, 3, 4)));

/// Decodes the function `func` (cached per function). Returns NULL after
/// reporting an error.
Program *coopvecInterpDecode(Interp *interp, MlirOperation func);
/// Finds the func.func named `name` in the interpreter's module.
MlirOperation coopvecInterpLookupFunction(Interp *interp, MlirStringRef name);
void coopvecInterpFreePrograms(Interp *interp);

/// Runs instructions [begin, end) of `program` on its frame for the current
/// thread. Returns false after reporting an error.
bool coopvecInterpRun(Interp *interp, Program *program, int32_t begin,
                      int32_t end);

#endif // COOPVEC_LIB_INTERPRETER_INTERPRETER_H
