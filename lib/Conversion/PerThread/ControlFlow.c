//===- ControlFlow.c - scf.if, for, while and index_switch ----------------===//
//
// Three forms (docs/execution-model.md, "Control flow"):
//
// - plain: control that every thread agrees on (uniform), or varying
//   control of divergent GPU code, is rebuilt as it is, its values in their
//   lowered types (a vec as its SSA elements, a varying scalar as the
//   target's varying type);
// - masked (SIMT): varying control that a group of threads must execute
//   together, on the CPU always (the lanes of a group run one instruction
//   stream) and on GPUs around cooperative ops. Each branch runs when some
//   thread of the group takes it (`anyActive`), with the active mask
//   narrowed to those threads, and merges its results into the others'
//   with selects; a loop runs while any thread still iterates, each
//   thread's loop-carried values frozen once it is done;
// - divergent: varying control on a GPU without cooperative ops inside is
//   thread code: the plain form, entered by active threads only.
//
// Values crossing a region's boundary (results, loop-carried values) are
// in SSA form whatever their size: yields load them from tiles.
//
//===----------------------------------------------------------------------===//

#include "Conversion/PerThread/PerThread.h"
#include "Dialect/Constants.h"

#include "Dialect/Verifier.h"
#include "Support/Alloc.h"

#include "coopvec-c/Support.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>

#include <stdlib.h>
#include <string.h>

static MlirBlock regionBlock(MlirOperation op, intptr_t region) {
  return mlirRegionGetFirstBlock(mlirOperationGetRegion(op, region));
}

/// memcpy of `count` elements of `size` bytes; none when `count` is 0,
/// when `from` may be null (which memcpy does not allow even then).
static void copyElements(void *to, const void *from, intptr_t count,
                         size_t size) {
  if (count > 0)
    memcpy(to, from, size * (size_t)count);
}

//===----------------------------------------------------------------------===//
// Building region ops
//===----------------------------------------------------------------------===//

/// An op `name` at `p->body` with `numRegions` regions of one block each;
/// block r takes the arguments `argTypes[r]` (`numArgs[r]` of them) and
/// ends in a placeholder `scf.yield` that finishBlock replaces.
typedef struct RegionOp {
  MlirOperation op;
  MlirBlock blocks[8];
  intptr_t numRegions;
} RegionOp;

static RegionOp buildRegionOp(CoopvecPerThread *p, const char *name,
                              intptr_t numOperands, const MlirValue *operands,
                              intptr_t numResults, const MlirType *types,
                              intptr_t numAttributes,
                              const MlirNamedAttribute *attributes,
                              intptr_t numRegions, const intptr_t *numArgs,
                              MlirType *const *argTypes) {
  RegionOp built = {.numRegions = numRegions};
  MlirRegion regions[8];
  MlirLocation loc = p->body.location;
  for (intptr_t r = 0; r < numRegions; ++r) {
    size_t numLocs = numArgs[r] > 0 ? (size_t)numArgs[r] : 1;
    MlirLocation *locs = calloc(numLocs, sizeof(MlirLocation));
    if (!locs)
      abort();
    for (intptr_t i = 0; i < numArgs[r]; ++i)
      locs[i] = loc;
    regions[r] = mlirRegionCreate();
    built.blocks[r] = mlirBlockCreate(numArgs[r], argTypes[r], locs);
    free(locs);
    mlirRegionAppendOwnedBlock(regions[r], built.blocks[r]);
    CoopvecBuilder end = coopvecBuilderAtEnd(built.blocks[r], loc);
    coopvecBuild0(&end, "scf.yield", 0, NULL, 0, NULL);
  }
  MlirOperationState state =
      mlirOperationStateGet(mlirStringRefCreateFromCString(name), loc);
  mlirOperationStateAddOperands(&state, numOperands, operands);
  mlirOperationStateAddResults(&state, numResults, types);
  mlirOperationStateAddAttributes(&state, numAttributes, attributes);
  mlirOperationStateAddOwnedRegions(&state, numRegions, regions);
  built.op = mlirOperationCreate(&state);
  if (mlirOperationIsNull(built.op))
    abort(); // operands and regions as the op requires
  mlirBlockInsertOwnedOperationBefore(p->body.block, p->body.before, built.op);
  return built;
}

/// The lowering position of `block`: before its placeholder terminator.
static CoopvecBuilder insideBlock(CoopvecPerThread *p, MlirBlock block) {
  return coopvecBuilderBefore(mlirBlockGetTerminator(block), p->body.location);
}

/// Replaces the placeholder terminator of `block` by `name` (scf.yield,
/// scf.condition) of `values`.
static void finishBlock(CoopvecPerThread *p, MlirBlock block, const char *name,
                        intptr_t count, const MlirValue *values) {
  MlirOperation placeholder = mlirBlockGetTerminator(block);
  CoopvecBuilder at = coopvecBuilderBefore(placeholder, p->body.location);
  coopvecBuild0(&at, name, count, values, 0, NULL);
  mlirOperationDestroy(placeholder);
}

/// What a region body runs under; restored when it is done.
typedef struct Scope {
  CoopvecBuilder body;
  MlirValue active;
  bool allActive;
} Scope;

static Scope enter(CoopvecPerThread *p, MlirBlock block, MlirValue active,
                   bool allActive) {
  Scope saved = {p->body, p->active, p->allActive};
  p->body = insideBlock(p, block);
  p->active = active;
  p->allActive = allActive;
  return saved;
}

static void leave(CoopvecPerThread *p, const Scope *saved) {
  p->body = saved->body;
  p->active = saved->active;
  p->allActive = saved->allActive;
}

//===----------------------------------------------------------------------===//
// Lowered values
//===----------------------------------------------------------------------===//

static intptr_t loweredCount(CoopvecPerThread *p, intptr_t count,
                             const MlirValue *values) {
  return coopvecLoweredTypes(p, count, values, NULL);
}

/// The lowered types of `values`, allocated; `*count` receives their number.
static MlirType *loweredTypes(CoopvecPerThread *p, intptr_t count,
                              const MlirValue *values, intptr_t *lowered) {
  *lowered = loweredCount(p, count, values);
  MlirType *types = coopvecAllocTypes(*lowered);
  coopvecLoweredTypes(p, count, values, types);
  return types;
}

/// The lowered values of `values`, as `like` become, allocated.
static MlirValue *loweredValues(CoopvecPerThread *p, intptr_t count,
                                const MlirValue *values,
                                const MlirValue *like) {
  MlirValue *out = coopvecAllocValues(loweredCount(p, count, like));
  coopvecLoweredValues(p, count, values, like, out);
  return out;
}

/// Zero (false) of each lowered type: what a result holds before a branch
/// that sets it for some threads.
static MlirValue *zerosOf(CoopvecPerThread *p, intptr_t count,
                          const MlirType *types) {
  MlirValue *zeros = coopvecAllocValues(count);
  for (intptr_t i = 0; i < count; ++i) {
    MlirType element = coopvecElementTypeOf(types[i]);
    zeros[i] = mlirTypeIsAFloat(element)
                   ? coopvecBuildFloatConstantLike(&p->body, types[i], 0.0)
                   : coopvecBuildIntConstantLike(&p->body, types[i], 0);
  }
  return zeros;
}

/// Lowers `block`'s ops under the current scope and returns the lowered
/// operands of its terminator from `first` on, as `like` become.
static MlirValue *lowerBody(CoopvecPerThread *p, MlirBlock block,
                            intptr_t first, const MlirValue *like, bool *ok) {
  *ok = coopvecLowerNestedBlock(p, block);
  MlirOperation terminator = mlirBlockGetTerminator(block);
  intptr_t count = mlirOperationGetNumOperands(terminator) - first;
  MlirValue *operands = coopvecOperandsOf(terminator, first);
  MlirValue *values = *ok ? loweredValues(p, count, operands, like)
                          : coopvecAllocValues(loweredCount(p, count, like));
  free(operands);
  return values;
}

/// ceil((ub - lb) / step) iterations when ub > lb and step > 0, else 0,
/// without overflow: ub - lb as unsigned is the exact span (scalars or
/// varying values alike).
static MlirValue tripCount(CoopvecBuilder *b, MlirValue lb, MlirValue ub,
                           MlirValue step) {
  MlirType type = mlirValueGetType(lb);
  MlirValue zero = coopvecBuildIntConstantLike(b, type, 0);
  MlirValue one = coopvecBuildIntConstantLike(b, type, 1);
  MlirValue positive = coopvecBuildCmpI(b, COOPVEC_CMPI_SGT, step, zero);
  MlirValue runs = coopvecBuildBinaryOp(
      b, "arith.andi", coopvecBuildCmpI(b, COOPVEC_CMPI_SGT, ub, lb), positive);
  MlirValue span = coopvecBuildBinaryOp(b, "arith.subi", ub, lb);
  MlirValue safeStep = coopvecBuildSelect(b, positive, step, one);
  MlirValue count = coopvecBuildBinaryOp(
      b, "arith.addi",
      coopvecBuildBinaryOp(b, "arith.divui",
                           coopvecBuildBinaryOp(b, "arith.subi", span, one),
                           safeStep),
      one);
  return coopvecBuildSelect(b, runs, count, zero);
}

/// The value of the induction variable in iteration `k` (of `lb`'s type).
static MlirValue inductionValue(CoopvecBuilder *b, MlirValue lb, MlirValue step,
                                MlirValue k) {
  return coopvecBuildBinaryOp(b, "arith.addi", lb,
                              coopvecBuildBinaryOp(b, "arith.muli", k, step));
}

//===----------------------------------------------------------------------===//
// Plain control flow
//===----------------------------------------------------------------------===//

/// Lowers region `r` of `op` into block `r` of `built` (no arguments) and
/// yields its values as the results of `op` become.
static bool plainRegion(CoopvecPerThread *p, MlirOperation op, intptr_t r,
                        const RegionOp *built, const MlirValue *results) {
  MlirBlock block = regionBlock(op, r);
  if (mlirBlockIsNull(block))
    return true;
  Scope saved = enter(p, built->blocks[r], p->active, p->allActive);
  bool ok;
  MlirValue *values = lowerBody(p, block, 0, results, &ok);
  finishBlock(p, built->blocks[r], "scf.yield",
              loweredCount(p, mlirOperationGetNumResults(op), results), values);
  free(values);
  leave(p, &saved);
  return ok;
}

/// scf.if and scf.index_switch: the same op on the lowered condition or
/// selector, with lowered results.
static bool plainBranches(CoopvecPerThread *p, MlirOperation op) {
  intptr_t numResults = mlirOperationGetNumResults(op), count;
  MlirValue *results = coopvecResultsOf(op);
  MlirType *types = loweredTypes(p, numResults, results, &count);
  MlirValue selector = coopvecScalarOperand(p, mlirOperationGetOperand(op, 0));
  intptr_t numRegions = mlirOperationGetNumRegions(op);
  intptr_t numArgs[8] = {0};
  MlirType *argTypes[8] = {NULL};
  intptr_t numAttributes = mlirOperationGetNumAttributes(op);
  MlirNamedAttribute attributes[4];
  for (intptr_t i = 0; i < numAttributes && i < 4; ++i)
    attributes[i] = mlirOperationGetAttribute(op, i);
  RegionOp built = buildRegionOp(
      p, coopvecOpIsNamed(op, "scf.if") ? "scf.if" : "scf.index_switch", 1,
      &selector, count, types, numAttributes < 4 ? numAttributes : 4,
      attributes, numRegions, numArgs, argTypes);
  bool ok = true;
  for (intptr_t r = 0; ok && r < numRegions; ++r)
    ok = plainRegion(p, op, r, &built, results);
  MlirValue *lowered = coopvecResultsOf(built.op);
  coopvecMapLoweredValues(p, numResults, results, lowered);
  free(lowered);
  free(types);
  free(results);
  return ok;
}

/// Whether scf.for can count with its own induction variable: a constant
/// step of 1 never steps over the largest value (iv < ub), so the loop's
/// own `iv < ub` test is exact.
static bool countsDirectly(MlirValue step) {
  int64_t value;
  return coopvecIntegerConstant(step, &value) && value == 1;
}

static bool plainFor(CoopvecPerThread *p, MlirOperation op) {
  CoopvecBuilder *b = &p->body;
  MlirValue lb = coopvecScalarOperand(p, mlirOperationGetOperand(op, 0));
  MlirValue ub = coopvecScalarOperand(p, mlirOperationGetOperand(op, 1));
  MlirValue step = coopvecScalarOperand(p, mlirOperationGetOperand(op, 2));
  bool direct = countsDirectly(step);
  MlirValue zero = coopvecBuildIntConstantLike(b, mlirValueGetType(lb), 0);
  MlirValue one = coopvecBuildIntConstantLike(b, mlirValueGetType(lb), 1);
  intptr_t numResults = mlirOperationGetNumResults(op), count;
  MlirValue *results = coopvecResultsOf(op);
  MlirValue *inits = coopvecOperandsOf(op, 3);
  MlirValue *initValues = loweredValues(p, numResults, inits, results);
  free(loweredTypes(p, numResults, results, &count));
  CoopvecLoop loop = coopvecBuildFor(b, direct ? lb : zero,
                                     direct ? ub : tripCount(b, lb, ub, step),
                                     direct ? step : one, count, initValues);
  MlirBlock body = regionBlock(op, 0);
  MlirValue *loopArgs = coopvecArgumentsOf(loop.block, 1);
  // A placeholder terminator, as buildRegionOp makes.
  coopvecBuild0(&loop.body, "scf.yield", 0, NULL, 0, NULL);
  Scope saved = enter(p, loop.block, p->active, p->allActive);
  MlirValue iv = direct ? loop.inductionVar
                        : inductionValue(&p->body, lb, step, loop.inductionVar);
  coopvecMapValue(p, mlirBlockGetArgument(body, 0), iv);
  MlirValue *iterArgs = coopvecArgumentsOf(body, 1);
  coopvecMapLoweredValues(p, numResults, iterArgs, loopArgs);
  bool ok;
  MlirValue *yields = lowerBody(p, body, 0, results, &ok);
  finishBlock(p, loop.block, "scf.yield", count, yields);
  leave(p, &saved);
  MlirValue *lowered = coopvecResultsOf(loop.op);
  coopvecMapLoweredValues(p, numResults, results, lowered);
  free(lowered);
  free(yields);
  free(iterArgs);
  free(loopArgs);
  free(initValues);
  free(inits);
  free(results);
  return ok;
}

static bool plainWhile(CoopvecPerThread *p, MlirOperation op) {
  MlirBlock before = regionBlock(op, 0), after = regionBlock(op, 1);
  intptr_t numInits = mlirOperationGetNumOperands(op);
  intptr_t numResults = mlirOperationGetNumResults(op);
  MlirValue *beforeArgs = coopvecArgumentsOf(before, 0);
  MlirValue *results = coopvecResultsOf(op);
  MlirValue *inits = coopvecOperandsOf(op, 0);
  MlirValue *initValues = loweredValues(p, numInits, inits, beforeArgs);
  intptr_t numArgs[2];
  MlirType *argTypes[2] = {loweredTypes(p, numInits, beforeArgs, &numArgs[0]),
                           loweredTypes(p, numResults, results, &numArgs[1])};
  RegionOp built =
      buildRegionOp(p, "scf.while", numArgs[0], initValues, numArgs[1],
                    argTypes[1], 0, NULL, 2, numArgs, argTypes);
  // before: the condition and the values it forwards.
  Scope saved = enter(p, built.blocks[0], p->active, p->allActive);
  MlirValue *loweredArgs = coopvecArgumentsOf(built.blocks[0], 0);
  coopvecMapLoweredValues(p, numInits, beforeArgs, loweredArgs);
  free(loweredArgs);
  bool ok;
  MlirValue *forwarded = lowerBody(p, before, 1, results, &ok);
  MlirValue *condition = coopvecAllocValues(numArgs[1] + 1);
  condition[0] = coopvecScalarOperand(
      p, mlirOperationGetOperand(mlirBlockGetTerminator(before), 0));
  copyElements(condition + 1, forwarded, numArgs[1], sizeof(MlirValue));
  finishBlock(p, built.blocks[0], "scf.condition", numArgs[1] + 1, condition);
  leave(p, &saved);
  // after: the next values of the before region's arguments.
  saved = enter(p, built.blocks[1], p->active, p->allActive);
  MlirValue *afterArgs = coopvecArgumentsOf(after, 0);
  loweredArgs = coopvecArgumentsOf(built.blocks[1], 0);
  coopvecMapLoweredValues(p, numResults, afterArgs, loweredArgs);
  bool afterOk = false;
  MlirValue *yields =
      ok ? lowerBody(p, after, 0, beforeArgs, &afterOk) : coopvecAllocValues(1);
  finishBlock(p, built.blocks[1], "scf.yield", numArgs[0], yields);
  leave(p, &saved);
  MlirValue *lowered = coopvecResultsOf(built.op);
  coopvecMapLoweredValues(p, numResults, results, lowered);
  free(lowered);
  free(yields);
  free(loweredArgs);
  free(afterArgs);
  free(condition);
  free(forwarded);
  free(argTypes[0]);
  free(argTypes[1]);
  free(initValues);
  free(inits);
  free(results);
  free(beforeArgs);
  return ok && afterOk;
}

static bool lowerPlain(CoopvecPerThread *p, MlirOperation op) {
  if (coopvecOpIsNamed(op, "scf.for"))
    return plainFor(p, op);
  if (coopvecOpIsNamed(op, "scf.while"))
    return plainWhile(p, op);
  return plainBranches(p, op);
}

//===----------------------------------------------------------------------===//
// Masked control flow
//===----------------------------------------------------------------------===//

static MlirValue andMask(CoopvecBuilder *b, MlirValue x, MlirValue y) {
  return coopvecBuildBinaryOp(b, "arith.andi", x, y);
}

static MlirValue notMask(CoopvecPerThread *p, MlirValue x) {
  MlirValue all = coopvecBuildIntConstantLike(&p->body, mlirValueGetType(x), 1);
  return coopvecBuildBinaryOp(&p->body, "arith.xori", x, all);
}

/// select(mask, chosen[i], other[i]) for each of `count` lowered values.
static void selectAll(CoopvecBuilder *b, MlirValue mask, intptr_t count,
                      const MlirValue *chosen, const MlirValue *other,
                      MlirValue *out) {
  for (intptr_t i = 0; i < count; ++i)
    out[i] = coopvecBuildSelect(b, mask, chosen[i], other[i]);
}

/// Runs `block` (region `r` of `op`, results `results`) for the threads of
/// `mask` if there is any: the `count` lowered results in `current` become
/// the branch's values for those threads and stay for the others.
static bool maskedBranch(CoopvecPerThread *p, MlirOperation op, intptr_t r,
                         MlirValue mask, const MlirValue *results,
                         intptr_t count, MlirValue *current) {
  MlirBlock block = regionBlock(op, r);
  MlirType *types = coopvecAllocTypes(count);
  for (intptr_t i = 0; i < count; ++i)
    types[i] = mlirValueGetType(current[i]);
  MlirValue any = p->mapping->anyActive(p, &p->body, mask);
  intptr_t numArgs[2] = {0, 0};
  MlirType *argTypes[2] = {NULL, NULL};
  RegionOp built = buildRegionOp(p, "scf.if", 1, &any, count, types, 0, NULL, 2,
                                 numArgs, argTypes);
  finishBlock(p, built.blocks[1], "scf.yield", count, current);
  Scope saved = enter(p, built.blocks[0], mask, false);
  bool ok;
  MlirValue *values = lowerBody(p, block, 0, results, &ok);
  selectAll(&p->body, mask, count, values, current, values);
  finishBlock(p, built.blocks[0], "scf.yield", count, values);
  leave(p, &saved);
  for (intptr_t i = 0; i < count; ++i)
    current[i] = mlirOperationGetResult(built.op, i);
  free(values);
  free(types);
  return ok;
}

static bool maskedIf(CoopvecPerThread *p, MlirOperation op) {
  intptr_t numResults = mlirOperationGetNumResults(op), count;
  MlirValue *results = coopvecResultsOf(op);
  MlirType *types = loweredTypes(p, numResults, results, &count);
  MlirValue *current = zerosOf(p, count, types);
  MlirValue condition =
      coopvecVaryingOperand(p, mlirOperationGetOperand(op, 0));
  MlirValue taken = andMask(&p->body, p->active, condition);
  MlirValue other = andMask(&p->body, p->active, notMask(p, condition));
  bool ok = maskedBranch(p, op, 0, taken, results, count, current);
  if (ok && !mlirBlockIsNull(regionBlock(op, 1)))
    ok = maskedBranch(p, op, 1, other, results, count, current);
  coopvecMapLoweredValues(p, numResults, results, current);
  free(current);
  free(types);
  free(results);
  return ok;
}

/// Case k (region 1 + k) runs for the active threads whose selector is
/// cases[k]; the default (region 0) for those it matches no case of.
static bool maskedSwitch(CoopvecPerThread *p, MlirOperation op) {
  intptr_t numResults = mlirOperationGetNumResults(op), count;
  MlirValue *results = coopvecResultsOf(op);
  MlirType *types = loweredTypes(p, numResults, results, &count);
  MlirValue *current = zerosOf(p, count, types);
  MlirValue selector = coopvecVaryingOperand(p, mlirOperationGetOperand(op, 0));
  MlirType type = mlirValueGetType(selector);
  MlirValue matched = coopvecBuildIntConstantLike(
      &p->body, p->mapping->varyingType(p, mlirIntegerTypeGet(p->ctx, 1)), 0);
  MlirAttribute cases = mlirOperationGetAttributeByName(
      op, mlirStringRefCreateFromCString("cases"));
  bool ok = true;
  for (intptr_t k = 0; ok && k < mlirDenseArrayGetNumElements(cases); ++k) {
    MlirValue value = coopvecBuildIntConstantLike(
        &p->body, type, mlirDenseI64ArrayGetElement(cases, k));
    MlirValue is = coopvecBuildCmpI(&p->body, COOPVEC_CMPI_EQ, selector, value);
    matched = coopvecBuildBinaryOp(&p->body, "arith.ori", matched, is);
    ok = maskedBranch(p, op, 1 + k, andMask(&p->body, p->active, is), results,
                      count, current);
  }
  if (ok)
    ok = maskedBranch(p, op, 0,
                      andMask(&p->body, p->active, notMask(p, matched)),
                      results, count, current);
  coopvecMapLoweredValues(p, numResults, results, current);
  free(current);
  free(types);
  free(results);
  return ok;
}

/// `mask` then `n1` values then `n2` values (of `v1`, `v2`), allocated.
static MlirValue *concat3(MlirValue mask, intptr_t n1, const MlirValue *v1,
                          intptr_t n2, const MlirValue *v2) {
  MlirValue *all = coopvecAllocValues(1 + n1 + n2);
  all[0] = mask;
  copyElements(all + 1, v1, n1, sizeof(MlirValue));
  copyElements(all + 1 + n1, v2, n2, sizeof(MlirValue));
  return all;
}

static MlirType *concatTypes(MlirType mask, intptr_t n1, const MlirType *t1,
                             intptr_t n2, const MlirType *t2) {
  MlirType *all = coopvecAllocTypes(1 + n1 + n2);
  all[0] = mask;
  copyElements(all + 1, t1, n1, sizeof(MlirType));
  copyElements(all + 1 + n1, t2, n2, sizeof(MlirType));
  return all;
}

/// `value` (an integer of any width, varying or uniform) as an index,
/// read as unsigned (trip counts).
static MlirValue asIndex(CoopvecPerThread *p, MlirValue value) {
  MlirType type = mlirValueGetType(value);
  if (mlirTypeIsAIndex(coopvecElementTypeOf(type)))
    return value;
  return coopvecBuildCast1(&p->body, "arith.index_castui", value,
                           coopvecWithElementType(type, p->index));
}

/// `k` (an index) converted to the integer type of `like`.
static MlirValue fromIndex(CoopvecBuilder *b, MlirValue k, MlirType like) {
  if (mlirTypeIsAIndex(coopvecElementTypeOf(like)))
    return k;
  return coopvecBuildCast1(
      b, "arith.index_castui", k,
      coopvecWithElementType(mlirValueGetType(k), coopvecElementTypeOf(like)));
}

/// A varying scf.for: every thread's trip count, then a loop while some
/// thread of the group has more: in iteration k the threads with more than
/// k iterations are active. The induction variable is uniform when lb and
/// step are.
///   scf.while (%k = 0, %iters) {
///     %m = k < trips; scf.condition(any(%m)) %k, %m, %iters
///   } do (%k, %m, %iters) { body under %m; yield k + 1, select(m, y, iters) }
static bool maskedFor(CoopvecPerThread *p, MlirOperation op) {
  MlirBlock body = regionBlock(op, 0);
  MlirValue ivOriginal = mlirBlockGetArgument(body, 0);
  bool varyingIv = coopvecValueIsVarying(p, ivOriginal);
  MlirValue bounds[3], varying[3];
  for (int i = 0; i < 3; ++i) {
    bounds[i] = coopvecScalarOperand(p, mlirOperationGetOperand(op, i));
    varying[i] = coopvecVaryingOperand(p, mlirOperationGetOperand(op, i));
  }
  MlirType varyingIndex = p->mapping->varyingType(p, p->index);
  MlirValue trips = tripCount(&p->body, varying[0], varying[1], varying[2]);
  trips = coopvecBuildSelect(
      &p->body, p->active, asIndex(p, trips),
      coopvecBuildIntConstantLike(&p->body, varyingIndex, 0));
  intptr_t numResults = mlirOperationGetNumResults(op), count;
  MlirValue *results = coopvecResultsOf(op);
  MlirValue *inits = coopvecOperandsOf(op, 3);
  MlirValue *initValues = loweredValues(p, numResults, inits, results);
  MlirType *types = loweredTypes(p, numResults, results, &count);
  MlirType maskType = mlirValueGetType(p->active);
  MlirValue *operands =
      concat3(coopvecPerThreadIndex(p, 0), count, initValues, 0, NULL);
  intptr_t numArgs[2] = {1 + count, 2 + count};
  MlirType *beforeTypes = concatTypes(p->index, count, types, 0, NULL);
  MlirType *afterTypes = concatTypes(p->index, 1, &maskType, count, types);
  MlirType *argTypes[2] = {beforeTypes, afterTypes};
  RegionOp built = buildRegionOp(p, "scf.while", 1 + count, operands, 2 + count,
                                 argTypes[1], 0, NULL, 2, numArgs, argTypes);
  // before: which threads iterate again, and whether any does.
  Scope saved = enter(p, built.blocks[0], p->active, false);
  MlirValue k = mlirBlockGetArgument(built.blocks[0], 0);
  MlirValue more = coopvecBuildCmpI(
      &p->body, COOPVEC_CMPI_ULT, p->mapping->broadcast(p, &p->body, k), trips);
  MlirValue *carried = coopvecArgumentsOf(built.blocks[0], 1);
  MlirValue *forwarded = concat3(k, 1, &more, count, carried);
  MlirValue *condition = concat3(p->mapping->anyActive(p, &p->body, more),
                                 2 + count, forwarded, 0, NULL);
  finishBlock(p, built.blocks[0], "scf.condition", 3 + count, condition);
  leave(p, &saved);
  // after: the body for those threads.
  MlirBlock after = built.blocks[1];
  saved = enter(p, after, mlirBlockGetArgument(after, 1), false);
  k = mlirBlockGetArgument(after, 0);
  MlirValue kVarying = p->mapping->broadcast(p, &p->body, k);
  MlirValue iv =
      varyingIv
          ? inductionValue(
                &p->body, varying[0], varying[2],
                fromIndex(&p->body, kVarying, mlirValueGetType(varying[0])))
          : inductionValue(&p->body, bounds[0], bounds[2],
                           fromIndex(&p->body, k, mlirValueGetType(bounds[0])));
  coopvecMapValue(p, ivOriginal, iv);
  MlirValue *iterArgs = coopvecArgumentsOf(body, 1);
  MlirValue *loopArgs = coopvecArgumentsOf(after, 2);
  coopvecMapLoweredValues(p, numResults, iterArgs, loopArgs);
  bool ok;
  MlirValue *yields = lowerBody(p, body, 0, results, &ok);
  selectAll(&p->body, p->active, count, yields, loopArgs, yields);
  MlirValue next = coopvecBuildBinaryOp(&p->body, "arith.addi", k,
                                        coopvecPerThreadIndex(p, 1));
  MlirValue *yielded = concat3(next, count, yields, 0, NULL);
  finishBlock(p, after, "scf.yield", 1 + count, yielded);
  leave(p, &saved);
  MlirValue *lowered = coopvecResultsOf(built.op);
  coopvecMapLoweredValues(p, numResults, results, lowered + 2);
  free(lowered);
  free(yielded);
  free(yields);
  free(loopArgs);
  free(iterArgs);
  free(condition);
  free(forwarded);
  free(carried);
  free(beforeTypes);
  free(afterTypes);
  free(operands);
  free(types);
  free(initValues);
  free(inits);
  free(results);
  return ok;
}

/// The state a masked scf.while carries: the threads still looping, the
/// before region's arguments (or the after region's), and every thread's
/// results, set when it leaves.
typedef struct WhileState {
  intptr_t numArgs, numResults; // lowered counts
} WhileState;

/// before(mask, args, res): runs the before region for the looping
/// threads; those whose condition fails take their results and stop.
static bool maskedBefore(CoopvecPerThread *p, MlirOperation op,
                         const RegionOp *built, const WhileState *s,
                         const MlirValue *results) {
  MlirBlock before = regionBlock(op, 0);
  MlirBlock block = built->blocks[0];
  MlirValue mask = mlirBlockGetArgument(block, 0);
  Scope saved = enter(p, block, mask, false);
  MlirValue *beforeArgs = coopvecArgumentsOf(before, 0);
  MlirValue *args = coopvecArgumentsOf(block, 1);
  coopvecMapLoweredValues(p, mlirBlockGetNumArguments(before), beforeArgs,
                          args);
  bool ok;
  MlirValue *forwarded = lowerBody(p, before, 1, results, &ok);
  MlirValue condition = coopvecVaryingOperand(
      p, mlirOperationGetOperand(mlirBlockGetTerminator(before), 0));
  MlirValue stays = andMask(&p->body, mask, condition);
  MlirValue leaves = andMask(&p->body, mask, notMask(p, condition));
  MlirValue *finalResults = coopvecAllocValues(s->numResults);
  selectAll(&p->body, leaves, s->numResults, forwarded, args + s->numArgs,
            finalResults);
  MlirValue *operands =
      concat3(stays, s->numResults, forwarded, s->numResults, finalResults);
  MlirValue *withAny = coopvecAllocValues(2 + 2 * s->numResults);
  withAny[0] = p->mapping->anyActive(p, &p->body, stays);
  copyElements(withAny + 1, operands, 1 + 2 * s->numResults, sizeof(MlirValue));
  finishBlock(p, block, "scf.condition", 2 + 2 * s->numResults, withAny);
  leave(p, &saved);
  free(withAny);
  free(operands);
  free(finalResults);
  free(forwarded);
  free(args);
  free(beforeArgs);
  return ok;
}

/// after(mask, forwarded, res): the after region for the looping threads.
static bool maskedAfter(CoopvecPerThread *p, MlirOperation op,
                        const RegionOp *built, const WhileState *s) {
  MlirBlock after = regionBlock(op, 1), before = regionBlock(op, 0);
  MlirBlock block = built->blocks[1];
  MlirValue mask = mlirBlockGetArgument(block, 0);
  Scope saved = enter(p, block, mask, false);
  MlirValue *afterArgs = coopvecArgumentsOf(after, 0);
  MlirValue *args = coopvecArgumentsOf(block, 1);
  coopvecMapLoweredValues(p, mlirBlockGetNumArguments(after), afterArgs, args);
  MlirValue *beforeArgs = coopvecArgumentsOf(before, 0);
  bool ok;
  MlirValue *yields = lowerBody(p, after, 0, beforeArgs, &ok);
  MlirValue *operands =
      concat3(mask, s->numArgs, yields, s->numResults, args + s->numResults);
  finishBlock(p, block, "scf.yield", 1 + s->numArgs + s->numResults, operands);
  leave(p, &saved);
  free(operands);
  free(yields);
  free(beforeArgs);
  free(args);
  free(afterArgs);
  return ok;
}

static bool maskedWhile(CoopvecPerThread *p, MlirOperation op) {
  MlirBlock before = regionBlock(op, 0);
  intptr_t numInits = mlirOperationGetNumOperands(op);
  intptr_t numResults = mlirOperationGetNumResults(op);
  MlirValue *beforeArgs = coopvecArgumentsOf(before, 0);
  MlirValue *results = coopvecResultsOf(op);
  MlirValue *inits = coopvecOperandsOf(op, 0);
  WhileState s;
  MlirType *argTypes = loweredTypes(p, numInits, beforeArgs, &s.numArgs);
  MlirType *resultTypes = loweredTypes(p, numResults, results, &s.numResults);
  MlirValue *initValues = loweredValues(p, numInits, inits, beforeArgs);
  MlirValue *zeros = zerosOf(p, s.numResults, resultTypes);
  MlirType maskType = mlirValueGetType(p->active);
  MlirValue *operands =
      concat3(p->active, s.numArgs, initValues, s.numResults, zeros);
  intptr_t numArgs[2] = {1 + s.numArgs + s.numResults, 1 + 2 * s.numResults};
  MlirType *beforeTypes =
      concatTypes(maskType, s.numArgs, argTypes, s.numResults, resultTypes);
  MlirType *afterTypes = concatTypes(maskType, s.numResults, resultTypes,
                                     s.numResults, resultTypes);
  MlirType *types[2] = {beforeTypes, afterTypes};
  RegionOp built =
      buildRegionOp(p, "scf.while", numArgs[0], operands, numArgs[1], types[1],
                    0, NULL, 2, numArgs, types);
  bool ok = maskedBefore(p, op, &built, &s, results) &&
            maskedAfter(p, op, &built, &s);
  MlirValue *lowered = coopvecResultsOf(built.op);
  coopvecMapLoweredValues(p, numResults, results, lowered + 1 + s.numResults);
  free(lowered);
  free(beforeTypes);
  free(afterTypes);
  free(operands);
  free(zeros);
  free(initValues);
  free(resultTypes);
  free(argTypes);
  free(inits);
  free(results);
  free(beforeArgs);
  return ok;
}

static bool lowerMasked(CoopvecPerThread *p, MlirOperation op) {
  if (coopvecOpIsNamed(op, "scf.if"))
    return maskedIf(p, op);
  if (coopvecOpIsNamed(op, "scf.for"))
    return maskedFor(p, op);
  if (coopvecOpIsNamed(op, "scf.while"))
    return maskedWhile(p, op);
  return maskedSwitch(p, op);
}

//===----------------------------------------------------------------------===//
// Divergent control flow
//===----------------------------------------------------------------------===//

/// Thread code entered by the active threads only (unless every thread
/// here is active): the plain form inside `scf.if %active`, inactive
/// threads taking zeros.
static bool lowerDivergent(CoopvecPerThread *p, MlirOperation op) {
  if (p->allActive)
    return lowerPlain(p, op);
  intptr_t numResults = mlirOperationGetNumResults(op), count;
  MlirValue *results = coopvecResultsOf(op);
  MlirType *types = loweredTypes(p, numResults, results, &count);
  intptr_t numArgs[2] = {0, 0};
  MlirType *argTypes[2] = {NULL, NULL};
  RegionOp built = buildRegionOp(p, "scf.if", 1, &p->active, count, types, 0,
                                 NULL, 2, numArgs, argTypes);
  Scope saved = enter(p, built.blocks[1], p->active, p->allActive);
  MlirValue *zeros = zerosOf(p, count, types);
  finishBlock(p, built.blocks[1], "scf.yield", count, zeros);
  leave(p, &saved);
  saved = enter(p, built.blocks[0], p->active, true);
  bool ok = lowerPlain(p, op);
  MlirValue *values = loweredValues(p, numResults, results, results);
  finishBlock(p, built.blocks[0], "scf.yield", count, values);
  leave(p, &saved);
  MlirValue *lowered = coopvecResultsOf(built.op);
  coopvecMapLoweredValues(p, numResults, results, lowered);
  free(lowered);
  free(values);
  free(zeros);
  free(types);
  free(results);
  return ok;
}

bool coopvecLowerControlFlow(CoopvecPerThread *p, MlirOperation op) {
  if (!coopvecControlIsVarying(&p->uniformity, op))
    return lowerPlain(p, op);
  if (p->mapping->masksRegion(p, op))
    return lowerMasked(p, op);
  return lowerDivergent(p, op);
}
