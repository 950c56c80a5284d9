//===- AutodiffForward.c - coopvec-autodiff: activity and recomputation ---===//
//
// @NAME_grad recomputes the forward values it needs from @NAME's arguments
// (there is no tape between the two functions), so its body starts with a
// clone of @NAME's body. While cloning, each value is marked *varied* when
// it depends on a differentiated input: a vec argument, or a vector, bias
// or matrix read from a differentiated memref. Only varied values get
// adjoints; everything else is a constant to the gradient.
//
// The forward's writes (stores, accumulations of constants) are not
// cloned: @NAME_grad only adds gradients. That is why a buffer may not be
// both read for gradients and written.
//
//===----------------------------------------------------------------------===//

#include "Transforms/Autodiff.h"

#include "Dialect/OpTable.h"
#include "Dialect/Verifier.h"

#include "Support/Alloc.h"

#include "coopvec-c/Support.h"

#include <mlir-c/BuiltinTypes.h>

#include <stdlib.h>

bool coopvecADIsLocalArray(MlirValue value) {
  return mlirValueIsAOpResult(value) &&
         coopvecOpIsNamed(mlirOpResultGetOwner(value), "memref.alloca");
}

static bool isArgumentOf(MlirValue value, MlirOperation func) {
  if (!mlirValueIsABlockArgument(value))
    return false;
  MlirBlock owner = mlirBlockArgumentGetOwner(value);
  return mlirOperationEqual(mlirBlockGetParentOperation(owner), func);
}

/// The buffer a matrix value views, or null when it is not a
/// `matrix_view`.
static MlirValue viewedBuffer(MlirValue matrix) {
  if (!mlirValueIsAOpResult(matrix))
    return (MlirValue){NULL};
  MlirOperation view = mlirOpResultGetOwner(matrix);
  if (!coopvecOpIs(view, CoopvecOpMatrixView))
    return (MlirValue){NULL};
  return mlirOperationGetOperand(view, 0);
}

static void markArgument(MlirOperation func, MlirValue buffer,
                         bool *differentiated) {
  if (!mlirValueIsNull(buffer) && isArgumentOf(buffer, func))
    differentiated[mlirBlockArgumentGetArgNumber(buffer)] = true;
}

/// What the walk of coopvecADFindDifferentiatedMemrefs carries.
typedef struct MarkState {
  MlirOperation func;
  bool *differentiated;
} MarkState;

static MlirWalkResult markReads(MlirOperation op, void *userData) {
  MarkState *state = userData;
  // A gather of floats (memref.load) reads weights too (a hash-grid
  // table): their gradient is a scatter-add (memref.atomic_rmw addf).
  bool floatGather =
      coopvecOpIsNamed(op, "memref.load") &&
      mlirTypeIsAFloat(mlirValueGetType(mlirOperationGetResult(op, 0)));
  if (coopvecOpIs(op, CoopvecOpLoad) || coopvecOpIs(op, CoopvecOpMaskedLoad) ||
      floatGather)
    markArgument(state->func, mlirOperationGetOperand(op, 0),
                 state->differentiated);
  else if (coopvecOpIs(op, CoopvecOpMatvec))
    markArgument(state->func, viewedBuffer(mlirOperationGetOperand(op, 0)),
                 state->differentiated);
  return MlirWalkResultAdvance;
}

void coopvecADFindDifferentiatedMemrefs(MlirOperation func,
                                        bool *differentiated) {
  MarkState state = {func, differentiated};
  mlirOperationWalk(func, markReads, &state, MlirWalkPreOrder);
}

static bool anyOperandVaried(CoopvecAutodiff *ad, MlirOperation op) {
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); ++i)
    if (coopvecADIsVaried(ad, mlirOperationGetOperand(op, i)))
      return true;
  return false;
}

/// Whether `buffer` has a gradient buffer.
static bool isDifferentiated(CoopvecAutodiff *ad, MlirValue buffer) {
  return !mlirValueIsNull(buffer) &&
         !mlirValueIsNull(coopvecADEntry(ad, buffer)->gradient);
}

/// The buffer a write op writes, and how many of its leading operands are
/// the values it writes.
static MlirValue writtenBuffer(MlirOperation op, intptr_t *numValues) {
  *numValues = 1;
  if (coopvecOpIs(op, CoopvecOpOuterProductAccumulate)) {
    *numValues = 2;
    return viewedBuffer(mlirOperationGetOperand(op, 2));
  }
  return mlirOperationGetOperand(op, 1);
}

static bool checkWrite(CoopvecAutodiff *ad, MlirOperation op) {
  intptr_t numValues;
  MlirValue buffer = writtenBuffer(op, &numValues);
  if (isDifferentiated(ad, buffer)) {
    coopvecEmitOpError(op,
                       "writes a buffer that @%.*s also reads differentiated "
                       "weights from; @%.*s_grad does not repeat the "
                       "forward's writes, so it would read other values",
                       (int)ad->name.length, ad->name.data,
                       (int)ad->name.length, ad->name.data);
    return false;
  }
  for (intptr_t i = 0; i < numValues; ++i) {
    if (!coopvecADIsVaried(ad, mlirOperationGetOperand(op, i)))
      continue;
    coopvecEmitOpError(op, "writes a value that depends on the "
                           "differentiated inputs; its gradient would flow "
                           "through memory, which coopvec-autodiff does not "
                           "follow");
    return false;
  }
  return true;
}

static bool isWrite(const CoopvecOpInfo *info) {
  return info && (info->effect == CoopvecEffectWrite ||
                  info->effect == CoopvecEffectReadWrite);
}

static bool hasOnlyIntegerResults(MlirOperation op) {
  for (intptr_t i = 0; i < mlirOperationGetNumResults(op); ++i) {
    MlirType type = mlirValueGetType(mlirOperationGetResult(op, i));
    if (!mlirTypeIsAInteger(type) && !mlirTypeIsAIndex(type))
      return false;
  }
  return true;
}

/// A gather of floats from a differentiated memref argument.
static bool isGather(CoopvecAutodiff *ad, MlirOperation op) {
  return coopvecOpIsNamed(op, "memref.load") &&
         isDifferentiated(ad, mlirOperationGetOperand(op, 0)) &&
         mlirTypeIsAFloat(mlirValueGetType(mlirOperationGetResult(op, 0)));
}

/// memref.store / atomic_rmw into a differentiated memref argument.
static bool writesDifferentiated(CoopvecAutodiff *ad, MlirOperation op) {
  if (coopvecOpIsNamed(op, "memref.store"))
    return isDifferentiated(ad, mlirOperationGetOperand(op, 1));
  if (coopvecOpIsNamed(op, "memref.atomic_rmw"))
    return isDifferentiated(ad, mlirOperationGetOperand(op, 1));
  return false;
}

static bool hasFloatResult(MlirOperation op) {
  return mlirOperationGetNumResults(op) == 1 &&
         mlirTypeIsAFloat(mlirValueGetType(mlirOperationGetResult(op, 0)));
}

/// A load of a float from a local array that holds varied values.
static bool isLocalLoad(CoopvecAutodiff *ad, MlirOperation op) {
  return coopvecOpIsNamed(op, "memref.load") &&
         coopvecADIsLocalArray(mlirOperationGetOperand(op, 0)) &&
         coopvecADIsVaried(ad, mlirOperationGetOperand(op, 0)) &&
         hasFloatResult(op);
}

/// memref.store / load on a local array (docs/autodiff.md, "Local
/// arrays"): a store of a varied value makes the array varied, and loads
/// from it are then varied. Accesses inside control flow are reversed
/// with snapshots (AutodiffSnapshots.c), but the array must be allocated
/// at the function's top level: one allocated in a region is a new, zero
/// array at each execution, and its one adjoint array would carry
/// adjoints from one execution into the previous. Returns false after an
/// error; sets `*handled` when the op is such an access.
static bool checkLocalAccess(CoopvecAutodiff *ad, MlirOperation op,
                             bool *handled) {
  *handled = false;
  bool store = coopvecOpIsNamed(op, "memref.store");
  if (!store && !coopvecOpIsNamed(op, "memref.load"))
    return true;
  MlirValue array = mlirOperationGetOperand(op, store ? 1 : 0);
  store = store && coopvecADIsLocalArray(array);
  bool variedStore =
      store && (coopvecADIsVaried(ad, array) ||
                coopvecADIsVaried(ad, mlirOperationGetOperand(op, 0)));
  *handled = variedStore || isLocalLoad(ad, op);
  if (!*handled)
    return true;
  MlirOperation alloca = mlirOpResultGetOwner(array);
  if (!mlirOperationEqual(mlirOperationGetParentOperation(alloca),
                          ad->forward)) {
    coopvecEmitOpError(op, "accesses a local array that holds values of the "
                           "differentiated inputs and is allocated inside "
                           "control flow (scf.if, scf.index_switch, scf.for, "
                           "scf.while); coopvec-autodiff differentiates such "
                           "arrays when their memref.alloca is at the "
                           "function's top level");
    return false;
  }
  CoopvecADValue *entry = coopvecADEntry(ad, array);
  if (store && !entry->varied &&
      coopvecADIsVaried(ad, mlirOperationGetOperand(op, 0))) {
    entry->varied = true;
    ++ad->numVariedArrays; // a loop's loads before it are now varied too
  }
  return true;
}

/// Refuses a non-coopvec op (`info` null) that would lose a gradient.
static bool checkOtherOp(CoopvecAutodiff *ad, MlirOperation op) {
  if (writesDifferentiated(ad, op)) {
    coopvecEmitOpError(op,
                       "writes a buffer that @%.*s also reads differentiated "
                       "values from; @%.*s_grad does not repeat the "
                       "forward's writes, so it would read other values",
                       (int)ad->name.length, ad->name.data,
                       (int)ad->name.length, ad->name.data);
    return false;
  }
  bool local;
  if (!checkLocalAccess(ad, op, &local))
    return false;
  if (local || !anyOperandVaried(ad, op) || isGather(ad, op))
    return true;
  // An integer result (memref.dim of a weight buffer, fptosi or cmpf of an
  // element: piecewise constant) carries no gradient, and neither do
  // floor / ceil / round / trunc; the scalar arith / math ops have rules.
  // A bitcast to an integer is not piecewise constant: refused.
  // Any other use of a varied value would lose its gradient, and so would
  // a write of one (memref.store into a buffer, an atomic): an op with no
  // results is a side effect.
  bool resultless = mlirOperationGetNumResults(op) == 0;
  bool bitcast = coopvecOpIsNamed(op, "arith.bitcast");
  if (!resultless && !bitcast &&
      (hasOnlyIntegerResults(op) || coopvecADIsPiecewiseConstant(op) ||
       coopvecADHasScalarRule(op)))
    return true;
  if (resultless || coopvecOpIsNamed(op, "memref.atomic_rmw"))
    coopvecEmitOpError(op, "writes a value that depends on the "
                           "differentiated inputs; its gradient would flow "
                           "through memory, which coopvec-autodiff does not "
                           "follow");
  else
    coopvecEmitOpError(op, "uses a value that depends on the differentiated "
                           "inputs and has no reverse rule "
                           "(docs/autodiff.md lists the ops that have one)");
  return false;
}

/// Refuses what the rules cannot differentiate before it is cloned.
static bool checkOp(CoopvecAutodiff *ad, MlirOperation op,
                    const CoopvecOpInfo *info) {
  if (mlirOperationGetNumRegions(op) > 0 && !coopvecOpIsNamed(op, "scf.if") &&
      !coopvecOpIsNamed(op, "scf.for") && !coopvecOpIsNamed(op, "scf.while") &&
      !coopvecOpIsNamed(op, "scf.index_switch")) {
    coopvecEmitOpError(op, "has regions; coopvec-autodiff differentiates "
                           "scf.if, scf.index_switch, scf.for and scf.while, "
                           "but no other region ops");
    return false;
  }
  if (coopvecOpIsNamed(op, "scf.for") &&
      !mlirAttributeIsNull(mlirOperationGetAttributeByName(
          op, mlirStringRefCreateFromCString("unsignedCmp")))) {
    coopvecEmitOpError(op, "compares unsigned (unsignedCmp); coopvec-autodiff "
                           "reverses signed scf.for bounds only");
    return false;
  }
  if (coopvecOpIsNamed(op, "func.call") ||
      coopvecOpIsNamed(op, "func.call_indirect")) {
    coopvecEmitOpError(op, "is a call; coopvec-autodiff does not "
                           "differentiate across calls (inline the callee)");
    return false;
  }
  if (isWrite(info))
    return checkWrite(ad, op);
  // scf.if, index_switch, for and while: their ops are checked by
  // analyzeOp.
  if (mlirOperationGetNumRegions(op) > 0)
    return true;
  return info || checkOtherOp(ad, op);
}

/// Whether the results of the forward op `op` are varied.
static bool resultsVaried(CoopvecAutodiff *ad, MlirOperation op,
                          const CoopvecOpInfo *info) {
  if (!info)
    return isGather(ad, op) || isLocalLoad(ad, op) ||
           (coopvecADHasScalarRule(op) && anyOperandVaried(ad, op));
  switch (info->id) {
  case CoopvecOpMatrixView:
  case CoopvecOpLoad:
    return isDifferentiated(ad, mlirOperationGetOperand(op, 0));
  case CoopvecOpMaskedLoad:
    return isDifferentiated(ad, mlirOperationGetOperand(op, 0)) ||
           coopvecADIsVaried(ad, mlirOperationGetOperand(op, 3));
  case CoopvecOpStep:
    return false; // piecewise constant: its derivative is zero
  default:
    return anyOperandVaried(ad, op);
  }
}

static bool analyzeOp(CoopvecAutodiff *ad, MlirOperation op);

/// Analyzes the ops of the one block of `region` before its terminator.
static bool analyzeRegion(CoopvecAutodiff *ad, MlirRegion region) {
  MlirBlock block = mlirRegionGetFirstBlock(region);
  if (mlirBlockIsNull(block))
    return true; // an absent else
  MlirOperation terminator = mlirBlockGetTerminator(block);
  for (MlirOperation op = mlirBlockGetFirstOperation(block);
       !mlirOperationEqual(op, terminator);
       op = mlirOperationGetNextInBlock(op))
    if (!analyzeOp(ad, op))
      return false;
  return true;
}

/// An scf.if: its branches are analyzed; result j is varied when either
/// branch yields a varied value as j (the condition, an i1, is not).
static bool analyzeIf(CoopvecAutodiff *ad, MlirOperation op) {
  bool ok = true;
  for (intptr_t r = 0; ok && r < mlirOperationGetNumRegions(op); ++r)
    ok = analyzeRegion(ad, mlirOperationGetRegion(op, r));
  if (!ok)
    return false;
  for (intptr_t j = 0; j < mlirOperationGetNumResults(op); ++j) {
    bool varied = false;
    for (intptr_t r = 0; r < mlirOperationGetNumRegions(op); ++r) {
      MlirBlock block = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, r));
      varied |= coopvecADIsVaried(
          ad, mlirOperationGetOperand(mlirBlockGetTerminator(block), j));
    }
    coopvecADEntry(ad, mlirOperationGetResult(op, j))->varied = varied;
  }
  return true;
}

/// An scf.for: iter_arg j is varied when its init is or when the body
/// yields a varied value as j (found by re-analyzing the body until
/// nothing changes, local arrays included: a load of what a later store
/// of the body keeps for the next iteration); result j is varied with
/// iter_arg j.
static bool analyzeFor(CoopvecAutodiff *ad, MlirOperation op) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0));
  MlirOperation yield = mlirBlockGetTerminator(body);
  intptr_t numArgs = mlirOperationGetNumResults(op);
  for (intptr_t j = 0; j < numArgs; ++j)
    coopvecADEntry(ad, mlirBlockGetArgument(body, 1 + j))->varied =
        coopvecADIsVaried(ad, mlirOperationGetOperand(op, 3 + j));
  bool changed = true;
  while (changed) {
    intptr_t arrays = ad->numVariedArrays;
    if (!analyzeRegion(ad, mlirOperationGetRegion(op, 0)))
      return false;
    changed = arrays != ad->numVariedArrays;
    for (intptr_t j = 0; j < numArgs; ++j) {
      CoopvecADValue *arg =
          coopvecADEntry(ad, mlirBlockGetArgument(body, 1 + j));
      if (!arg->varied &&
          coopvecADIsVaried(ad, mlirOperationGetOperand(yield, j)))
        changed = arg->varied = true;
    }
  }
  for (intptr_t j = 0; j < numArgs; ++j)
    coopvecADEntry(ad, mlirOperationGetResult(op, j))->varied =
        coopvecADIsVaried(ad, mlirBlockGetArgument(body, 1 + j));
  return true;
}

/// An scf.while: the state (before's arguments) is varied when its init
/// is or when `after` yields a varied value as it; after's arguments and
/// the results are varied with the values scf.condition forwards. Both
/// regions are re-analyzed until nothing changes (local arrays included).
static bool analyzeWhile(CoopvecAutodiff *ad, MlirOperation op) {
  MlirBlock before = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0));
  MlirBlock after = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 1));
  MlirOperation condition = mlirBlockGetTerminator(before);
  MlirOperation yield = mlirBlockGetTerminator(after);
  for (intptr_t j = 0; j < mlirOperationGetNumOperands(op); ++j)
    coopvecADEntry(ad, mlirBlockGetArgument(before, j))->varied =
        coopvecADIsVaried(ad, mlirOperationGetOperand(op, j));
  bool changed = true;
  while (changed) {
    intptr_t arrays = ad->numVariedArrays;
    bool ok = analyzeRegion(ad, mlirOperationGetRegion(op, 0));
    for (intptr_t j = 0; ok && j < mlirOperationGetNumResults(op); ++j)
      coopvecADEntry(ad, mlirBlockGetArgument(after, j))->varied =
          coopvecADIsVaried(ad, mlirOperationGetOperand(condition, 1 + j));
    ok = ok && analyzeRegion(ad, mlirOperationGetRegion(op, 1));
    if (!ok)
      return false;
    changed = arrays != ad->numVariedArrays;
    for (intptr_t j = 0; j < mlirOperationGetNumOperands(op); ++j) {
      CoopvecADValue *arg = coopvecADEntry(ad, mlirBlockGetArgument(before, j));
      if (!arg->varied &&
          coopvecADIsVaried(ad, mlirOperationGetOperand(yield, j)))
        changed = arg->varied = true;
    }
  }
  for (intptr_t j = 0; j < mlirOperationGetNumResults(op); ++j)
    coopvecADEntry(ad, mlirOperationGetResult(op, j))->varied =
        coopvecADIsVaried(ad, mlirBlockGetArgument(after, j));
  return true;
}

/// Checks `op` (and the ops nested in it) and records whether its results
/// are varied.
static bool analyzeOp(CoopvecAutodiff *ad, MlirOperation op) {
  const CoopvecOpInfo *info = coopvecLookupOp(op);
  if (!checkOp(ad, op, info))
    return false;
  // An index_switch is an scf.if with more branches (the selector, an
  // index, is not varied).
  if (coopvecOpIsNamed(op, "scf.if") ||
      coopvecOpIsNamed(op, "scf.index_switch"))
    return analyzeIf(ad, op);
  if (coopvecOpIsNamed(op, "scf.while"))
    return analyzeWhile(ad, op);
  if (coopvecOpIsNamed(op, "scf.for"))
    return analyzeFor(ad, op);
  bool varied = resultsVaried(ad, op, info);
  for (intptr_t i = 0; i < mlirOperationGetNumResults(op); ++i)
    coopvecADEntry(ad, mlirOperationGetResult(op, i))->varied = varied;
  return true;
}

/// What the walk over a cloned region op carries: the ops to erase.
typedef struct RemapState {
  CoopvecAutodiff *ad;
  MlirOperation *erase;
  intptr_t numErase, capacity;
} RemapState;

/// Points the operands of a cloned nested op that are forward values
/// defined outside the clone at their recomputed values, and collects the
/// forward's writes, which @NAME_grad does not repeat.
static MlirWalkResult remapNested(MlirOperation op, void *userData) {
  RemapState *state = userData;
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); ++i) {
    MlirValue operand = mlirOperationGetOperand(op, i);
    intptr_t found = coopvecPointerMapFind(&state->ad->index, operand.ptr);
    if (found >= 0 && !mlirValueIsNull(state->ad->values[found].clone))
      mlirOperationSetOperand(op, i, state->ad->values[found].clone);
  }
  if (isWrite(coopvecLookupOp(op))) {
    state->erase = coopvecGrowArray(state->erase, &state->capacity,
                                    state->numErase + 1, sizeof(MlirOperation));
    state->erase[state->numErase++] = op;
  }
  return MlirWalkResultAdvance;
}

/// Clones `op` to the end of `to` on recomputed operands.
static void cloneOp(CoopvecAutodiff *ad, MlirOperation op, MlirBlock to) {
  MlirOperation clone = mlirOperationClone(op);
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); ++i)
    mlirOperationSetOperand(clone, i,
                            coopvecADClone(ad, mlirOperationGetOperand(op, i)));
  if (mlirOperationGetNumRegions(clone) > 0) {
    RemapState state = {ad, NULL, 0, 0};
    mlirOperationWalk(clone, remapNested, &state, MlirWalkPreOrder);
    for (intptr_t i = 0; i < state.numErase; ++i)
      mlirOperationDestroy(state.erase[i]);
    free(state.erase);
  }
  mlirBlockAppendOwnedOperation(to, clone);
  for (intptr_t i = 0; i < mlirOperationGetNumResults(op); ++i)
    coopvecADEntry(ad, mlirOperationGetResult(op, i))->clone =
        mlirOperationGetResult(clone, i);
}

void coopvecADCloneOps(CoopvecAutodiff *ad, MlirBlock from, MlirBlock to) {
  MlirOperation terminator = mlirBlockGetTerminator(from);
  for (MlirOperation op = mlirBlockGetFirstOperation(from);
       !mlirOperationEqual(op, terminator);
       op = mlirOperationGetNextInBlock(op)) {
    if (isWrite(coopvecLookupOp(op)))
      continue;
    // Its reverse will recompute it from the local arrays as they are now.
    if (mlirOperationGetNumRegions(op) > 0)
      coopvecADTakeSnapshots(ad, op, to);
    cloneOp(ad, op, to);
  }
}

bool coopvecADCloneForward(CoopvecAutodiff *ad) {
  MlirBlock body =
      mlirRegionGetFirstBlock(mlirOperationGetRegion(ad->forward, 0));
  if (!analyzeRegion(ad, mlirOperationGetRegion(ad->forward, 0)))
    return false;
  coopvecADCloneOps(ad, body, ad->body);
  return true;
}
