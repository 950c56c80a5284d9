//===- PatternUtils.c - Helpers for coopvec rewrite patterns --------------===//

#include "Transforms/PatternUtils.h"

#include "coopvec-c/Dialect.h"

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

MlirOperation coopvecCreateOp(MlirRewriterBase rewriter, const char *name,
                              MlirLocation loc, intptr_t numOperands,
                              const MlirValue *operands, intptr_t numResults,
                              const MlirType *resultTypes,
                              intptr_t numAttributes,
                              const MlirNamedAttribute *attributes) {
  MlirOperationState state =
      mlirOperationStateGet(mlirStringRefCreateFromCString(name), loc);
  mlirOperationStateAddOperands(&state, numOperands, operands);
  mlirOperationStateAddResults(&state, numResults, resultTypes);
  mlirOperationStateAddAttributes(&state, numAttributes, attributes);
  return mlirRewriterBaseInsert(rewriter, mlirOperationCreate(&state));
}

MlirValue coopvecCreateFloatConstant(MlirRewriterBase rewriter,
                                     MlirLocation loc, MlirType type,
                                     double constant) {
  MlirContext ctx = mlirRewriterBaseGetContext(rewriter);
  // FloatAttr rounds the double to `type` to nearest, ties to even.
  MlirNamedAttribute value = mlirNamedAttributeGet(
      mlirIdentifierGet(ctx, mlirStringRefCreateFromCString("value")),
      mlirFloatAttrDoubleGet(ctx, type, constant));
  MlirOperation op = coopvecCreateOp(rewriter, "arith.constant", loc, 0, NULL,
                                     1, &type, 1, &value);
  return mlirOperationGetResult(op, 0);
}

MlirValue coopvecCreateConstantSplat(MlirRewriterBase rewriter,
                                     MlirLocation loc, MlirType vecType,
                                     double constant) {
  MlirValue scalar = coopvecCreateFloatConstant(
      rewriter, loc, coopvecVecTypeGetElementType(vecType), constant);
  MlirOperation splat = coopvecCreateOp(rewriter, "coopvec.splat", loc, 1,
                                        &scalar, 1, &vecType, 0, NULL);
  return mlirOperationGetResult(splat, 0);
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
