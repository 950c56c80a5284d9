//===- Splats.c - Fold splats, constants and identities -------------------===//
//
// Elementwise ops on uniform vectors (a splat, or a scalar broadcast) are
// folded when every step is exact under IEEE 754 with round to nearest even,
// the semantics the dialect gives f16 and f32:
//   - a binary op of two constants is evaluated in double and rounded once
//     to the element type. For +, -, * of f16 or f32 operands, double holds
//     enough bits (53 >= 2 * 24 + 2) that this equals the correctly rounded
//     result. min/max of a NaN and a number is the number (IEEE minNum /
//     maxNum); no fold produces a NaN (payloads are unspecified), and min/max
//     of zeros of different sign are left alone: targets disagree on them.
//   - `v + (-0.0)`, `v - (+0.0)` and `v * 1.0` are `v` for every v, signed
//     zeros and NaNs included; `v + (+0.0)` is not (-0.0 + +0.0 is +0.0),
//     so it is kept, as arith.addf's folder does.
//   - a splat operand where the op accepts a scalar becomes that scalar, so
//     that no vec is materialized for it.
//
//===----------------------------------------------------------------------===//

#include "Transforms/PatternUtils.h"

#include "Dialect/OpTable.h"

#include "coopvec-c/Dialect.h"

#include <math.h>
#include <stddef.h>

/// Evaluates `op(lhs, rhs)` for the binary op `op`; false where folding is
/// refused (see the file comment).
static bool evaluateBinary(MlirOperation op, double lhs, double rhs,
                           double *result) {
  const CoopvecOpInfo *info = coopvecLookupOp(op);
  if (!info)
    return false;
  bool isMinMax = info->id == CoopvecOpMin || info->id == CoopvecOpMax;
  // NaN payloads are unspecified (docs/dialect.md), so no fold produces a
  // NaN; minNum / maxNum of a NaN and a number is that number.
  if (isnan(lhs) || isnan(rhs)) {
    if (!isMinMax || (isnan(lhs) && isnan(rhs)))
      return false;
    *result = isnan(lhs) ? rhs : lhs;
    return true;
  }
  switch (info->id) {
  case CoopvecOpAdd:
    *result = lhs + rhs;
    return true;
  case CoopvecOpSub:
    *result = lhs - rhs;
    return true;
  case CoopvecOpMul:
    *result = lhs * rhs;
    return true;
  case CoopvecOpMin:
  case CoopvecOpMax:
    // min/max of +0 and -0: the targets disagree on which one wins.
    if (lhs == 0.0 && rhs == 0.0 && signbit(lhs) != signbit(rhs))
      return false;
    *result = (info->id == CoopvecOpMin ? lhs < rhs : lhs > rhs) ? lhs : rhs;
    return true;
  default:
    return false;
  }
}

/// op(splat(c1), splat(c2)) or op(splat(c1), c2) -> splat(op(c1, c2)).
static MlirLogicalResult foldConstantBinary(MlirRewritePattern pattern,
                                            MlirOperation op,
                                            MlirPatternRewriter rewriter,
                                            void *userData) {
  (void)pattern;
  (void)userData;
  double lhs, rhs, folded;
  if (mlirOperationGetNumOperands(op) != 2 ||
      !coopvecMatchUniformConstant(mlirOperationGetOperand(op, 0), &lhs) ||
      !coopvecMatchUniformConstant(mlirOperationGetOperand(op, 1), &rhs) ||
      !evaluateBinary(op, lhs, rhs, &folded))
    return mlirLogicalResultFailure();
  MlirRewriterBase base = mlirPatternRewriterAsBase(rewriter);
  mlirRewriterBaseSetInsertionPointBefore(base, op);
  MlirValue splat = coopvecCreateConstantSplat(
      base, mlirOperationGetLocation(op),
      mlirValueGetType(mlirOperationGetResult(op, 0)), folded);
  mlirRewriterBaseReplaceOpWithValues(base, op, 1, &splat);
  return mlirLogicalResultSuccess();
}

/// Whether `constant`, as the rhs of `op`, leaves the lhs unchanged.
static bool isRightIdentity(MlirOperation op, double constant) {
  if (coopvecOpIs(op, CoopvecOpAdd))
    return constant == 0.0 && signbit(constant);
  if (coopvecOpIs(op, CoopvecOpSub))
    return constant == 0.0 && !signbit(constant);
  if (coopvecOpIs(op, CoopvecOpMul))
    return constant == 1.0;
  return false;
}

/// add(v, -0.0), sub(v, +0.0), mul(v, 1.0) -> v (scalar or splat constant).
static MlirLogicalResult foldIdentity(MlirRewritePattern pattern,
                                      MlirOperation op,
                                      MlirPatternRewriter rewriter,
                                      void *userData) {
  (void)pattern;
  (void)userData;
  double rhs;
  if (mlirOperationGetNumOperands(op) != 2 ||
      !coopvecMatchUniformConstant(mlirOperationGetOperand(op, 1), &rhs) ||
      !isRightIdentity(op, rhs))
    return mlirLogicalResultFailure();
  MlirValue lhs = mlirOperationGetOperand(op, 0);
  if (!mlirTypeEqual(mlirValueGetType(lhs),
                     mlirValueGetType(mlirOperationGetResult(op, 0))))
    return mlirLogicalResultFailure();
  mlirRewriterBaseReplaceOpWithValues(mlirPatternRewriterAsBase(rewriter), op,
                                      1, &lhs);
  return mlirLogicalResultSuccess();
}

/// Replaces operand `index` of `op` by the scalar it splats, if it is a
/// splat; returns whether it did.
static bool replaceSplatOperand(MlirRewriterBase rewriter, MlirOperation op,
                                intptr_t index) {
  MlirOperation splat = coopvecDefiningOpNamed(
      mlirOperationGetOperand(op, index), "coopvec.splat");
  if (mlirOperationIsNull(splat) || mlirOperationGetNumOperands(splat) != 1)
    return false;
  mlirRewriterBaseStartOpModification(rewriter, op);
  mlirOperationSetOperand(op, index, mlirOperationGetOperand(splat, 0));
  mlirRewriterBaseFinalizeOpModification(rewriter, op);
  return true;
}

/// op(v, splat(s)) -> op(v, s) for add, sub, mul, min, max and step; fma's
/// two trailing operands likewise.
static MlirLogicalResult broadcastSplatOperands(MlirRewritePattern pattern,
                                                MlirOperation op,
                                                MlirPatternRewriter rewriter,
                                                void *userData) {
  (void)pattern;
  (void)userData;
  MlirRewriterBase base = mlirPatternRewriterAsBase(rewriter);
  const CoopvecOpInfo *info = coopvecLookupOp(op);
  bool changed = false;
  for (intptr_t i = 0; info && i < mlirOperationGetNumOperands(op); ++i)
    if (info->broadcastOperands & (1u << i))
      changed |= replaceSplatOperand(base, op, i);
  return changed ? mlirLogicalResultSuccess() : mlirLogicalResultFailure();
}

/// add(splat(s), v) -> add(v, s) and mul(splat(s), v) -> mul(v, s): IEEE
/// addition and multiplication commute, so the splat can move to the side
/// that takes a scalar.
static MlirLogicalResult commuteSplatToRhs(MlirRewritePattern pattern,
                                           MlirOperation op,
                                           MlirPatternRewriter rewriter,
                                           void *userData) {
  (void)pattern;
  (void)userData;
  if (mlirOperationGetNumOperands(op) != 2)
    return mlirLogicalResultFailure();
  MlirValue lhs = mlirOperationGetOperand(op, 0);
  MlirValue rhs = mlirOperationGetOperand(op, 1);
  MlirOperation splat = coopvecDefiningOpNamed(lhs, "coopvec.splat");
  // A scalar rhs cannot move to the lhs; a splat rhs is handled by
  // broadcastSplatOperands.
  if (mlirOperationIsNull(splat) || mlirOperationGetNumOperands(splat) != 1 ||
      !mlirTypeEqual(mlirValueGetType(lhs), mlirValueGetType(rhs)) ||
      !mlirOperationIsNull(coopvecDefiningOpNamed(rhs, "coopvec.splat")))
    return mlirLogicalResultFailure();
  MlirRewriterBase base = mlirPatternRewriterAsBase(rewriter);
  mlirRewriterBaseStartOpModification(base, op);
  mlirOperationSetOperand(op, 0, rhs);
  mlirOperationSetOperand(op, 1, mlirOperationGetOperand(splat, 0));
  mlirRewriterBaseFinalizeOpModification(base, op);
  return mlirLogicalResultSuccess();
}

/// cast(v) -> v when the cast does not change the type.
static MlirLogicalResult foldNoOpCast(MlirRewritePattern pattern,
                                      MlirOperation cast,
                                      MlirPatternRewriter rewriter,
                                      void *userData) {
  (void)pattern;
  (void)userData;
  if (mlirOperationGetNumOperands(cast) != 1)
    return mlirLogicalResultFailure();
  return coopvecReplaceWithSameTypedValue(
      cast, mlirOperationGetOperand(cast, 0), rewriter);
}

/// cast(splat(c)) -> splat(c'), c' = c rounded to the target element type
/// (to nearest even, as coopvec.cast rounds).
static MlirLogicalResult foldCastOfConstantSplat(MlirRewritePattern pattern,
                                                 MlirOperation cast,
                                                 MlirPatternRewriter rewriter,
                                                 void *userData) {
  (void)pattern;
  (void)userData;
  double constant;
  if (mlirOperationGetNumOperands(cast) != 1 ||
      mlirOperationIsNull(coopvecDefiningOpNamed(
          mlirOperationGetOperand(cast, 0), "coopvec.splat")) ||
      !coopvecMatchUniformConstant(mlirOperationGetOperand(cast, 0), &constant))
    return mlirLogicalResultFailure();
  MlirType resultType = mlirValueGetType(mlirOperationGetResult(cast, 0));
  if (!coopvecTypeIsAVec(resultType))
    return mlirLogicalResultFailure();
  MlirRewriterBase base = mlirPatternRewriterAsBase(rewriter);
  mlirRewriterBaseSetInsertionPointBefore(base, cast);
  MlirValue splat = coopvecCreateConstantSplat(
      base, mlirOperationGetLocation(cast), resultType, constant);
  mlirRewriterBaseReplaceOpWithValues(base, cast, 1, &splat);
  return mlirLogicalResultSuccess();
}

void coopvecPopulateSplatPatterns(MlirRewritePatternSet set, MlirContext ctx) {
  for (int id = 0; id < CoopvecOpCount; ++id) {
    const CoopvecOpInfo *info = coopvecGetOpInfo((CoopvecOpId)id);
    if (info->opClass == CoopvecOpClassElementwiseBinary &&
        info->id != CoopvecOpStep) {
      coopvecAddPattern(set, ctx, info->name, COOPVEC_BENEFIT_CONSTANT_FOLD,
                        foldConstantBinary);
      coopvecAddPattern(set, ctx, info->name, COOPVEC_BENEFIT_IDENTITY,
                        foldIdentity);
    }
    if (info->broadcastOperands)
      coopvecAddPattern(set, ctx, info->name, COOPVEC_BENEFIT_SCALAR_BROADCAST,
                        broadcastSplatOperands);
  }
  // IEEE addition and multiplication commute.
  coopvecAddPattern(set, ctx, "coopvec.add", COOPVEC_BENEFIT_SCALAR_BROADCAST,
                    commuteSplatToRhs);
  coopvecAddPattern(set, ctx, "coopvec.mul", COOPVEC_BENEFIT_SCALAR_BROADCAST,
                    commuteSplatToRhs);
  coopvecAddPattern(set, ctx, "coopvec.cast", COOPVEC_BENEFIT_IDENTITY,
                    foldNoOpCast);
  coopvecAddPattern(set, ctx, "coopvec.cast", COOPVEC_BENEFIT_CONSTANT_FOLD,
                    foldCastOfConstantSplat);
}
