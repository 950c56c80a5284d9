//===- fuzz-pipeline.c - Fuzz the textual pass pipeline parser ------------===//
//
// Input: a textual pipeline, as given to coopvec-opt --pass-pipeline,
// coopvec-run --pipeline or CoopvecEngineOptions.pipeline: coopvec passes
// and pipelines with their options, upstream passes, nesting. It is parsed
// by coopvecParsePassPipeline into a pass manager on builtin.module and,
// when it parses, run (verifying after every pass) on a clone of a small
// module that every coopvec pass has work in: a layer with a matvec, a
// load, transcendentals and gradient accumulations. Pass options are only
// checked when a pass runs (lanes=-1 used to divide by zero there), so
// parsing alone would miss them.
//
//===----------------------------------------------------------------------===//

#include "FuzzCommon.h"

#include <stdlib.h>

/// A bound for replayed files (scripts/fuzz.sh keeps generated inputs to
/// 4 KiB with -max_len; the regression corpus has a 33 KB pipeline).
enum { MAX_INPUT = 1 << 20 };

static const char moduleText[] =
    "func.func @layer(%x: !coopvec.vec<3, f32>, %w: memref<?xf32>,\n"
    "                 %g: memref<?xf32>, %off: index, %s: f32)\n"
    "    -> !coopvec.vec<5, f32> {\n"
    "  %A = \"coopvec.matrix_view\"(%w) {offset = 0} : (memref<?xf32>)\n"
    "      -> !coopvec.matrix<5, 3, f32, \"row_major\">\n"
    "  %b = \"coopvec.load\"(%w, %off) : (memref<?xf32>, index)\n"
    "      -> !coopvec.vec<5, f32>\n"
    "  %h = \"coopvec.matvec\"(%A, %x) : (!coopvec.matrix<5, 3, f32,\n"
    "      \"row_major\">, !coopvec.vec<3, f32>) -> !coopvec.vec<5, f32>\n"
    "  %y = \"coopvec.add\"(%h, %b) : (!coopvec.vec<5, f32>,\n"
    "      !coopvec.vec<5, f32>) -> !coopvec.vec<5, f32>\n"
    "  %r = \"coopvec.max\"(%y, %s) : (!coopvec.vec<5, f32>, f32)\n"
    "      -> !coopvec.vec<5, f32>\n"
    "  %t = \"coopvec.tanh\"(%r) : (!coopvec.vec<5, f32>)\n"
    "      -> !coopvec.vec<5, f32>\n"
    "  %G = \"coopvec.matrix_view\"(%g) {offset = 0} : (memref<?xf32>)\n"
    "      -> !coopvec.matrix<5, 3, f32, \"row_major\">\n"
    "  \"coopvec.outer_product_accumulate\"(%t, %x, %G) :\n"
    "      (!coopvec.vec<5, f32>, !coopvec.vec<3, f32>,\n"
    "       !coopvec.matrix<5, 3, f32, \"row_major\">) -> ()\n"
    "  \"coopvec.reduce_sum_accumulate\"(%t, %g, %off) :\n"
    "      (!coopvec.vec<5, f32>, memref<?xf32>, index) -> ()\n"
    "  return %t : !coopvec.vec<5, f32>\n"
    "}\n"
    "func.func @scale(%x: !coopvec.vec<4, f16>, %s: f16)\n"
    "    -> !coopvec.vec<4, f16> {\n"
    "  %y = \"coopvec.mul\"(%x, %s) : (!coopvec.vec<4, f16>, f16)\n"
    "      -> !coopvec.vec<4, f16>\n"
    "  %e = \"coopvec.exp2\"(%y) : (!coopvec.vec<4, f16>)\n"
    "      -> !coopvec.vec<4, f16>\n"
    "  return %e : !coopvec.vec<4, f16>\n"
    "}\n";

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  MlirModule module = coopvecFuzzParse(moduleText, sizeof(moduleText) - 1);
  if (mlirModuleIsNull(module) ||
      !coopvecFuzzVerify(mlirModuleGetOperation(module)))
    coopvecFuzzFail("the pipeline harness's module does not verify");
  mlirModuleDestroy(module);
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > MAX_INPUT)
    return 0;
  coopvecFuzzBeginInput();
  char *text = coopvecFuzzCopyText(data, size);
  // Parsed for every input: the context may be new (coopvecFuzzBeginInput).
  MlirModule module = coopvecFuzzParse(moduleText, sizeof(moduleText) - 1);
  MlirOperation op = mlirModuleGetOperation(module);
  if (coopvecFuzzRunPipeline(op, text, size, true) ==
          CoopvecFuzzPipelineSucceeded &&
      !coopvecFuzzVerify(op))
    coopvecFuzzFail("a pipeline succeeded and left IR that does not verify");
  mlirModuleDestroy(module);
  free(text);
  return 0;
}
