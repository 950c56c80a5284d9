//===- LowerToCPU.c - The coopvec-lower-to-cpu pipeline -------------------===//
//
// From coopvec IR to the LLVM dialect, ready for mlir-translate
// --mlir-to-llvmir, --emit=obj or the execution engine. Its options
// (`target-cpu=`, `target-features=`, `target-triple=`, `lanes=`,
// `row-block=`, `bounds-checks=`, `reduce-mode=`, `lane-refill=`) are those
// of convert-coopvec-to-cpu and are passed on to it.
//
// After the conversion, coopvec-expand-math turns the math dialect's
// transcendental ops anywhere in the module (the user's own code on lane
// vectors or uniform values) into arith + math.fma code (lib/Math/, which
// the per-thread layer uses for coopvec.exp2 / log2 / tanh too); then
// canonicalize / cse / loop-invariant-code-motion fold the many constants
// and hoist uniform code out of the lane loop. The math ops left are
// math.fma (matvec and the polynomials), which convert-math-to-llvm makes
// llvm.intr.fma: one instruction on CPUs with FMA (only on CPUs without it
// does LLVM call fmaf), and those that are one instruction or exact
// (sqrt, floor, absf, ...). No other libm function is called.
//
//===----------------------------------------------------------------------===//

#include "Pass/PassDef.h"

#include "coopvec-c/Support.h"

static void expandLowerToCPU(MlirStringRef options, MlirStringCallback append,
                             void *userData) {
  CoopvecBuffer text = {0};
  coopvecBufferAppendf(&text,
                       "coopvec-verify,"
                       "convert-coopvec-to-cpu{%.*s},coopvec-expand-math,"
                       "canonicalize,cse,loop-invariant-code-motion,"
                       "convert-vector-to-scf,lower-affine,convert-scf-to-cf,"
                       "expand-strided-metadata,"
                       "convert-vector-to-llvm,convert-math-to-llvm,"
                       "convert-arith-to-llvm,finalize-memref-to-llvm,"
                       "convert-index-to-llvm,convert-func-to-llvm,"
                       "convert-cf-to-llvm,coopvec-llvm-loop-annotations,"
                       "reconcile-unrealized-casts",
                       (int)options.length, options.data);
  append(mlirStringRefCreate(text.data, text.size), userData);
  coopvecBufferFree(&text);
}

const CoopvecPipelineDef coopvecLowerToCPUPipelineDef = {
    .argument = "coopvec-lower-to-cpu",
    .description = "Lower coopvec IR to the LLVM dialect for the CPU "
                   "(convert-coopvec-to-cpu, then upstream passes). "
                   "Options: those of convert-coopvec-to-cpu",
    .expand = expandLowerToCPU,
};
