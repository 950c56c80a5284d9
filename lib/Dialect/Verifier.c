//===- Verifier.c - coopvec-verify: what IRDL cannot express --------------===//
//
// IRDL checks op names, operand/result counts and the constraint variables
// it unifies (e.g. matvec's element type). Everything else about coopvec IR
// is checked here, after parsing and after every pass in coopvec-opt.
//
//===----------------------------------------------------------------------===//

#include "coopvec-c/Coopvec.h"

#include "Dialect/ElementTypes.h"
#include "Dialect/Verifier.h"
#include "Pass/PassDef.h"
#include "Support/Buffer.h"

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

/// Checks the parameters of a coopvec type used by `op`.
static bool verifyType(MlirOperation op, MlirType type) {
  if (coopvecTypeIsAVec(type)) {
    int64_t size = coopvecVecTypeGetSize(type);
    if (size < 1) {
      coopvecEmitOpError(op, "uses a vec type with size %lld; the size must "
                             "be at least 1",
                         (long long)size);
      return false;
    }
    return true;
  }
  if (!coopvecTypeIsAMatrix(type))
    return true;
  int64_t rows = coopvecMatrixTypeGetRows(type);
  int64_t cols = coopvecMatrixTypeGetCols(type);
  if (rows < 1 || cols < 1) {
    coopvecEmitOpError(op, "uses a matrix type of %lld x %lld; both "
                           "dimensions must be at least 1",
                       (long long)rows, (long long)cols);
    return false;
  }
  CoopvecLayout layout;
  coopvecMatrixTypeGetLayout(type, &layout);
  const CoopvecElementTypeInfo *element =
      coopvecLookupElementType(coopvecMatrixTypeGetElementType(type));
  if (element && !(element->legalLayouts & coopvecLayoutBit(layout))) {
    coopvecEmitOpError(op, "uses a matrix with layout '%s', which is not "
                           "available for element type %s",
                       coopvecLayoutGetName(layout), element->name);
    return false;
  }
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
  if (!verifyTypesOf(op))
    state->failed = true;
  else if (!coopvecVerifyOpRules(op))
    state->failed = true;
  return MlirWalkResultAdvance;
}

MlirLogicalResult coopvecVerify(MlirOperation op) {
  VerifyState state = {false};
  mlirOperationWalk(op, verifyOne, &state, MlirWalkPreOrder);
  return state.failed ? mlirLogicalResultFailure()
                      : mlirLogicalResultSuccess();
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
