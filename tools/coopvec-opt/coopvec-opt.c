//===- coopvec-opt.c - The coopvec optimizer driver -----------------------===//
//
// An mlir-opt for the coopvec dialect, written against MLIR's C API: reads
// MLIR (a file or stdin, optionally split on `// -----`), checks it with the
// coopvec verifier, runs a pass pipeline that mixes coopvec and upstream
// passes, and prints the result. docs/coopvec-opt.md describes the options.
//
//===----------------------------------------------------------------------===//

#include "Driver.h"

#include "coopvec-c/Coopvec.h"

#include <mlir-c/IR.h>
#include <mlir-c/Pass.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

typedef struct Driver {
  const DriverOptions *options;
  SourceFile source;
  MlirContext context;
  DiagEngine diagnostics;
  MlirPassManager passManager;
  MlirOpPrintingFlags printingFlags;
  CoopvecBuffer output;
} Driver;

static void printToStderr(MlirStringRef text, void *userData) {
  (void)userData;
  fwrite(text.data, 1, text.length, stderr);
}

static MlirOpPrintingFlags createPrintingFlags(const DriverOptions *options) {
  MlirOpPrintingFlags flags = mlirOpPrintingFlagsCreate();
  if (options->printDebugInfo)
    mlirOpPrintingFlagsEnableDebugInfo(flags, /*enable=*/true,
                                       /*prettyForm=*/false);
  if (options->printGenericForm)
    mlirOpPrintingFlagsPrintGenericOpForm(flags);
  return flags;
}

static void configurePassManager(Driver *driver) {
  const DriverOptions *options = driver->options;
  MlirPassManager pm = driver->passManager;
  mlirPassManagerEnableVerifier(pm, options->verifyEach);
  bool printAfter = options->printIRAfterAll || options->printIRAfterChange ||
                    options->printIRAfterFailure;
  if (options->printIRBeforeAll || printAfter)
    mlirPassManagerEnableIRPrinting(
        pm, options->printIRBeforeAll, printAfter, options->printIRModuleScope,
        options->printIRAfterChange, options->printIRAfterFailure,
        driver->printingFlags, mlirStringRefCreate(NULL, 0));
  if (options->timing)
    mlirPassManagerEnableTiming(pm);
}

/// Builds the pass manager from --pass-pipeline or the pass flags. Errors in
/// the pipeline text come with a caret under the offending column.
static bool setUpPassManager(Driver *driver) {
  CoopvecBuffer pipeline = {0};
  bool ok = buildPipelineText(driver->context, driver->options, &pipeline);
  if (ok) {
    // Anchored on builtin.module like mlir-opt (mlirPassManagerCreate would
    // anchor on "any", and `builtin.module(...)` would then nest).
    driver->passManager = mlirPassManagerCreateOnOperation(
        driver->context, mlirStringRefCreateFromCString("builtin.module"));
    configurePassManager(driver);
    ok = mlirLogicalResultIsSuccess(coopvecParsePassPipeline(
        mlirPassManagerGetAsOpPassManager(driver->passManager),
        mlirStringRefCreate(pipeline.data, pipeline.size),
        driver->options->verifyEach, printToStderr, NULL));
  }
  coopvecBufferFree(&pipeline);
  return ok;
}

static void printEmitError(MlirStringRef text, void *userData) {
  (void)userData;
  fprintf(stderr, "coopvec-opt: error: %.*s\n", (int)text.length, text.data);
}

/// Parses, verifies, transforms and prints one chunk. Returns whether all
/// of that succeeded.
static bool runOnText(Driver *driver, const char *text, size_t size) {
  MlirOperation module =
      parseModule(driver->context, &driver->diagnostics, text, size);
  if (mlirOperationIsNull(module))
    return false;
  bool ok = mlirLogicalResultIsSuccess(coopvecVerify(module)) &&
            mlirLogicalResultIsSuccess(
                mlirPassManagerRunOnOp(driver->passManager, module));
  if (ok && driver->options->emitLLVM) {
    ok = mlirLogicalResultIsSuccess(coopvecEmitLLVM(
        module, driver->options->emitKind, &driver->options->target,
        coopvecBufferCallback, &driver->output, printEmitError, NULL));
  } else if (ok && driver->options->emitGPU) {
    ok = mlirLogicalResultIsSuccess(coopvecEmitGPU(
        module, driver->options->gpuEmitKind, coopvecBufferCallback,
        &driver->output, printEmitError, NULL));
  } else if (ok && driver->options->emitSPIRV) {
    ok = mlirLogicalResultIsSuccess(coopvecEmitSPIRV(
        module, coopvecBufferCallback, &driver->output, printEmitError, NULL));
  } else if (ok) {
    mlirOperationPrintWithFlags(module, driver->printingFlags,
                                coopvecBufferCallback, &driver->output);
    coopvecBufferAppendStr(&driver->output, "\n");
  }
  mlirOperationDestroy(module);
  return ok;
}

/// Processes one chunk; with --verify-diagnostics its success is whether the
/// diagnostics matched the expected-* comments, as in mlir-opt.
static bool processChunk(Driver *driver, SourceChunk chunk) {
  CoopvecBuffer text = {0};
  getPaddedChunk(&driver->source, chunk, &text);
  DiagEngine *diagnostics = &driver->diagnostics;
  ExpectationList *expected = NULL;
  if (driver->options->verifyDiagnostics) {
    expected = collectExpectations(&driver->source, text.data, text.size);
    if (!expected) {
      coopvecBufferFree(&text);
      return false;
    }
    diagnostics->recording = true;
  }
  diagnostics->sawError = false;
  bool ok = runOnText(driver, text.data, text.size);
  if (expected) {
    ok = checkExpectations(&driver->source, expected, &diagnostics->recorded);
    clearDiagList(&diagnostics->recorded);
    diagnostics->recording = false;
    freeExpectations(expected);
  } else {
    ok = ok && !diagnostics->sawError;
  }
  coopvecBufferFree(&text);
  return ok;
}

/// A failing chunk does not stop the others, as in mlir-opt.
static bool processChunks(Driver *driver) {
  SourceChunk *chunks;
  size_t numChunks =
      splitSource(&driver->source, driver->options->splitInputFile, &chunks);
  bool ok = true;
  for (size_t i = 0; i < numChunks; ++i) {
    if (i)
      coopvecBufferAppendStr(&driver->output, "// -----\n");
    ok &= processChunk(driver, chunks[i]);
  }
  free(chunks);
  return ok;
}

/// Writes the output. Like mlir-opt, an -o file is only written on success;
/// stdout gets whatever was produced.
static bool writeOutput(const char *path, const CoopvecBuffer *output,
                        bool succeeded) {
  if (!path || strcmp(path, "-") == 0) {
    fwrite(coopvecBufferStr(output), 1, output->size, stdout);
    return fflush(stdout) == 0;
  }
  if (!succeeded)
    return true;
  FILE *file = fopen(path, "wb");
  if (!file) {
    fprintf(stderr, "coopvec-opt: error: cannot open output file '%s': %s\n",
            path, strerror(errno));
    return false;
  }
  bool written =
      fwrite(coopvecBufferStr(output), 1, output->size, file) == output->size;
  if (fclose(file) != 0 || !written) {
    fprintf(stderr, "coopvec-opt: error: cannot write output file '%s'\n",
            path);
    return false;
  }
  return true;
}

static void destroyDriver(Driver *driver) {
  if (driver->passManager.ptr)
    mlirPassManagerDestroy(driver->passManager);
  mlirOpPrintingFlagsDestroy(driver->printingFlags);
  detachDiagEngine(&driver->diagnostics);
  mlirContextDestroy(driver->context);
  coopvecBufferFree(&driver->output);
  freeSource(&driver->source);
}

static int runDriver(const DriverOptions *options) {
  Driver driver = {.options = options};
  if (!readSource(options->inputPath, &driver.source))
    return 1;
  driver.context = mlirContextCreate();
  attachDiagEngine(&driver.diagnostics, driver.context, &driver.source);
  driver.printingFlags = createPrintingFlags(options);
  bool ok = mlirLogicalResultIsSuccess(coopvecSetupContext(driver.context));
  mlirContextSetAllowUnregisteredDialects(driver.context,
                                          options->allowUnregisteredDialect);
  ok = ok && setUpPassManager(&driver);
  if (ok) {
    ok = processChunks(&driver);
    ok &= writeOutput(options->outputPath, &driver.output, ok);
  }
  destroyDriver(&driver);
  return ok ? 0 : 1;
}

/// --help, --version, --list-passes and --emit-irdl print and exit.
static bool runInformationalOption(const DriverOptions *options) {
  if (options->showHelp)
    printHelp(stdout);
  else if (options->showVersion)
    printVersion(stdout);
  else if (options->listPasses)
    printPassList(stdout);
  else if (options->emitIRDL) {
    MlirStringRef irdl = coopvecGetIRDLSource();
    fwrite(irdl.data, 1, irdl.length, stdout);
  } else
    return false;
  return true;
}

int main(int argc, char **argv) {
  DriverOptions options;
  int status = 1;
  if (parseCommandLine(argc, argv, &options))
    status = runInformationalOption(&options) ? 0 : runDriver(&options);
  freeCommandLine(&options);
  return status;
}
