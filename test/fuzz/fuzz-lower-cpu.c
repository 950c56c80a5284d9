//===- fuzz-lower-cpu.c - Fuzz the lowering to the CPU target -------------===//
//
// Input: MLIR text whose first line may be a comment with the options of
// convert-coopvec-to-cpu (`// target-cpu=skylake-avx512 lanes=8`; without
// one, `target-cpu=x86-64-v3`). When the module verifies, it is lowered in
// two steps, and nothing is compiled or run:
//  1. convert-coopvec-to-cpu without verification between passes. If it
//     succeeds, its output must verify: the conversion checks every
//     function before it changes anything (and reports what it cannot
//     lower), so invalid output is a bug that --verify-each=false would
//     turn into silently wrong code;
//  2. the rest of coopvec-lower-to-cpu (upstream passes down to the LLVM
//     dialect), verified after every pass.
// (The target CPU comes from LLVM's list, not the host, so the harness
// lowers for AVX-512 or NEON CPUs on any machine.)
//
//===----------------------------------------------------------------------===//

#include "FuzzCommon.h"

#include "Pass/PassDef.h"
#include "coopvec-c/Support.h"

#include <stdlib.h>
#include <string.h>

enum { MAX_INPUT = 1 << 16, MAX_OPTIONS = 256 };

/// What coopvec-lower-to-cpu runs after convert-coopvec-to-cpu: upstream
/// passes down to the LLVM dialect, cut from the registered pipeline's
/// expansion so that the harness follows lib/Pipelines/LowerToCPU.c.
static CoopvecBuffer restOfPipeline;

static void initRestOfPipeline(void) {
  static const char convert[] = "convert-coopvec-to-cpu{},";
  const CoopvecPipelineDef *def = coopvecLookupPipelineDef(
      mlirStringRefCreateFromCString("coopvec-lower-to-cpu"));
  if (!def)
    coopvecFuzzFail("coopvec-lower-to-cpu is not registered");
  CoopvecBuffer expanded = {0};
  def->expand(mlirStringRefCreate("", 0), coopvecBufferCallback, &expanded);
  const char *rest = strstr(coopvecBufferStr(&expanded), convert);
  if (!rest)
    coopvecFuzzFail("coopvec-lower-to-cpu no longer runs "
                    "convert-coopvec-to-cpu: update fuzz-lower-cpu.c");
  coopvecBufferAppendStr(&restOfPipeline, rest + strlen(convert));
  coopvecBufferFree(&expanded);
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  coopvecFuzzContext();
  initRestOfPipeline();
  return 0;
}

/// The pass options: the first line after "// ", else the default CPU.
static void readOptions(const char *text, CoopvecBuffer *pipeline) {
  const char *options = "target-cpu=x86-64-v3";
  size_t length = strlen(options);
  if (strncmp(text, "// ", 3) == 0) {
    options = text + 3;
    length = strcspn(options, "\n");
    if (length > MAX_OPTIONS)
      length = MAX_OPTIONS;
  }
  coopvecBufferAppendf(pipeline, "convert-coopvec-to-cpu{%.*s}", (int)length,
                       options);
}

static void lower(MlirOperation module, const char *text) {
  CoopvecBuffer convert = {0};
  readOptions(text, &convert);
  CoopvecFuzzPipelineResult converted = coopvecFuzzRunPipeline(
      module, coopvecBufferStr(&convert), convert.size, false);
  coopvecBufferFree(&convert);
  if (converted != CoopvecFuzzPipelineSucceeded)
    return;
  if (!coopvecFuzzVerify(module))
    coopvecFuzzFail("convert-coopvec-to-cpu succeeded with invalid output");
  if (coopvecFuzzRunPipeline(module, coopvecBufferStr(&restOfPipeline),
                             restOfPipeline.size,
                             true) == CoopvecFuzzPipelineInvalid)
    coopvecFuzzFail("the rest of coopvec-lower-to-cpu does not parse");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > MAX_INPUT)
    return 0;
  coopvecFuzzBeginInput();
  char *text = coopvecFuzzCopyText(data, size);
  MlirModule module = coopvecFuzzParse(text, size);
  if (!mlirModuleIsNull(module)) {
    MlirOperation op = mlirModuleGetOperation(module);
    if (coopvecFuzzVerify(op))
      lower(op, text);
    mlirModuleDestroy(module);
  }
  free(text);
  return 0;
}
