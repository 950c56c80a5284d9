//===- LLVMLoopAnnotations.c - coopvec-llvm-loop-annotations --------------===//
//
// The lowerings mark the loops that LLVM must not unroll (element loops:
// unrolling them would make code size grow with the vec width again) with
// an `llvm.loop_annotation` attribute on the scf.for. convert-scf-to-cf
// moves it to the loop's back edge, but MLIR 22's convert-cf-to-llvm keeps
// it there as a *discardable* attribute of llvm.br / llvm.cond_br, which
// the LLVM IR translation ignores: only the branch's inherent
// `loop_annotation` becomes `!llvm.loop` metadata. This pass moves the
// attribute to where the translation reads it. It runs in the
// coopvec-lower-to-<target> pipelines after convert-cf-to-llvm.
//
//===----------------------------------------------------------------------===//

#include "Pass/PassDef.h"

#include "coopvec-c/Support.h"

#include <mlir-c/BuiltinAttributes.h>

static const char discardableName[] = "llvm.loop_annotation";
static const char inherentName[] = "loop_annotation";

static MlirWalkResult moveAnnotation(MlirOperation op, void *userData) {
  (void)userData;
  if (!coopvecOpIsNamed(op, "llvm.br") && !coopvecOpIsNamed(op, "llvm.cond_br"))
    return MlirWalkResultAdvance;
  MlirStringRef name = mlirStringRefCreateFromCString(discardableName);
  MlirAttribute annotation =
      mlirOperationGetDiscardableAttributeByName(op, name);
  if (mlirAttributeIsNull(annotation))
    return MlirWalkResultAdvance;
  mlirOperationSetInherentAttributeByName(
      op, mlirStringRefCreateFromCString(inherentName), annotation);
  mlirOperationRemoveDiscardableAttributeByName(op, name);
  return MlirWalkResultAdvance;
}

static void runLoopAnnotations(MlirOperation op, MlirExternalPass pass,
                               const void *options) {
  (void)pass;
  (void)options;
  mlirOperationWalk(op, moveAnnotation, NULL, MlirWalkPreOrder);
}

const CoopvecPassDef coopvecLLVMLoopAnnotationsPassDef = {
    .argument = "coopvec-llvm-loop-annotations",
    .name = "CoopvecLLVMLoopAnnotations",
    .description = "Move `llvm.loop_annotation` from LLVM dialect branches "
                   "into their `loop_annotation` property (MLIR 22's "
                   "convert-cf-to-llvm leaves it discardable)",
    .anchor = "",
    .run = runLoopAnnotations,
};
