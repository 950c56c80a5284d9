//===- PassRegistry.c - The list of coopvec passes ------------------------===//
//
// MLIR 22's C API cannot register an external pass by name, so this table
// is the registry: the pipeline parser, coopvec-opt's flags and --help, and
// the embedding API all look passes up here. To add a pass, define its
// CoopvecPassDef in its own file and add one line below.
//
//===----------------------------------------------------------------------===//

#include "coopvec-c/Passes.h"

#include "Pass/PassDef.h"
#include "coopvec-c/Support.h"

#include <string.h>

extern const CoopvecPassDef coopvecVerifyPassDef;
extern const CoopvecPassDef coopvecCanonicalizePassDef;
extern const CoopvecPassDef coopvecConvertToCPUPassDef;
extern const CoopvecPassDef coopvecConvertToGPUPassDef;
extern const CoopvecPassDef coopvecPrepareNVVMPassDef;
extern const CoopvecPassDef coopvecCheckNVVMTargetPassDef;
extern const CoopvecPassDef coopvecPrepareSPIRVPassDef;
extern const CoopvecPassDef coopvecNestSPIRVPassDef;
extern const CoopvecPassDef coopvecDeclareSPIRVCapabilitiesPassDef;
extern const CoopvecPassDef coopvecFinishSPIRVPassDef;
extern const CoopvecPassDef coopvecLLVMLoopAnnotationsPassDef;
extern const CoopvecPassDef coopvecAutodiffPassDef;
extern const CoopvecPassDef coopvecInlinePassDef;
extern const CoopvecPassDef coopvecExpandMathPassDef;

static const CoopvecPassDef *const passDefs[] = {
    &coopvecVerifyPassDef,
    &coopvecCanonicalizePassDef,
    &coopvecConvertToCPUPassDef,
    &coopvecLLVMLoopAnnotationsPassDef,
    &coopvecAutodiffPassDef,
    &coopvecExpandMathPassDef,
    &coopvecInlinePassDef,
    &coopvecConvertToGPUPassDef,
    &coopvecPrepareNVVMPassDef,
    &coopvecCheckNVVMTargetPassDef,
    &coopvecPrepareSPIRVPassDef,
    &coopvecNestSPIRVPassDef,
    &coopvecDeclareSPIRVCapabilitiesPassDef,
    &coopvecFinishSPIRVPassDef,
};

extern const CoopvecPipelineDef coopvecLowerToCPUPipelineDef;
extern const CoopvecPipelineDef coopvecLowerToNVVMPipelineDef;
extern const CoopvecPipelineDef coopvecLowerToSPIRVPipelineDef;

static const CoopvecPipelineDef *const pipelineDefs[] = {
    &coopvecLowerToCPUPipelineDef,
    &coopvecLowerToNVVMPipelineDef,
    &coopvecLowerToSPIRVPipelineDef,
};

static const intptr_t numPipelineDefs =
    (intptr_t)(sizeof(pipelineDefs) / sizeof(pipelineDefs[0]));

intptr_t coopvecGetNumPipelines(void) { return numPipelineDefs; }

static const CoopvecPipelineDef *pipelineAt(intptr_t index) {
  return index >= 0 && index < numPipelineDefs ? pipelineDefs[index] : NULL;
}

MlirStringRef coopvecPipelineGetArgument(intptr_t index) {
  const CoopvecPipelineDef *def = pipelineAt(index);
  return mlirStringRefCreateFromCString(def ? def->argument : "");
}

MlirStringRef coopvecPipelineGetDescription(intptr_t index) {
  const CoopvecPipelineDef *def = pipelineAt(index);
  return mlirStringRefCreateFromCString(def ? def->description : "");
}

const CoopvecPipelineDef *coopvecLookupPipelineDef(MlirStringRef argument) {
  for (intptr_t i = 0; i < numPipelineDefs; ++i)
    if (strlen(pipelineDefs[i]->argument) == argument.length &&
        strncmp(pipelineDefs[i]->argument, argument.data, argument.length) == 0)
      return pipelineDefs[i];
  return NULL;
}

bool coopvecIsPipelineName(MlirStringRef argument) {
  return coopvecLookupPipelineDef(argument) != NULL;
}

static const intptr_t numPassDefs =
    (intptr_t)(sizeof(passDefs) / sizeof(passDefs[0]));

intptr_t coopvecGetNumPasses(void) { return numPassDefs; }

static const CoopvecPassDef *passAt(intptr_t index) {
  return index >= 0 && index < numPassDefs ? passDefs[index] : NULL;
}

MlirStringRef coopvecPassGetArgument(intptr_t index) {
  const CoopvecPassDef *def = passAt(index);
  return mlirStringRefCreateFromCString(def ? def->argument : "");
}

MlirStringRef coopvecPassGetDescription(intptr_t index) {
  const CoopvecPassDef *def = passAt(index);
  return mlirStringRefCreateFromCString(def ? def->description : "");
}

void coopvecPassPrintOptions(intptr_t index, MlirStringCallback callback,
                             void *userData) {
  const CoopvecPassDef *def = passAt(index);
  if (!def)
    return;
  static const char *kindNames[] = {"bool", "int", "string", "list"};
  for (size_t i = 0; i < def->numOptions; ++i) {
    const CoopvecPassOption *option = &def->options[i];
    CoopvecBuffer line = {0};
    coopvecBufferAppendf(&line, "%s=<%s> (default: %s) - %s\n", option->name,
                         kindNames[option->kind], option->defaultValue,
                         option->help);
    callback(mlirStringRefCreate(line.data, line.size), userData);
    coopvecBufferFree(&line);
  }
}

const CoopvecPassDef *coopvecLookupPassDef(MlirStringRef argument) {
  for (intptr_t i = 0; i < numPassDefs; ++i)
    if (strlen(passDefs[i]->argument) == argument.length &&
        strncmp(passDefs[i]->argument, argument.data, argument.length) == 0)
      return passDefs[i];
  return NULL;
}

bool coopvecIsPassName(MlirStringRef argument) {
  return coopvecLookupPassDef(argument) != NULL;
}

MlirPass coopvecCreatePass(MlirStringRef argument, MlirStringRef options,
                           MlirStringCallback errorCallback, void *userData) {
  const CoopvecPassDef *def = coopvecLookupPassDef(argument);
  if (!def) {
    CoopvecBuffer message = {0};
    coopvecBufferAppendf(&message, "'%.*s' is not a coopvec pass",
                         (int)argument.length, argument.data);
    if (errorCallback)
      errorCallback(mlirStringRefCreate(message.data, message.size), userData);
    coopvecBufferFree(&message);
    MlirPass null = {NULL};
    return null;
  }
  return coopvecCreatePassFromDef(def, options, errorCallback, userData);
}

MlirPass coopvecCreateVerifyPass(void) {
  return coopvecCreatePassFromDef(&coopvecVerifyPassDef,
                                  mlirStringRefCreate("", 0), NULL, NULL);
}

MlirPass coopvecCreateCanonicalizePass(void) {
  return coopvecCreatePassFromDef(&coopvecCanonicalizePassDef,
                                  mlirStringRefCreate("", 0), NULL, NULL);
}
