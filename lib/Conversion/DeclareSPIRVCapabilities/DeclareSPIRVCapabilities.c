//===- DeclareSPIRVCapabilities.c - coopvec-declare-spirv-capabilities ----===//
//
// `spirv-update-vce` deduces a module's capabilities from its ops and
// types, but not `Int64Atomics`, which SPIR-V requires of an atomic on a
// 64-bit integer (spirv-val: "64-bit atomics require the Int64Atomics
// capability"). The run-time bounds checks count into an i64 status buffer
// with such atomics (docs/execution-model.md, "Per-thread code on GPU
// threads"). This pass, run on a spirv.module after spirv-update-vce, adds
// the capability to the module's VCE triple when an op needs it; the
// Vulkan backend then enables `shaderBufferInt64Atomics` or refuses a
// device without it (lib/ExecutionEngine/VulkanBackend.c).
//
//===----------------------------------------------------------------------===//

#include "Dialect/Verifier.h"
#include "Pass/PassDef.h"

#include "coopvec-c/Support.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <mlir-c/Dialect/SPIRV.h>

#include <string.h>

static const char passName[] = "coopvec-declare-spirv-capabilities";

static bool isAtomic(MlirOperation op) {
  MlirIdentifier name = mlirOperationGetName(op);
  MlirStringRef text = mlirIdentifierStr(name);
  static const char prefix[] = "spirv.Atomic";
  return text.length > sizeof(prefix) - 1 &&
         strncmp(text.data, prefix, sizeof(prefix) - 1) == 0;
}

static bool hasInt64Result(MlirOperation op) {
  for (intptr_t i = 0; i < mlirOperationGetNumResults(op); ++i) {
    MlirType type = mlirValueGetType(mlirOperationGetResult(op, i));
    if (mlirTypeIsAInteger(type) && mlirIntegerTypeGetWidth(type) == 64)
      return true;
  }
  return false;
}

static MlirWalkResult findInt64Atomic(MlirOperation op, void *userData) {
  if (!isAtomic(op) || !hasInt64Result(op))
    return MlirWalkResultAdvance;
  *(bool *)userData = true;
  return MlirWalkResultInterrupt;
}

/// `#spirv.vce<v, [caps], [exts]>` with `capability` added to its caps.
static MlirAttribute withCapability(MlirAttribute vce, const char *capability) {
  CoopvecBuffer text = {0};
  mlirAttributePrint(vce, coopvecBufferCallback, &text);
  const char *caps = strchr(coopvecBufferStr(&text), '[');
  MlirAttribute result = {NULL};
  if (caps && !strstr(caps, capability)) {
    size_t at = (size_t)(caps - text.data) + 1;
    CoopvecBuffer edited = {0};
    coopvecBufferAppendf(&edited, "%.*s%s%s%s", (int)at, text.data, capability,
                         caps[1] == ']' ? "" : ", ", text.data + at);
    result =
        mlirAttributeParseGet(mlirAttributeGetContext(vce),
                              mlirStringRefCreate(edited.data, edited.size));
    coopvecBufferFree(&edited);
  }
  coopvecBufferFree(&text);
  return result;
}

static void runDeclare(MlirOperation module, MlirExternalPass pass,
                       const void *options) {
  (void)options;
  bool needed = false;
  mlirOperationWalk(module, findInt64Atomic, &needed, MlirWalkPreOrder);
  if (!needed)
    return;
  MlirStringRef name = mlirStringRefCreateFromCString("vce_triple");
  MlirAttribute vce = mlirOperationGetAttributeByName(module, name);
  if (mlirAttributeIsNull(vce)) {
    coopvecEmitOpError(module,
                       "has 64-bit atomics but no 'vce_triple' (%s runs "
                       "after spirv-update-vce)",
                       passName);
    mlirExternalPassSignalFailure(pass);
    return;
  }
  MlirAttribute updated = withCapability(vce, "Int64Atomics");
  if (!mlirAttributeIsNull(updated))
    mlirOperationSetAttributeByName(module, name, updated);
}

static MlirDialectHandle (*const declareDependentDialects[])(void) = {
    mlirGetDialectHandle__spirv__};

const CoopvecPassDef coopvecDeclareSPIRVCapabilitiesPassDef = {
    .argument = passName,
    .name = "CoopvecDeclareSPIRVCapabilities",
    .description = "Add to a spirv.module's VCE triple the capabilities "
                   "spirv-update-vce does not deduce: Int64Atomics where an "
                   "atomic acts on a 64-bit integer (run after "
                   "spirv-update-vce)",
    .anchor = "spirv.module",
    .dependentDialects = declareDependentDialects,
    .numDependentDialects =
        sizeof(declareDependentDialects) / sizeof(declareDependentDialects[0]),
    .run = runDeclare,
};
