//===- Builder.c - Creating upstream ops from C ---------------------------===//

#include "Conversion/CoopvecToVector/Builder.h"

#include "Support/Buffer.h"

#include <mlir-c/BuiltinAttributes.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

/// Formats into a buffer the caller frees.
static void formatInto(CoopvecBuffer *buffer, const char *format,
                       va_list args) {
  va_list copy;
  va_copy(copy, args);
  int length = vsnprintf(NULL, 0, format, copy);
  va_end(copy);
  if (length < 0)
    return;
  char *text = malloc((size_t)length + 1);
  if (!text)
    abort();
  vsnprintf(text, (size_t)length + 1, format, args);
  coopvecBufferAppend(buffer, text, (size_t)length);
  free(text);
}

MlirType cvParseType(MlirContext ctx, const char *format, ...) {
  CoopvecBuffer text = {0};
  va_list args;
  va_start(args, format);
  formatInto(&text, format, args);
  va_end(args);
  MlirType type =
      mlirTypeParseGet(ctx, mlirStringRefCreate(text.data, text.size));
  coopvecBufferFree(&text);
  return type;
}

MlirAttribute cvParseAttr(MlirContext ctx, const char *format, ...) {
  CoopvecBuffer text = {0};
  va_list args;
  va_start(args, format);
  formatInto(&text, format, args);
  va_end(args);
  MlirAttribute attr =
      mlirAttributeParseGet(ctx, mlirStringRefCreate(text.data, text.size));
  coopvecBufferFree(&text);
  return attr;
}

void cvInsert(CvBuilder *b, MlirOperation op) {
  if (mlirOperationIsNull(b->before))
    mlirBlockAppendOwnedOperation(b->block, op);
  else
    mlirBlockInsertOwnedOperationBefore(b->block, b->before, op);
}

/// Adds the entries of the dictionary `attributes` (MLIR text) to `state`.
/// The text is written by this library, so a parse failure is a bug.
static void addAttributes(MlirContext ctx, MlirOperationState *state,
                          const char *attributes) {
  if (!attributes)
    return;
  MlirAttribute dict = cvParseAttr(ctx, "%s", attributes);
  if (mlirAttributeIsNull(dict) || !mlirAttributeIsADictionary(dict))
    abort();
  intptr_t count = mlirDictionaryAttrGetNumElements(dict);
  for (intptr_t i = 0; i < count; ++i) {
    MlirNamedAttribute entry = mlirDictionaryAttrGetElement(dict, i);
    mlirOperationStateAddAttributes(state, 1, &entry);
  }
}

MlirOperation cvCreate(CvBuilder *b, const char *name, intptr_t numOperands,
                       const MlirValue *operands, intptr_t numResults,
                       const MlirType *resultTypes, const char *attributes) {
  MlirOperationState state =
      mlirOperationStateGet(mlirStringRefCreateFromCString(name), b->loc);
  mlirOperationStateAddOperands(&state, numOperands, operands);
  mlirOperationStateAddResults(&state, numResults, resultTypes);
  addAttributes(b->ctx, &state, attributes);
  MlirOperation op = mlirOperationCreate(&state);
  if (mlirOperationIsNull(op))
    abort(); // every op built here has a fixed, valid shape
  cvInsert(b, op);
  return op;
}

MlirValue cvCreate1(CvBuilder *b, const char *name, intptr_t numOperands,
                    const MlirValue *operands, MlirType resultType,
                    const char *attributes) {
  MlirOperation op =
      cvCreate(b, name, numOperands, operands, 1, &resultType, attributes);
  return mlirOperationGetResult(op, 0);
}

MlirValue cvBinary(CvBuilder *b, const char *name, MlirValue lhs,
                   MlirValue rhs) {
  MlirValue operands[] = {lhs, rhs};
  return cvCreate1(b, name, 2, operands, mlirValueGetType(lhs), NULL);
}

MlirValue cvUnary(CvBuilder *b, const char *name, MlirValue operand) {
  return cvCreate1(b, name, 1, &operand, mlirValueGetType(operand), NULL);
}

MlirValue cvConstant(CvBuilder *b, MlirType type, const char *value) {
  CoopvecBuffer attrs = {0};
  coopvecBufferAppendf(&attrs, "{value = %s}", value);
  MlirValue result =
      cvCreate1(b, "arith.constant", 0, NULL, type, coopvecBufferStr(&attrs));
  coopvecBufferFree(&attrs);
  return result;
}

CvLoop cvCreateFor(CvBuilder *b, MlirValue lower, MlirValue upper,
                   MlirValue step, intptr_t numInits, const MlirValue *inits) {
  intptr_t numArgs = 1 + numInits;
  MlirType *types = calloc((size_t)numArgs, sizeof(MlirType));
  MlirLocation *locs = calloc((size_t)numArgs, sizeof(MlirLocation));
  MlirValue *operands = calloc((size_t)(3 + numInits), sizeof(MlirValue));
  if (!types || !locs || !operands)
    abort();
  types[0] = mlirValueGetType(lower);
  locs[0] = b->loc;
  operands[0] = lower;
  operands[1] = upper;
  operands[2] = step;
  for (intptr_t i = 0; i < numInits; ++i) {
    types[1 + i] = mlirValueGetType(inits[i]);
    locs[1 + i] = b->loc;
    operands[3 + i] = inits[i];
  }
  MlirBlock block = mlirBlockCreate(numArgs, types, locs);
  MlirRegion region = mlirRegionCreate();
  mlirRegionAppendOwnedBlock(region, block);
  MlirOperationState state =
      mlirOperationStateGet(mlirStringRefCreateFromCString("scf.for"), b->loc);
  mlirOperationStateAddOperands(&state, 3 + numInits, operands);
  mlirOperationStateAddResults(&state, numInits, types + 1);
  mlirOperationStateAddOwnedRegions(&state, 1, &region);
  MlirOperation op = mlirOperationCreate(&state);
  free(types);
  free(locs);
  free(operands);
  if (mlirOperationIsNull(op))
    abort(); // the operands are index values and the inits match the types
  cvInsert(b, op);
  CvLoop loop = {op,
                 mlirBlockGetArgument(block, 0),
                 block,
                 {b->ctx, b->loc, block, {NULL}}};
  return loop;
}

MlirValue cvLoopIterArg(const CvLoop *loop, intptr_t i) {
  return mlirBlockGetArgument(loop->block, 1 + i);
}

void cvFinishFor(CvLoop *loop, intptr_t numValues, const MlirValue *values) {
  cvCreate(&loop->body, "scf.yield", numValues, values, 0, NULL, NULL);
}
