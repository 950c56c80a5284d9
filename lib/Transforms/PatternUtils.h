//===- PatternUtils.h - Helpers for coopvec rewrite patterns ------*- C -*-===//
//
// The MLIR 22 C API gives patterns raw operations and values; these helpers
// name the checks every coopvec pattern repeats (is this value produced by a
// `coopvec.splat`? is it a float constant? is it used once?). Ops are built
// with the library's builders (coopvec-c/Builders.h) through the rewriter,
// so that the greedy driver sees every change.
//
//===----------------------------------------------------------------------===//

#ifndef COOPVEC_LIB_TRANSFORMS_PATTERNUTILS_H
#define COOPVEC_LIB_TRANSFORMS_PATTERNUTILS_H

#include "coopvec-c/Support.h"

#include <mlir-c/IR.h>
#include <mlir-c/Rewrite.h>

#include <stdbool.h>
#include <stdint.h>

/// The op named `name` that defines `value`, or a null op when `value` is a
/// block argument or is defined by another op.
MlirOperation coopvecDefiningOpNamed(MlirValue value, const char *name);

/// Whether `value` has no uses / exactly one use.
bool coopvecValueIsUnused(MlirValue value);
/// Replaces single-result `op` by `value` if `value` has the result's type;
/// fails (changing nothing) otherwise.
MlirLogicalResult
coopvecReplaceWithSameTypedValue(MlirOperation op, MlirValue value,
                                 MlirPatternRewriter rewriter);
bool coopvecValueHasOneUse(MlirValue value);

/// If `value` is an `arith.constant` holding a float, stores its value and
/// returns true.
bool coopvecMatchFloatConstant(MlirValue value, double *constant);

/// If `value` is a float constant, or a `coopvec.splat` of one, stores the
/// constant and returns true: the value every element of `value` has.
bool coopvecMatchUniformConstant(MlirValue value, double *constant);

/// Creates `coopvec.splat(arith.constant <constant> : element) -> vecType`.
MlirValue coopvecCreateConstantSplat(MlirRewriterBase rewriter,
                                     MlirLocation loc, MlirType vecType,
                                     double constant);

/// Adds a pattern rooted at `rootName` to `set`.
void coopvecAddPattern(MlirRewritePatternSet set, MlirContext ctx,
                       const char *rootName, unsigned benefit,
                       MlirLogicalResult (*matchAndRewrite)(MlirRewritePattern,
                                                            MlirOperation,
                                                            MlirPatternRewriter,
                                                            void *));

/// Pattern groups of coopvec-canonicalize, one file each.
void coopvecPopulateRoundTripPatterns(MlirRewritePatternSet set,
                                      MlirContext ctx);
void coopvecPopulateMergeBiasPatterns(MlirRewritePatternSet set,
                                      MlirContext ctx);
void coopvecPopulateSplatPatterns(MlirRewritePatternSet set, MlirContext ctx);
void coopvecPopulateDeadOpPatterns(MlirRewritePatternSet set, MlirContext ctx);

/// Pattern benefits: erasing an unused op beats any rewrite of it; folding to a
/// constant beats removing an identity, which beats merging a bias add into
/// matvec, which beats rewriting a splat operand as a scalar (so that
/// `add(matvec, splat(c))` becomes a bias).
enum {
  COOPVEC_BENEFIT_DEFAULT = 1,
  COOPVEC_BENEFIT_SCALAR_BROADCAST = 1,
  COOPVEC_BENEFIT_MERGE_BIAS = 2,
  COOPVEC_BENEFIT_IDENTITY = 3,
  COOPVEC_BENEFIT_CONSTANT_FOLD = 4,
  COOPVEC_BENEFIT_ERASE_DEAD = 5,
};

#endif // COOPVEC_LIB_TRANSFORMS_PATTERNUTILS_H
