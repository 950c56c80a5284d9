//===- embedding.c - C API: a host that only loads the dialect ------------===//
//
// The C host of docs/embedding.md: it creates a context, calls
// coopvecLoadDialect and nothing else (no coopvecSetupContext, no
// mlirRegisterAll*), and then parses coopvec IR, lowers it with each
// coopvec pipeline, emits LLVM IR and compiles and runs it with the
// execution engine. Issue 24, row 2: the pipelines named upstream passes
// that no one had registered ("'canonicalize' is neither a coopvec pass
// nor a registered MLIR pass"), and with only the passes registered the
// SPIR-V pipeline crashed for want of the dialect extensions.
//
//===----------------------------------------------------------------------===//

// RUN: coopvec-capi-embedding 2>&1 | FileCheck %s

#include "coopvec-c/Coopvec.h"

#include <stdio.h>
#include <string.h>

static const char *const kSource =
    "func.func @scale(%x: !coopvec.vec<16, f16>, %w: memref<?xf16>) -> "
    "!coopvec.vec<16, f16> {\n"
    "  %A = \"coopvec.matrix_view\"(%w) {offset = 0} : (memref<?xf16>) -> "
    "!coopvec.matrix<16, 16, f16, \"row_major\">\n"
    "  %y = \"coopvec.matvec\"(%A, %x) : (!coopvec.matrix<16, 16, f16, "
    "\"row_major\">, !coopvec.vec<16, f16>) -> !coopvec.vec<16, f16>\n"
    "  return %y : !coopvec.vec<16, f16>\n"
    "}\n";

static void printToStdout(MlirStringRef text, void *userData) {
  (void)userData;
  fwrite(text.data, 1, text.length, stdout);
}

static void countBytes(MlirStringRef text, void *userData) {
  *(size_t *)userData += text.length;
}

/// Parses kSource, lowers it with `pipeline` and says how it went.
static void lower(MlirContext ctx, const char *pipeline) {
  MlirModule module =
      mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(kSource));
  MlirPassManager pm = mlirPassManagerCreateOnOperation(
      ctx, mlirStringRefCreateFromCString("builtin.module"));
  bool ok = !mlirModuleIsNull(module) &&
            mlirLogicalResultIsSuccess(coopvecParsePassPipeline(
                mlirPassManagerGetAsOpPassManager(pm),
                mlirStringRefCreateFromCString(pipeline), true, printToStdout,
                NULL)) &&
            mlirLogicalResultIsSuccess(
                mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(module)));
  size_t llvmBytes = 0;
  if (ok && strstr(pipeline, "-cpu"))
    ok = mlirLogicalResultIsSuccess(
        coopvecEmitLLVM(mlirModuleGetOperation(module), CoopvecEmitLLVMIR, NULL,
                        countBytes, &llvmBytes, printToStdout, NULL));
  printf("%s: %s%s\n", pipeline, ok ? "lowered" : "FAILED",
         llvmBytes ? ", LLVM IR emitted" : "");
  mlirPassManagerDestroy(pm);
  if (!mlirModuleIsNull(module))
    mlirModuleDestroy(module);
}

/// Compiles kSource with the engine's default (CPU) pipeline and runs it
/// for 3 threads with the identity matrix: y = x.
static void run(MlirContext ctx) {
  MlirModule module =
      mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(kSource));
  CoopvecEngine *engine = NULL;
  CoopvecFunction *scale = NULL;
  CoopvecStatus status =
      coopvecEngineCreate(mlirModuleGetOperation(module), NULL, &engine);
  if (status == CoopvecStatusSuccess)
    status = coopvecEngineLookup(engine, "scale", &scale);
  if (status == CoopvecStatusSuccess)
    status = coopvecEngineCompile(engine);
  uint16_t x[3 * 16], w[16 * 16] = {0}, y[3 * 16] = {0};
  for (int i = 0; i < 3 * 16; ++i)
    x[i] = (uint16_t)(0x3C00 + i); // 1.0, 1.00098, ...
  for (int i = 0; i < 16; ++i)
    w[i * 16 + i] = 0x3C00; // 1.0 on the diagonal
  CoopvecArray args[2] = {{x, CoopvecDTypeF16, 3 * 16},
                          {w, CoopvecDTypeF16, 16 * 16}};
  CoopvecArray results[1] = {{y, CoopvecDTypeF16, 3 * 16}};
  if (status == CoopvecStatusSuccess)
    status = coopvecFunctionRun(scale, 3, args, 2, results, 1, 0);
  bool same = status == CoopvecStatusSuccess && memcmp(x, y, sizeof(x)) == 0;
  printf("engine: %s, %s\n", coopvecStatusGetName(status),
         same ? "y = x" : coopvecEngineGetError(engine));
  mlirModuleDestroy(module); // the engine has its own clone
  coopvecEngineDestroy(engine);
}

/// Every coopvec pipeline, and one mixing a coopvec pass with upstream ones.
static const char *const kPipelines[] = {
    // CHECK: builtin.module(coopvec-lower-to-cpu): lowered, LLVM IR emitted
    "builtin.module(coopvec-lower-to-cpu)",
    // CHECK-NEXT: builtin.module(func.func(coopvec-canonicalize,cse)): lowered
    "builtin.module(func.func(coopvec-canonicalize,cse))",
    // CHECK-NEXT: builtin.module(coopvec-lower-to-nvvm{binary=false}): lowered
    "builtin.module(coopvec-lower-to-nvvm{binary=false})",
    // CHECK-NEXT: builtin.module(coopvec-lower-to-spirv): lowered
    "builtin.module(coopvec-lower-to-spirv)",
};

int main(void) {
  MlirContext ctx = mlirContextCreate();
  // The only setup (docs/embedding.md).
  bool loaded = mlirLogicalResultIsSuccess(coopvecLoadDialect(ctx));
  size_t count = sizeof(kPipelines) / sizeof(kPipelines[0]);
  for (size_t i = 0; loaded && i < count; ++i)
    lower(ctx, kPipelines[i]);
  // CHECK-NEXT: engine: success, y = x
  if (loaded)
    run(ctx);
  mlirContextDestroy(ctx);
  return loaded ? 0 : 1;
}
