//===- LowerToCPU.c - The coopvec-lower-to-cpu pipeline -------------------===//
//
// From coopvec IR to the LLVM dialect, ready for mlir-translate
// --mlir-to-llvmir or the execution engine. Options (`lanes=N`,
// `row-block=R`) are those of convert-coopvec-to-vector and are passed on
// to it.
//
// After the conversion, canonicalize / cse / loop-invariant-code-motion
// fold the many index constants and hoist uniform code out of the lane
// loop. math.tanh has no LLVM intrinsic, so math-expand-ops rewrites it
// with exp; exp, exp2 and log2 become LLVM intrinsics, which LLVM lowers
// to libm calls (exp2f, ...) on x86.
//
//===----------------------------------------------------------------------===//

#include "Pass/PassDef.h"

#include "Support/Buffer.h"

static void expandLowerToCPU(MlirStringRef options, MlirStringCallback append,
                             void *userData) {
  CoopvecBuffer text = {0};
  coopvecBufferAppendf(&text,
                       "coopvec-verify,"
                       "convert-coopvec-to-vector{%.*s},"
                       "canonicalize,cse,loop-invariant-code-motion,"
                       "math-expand-ops{ops=tanh},"
                       "convert-vector-to-scf,lower-affine,convert-scf-to-cf,"
                       "expand-strided-metadata,"
                       "convert-vector-to-llvm,convert-math-to-llvm,"
                       "convert-arith-to-llvm,finalize-memref-to-llvm,"
                       "convert-index-to-llvm,convert-func-to-llvm,"
                       "convert-cf-to-llvm,reconcile-unrealized-casts",
                       (int)options.length, options.data);
  append(mlirStringRefCreate(text.data, text.size), userData);
  coopvecBufferFree(&text);
}

const CoopvecPipelineDef coopvecLowerToCPUPipelineDef = {
    .argument = "coopvec-lower-to-cpu",
    .description = "Lower coopvec IR to the LLVM dialect for the CPU "
                   "(convert-coopvec-to-vector, then upstream passes)",
    .expand = expandLowerToCPU,
};
