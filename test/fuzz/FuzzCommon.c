//===- FuzzCommon.c - What the fuzz harnesses share -----------------------===//

#include "FuzzCommon.h"

#include "coopvec-c/Coopvec.h"

#include <mlir-c/Diagnostics.h>
#include <mlir-c/Pass.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static MlirContext context;
static int errorCount;

/// Whether COOPVEC_FUZZ_VERBOSE is set (read once).
static bool isVerbose(void) {
  static int verbose = -1;
  if (verbose < 0)
    verbose = getenv("COOPVEC_FUZZ_VERBOSE") != NULL;
  return verbose;
}

static void printToStderr(MlirStringRef text, void *userData) {
  (void)userData;
  fwrite(text.data, 1, text.length, stderr);
}

static MlirLogicalResult countDiagnostic(MlirDiagnostic diagnostic,
                                         void *userData) {
  (void)userData;
  if (mlirDiagnosticGetSeverity(diagnostic) == MlirDiagnosticError)
    ++errorCount;
  if (isVerbose()) {
    mlirDiagnosticPrint(diagnostic, printToStderr, NULL);
    fputc('\n', stderr);
  }
  return mlirLogicalResultSuccess(); // handled: nothing is printed
}

MlirContext coopvecFuzzContext(void) {
  if (!mlirContextIsNull(context))
    return context;
  context = mlirContextCreate();
  if (mlirLogicalResultIsFailure(coopvecSetupContext(context)))
    coopvecFuzzFail("coopvecSetupContext failed");
  mlirContextAttachDiagnosticHandler(context, countDiagnostic, NULL, NULL);
  return context;
}

void coopvecFuzzBeginInput(void) {
  static unsigned inputs;
  if (++inputs % 64 != 0 || mlirContextIsNull(context))
    return;
  mlirContextDestroy(context);
  context = (MlirContext){NULL};
  coopvecFuzzContext();
}

MlirStringCallback coopvecFuzzErrorCallback(void) {
  return isVerbose() ? printToStderr : NULL;
}

int coopvecFuzzErrorCount(void) { return errorCount; }

void coopvecFuzzResetErrors(void) { errorCount = 0; }

char *coopvecFuzzCopyText(const uint8_t *data, size_t size) {
  char *text = malloc(size + 1);
  if (!text)
    coopvecFuzzFail("out of memory");
  if (size)
    memcpy(text, data, size);
  text[size] = '\0';
  return text;
}

MlirModule coopvecFuzzParse(const char *text, size_t length) {
  return mlirModuleCreateParse(coopvecFuzzContext(),
                               mlirStringRefCreate(text, length));
}

bool coopvecFuzzVerify(MlirOperation op) {
  return mlirOperationVerify(op) &&
         mlirLogicalResultIsSuccess(coopvecVerify(op));
}

CoopvecFuzzPipelineResult coopvecFuzzRunPipeline(MlirOperation module,
                                                 const char *pipeline,
                                                 size_t length,
                                                 bool verifyEach) {
  MlirContext ctx = coopvecFuzzContext();
  MlirPassManager pm = mlirPassManagerCreateOnOperation(
      ctx, mlirStringRefCreateFromCString("builtin.module"));
  mlirPassManagerEnableVerifier(pm, verifyEach);
  CoopvecFuzzPipelineResult result = CoopvecFuzzPipelineInvalid;
  if (mlirLogicalResultIsSuccess(coopvecParsePassPipeline(
          mlirPassManagerGetAsOpPassManager(pm),
          mlirStringRefCreate(pipeline, length), verifyEach,
          coopvecFuzzErrorCallback(), NULL)))
    result = mlirLogicalResultIsSuccess(mlirPassManagerRunOnOp(pm, module))
                 ? CoopvecFuzzPipelineSucceeded
                 : CoopvecFuzzPipelineFailed;
  mlirPassManagerDestroy(pm);
  return result;
}

_Noreturn void coopvecFuzzFail(const char *what) {
  fprintf(stderr, "coopvec fuzz: broken invariant: %s\n", what);
  fflush(stderr);
  abort();
}
