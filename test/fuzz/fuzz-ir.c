//===- fuzz-ir.c - Fuzz parsing, verifying and canonicalizing coopvec IR --===//
//
// Input: MLIR text. It is parsed, verified (MLIR's verifier with the IRDL
// constraints, then coopvec-verify) and, when it verifies,
// coopvec-canonicalize runs on it with verification after the pass.
// Invariants checked beyond "no crash":
//  - coopvec-canonicalize never fails on verified IR (it has no failure
//    path, and must keep the IR valid);
//  - its result prints in the generic form, parses back and verifies.
//
//===----------------------------------------------------------------------===//

#include "FuzzCommon.h"

#include "coopvec-c/Support.h"

#include <stdlib.h>
#include <string.h>

/// Inputs past this size only slow the fuzzer down (libFuzzer's -max_len
/// normally keeps them out; replayed files may be longer).
enum { MAX_INPUT = 1 << 16 };

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  coopvecFuzzContext();
  return 0;
}

/// The generic form of `op` parses back and verifies.
static void checkRoundTrip(MlirOperation op) {
  CoopvecBuffer printed = {0};
  MlirOpPrintingFlags flags = mlirOpPrintingFlagsCreate();
  mlirOpPrintingFlagsPrintGenericOpForm(flags);
  mlirOperationPrintWithFlags(op, flags, coopvecBufferCallback, &printed);
  mlirOpPrintingFlagsDestroy(flags);
  MlirModule reparsed =
      coopvecFuzzParse(coopvecBufferStr(&printed), printed.size);
  if (mlirModuleIsNull(reparsed))
    coopvecFuzzFail("canonicalized IR does not parse back");
  if (!coopvecFuzzVerify(mlirModuleGetOperation(reparsed)))
    coopvecFuzzFail("canonicalized IR does not verify after a round trip");
  mlirModuleDestroy(reparsed);
  coopvecBufferFree(&printed);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > MAX_INPUT)
    return 0;
  coopvecFuzzBeginInput();
  char *text = coopvecFuzzCopyText(data, size);
  MlirModule module = coopvecFuzzParse(text, size);
  if (!mlirModuleIsNull(module)) {
    MlirOperation op = mlirModuleGetOperation(module);
    if (coopvecFuzzVerify(op)) {
      static const char pipeline[] = "coopvec-canonicalize";
      if (coopvecFuzzRunPipeline(op, pipeline, strlen(pipeline), true) !=
          CoopvecFuzzPipelineSucceeded)
        coopvecFuzzFail("coopvec-canonicalize failed on verified IR");
      checkRoundTrip(op);
    }
    mlirModuleDestroy(module);
  }
  free(text);
  return 0;
}
