//===- PassDef.h - How a coopvec pass is described (internal) -----*- C -*-===//
//
// Every coopvec pass is a static CoopvecPassDef: its name, what it anchors
// on, its options (parsed from `pass{key=value ...}` into a plain C struct)
// and its run function. ExternalPass.c turns a def into an MlirPass through
// mlirCreateExternalPass; PassRegistry.c lists all defs.
//
//===----------------------------------------------------------------------===//

#ifndef COOPVEC_LIB_PASS_PASSDEF_H
#define COOPVEC_LIB_PASS_PASSDEF_H

#include <mlir-c/IR.h>
#include <mlir-c/Pass.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum CoopvecOptionKind {
  CoopvecOptionBool,   // bool field
  CoopvecOptionInt,    // int64_t field
  CoopvecOptionString, // char[COOPVEC_OPTION_STRING_MAX] field
  /// char[COOPVEC_OPTION_STRING_MAX] field: a comma list; the option may
  /// repeat (`func=a func=b,c`): the first occurrence replaces the default,
  /// each later one appends ("a,b,c").
  CoopvecOptionList,
} CoopvecOptionKind;

enum { COOPVEC_OPTION_STRING_MAX = 128 };

typedef struct CoopvecPassOption {
  const char *name;
  CoopvecOptionKind kind;
  size_t offset; // of the field in the pass's options struct
  const char *defaultValue;
  const char *help;
} CoopvecPassOption;

typedef struct CoopvecPassDef {
  const char *argument;    // command-line name, e.g. "coopvec-canonicalize"
  const char *name;        // C++-style pass name, e.g. "CoopvecCanonicalize"
  const char *description; // one line
  const char *anchor;      // op name the pass runs on; "" for any op
  const CoopvecPassOption *options;
  size_t numOptions;
  size_t optionsSize; // sizeof the options struct (0 if none)
  /// Dialects the pass creates ops of (loaded before it runs).
  MlirDialectHandle (*const *dependentDialects)(void);
  size_t numDependentDialects;
  void (*run)(MlirOperation op, MlirExternalPass pass, const void *options);
} CoopvecPassDef;

/// The def whose argument is `argument`, or NULL.
const CoopvecPassDef *coopvecLookupPassDef(MlirStringRef argument);

/// A registered pipeline (`coopvec-lower-to-cpu`): a name that the pipeline
/// parser replaces by the pipeline text `expand` appends, as upstream
/// expands PassPipelineRegistration names. `options` is the text between
/// the braces of `name{...}` (may be empty).
typedef struct CoopvecPipelineDef {
  const char *argument;
  const char *description;
  void (*expand)(MlirStringRef options, MlirStringCallback append,
                 void *userData);
  /// Optional: reports through `error` why `options` are invalid (nothing
  /// when they are valid); the parser then reports "in pipeline '<name>':
  /// <message>" at the pipeline's name and does not expand it.
  void (*check)(MlirStringRef options, MlirStringCallback error,
                void *userData);
} CoopvecPipelineDef;

/// The registered pipeline whose argument is `argument`, or NULL.
const CoopvecPipelineDef *coopvecLookupPipelineDef(MlirStringRef argument);

/// Creates an MlirPass for `def` with `options` text; on a bad option,
/// reports through `errorCallback` and returns a null pass.
MlirPass coopvecCreatePassFromDef(const CoopvecPassDef *def,
                                  MlirStringRef options,
                                  MlirStringCallback errorCallback,
                                  void *userData);

#endif // COOPVEC_LIB_PASS_PASSDEF_H
