//===- FuzzCommon.h - What the fuzz harnesses share ---------------*- C -*-===//
//
// Every harness in test/fuzz is a libFuzzer entry point
// (LLVMFuzzerTestOneInput) over the public C API. They share one MLIR
// context per process (setting one up registers every upstream dialect and
// pass, far too slow to repeat per input), swallow diagnostics (bad input
// is expected; only crashes and broken invariants are findings), and stop
// with coopvecFuzzFail when the library breaks a promise it makes.
// docs/reliability.md describes each harness.
//
//===----------------------------------------------------------------------===//

#ifndef COOPVEC_TEST_FUZZ_FUZZCOMMON_H
#define COOPVEC_TEST_FUZZ_FUZZCOMMON_H

#include <mlir-c/IR.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/// The entry points every harness defines (libFuzzer's, or StandaloneMain's
/// when the harness is built as a replay tool).
int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/// The shared context, set up with coopvecSetupContext. Diagnostics are
/// counted and dropped (printed to stderr when the environment sets
/// COOPVEC_FUZZ_VERBOSE, to see why an input is refused).
MlirContext coopvecFuzzContext(void);

/// Called at the start of every input: every 64th call replaces the
/// context by a fresh one. A context keeps every type, attribute and name
/// it ever saw, so one context over millions of inputs grows without
/// bound; setting one up takes about 2 ms, too slow for every input. Hold
/// nothing of the context from one input to the next.
void coopvecFuzzBeginInput(void);

/// An error callback for the library's calls: prints to stderr under
/// COOPVEC_FUZZ_VERBOSE, else NULL (drop the message).
MlirStringCallback coopvecFuzzErrorCallback(void);

/// Error diagnostics emitted since the last coopvecFuzzResetErrors.
int coopvecFuzzErrorCount(void);
void coopvecFuzzResetErrors(void);

/// A NUL-terminated malloc'ed copy of `data` (free it).
char *coopvecFuzzCopyText(const uint8_t *data, size_t size);

/// Parses `text` into a module of the shared context; null on error.
MlirModule coopvecFuzzParse(const char *text, size_t length);

/// MLIR's verifier, then coopvec-verify.
bool coopvecFuzzVerify(MlirOperation op);

typedef enum CoopvecFuzzPipelineResult {
  CoopvecFuzzPipelineInvalid, // the text did not parse
  CoopvecFuzzPipelineFailed,  // it parsed, and a pass failed
  CoopvecFuzzPipelineSucceeded,
} CoopvecFuzzPipelineResult;

/// Parses `pipeline` with coopvecParsePassPipeline into a pass manager on
/// builtin.module and, if it parses, runs it on `module`.
CoopvecFuzzPipelineResult coopvecFuzzRunPipeline(MlirOperation module,
                                                 const char *pipeline,
                                                 size_t length,
                                                 bool verifyEach);

/// A broken invariant: prints `what` and aborts, which libFuzzer records as
/// a crash with the input that caused it.
_Noreturn void coopvecFuzzFail(const char *what);

#endif // COOPVEC_TEST_FUZZ_FUZZCOMMON_H
