//===- Runner.h - coopvec-run internals -----------------------------*- C
//-*-===//
//
// coopvec-run is a client of the public headers only. It is split by
// concern: Signature.c reads the entry function through the execution
// engine (what each argument is, how large memrefs must be), Inputs.c
// fills and saves host arrays, Jit.c compiles and runs with the engine,
// Check.c compares against the reference interpreter and prints outputs.
//
//===----------------------------------------------------------------------===//

#ifndef COOPVEC_TOOLS_COOPVEC_RUN_RUNNER_H
#define COOPVEC_TOOLS_COOPVEC_RUN_RUNNER_H

#include "coopvec-c/ExecutionEngine.h"
#include "coopvec-c/Interpreter.h"
#include "coopvec-c/Npy.h"

#include <mlir-c/IR.h>

#include <stdbool.h>
#include <stdint.h>

/// Reports "coopvec-run: error: " followed by the formatted message.
void runError(const char *format, ...) __attribute__((format(printf, 1, 2)));

/// An MlirStringCallback collecting a message (userData: char[512]).
void runCollectMessage(MlirStringRef text, void *userData);

/// The largest --memref-size, and the most elements a memref file may hold.
enum { kMaxMemRefElements = 2147483647 };

/// The entry function as the engine describes it.
typedef struct Signature {
  CoopvecFunction *function;
  intptr_t numArgs, numResults;
  CoopvecValueInfo *args, *results; // type strings owned by the engine
  int64_t *usedExtents; // per argument: elements a memref accesses, or -1
  int64_t maxReduction; // longest matvec dot product (>= 1)
} Signature;

/// Reads the signature of `function` (@entry in `module`). Reports and
/// fails on argument or result types the engine cannot pass.
MlirLogicalResult signatureInit(Signature *signature, CoopvecFunction *function,
                                MlirModule module, const char *entry);
/// Computes `usedExtents` from the known scalar `inputs` (entries may be
/// empty). An access the engine cannot bound leaves -1; an invalid one (a
/// negative or overflowing offset) is reported and fails.
MlirLogicalResult signatureDeriveExtents(Signature *signature,
                                         CoopvecEngine *engine,
                                         const CoopvecArray *inputs);
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
  const char *reduceMode; // --reduce-mode: direct, local, expand or auto
  const char *laneRefill; // --lane-refill: true, false or auto (CPU)
  bool emulateMMA;        // --emulate-mma (cuda, vulkan)
  bool mmaRegions;        // --mma-regions (cuda, vulkan)
  const char *mmaWeights; // --mma-weights: slices or whole (cuda, vulkan)
  const char *training;   // --training: block or subgroup (cuda, vulkan)
  const char *sharedLibs[8];
  int numSharedLibs;
  int64_t lanes;
  int64_t threads; // 0: all cores
  CoopvecTarget target;
  bool hasTarget;
  int64_t device; // --device: the engine's device index
  bool hasDevice;
  bool listDevices; // --list-devices: no input file needed
  bool check;
  double rtol, atol;
  bool hasRtol, hasAtol;
  bool reference; // run the interpreter instead of the JIT
  bool print;
  bool time;
} Options;

/// Fills `inputs[i]` for every argument from --arg files or --random, and
/// validates shapes, dtypes and memref sizes against `signature`.
MlirLogicalResult inputsPrepare(const Options *options, Signature *signature,
                                CoopvecEngine *engine, CoopvecNpyArray *inputs);
/// Allocates zeroed outputs (one batch x N array per result).
MlirLogicalResult outputsAllocate(const Options *options,
                                  const Signature *signature,
                                  CoopvecNpyArray *results);
/// Deep copy of `source` into `copy` (destroy with coopvecNpyArrayDestroy).
MlirLogicalResult arrayCopy(const CoopvecNpyArray *source,
                            CoopvecNpyArray *copy);
/// Writes `array` to `path`, reporting errors.
MlirLogicalResult arraySave(const char *path, const CoopvecNpyArray *array);

/// Compiles the engine (the pipeline was chosen when it was created) and
/// runs the entry point on `inputs`, filling `results`.
MlirLogicalResult jitRun(const Options *options, CoopvecEngine *engine,
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
