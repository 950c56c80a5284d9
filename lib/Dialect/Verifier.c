//===- Verifier.c - coopvec-verify: what IRDL cannot express --------------===//
//
// IRDL checks op names, operand/result counts, attribute presence and the
// constraint variables it unifies: a variable binds to the first type it
// matches, so every other use of `%vec = irdl.base @coopvec::@vec` must be
// that same type, and `irdl.parametric` ties parameters together.
// Everything else about coopvec IR is checked here (types below, per-op
// rules in OpRules*.c), after parsing and after every pass in coopvec-opt.
//
//===----------------------------------------------------------------------===//

#include "coopvec-c/Coopvec.h"

#include "Dialect/ElementTypes.h"
#include "Dialect/OpRules.h"
#include "Dialect/TypeCache.h"
#include "Dialect/Verifier.h"
#include "Pass/PassDef.h"
#include "coopvec-c/Support.h"

#include <mlir-c/Diagnostics.h>

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void coopvecEmitOpError(MlirOperation op, const char *format, ...) {
  CoopvecBuffer message = {0};
  MlirIdentifier name = mlirOperationGetName(op);
  MlirStringRef nameRef = mlirIdentifierStr(name);
  coopvecBufferAppendf(&message, "'%.*s' op ", (int)nameRef.length,
                       nameRef.data);
  va_list args;
  va_start(args, format);
  char text[1024];
  vsnprintf(text, sizeof(text), format, args);
  va_end(args);
  coopvecBufferAppendStr(&message, text);
  mlirEmitError(mlirOperationGetLocation(op), coopvecBufferStr(&message));
  coopvecBufferFree(&message);
}

/// A vec size or matrix dimension must lie in [1, COOPVEC_MAX_DIMENSION].
static bool checkDimension(MlirOperation op, MlirType type, const char *what,
                           int64_t value) {
  if (value >= 1 && value <= COOPVEC_MAX_DIMENSION)
    return true;
  coopvecEmitOpError(op, "uses %s with %s %lld; it must be between 1 and %d",
                     coopvecTypeText(type).text, what, (long long)value,
                     COOPVEC_MAX_DIMENSION);
  return false;
}

/// IRDL accepts any integer attribute as a size (`4 : i32`, `4 : index`),
/// but `vec<4 : i32, f32>` and `vec<4 : i64, f32>` are different types that
/// no op would accept together. Sizes must be i64, the type a plain `4`
/// gets and the one coopvecVecTypeGet / coopvecMatrixTypeGet build.
static bool checkCanonical(MlirOperation op, MlirType type,
                           MlirType canonical) {
  if (mlirTypeIsNull(canonical) || mlirTypeEqual(type, canonical))
    return true;
  coopvecEmitOpError(op,
                     "uses %s, whose sizes must be i64 integers (write "
                     "them without a type, as in %s)",
                     coopvecTypeText(type).text,
                     coopvecTypeText(canonical).text);
  return false;
}

static bool verifyVecType(MlirOperation op, MlirType type) {
  int64_t size = coopvecVecTypeGetSize(type);
  MlirType element = coopvecVecTypeGetElementType(type);
  return checkDimension(op, type, "size", size) &&
         checkCanonical(
             op, type,
             coopvecVecTypeGet(mlirTypeGetContext(type), size, element));
}

/// The opaque optimal layouts exist only for some element types
/// (ElementTypes.c).
static bool checkLayoutLegal(MlirOperation op, MlirType type) {
  CoopvecLayout layout;
  if (!coopvecMatrixTypeGetLayout(type, &layout)) {
    coopvecEmitOpError(op, "uses %s, whose layout is unknown",
                       coopvecTypeText(type).text);
    return false;
  }
  const CoopvecElementTypeInfo *element =
      coopvecLookupElementType(coopvecMatrixTypeGetElementType(type));
  if (!element || (element->legalLayouts & coopvecLayoutBit(layout)))
    return true;
  coopvecEmitOpError(op,
                     "uses a matrix with layout '%s', which is not "
                     "available for element type %s",
                     coopvecLayoutGetName(layout), element->name);
  return false;
}

static bool verifyMatrixType(MlirOperation op, MlirType type) {
  int64_t rows = coopvecMatrixTypeGetRows(type);
  int64_t cols = coopvecMatrixTypeGetCols(type);
  if (!checkDimension(op, type, "rows", rows) ||
      !checkDimension(op, type, "cols", cols) || !checkLayoutLegal(op, type))
    return false;
  CoopvecLayout layout;
  coopvecMatrixTypeGetLayout(type, &layout);
  return checkCanonical(
      op, type,
      coopvecMatrixTypeGet(mlirTypeGetContext(type), rows, cols,
                           coopvecMatrixTypeGetElementType(type), layout));
}

/// Checks the parameters of a coopvec type used by `op`.
static bool verifyType(MlirOperation op, MlirType type) {
  if (coopvecTypeIsAVec(type))
    return verifyVecType(op, type);
  if (coopvecTypeIsAMatrix(type))
    return verifyMatrixType(op, type);
  return true;
}

static bool verifyTypesOf(MlirOperation op) {
  bool ok = true;
  for (intptr_t i = 0; i < mlirOperationGetNumResults(op); ++i)
    ok &= verifyType(op, mlirValueGetType(mlirOperationGetResult(op, i)));
  for (intptr_t r = 0; r < mlirOperationGetNumRegions(op); ++r) {
    MlirRegion region = mlirOperationGetRegion(op, r);
    for (MlirBlock block = mlirRegionGetFirstBlock(region);
         !mlirBlockIsNull(block); block = mlirBlockGetNextInRegion(block))
      for (intptr_t a = 0; a < mlirBlockGetNumArguments(block); ++a)
        ok &= verifyType(op, mlirValueGetType(mlirBlockGetArgument(block, a)));
  }
  return ok;
}

typedef struct VerifyState {
  bool failed;
} VerifyState;

static MlirWalkResult verifyOne(MlirOperation op, void *userData) {
  VerifyState *state = userData;
  // Op rules may assume valid coopvec types, so they run only after those.
  if (!verifyTypesOf(op) || !coopvecVerifyOpRules(op))
    state->failed = true;
  return MlirWalkResultAdvance;
}

MlirLogicalResult coopvecVerify(MlirOperation op) {
  // The rules below assume IR that IRDL accepts (operand counts, unified
  // constraint variables). Parsed IR always is; IR an embedder built with
  // mlirOperationCreate is not verified yet, so verify it here first.
  if (!mlirOperationVerify(op))
    return mlirLogicalResultFailure();
  VerifyState state = {false};
  coopvecTypeCacheBegin();
  mlirOperationWalk(op, verifyOne, &state, MlirWalkPreOrder);
  coopvecTypeCacheEnd();
  return state.failed ? mlirLogicalResultFailure() : mlirLogicalResultSuccess();
}

static void runVerify(MlirOperation op, MlirExternalPass pass,
                      const void *options) {
  (void)options;
  if (mlirLogicalResultIsFailure(coopvecVerify(op)))
    mlirExternalPassSignalFailure(pass);
}

const CoopvecPassDef coopvecVerifyPassDef = {
    .argument = "coopvec-verify",
    .name = "CoopvecVerify",
    .description = "Check the coopvec rules IRDL cannot express (shapes, "
                   "layouts, alignment, counts)",
    .anchor = "",
    .run = runVerify,
};
