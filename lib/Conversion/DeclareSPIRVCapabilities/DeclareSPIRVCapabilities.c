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
// Nor the version an entry point's interface needs: for a target
// environment of SPIR-V 1.4 or later, spirv-lower-abi-attrs lists every
// global variable an entry point uses in its interface (the storage
// buffers and workgroup memory too), which SPIR-V allows from 1.4 on
// (1.0-1.3: Input and Output only), while spirv-update-vce deduces the
// oldest version the ops need, 1.0 for most kernels. So a module whose
// interfaces list other variables gets version 1.4 at least. That list is
// what tells a driver which workgroup variables an entry point uses: the
// execution engine counts them per entry point only from 1.4 on
// (lib/ExecutionEngine/SPIRVReflect.c).
//
//===----------------------------------------------------------------------===//

#include "Dialect/Functions.h"
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

/// `#spirv.vce<v1.N, ...>` with N raised to 4, or null when N >= 4.
static MlirAttribute withVersion14(MlirAttribute vce) {
  CoopvecBuffer text = {0};
  mlirAttributePrint(vce, coopvecBufferCallback, &text);
  char *version = strstr(coopvecBufferStr(&text), "<v1.");
  MlirAttribute result = {NULL};
  if (version && version[4] >= '0' && version[4] < '4' &&
      (version[5] == ',' || version[5] == '>')) {
    version[4] = '4';
    result = mlirAttributeParseGet(mlirAttributeGetContext(vce),
                                   mlirStringRefCreate(text.data, text.size));
  }
  coopvecBufferFree(&text);
  return result;
}

static bool endsWith(const char *text, const char *suffix) {
  size_t length = strlen(text), suffixLength = strlen(suffix);
  return length >= suffixLength &&
         strcmp(text + length - suffixLength, suffix) == 0;
}

/// Whether `variable` (a spirv.GlobalVariable) is an Input or Output one,
/// read off its pointer type's spelling.
static bool isInputOrOutput(MlirOperation variable) {
  MlirAttribute type = mlirOperationGetAttributeByName(
      variable, mlirStringRefCreateFromCString("type"));
  if (mlirAttributeIsNull(type) || !mlirAttributeIsAType(type))
    return false;
  CoopvecBuffer text = {0};
  mlirTypePrint(mlirTypeAttrGetValue(type), coopvecBufferCallback, &text);
  const char *spelling = coopvecBufferStr(&text);
  bool io = endsWith(spelling, ", Input>") || endsWith(spelling, ", Output>");
  coopvecBufferFree(&text);
  return io;
}

typedef struct Interfaces {
  MlirOperation module;
  bool listsResources; // an entry point lists a variable but Input/Output
} Interfaces;

static MlirWalkResult findResourceInterface(MlirOperation op, void *userData) {
  Interfaces *found = userData;
  if (!coopvecOpIsNamed(op, "spirv.EntryPoint"))
    return MlirWalkResultAdvance;
  MlirAttribute list = mlirOperationGetAttributeByName(
      op, mlirStringRefCreateFromCString("interface"));
  intptr_t count = mlirAttributeIsNull(list) || !mlirAttributeIsAArray(list)
                       ? 0
                       : mlirArrayAttrGetNumElements(list);
  for (intptr_t i = 0; i < count; ++i) {
    MlirAttribute symbol = mlirArrayAttrGetElement(list, i);
    if (!mlirAttributeIsAFlatSymbolRef(symbol))
      continue;
    MlirOperation variable = coopvecLookupSymbol(
        found->module, mlirFlatSymbolRefAttrGetValue(symbol));
    if (!mlirOperationIsNull(variable) &&
        coopvecOpIsNamed(variable, "spirv.GlobalVariable") &&
        !isInputOrOutput(variable)) {
      found->listsResources = true;
      return MlirWalkResultInterrupt;
    }
  }
  return MlirWalkResultAdvance;
}

static void runDeclare(MlirOperation module, MlirExternalPass pass,
                       const void *options) {
  (void)options;
  bool int64Atomics = false;
  mlirOperationWalk(module, findInt64Atomic, &int64Atomics, MlirWalkPreOrder);
  Interfaces interfaces = {module, false};
  mlirOperationWalk(module, findResourceInterface, &interfaces,
                    MlirWalkPreOrder);
  if (!int64Atomics && !interfaces.listsResources)
    return;
  MlirStringRef name = mlirStringRefCreateFromCString("vce_triple");
  MlirAttribute vce = mlirOperationGetAttributeByName(module, name);
  if (mlirAttributeIsNull(vce)) {
    coopvecEmitOpError(module,
                       "%s but no 'vce_triple' (%s runs after "
                       "spirv-update-vce)",
                       int64Atomics ? "has 64-bit atomics"
                                    : "lists storage buffers or workgroup "
                                      "memory in an entry point's interface",
                       passName);
    mlirExternalPassSignalFailure(pass);
    return;
  }
  MlirAttribute updated = int64Atomics ? withCapability(vce, "Int64Atomics")
                                       : (MlirAttribute){NULL};
  if (!mlirAttributeIsNull(updated))
    vce = updated;
  updated =
      interfaces.listsResources ? withVersion14(vce) : (MlirAttribute){NULL};
  if (!mlirAttributeIsNull(updated))
    vce = updated;
  mlirOperationSetAttributeByName(module, name, vce);
}

static MlirDialectHandle (*const declareDependentDialects[])(void) = {
    mlirGetDialectHandle__spirv__};

const CoopvecPassDef coopvecDeclareSPIRVCapabilitiesPassDef = {
    .argument = passName,
    .name = "CoopvecDeclareSPIRVCapabilities",
    .description = "Add to a spirv.module's VCE triple what "
                   "spirv-update-vce does not deduce: Int64Atomics where an "
                   "atomic acts on a 64-bit integer, and version 1.4 where "
                   "an entry point's interface lists a variable other than "
                   "Input / Output (run after spirv-update-vce)",
    .anchor = "spirv.module",
    .dependentDialects = declareDependentDialects,
    .numDependentDialects =
        sizeof(declareDependentDialects) / sizeof(declareDependentDialects[0]),
    .run = runDeclare,
};
