//===- coopvec-run.c - Run coopvec functions with the CPU JIT -------------===//
//
// coopvec-run FILE --entry=NAME --batch=N [--arg=X.npy ...] [--random]
//   [--check] [--out=PREFIX] ...   (docs/coopvec-run.md)
//
// A client of the public headers: the execution engine lowers a clone of
// FILE with coopvec-lower-to-cpu, JIT-compiles it and runs NAME_batched for
// N threads on .npy (or random) inputs; the outputs are written as .npy,
// and with --check compared with the reference interpreter run on the
// original module.
//
//===----------------------------------------------------------------------===//

#include "Runner.h"

#include "coopvec-c/Coopvec.h"

#include <mlir-c/Diagnostics.h>

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void runError(const char *format, ...) {
  va_list args;
  va_start(args, format);
  fprintf(stderr, "coopvec-run: error: ");
  vfprintf(stderr, format, args);
  fprintf(stderr, "\n");
  va_end(args);
}

void runCollectMessage(MlirStringRef text, void *userData) {
  char *message = userData;
  size_t used = strlen(message);
  size_t room = 511 - used;
  size_t length = text.length < room ? text.length : room;
  memcpy(message + used, text.data, length);
  message[used + length] = '\0';
}

static const char kUsage[] =
    "usage: coopvec-run FILE --entry=NAME [--batch=N] [--arg=X.npy ...]\n"
    "         [--random [--seed=S] [--memref-size=INDEX:SIZE ...]]\n"
    "         [--out=PREFIX | -o DIR] [--save-inputs=PREFIX] [--print]\n"
    "         [--check [--rtol=R] [--atol=A]] [--reference] [--time]\n"
    "         [--lanes=L] [--reduce-mode=direct|local|expand|auto]\n"
    "         [--lane-refill=true|false|auto] [--emulate-mma] [--mma-regions]\n"
    "         [--mma-weights=slices|whole] [--training=block|subgroup]\n"
    "         [--pipeline=PIPELINE] [--lowered=FILE]\n"
    "         [--shared-lib=PATH ...] [--threads=N]\n"
    "         [--target=cpu|cuda|vulkan [--device=N]]\n"
    "       coopvec-run --list-devices [--target=vulkan]\n";

//===----------------------------------------------------------------------===//
// Options
//===----------------------------------------------------------------------===//

static bool parseInt(const char *text, int64_t *value) {
  char *end;
  errno = 0;
  long long parsed = strtoll(text, &end, 10);
  if (errno || end == text || *end)
    return false;
  *value = parsed;
  return true;
}

static bool parseDouble(const char *text, double *value) {
  char *end;
  errno = 0;
  *value = strtod(text, &end);
  return !errno && end != text && !*end && *value >= 0;
}

/// --memref-size=INDEX:SIZE
static bool parseMemRefSize(const char *text, Options *options) {
  const char *colon = strchr(text, ':');
  char index[32];
  if (!colon || (size_t)(colon - text) >= sizeof(index))
    return false;
  memcpy(index, text, (size_t)(colon - text));
  index[colon - text] = '\0';
  int64_t *spec = options->memrefSizeSpecs[options->numMemrefSizeSpecs];
  if (!parseInt(index, &spec[0]) || !parseInt(colon + 1, &spec[1]) ||
      spec[0] < 0 || spec[1] < 0)
    return false;
  ++options->numMemrefSizeSpecs;
  return true;
}

/// Returns the value of `--name=value` in `arg`, or NULL.
static const char *valueOf(const char *arg, const char *name) {
  size_t length = strlen(name);
  return strncmp(arg, name, length) == 0 && arg[length] == '='
             ? arg + length + 1
             : NULL;
}

static bool parseFlag(const char *arg, Options *options) {
  if (strcmp(arg, "--random") == 0)
    options->random = true;
  else if (strcmp(arg, "--check") == 0)
    options->check = true;
  else if (strcmp(arg, "--reference") == 0)
    options->reference = true;
  else if (strcmp(arg, "--print") == 0)
    options->print = true;
  else if (strcmp(arg, "--time") == 0)
    options->time = true;
  else if (strcmp(arg, "--list-devices") == 0)
    options->listDevices = true;
  else if (strcmp(arg, "--emulate-mma") == 0)
    options->emulateMMA = true;
  else if (strcmp(arg, "--mma-regions") == 0)
    options->mmaRegions = true;
  else
    return false;
  return true;
}

/// Parses one numeric `--name=value` option; false if `arg` is not one or
/// its value is invalid (`*known` tells which).
static bool parseNumber(const char *arg, Options *options, bool *known) {
  const char *value;
  int64_t seed;
  *known = true;
  if ((value = valueOf(arg, "--batch")))
    return parseInt(value, &options->batch) && options->batch >= 1 &&
           options->batch <= INT32_MAX;
  if ((value = valueOf(arg, "--seed"))) {
    if (!parseInt(value, &seed))
      return false;
    options->seed = (uint64_t)seed;
    return true;
  }
  if ((value = valueOf(arg, "--memref-size")))
    return parseMemRefSize(value, options);
  if ((value = valueOf(arg, "--lanes")))
    return parseInt(value, &options->lanes) && options->lanes >= 1;
  if ((value = valueOf(arg, "--device"))) {
    options->hasDevice = true;
    return parseInt(value, &options->device) && options->device >= 0 &&
           options->device <= INT32_MAX;
  }
  if ((value = valueOf(arg, "--threads")))
    return parseInt(value, &options->threads) && options->threads >= 1 &&
           options->threads <= 1024;
  if ((value = valueOf(arg, "--rtol"))) {
    options->hasRtol = true;
    return parseDouble(value, &options->rtol);
  }
  if ((value = valueOf(arg, "--atol"))) {
    options->hasAtol = true;
    return parseDouble(value, &options->atol);
  }
  *known = false;
  return false;
}

/// Parses one `--name=value` option; false if `arg` is not one or its value
/// is invalid (`*known` tells which).
static bool parseValued(const char *arg, Options *options, bool *known) {
  const char *value;
  *known = true;
  if ((value = valueOf(arg, "--entry")))
    options->entry = value;
  else if ((value = valueOf(arg, "--arg")))
    options->argPaths[options->numArgPaths++] = value;
  else if ((value = valueOf(arg, "--out")))
    options->outPrefix = value;
  else if ((value = valueOf(arg, "--save-inputs")))
    options->saveInputsPrefix = value;
  else if ((value = valueOf(arg, "--lowered")))
    options->loweredPath = value;
  else if ((value = valueOf(arg, "--pipeline")))
    options->pipeline = value;
  else if ((value = valueOf(arg, "--reduce-mode")))
    return (options->reduceMode = value) &&
           (!strcmp(value, "direct") || !strcmp(value, "local") ||
            !strcmp(value, "expand") || !strcmp(value, "auto"));
  else if ((value = valueOf(arg, "--lane-refill")))
    return (options->laneRefill = value) &&
           (!strcmp(value, "true") || !strcmp(value, "false") ||
            !strcmp(value, "auto"));
  else if ((value = valueOf(arg, "--mma-weights")))
    return (options->mmaWeights = value) &&
           (!strcmp(value, "slices") || !strcmp(value, "whole"));
  else if ((value = valueOf(arg, "--training")))
    return (options->training = value) &&
           (!strcmp(value, "block") || !strcmp(value, "subgroup"));
  else if ((value = valueOf(arg, "--target")))
    return (options->hasTarget = true) &&
           coopvecTargetFromName(value, &options->target);
  else if ((value = valueOf(arg, "--shared-lib"))) {
    if (options->numSharedLibs == 8)
      return false;
    options->sharedLibs[options->numSharedLibs++] = value;
  } else
    return parseNumber(arg, options, known);
  return true;
}

static bool parseArg(int argc, char **argv, int *i, Options *options,
                     char *outDirPrefix) {
  const char *arg = argv[*i];
  bool known;
  if (parseFlag(arg, options) || parseValued(arg, options, &known))
    return true;
  if (known) {
    runError("invalid value in '%s'", arg);
    return false;
  }
  if (strcmp(arg, "-o") == 0 && *i + 1 < argc) {
    if (!*argv[*i + 1]) { // "" would write /result0.npy
      runError("-o needs a directory (-o DIR writes DIR/result0.npy, ...)");
      return false;
    }
    // -o DIR writes DIR/result<k>.npy and DIR/result_arg<i>.npy.
    snprintf(outDirPrefix, 4096, "%s/result", argv[++*i]);
    options->outPrefix = outDirPrefix;
    return true;
  }
  if (arg[0] == '-' && arg[1] != '\0') {
    runError("unknown option '%s'\n%s", arg, kUsage);
    return false;
  }
  if (options->inputPath) {
    runError("more than one input file ('%s' and '%s')", options->inputPath,
             arg);
    return false;
  }
  options->inputPath = arg;
  return true;
}

typedef enum ParseStatus { ParseOk, ParseHelp, ParseError } ParseStatus;

/// An empty --out= or --save-inputs= would write 0.npy, ... into the
/// current folder: a prefix is required.
static bool checkPrefixes(const Options *options) {
  const char *empty = options->outPrefix && !*options->outPrefix ? "--out"
                      : options->saveInputsPrefix && !*options->saveInputsPrefix
                          ? "--save-inputs"
                          : NULL;
  if (empty)
    runError("%s= needs a PREFIX (%s=PREFIX writes PREFIX0.npy, ...)", empty,
             empty);
  return !empty;
}

static ParseStatus parseOptions(int argc, char **argv, Options *options,
                                char *outDirPrefix) {
  memset(options, 0, sizeof(*options));
  options->batch = 1;
  options->argPaths = calloc((size_t)argc, sizeof(char *));
  options->memrefSizeSpecs = calloc((size_t)argc, sizeof(int64_t[2]));
  for (int i = 1; i < argc; ++i) {
    if (strcmp(argv[i], "--help") == 0) {
      printf("%s", kUsage);
      return ParseHelp;
    }
    if (!parseArg(argc, argv, &i, options, outDirPrefix))
      return ParseError;
  }
  if (options->listDevices)
    return ParseOk;
  if (!checkPrefixes(options))
    return ParseError;
  if (!options->inputPath || !options->entry) {
    runError("%s\n%s", !options->inputPath ? "no input file" : "no --entry",
             kUsage);
    return ParseError;
  }
  // Options of the CPU target would be ignored elsewhere: say so instead.
  if (options->target != CoopvecTargetCPU &&
      (options->lanes || options->threads || options->laneRefill)) {
    runError("%s is an option of the cpu target, not of '%s'",
             options->lanes     ? "--lanes"
             : options->threads ? "--threads"
                                : "--lane-refill",
             coopvecTargetGetName(options->target));
    return ParseError;
  }
  // They name the lowering's options: --pipeline is all of them.
  const char *lowering = options->lanes        ? "lanes"
                         : options->reduceMode ? "reduce-mode"
                         : options->laneRefill ? "lane-refill"
                         : options->emulateMMA ? "emulate-mma"
                         : options->mmaRegions ? "mma-regions"
                         : options->mmaWeights ? "mma-weights"
                         : options->training   ? "training"
                                               : NULL;
  if (options->pipeline && lowering) {
    runError("--%s is an option of the default pipeline; with --pipeline, "
             "give it in the pipeline (coopvec-lower-to-<target>{%s=...})",
             lowering, lowering);
    return ParseError;
  }
  if (options->target == CoopvecTargetCPU &&
      (options->emulateMMA || options->mmaRegions || options->mmaWeights ||
       options->training)) {
    runError("--%s is an option of the cuda and vulkan targets, not of 'cpu'",
             options->emulateMMA   ? "emulate-mma"
             : options->mmaRegions ? "mma-regions"
             : options->mmaWeights ? "mma-weights"
                                   : "training");
    return ParseError;
  }
  if (options->target == CoopvecTargetCPU && options->hasDevice) {
    runError("--device is an option of the cuda and vulkan targets, not of "
             "'cpu'");
    return ParseError;
  }
  return ParseOk;
}

static void freeOptions(Options *options) {
  free(options->argPaths);
  free(options->memrefSizeSpecs);
  free(options->memrefSizes);
}

/// Expands the --memref-size pairs into one entry per argument.
static MlirLogicalResult expandMemRefSizes(Options *options,
                                           const Signature *signature) {
  options->memrefSizes =
      malloc(((size_t)signature->numArgs + 1) * sizeof(int64_t));
  for (intptr_t i = 0; i < signature->numArgs; ++i)
    options->memrefSizes[i] = -1;
  for (int i = 0; i < options->numMemrefSizeSpecs; ++i) {
    int64_t index = options->memrefSizeSpecs[i][0];
    int64_t size = options->memrefSizeSpecs[i][1];
    if (index >= signature->numArgs ||
        signature->args[index].kind != CoopvecValueKindMemRef) {
      runError("--memref-size=%lld:...: argument #%lld of @%s is not a memref",
               (long long)index, (long long)index, options->entry);
      return mlirLogicalResultFailure();
    }
    if (size > kMaxMemRefElements) {
      runError("--memref-size=%lld:%lld: SIZE is above the limit of %d "
               "elements",
               (long long)index, (long long)size, kMaxMemRefElements);
      return mlirLogicalResultFailure();
    }
    options->memrefSizes[index] = size;
  }
  return mlirLogicalResultSuccess();
}

//===----------------------------------------------------------------------===//
// Diagnostics and the module
//===----------------------------------------------------------------------===//

static void printToStderr(MlirStringRef text, void *userData) {
  (void)userData;
  fwrite(text.data, 1, text.length, stderr);
}

/// Prints `file:line:col: severity: message`, like mlir-opt.
static MlirLogicalResult printDiagnostic(MlirDiagnostic diagnostic,
                                         void *userData) {
  (void)userData;
  MlirLocation location = mlirDiagnosticGetLocation(diagnostic);
  if (mlirLocationIsAFileLineColRange(location)) {
    MlirStringRef file =
        mlirIdentifierStr(mlirLocationFileLineColRangeGetFilename(location));
    fprintf(stderr, "%.*s:%d:%d: ", (int)file.length, file.data,
            mlirLocationFileLineColRangeGetStartLine(location),
            mlirLocationFileLineColRangeGetStartColumn(location));
  }
  fprintf(stderr,
          "%s: ", coopvecSeverityName(mlirDiagnosticGetSeverity(diagnostic)));
  mlirDiagnosticPrint(diagnostic, printToStderr, NULL);
  fprintf(stderr, "\n");
  return mlirLogicalResultSuccess();
}

//===----------------------------------------------------------------------===//
// Running
//===----------------------------------------------------------------------===//

static MlirLogicalResult
saveArrays(const char *prefix, const char *infix, const CoopvecNpyArray *arrays,
           intptr_t count, const CoopvecValueInfo *infos, bool onlyWritten) {
  char path[4096];
  for (intptr_t i = 0; i < count; ++i) {
    if (onlyWritten && !infos[i].written)
      continue;
    snprintf(path, sizeof(path), "%s%s%ld.npy", prefix, infix, (long)i);
    if (mlirLogicalResultIsFailure(arraySave(path, &arrays[i])))
      return mlirLogicalResultFailure();
  }
  return mlirLogicalResultSuccess();
}

/// A file that --out or --save-inputs writes, and what it holds.
typedef struct OutputFile {
  char path[4096];
  char what[64];
} OutputFile;

static void addOutputFile(OutputFile *files, size_t *count, const char *prefix,
                          const char *infix, intptr_t index, const char *what) {
  OutputFile *file = &files[(*count)++];
  snprintf(file->path, sizeof(file->path), "%s%s%ld.npy", prefix, infix,
           (long)index);
  snprintf(file->what, sizeof(file->what), "%s %ld", what, (long)index);
}

/// No file may be written twice: with --out=same --save-inputs=same, result
/// 0 silently replaced saved input 0 in same0.npy. Checked before anything
/// runs.
static MlirLogicalResult checkOutputFiles(const Options *options,
                                          const Signature *signature) {
  size_t capacity =
      2 * (size_t)signature->numArgs + (size_t)signature->numResults + 1;
  OutputFile *files = calloc(capacity, sizeof(OutputFile));
  if (!files) {
    runError("out of memory");
    return mlirLogicalResultFailure();
  }
  size_t count = 0;
  for (intptr_t i = 0; options->saveInputsPrefix && i < signature->numArgs; ++i)
    addOutputFile(files, &count, options->saveInputsPrefix, "", i, "input");
  for (intptr_t k = 0; options->outPrefix && k < signature->numResults; ++k)
    addOutputFile(files, &count, options->outPrefix, "", k, "result");
  for (intptr_t i = 0; options->outPrefix && i < signature->numArgs; ++i)
    if (signature->args[i].written)
      addOutputFile(files, &count, options->outPrefix, "_arg", i,
                    "written argument");
  bool clash = false;
  for (size_t a = 0; a < count && !clash; ++a)
    for (size_t b = a + 1; b < count && !clash; ++b)
      if (strcmp(files[a].path, files[b].path) == 0) {
        runError("%s and %s would both be written to %s: give --out and "
                 "--save-inputs different prefixes",
                 files[a].what, files[b].what, files[a].path);
        clash = true;
      }
  free(files);
  return clash ? mlirLogicalResultFailure() : mlirLogicalResultSuccess();
}

static MlirLogicalResult emitOutputs(const Options *options,
                                     const Signature *signature,
                                     const CoopvecNpyArray *inputs,
                                     const CoopvecNpyArray *results) {
  char title[64];
  for (intptr_t i = 0; options->print && i < signature->numResults; ++i) {
    snprintf(title, sizeof(title), "result %ld", (long)i);
    printArrayText(title, &results[i]);
  }
  for (intptr_t i = 0; options->print && i < signature->numArgs; ++i) {
    snprintf(title, sizeof(title), "argument %ld (written)", (long)i);
    if (signature->args[i].written)
      printArrayText(title, &inputs[i]);
  }
  if (!options->outPrefix)
    return mlirLogicalResultSuccess();
  if (mlirLogicalResultIsFailure(saveArrays(options->outPrefix, "", results,
                                            signature->numResults,
                                            signature->results, false)))
    return mlirLogicalResultFailure();
  return saveArrays(options->outPrefix, "_arg", inputs, signature->numArgs,
                    signature->args, true);
}

/// Runs with prepared inputs; returns the exit code.
static int execute(const Options *options, MlirModule module,
                   CoopvecEngine *engine, const Signature *signature,
                   CoopvecNpyArray *inputs, CoopvecNpyArray *initialInputs,
                   CoopvecNpyArray *results) {
  if (options->saveInputsPrefix &&
      mlirLogicalResultIsFailure(saveArrays(options->saveInputsPrefix, "",
                                            inputs, signature->numArgs,
                                            signature->args, false)))
    return 1;
  for (intptr_t i = 0; options->check && i < signature->numArgs; ++i)
    if (mlirLogicalResultIsFailure(arrayCopy(&inputs[i], &initialInputs[i])))
      return 1;
  if (mlirLogicalResultIsFailure(outputsAllocate(options, signature, results)))
    return 1;
  MlirLogicalResult ran =
      options->reference
          ? interpretRun(options, module, signature, inputs, results)
          : jitRun(options, engine, signature, inputs, results);
  if (mlirLogicalResultIsFailure(ran) ||
      mlirLogicalResultIsFailure(
          emitOutputs(options, signature, inputs, results)))
    return 1;
  bool passed = true;
  if (options->check &&
      mlirLogicalResultIsFailure(checkAgainstInterpreter(
          options, module, signature, initialInputs, inputs, results, &passed)))
    return 1;
  return passed ? 0 : 1;
}

static void destroyArrays(CoopvecNpyArray *arrays, size_t count) {
  for (size_t i = 0; arrays && i < count; ++i)
    coopvecNpyArrayDestroy(&arrays[i]);
  free(arrays);
}

static int runEntry(Options *options, MlirModule module, CoopvecEngine *engine,
                    CoopvecFunction *function) {
  Signature signature;
  if (mlirLogicalResultIsFailure(
          signatureInit(&signature, function, module, options->entry)) ||
      mlirLogicalResultIsFailure(expandMemRefSizes(options, &signature)) ||
      mlirLogicalResultIsFailure(checkOutputFiles(options, &signature))) {
    signatureDestroy(&signature);
    return 1;
  }
  size_t numArgs = (size_t)signature.numArgs + 1;
  size_t numResults = (size_t)signature.numResults + 1;
  CoopvecNpyArray *inputs = calloc(numArgs, sizeof(CoopvecNpyArray));
  CoopvecNpyArray *initialInputs = calloc(numArgs, sizeof(CoopvecNpyArray));
  CoopvecNpyArray *results = calloc(numResults, sizeof(CoopvecNpyArray));
  int rc = 1;
  if (!inputs || !initialInputs || !results)
    runError("out of memory");
  else if (mlirLogicalResultIsSuccess(
               inputsPrepare(options, &signature, engine, inputs)))
    rc = execute(options, module, engine, &signature, inputs, initialInputs,
                 results);
  destroyArrays(inputs, numArgs);
  destroyArrays(initialInputs, numArgs);
  destroyArrays(results, numResults);
  signatureDestroy(&signature);
  return rc;
}

/// Whether `path` opens and reads; reports why not. MLIR's parser would say
/// only "could not open input file", without the reason or the tool's
/// prefix, and a folder opens but does not read.
static bool checkReadable(const char *path) {
  FILE *file = fopen(path, "rb");
  if (!file) {
    runError("%s: cannot open: %s", path, strerror(errno));
    return false;
  }
  errno = 0;
  bool failed = fgetc(file) == EOF && ferror(file);
  int readErrno = errno;
  fclose(file);
  if (failed)
    runError("%s: cannot read: %s", path, strerror(readErrno));
  return !failed;
}

/// The --lowered module, parsed in `ctx` (null when not needed, or after an
/// error, which `*failed` tells).
static MlirModule parseLowered(const Options *options, MlirContext ctx,
                               bool *failed) {
  *failed = false;
  if (!options->loweredPath || options->reference)
    return (MlirModule){NULL};
  if (!checkReadable(options->loweredPath)) {
    *failed = true;
    return (MlirModule){NULL};
  }
  MlirModule lowered = mlirModuleCreateParseFromFile(
      ctx, mlirStringRefCreateFromCString(options->loweredPath));
  if (mlirModuleIsNull(lowered)) {
    runError("%s: cannot parse the lowered module", options->loweredPath);
    *failed = true;
  }
  return lowered;
}

/// The default pipeline's options from --lanes, --reduce-mode,
/// --lane-refill, --emulate-mma, --mma-regions, --mma-weights and
/// --training ("lanes=8 reduce-mode=local"), or "" for none.
static void pipelineOptionsOf(const Options *options, char *text, size_t size) {
  int length = 0;
  text[0] = '\0';
  if (options->lanes > 0)
    length += snprintf(text, size, "lanes=%lld", (long long)options->lanes);
  if (options->reduceMode)
    length += snprintf(text + length, size - (size_t)length, "%sreduce-mode=%s",
                       length ? " " : "", options->reduceMode);
  if (options->laneRefill)
    length += snprintf(text + length, size - (size_t)length, "%slane-refill=%s",
                       length ? " " : "", options->laneRefill);
  if (options->emulateMMA)
    length += snprintf(text + length, size - (size_t)length,
                       "%semulate-mma=true", length ? " " : "");
  if (options->mmaRegions)
    length += snprintf(text + length, size - (size_t)length,
                       "%smma-regions=true", length ? " " : "");
  if (options->mmaWeights)
    length += snprintf(text + length, size - (size_t)length, "%smma-weights=%s",
                       length ? " " : "", options->mmaWeights);
  if (options->training)
    snprintf(text + length, size - (size_t)length, "%straining=%s",
             length ? " " : "", options->training);
}

/// Creates the engine: the target, the pipeline (--pipeline, or the
/// target's default with --lanes, --reduce-mode and --lane-refill), the
/// --lowered code, the libraries.
static CoopvecEngine *createEngine(const Options *options, MlirModule module,
                                   MlirModule lowered) {
  char pipelineOptions[256];
  CoopvecEngineOptions engineOptions = coopvecEngineOptionsGetDefault();
  engineOptions.target = options->target;
  engineOptions.pipeline = options->pipeline;
  pipelineOptionsOf(options, pipelineOptions, sizeof(pipelineOptions));
  if (pipelineOptions[0])
    engineOptions.pipelineOptions = pipelineOptions;
  if (!mlirModuleIsNull(lowered))
    engineOptions.loweredModule = mlirModuleGetOperation(lowered);
  engineOptions.sharedLibPaths = options->sharedLibs;
  engineOptions.numSharedLibPaths = options->numSharedLibs;
  engineOptions.device = (int)options->device;
  CoopvecEngine *engine = NULL;
  if (coopvecEngineCreate(mlirModuleGetOperation(module), &engineOptions,
                          &engine) == CoopvecStatusSuccess)
    return engine;
  runError("%s", engine ? coopvecEngineGetError(engine) : "out of memory");
  coopvecEngineDestroy(engine);
  return NULL;
}

static int runModule(Options *options, MlirContext ctx, MlirModule module) {
  bool failed;
  MlirModule lowered = parseLowered(options, ctx, &failed);
  if (failed)
    return 1;
  CoopvecEngine *engine = createEngine(options, module, lowered);
  if (!mlirModuleIsNull(lowered))
    mlirModuleDestroy(lowered); // the engine keeps a clone
  if (!engine)
    return 1;
  CoopvecFunction *function = NULL;
  int rc = 1;
  if (coopvecEngineLookup(engine, options->entry, &function) ==
      CoopvecStatusSuccess)
    rc = runEntry(options, module, engine, function);
  else
    runError("%s", coopvecEngineGetError(engine));
  coopvecEngineDestroy(engine);
  return rc;
}

static int runFile(Options *options, MlirContext ctx) {
  if (!checkReadable(options->inputPath))
    return 1;
  MlirModule module = mlirModuleCreateParseFromFile(
      ctx, mlirStringRefCreateFromCString(options->inputPath));
  if (mlirModuleIsNull(module))
    return 1;
  int rc = 1;
  if (mlirLogicalResultIsSuccess(coopvecVerify(mlirModuleGetOperation(module))))
    rc = runModule(options, ctx, module);
  mlirModuleDestroy(module);
  return rc;
}

static void printText(MlirStringRef text, void *userData) {
  fwrite(text.data, 1, text.length, (FILE *)userData);
}

/// --list-devices: the target's devices on stdout (Vulkan by default, the
/// one target that lists them), or the reason there are none.
static int listDevices(const Options *options) {
  CoopvecTarget target =
      options->hasTarget ? options->target : CoopvecTargetVulkan;
  CoopvecBuffer text = {0};
  CoopvecStatus status =
      coopvecTargetListDevices(target, coopvecBufferCallback, &text);
  if (status == CoopvecStatusSuccess)
    printText(mlirStringRefCreate(coopvecBufferStr(&text), text.size), stdout);
  else
    runError("%s", coopvecBufferStr(&text));
  coopvecBufferFree(&text);
  return status == CoopvecStatusSuccess ? 0 : 1;
}

int main(int argc, char **argv) {
  Options options;
  char outDirPrefix[4096];
  ParseStatus parsed = parseOptions(argc, argv, &options, outDirPrefix);
  if (parsed != ParseOk) {
    freeOptions(&options);
    return parsed == ParseHelp ? 0 : 1;
  }
  if (options.listDevices) {
    int listed = listDevices(&options);
    freeOptions(&options);
    return listed;
  }
  MlirContext ctx = mlirContextCreate();
  int rc = 1;
  if (mlirLogicalResultIsSuccess(coopvecSetupContext(ctx))) {
    mlirContextAttachDiagnosticHandler(ctx, printDiagnostic, NULL, NULL);
    rc = runFile(&options, ctx);
  }
  mlirContextDestroy(ctx);
  freeOptions(&options);
  return rc;
}
