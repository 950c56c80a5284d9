//===- NestSPIRV.c - coopvec-nest-spirv -----------------------------------===//
//
// `convert-gpu-to-spirv` puts the `spirv.module @__spv__<name>` it makes
// *beside* `gpu.module @<name>`, but `gpu-module-to-binary` serializes the
// spirv.module found *inside* a gpu.module (without the move it fails with
// "An error happened while serializing the module"). This pass moves each
// spirv.module into its gpu.module and erases the gpu.funcs it replaces,
// after copying their `coopvec.*` attributes (block size, subgroup size,
// workgroup memory) to the spirv.func of the same name, so that a caller
// stopping before serialization still reads the launch contract there.
//
//===----------------------------------------------------------------------===//

#include "Dialect/Verifier.h"
#include "Pass/PassDef.h"
#include "Support/Alloc.h"

#include "coopvec-c/Support.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/Dialect/GPU.h>
#include <mlir-c/Dialect/SPIRV.h>

#include <stdlib.h>
#include <string.h>

static const char passName[] = "coopvec-nest-spirv";
static const char prefix[] = "__spv__";

static MlirStringRef symbolName(MlirOperation op) {
  MlirAttribute name = mlirOperationGetAttributeByName(
      op, mlirStringRefCreateFromCString("sym_name"));
  return mlirAttributeIsNull(name) || !mlirAttributeIsAString(name)
             ? mlirStringRefCreate("", 0)
             : mlirStringAttrGetValue(name);
}

static bool nameIs(MlirStringRef name, const char *data, size_t length) {
  return name.length == length && strncmp(name.data, data, length) == 0;
}

static MlirBlock bodyOf(MlirOperation op) {
  return mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0));
}

/// The op of `block` named `name` (a `kind`), or null.
static MlirOperation findNamed(MlirBlock block, const char *kind,
                               MlirStringRef name) {
  for (MlirOperation op = mlirBlockGetFirstOperation(block);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    if (coopvecOpIsNamed(op, kind) &&
        nameIs(symbolName(op), name.data, name.length))
      return op;
  return (MlirOperation){NULL};
}

/// Copies the `coopvec.*` attributes of `from` to `to`.
static void copyCoopvecAttributes(MlirOperation from, MlirOperation to) {
  for (intptr_t i = 0; i < mlirOperationGetNumDiscardableAttributes(from);
       ++i) {
    MlirNamedAttribute attr = mlirOperationGetDiscardableAttribute(from, i);
    MlirStringRef name = mlirIdentifierStr(attr.name);
    if (name.length > 8 && strncmp(name.data, "coopvec.", 8) == 0)
      mlirOperationSetDiscardableAttributeByName(to, name, attr.attribute);
  }
}

/// Moves `spirvModule` into `gpuModule`, which then holds it alone.
static void nest(MlirOperation spirvModule, MlirOperation gpuModule) {
  MlirBlock body = bodyOf(gpuModule);
  MlirOperation first = mlirBlockGetFirstOperation(body);
  if (mlirOperationIsNull(first)) {
    mlirOperationRemoveFromParent(spirvModule);
    mlirBlockAppendOwnedOperation(body, spirvModule);
  } else {
    mlirOperationMoveBefore(spirvModule, first);
  }
  MlirBlock spirvBody = bodyOf(spirvModule);
  MlirOperation op = mlirOperationGetNextInBlock(spirvModule);
  while (!mlirOperationIsNull(op)) {
    MlirOperation next = mlirOperationGetNextInBlock(op);
    if (coopvecOpIsNamed(op, "gpu.func")) {
      MlirOperation func = findNamed(spirvBody, "spirv.func", symbolName(op));
      if (!mlirOperationIsNull(func))
        copyCoopvecAttributes(op, func);
      mlirOperationDestroy(op);
    }
    op = next;
  }
}

static void runNest(MlirOperation module, MlirExternalPass pass,
                    const void *options) {
  (void)options;
  MlirBlock body = bodyOf(module);
  MlirOperation *spirvModules = NULL;
  intptr_t count = 0, capacity = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    if (coopvecOpIsNamed(op, "spirv.module")) {
      spirvModules = coopvecGrowArray(spirvModules, &capacity, count + 1,
                                      sizeof(MlirOperation));
      spirvModules[count++] = op;
    }
  bool ok = true;
  size_t prefixLength = strlen(prefix);
  for (intptr_t i = 0; ok && i < count; ++i) {
    MlirStringRef name = symbolName(spirvModules[i]);
    MlirOperation gpuModule = {NULL};
    if (name.length > prefixLength &&
        strncmp(name.data, prefix, prefixLength) == 0)
      gpuModule = findNamed(body, "gpu.module",
                            mlirStringRefCreate(name.data + prefixLength,
                                                name.length - prefixLength));
    if (mlirOperationIsNull(gpuModule)) {
      coopvecEmitOpError(spirvModules[i],
                         "is not named @__spv__<name> after a gpu.module "
                         "@<name> beside it (what convert-gpu-to-spirv "
                         "makes); %s cannot place it",
                         passName);
      ok = false;
      break;
    }
    nest(spirvModules[i], gpuModule);
  }
  free(spirvModules);
  if (!ok)
    mlirExternalPassSignalFailure(pass);
}

static MlirDialectHandle (*const nestDependentDialects[])(void) = {
    mlirGetDialectHandle__gpu__,
    mlirGetDialectHandle__spirv__,
};

const CoopvecPassDef coopvecNestSPIRVPassDef = {
    .argument = "coopvec-nest-spirv",
    .name = "CoopvecNestSPIRV",
    .description = "Move each spirv.module that convert-gpu-to-spirv put "
                   "beside its gpu.module into it, in place of the gpu.funcs "
                   "(their coopvec.* attributes go to the spirv.funcs), so "
                   "that gpu-module-to-binary serializes it",
    .anchor = "builtin.module",
    .dependentDialects = nestDependentDialects,
    .numDependentDialects =
        sizeof(nestDependentDialects) / sizeof(nestDependentDialects[0]),
    .run = runNest,
};
