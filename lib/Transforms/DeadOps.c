//===- DeadOps.c - Erase unused side-effect-free coopvec ops --------------===//
//
// IRDL ops carry no traits, so MLIR cannot know that `coopvec.add` has no
// side effects: upstream DCE and canonicalize keep every coopvec op. The
// op table (Ops.def) says which ops only compute their results (loads and
// matvec only read memory); they are erased once unused. The greedy
// driver revisits the producers of an erased op's operands, so chains of
// dead ops disappear in one run. Stores and the two gradient accumulations
// write memory and are never erased.
//
//===----------------------------------------------------------------------===//

#include "Transforms/PatternUtils.h"

#include "Dialect/OpTable.h"

#include <stddef.h>

static MlirLogicalResult eraseIfUnused(MlirRewritePattern pattern,
                                       MlirOperation op,
                                       MlirPatternRewriter rewriter,
                                       void *userData) {
  (void)pattern;
  (void)userData;
  for (intptr_t i = 0; i < mlirOperationGetNumResults(op); ++i)
    if (!coopvecValueIsUnused(mlirOperationGetResult(op, i)))
      return mlirLogicalResultFailure();
  mlirRewriterBaseEraseOp(mlirPatternRewriterAsBase(rewriter), op);
  return mlirLogicalResultSuccess();
}

void coopvecPopulateDeadOpPatterns(MlirRewritePatternSet set, MlirContext ctx) {
  for (int id = 0; id < CoopvecOpCount; ++id) {
    const CoopvecOpInfo *info = coopvecGetOpInfo((CoopvecOpId)id);
    if (coopvecOpIsPure(info))
      coopvecAddPattern(set, ctx, info->name, COOPVEC_BENEFIT_ERASE_DEAD,
                        eraseIfUnused);
  }
}
