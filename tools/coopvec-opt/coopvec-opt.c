//===- coopvec-opt.c - The coopvec optimizer driver -----------------------===//

#include "coopvec-c/Coopvec.h"

#include <mlir-c/IR.h>
#include <mlir-c/Pass.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void printToFile(MlirStringRef text, void *userData) {
  fwrite(text.data, 1, text.length, (FILE *)userData);
}

static char *readFile(const char *path, size_t *size) {
  FILE *file = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
  if (!file)
    return NULL;
  size_t capacity = 4096, length = 0;
  char *data = malloc(capacity);
  size_t got;
  while ((got = fread(data + length, 1, capacity - length, file)) > 0) {
    length += got;
    if (length == capacity)
      data = realloc(data, capacity *= 2);
  }
  if (file != stdin)
    fclose(file);
  *size = length;
  return data;
}

int main(int argc, char **argv) {
  const char *input = "-", *pipeline = NULL;
  for (int i = 1; i < argc; ++i) {
    if (strncmp(argv[i], "--pass-pipeline=", 16) == 0)
      pipeline = argv[i] + 16;
    else
      input = argv[i];
  }
  size_t size = 0;
  char *text = readFile(input, &size);
  if (!text) {
    fprintf(stderr, "coopvec-opt: cannot read '%s'\n", input);
    return 1;
  }
  MlirContext ctx = mlirContextCreate();
  coopvecSetupContext(ctx);
  MlirOperation module = mlirOperationCreateParse(
      ctx, mlirStringRefCreate(text, size), mlirStringRefCreateFromCString(input));
  int rc = 1;
  if (!mlirOperationIsNull(module) &&
      mlirLogicalResultIsSuccess(coopvecVerify(module))) {
    // Anchor on builtin.module like mlir-opt: mlirPassManagerCreate anchors
    // on `any`, under which `builtin.module(...)` would nest instead.
    MlirPassManager pm = mlirPassManagerCreateOnOperation(
        ctx, mlirStringRefCreateFromCString("builtin.module"));
    if (pipeline &&
        mlirLogicalResultIsFailure(coopvecParsePassPipeline(
            mlirPassManagerGetAsOpPassManager(pm),
            mlirStringRefCreateFromCString(pipeline), true, printToFile,
            stderr))) {
      rc = 1;
    } else if (mlirLogicalResultIsSuccess(mlirPassManagerRunOnOp(pm, module))) {
      mlirOperationPrint(module, printToFile, stdout);
      printf("\n");
      rc = 0;
    }
    mlirPassManagerDestroy(pm);
  }
  if (!mlirOperationIsNull(module))
    mlirOperationDestroy(module);
  mlirContextDestroy(ctx);
  free(text);
  return rc;
}
