/*===- coopvec-c/Target.h - LLVM IR and native code from MLIR -----*- C -*-===*\
|*                                                                            *|
|* Turns a module in the LLVM dialect (e.g. after coopvec-lower-to-cpu) into  *|
|* LLVM IR text, native assembly or a native object file, optimized for the   *|
|* host or a given CPU, so lowered code links into a C program without MLIR.  *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef COOPVEC_C_TARGET_H
#define COOPVEC_C_TARGET_H

#include "coopvec-c/Export.h"

#include <mlir-c/IR.h>
#include <mlir-c/Support.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum CoopvecEmitKind {
  CoopvecEmitLLVMIR,   // textual LLVM IR (after optimization)
  CoopvecEmitAssembly, // native assembly
  CoopvecEmitObject,   // a relocatable native object file (ELF on Linux)
} CoopvecEmitKind;

typedef struct CoopvecTargetOptions {
  int optLevel;         // 0..3, the LLVM pipeline default<On>
  const char *triple;   // NULL: the host's
  const char *cpu;      // NULL: the host CPU ("native")
  const char *features; // NULL: the host CPU's features (with cpu == NULL)
} CoopvecTargetOptions;

/// Default options: -O3 for the host CPU.
COOPVEC_EXPORT CoopvecTargetOptions coopvecTargetOptionsGetDefault(void);

/// Translates `module` (LLVM dialect only) to LLVM IR, optimizes it and emits
/// `kind`, streaming the bytes to `output`. Errors go to `errorCallback`
/// (translation errors also to the context's diagnostic handlers).
COOPVEC_EXPORT MlirLogicalResult
coopvecEmitLLVM(MlirOperation module, CoopvecEmitKind kind,
                const CoopvecTargetOptions *options, MlirStringCallback output,
                void *outputUserData, MlirStringCallback errorCallback,
                void *errorUserData);

#ifdef __cplusplus
}
#endif

#endif // COOPVEC_C_TARGET_H
