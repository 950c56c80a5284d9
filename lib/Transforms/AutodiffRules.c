//===- AutodiffRules.c - coopvec-autodiff: the reverse rule of each op ----===//
//
// One rule per coopvec op (docs/autodiff.md lists them with their
// formulas). A rule reads the adjoint ȳ of the op's result, the
// recomputed forward values it needs, and adds to the adjoints of the op's
// varied operands; weights get their gradients added into the gradient
// buffers by outer_product_accumulate and reduce_sum_accumulate.
//
//===----------------------------------------------------------------------===//

#include "Transforms/Autodiff.h"

#include "Dialect/OpTable.h"
#include "Dialect/Verifier.h"
#include "IR/UpstreamBuilders.h"

#include "coopvec-c/Dialect.h"
#include "coopvec-c/Support.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>

#include <math.h>
#include <stdlib.h>

// ln 2 and 1 / ln 2 (C11 has no M_LN2).
static const double kLn2 = 0.693147180559945309417232121458176568;
static const double kInvLn2 = 1.442695040888963407359924681001892137;

static MlirValue operand(MlirOperation op, intptr_t i) {
  return mlirOperationGetOperand(op, i);
}

static MlirValue cloneOf(CoopvecAutodiff *ad, MlirOperation op, intptr_t i) {
  return coopvecADClone(ad, operand(op, i));
}

static MlirType elementOf(MlirValue vec) {
  return coopvecVecTypeGetElementType(mlirValueGetType(vec));
}

//===----------------------------------------------------------------------===//
// matvec
//===----------------------------------------------------------------------===//

/// The view of the gradient buffer at the offset and in the layout of the
/// forward matrix `matrix` (built once per matrix), or null after an error
/// at `matvec` when the layout cannot accumulate a gradient.
static MlirValue gradientView(CoopvecAutodiff *ad, MlirOperation matvec,
                              MlirValue matrix) {
  MlirValue existing = coopvecADEntry(ad, matrix)->gradient;
  if (!mlirValueIsNull(existing))
    return existing;
  MlirType type = mlirValueGetType(matrix);
  CoopvecLayout layout;
  if (coopvecMatrixTypeGetLayout(type, &layout) &&
      layout == CoopvecLayoutInference) {
    coopvecEmitOpError(matvec,
                       "needs the gradient of a matrix in the \"inference\" "
                       "layout, which cannot accumulate one; view trained "
                       "weights in the \"training\", \"row_major\" or "
                       "\"col_major\" layout");
    return (MlirValue){NULL};
  }
  // A varied matrix is always a matrix_view of a differentiated buffer.
  MlirOperation view = mlirOpResultGetOwner(matrix);
  MlirValue buffer = coopvecADEntry(ad, operand(view, 0))->gradient;
  int64_t offset = mlirIntegerAttrGetValueInt(mlirOperationGetAttributeByName(
      view, mlirStringRefCreateFromCString("offset")));
  MlirValue gradient = coopvecBuildMatrixView(&ad->b, buffer, offset, type);
  // Reused by later matvecs only when it dominates them: built in the
  // function's body, not in a branch of a reversed scf.if.
  if (mlirBlockEqual(ad->b.block, ad->body))
    coopvecADEntry(ad, matrix)->gradient = gradient;
  return gradient;
}

/// y = A x + b (A^T x + b with `transpose`):
///   x̄ += A^T ȳ (A ȳ),  Ā += ȳ x^T (x ȳ^T),  b̄ += ȳ.
static bool backwardMatvec(CoopvecAutodiff *ad, MlirOperation op,
                           MlirValue dy) {
  MlirValue matrix = operand(op, 0), x = operand(op, 1);
  bool transpose = !mlirAttributeIsNull(mlirOperationGetAttributeByName(
      op, mlirStringRefCreateFromCString("transpose")));
  if (coopvecADIsVaried(ad, x))
    coopvecADAccumulate(ad, x,
                        coopvecBuildMatvec(&ad->b, coopvecADClone(ad, matrix),
                                           dy, (MlirValue){NULL}, !transpose));
  if (coopvecADIsVaried(ad, matrix)) {
    MlirValue gradient = gradientView(ad, op, matrix);
    if (mlirValueIsNull(gradient))
      return false;
    MlirValue xc = coopvecADClone(ad, x);
    if (transpose)
      coopvecBuildOuterProductAccumulate(&ad->b, xc, dy, gradient);
    else
      coopvecBuildOuterProductAccumulate(&ad->b, dy, xc, gradient);
  }
  if (mlirOperationGetNumOperands(op) == 3)
    coopvecADAccumulate(ad, operand(op, 2), dy);
  return true;
}

//===----------------------------------------------------------------------===//
// Elementwise
//===----------------------------------------------------------------------===//

/// Whether the result `v` of an `arith.constant` is a number (not NaN).
static bool isNumberConstant(MlirValue v) {
  MlirAttribute value = mlirOperationGetAttributeByName(
      mlirOpResultGetOwner(v), mlirStringRefCreateFromCString("value"));
  return mlirAttributeIsAFloat(value) &&
         !isnan(mlirFloatAttrGetValueDouble(value));
}

/// Whether `v` is a number constant, or a splat of one.
static bool isNumber(MlirValue v) {
  if (!mlirValueIsAOpResult(v))
    return false;
  MlirOperation owner = mlirOpResultGetOwner(v);
  if (coopvecOpIs(owner, CoopvecOpSplat))
    return isNumber(mlirOperationGetOperand(owner, 0));
  return coopvecOpIsNamed(owner, "arith.constant") && isNumberConstant(v);
}

/// `v` (a vec, or a scalar splat to `vecType`) with NaN replaced by the
/// value that loses to every number: -inf for max, +inf for min. max and
/// min are IEEE maxNum / minNum, so a NaN operand is never the one selected.
/// A constant number (ReLU's 0) needs no replacing.
static MlirValue losingNaN(CoopvecAutodiff *ad, MlirValue v, MlirType vecType,
                           bool isMax) {
  bool number = isNumber(v);
  if (!coopvecTypeIsAVec(mlirValueGetType(v)))
    v = coopvecBuildSplat(&ad->b, vecType, v);
  if (number)
    return v;
  MlirValue loser =
      coopvecADConstant(ad, elementOf(v), isMax ? -INFINITY : INFINITY);
  return isMax ? coopvecBuildMax(&ad->b, v, loser)
               : coopvecBuildMin(&ad->b, v, loser);
}

/// max(a, b) / min(a, b): ȳ goes to the selected operand. The weight of a
/// is 1 where a alone is selected, 0 where b is, and 1/2 on a tie, from
/// two steps (step(x, e) = x < e ? 0 : 1) of the operands with NaN made to
/// lose: w = (aWins - bWins) / 2 + 1/2; b gets ȳ - ȳ w.
static void backwardMinMax(CoopvecAutodiff *ad, MlirOperation op, MlirValue dy,
                           bool isMax) {
  MlirValue a = cloneOf(ad, op, 0);
  MlirType vecType = mlirValueGetType(a);
  a = losingNaN(ad, a, vecType, isMax);
  MlirValue b = losingNaN(ad, cloneOf(ad, op, 1), vecType, isMax);
  MlirValue aAtLeastB = coopvecBuildStep(&ad->b, a, b);
  MlirValue bAtLeastA = coopvecBuildStep(&ad->b, b, a);
  MlirValue aWins = isMax ? aAtLeastB : bAtLeastA;
  MlirValue bWins = isMax ? bAtLeastA : aAtLeastB;
  MlirValue half = coopvecADConstant(ad, elementOf(a), 0.5);
  MlirValue weight = coopvecBuildFma(
      &ad->b, coopvecBuildSub(&ad->b, aWins, bWins), half, half);
  MlirValue ga = coopvecBuildMul(&ad->b, dy, weight);
  coopvecADAccumulate(ad, operand(op, 0), ga);
  if (coopvecADIsVaried(ad, operand(op, 1)))
    coopvecADAccumulate(ad, operand(op, 1), coopvecBuildSub(&ad->b, dy, ga));
}

/// ȳ * f, computed in f32 for an f16 program (and rounded once at the end)
/// so that the constant and the reciprocal keep f32 accuracy.
static MlirValue scaleInF32(CoopvecAutodiff *ad, MlirValue dy, MlirValue f,
                            double constant) {
  MlirType f32 = mlirF32TypeGet(ad->ctx);
  MlirValue product = coopvecBuildMul(&ad->b, coopvecADCastTo(ad, dy, f32), f);
  product =
      coopvecBuildMul(&ad->b, product, coopvecADConstant(ad, f32, constant));
  return coopvecADCastTo(ad, product, elementOf(dy));
}

/// exp2: x̄ += ȳ y ln 2.
static void backwardExp2(CoopvecAutodiff *ad, MlirOperation op, MlirValue dy) {
  MlirType f32 = mlirF32TypeGet(ad->ctx);
  MlirValue y = coopvecADClone(ad, mlirOperationGetResult(op, 0));
  coopvecADAccumulate(ad, operand(op, 0),
                      scaleInF32(ad, dy, coopvecADCastTo(ad, y, f32), kLn2));
}

/// log2: x̄ += ȳ / (x ln 2); the dialect has no division, 1/x is
/// exp2(-log2 x).
static void backwardLog2(CoopvecAutodiff *ad, MlirOperation op, MlirValue dy) {
  MlirType f32 = mlirF32TypeGet(ad->ctx);
  MlirValue x = coopvecADCastTo(ad, cloneOf(ad, op, 0), f32);
  MlirValue reciprocal = coopvecBuildExp2(
      &ad->b, coopvecBuildNeg(&ad->b, coopvecBuildLog2(&ad->b, x)));
  coopvecADAccumulate(ad, operand(op, 0),
                      scaleInF32(ad, dy, reciprocal, kInvLn2));
}

/// tanh: x̄ += ȳ (1 - y²), with 1 - y² = fma(-y, y, 1).
static void backwardTanh(CoopvecAutodiff *ad, MlirOperation op, MlirValue dy) {
  MlirValue y = coopvecADClone(ad, mlirOperationGetResult(op, 0));
  MlirValue one = coopvecADConstant(ad, elementOf(y), 1.0);
  MlirValue slope = coopvecBuildFma(&ad->b, coopvecBuildNeg(&ad->b, y), y, one);
  coopvecADAccumulateProduct(ad, operand(op, 0), dy, slope);
}

/// add, sub, mul, fma, neg.
static void backwardArithmetic(CoopvecAutodiff *ad, MlirOperation op,
                               CoopvecOpId id, MlirValue dy) {
  switch (id) {
  case CoopvecOpAdd:
    coopvecADAccumulate(ad, operand(op, 0), dy);
    coopvecADAccumulate(ad, operand(op, 1), dy);
    return;
  case CoopvecOpSub:
    coopvecADAccumulate(ad, operand(op, 0), dy);
    coopvecADAccumulateNeg(ad, operand(op, 1), dy);
    return;
  case CoopvecOpFma:
    coopvecADAccumulate(ad, operand(op, 2), dy);
    // fma(a, b, c) = a * b + c: a and b as for mul.
    /* fall through */
  case CoopvecOpMul:
    coopvecADAccumulateProduct(ad, operand(op, 0), dy, cloneOf(ad, op, 1));
    coopvecADAccumulateProduct(ad, operand(op, 1), dy, cloneOf(ad, op, 0));
    return;
  default: // neg
    coopvecADAccumulateNeg(ad, operand(op, 0), dy);
    return;
  }
}

//===----------------------------------------------------------------------===//
// Construction and transfer
//===----------------------------------------------------------------------===//

/// from_elements: ē_i += ȳ_i (a scalar).
static void backwardFromElements(CoopvecAutodiff *ad, MlirOperation op,
                                 MlirValue dy) {
  MlirOperation parts = coopvecBuildUnpack(&ad->b, dy);
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); ++i)
    coopvecADAccumulate(ad, operand(op, i), mlirOperationGetResult(parts, i));
}

/// unpack: v̄ += (ē_0, ..., ē_N-1), zero where an element has no adjoint.
static void backwardUnpack(CoopvecAutodiff *ad, MlirOperation op) {
  intptr_t count = mlirOperationGetNumResults(op);
  MlirValue *elements = malloc(sizeof(MlirValue) * (size_t)count);
  if (!elements)
    abort();
  MlirType element = elementOf(operand(op, 0));
  for (intptr_t i = 0; i < count; ++i) {
    MlirValue adjoint = coopvecADAdjoint(ad, mlirOperationGetResult(op, i));
    elements[i] = mlirValueIsNull(adjoint) ? coopvecADConstant(ad, element, 0.0)
                                           : adjoint;
  }
  coopvecADAccumulate(ad, operand(op, 0),
                      coopvecBuildFromElements(&ad->b, count, elements));
  free(elements);
}

/// A load from a differentiated buffer: the gradient is added at the same
/// offset, summed over all threads.
static void backwardLoad(CoopvecAutodiff *ad, MlirOperation op, MlirValue dy) {
  MlirValue buffer = coopvecADEntry(ad, operand(op, 0))->gradient;
  coopvecBuildReduceSumAccumulate(&ad->b, dy, buffer, cloneOf(ad, op, 1));
}

/// A gather y = w[i] from a differentiated memref argument: the scatter-add
/// `memref.atomic_rmw addf ȳ` into its gradient buffer at the same indices
/// (threads that gather the same entry add atomically).
static void backwardGather(CoopvecAutodiff *ad, MlirOperation op,
                           MlirValue dy) {
  intptr_t numOperands = mlirOperationGetNumOperands(op);
  MlirValue *operands = malloc(sizeof(MlirValue) * (size_t)(numOperands + 1));
  if (!operands)
    abort();
  operands[0] = dy;
  operands[1] = coopvecADEntry(ad, operand(op, 0))->gradient;
  for (intptr_t i = 1; i < numOperands; ++i)
    operands[i + 1] = cloneOf(ad, op, i);
  MlirNamedAttribute kind = coopvecNamedAttr(
      ad->ctx, "kind", coopvecAtomicKindAttr(ad->ctx, COOPVEC_ATOMIC_ADDF));
  coopvecBuild1(&ad->b, "memref.atomic_rmw", numOperands + 1, operands,
                mlirValueGetType(dy), 1, &kind);
  free(operands);
}

/// The bits of the uniform mask `mask` (a vector<N x i1>) as N scalar i1s,
/// through the dialect's own ops (every engine runs them; the interpreter
/// has no vector.extract): uitofp to vector<N x T>, from_vector, unpack,
/// cmpf une 0.
static void maskBits(CoopvecAutodiff *ad, MlirValue mask, MlirType element,
                     MlirValue *bits) {
  MlirType floats = coopvecWithElementType(mlirValueGetType(mask), element);
  MlirValue asFloats = coopvecBuildFromVector(
      &ad->b, coopvecBuildCast1(&ad->b, "arith.uitofp", mask, floats));
  MlirOperation parts = coopvecBuildUnpack(&ad->b, asFloats);
  MlirValue zero = coopvecADConstant(ad, element, 0.0);
  for (intptr_t i = 0; i < mlirOperationGetNumResults(parts); ++i)
    bits[i] = coopvecBuildCmpF(&ad->b, COOPVEC_CMPF_UNE,
                               mlirOperationGetResult(parts, i), zero);
}

/// y_i = mask_i ? base[offset + i] : padding. For each enabled element,
/// ȳ_i is scatter-added into the gradient buffer at offset + i
/// (`scf.if` on the mask bit around `memref.atomic_rmw addf`), so the
/// masked-off elements, which may lie past the end of the buffer, are never
/// touched; padding̅ += the sum of ȳ_i over the masked-off elements.
static void backwardMaskedLoad(CoopvecAutodiff *ad, MlirOperation op,
                               MlirValue dy) {
  MlirValue base = operand(op, 0), padding = operand(op, 3);
  MlirValue buffer = coopvecADEntry(ad, base)->gradient;
  bool toPadding = coopvecADIsVaried(ad, padding);
  if (mlirValueIsNull(buffer) && !toPadding)
    return;
  MlirType element = elementOf(dy);
  intptr_t count = coopvecVecTypeGetSize(mlirValueGetType(dy));
  MlirValue *values = malloc(sizeof(MlirValue) * (size_t)(3 * count));
  if (!values)
    abort();
  MlirValue *bits = values, *dys = values + count,
            *offPart = values + 2 * count;
  maskBits(ad, cloneOf(ad, op, 2), element, bits);
  MlirOperation parts = coopvecBuildUnpack(&ad->b, dy);
  for (intptr_t i = 0; i < count; ++i)
    dys[i] = mlirOperationGetResult(parts, i);
  if (!mlirValueIsNull(buffer)) {
    MlirValue offset = cloneOf(ad, op, 1);
    for (intptr_t i = 0; i < count; ++i) {
      CoopvecIf branch = coopvecBuildIf(&ad->b, bits[i]);
      MlirValue at = offset;
      if (i > 0)
        at = coopvecBuildBinaryOp(&branch.then, "arith.addi", offset,
                                  coopvecBuildIndexConstant(&branch.then, i));
      coopvecBuildAtomicAdd(&branch.then, dys[i], buffer, at);
      coopvecFinishIf(&branch);
    }
  }
  if (toPadding) {
    MlirValue zero = coopvecADConstant(ad, element, 0.0);
    for (intptr_t i = 0; i < count; ++i)
      offPart[i] = coopvecBuildSelect(&ad->b, bits[i], zero, dys[i]);
    coopvecADAccumulate(ad, padding,
                        coopvecBuildFromElements(&ad->b, count, offPart));
  }
  free(values);
}

//===----------------------------------------------------------------------===//
// Dispatch
//===----------------------------------------------------------------------===//

/// The adjoint of the op's first result with one, or null when none has.
static MlirValue resultAdjoint(CoopvecAutodiff *ad, MlirOperation op) {
  for (intptr_t i = 0; i < mlirOperationGetNumResults(op); ++i) {
    MlirValue adjoint = coopvecADAdjoint(ad, mlirOperationGetResult(op, i));
    if (!mlirValueIsNull(adjoint))
      return adjoint;
  }
  return (MlirValue){NULL};
}

/// Construction ops, cast and the transfers with a result.
static bool backwardData(CoopvecAutodiff *ad, MlirOperation op, CoopvecOpId id,
                         MlirValue dy) {
  switch (id) {
  case CoopvecOpFromElements:
    backwardFromElements(ad, op, dy);
    return true;
  case CoopvecOpUnpack:
    backwardUnpack(ad, op);
    return true;
  case CoopvecOpCast:
    coopvecADAccumulate(ad, operand(op, 0),
                        coopvecADCastTo(ad, dy, elementOf(operand(op, 0))));
    return true;
  case CoopvecOpLoad:
    backwardLoad(ad, op, dy);
    return true;
  case CoopvecOpMaskedLoad:
    backwardMaskedLoad(ad, op, dy);
    return true;
  default: // splat, from_vector, to_vector: the adjoint passes through
    coopvecADAccumulate(ad, operand(op, 0), dy);
    return true;
  }
}

/// scf.if, index_switch, for and while. One that stores into a varied
/// local array is reversed even when no adjoint reaches its results: the
/// adjoints of the stored values flow out of the adjoint array. The
/// branches are recomputed from the arrays as they were at the forward
/// op (AutodiffSnapshots.c; the loops restore them once per iteration).
static bool backwardRegionOp(CoopvecAutodiff *ad, MlirOperation op,
                             MlirValue dy) {
  if (!coopvecADPrepareAdjointArrays(ad, op) && mlirValueIsNull(dy))
    return true; // no gradient reaches the op
  if (coopvecOpIsNamed(op, "scf.for"))
    return coopvecADBackwardFor(ad, op);
  if (coopvecOpIsNamed(op, "scf.while"))
    return coopvecADBackwardWhile(ad, op);
  coopvecADRestoreSnapshots(ad, op);
  if (coopvecOpIsNamed(op, "scf.if"))
    return coopvecADBackwardIf(ad, op);
  return coopvecADBackwardSwitch(ad, op);
}

bool coopvecADBackward(CoopvecAutodiff *ad, MlirOperation op) {
  const CoopvecOpInfo *info = coopvecLookupOp(op);
  MlirValue dy = resultAdjoint(ad, op);
  ad->b.location = mlirOperationGetLocation(op);
  // A store into a varied local array has no result, but it ends the
  // adjoint of the element it overwrites.
  if (coopvecADIsLocalAccess(ad, op)) {
    coopvecADBackwardLocalAccess(ad, op, dy);
    return true;
  }
  if (mlirOperationGetNumRegions(op) > 0)
    return backwardRegionOp(ad, op, dy);
  if (mlirValueIsNull(dy))
    return true; // no gradient reaches the op
  if (!info && coopvecOpIsNamed(op, "memref.load")) {
    backwardGather(ad, op, dy);
    return true;
  }
  if (!info)
    return coopvecADBackwardScalar(ad, op, dy);
  switch (info->id) {
  case CoopvecOpFromElements:
  case CoopvecOpSplat:
  case CoopvecOpUnpack:
  case CoopvecOpFromVector:
  case CoopvecOpToVector:
  case CoopvecOpCast:
  case CoopvecOpLoad:
  case CoopvecOpMaskedLoad:
    return backwardData(ad, op, info->id, dy);
  case CoopvecOpAdd:
  case CoopvecOpSub:
  case CoopvecOpMul:
  case CoopvecOpFma:
  case CoopvecOpNeg:
    backwardArithmetic(ad, op, info->id, dy);
    return true;
  case CoopvecOpMin:
  case CoopvecOpMax:
    backwardMinMax(ad, op, dy, info->id == CoopvecOpMax);
    return true;
  case CoopvecOpExp2:
    backwardExp2(ad, op, dy);
    return true;
  case CoopvecOpLog2:
    backwardLog2(ad, op, dy);
    return true;
  case CoopvecOpTanh:
    backwardTanh(ad, op, dy);
    return true;
  case CoopvecOpMatvec:
    return backwardMatvec(ad, op, dy);
  case CoopvecOpStep:        // piecewise constant: never varied
  case CoopvecOpMatrixView:  // matrices get no adjoint values
  case CoopvecOpStore:       // no results; writes are refused or
  case CoopvecOpMaskedStore: // not repeated (AutodiffForward.c)
  case CoopvecOpOuterProductAccumulate:
  case CoopvecOpReduceSumAccumulate:
  case CoopvecOpCount:
    return true;
  }
  return true;
}
