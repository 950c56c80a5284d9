//===- LowerToCPU.c - The coopvec-lower-to-cpu pipeline -------------------===//
//
// From coopvec IR to the LLVM dialect, ready for mlir-translate
// --mlir-to-llvmir, --emit=obj or the execution engine. Its options
// (`target-cpu=`, `target-features=`, `target-triple=`, `lanes=`,
// `row-block=`) are those of convert-coopvec-to-cpu and are passed on to
// it.
//
// After the conversion, canonicalize / cse / loop-invariant-code-motion
// fold the many index constants and hoist uniform code out of the lane
// loop. math.tanh has no LLVM intrinsic, so math-expand-ops rewrites it
// with exp; exp, exp2 and log2 become LLVM intrinsics, which LLVM lowers
// to libm calls (exp2f, ...) on x86.
//
//===----------------------------------------------------------------------===//

#include "Pass/PassDef.h"

#include "coopvec-c/Support.h"

static void expandLowerToCPU(MlirStringRef options, MlirStringCallback append,
                             void *userData) {
  CoopvecBuffer text = {0};
  coopvecBufferAppendf(&text,
                       "coopvec-verify,"
                       "convert-coopvec-to-cpu{%.*s},"
                       "canonicalize,cse,loop-invariant-code-motion,"
                       "math-expand-ops{ops=tanh},"
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
                   "(convert-coopvec-to-cpu, then upstream passes)",
    .expand = expandLowerToCPU,
};
