//===- Program.c - Decoding a function into a Program ---------------------===//
//
// Values are numbered into frame slots as they are defined, through a hash
// map keyed by MlirValue.ptr (stable while the IR lives). Types are turned
// into slots here, once, because inspecting coopvec types prints and parses
// them.
//
//===----------------------------------------------------------------------===//

#include "Dialect/TypeCache.h"
#include "Interpreter/Decode.h"
#include "Support/Alloc.h"
#include "Support/PointerMap.h"
#include "coopvec-c/Support.h"

#include <mlir-c/AffineMap.h>
#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int64_t coopvecSlotCells(const Slot *slot) {
  switch (slot->kind) {
  case SLOT_MEMREF:
    return 1;
  case SLOT_MATRIX:
    return 2;
  default:
    return slot->width;
  }
}

int64_t coopvecElemBytes(ElemKind elem) {
  switch (elem) {
  case ELEM_F16:
    return 2;
  case ELEM_F32:
    return 4;
  default:
    return 8;
  }
}

static const char *elemName(const Slot *slot, char *buffer, size_t size) {
  static const char *names[] = {"f16", "f32", "f64"};
  if (slot->elem != ELEM_INT)
    return names[slot->elem];
  if (slot->bits == 64 && slot->kind == SLOT_INT && slot->isVector == false)
    snprintf(buffer, size, "i64/index");
  else
    snprintf(buffer, size, "i%d", slot->bits);
  return buffer;
}

void coopvecSlotDescribe(const Slot *slot, char *text, size_t size) {
  char element[16];
  const char *name = elemName(slot, element, sizeof(element));
  if (slot->kind == SLOT_MEMREF)
    snprintf(text, size, "memref of %s", name);
  else if (slot->kind == SLOT_MATRIX)
    snprintf(text, size, "matrix<%lld, %lld, %s>", (long long)slot->rows,
             (long long)slot->cols, name);
  else if (slot->isVector)
    snprintf(text, size, "vector of %lld x %s", (long long)slot->width, name);
  else
    snprintf(text, size, "scalar %s", name);
}

//===----------------------------------------------------------------------===//
// Types to slots
//===----------------------------------------------------------------------===//

/// Fills elem / bits for a scalar type; false if it is not a supported one.
static bool scalarElem(MlirType type, Slot *slot) {
  if (mlirTypeIsAF16(type))
    slot->elem = ELEM_F16, slot->bits = 16;
  else if (mlirTypeIsAF32(type))
    slot->elem = ELEM_F32, slot->bits = 32;
  else if (mlirTypeIsAF64(type))
    slot->elem = ELEM_F64, slot->bits = 64;
  else if (mlirTypeIsAIndex(type))
    slot->elem = ELEM_INT, slot->bits = 64;
  else if (mlirTypeIsAInteger(type) && mlirIntegerTypeIsSignless(type) &&
           mlirIntegerTypeGetWidth(type) >= 1 &&
           mlirIntegerTypeGetWidth(type) <= 64)
    slot->elem = ELEM_INT, slot->bits = (int)mlirIntegerTypeGetWidth(type);
  else
    return false;
  slot->kind = slot->elem == ELEM_INT ? SLOT_INT : SLOT_FLOAT;
  return true;
}

static bool vectorSlot(MlirType type, Slot *slot) {
  if (mlirShapedTypeGetRank(type) != 1 || mlirVectorTypeIsScalable(type) ||
      !scalarElem(mlirShapedTypeGetElementType(type), slot))
    return false;
  slot->isVector = true;
  slot->width = mlirShapedTypeGetDimSize(type, 0);
  return slot->width >= 1;
}

/// The number of elements of a memref type; -1 if a size is dynamic,
/// INT64_MAX if it does not fit (no array that large can be made).
static int64_t memrefElements(MlirType type) {
  int64_t count = 1;
  for (intptr_t k = 0; k < mlirShapedTypeGetRank(type); ++k) {
    if (mlirShapedTypeIsDynamicDim(type, k))
      return -1;
    int64_t dim = mlirShapedTypeGetDimSize(type, k);
    if (dim != 0 && count > INT64_MAX / dim)
      return INT64_MAX;
    count *= dim;
  }
  return count;
}

/// Memrefs of any rank: arguments must be rank 1 (decodeBody), local
/// arrays static (the alloca check).
static bool memrefSlot(MlirType type, Slot *slot) {
  if (!mlirAffineMapIsIdentity(mlirMemRefTypeGetAffineMap(type)) ||
      !scalarElem(mlirShapedTypeGetElementType(type), slot))
    return false;
  slot->kind = SLOT_MEMREF;
  slot->rank = (int32_t)mlirShapedTypeGetRank(type);
  slot->staticSize = memrefElements(type);
  return true;
}

static bool coopvecSlot(MlirType type, Slot *slot) {
  if (coopvecTypeIsAVec(type)) {
    if (!scalarElem(coopvecVecTypeGetElementType(type), slot))
      return false;
    slot->isVector = true;
    slot->width = coopvecVecTypeGetSize(type);
    return slot->kind == SLOT_FLOAT && slot->width >= 1;
  }
  if (!scalarElem(coopvecMatrixTypeGetElementType(type), slot) ||
      slot->kind != SLOT_FLOAT)
    return false;
  slot->kind = SLOT_MATRIX;
  slot->rows = coopvecMatrixTypeGetRows(type);
  slot->cols = coopvecMatrixTypeGetCols(type);
  return coopvecMatrixTypeGetLayout(type, &slot->layout) && slot->rows >= 1 &&
         slot->cols >= 1;
}

static bool typeToSlot(MlirType type, Slot *slot) {
  memset(slot, 0, sizeof(*slot));
  slot->width = 1;
  slot->staticSize = -1;
  if (mlirTypeIsAVector(type))
    return vectorSlot(type, slot);
  if (mlirTypeIsAMemRef(type))
    return memrefSlot(type, slot);
  if (coopvecTypeIsAVec(type) || coopvecTypeIsAMatrix(type))
    return coopvecSlot(type, slot);
  return scalarElem(type, slot);
}

int32_t coopvecProgramDefine(Interp *interp, Program *program,
                             MlirOperation owner, MlirValue value) {
  MlirType type = mlirValueGetType(value);
  Slot slot;
  if (!typeToSlot(type, &slot)) {
    CoopvecBuffer text = {0};
    mlirTypePrint(type, coopvecBufferCallback, &text);
    coopvecInterpError(interp, owner,
                       "uses type '%s', which the reference interpreter does "
                       "not support",
                       coopvecBufferStr(&text));
    coopvecBufferFree(&text);
    return -1;
  }
  program->slots = coopvecGrowArray(program->slots, &program->slotCapacity,
                                    program->numSlots + 1, sizeof(Slot));
  slot.offset = coopvecProgramReserve(program, coopvecSlotCells(&slot));
  program->slots[program->numSlots] = slot;
  coopvecPointerMapInsert(&program->map, value.ptr, program->numSlots);
  return program->numSlots++;
}

int32_t coopvecProgramLookup(Interp *interp, Program *program,
                             MlirOperation user, MlirValue value) {
  int32_t slot = (int32_t)coopvecPointerMapFind(&program->map, value.ptr);
  if (slot < 0)
    coopvecInterpError(interp, user,
                       "uses a value defined outside its function");
  return slot;
}

int64_t coopvecProgramReserve(Program *program, int64_t cells) {
  int64_t first = program->frameCells;
  program->frameCells += cells;
  return first;
}

//===----------------------------------------------------------------------===//
// Ops, blocks and functions
//===----------------------------------------------------------------------===//

int32_t coopvecProgramAddInst(Program *program, Opcode opcode,
                              MlirOperation op) {
  program->insts = coopvecGrowArray(program->insts, &program->instCapacity,
                                    program->numInsts + 1, sizeof(Inst));
  Inst *inst = &program->insts[program->numInsts];
  memset(inst, 0, sizeof(*inst));
  inst->opcode = opcode;
  inst->op = op;
  inst->jump = -1; // set by the region op of a terminator
  inst->parent = -1;
  return program->numInsts++;
}

/// Numbers the operands and results of `op` into the instruction.
static bool bindValues(Interp *interp, Program *program, int32_t index,
                       MlirOperation op) {
  intptr_t numOperands = mlirOperationGetNumOperands(op);
  intptr_t numResults = mlirOperationGetNumResults(op);
  int32_t *operands = malloc(sizeof(int32_t) * (size_t)(numOperands + 1));
  int32_t *results = malloc(sizeof(int32_t) * (size_t)(numResults + 1));
  Inst *inst = instAt(program, index);
  inst->operands = operands;
  inst->results = results;
  for (intptr_t i = 0; i < numOperands; ++i) {
    operands[i] = coopvecProgramLookup(interp, program, op,
                                       mlirOperationGetOperand(op, i));
    if (operands[i] < 0)
      return false;
    inst->numOperands = (int32_t)i + 1;
  }
  for (intptr_t i = 0; i < numResults; ++i) {
    results[i] = coopvecProgramDefine(interp, program, op,
                                      mlirOperationGetResult(op, i));
    if (results[i] < 0)
      return false;
    inst->numResults = (int32_t)i + 1;
  }
  return true;
}

/// The frame (values, local arrays, scratch) is allocated per program;
/// its size is bounded so that a huge vector or alloca is an error, not a
/// failed allocation.
static bool frameFits(Interp *interp, Program *program, MlirOperation op) {
  if (program->frameCells <= COOPVEC_INTERP_MAX_FRAME_CELLS)
    return true;
  return coopvecInterpError(interp, op,
                            "needs more than %d frame cells (values and "
                            "local arrays), the most the reference "
                            "interpreter holds",
                            COOPVEC_INTERP_MAX_FRAME_CELLS);
}

static bool decodeOp(Interp *interp, Program *program, MlirOperation op) {
  MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
  OpDecoder decoder;
  if (!coopvecInterpFindDecoder(name, &decoder))
    return coopvecInterpError(interp, op,
                              "is not supported by the reference interpreter");
  int32_t index = coopvecProgramAddInst(program, decoder.opcode, op);
  return bindValues(interp, program, index, op) &&
         frameFits(interp, program, op) &&
         decoder.check(interp, program, index) &&
         frameFits(interp, program, op);
}

bool coopvecDecodeBlock(Interp *interp, Program *program, MlirBlock block) {
  for (MlirOperation op = mlirBlockGetFirstOperation(block);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    if (!decodeOp(interp, program, op))
      return false;
  return true;
}

static void freeProgram(Program *program) {
  for (int32_t i = 0; i < program->numInsts; ++i) {
    free(program->insts[i].operands);
    free(program->insts[i].results);
    free(program->insts[i].constant);
    free(program->insts[i].targets);
    free(program->insts[i].dims);
    free(program->insts[i].caseValues);
    free(program->insts[i].caseStarts);
  }
  free(program->insts);
  free(program->slots);
  free(program->argSlots);
  free(program->returnSlots);
  free(program->frame);
  coopvecPointerMapFree(&program->map);
  free(program);
}

void coopvecInterpFreePrograms(Interp *interp) {
  for (int32_t i = 0; i < interp->numPrograms; ++i)
    freeProgram(interp->programs[i]);
  free(interp->programs);
  interp->programs = NULL;
  interp->numPrograms = 0;
  interp->programCapacity = 0;
}

/// Every scf.yield / scf.condition got its targets from its region op;
/// one that did not (not the last op of its block) would jump nowhere.
static bool checkTerminatorsBound(Interp *interp, Program *program) {
  for (int32_t i = 0; i < program->numInsts; ++i) {
    const Inst *inst = &program->insts[i];
    if ((inst->opcode == OP_YIELD || inst->opcode == OP_CONDITION) &&
        inst->jump < 0)
      return coopvecInterpError(interp, inst->op,
                                "does not end a region of an op the "
                                "reference interpreter supports");
  }
  return true;
}

static bool decodeBody(Interp *interp, Program *program) {
  MlirOperation func = program->func;
  MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
  if (mlirBlockIsNull(entry))
    return coopvecInterpError(interp, func,
                              "is a declaration; only functions with a "
                              "body can be interpreted");
  if (!mlirBlockIsNull(mlirBlockGetNextInRegion(entry)))
    return coopvecInterpError(interp, func,
                              "has several blocks; the reference "
                              "interpreter supports a single block");
  program->numArgs = (int32_t)mlirBlockGetNumArguments(entry);
  program->argSlots = malloc(sizeof(int32_t) * (size_t)(program->numArgs + 1));
  for (int32_t i = 0; i < program->numArgs; ++i) {
    program->argSlots[i] = coopvecProgramDefine(interp, program, func,
                                                mlirBlockGetArgument(entry, i));
    if (program->argSlots[i] < 0)
      return false;
    const Slot *slot = &program->slots[program->argSlots[i]];
    if (slot->kind == SLOT_MEMREF && slot->rank != 1)
      return coopvecInterpError(interp, func,
                                "argument #%d is a memref of rank %d; memref "
                                "arguments must have rank 1",
                                i, slot->rank);
  }
  return coopvecDecodeBlock(interp, program, entry) &&
         checkTerminatorsBound(interp, program);
}

Program *coopvecInterpDecode(Interp *interp, MlirOperation func) {
  for (int32_t i = 0; i < interp->numPrograms; ++i)
    if (mlirOperationEqual(interp->programs[i]->func, func))
      return interp->programs[i];
  Program *program = calloc(1, sizeof(Program));
  if (!program)
    abort();
  program->func = func;
  interp->programs =
      coopvecGrowArray(interp->programs, &interp->programCapacity,
                       interp->numPrograms + 1, sizeof(Program *));
  interp->programs[interp->numPrograms++] = program;
  program->decoding = true;
  coopvecTypeCacheBegin();
  bool ok = decodeBody(interp, program);
  coopvecTypeCacheEnd();
  program->decoding = false;
  if (!ok)
    return NULL;
  program->frame = calloc((size_t)program->frameCells + 1, sizeof(Cell));
  if (!program->frame)
    abort();
  return program;
}

MlirOperation coopvecInterpLookupFunction(Interp *interp, MlirStringRef name) {
  MlirOperation none = {NULL};
  if (mlirOperationGetNumRegions(interp->moduleOp) < 1)
    return none;
  MlirBlock body =
      mlirRegionGetFirstBlock(mlirOperationGetRegion(interp->moduleOp, 0));
  if (mlirBlockIsNull(body))
    return none;
  for (MlirOperation op = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    if (!coopvecOpIsNamed(op, "func.func"))
      continue;
    MlirAttribute symbol = mlirOperationGetAttributeByName(
        op, mlirStringRefCreateFromCString("sym_name"));
    if (!mlirAttributeIsNull(symbol) && mlirAttributeIsAString(symbol) &&
        mlirStringRefEqual(mlirStringAttrGetValue(symbol), name))
      return op;
  }
  return none;
}
