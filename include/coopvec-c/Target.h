/*===- coopvec-c/Target.h - LLVM IR and native code from MLIR -----*- C -*-===*\
|*                                                                            *|
|* Turns a module in the LLVM dialect (e.g. after coopvec-lower-to-cpu) into  *|
|* LLVM IR text, native assembly or a native object file, optimized for the   *|
|* host or a given CPU, so lowered code links into a C program without MLIR;  *|
|* a module after coopvec-lower-to-nvvm into PTX text or a cubin; and one     *|
|* after coopvec-lower-to-spirv into SPIR-V words.                            *|
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

typedef enum CoopvecGPUEmitKind {
  CoopvecEmitPTX,   // the PTX text of the NVVM object
  CoopvecEmitCubin, // that PTX assembled by ptxas for the object's chip
} CoopvecGPUEmitKind;

/// Writes the NVVM object of the `gpu.binary` in `module` (what
/// coopvec-lower-to-nvvm leaves: one object holding PTX text) as `kind`,
/// streaming the bytes to `output`; the PTX is not NUL-terminated (use the
/// length). A cubin comes from running `ptxas -arch=<the object's chip>`:
/// the one named by the environment variable COOPVEC_PTXAS if set, else
/// `ptxas` on PATH, else /usr/local/cuda/bin/ptxas. Errors (no such
/// object, no ptxas, ptxas's messages) go to `errorCallback`.
COOPVEC_EXPORT MlirLogicalResult
coopvecEmitGPU(MlirOperation module, CoopvecGPUEmitKind kind,
               MlirStringCallback output, void *outputUserData,
               MlirStringCallback errorCallback, void *errorUserData);

/// Writes the SPIR-V words of `module` after coopvec-lower-to-spirv to
/// `output` (host byte order; the length is a multiple of 4): the one
/// SPIR-V `#gpu.object` of its `gpu.binary` (binary=true), or, for
/// binary=false, the `spirv.module` inside its one `gpu.module`, serialized
/// by gpu-module-to-binary on a clone (`module` is not changed). A module
/// with no SPIR-V, or with more than one SPIR-V module, is an error; errors
/// go to `errorCallback`. With `coopvecBufferCallback` (coopvec-c/Support.h)
/// the words land in a CoopvecBuffer.
COOPVEC_EXPORT MlirLogicalResult coopvecEmitSPIRV(
    MlirOperation module, MlirStringCallback output, void *outputUserData,
    MlirStringCallback errorCallback, void *errorUserData);

#ifdef __cplusplus
}
#endif

#endif // COOPVEC_C_TARGET_H
