//===- Interpreter.h - Reference interpreter internals ------------*- C -*-===//
//
// A function is first decoded into a Program: a flat list of instructions
// whose operands are frame slots. All type inspection and every shape check
// happen once, during decoding, so that executing the per-thread loop only
// indexes arrays whose sizes were already checked. Execution then runs the
// program once per thread over a frame of double / int64 cells. Structured
// control flow is flattened: region ops jump to instruction indices fixed
// while decoding, so running a program never recurses except into calls.
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
/// Integers are kept normalized to their width: sign-extended from N bits,
/// except i1, which is 0 or 1 (coopvecInterpWrap).
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
  int bits;           // integer width (64 for index); float width
  bool isVector;      // !coopvec.vec or vector<...>, even of one element
  bool isLocal;       // a memref.alloca result (a local array)
  int64_t width;      // elements: 1 for scalars
  int64_t staticSize; // memref: its number of elements; -1 if dynamic
  int32_t rank;       // memref
  int64_t rows, cols; // matrices
  CoopvecLayout layout;
  int64_t offset;     // first cell in the frame
  int64_t dataOffset; // local arrays: the frame cell of element 0
} Slot;

/// Execute.c dispatches on ranges of this list: the float ops (OP_FADD to
/// OP_COPYSIGN), the integer ops (OP_IADD to OP_SHRUI), the conversions
/// (OP_ROUND to OP_BITCAST) and control flow (OP_CALL on) stay together.
typedef enum Opcode {
  OP_CONSTANT,
  // Float ops (coopvec elementwise, arith, math): a float result computed
  // in double, rounded to its type where Inst.rounds says so.
  OP_FADD,
  OP_FSUB,
  OP_FMUL,
  OP_FDIV,
  OP_FREM,
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
  OP_SIN,
  OP_COS,
  OP_EXP,
  OP_LOG,
  OP_SQRT,
  OP_RSQRT,
  OP_ATAN,
  OP_ATAN2,
  OP_ERF,
  OP_POW,
  OP_FLOOR,
  OP_CEIL,
  OP_FROUND_AWAY, // math.round: halves away from zero
  OP_FTRUNC,
  OP_FABS,
  OP_COPYSIGN,
  // Integer ops: wrap at the width; the undefined cases are defined
  // (docs/interpreter.md).
  OP_IADD,
  OP_ISUB,
  OP_IMUL,
  OP_DIVSI,
  OP_DIVUI,
  OP_CEILDIVSI,
  OP_CEILDIVUI,
  OP_FLOORDIVSI,
  OP_REMSI,
  OP_REMUI,
  OP_MAXSI,
  OP_MAXUI,
  OP_MINSI,
  OP_MINUI,
  OP_ANDI,
  OP_ORI,
  OP_XORI,
  OP_SHLI,
  OP_SHRSI,
  OP_SHRUI,
  OP_CMPF, // Inst.variant: the predicate
  OP_CMPI,
  OP_SELECT,
  // Conversions, elementwise.
  OP_COPY,       // from_vector, to_vector, extf: value unchanged
  OP_ROUND,      // cast, truncf: round to the result element type
  OP_INT_CAST,   // extsi, trunci, index_cast: sign-extend or truncate
  OP_INT_CAST_U, // extui, index_castui: zero-extend or truncate
  OP_SITOFP,
  OP_UITOFP,
  OP_FPTOSI,
  OP_FPTOUI,
  OP_BITCAST,
  OP_FROM_ELEMENTS,
  OP_SPLAT,
  OP_UNPACK,
  // Memory: each may be out of bounds, which is counted, not fatal.
  OP_LOAD,
  OP_MASKED_LOAD,
  OP_STORE,
  OP_MASKED_STORE,
  OP_REDUCE_SUM,
  OP_MEMREF_LOAD,
  OP_MEMREF_STORE,
  OP_ATOMIC_RMW, // Inst.variant: the update (OP_FADD, OP_MAXSI, ...)
  OP_ALLOCA,
  OP_MATRIX_VIEW,
  OP_MATVEC,
  OP_OUTER_PRODUCT,
  // Control flow: see the layouts in DecodeControl.c.
  OP_CALL,
  OP_IF,
  OP_FOR,
  OP_END_FOR,
  OP_WHILE,
  OP_CONDITION,
  OP_SWITCH,
  OP_YIELD,
  OP_RETURN,
} Opcode;

/// The number of operands of a float op (OP_FADD ... OP_COPYSIGN).
int coopvecInterpFloatArity(Opcode opcode);

struct Program;

typedef struct Inst {
  Opcode opcode;
  MlirOperation op; // for error locations
  int32_t *operands;
  int32_t numOperands;
  int32_t *results;
  int32_t numResults;
  bool hasBias, transpose; // matvec
  bool rounds;             // float ops: round the result to its type
  int64_t variant;         // cmpf / cmpi: predicate; atomic_rmw: update opcode
  int64_t elementOffset;   // matrix_view: the byte offset in elements
  Cell *constant;          // arith.constant: one cell per element
  int64_t *dims;           // memref load / store / atomic: the shape
  int32_t rank;
  int32_t jump;     // control flow: the instruction to go to (see users)
  int32_t parent;   // end_for, condition: the index of their region op
  int32_t *targets; // region ops, yield, condition: slots written
  int32_t numTargets;
  int64_t scratch;        // yield, condition: frame cells to stage values in
  int64_t state;          // scf.for: the frame cell of the remaining trips
  int64_t *caseValues;    // index_switch
  int32_t *caseStarts;    // index_switch: the first instruction of each case
  int32_t numCases;       // (the default starts at `jump`)
  struct Program *callee; // func.call
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

/// A shared buffer: the caller's array plus a shadow copy (doubles for
/// floats, normalized integers) that every memory op works on, written
/// back once all threads have finished.
typedef struct Buffer {
  CoopvecArray array;
  ElemKind elem;
  int bits;
  Cell *shadow;
  bool dirty;
} Buffer;

/// Out-of-bounds accesses of a run. The first is the one of the lowest
/// thread and, within it, of the op first in the text: `path` holds the
/// indices of the func.call instructions from the entry function down to
/// the access's instruction (instructions are numbered in text order), so
/// paths compare lexicographically.
typedef struct OutOfBounds {
  int64_t count;
  int64_t thread; // of the first; -1 while there is none
  int32_t *path;
  int32_t depth;
  intptr_t capacity;
  MlirOperation op;
  char what[160]; // "element 7 of a buffer of 4 elements"
} OutOfBounds;

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
  int64_t thread;    // the thread being run, -1 while decoding
  int32_t *callPath; // the func.call instructions being run, outermost
  int32_t callDepth; // first
  intptr_t callCapacity;
  OutOfBounds outOfBounds;
} Interp;

/// Reports the first error only: "<location>: '<op>' op <message>" when `op`
/// is not null, else the message alone. Always returns false.
bool coopvecInterpError(Interp *interp, MlirOperation op, const char *format,
                        ...) __attribute__((format(printf, 3, 4)));

/// Number of frame cells a slot occupies.
int64_t coopvecSlotCells(const Slot *slot);

/// Decodes the function `func` (cached per function). Returns NULL after
/// reporting an error.
Program *coopvecInterpDecode(Interp *interp, MlirOperation func);
/// Finds the func.func named `name` in the interpreter's module.
MlirOperation coopvecInterpLookupFunction(Interp *interp, MlirStringRef name);
void coopvecInterpFreePrograms(Interp *interp);

/// Runs `program` on its frame for the current thread. Returns false after
/// reporting an error.
bool coopvecInterpRun(Interp *interp, Program *program);

#endif // COOPVEC_LIB_INTERPRETER_INTERPRETER_H
