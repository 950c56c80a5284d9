//===- RoundTrips.c - Fold coopvec pack/unpack and vector round trips -----===//
//
// Packing scalars into a vec and unpacking them again (or bridging to a
// builtin vector and back) is a copy: each pattern here forwards the
// original values, after checking that counts and types agree so that a
// malformed pair is left for the verifier to report instead of being
// silently rewritten into different IR.
//
//===----------------------------------------------------------------------===//

#include "Transforms/PatternUtils.h"

#include <stdlib.h>

/// unpack(from_elements(a, b, c)) -> a, b, c.
static MlirLogicalResult foldUnpackOfFromElements(MlirRewritePattern pattern,
                                                  MlirOperation unpack,
                                                  MlirPatternRewriter rewriter,
                                                  void *userData) {
  (void)pattern;
  (void)userData;
  if (mlirOperationGetNumOperands(unpack) != 1)
    return mlirLogicalResultFailure();
  MlirOperation fromElements = coopvecDefiningOpNamed(
      mlirOperationGetOperand(unpack, 0), "coopvec.from_elements");
  if (mlirOperationIsNull(fromElements))
    return mlirLogicalResultFailure();
  intptr_t count = mlirOperationGetNumResults(unpack);
  if (mlirOperationGetNumOperands(fromElements) != count)
    return mlirLogicalResultFailure();
  MlirValue *elements = malloc(sizeof(MlirValue) * (size_t)(count ? count : 1));
  if (!elements)
    abort();
  for (intptr_t i = 0; i < count; ++i)
    elements[i] = mlirOperationGetOperand(fromElements, i);
  mlirRewriterBaseReplaceOpWithValues(mlirPatternRewriterAsBase(rewriter),
                                      unpack, count, elements);
  free(elements);
  return mlirLogicalResultSuccess();
}

/// The unpack op whose results, in order, are exactly the operands of
/// `fromElements`; null if there is none.
static MlirOperation unpackOfAllOperands(MlirOperation fromElements) {
  MlirOperation null = {NULL};
  intptr_t count = mlirOperationGetNumOperands(fromElements);
  if (count == 0)
    return null;
  MlirOperation unpack = coopvecDefiningOpNamed(
      mlirOperationGetOperand(fromElements, 0), "coopvec.unpack");
  if (mlirOperationIsNull(unpack) || mlirOperationGetNumOperands(unpack) != 1 ||
      mlirOperationGetNumResults(unpack) != count)
    return null;
  for (intptr_t i = 0; i < count; ++i) {
    MlirValue operand = mlirOperationGetOperand(fromElements, i);
    if (!mlirValueEqual(operand, mlirOperationGetResult(unpack, i)))
      return null;
  }
  return unpack;
}

/// from_elements(unpack(v)#0, ..., unpack(v)#N-1) -> v.
static MlirLogicalResult foldFromElementsOfUnpack(MlirRewritePattern pattern,
                                                  MlirOperation fromElements,
                                                  MlirPatternRewriter rewriter,
                                                  void *userData) {
  (void)pattern;
  (void)userData;
  MlirOperation unpack = unpackOfAllOperands(fromElements);
  if (mlirOperationIsNull(unpack))
    return mlirLogicalResultFailure();
  MlirValue source = mlirOperationGetOperand(unpack, 0);
  if (!mlirTypeEqual(mlirValueGetType(source),
                     mlirValueGetType(mlirOperationGetResult(fromElements, 0))))
    return mlirLogicalResultFailure();
  mlirRewriterBaseReplaceOpWithValues(mlirPatternRewriterAsBase(rewriter),
                                      fromElements, 1, &source);
  return mlirLogicalResultSuccess();
}

/// Replaces `op`, `outer(inner(x))`, by `x` when `x` has the type of `op`'s
/// result: the two bridge ops are exact inverses.
static MlirLogicalResult foldInverseBridge(MlirOperation op,
                                           const char *innerName,
                                           MlirPatternRewriter rewriter) {
  if (mlirOperationGetNumOperands(op) != 1)
    return mlirLogicalResultFailure();
  MlirOperation inner =
      coopvecDefiningOpNamed(mlirOperationGetOperand(op, 0), innerName);
  if (mlirOperationIsNull(inner))
    return mlirLogicalResultFailure();
  return coopvecReplaceWithSameTypedValue(op, mlirOperationGetOperand(inner, 0),
                                          rewriter);
}

/// to_vector(from_vector(x)) -> x.
static MlirLogicalResult foldToVectorOfFromVector(MlirRewritePattern pattern,
                                                  MlirOperation toVector,
                                                  MlirPatternRewriter rewriter,
                                                  void *userData) {
  (void)pattern;
  (void)userData;
  return foldInverseBridge(toVector, "coopvec.from_vector", rewriter);
}

/// from_vector(to_vector(v)) -> v.
static MlirLogicalResult foldFromVectorOfToVector(MlirRewritePattern pattern,
                                                  MlirOperation fromVector,
                                                  MlirPatternRewriter rewriter,
                                                  void *userData) {
  (void)pattern;
  (void)userData;
  return foldInverseBridge(fromVector, "coopvec.to_vector", rewriter);
}

void coopvecPopulateRoundTripPatterns(MlirRewritePatternSet set,
                                      MlirContext ctx) {
  coopvecAddPattern(set, ctx, "coopvec.unpack", COOPVEC_BENEFIT_DEFAULT,
                    foldUnpackOfFromElements);
  coopvecAddPattern(set, ctx, "coopvec.from_elements", COOPVEC_BENEFIT_DEFAULT,
                    foldFromElementsOfUnpack);
  coopvecAddPattern(set, ctx, "coopvec.to_vector", COOPVEC_BENEFIT_DEFAULT,
                    foldToVectorOfFromVector);
  coopvecAddPattern(set, ctx, "coopvec.from_vector", COOPVEC_BENEFIT_DEFAULT,
                    foldFromVectorOfToVector);
}
