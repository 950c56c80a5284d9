//===- pipeline-limits.c - C API: hostile pass pipelines ------------------===//
//
// Pipelines an embedder may pass on from its own users must give an error,
// never take the host process down (issue 8, rows 1, 2 and 10):
//  - nesting: 32 pass managers below the root are accepted, the 33rd is an
//    error, and a million levels (more than any command line holds) is the
//    same error instead of a stack overflow;
//  - a module pass nested in a function pass manager is an error instead of
//    MLIR's fatal error (SIGABRT);
//  - lanes=-1 fails the pass instead of dividing by zero (SIGFPE);
//  - an #nvvm.target whose PTX version is older than its chip needs is an
//    error instead of LLVM's fatal error in gpu-module-to-binary, from
//    nvvm-attach-target's options or from the IR (issue "Reliability").

// RUN: coopvec-capi-pipeline-limits 2>&1 | FileCheck %s

#include "coopvec-c/Coopvec.h"

#include <mlir-c/Diagnostics.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void printToStderr(MlirStringRef text, void *userData) {
  (void)userData;
  fwrite(text.data, 1, text.length, stderr);
}

static MlirLogicalResult printDiagnostic(MlirDiagnostic diagnostic,
                                         void *userData) {
  (void)userData;
  fprintf(stderr, "diagnostic: ");
  mlirDiagnosticPrint(diagnostic, printToStderr, NULL);
  fprintf(stderr, "\n");
  return mlirLogicalResultSuccess();
}

/// Keeps the first line of an error (the caret line repeats the pipeline,
/// which is a megabyte long for the deepest one).
static void printFirstLine(MlirStringRef text, void *userData) {
  int *printed = userData;
  if (*printed)
    return;
  *printed = 1;
  size_t length = strcspn(text.data, "\n");
  fprintf(stderr, "error: %.*s\n",
          (int)(length < text.length ? length : text.length), text.data);
}

/// `prefix` `depth` times, then `middle`, then `suffix` `depth` times.
static char *nest(const char *prefix, const char *middle, const char *suffix,
                  size_t depth) {
  size_t size = depth * (strlen(prefix) + strlen(suffix)) + strlen(middle);
  char *text = malloc(size + 1), *end = text;
  if (!text)
    abort();
  for (size_t i = 0; i < depth; ++i, end += strlen(prefix))
    memcpy(end, prefix, strlen(prefix));
  memcpy(end, middle, strlen(middle));
  end += strlen(middle);
  for (size_t i = 0; i < depth; ++i, end += strlen(suffix))
    memcpy(end, suffix, strlen(suffix));
  *end = '\0';
  return text;
}

/// Parses `pipeline` into a pass manager on builtin.module and, if it
/// parses and `module` is given, runs it.
static void tryPipeline(MlirContext ctx, const char *label,
                        const char *pipeline, MlirModule module) {
  MlirPassManager pm = mlirPassManagerCreateOnOperation(
      ctx, mlirStringRefCreateFromCString("builtin.module"));
  int printed = 0;
  MlirLogicalResult parsed = coopvecParsePassPipeline(
      mlirPassManagerGetAsOpPassManager(pm),
      mlirStringRefCreateFromCString(pipeline), true, printFirstLine, &printed);
  const char *outcome = "parse error";
  if (mlirLogicalResultIsSuccess(parsed))
    outcome = mlirModuleIsNull(module) ? "parsed"
              : mlirLogicalResultIsSuccess(
                    mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(module)))
                  ? "ran"
                  : "run failed";
  fprintf(stderr, "%s: %s\n", label, outcome);
  mlirPassManagerDestroy(pm);
}

static void testNesting(MlirContext ctx) {
  // CHECK-LABEL: testNesting
  fprintf(stderr, "testNesting\n");
  // CHECK: depth 32: parsed
  char *text = nest("func.func(", "cse", ")", 32);
  tryPipeline(ctx, "depth 32", text, (MlirModule){NULL});
  free(text);
  // CHECK: error: pass pipeline:1:321: error: pass pipeline nested too deeply
  // CHECK-NEXT: depth 33: parse error
  text = nest("func.func(", "cse", ")", 33);
  tryPipeline(ctx, "depth 33", text, (MlirModule){NULL});
  free(text);
  // CHECK: error: pass pipeline:1:336: error: pass pipeline nested too deeply
  // CHECK-NEXT: anchored depth 33: parse error
  text = nest("func.func(", "cse", ")", 33);
  char *anchored = nest("builtin.module(", text, ")", 1);
  tryPipeline(ctx, "anchored depth 33", anchored, (MlirModule){NULL});
  free(anchored);
  free(text);
  // CHECK: error: pass pipeline:1:321: error: pass pipeline nested too deeply
  // CHECK-NEXT: depth 1000000: parse error
  text = nest("func.func(", "cse", ")", 1000000);
  tryPipeline(ctx, "depth 1000000", text, (MlirModule){NULL});
  free(text);
  // Unbalanced: a million opening parentheses and no closing one.
  // CHECK: error: pass pipeline:1:129: error: pass pipeline nested too deeply
  // CHECK-NEXT: unbalanced: parse error
  text = nest("any(", "cse", "", 1000000);
  tryPipeline(ctx, "unbalanced", text, (MlirModule){NULL});
  free(text);
}

static const char *layer =
    "func.func @neg(%x: !coopvec.vec<4, f32>) -> !coopvec.vec<4, f32> {\n"
    "  %0 = \"coopvec.neg\"(%x) : (!coopvec.vec<4, f32>) -> "
    "!coopvec.vec<4, f32>\n"
    "  return %0 : !coopvec.vec<4, f32>\n"
    "}\n";

static void testModulePassInFunction(MlirContext ctx) {
  // CHECK-LABEL: testModulePassInFunction
  fprintf(stderr, "testModulePassInFunction\n");
  MlirModule module =
      mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(layer));
  // CHECK: error: pass pipeline:1:11: error: in pipeline 'coopvec-lower-to-cpu': pass '{{.*}}' runs on 'builtin.module' and cannot be nested in a pass manager on 'func.func'
  // CHECK-NEXT: nested lowering: parse error
  tryPipeline(ctx, "nested lowering", "func.func(coopvec-lower-to-cpu)",
              module);
  // CHECK: error: pass pipeline:1:26: error: in pipeline 'coopvec-lower-to-cpu': pass '{{.*}}' runs on 'builtin.module' and cannot be nested in a pass manager on 'func.func'
  // CHECK-NEXT: anchored nested lowering: parse error
  tryPipeline(ctx, "anchored nested lowering",
              "builtin.module(func.func(coopvec-lower-to-cpu))", module);
  mlirModuleDestroy(module);
}

static void testLanes(MlirContext ctx) {
  // CHECK-LABEL: testLanes
  fprintf(stderr, "testLanes\n");
  MlirModule module =
      mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(layer));
  // CHECK: diagnostic: {{.*}}lanes=-1 is out of range
  // CHECK: lanes -1: run failed
  tryPipeline(ctx, "lanes -1", "coopvec-lower-to-cpu{lanes=-1}", module);
  // CHECK: error: pass pipeline:1:1: error: in pipeline 'coopvec-lower-to-cpu': invalid value '99999999999999999999' for option 'lanes'
  // CHECK-NEXT: lanes 10^20: parse error
  tryPipeline(ctx, "lanes 10^20",
              "coopvec-lower-to-cpu{lanes=99999999999999999999}", module);
  mlirModuleDestroy(module);
}

static const char *oldPTXKernel =
    "module attributes {gpu.container_module} {\n"
    "  gpu.module @k [#nvvm.target<chip = \"sm_90\", features = "
    "\"+ptx40\">] {\n"
    "    gpu.func @f() kernel {\n"
    "      gpu.return\n"
    "    }\n"
    "  }\n"
    "}\n";

static void testPTXVersion(MlirContext ctx) {
  // CHECK-LABEL: testPTXVersion
  fprintf(stderr, "testPTXVersion\n");
  MlirModule module =
      mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(oldPTXKernel));
  if (mlirModuleIsNull(module))
    abort();
  // CHECK-NOT: LLVM ERROR
  // CHECK: error: pass pipeline:1:1: error: invalid pass element 'nvvm-attach-target{chip=sm_90 features=+ptx40}': features '+ptx40' ask for PTX 4.0, but sm_90 needs PTX 7.8 or newer
  // CHECK-NEXT: attach old PTX: parse error
  tryPipeline(ctx, "attach old PTX",
              "nvvm-attach-target{chip=sm_90 features=+ptx40},"
              "gpu-module-to-binary",
              module);
  // CHECK: diagnostic: {{.*}}'gpu.module' op features '+ptx40' ask for PTX 4.0, but sm_90 needs PTX 7.8 or newer
  // CHECK-NEXT: old PTX in the IR: run failed
  tryPipeline(
      ctx, "old PTX in the IR",
      "gpu.module(convert-gpu-to-nvvm),gpu-module-to-binary{format=isa}",
      module);
  mlirModuleDestroy(module);
}

int main(void) {
  MlirContext ctx = mlirContextCreate();
  if (mlirLogicalResultIsFailure(coopvecSetupContext(ctx)))
    return 1;
  mlirContextAttachDiagnosticHandler(ctx, printDiagnostic, NULL, NULL);
  testNesting(ctx);
  testModulePassInFunction(ctx);
  testLanes(ctx);
  testPTXVersion(ctx);
  mlirContextDestroy(ctx);
  // CHECK: done
  fprintf(stderr, "done\n");
  return 0;
}
