//===- type-cache.c - C API: type queries across contexts -----------------===//
//
// Within a pass's run, coopvecVerify and the interpreter's decode, a coopvec
// type's parameters are read once per thread and cached by the uniqued
// type's address (lib/Dialect/TypeCache.h). A context destroyed and another
// created often gets the same addresses back for different types: each
// round here makes a fresh context whose vec size differs from the last
// round's, then verifies, runs a pass, interprets and queries, and every
// answer must be this round's (a cache that outlived its scope would give
// the previous round's size: the interpreter would then read the wrong
// number of elements per thread).
//
//===----------------------------------------------------------------------===//

// RUN: coopvec-capi-type-cache 2>&1 | FileCheck %s

#include "coopvec-c/Coopvec.h"
#include "coopvec-c/Interpreter.h"

#include <mlir-c/BuiltinTypes.h>
#include <mlir-c/Pass.h>

#include <stdio.h>

enum { ROUNDS = 40, THREADS = 3, MAX_SIZE = 9 };

static void printError(MlirStringRef message, void *userData) {
  (void)userData;
  fprintf(stderr, "%.*s\n", (int)message.length, message.data);
}

/// One round: @f(x) = x + x * x on vec<size, f32>, after coopvec-canonicalize.
static int runRound(int round, int size) {
  MlirContext ctx = mlirContextCreate();
  int failed = mlirLogicalResultIsFailure(coopvecSetupContext(ctx));
  char source[512];
  snprintf(source, sizeof(source),
           "func.func @f(%%x: !coopvec.vec<%d, f32>) -> !coopvec.vec<%d, "
           "f32> {\n"
           "  %%0 = \"coopvec.mul\"(%%x, %%x) : (!coopvec.vec<%d, f32>, "
           "!coopvec.vec<%d, f32>) -> !coopvec.vec<%d, f32>\n"
           "  %%1 = \"coopvec.add\"(%%x, %%0) : (!coopvec.vec<%d, f32>, "
           "!coopvec.vec<%d, f32>) -> !coopvec.vec<%d, f32>\n"
           "  return %%1 : !coopvec.vec<%d, f32>\n}\n",
           size, size, size, size, size, size, size, size, size);
  MlirModule module =
      mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(source));
  MlirOperation op = mlirModuleGetOperation(module);
  failed = failed || mlirModuleIsNull(module) ||
           mlirLogicalResultIsFailure(coopvecVerify(op));
  MlirPassManager pm = mlirPassManagerCreate(ctx);
  if (!failed) {
    mlirPassManagerAddOwnedPass(pm, coopvecCreateCanonicalizePass());
    failed = mlirLogicalResultIsFailure(mlirPassManagerRunOnOp(pm, op));
  }
  float x[THREADS * MAX_SIZE], y[THREADS * MAX_SIZE];
  for (int i = 0; i < THREADS * size; ++i)
    x[i] = (float)(i % 7) - 2.0f;
  CoopvecArray arg = {x, CoopvecDTypeF32, (int64_t)THREADS * size};
  CoopvecArray result = {y, CoopvecDTypeF32, (int64_t)THREADS * size};
  failed = failed || mlirLogicalResultIsFailure(coopvecInterpret(
                         op, mlirStringRefCreateFromCString("f"), THREADS, &arg,
                         1, &result, 1, printError, NULL));
  for (int i = 0; !failed && i < THREADS * size; ++i)
    failed = y[i] != x[i] + x[i] * x[i];
  if (!failed) {
    // Outside any scope: read from the printed type.
    MlirType vec = coopvecVecTypeGet(ctx, size, mlirF32TypeGet(ctx));
    failed = coopvecVecTypeGetSize(vec) != size || !coopvecTypeIsAVec(vec);
  }
  if (failed)
    fprintf(stderr, "round %d (vec<%d>): FAIL\n", round, size);
  mlirPassManagerDestroy(pm);
  if (!mlirModuleIsNull(module))
    mlirModuleDestroy(module);
  mlirContextDestroy(ctx);
  return failed;
}

int main(void) {
  int failures = 0;
  for (int round = 0; round < ROUNDS; ++round)
    failures += runRound(round, 1 + (round * 3) % MAX_SIZE);
  // CHECK-NOT: FAIL
  // CHECK: 40 rounds, 0 failed
  fprintf(stderr, "%d rounds, %d failed\n", ROUNDS, failures);
  return failures != 0;
}
