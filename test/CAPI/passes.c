//===- passes.c - C API: coopvec passes and textual pipelines -------------===//

// RUN: coopvec-capi-passes 2>&1 | FileCheck %s

#include "coopvec-c/Coopvec.h"

#include <mlir-c/Diagnostics.h>

#include <stdio.h>
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

static const char *validModule =
    "func.func @f(%x: !coopvec.vec<4, f32>) -> !coopvec.vec<4, f32> {\n"
    "  %0 = \"coopvec.neg\"(%x) : (!coopvec.vec<4, f32>) -> "
    "!coopvec.vec<4, f32>\n"
    "  return %x : !coopvec.vec<4, f32>\n"
    "}\n";

// f32 matrices cannot use the `inference` layout: coopvec-verify rejects it.
static const char *invalidModule =
    "func.func @g(%m: !coopvec.matrix<4, 4, f32, \"inference\">) {\n"
    "  return\n"
    "}\n";

static MlirModule parse(MlirContext ctx, const char *text) {
  return mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(text));
}

static void testRegistry(void) {
  // CHECK-LABEL: testRegistry
  fprintf(stderr, "testRegistry\n");
  // CHECK-DAG: pass coopvec-verify: Check the coopvec rules
  // CHECK-DAG: pass coopvec-canonicalize: Fold coopvec
  for (intptr_t i = 0; i < coopvecGetNumPasses(); ++i) {
    MlirStringRef argument = coopvecPassGetArgument(i);
    MlirStringRef description = coopvecPassGetDescription(i);
    fprintf(stderr, "pass %.*s: %.*s\n", (int)argument.length, argument.data,
            (int)description.length, description.data);
    coopvecPassPrintOptions(i, printToStderr, NULL);
  }
  // CHECK: pipeline coopvec-lower-to-cpu: {{.+}}
  for (intptr_t i = 0; i < coopvecGetNumPipelines(); ++i) {
    MlirStringRef argument = coopvecPipelineGetArgument(i);
    MlirStringRef description = coopvecPipelineGetDescription(i);
    fprintf(stderr, "pipeline %.*s: %.*s\n", (int)argument.length,
            argument.data, (int)description.length, description.data);
  }
  // CHECK: is pipeline: 1 0
  fprintf(stderr, "is pipeline: %d %d\n",
          coopvecIsPipelineName(
              mlirStringRefCreateFromCString("coopvec-lower-to-cpu")),
          coopvecIsPipelineName(
              mlirStringRefCreateFromCString("coopvec-canonicalize")));
  // CHECK: is pass: 1 0
  fprintf(stderr, "is pass: %d %d\n",
          coopvecIsPassName(mlirStringRefCreateFromCString("coopvec-verify")),
          coopvecIsPassName(mlirStringRefCreateFromCString("canonicalize")));
}

static void testCreatePass(void) {
  // CHECK-LABEL: testCreatePass
  fprintf(stderr, "testCreatePass\n");
  // CHECK: 'no-such-pass' is not a coopvec pass
  MlirPass pass =
      coopvecCreatePass(mlirStringRefCreateFromCString("no-such-pass"),
                        mlirStringRefCreate("", 0), printToStderr, NULL);
  // CHECK-NEXT: null: 1
  fprintf(stderr, "\nnull: %d\n", pass.ptr == NULL);
  // CHECK: pass 'coopvec-verify' has no option 'bogus'
  pass = coopvecCreatePass(mlirStringRefCreateFromCString("coopvec-verify"),
                           mlirStringRefCreateFromCString("bogus=1"),
                           printToStderr, NULL);
  // CHECK-NEXT: null: 1
  fprintf(stderr, "\nnull: %d\n", pass.ptr == NULL);
}

/// Runs `verifyPass` (ownership taken) on `text`; prints the outcome.
static void runVerifyPass(MlirContext ctx, const char *text, MlirPass pass) {
  MlirModule module = parse(ctx, text);
  MlirPassManager pm = mlirPassManagerCreate(ctx);
  mlirPassManagerAddOwnedPass(pm, pass);
  MlirLogicalResult result =
      mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(module));
  fprintf(stderr, "pass succeeded: %d\n", mlirLogicalResultIsSuccess(result));
  mlirPassManagerDestroy(pm);
  mlirModuleDestroy(module);
}

// A from_elements / unpack round trip that coopvec-canonicalize folds away.
static const char *roundTripModule =
    "func.func @g(%a: f32, %b: f32) -> (f32, f32) {\n"
    "  %v = \"coopvec.from_elements\"(%a, %b) : (f32, f32) -> "
    "!coopvec.vec<2, f32>\n"
    "  %x:2 = \"coopvec.unpack\"(%v) : (!coopvec.vec<2, f32>) -> (f32, f32)\n"
    "  return %x#1, %x#0 : f32, f32\n"
    "}\n";

static void testCanonicalizePass(MlirContext ctx) {
  // CHECK-LABEL: testCanonicalizePass
  fprintf(stderr, "testCanonicalizePass\n");
  MlirModule module = parse(ctx, roundTripModule);
  MlirPassManager pm = mlirPassManagerCreateOnOperation(
      ctx, mlirStringRefCreateFromCString("builtin.module"));
  mlirPassManagerAddOwnedPass(pm, coopvecCreateCanonicalizePass());
  MlirLogicalResult result =
      mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(module));
  // CHECK: canonicalized: 1
  // CHECK: func.func @g(%[[A:.*]]: f32, %[[B:.*]]: f32)
  // CHECK-NOT: coopvec
  // CHECK: return %[[B]], %[[A]] : f32, f32
  fprintf(stderr, "canonicalized: %d\n", mlirLogicalResultIsSuccess(result));
  mlirOperationPrint(mlirModuleGetOperation(module), printToStderr, NULL);
  fprintf(stderr, "\n");
  mlirPassManagerDestroy(pm);
  mlirModuleDestroy(module);
}

static void testVerify(MlirContext ctx) {
  // CHECK-LABEL: testVerify
  fprintf(stderr, "testVerify\n");
  // CHECK: pass succeeded: 1
  runVerifyPass(ctx, validModule, coopvecCreateVerifyPass());
  // CHECK: diagnostic: 'func.func' op uses a matrix with layout 'inference', which is not available for element type f32
  // CHECK: pass succeeded: 0
  runVerifyPass(ctx, invalidModule, coopvecCreateVerifyPass());
  // The same check without a pass manager.
  MlirModule module = parse(ctx, invalidModule);
  // CHECK: diagnostic: 'func.func' op uses a matrix
  // CHECK: direct verify failed: 1
  fprintf(stderr, "direct verify failed: %d\n",
          mlirLogicalResultIsFailure(
              coopvecVerify(mlirModuleGetOperation(module))));
  mlirModuleDestroy(module);
}

/// Parses `pipeline` into a fresh pass manager and prints the result.
static void parsePipeline(MlirContext ctx, const char *pipeline,
                          bool verifyEach) {
  MlirPassManager pm = mlirPassManagerCreateOnOperation(
      ctx, mlirStringRefCreateFromCString("builtin.module"));
  MlirOpPassManager opm = mlirPassManagerGetAsOpPassManager(pm);
  MlirLogicalResult result =
      coopvecParsePassPipeline(opm, mlirStringRefCreateFromCString(pipeline),
                               verifyEach, printToStderr, NULL);
  if (mlirLogicalResultIsSuccess(result)) {
    fprintf(stderr, "parsed: ");
    mlirPrintPassPipeline(opm, printToStderr, NULL);
    fprintf(stderr, "\n");
  }
  mlirPassManagerDestroy(pm);
}

static void testPipelines(MlirContext ctx) {
  // CHECK-LABEL: testPipelines
  fprintf(stderr, "testPipelines\n");
  // Anchored on the pass manager's own op, nesting, options, upstream passes.
  // CHECK: parsed: builtin.module(func.func(coopvec-canonicalize,canonicalize{{.*}}max-iterations=3{{.*}}),cse)
  parsePipeline(ctx,
                "builtin.module(func.func(coopvec-canonicalize,"
                "canonicalize{max-iterations=3}),cse)",
                false);
  // A bare element list, with coopvec-verify after every pass.
  // CHECK: parsed: builtin.module(cse,coopvec-verify,func.func(coopvec-canonicalize,coopvec-verify))
  parsePipeline(ctx, "cse, func.func(coopvec-canonicalize)", true);
  // CHECK: parsed: builtin.module()
  parsePipeline(ctx, "builtin.module()", false);
  // CHECK: pass pipeline:1:26: error: 'no-such-pass' is neither a coopvec pass nor a registered MLIR pass or pipeline
  // CHECK-NEXT: builtin.module(func.func(no-such-pass))
  // CHECK-NEXT: {{^}}                            ^
  parsePipeline(ctx, "builtin.module(func.func(no-such-pass))", false);
  // CHECK: pass pipeline:1:34: error: expected ',' or ')'
  parsePipeline(ctx, "builtin.module(func.func(cse),cse", false);
  // CHECK: pass pipeline:1:4: error: unbalanced '{' in pass options
  parsePipeline(ctx, "cse{", false);
  // CHECK: pass pipeline:1:5: error: expected a pass or operation name
  parsePipeline(ctx, "cse,,cse", false);
  // CHECK: pass pipeline:1:1: error: invalid pass element 'canonicalize{bogus=1}': <Pass-Options-Parser>: no such option bogus; failed to add `canonicalize` with options `bogus=1`{{$}}
  parsePipeline(ctx, "canonicalize{bogus=1}", false);
  // CHECK: pass pipeline:1:1: error: pass 'coopvec-canonicalize' has no option 'bogus'
  parsePipeline(ctx, "coopvec-canonicalize{bogus=1}", false);
  // CHECK: pass pipeline:1:4: error: expected ',' or the end of the pipeline
  parsePipeline(ctx, "cse)", false);
}

static void testRunMixedPipeline(MlirContext ctx) {
  // CHECK-LABEL: testRunMixedPipeline
  fprintf(stderr, "testRunMixedPipeline\n");
  MlirModule module = parse(ctx, validModule);
  MlirPassManager pm = mlirPassManagerCreateOnOperation(
      ctx, mlirStringRefCreateFromCString("builtin.module"));
  MlirLogicalResult parsed = coopvecParsePassPipeline(
      mlirPassManagerGetAsOpPassManager(pm),
      mlirStringRefCreateFromCString(
          "builtin.module(func.func(coopvec-canonicalize,cse))"),
      true, printToStderr, NULL);
  MlirLogicalResult ran =
      mlirLogicalResultIsSuccess(parsed)
          ? mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(module))
          : mlirLogicalResultFailure();
  // CHECK: ran: 1
  fprintf(stderr, "ran: %d\n", mlirLogicalResultIsSuccess(ran));
  mlirPassManagerDestroy(pm);
  mlirModuleDestroy(module);
}

int main(void) {
  MlirContext ctx = mlirContextCreate();
  if (mlirLogicalResultIsFailure(coopvecSetupContext(ctx)))
    return 1;
  MlirDiagnosticHandlerID handler =
      mlirContextAttachDiagnosticHandler(ctx, printDiagnostic, NULL, NULL);
  testRegistry();
  testCreatePass();
  testCanonicalizePass(ctx);
  testVerify(ctx);
  testPipelines(ctx);
  testRunMixedPipeline(ctx);
  mlirContextDetachDiagnosticHandler(ctx, handler);
  mlirContextDestroy(ctx);
  return 0;
}
