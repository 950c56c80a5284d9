//===- Signature.c - What the entry function takes and touches ------------===//
//
// The execution engine describes the entry function: the kind, dtype and
// length of each argument and result, which memrefs it writes, and how many
// elements of each memref it accesses for given scalar arguments. The
// runner uses the extents to size random buffers and to refuse a too-small
// input file naming the file; the engine checks them again before it runs.
// The longest matvec dot product (for the tolerances of --check) is the
// runner's own business and is read from the IR here.
//
//===----------------------------------------------------------------------===//

#include "Runner.h"

#include "coopvec-c/Dialect.h"
#include "coopvec-c/Support.h"

#include <stdlib.h>
#include <string.h>

static MlirWalkResult findMatvecs(MlirOperation op, void *userData) {
  int64_t *maxReduction = userData;
  if (coopvecOpIsNamed(op, "coopvec.matvec") &&
      mlirOperationGetNumOperands(op) >= 2) {
    MlirType x = mlirValueGetType(mlirOperationGetOperand(op, 1));
    int64_t length = coopvecVecTypeGetSize(x);
    if (length > *maxReduction)
      *maxReduction = length;
  }
  return MlirWalkResultAdvance;
}

/// The longest matvec dot product of @entry.
static int64_t maxReductionOf(MlirModule module, const char *entry) {
  int64_t maxReduction = 1;
  MlirSymbolTable table = mlirSymbolTableCreate(mlirModuleGetOperation(module));
  MlirOperation func =
      mlirSymbolTableLookup(table, mlirStringRefCreateFromCString(entry));
  if (!mlirOperationIsNull(func))
    mlirOperationWalk(func, findMatvecs, &maxReduction, MlirWalkPreOrder);
  mlirSymbolTableDestroy(table);
  return maxReduction;
}

static MlirLogicalResult readInfos(CoopvecFunction *function, bool isResult,
                                   CoopvecValueInfo *infos, intptr_t count) {
  for (intptr_t i = 0; i < count; ++i) {
    if (isResult)
      coopvecFunctionGetResult(function, i, &infos[i]);
    else
      coopvecFunctionGetArg(function, i, &infos[i]);
    if (infos[i].kind != CoopvecValueKindUnsupported)
      continue;
    runError("%s #%ld has type %s, which coopvec-run cannot pass (%s)",
             isResult ? "result" : "argument", (long)i, infos[i].type,
             isResult ? "results must be !coopvec.vec of f16/f32"
                      : "supported: !coopvec.vec and rank-1 memref of "
                        "f16/f32, scalar f16/f32/f64/index/i64");
    return mlirLogicalResultFailure();
  }
  return mlirLogicalResultSuccess();
}

MlirLogicalResult signatureInit(Signature *signature, CoopvecFunction *function,
                                MlirModule module, const char *entry) {
  memset(signature, 0, sizeof(*signature));
  signature->function = function;
  signature->numArgs = coopvecFunctionGetNumArgs(function);
  signature->numResults = coopvecFunctionGetNumResults(function);
  size_t numArgs = (size_t)signature->numArgs + 1;
  signature->args = calloc(numArgs, sizeof(CoopvecValueInfo));
  signature->results =
      calloc((size_t)signature->numResults + 1, sizeof(CoopvecValueInfo));
  signature->usedExtents = calloc(numArgs, sizeof(int64_t));
  if (!signature->args || !signature->results || !signature->usedExtents) {
    runError("out of memory");
    return mlirLogicalResultFailure();
  }
  for (intptr_t i = 0; i < signature->numArgs; ++i)
    signature->usedExtents[i] = -1;
  signature->maxReduction = maxReductionOf(module, entry);
  if (mlirLogicalResultIsFailure(
          readInfos(function, false, signature->args, signature->numArgs)))
    return mlirLogicalResultFailure();
  return readInfos(function, true, signature->results, signature->numResults);
}

MlirLogicalResult signatureDeriveExtents(Signature *signature,
                                         CoopvecEngine *engine,
                                         const CoopvecArray *inputs) {
  for (intptr_t i = 0; i < signature->numArgs; ++i) {
    if (signature->args[i].kind != CoopvecValueKindMemRef)
      continue;
    int64_t extent = -1;
    CoopvecStatus status = coopvecFunctionGetMemRefExtent(
        signature->function, i, inputs, signature->numArgs, &extent);
    // Unknown is not an error yet: --memref-size may size the buffer and
    // the interpreter (--reference) bounds-checks by itself.
    if (status != CoopvecStatusSuccess &&
        status != CoopvecStatusUnknownAccess) {
      runError("%s", coopvecEngineGetError(engine));
      return mlirLogicalResultFailure();
    }
    signature->usedExtents[i] = status == CoopvecStatusSuccess ? extent : -1;
  }
  return mlirLogicalResultSuccess();
}

void signatureDestroy(Signature *signature) {
  free(signature->args);
  free(signature->results);
  free(signature->usedExtents);
  memset(signature, 0, sizeof(*signature));
}
