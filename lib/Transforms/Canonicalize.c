//===- Canonicalize.c - coopvec-canonicalize ------------------------------===//
//
// Simplifies coopvec IR with rewrite patterns applied by MLIR's greedy
// driver. IRDL ops cannot have folders or canonicalization patterns, so
// this pass is their `canonicalize`. The pattern groups live beside this
// file (RoundTrips.c, MergeBias.c, Splats.c, DeadOps.c); docs/passes.md
// lists what each one rewrites and what it refuses to.
//
// The pass touches coopvec ops only: the driver's folding, constant
// hoisting and region simplification stay off, so arith/func/scf IR is left
// exactly as written (run upstream `canonicalize` for that; the two compose
// in one pipeline).
//
//===----------------------------------------------------------------------===//

#include "coopvec-c/Coopvec.h"

#include "Pass/PassDef.h"
#include "Transforms/PatternUtils.h"

#include <mlir-c/Dialect/Arith.h>
#include <mlir-c/Rewrite.h>

typedef struct CanonicalizeOptions {
  bool mergeBias;
} CanonicalizeOptions;

static const CoopvecPassOption canonicalizeOptions[] = {
    {"merge-bias", CoopvecOptionBool, offsetof(CanonicalizeOptions, mergeBias),
     "true",
     "merge add(matvec(A, x), b) into matvec(A, x, b); rounds once instead "
     "of twice"},
};

/// The patterns build `arith.constant` for folded splats.
static MlirDialectHandle (*const canonicalizeDependentDialects[])(void) = {
    mlirGetDialectHandle__arith__,
};

static MlirFrozenRewritePatternSet
buildPatterns(MlirContext ctx, const CanonicalizeOptions *options) {
  MlirRewritePatternSet set = mlirRewritePatternSetCreate(ctx);
  coopvecPopulateRoundTripPatterns(set, ctx);
  coopvecPopulateSplatPatterns(set, ctx);
  coopvecPopulateDeadOpPatterns(set, ctx);
  if (options->mergeBias)
    coopvecPopulateMergeBiasPatterns(set, ctx);
  // Freezing moves the patterns out of `set` but leaves the (now empty) set
  // object itself allocated: it must still be destroyed.
  MlirFrozenRewritePatternSet frozen = mlirFreezeRewritePattern(set);
  mlirRewritePatternSetDestroy(set);
  return frozen;
}

static void runCanonicalize(MlirOperation op, MlirExternalPass pass,
                            const void *options) {
  (void)pass;
  MlirFrozenRewritePatternSet patterns =
      buildPatterns(mlirOperationGetContext(op), options);
  MlirGreedyRewriteDriverConfig config = mlirGreedyRewriteDriverConfigCreate();
  mlirGreedyRewriteDriverConfigEnableFolding(config, false);
  mlirGreedyRewriteDriverConfigEnableConstantCSE(config, false);
  mlirGreedyRewriteDriverConfigSetRegionSimplificationLevel(
      config, MLIR_GREEDY_SIMPLIFY_REGION_LEVEL_DISABLED);
  // Every pattern removes ops or moves a splat operand to a scalar, so the
  // driver converges; like upstream canonicalize, a run cut short by the
  // iteration limit still leaves valid IR and is not an error.
  (void)mlirApplyPatternsAndFoldGreedilyWithOp(op, patterns, config);
  mlirGreedyRewriteDriverConfigDestroy(config);
  mlirFrozenRewritePatternSetDestroy(patterns);
}

const CoopvecPassDef coopvecCanonicalizePassDef = {
    .argument = "coopvec-canonicalize",
    .name = "CoopvecCanonicalize",
    .description = "Fold coopvec round trips, merge bias adds into matvec, "
                   "fold splats and erase dead coopvec ops",
    .anchor = "",
    .options = canonicalizeOptions,
    .numOptions = sizeof(canonicalizeOptions) / sizeof(canonicalizeOptions[0]),
    .optionsSize = sizeof(CanonicalizeOptions),
    .dependentDialects = canonicalizeDependentDialects,
    .numDependentDialects = sizeof(canonicalizeDependentDialects) /
                            sizeof(canonicalizeDependentDialects[0]),
    .run = runCanonicalize,
};
