//===- SPIRVBinary.c - SPIR-V words from a lowered module -----------------===//
//
// After coopvec-lower-to-spirv the module holds either a `gpu.binary`
// whose one `#gpu.object` (target `#spirv.target_env`) carries the SPIR-V
// words (binary=true), or the `gpu.module` with its nested `spirv.module`
// (binary=false). coopvecEmitSPIRV hands out the words in both cases: the
// second is serialized on a clone by `gpu-module-to-binary{format=bin}`,
// the pass that makes the first, so both give the same words.
//
//===----------------------------------------------------------------------===//

#include "coopvec-c/Target.h"

#include "coopvec-c/Support.h"

#include "Dialect/Setup.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/Dialect/GPU.h>
#include <mlir-c/Pass.h>

#include <string.h>

static void reportError(MlirStringCallback callback, void *userData,
                        const char *message) {
  if (callback)
    callback(mlirStringRefCreateFromCString(message), userData);
}

static bool isSPIRVObject(MlirAttribute object) {
  if (!mlirAttributeIsAGPUObjectAttr(object))
    return false;
  CoopvecBuffer text = {0};
  mlirAttributePrint(mlirGPUObjectAttrGetTarget(object), coopvecBufferCallback,
                     &text);
  bool is = strncmp(coopvecBufferStr(&text), "#spirv.target_env", 17) == 0;
  coopvecBufferFree(&text);
  return is;
}

/// What the top level of a module holds.
typedef struct Contents {
  MlirAttribute object; // the last SPIR-V object of the gpu.binary ops
  int numObjects;
  int numGPUModules, numSPIRVGPUModules; // the latter hold a spirv.module
} Contents;

static bool holdsSPIRVModule(MlirOperation gpuModule) {
  MlirBlock body =
      mlirRegionGetFirstBlock(mlirOperationGetRegion(gpuModule, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    if (coopvecOpIsNamed(op, "spirv.module"))
      return true;
  return false;
}

static Contents survey(MlirOperation module) {
  Contents c;
  memset(&c, 0, sizeof(c));
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    if (coopvecOpIsNamed(op, "gpu.module")) {
      ++c.numGPUModules;
      c.numSPIRVGPUModules += holdsSPIRVModule(op);
    }
    if (!coopvecOpIsNamed(op, "gpu.binary"))
      continue;
    MlirAttribute objects = mlirOperationGetAttributeByName(
        op, mlirStringRefCreateFromCString("objects"));
    for (intptr_t i = 0; !mlirAttributeIsNull(objects) &&
                         i < mlirArrayAttrGetNumElements(objects);
         ++i) {
      MlirAttribute object = mlirArrayAttrGetElement(objects, i);
      if (isSPIRVObject(object)) {
        c.object = object;
        ++c.numObjects;
      }
    }
  }
  return c;
}

/// Serializes the gpu.module of a clone of `module` and writes its words.
static bool serializeClone(MlirOperation module, MlirStringCallback output,
                           void *outputUserData, CoopvecBuffer *error) {
  coopvecRegisterAllPassesOnce(); // gpu-module-to-binary by name
  MlirContext ctx = mlirOperationGetContext(module);
  MlirOperation clone = mlirOperationClone(module);
  MlirPassManager pm = mlirPassManagerCreateOnOperation(
      ctx, mlirStringRefCreateFromCString("builtin.module"));
  MlirOpPassManager opm = mlirPassManagerGetAsOpPassManager(pm);
  bool ok = mlirLogicalResultIsSuccess(mlirParsePassPipeline(
      opm,
      mlirStringRefCreateFromCString(
          "builtin.module(gpu-module-to-binary{format=bin})"),
      coopvecBufferCallback, error));
  ok = ok && mlirLogicalResultIsSuccess(mlirPassManagerRunOnOp(pm, clone));
  Contents c = ok ? survey(clone) : (Contents){{NULL}, 0, 0, 0};
  if (ok && c.numObjects == 1) {
    output(mlirGPUObjectAttrGetObject(c.object), outputUserData);
  } else if (ok || !error->size) {
    coopvecBufferAppendStr(error, "gpu-module-to-binary did not serialize "
                                  "the gpu.module to one SPIR-V object");
    ok = false;
  }
  mlirPassManagerDestroy(pm);
  mlirOperationDestroy(clone);
  return ok;
}

MlirLogicalResult coopvecEmitSPIRV(MlirOperation module,
                                   MlirStringCallback output,
                                   void *outputUserData,
                                   MlirStringCallback errorCallback,
                                   void *errorUserData) {
  Contents c = survey(module);
  CoopvecBuffer error = {0};
  bool ok = false;
  if (c.numObjects == 1 && c.numSPIRVGPUModules == 0) {
    MlirStringRef words = mlirGPUObjectAttrGetObject(c.object);
    ok = words.length >= 20 && words.length % 4 == 0;
    if (ok)
      output(words, outputUserData);
    else
      coopvecBufferAppendf(&error,
                           "the gpu.binary's SPIR-V object holds %zu bytes, "
                           "which are not SPIR-V words",
                           words.length);
  } else if (c.numObjects == 0 && c.numSPIRVGPUModules == 1) {
    ok = serializeClone(module, output, outputUserData, &error);
  } else if (c.numObjects + c.numSPIRVGPUModules == 0) {
    coopvecBufferAppendf(
        &error,
        "the module has no SPIR-V: neither a gpu.binary with a SPIR-V object "
        "nor a gpu.module holding a spirv.module (%d gpu.module ops; run "
        "coopvec-lower-to-spirv first)",
        c.numGPUModules);
  } else {
    coopvecBufferAppendf(
        &error,
        "the module holds %d SPIR-V objects in gpu.binary ops and %d "
        "gpu.module ops with a spirv.module; SPIR-V output is one module "
        "(coopvec-lower-to-spirv puts every kernel into one)",
        c.numObjects, c.numSPIRVGPUModules);
  }
  if (!ok)
    reportError(errorCallback, errorUserData, coopvecBufferStr(&error));
  coopvecBufferFree(&error);
  return ok ? mlirLogicalResultSuccess() : mlirLogicalResultFailure();
}
