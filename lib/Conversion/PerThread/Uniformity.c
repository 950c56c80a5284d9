//===- Uniformity.c - Which values differ between threads -----------------===//

#include "Conversion/PerThread/Uniformity.h"

#include "Dialect/OpTable.h"
#include "Dialect/Verifier.h"

#include "coopvec-c/Support.h"

#include "coopvec-c/Dialect.h"

#include <string.h>

typedef struct Analysis {
  CoopvecUniformity *u;
  bool changed;
} Analysis;

bool coopvecIsVarying(const CoopvecUniformity *u, MlirValue value) {
  return coopvecPointerMapFind(&u->varying, value.ptr) >= 0;
}

static void mark(Analysis *a, MlirValue value) {
  if (coopvecIsVarying(a->u, value))
    return;
  coopvecPointerMapInsert(&a->u->varying, value.ptr, 1);
  a->changed = true;
}

static bool anyOperandVarying(const Analysis *a, MlirOperation op,
                              intptr_t first, intptr_t count) {
  for (intptr_t i = first; i < first + count; ++i)
    if (coopvecIsVarying(a->u, mlirOperationGetOperand(op, i)))
      return true;
  return false;
}

static void markResults(Analysis *a, MlirOperation op) {
  for (intptr_t i = 0; i < mlirOperationGetNumResults(op); ++i)
    mark(a, mlirOperationGetResult(op, i));
}

static MlirBlock regionBlock(MlirOperation op, intptr_t region) {
  return mlirRegionGetFirstBlock(mlirOperationGetRegion(op, region));
}

static MlirOperation terminatorOf(MlirBlock block) {
  return mlirBlockIsNull(block) ? (MlirOperation){NULL}
                                : mlirBlockGetTerminator(block);
}

MlirOperation coopvecWhileCondition(MlirOperation whileOp) {
  return terminatorOf(regionBlock(whileOp, 0));
}

/// Result i of a branching op is varying when any region yields a varying
/// value at position i.
static void markYielded(Analysis *a, MlirOperation op) {
  for (intptr_t r = 0; r < mlirOperationGetNumRegions(op); ++r) {
    MlirOperation yield = terminatorOf(regionBlock(op, r));
    if (mlirOperationIsNull(yield))
      continue;
    for (intptr_t i = 0; i < mlirOperationGetNumOperands(yield) &&
                         i < mlirOperationGetNumResults(op);
         ++i)
      if (coopvecIsVarying(a->u, mlirOperationGetOperand(yield, i)))
        mark(a, mlirOperationGetResult(op, i));
  }
}

bool coopvecControlIsVarying(const CoopvecUniformity *u, MlirOperation op) {
  Analysis a = {(CoopvecUniformity *)u, false};
  if (coopvecOpIsNamed(op, "scf.if") ||
      coopvecOpIsNamed(op, "scf.index_switch"))
    return anyOperandVarying(&a, op, 0, 1);
  if (coopvecOpIsNamed(op, "scf.for"))
    return anyOperandVarying(&a, op, 0, 3);
  if (coopvecOpIsNamed(op, "scf.while")) {
    MlirOperation condition = coopvecWhileCondition(op);
    return !mlirOperationIsNull(condition) &&
           mlirOperationGetNumOperands(condition) > 0 &&
           coopvecIsVarying(u, mlirOperationGetOperand(condition, 0));
  }
  return false;
}

static void visitBranch(Analysis *a, MlirOperation op) {
  if (coopvecControlIsVarying(a->u, op))
    markResults(a, op);
  markYielded(a, op);
}

/// Loop-carried value i of an scf.for: block argument 1 + i, result i.
static void visitFor(Analysis *a, MlirOperation op) {
  MlirBlock body = regionBlock(op, 0);
  bool control = coopvecControlIsVarying(a->u, op);
  if (anyOperandVarying(a, op, 0, 1) || anyOperandVarying(a, op, 2, 1))
    mark(a, mlirBlockGetArgument(body, 0));
  MlirOperation yield = terminatorOf(body);
  for (intptr_t i = 0; i < mlirOperationGetNumResults(op); ++i) {
    bool varying =
        control || anyOperandVarying(a, op, 3 + i, 1) ||
        (!mlirOperationIsNull(yield) && anyOperandVarying(a, yield, i, 1));
    if (!varying)
      continue;
    mark(a, mlirBlockGetArgument(body, 1 + i));
    mark(a, mlirOperationGetResult(op, i));
  }
}

/// Positions of an scf.while: before-argument i takes init i or after-yield
/// operand i; after-argument and result j take condition operand 1 + j.
static void visitWhile(Analysis *a, MlirOperation op) {
  MlirBlock before = regionBlock(op, 0), after = regionBlock(op, 1);
  MlirOperation condition = terminatorOf(before), yield = terminatorOf(after);
  if (mlirOperationIsNull(condition) || mlirOperationIsNull(yield))
    return;
  bool control = coopvecControlIsVarying(a->u, op);
  for (intptr_t i = 0; i < mlirBlockGetNumArguments(before); ++i)
    if (control || anyOperandVarying(a, op, i, 1) ||
        (i < mlirOperationGetNumOperands(yield) &&
         anyOperandVarying(a, yield, i, 1)))
      mark(a, mlirBlockGetArgument(before, i));
  for (intptr_t j = 0; j < mlirOperationGetNumResults(op); ++j) {
    if (!control && !(1 + j < mlirOperationGetNumOperands(condition) &&
                      anyOperandVarying(a, condition, 1 + j, 1)))
      continue;
    mark(a, mlirOperationGetResult(op, j));
    if (j < mlirBlockGetNumArguments(after))
      mark(a, mlirBlockGetArgument(after, j));
  }
}

/// Ops whose results differ between threads whatever their operands: also
/// every coopvec value but matrices, since the targets keep vecs (and
/// what is unpacked from them) per thread, uniform or not.
static bool alwaysVarying(MlirOperation op) {
  if (coopvecLookupOp(op))
    return !coopvecOpIs(op, CoopvecOpMatrixView);
  return coopvecOpIsNamed(op, "memref.alloca") ||
         coopvecOpIsNamed(op, "memref.atomic_rmw");
}

static MlirWalkResult visit(MlirOperation op, void *userData) {
  Analysis *a = userData;
  if (coopvecOpIsNamed(op, "scf.if") ||
      coopvecOpIsNamed(op, "scf.index_switch"))
    visitBranch(a, op);
  else if (coopvecOpIsNamed(op, "scf.for"))
    visitFor(a, op);
  else if (coopvecOpIsNamed(op, "scf.while"))
    visitWhile(a, op);
  else if (alwaysVarying(op) ||
           anyOperandVarying(a, op, 0, mlirOperationGetNumOperands(op)))
    markResults(a, op);
  return MlirWalkResultAdvance;
}

void coopvecAnalyzeUniformity(MlirOperation func, CoopvecUniformity *u) {
  memset(u, 0, sizeof(*u));
  Analysis a = {u, false};
  MlirBlock entry = regionBlock(func, 0);
  for (intptr_t i = 0;
       !mlirBlockIsNull(entry) && i < mlirBlockGetNumArguments(entry); ++i) {
    MlirValue arg = mlirBlockGetArgument(entry, i);
    if (coopvecTypeIsAVec(mlirValueGetType(arg)))
      mark(&a, arg);
  }
  // Each pass can only add values; loops carry varying-ness backwards (a
  // value yielded at the end of a body reaches its start), hence the
  // fixpoint.
  do {
    a.changed = false;
    mlirOperationWalk(func, visit, &a, MlirWalkPreOrder);
  } while (a.changed);
}

void coopvecUniformityFree(CoopvecUniformity *u) {
  coopvecPointerMapFree(&u->varying);
}
