// Loads coopvec into a fresh context (coopvecLoadDialect is all the setup a
// host does: docs/embedding.md), parses a module that uses it, and runs a
// pipeline mixing a coopvec pass with an upstream one.
#include <coopvec-c/Coopvec.h>

#include <stdio.h>

static void print(MlirStringRef text, void *userData) {
  fwrite(text.data, 1, text.length, (FILE *)userData);
}

int main(void) {
  MlirContext ctx = mlirContextCreate();
  int rc = 1;
  if (mlirLogicalResultIsSuccess(coopvecLoadDialect(ctx))) {
    MlirModule module = mlirModuleCreateParse(
        ctx, mlirStringRefCreateFromCString(
                 "func.func @f(%x: !coopvec.vec<3, f32>) {\n"
                 "  %0 = \"coopvec.neg\"(%x) : (!coopvec.vec<3, f32>) -> "
                 "!coopvec.vec<3, f32>\n"
                 "  return\n}\n"));
    MlirPassManager pm = mlirPassManagerCreateOnOperation(
        ctx, mlirStringRefCreateFromCString("builtin.module"));
    if (!mlirModuleIsNull(module) &&
        mlirLogicalResultIsSuccess(coopvecParsePassPipeline(
            mlirPassManagerGetAsOpPassManager(pm),
            mlirStringRefCreateFromCString(
                "builtin.module(func.func(coopvec-canonicalize,cse))"),
            true, print, stderr)) &&
        mlirLogicalResultIsSuccess(
            mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(module)))) {
      printf("coopvec %s: ", coopvecGetVersion());
      mlirOperationPrint(mlirModuleGetOperation(module), print, stdout);
      printf("\n");
      rc = 0;
    }
    mlirPassManagerDestroy(pm);
    if (!mlirModuleIsNull(module))
      mlirModuleDestroy(module);
  }
  mlirContextDestroy(ctx);
  return rc;
}
