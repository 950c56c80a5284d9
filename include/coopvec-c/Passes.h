/*===- coopvec-c/Passes.h - coopvec passes and pipelines ----------*- C -*-===*\
|*                                                                            *|
|* Every coopvec pass can be created as an MlirPass, by name or through its  *|
|* own constructor. MLIR 22's C API has no registry for external passes, so  *|
|* textual pipelines that mix coopvec and upstream passes are parsed here.    *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef COOPVEC_C_PASSES_H
#define COOPVEC_C_PASSES_H

#include "coopvec-c/Export.h"

#include <mlir-c/IR.h>
#include <mlir-c/Pass.h>
#include <mlir-c/Support.h>

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Number of coopvec passes, and their command-line arguments
/// ("coopvec-verify", ...) and one-line descriptions, by index.
COOPVEC_EXPORT intptr_t coopvecGetNumPasses(void);
COOPVEC_EXPORT MlirStringRef coopvecPassGetArgument(intptr_t index);
COOPVEC_EXPORT MlirStringRef coopvecPassGetDescription(intptr_t index);
/// Prints the options of pass `index` (one line each: name, kind, default,
/// help) through `callback`.
COOPVEC_EXPORT void coopvecPassPrintOptions(intptr_t index,
                                            MlirStringCallback callback,
                                            void *userData);
/// Whether `argument` names a coopvec pass.
COOPVEC_EXPORT bool coopvecIsPassName(MlirStringRef argument);

/// Registered pipelines (`coopvec-lower-to-cpu`): names that
/// coopvecParsePassPipeline expands into a list of passes, each with a
/// one-line description, by index.
COOPVEC_EXPORT intptr_t coopvecGetNumPipelines(void);
COOPVEC_EXPORT MlirStringRef coopvecPipelineGetArgument(intptr_t index);
COOPVEC_EXPORT MlirStringRef coopvecPipelineGetDescription(intptr_t index);
/// Whether `argument` names a registered coopvec pipeline.
COOPVEC_EXPORT bool coopvecIsPipelineName(MlirStringRef argument);

/// Creates the coopvec pass named `argument` with `options` (the text
/// between the braces of `pass{a=1 b=true}`, may be empty). On an unknown
/// name or a bad option, reports through `errorCallback` and returns a null
/// pass.
COOPVEC_EXPORT MlirPass coopvecCreatePass(MlirStringRef argument,
                                          MlirStringRef options,
                                          MlirStringCallback errorCallback,
                                          void *userData);

/// The semantic verifier: checks what IRDL cannot express.
COOPVEC_EXPORT MlirPass coopvecCreateVerifyPass(void);
/// Runs the semantic verifier on `op` directly: MLIR's verifier (and so the
/// IRDL constraints) first, then the coopvec rules. Diagnostics go to the
/// context's handlers.
COOPVEC_EXPORT MlirLogicalResult coopvecVerify(MlirOperation op);
/// coopvec-canonicalize with default options.
COOPVEC_EXPORT MlirPass coopvecCreateCanonicalizePass(void);

/// Parses a textual pass pipeline that mixes coopvec and upstream passes and
/// adds it to `passManager`. Accepts either a bare element list
/// (`coopvec-canonicalize,func.func(cse)`) or one anchored on the pass
/// manager's own operation (`builtin.module(...)`). Elements may nest
/// (`func.func(...)`) and take options (`pass{key=value}`). When
/// `verifyEach` is set, coopvec-verify runs after every pass. Always,
/// coopvec-check-nvvm-target runs before every upstream gpu-module-to-binary
/// (and gpu-lower-to-nvvm-pipeline), and the chip and features options of
/// nvvm-attach-target are checked here, so that LLVM's NVPTX backend cannot
/// exit the process on a target it rejects. Errors name the column in the
/// pipeline text and go to `errorCallback`.
COOPVEC_EXPORT MlirLogicalResult coopvecParsePassPipeline(
    MlirOpPassManager passManager, MlirStringRef pipeline, bool verifyEach,
    MlirStringCallback errorCallback, void *userData);

#ifdef __cplusplus
}
#endif

#endif // COOPVEC_C_PASSES_H
