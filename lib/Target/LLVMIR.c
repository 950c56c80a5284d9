//===- LLVMIR.c - LLVM IR, assembly and objects from the LLVM dialect -----===//
//
// MLIR's C API translates the LLVM dialect to an LLVMModuleRef; from there
// LLVM's own C API (libLLVM.so) optimizes it with the new pass manager and
// runs the native code generator. This is what `coopvec-opt --emit=llvm` and
// `--emit=obj` use.
//
//===----------------------------------------------------------------------===//

#include "coopvec-c/Target.h"

#include "coopvec-c/Support.h"

#include "Target/CPUTarget.h"

#include <llvm-c/Core.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>
#include <llvm-c/Transforms/PassBuilder.h>
#include <mlir-c/Target/LLVMIR.h>

#include <stdio.h>
#include <string.h>

CoopvecTargetOptions coopvecTargetOptionsGetDefault(void) {
  CoopvecTargetOptions options = {3, NULL, NULL, NULL};
  return options;
}

static void reportError(MlirStringCallback callback, void *userData,
                        const char *prefix, const char *detail) {
  if (!callback)
    return;
  CoopvecBuffer message = {0};
  coopvecBufferAppendf(&message, "%s%s%s", prefix, detail ? ": " : "",
                       detail ? detail : "");
  callback(mlirStringRefCreate(message.data, message.size), userData);
  coopvecBufferFree(&message);
}

/// Creates a target machine for `options`; NULL after reporting an error.
static LLVMTargetMachineRef
createTargetMachine(const CoopvecTargetOptions *options,
                    MlirStringCallback errorCallback, void *errorUserData) {
  // Every target LLVM was built with, for cross-compilation.
  LLVMInitializeAllTargetInfos();
  LLVMInitializeAllTargets();
  LLVMInitializeAllTargetMCs();
  LLVMInitializeAllAsmPrinters();
  char *hostTriple = LLVMGetDefaultTargetTriple();
  char *hostCPU = LLVMGetHostCPUName();
  char *hostFeatures = LLVMGetHostCPUFeatures();
  const char *triple = options->triple ? options->triple : hostTriple;
  const char *cpu = options->cpu ? options->cpu : hostCPU;
  const char *features = options->features ? options->features
                         : options->cpu    ? ""
                                           : hostFeatures;
  LLVMTargetRef target = NULL;
  char *error = NULL;
  LLVMTargetMachineRef machine = NULL;
  if (LLVMGetTargetFromTriple(triple, &target, &error)) {
    reportError(errorCallback, errorUserData, "unknown target triple", error);
    LLVMDisposeMessage(error);
  } else if (!coopvecCPUNameIsKnown(triple, cpu)) {
    // LLVM would only warn and generate code for a generic CPU.
    CoopvecBuffer message = {0};
    coopvecBufferAppendf(&message,
                         "'%s' for '%s' (see `llc -mtriple=%s "
                         "-mcpu=help`)",
                         cpu, triple, triple);
    reportError(errorCallback, errorUserData, "unknown target CPU",
                coopvecBufferStr(&message));
    coopvecBufferFree(&message);
  } else {
    LLVMCodeGenOptLevel level =
        options->optLevel >= 3   ? LLVMCodeGenLevelAggressive
        : options->optLevel == 2 ? LLVMCodeGenLevelDefault
        : options->optLevel == 1 ? LLVMCodeGenLevelLess
                                 : LLVMCodeGenLevelNone;
    machine = LLVMCreateTargetMachine(target, triple, cpu, features, level,
                                      LLVMRelocPIC, LLVMCodeModelDefault);
    if (!machine)
      reportError(errorCallback, errorUserData,
                  "cannot create a target machine for", triple);
  }
  LLVMDisposeMessage(hostTriple);
  LLVMDisposeMessage(hostCPU);
  LLVMDisposeMessage(hostFeatures);
  return machine;
}

static bool optimize(LLVMModuleRef module, LLVMTargetMachineRef machine,
                     int optLevel, MlirStringCallback errorCallback,
                     void *errorUserData) {
  char pipeline[32];
  snprintf(pipeline, sizeof(pipeline), "default<O%d>",
           optLevel < 0   ? 0
           : optLevel > 3 ? 3
                          : optLevel);
  LLVMPassBuilderOptionsRef passOptions = LLVMCreatePassBuilderOptions();
  LLVMErrorRef error = LLVMRunPasses(module, pipeline, machine, passOptions);
  LLVMDisposePassBuilderOptions(passOptions);
  if (!error)
    return true;
  char *message = LLVMGetErrorMessage(error);
  reportError(errorCallback, errorUserData, "LLVM optimization failed",
              message);
  LLVMDisposeErrorMessage(message);
  return false;
}

static bool emit(LLVMModuleRef module, LLVMTargetMachineRef machine,
                 CoopvecEmitKind kind, MlirStringCallback output,
                 void *outputUserData, MlirStringCallback errorCallback,
                 void *errorUserData) {
  if (kind == CoopvecEmitLLVMIR) {
    char *text = LLVMPrintModuleToString(module);
    output(mlirStringRefCreateFromCString(text), outputUserData);
    LLVMDisposeMessage(text);
    return true;
  }
  LLVMMemoryBufferRef buffer = NULL;
  char *error = NULL;
  LLVMCodeGenFileType fileType =
      kind == CoopvecEmitObject ? LLVMObjectFile : LLVMAssemblyFile;
  if (LLVMTargetMachineEmitToMemoryBuffer(machine, module, fileType, &error,
                                          &buffer)) {
    reportError(errorCallback, errorUserData, "code generation failed", error);
    LLVMDisposeMessage(error);
    return false;
  }
  output(mlirStringRefCreate(LLVMGetBufferStart(buffer),
                             LLVMGetBufferSize(buffer)),
         outputUserData);
  LLVMDisposeMemoryBuffer(buffer);
  return true;
}

MlirLogicalResult coopvecEmitLLVM(MlirOperation module, CoopvecEmitKind kind,
                                  const CoopvecTargetOptions *options,
                                  MlirStringCallback output,
                                  void *outputUserData,
                                  MlirStringCallback errorCallback,
                                  void *errorUserData) {
  CoopvecTargetOptions defaults = coopvecTargetOptionsGetDefault();
  if (!options)
    options = &defaults;
  LLVMContextRef llvmContext = LLVMContextCreate();
  LLVMModuleRef llvmModule = mlirTranslateModuleToLLVMIR(module, llvmContext);
  bool ok = false;
  if (!llvmModule) {
    reportError(errorCallback, errorUserData,
                "cannot translate the module to LLVM IR (it must contain "
                "only LLVM-dialect ops; run coopvec-lower-to-cpu first)",
                NULL);
  } else {
    LLVMTargetMachineRef machine =
        createTargetMachine(options, errorCallback, errorUserData);
    if (machine) {
      char *triple = LLVMGetTargetMachineTriple(machine);
      LLVMSetTarget(llvmModule, triple);
      LLVMDisposeMessage(triple);
      LLVMTargetDataRef layout = LLVMCreateTargetDataLayout(machine);
      LLVMSetModuleDataLayout(llvmModule, layout);
      LLVMDisposeTargetData(layout);
      ok = optimize(llvmModule, machine, options->optLevel, errorCallback,
                    errorUserData) &&
           emit(llvmModule, machine, kind, output, outputUserData,
                errorCallback, errorUserData);
      LLVMDisposeTargetMachine(machine);
    }
    LLVMDisposeModule(llvmModule);
  }
  LLVMContextDispose(llvmContext);
  return ok ? mlirLogicalResultSuccess() : mlirLogicalResultFailure();
}
