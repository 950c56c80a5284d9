//===- CheckNVVMTarget.c - coopvec-check-nvvm-target ----------------------===//
//
// LLVM's NVPTX backend calls report_fatal_error, which exits the host
// process, on a PTX version older than the chip needs ("PTX version 4.0
// does not support target 'sm_90'"), and only warns about a chip or feature
// it does not know. coopvec-prepare-nvvm checks the target of our own
// pipeline, but a pipeline of upstream passes alone reaches
// gpu-module-to-binary without it. So the pipeline parser inserts this pass
// before every upstream gpu-module-to-binary: it runs the same checks
// (coopvecNVPTXCheckTarget) on every #nvvm.target of every gpu.module and
// fails with an error on the gpu.module instead. Other targets (ROCDL,
// SPIR-V) are left alone, and so is a gpu.module without targets
// (gpu-module-to-binary reports that itself).
//
//===----------------------------------------------------------------------===//

#include "Dialect/Verifier.h"
#include "Pass/PassDef.h"
#include "Target/NVPTXTarget.h"

#include "coopvec-c/Support.h"

#include <mlir-c/BuiltinAttributes.h>

/// Checks one element of a gpu.module's `targets`; reports the first
/// problem on the gpu.module.
static bool checkTarget(MlirOperation gpuModule, MlirAttribute attr) {
  CoopvecNVVMTarget target;
  if (mlirAttributeIsNull(attr) || !coopvecReadNVVMTarget(attr, &target))
    return true;
  CoopvecBuffer error = {0};
  bool ok = coopvecNVPTXCheckNVVMTarget(&target, &error);
  if (!ok)
    coopvecEmitOpError(gpuModule, "%s", coopvecBufferStr(&error));
  coopvecBufferFree(&error);
  return ok;
}

static MlirWalkResult checkModule(MlirOperation op, void *userData) {
  if (!coopvecOpIsNamed(op, "gpu.module"))
    return MlirWalkResultAdvance;
  bool *ok = userData;
  MlirAttribute targets = mlirOperationGetAttributeByName(
      op, mlirStringRefCreateFromCString("targets"));
  if (!mlirAttributeIsNull(targets) && mlirAttributeIsAArray(targets))
    for (intptr_t i = 0; i < mlirArrayAttrGetNumElements(targets); ++i)
      if (!checkTarget(op, mlirArrayAttrGetElement(targets, i))) {
        *ok = false;
        break; // one error per gpu.module is enough
      }
  // Kernels hold no gpu.module: do not walk their bodies.
  return MlirWalkResultSkip;
}

static void runCheck(MlirOperation op, MlirExternalPass pass,
                     const void *options) {
  (void)options;
  bool ok = true;
  mlirOperationWalk(op, checkModule, &ok, MlirWalkPreOrder);
  if (!ok)
    mlirExternalPassSignalFailure(pass);
}

const CoopvecPassDef coopvecCheckNVVMTargetPassDef = {
    .argument = "coopvec-check-nvvm-target",
    .name = "CoopvecCheckNVVMTarget",
    .description = "Check every gpu.module's #nvvm.target (chip, features, "
                   "PTX version) so that gpu-module-to-binary cannot make "
                   "LLVM exit the process",
    .anchor = "",
    .run = runCheck,
};
