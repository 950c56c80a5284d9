//===- PatternUtils.c - Helpers for coopvec rewrite patterns --------------===//

#include "Transforms/PatternUtils.h"

#include "coopvec-c/Dialect.h"

#include "IR/UpstreamBuilders.h"

#include <mlir-c/BuiltinAttributes.h>

#include <string.h>

MlirOperation coopvecDefiningOpNamed(MlirValue value, const char *name) {
  MlirOperation null = {NULL};
  if (mlirValueIsNull(value) || !mlirValueIsAOpResult(value))
    return null;
  MlirOperation owner = mlirOpResultGetOwner(value);
  return coopvecOpIsNamed(owner, name) ? owner : null;
}

bool coopvecValueIsUnused(MlirValue value) {
  return mlirOpOperandIsNull(mlirValueGetFirstUse(value));
}

bool coopvecValueHasOneUse(MlirValue value) {
  MlirOpOperand use = mlirValueGetFirstUse(value);
  return !mlirOpOperandIsNull(use) &&
         mlirOpOperandIsNull(mlirOpOperandGetNextUse(use));
}

bool coopvecMatchFloatConstant(MlirValue value, double *constant) {
  MlirOperation op = coopvecDefiningOpNamed(value, "arith.constant");
  if (mlirOperationIsNull(op))
    return false;
  MlirAttribute attr = mlirOperationGetInherentAttributeByName(
      op, mlirStringRefCreateFromCString("value"));
  if (mlirAttributeIsNull(attr) || !mlirAttributeIsAFloat(attr))
    return false;
  *constant = mlirFloatAttrGetValueDouble(attr);
  return true;
}

bool coopvecMatchUniformConstant(MlirValue value, double *constant) {
  if (coopvecMatchFloatConstant(value, constant))
    return true;
  MlirOperation splat = coopvecDefiningOpNamed(value, "coopvec.splat");
  return !mlirOperationIsNull(splat) &&
         mlirOperationGetNumOperands(splat) == 1 &&
         coopvecMatchFloatConstant(mlirOperationGetOperand(splat, 0), constant);
}

MlirValue coopvecCreateConstantSplat(MlirRewriterBase rewriter,
                                     MlirLocation loc, MlirType vecType,
                                     double constant) {
  CoopvecBuilder builder = coopvecBuilderFromRewriter(rewriter, loc);
  MlirValue scalar = coopvecBuildFloatConstant(
      &builder, coopvecVecTypeGetElementType(vecType), constant);
  return coopvecBuildSplat(&builder, vecType, scalar);
}

void coopvecAddPattern(MlirRewritePatternSet set, MlirContext ctx,
                       const char *rootName, unsigned benefit,
                       MlirLogicalResult (*matchAndRewrite)(MlirRewritePattern,
                                                            MlirOperation,
                                                            MlirPatternRewriter,
                                                            void *)) {
  MlirRewritePatternCallbacks callbacks = {NULL, NULL, matchAndRewrite};
  MlirRewritePattern pattern =
      mlirOpRewritePatternCreate(mlirStringRefCreateFromCString(rootName),
                                 benefit, ctx, callbacks, NULL, 0, NULL);
  mlirRewritePatternSetAdd(set, pattern);
}

MlirLogicalResult
coopvecReplaceWithSameTypedValue(MlirOperation op, MlirValue value,
                                 MlirPatternRewriter rewriter) {
  if (!mlirTypeEqual(mlirValueGetType(value),
                     mlirValueGetType(mlirOperationGetResult(op, 0))))
    return mlirLogicalResultFailure();
  mlirRewriterBaseReplaceOpWithValues(mlirPatternRewriterAsBase(rewriter), op,
                                      1, &value);
  return mlirLogicalResultSuccess();
}
