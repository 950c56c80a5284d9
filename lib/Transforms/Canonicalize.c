//===- Canonicalize.c - coopvec-canonicalize ------------------------------===//

#include "coopvec-c/Coopvec.h"

#include "Pass/PassDef.h"

static void runCanonicalize(MlirOperation op, MlirExternalPass pass,
                            const void *options) {
  (void)op;
  (void)pass;
  (void)options;
}

const CoopvecPassDef coopvecCanonicalizePassDef = {
    .argument = "coopvec-canonicalize",
    .name = "CoopvecCanonicalize",
    .description = "Fold coopvec round trips, merge bias adds into matvec, "
                   "fold splats and erase dead coopvec ops",
    .anchor = "",
    .run = runCanonicalize,
};
