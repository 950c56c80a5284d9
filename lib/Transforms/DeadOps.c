//===- DeadOps.c - Erase unused side-effect-free coopvec ops --------------===//
//
// IRDL ops carry no traits, so MLIR cannot know that `coopvec.add` has no
// side effects: upstream DCE and canonicalize keep every coopvec op. This
// file lists the ops that only compute their results (loads and
// matrix_view only read memory) and erases them once unused. The greedy
// driver revisits the producers of an erased op's operands, so chains of
// dead ops disappear in one run. Stores and the two gradient accumulations
// write memory and are never erased.
//
//===----------------------------------------------------------------------===//

#include "Transforms/PatternUtils.h"

#include <stddef.h>

static const char *const pureOpNames[] = {
    "coopvec.from_elements", "coopvec.splat",       "coopvec.unpack",
    "coopvec.from_vector",   "coopvec.to_vector",   "coopvec.cast",
    "coopvec.load",          "coopvec.masked_load", "coopvec.matrix_view",
    "coopvec.add",           "coopvec.sub",         "coopvec.mul",
    "coopvec.min",           "coopvec.max",         "coopvec.step",
    "coopvec.fma",           "coopvec.neg",         "coopvec.exp2",
    "coopvec.log2",          "coopvec.tanh",        "coopvec.matvec",
};
enum { NUM_PURE_OPS = sizeof(pureOpNames) / sizeof(pureOpNames[0]) };

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
  for (size_t i = 0; i < NUM_PURE_OPS; ++i)
    coopvecAddPattern(set, ctx, pureOpNames[i], COOPVEC_BENEFIT_ERASE_DEAD,
                      eraseIfUnused);
}
