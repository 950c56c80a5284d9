//===- target.c - C API: LLVM IR, assembly and objects --------------------===//

// RUN: coopvec-capi-target 2>&1 | FileCheck %s

#include "coopvec-c/Coopvec.h"

#include <mlir-c/Diagnostics.h>

#include <stdio.h>
#include <string.h>

static void printToStderr(MlirStringRef text, void *userData) {
  (void)userData;
  fwrite(text.data, 1, text.length, stderr);
}

typedef struct Bytes {
  char head[4];
  size_t size;
} Bytes;

static void collectBytes(MlirStringRef text, void *userData) {
  Bytes *bytes = userData;
  for (size_t i = 0; i < text.length; ++i, ++bytes->size)
    if (bytes->size < sizeof(bytes->head))
      bytes->head[bytes->size] = text.data[i];
}

static MlirLogicalResult ignoreDiagnostic(MlirDiagnostic diagnostic,
                                          void *userData) {
  (void)diagnostic;
  (void)userData;
  return mlirLogicalResultSuccess();
}

static const char *llvmModule = "llvm.func @scale(%x: f32, %y: f32) -> f32 {\n"
                                "  %0 = llvm.fmul %x, %y : f32\n"
                                "  llvm.return %0 : f32\n"
                                "}\n";

int main(void) {
  MlirContext ctx = mlirContextCreate();
  if (mlirLogicalResultIsFailure(coopvecSetupContext(ctx)))
    return 1;
  MlirModule module =
      mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(llvmModule));
  if (mlirModuleIsNull(module))
    return 2;
  MlirOperation op = mlirModuleGetOperation(module);
  CoopvecTargetOptions options = coopvecTargetOptionsGetDefault();

  // CHECK: define float @scale(float %0, float %1)
  // CHECK: fmul float
  MlirLogicalResult ir =
      coopvecEmitLLVM(op, CoopvecEmitLLVMIR, &options, printToStderr, NULL,
                      printToStderr, NULL);
  // CHECK: llvm ir: 1
  fprintf(stderr, "llvm ir: %d\n", mlirLogicalResultIsSuccess(ir));

  Bytes object = {{0}, 0};
  MlirLogicalResult obj =
      coopvecEmitLLVM(op, CoopvecEmitObject, &options, collectBytes, &object,
                      printToStderr, NULL);
  // CHECK: object: 1 elf: 1
  fprintf(stderr, "object: %d elf: %d\n", mlirLogicalResultIsSuccess(obj),
          object.size > 4 && memcmp(object.head,
                                    "\x7f"
                                    "ELF",
                                    4) == 0);

  // CHECK: scale:
  options.cpu = "x86-64";
  options.optLevel = 0;
  coopvecEmitLLVM(op, CoopvecEmitAssembly, &options, printToStderr, NULL,
                  printToStderr, NULL);

  // CHECK: unknown target triple: {{.+}}
  options.triple = "nonsense-unknown-triple";
  coopvecEmitLLVM(op, CoopvecEmitObject, &options, collectBytes, &object,
                  printToStderr, NULL);
  fprintf(stderr, "\n");
  mlirModuleDestroy(module);

  // A module still in a non-LLVM dialect cannot be translated.
  MlirDiagnosticHandlerID handler =
      mlirContextAttachDiagnosticHandler(ctx, ignoreDiagnostic, NULL, NULL);
  module = mlirModuleCreateParse(
      ctx, mlirStringRefCreateFromCString(
               "func.func @f(%x: !coopvec.vec<4, f32>) {\n  return\n}\n"));
  // CHECK: cannot translate the module to LLVM IR
  MlirLogicalResult bad =
      coopvecEmitLLVM(mlirModuleGetOperation(module), CoopvecEmitLLVMIR, NULL,
                      printToStderr, NULL, printToStderr, NULL);
  // CHECK: untranslatable: 0
  fprintf(stderr, "\nuntranslatable: %d\n", mlirLogicalResultIsSuccess(bad));
  mlirContextDetachDiagnosticHandler(ctx, handler);
  mlirModuleDestroy(module);
  mlirContextDestroy(ctx);
  return 0;
}
