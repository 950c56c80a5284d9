//===- MergeBias.c - Merge a bias add into coopvec.matvec -----------------===//
//
// Cooperative-vector hardware (OptiX, VK_NV_cooperative_vector) adds the
// bias inside the matrix-vector product, so `add(matvec(A, x), b)` becomes
// `matvec(A, x, b)`. The result is rounded once instead of twice, which is
// why the merge can be turned off (`merge-bias=false`) where bit-exact
// agreement with the unmerged program matters.
//
//===----------------------------------------------------------------------===//

#include "Transforms/PatternUtils.h"

#include "coopvec-c/Builders.h"

/// The bias-free matvec defining `value` whose only user is the add being
/// rewritten; null otherwise. A matvec with other users must stay: merging
/// would change the value they see.
static MlirOperation mergeableMatvec(MlirValue value) {
  MlirOperation null = {NULL};
  MlirOperation matvec = coopvecDefiningOpNamed(value, "coopvec.matvec");
  if (mlirOperationIsNull(matvec) || mlirOperationGetNumOperands(matvec) != 2 ||
      !coopvecValueHasOneUse(value))
    return null;
  return matvec;
}

/// Creates matvec(A, x, bias) with the attributes (`transpose`) of `matvec`,
/// located at both the matvec and the add it absorbs.
static MlirOperation createMatvecWithBias(MlirRewriterBase rewriter,
                                          MlirOperation matvec,
                                          MlirOperation add, MlirValue bias) {
  MlirLocation locations[2] = {mlirOperationGetLocation(matvec),
                               mlirOperationGetLocation(add)};
  MlirContext ctx = mlirRewriterBaseGetContext(rewriter);
  MlirAttribute noMetadata = {NULL};
  CoopvecBuilder builder = coopvecBuilderFromRewriter(
      rewriter, mlirLocationFusedGet(ctx, 2, locations, noMetadata));
  bool transpose = !mlirAttributeIsNull(mlirOperationGetAttributeByName(
      matvec, mlirStringRefCreateFromCString("transpose")));
  MlirValue result =
      coopvecBuildMatvec(&builder, mlirOperationGetOperand(matvec, 0),
                         mlirOperationGetOperand(matvec, 1), bias, transpose);
  MlirOperation merged = mlirOpResultGetOwner(result);
  // Keep any other discardable attribute the matvec carried.
  for (intptr_t i = 0; i < mlirOperationGetNumDiscardableAttributes(matvec);
       ++i) {
    MlirNamedAttribute attr = mlirOperationGetDiscardableAttribute(matvec, i);
    mlirOperationSetDiscardableAttributeByName(
        merged, mlirIdentifierStr(attr.name), attr.attribute);
  }
  return merged;
}

/// add(matvec(A, x), b) -> matvec(A, x, b), and add(b, matvec(A, x)) (vec
/// addition is commutative). A scalar `b` is refused: matvec's bias must be
/// a vec of the result type, and splatting it would add an op.
static MlirLogicalResult mergeBiasAdd(MlirRewritePattern pattern,
                                      MlirOperation add,
                                      MlirPatternRewriter rewriter,
                                      void *userData) {
  (void)pattern;
  (void)userData;
  if (mlirOperationGetNumOperands(add) != 2)
    return mlirLogicalResultFailure();
  MlirType resultType = mlirValueGetType(mlirOperationGetResult(add, 0));
  for (intptr_t product = 0; product < 2; ++product) {
    MlirValue bias = mlirOperationGetOperand(add, 1 - product);
    if (!mlirTypeEqual(mlirValueGetType(bias), resultType))
      continue;
    MlirOperation matvec =
        mergeableMatvec(mlirOperationGetOperand(add, product));
    if (mlirOperationIsNull(matvec))
      continue;
    MlirRewriterBase base = mlirPatternRewriterAsBase(rewriter);
    mlirRewriterBaseSetInsertionPointBefore(base, add);
    MlirOperation merged = createMatvecWithBias(base, matvec, add, bias);
    mlirRewriterBaseReplaceOpWithOperation(base, add, merged);
    mlirRewriterBaseEraseOp(base, matvec);
    return mlirLogicalResultSuccess();
  }
  return mlirLogicalResultFailure();
}

void coopvecPopulateMergeBiasPatterns(MlirRewritePatternSet set,
                                      MlirContext ctx) {
  coopvecAddPattern(set, ctx, "coopvec.add", COOPVEC_BENEFIT_MERGE_BIAS,
                    mergeBiasAdd);
}
