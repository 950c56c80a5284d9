//===- Options.c - The coopvec-opt command line ---------------------------===//
//
// Options are spelled like mlir-opt's (LLVM cl): one or two leading dashes,
// values after '=' (or as the next argument for -o and --pass-pipeline).
// An option that is not the driver's own names a pass: a coopvec pass from
// our registry, or any registered upstream pass or pipeline.
//
//===----------------------------------------------------------------------===//

#include "Driver.h"

#include "coopvec-c/Coopvec.h"

#include <llvm/Config/llvm-config.h>
#include <mlir-c/Pass.h>

#include <stdlib.h>
#include <string.h>

/// The driver's boolean flags, with where they are stored and their help.
typedef struct FlagInfo {
  const char *name;
  size_t offset; // of the bool in DriverOptions
  const char *help;
} FlagInfo;

#define FLAG(name, field, help)                                                \
  { name, offsetof(DriverOptions, field), help }
static const FlagInfo flagInfos[] = {
    FLAG("split-input-file", splitInputFile,
         "Split the input on '// -----' lines and process each piece on its "
         "own"),
    FLAG("verify-diagnostics", verifyDiagnostics,
         "Check diagnostics against expected-* comments in the input"),
    FLAG("allow-unregistered-dialect", allowUnregisteredDialect,
         "Accept operations of dialects that are not registered"),
    FLAG("mlir-print-ir-before-all", printIRBeforeAll,
         "Print the IR to stderr before every pass"),
    FLAG("mlir-print-ir-after-all", printIRAfterAll,
         "Print the IR to stderr after every pass"),
    FLAG("mlir-print-ir-after-change", printIRAfterChange,
         "With --mlir-print-ir-after-all: only when a pass changed the IR"),
    FLAG("mlir-print-ir-after-failure", printIRAfterFailure,
         "Print the IR to stderr after a pass fails"),
    FLAG("mlir-print-ir-module-scope", printIRModuleScope,
         "Print the whole module, not only the pass's operation"),
    FLAG("mlir-timing", timing, "Print pass timing to stderr"),
    FLAG("mlir-print-debuginfo", printDebugInfo,
         "Print locations in the output"),
    FLAG("mlir-print-op-generic", printGenericForm,
         "Print operations in the generic form"),
    FLAG("list-passes", listPasses,
         "List the coopvec passes and their options"),
    FLAG("emit-irdl", emitIRDL,
         "Print the dialect's IRDL definition (for mlir-opt --irdl-file=)"),
    FLAG("version", showVersion, "Print the version"),
    FLAG("help", showHelp, "Print this help"),
};
#undef FLAG
static const size_t numFlagInfos = sizeof(flagInfos) / sizeof(flagInfos[0]);

//===----------------------------------------------------------------------===//
// Parsing argv
//===----------------------------------------------------------------------===//

/// Strips the dashes; NULL if `arg` is not an option.
static const char *optionBody(const char *arg) {
  if (arg[0] != '-' || arg[1] == '\0')
    return NULL; // "-" is stdin
  return arg[1] == '-' ? arg + 2 : arg + 1;
}

/// Whether `body` is `name` or `name=...`; sets `*value` to the text after
/// '=' (NULL if none).
static bool matchesOption(const char *body, const char *name,
                          const char **value) {
  size_t length = strlen(name);
  if (strncmp(body, name, length) != 0 ||
      (body[length] != '\0' && body[length] != '='))
    return false;
  *value = body[length] == '=' ? body + length + 1 : NULL;
  return true;
}

/// Parses an LLVM-style boolean value ("true", "false", "1", "0").
static bool parseBoolValue(const char *value, bool *result) {
  if (!value || !strcmp(value, "true") || !strcmp(value, "1"))
    return *result = true, true;
  if (!strcmp(value, "false") || !strcmp(value, "0"))
    return *result = false, true;
  return false;
}

/// An option that takes a value, as `--name=value` or `--name value`.
static bool takeValue(int argc, char **argv, int *index, const char *body,
                      const char *name, const char **value, bool *error) {
  const char *inlineValue;
  if (!matchesOption(body, name, &inlineValue))
    return false;
  if (inlineValue) {
    *value = inlineValue;
  } else if (*index + 1 < argc) {
    *value = argv[++*index];
  } else {
    fprintf(stderr, "coopvec-opt: error: option '%s' needs a value\n",
            argv[*index]);
    *error = true;
  }
  return true;
}

typedef enum FlagResult { FlagNotOurs, FlagSet, FlagBadValue } FlagResult;

static FlagResult setBoolOption(const char *arg, const char *value,
                                bool *field) {
  if (parseBoolValue(value, field))
    return FlagSet;
  fprintf(stderr,
          "coopvec-opt: error: option '%s' takes true or false, not '%s'\n",
          arg, value);
  return FlagBadValue;
}

static FlagResult setFlag(DriverOptions *options, const char *arg,
                          const char *body) {
  const char *value;
  for (size_t i = 0; i < numFlagInfos; ++i)
    if (matchesOption(body, flagInfos[i].name, &value))
      return setBoolOption(arg, value,
                           (bool *)((char *)options + flagInfos[i].offset));
  if (matchesOption(body, "verify-each", &value))
    return setBoolOption(arg, value, &options->verifyEach);
  return FlagNotOurs;
}

static void addPassFlag(DriverOptions *options, const char *arg,
                        const char *body) {
  PassFlag *flags = realloc(options->passFlags,
                            (options->numPassFlags + 1) * sizeof(PassFlag));
  if (!flags) {
    fprintf(stderr, "coopvec-opt: out of memory\n");
    abort();
  }
  const char *equals = strchr(body, '=');
  size_t nameLength = equals ? (size_t)(equals - body) : strlen(body);
  flags[options->numPassFlags++] =
      (PassFlag){arg, body, nameLength, equals ? equals + 1 : NULL};
  options->passFlags = flags;
}

static bool setInput(DriverOptions *options, const char *path) {
  if (options->inputPath) {
    fprintf(stderr,
            "coopvec-opt: error: more than one input file: '%s' and '%s'\n",
            options->inputPath, path);
    return false;
  }
  options->inputPath = path;
  return true;
}

/// --emit=mlir|llvm|asm|obj|ptx|cubin|spirv.
static bool setEmit(DriverOptions *options, const char *value) {
  static const struct {
    const char *name;
    CoopvecEmitKind kind;
  } kinds[] = {{"llvm", CoopvecEmitLLVMIR},
               {"asm", CoopvecEmitAssembly},
               {"obj", CoopvecEmitObject}};
  static const struct {
    const char *name;
    CoopvecGPUEmitKind kind;
  } gpuKinds[] = {{"ptx", CoopvecEmitPTX}, {"cubin", CoopvecEmitCubin}};
  options->emitLLVM = options->emitGPU = options->emitSPIRV = false;
  if (strcmp(value, "mlir") == 0)
    return true;
  if (strcmp(value, "spirv") == 0) {
    options->emitSPIRV = true;
    return true;
  }
  for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); ++i) {
    if (strcmp(value, kinds[i].name) == 0) {
      options->emitLLVM = true;
      options->emitKind = kinds[i].kind;
      return true;
    }
  }
  for (size_t i = 0; i < sizeof(gpuKinds) / sizeof(gpuKinds[0]); ++i) {
    if (strcmp(value, gpuKinds[i].name) == 0) {
      options->emitGPU = true;
      options->gpuEmitKind = gpuKinds[i].kind;
      return true;
    }
  }
  fprintf(stderr,
          "coopvec-opt: error: invalid --emit value '%s' (expected mlir, "
          "llvm, asm, obj, ptx, cubin or spirv)\n",
          value);
  return false;
}

static bool setOptLevel(DriverOptions *options, const char *value) {
  if (value[0] >= '0' && value[0] <= '3' && value[1] == '\0') {
    options->target.optLevel = value[0] - '0';
    return true;
  }
  fprintf(stderr,
          "coopvec-opt: error: invalid --opt-level value '%s' (expected 0, "
          "1, 2 or 3)\n",
          value);
  return false;
}

/// The options that take a value; returns false if `body` is none of them.
static bool parseValueOption(int argc, char **argv, int *index,
                             const char *body, DriverOptions *options,
                             bool *error) {
  const char *value = NULL;
  if (takeValue(argc, argv, index, body, "o", &options->outputPath, error) ||
      takeValue(argc, argv, index, body, "pass-pipeline",
                &options->passPipeline, error) ||
      takeValue(argc, argv, index, body, "target-triple",
                &options->target.triple, error) ||
      takeValue(argc, argv, index, body, "target-cpu", &options->target.cpu,
                error))
    return true;
  if (takeValue(argc, argv, index, body, "emit", &value, error)) {
    *error = *error || !setEmit(options, value);
    return true;
  }
  if (takeValue(argc, argv, index, body, "opt-level", &value, error)) {
    *error = *error || !setOptLevel(options, value);
    return true;
  }
  return false;
}

/// Handles argv[*index]; returns false on an error (already reported).
static bool parseArgument(int argc, char **argv, int *index,
                          DriverOptions *options, bool *onlyPositional) {
  const char *arg = argv[*index];
  const char *body = *onlyPositional ? NULL : optionBody(arg);
  if (!body)
    return setInput(options, arg);
  if (strcmp(arg, "--") == 0) {
    *onlyPositional = true;
    return true;
  }
  bool error = false;
  if (parseValueOption(argc, argv, index, body, options, &error))
    return !error;
  FlagResult flag = setFlag(options, arg, body);
  if (flag == FlagNotOurs)
    addPassFlag(options, arg, body);
  return flag != FlagBadValue;
}

bool parseCommandLine(int argc, char **argv, DriverOptions *options) {
  memset(options, 0, sizeof(*options));
  options->verifyEach = true;
  options->target = coopvecTargetOptionsGetDefault();
  bool onlyPositional = false;
  for (int i = 1; i < argc; ++i)
    if (!parseArgument(argc, argv, &i, options, &onlyPositional))
      return false;
  if ((options->emitLLVM || options->emitGPU || options->emitSPIRV) &&
      options->splitInputFile) {
    fprintf(stderr, "coopvec-opt: error: --emit=llvm/asm/obj/ptx/cubin/spirv "
                    "produces one module and cannot be combined with "
                    "--split-input-file\n");
    return false;
  }
  if (!options->inputPath)
    options->inputPath = "-";
  return true;
}

void freeCommandLine(DriverOptions *options) {
  free(options->passFlags);
  options->passFlags = NULL;
  options->numPassFlags = 0;
}

//===----------------------------------------------------------------------===//
// Help, version and the pass list
//===----------------------------------------------------------------------===//

/// Prints the options of coopvec pass `index`, one per line, indented.
static void printPassOptions(FILE *stream, intptr_t index, const char *indent) {
  CoopvecBuffer text = {0};
  coopvecPassPrintOptions(index, coopvecBufferCallback, &text);
  const char *line = coopvecBufferStr(&text);
  while (*line) {
    const char *newline = strchr(line, '\n');
    size_t length = newline ? (size_t)(newline - line) : strlen(line);
    fprintf(stream, "%s%.*s\n", indent, (int)length, line);
    line += length + (newline ? 1 : 0);
  }
  coopvecBufferFree(&text);
}

static void printCoopvecPasses(FILE *stream, const char *prefix,
                               const char *optionIndent) {
  for (intptr_t i = 0; i < coopvecGetNumPasses(); ++i) {
    MlirStringRef argument = coopvecPassGetArgument(i);
    MlirStringRef description = coopvecPassGetDescription(i);
    fprintf(stream, "  %s%.*s\n      %.*s\n", prefix, (int)argument.length,
            argument.data, (int)description.length, description.data);
    printPassOptions(stream, i, optionIndent);
  }
}

static void printCoopvecPipelines(FILE *stream, const char *prefix) {
  for (intptr_t i = 0; i < coopvecGetNumPipelines(); ++i) {
    MlirStringRef argument = coopvecPipelineGetArgument(i);
    MlirStringRef description = coopvecPipelineGetDescription(i);
    fprintf(stream, "  %s%.*s\n      %.*s\n", prefix, (int)argument.length,
            argument.data, (int)description.length, description.data);
  }
}

static void printOption(FILE *stream, const char *spelling, const char *help) {
  fprintf(stream, "  %-30s %s\n", spelling, help);
}

void printHelp(FILE *stream) {
  fputs("OVERVIEW: coopvec-opt - run coopvec and MLIR passes on MLIR input\n"
        "\n"
        "USAGE: coopvec-opt [options] [input file]\n"
        "\n"
        "The input is read from stdin when no file or '-' is given; the\n"
        "result is printed to stdout (or the -o file).\n"
        "\n"
        "OPTIONS:\n",
        stream);
  printOption(stream, "-o <file>", "Write the output to <file>");
  printOption(stream, "--pass-pipeline=<pipeline>",
              "Run a textual pipeline, e.g. "
              "'builtin.module(func.func(coopvec-canonicalize),cse)'");
  printOption(stream, "--emit=<kind>",
              "Output: mlir (default), llvm (LLVM IR), asm or obj (native "
              "object file); llvm/asm/obj need LLVM-dialect input, e.g. "
              "after --coopvec-lower-to-cpu; ptx or cubin (through ptxas) "
              "need a gpu.binary, e.g. after --coopvec-lower-to-nvvm; spirv "
              "(a SPIR-V binary) needs --coopvec-lower-to-spirv");
  printOption(stream, "--target-cpu=<cpu>",
              "CPU for --emit=asm/obj (default: the host CPU and its "
              "features)");
  printOption(stream, "--target-triple=<triple>",
              "Target triple for --emit (default: the host's)");
  printOption(stream, "--opt-level=<0-3>",
              "LLVM optimization level for --emit (default: 3)");
  printOption(stream, "--verify-each=<bool>",
              "Verify the IR after every pass (default: true)");
  for (size_t i = 0; i < numFlagInfos; ++i) {
    CoopvecBuffer spelling = {0};
    coopvecBufferAppendf(&spelling, "--%s", flagInfos[i].name);
    printOption(stream, coopvecBufferStr(&spelling), flagInfos[i].help);
    coopvecBufferFree(&spelling);
  }
  fputs("\nCOOPVEC PASSES (each is a flag: --<pass> or "
        "--<pass>=\"key=value ...\"):\n",
        stream);
  printCoopvecPasses(stream, "--", "        ");
  fputs("\nCOOPVEC PIPELINES (flags too; options are passed to the passes "
        "they run):\n",
        stream);
  printCoopvecPipelines(stream, "--");
  fputs(
      "\nUPSTREAM PASSES:\n"
      "  Every registered MLIR pass or pass pipeline is accepted the same\n"
      "  way, e.g. --canonicalize, --cse, --canonicalize=\"max-iterations=3\"\n"
      "  (mlir-opt --help lists them). Pass flags run in command-line\n"
      "  order and cannot be combined with --pass-pipeline.\n"
      "\n"
      "EXIT STATUS: 0 on success, 1 on any error.\n",
      stream);
}

void printVersion(FILE *stream) {
  fprintf(stream, "coopvec-opt version %s (MLIR %s)\n", coopvecGetVersion(),
          LLVM_VERSION_STRING);
}

void printPassList(FILE *stream) {
  fputs("coopvec passes:\n", stream);
  printCoopvecPasses(stream, "", "      ");
  fputs("coopvec pipelines:\n", stream);
  printCoopvecPipelines(stream, "");
}

//===----------------------------------------------------------------------===//
// Pass flags to a pipeline
//===----------------------------------------------------------------------===//

static bool isPassNameChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.';
}

/// Whether `name` is a registered upstream pass or pass pipeline: the
/// C API has no lookup, so try adding it to a scratch pass manager.
static bool isUpstreamPass(MlirContext ctx, MlirStringRef name) {
  for (size_t i = 0; i < name.length; ++i)
    if (!isPassNameChar(name.data[i]))
      return false;
  MlirPassManager scratch = mlirPassManagerCreateOnOperation(
      ctx, mlirStringRefCreateFromCString("builtin.module"));
  CoopvecBuffer error = {0};
  MlirLogicalResult added =
      mlirOpPassManagerAddPipeline(mlirPassManagerGetAsOpPassManager(scratch),
                                   name, coopvecBufferCallback, &error);
  // Any complaint other than "unknown name" means the name is a pass.
  bool known = mlirLogicalResultIsSuccess(added) ||
               !strstr(coopvecBufferStr(&error), "does not refer to");
  coopvecBufferFree(&error);
  mlirPassManagerDestroy(scratch);
  return known;
}

static bool checkPassFlag(MlirContext ctx, const PassFlag *flag) {
  MlirStringRef name = mlirStringRefCreate(flag->name, flag->nameLength);
  if (name.length && (coopvecIsPassName(name) || coopvecIsPipelineName(name) ||
                      isUpstreamPass(ctx, name)))
    return true;
  fprintf(stderr,
          "coopvec-opt: error: unknown option '%s'\n"
          "coopvec-opt: note: see 'coopvec-opt --help' for the options and "
          "'coopvec-opt --list-passes' for the coopvec passes\n",
          flag->spelling);
  return false;
}

bool buildPipelineText(MlirContext ctx, const DriverOptions *options,
                       CoopvecBuffer *pipeline) {
  for (size_t i = 0; i < options->numPassFlags; ++i)
    if (!checkPassFlag(ctx, &options->passFlags[i]))
      return false;
  if (options->passPipeline && options->numPassFlags) {
    fprintf(stderr,
            "coopvec-opt: error: '--pass-pipeline' cannot be combined with "
            "individual pass flags ('%s')\n",
            options->passFlags[0].spelling);
    return false;
  }
  if (options->passPipeline)
    coopvecBufferAppendStr(pipeline, options->passPipeline);
  for (size_t i = 0; i < options->numPassFlags; ++i) {
    const PassFlag *flag = &options->passFlags[i];
    coopvecBufferAppendf(pipeline, "%s%.*s", i ? "," : "",
                         (int)flag->nameLength, flag->name);
    if (flag->options)
      coopvecBufferAppendf(pipeline, "{%s}", flag->options);
  }
  return true;
}
