//===- Runner.h - coopvec-run internals ----------------------------*- C
//-*-===//
//
// coopvec-run is split by concern: Signature.c reads the entry function
// (what each argument is, which memrefs it writes, how large they must be),
// Inputs.c fills and saves host arrays, Jit.c lowers and runs the module,
// Check.c compares against the reference interpreter and prints outputs.
//
//===----------------------------------------------------------------------===//

#ifndef COOPVEC_TOOLS_COOPVEC_RUN_RUNNER_H
#define COOPVEC_TOOLS_COOPVEC_RUN_RUNNER_H

#include "coopvec-c/Interpreter.h"
#include "coopvec-c/Npy.h"

#include <mlir-c/IR.h>

#include <stdbool.h>
#include <stdint.h>

/// Reports "coopvec-run: error: " followed by the formatted message.
void runError(const char *format, ...) __attribute__((format(printf, 1, 2)));

/// An MlirStringCallback collecting a message (userData: char[512]).
void runCollectMessage(MlirStringRef text, void *userData);

typedef enum ArgKind {
  ArgKindVec,    // per-thread !coopvec.vec<N, T>: a batch x N array
  ArgKindMemRef, // shared rank-1 memref: a 1-D array
  ArgKindScalar, // shared scalar: a 0-d or 1-element array
} ArgKind;

/// One argument or result of the entry function.
typedef struct ValueInfo {
  ArgKind kind;
  CoopvecDType dtype;
  int64_t length;       // vec: N; static memref: its size; otherwise -1
  bool written;         // memref: the function may write it
  int64_t usedExtent;   // memref: elements the function touches, -1 unknown
  const char *typeText; // the type as printed, for messages (owned)
} ValueInfo;

typedef struct Signature {
  MlirOperation func;
  intptr_t numArgs, numResults;
  ValueInfo *args, *results;
  int64_t maxReduction; // longest matvec dot product (>= 1)
} Signature;

/// Reads the signature of `func`. Reports and fails on argument or result
/// types coopvec-run cannot marshal.
MlirLogicalResult signatureInit(Signature *signature, MlirOperation func);
/// Computes `usedExtent` of each memref argument; scalar index arguments
/// used as offsets take their values from `inputs` (entries may be NULL
/// when not known yet).
void signatureDeriveExtents(Signature *signature,
                            const CoopvecNpyArray *const *inputs);
void signatureDestroy(Signature *signature);

/// What the user asked for on the command line.
typedef struct Options {
  const char *inputPath;
  const char *entry;
  int64_t batch;
  const char **argPaths;
  int numArgPaths;
  bool random;
  uint64_t seed;
  int64_t (*memrefSizeSpecs)[2]; // --memref-size=INDEX:SIZE pairs
  int numMemrefSizeSpecs;
  int64_t *memrefSizes; // per argument (from the specs), -1 when not given
  const char *outPrefix;
  const char *saveInputsPrefix;
  const char *loweredPath;
  const char *pipeline;
  const char *sharedLibs[8];
  int numSharedLibs;
  int64_t lanes;
  bool check;
  double rtol, atol;
  bool hasRtol, hasAtol;
  bool reference; // run the interpreter instead of the JIT
  bool print;
  bool time;
} Options;

/// Fills `inputs[i]` for every argument from --arg files or --random, and
/// validates shapes and dtypes against `signature`.
MlirLogicalResult inputsPrepare(const Options *options, Signature *signature,
                                CoopvecNpyArray *inputs);
/// Allocates zeroed outputs (one batch x N array per result).
void outputsAllocate(const Options *options, const Signature *signature,
                     CoopvecNpyArray *results);
/// Deep copy of `source` into `copy` (destroy with coopvecNpyArrayDestroy).
void arrayCopy(const CoopvecNpyArray *source, CoopvecNpyArray *copy);
/// Writes `array` to `path`, reporting errors.
MlirLogicalResult arraySave(const char *path, const CoopvecNpyArray *array);

/// Lowers a clone of `module` (or the --lowered file), JIT-compiles it and
/// runs `<entry>_batched` on `inputs`, filling `results`.
MlirLogicalResult jitRun(const Options *options, MlirModule module,
                         const Signature *signature, CoopvecNpyArray *inputs,
                         CoopvecNpyArray *results);

/// Runs the interpreter on `module` with copies of `inputs` taken before the
/// JIT ran, compares every result and written memref, prints the verdicts.
/// Sets `*passed`. Fails only when the interpreter itself fails.
MlirLogicalResult checkAgainstInterpreter(
    const Options *options, MlirModule module, const Signature *signature,
    const CoopvecNpyArray *initialInputs, const CoopvecNpyArray *inputs,
    const CoopvecNpyArray *results, bool *passed);

/// Runs the reference interpreter instead of the JIT: memref inputs are
/// written in place, results are rounded to their element types.
MlirLogicalResult interpretRun(const Options *options, MlirModule module,
                               const Signature *signature,
                               CoopvecNpyArray *inputs,
                               CoopvecNpyArray *results);

/// Prints an array as text, one thread (row) per line.
void printArrayText(const char *title, const CoopvecNpyArray *array);

#endif // COOPVEC_TOOLS_COOPVEC_RUN_RUNNER_H
