//===- Driver.h - Pieces of the coopvec-opt driver (internal) -----*- C -*-===//
//
// coopvec-opt is split by concern: Options.c reads the command line,
// Source.c reads, splits and parses the input, Diagnostics.c turns MLIR
// diagnostics into printable records, VerifyDiagnostics.c implements
// --verify-diagnostics, and coopvec-opt.c ties them together.
//
//===----------------------------------------------------------------------===//

#ifndef COOPVEC_TOOLS_COOPVEC_OPT_DRIVER_H
#define COOPVEC_TOOLS_COOPVEC_OPT_DRIVER_H

#include "coopvec-c/Support.h"
#include "coopvec-c/Target.h"

#include <mlir-c/Diagnostics.h>
#include <mlir-c/IR.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

//===----------------------------------------------------------------------===//
// Command line (Options.c)
//===----------------------------------------------------------------------===//

/// A pass given as its own flag: `--name` or `--name=options`.
typedef struct PassFlag {
  const char *spelling; // the argument as given, for error messages
  const char *name;     // points into argv; `nameLength` bytes
  size_t nameLength;
  const char *options; // text after '=', or NULL
} PassFlag;

typedef struct DriverOptions {
  const char *inputPath;          // "-" for stdin
  const char *outputPath;         // NULL for stdout
  const char *passPipeline;       // --pass-pipeline, or NULL
  CoopvecEmitKind emitKind;       // with emitLLVM: --emit=llvm|asm|obj
  bool emitLLVM;                  // false: --emit=mlir (the default)
  CoopvecGPUEmitKind gpuEmitKind; // with emitGPU: --emit=ptx|cubin
  bool emitGPU;                   // a gpu.binary object, not the module
  bool emitSPIRV;                 // --emit=spirv: the SPIR-V words
  CoopvecTargetOptions target;    // --target-triple/--target-cpu/--opt-level
  PassFlag *passFlags;            // in command-line order
  size_t numPassFlags;
  bool splitInputFile;
  bool verifyDiagnostics;
  bool verifyEach;
  bool allowUnregisteredDialect;
  bool printIRBeforeAll;
  bool printIRAfterAll;
  bool printIRAfterChange;
  bool printIRAfterFailure;
  bool printIRModuleScope;
  bool timing;
  bool printDebugInfo;
  bool printGenericForm;
  bool showHelp;
  bool showVersion;
  bool listPasses;
  bool emitIRDL;
} DriverOptions;

/// Fills `options` from argv; on a malformed command line prints an error
/// and returns false. Pass flags are only collected here: whether an
/// unknown name is an upstream pass needs a context (buildPipelineText).
bool parseCommandLine(int argc, char **argv, DriverOptions *options);
void freeCommandLine(DriverOptions *options);

void printHelp(FILE *stream);
void printVersion(FILE *stream);
void printPassList(FILE *stream);

/// The textual pipeline to run: --pass-pipeline, or the pass flags joined
/// with ','. Reports unknown options and mixing both forms.
bool buildPipelineText(MlirContext ctx, const DriverOptions *options,
                       CoopvecBuffer *pipeline);

//===----------------------------------------------------------------------===//
// Input (Source.c)
//===----------------------------------------------------------------------===//

/// The whole input, named as diagnostics name it.
typedef struct SourceFile {
  const char *name; // the path, or "<stdin>"
  char *text;       // NUL-terminated
  size_t size;
} SourceFile;

/// One `// -----`-separated piece of the input.
typedef struct SourceChunk {
  size_t begin, end;  // byte range in SourceFile::text
  unsigned firstLine; // 1-based line of `begin`
} SourceChunk;

bool readSource(const char *path, SourceFile *source);
void freeSource(SourceFile *source);

/// Splits on lines that are exactly `// -----` (trailing blanks allowed)
/// when `split` is set; otherwise returns the whole input as one chunk.
/// The caller frees `*chunks`.
size_t splitSource(const SourceFile *source, bool split, SourceChunk **chunks);

/// The chunk's text preceded by newlines so that its line numbers are those
/// of the whole file.
void getPaddedChunk(const SourceFile *source, SourceChunk chunk,
                    CoopvecBuffer *text);

//===----------------------------------------------------------------------===//
// Diagnostics (Diagnostics.c)
//===----------------------------------------------------------------------===//

/// A diagnostic copied out of MLIR (MlirDiagnostic lives only during the
/// handler call).
typedef struct DiagRecord {
  MlirDiagnosticSeverity severity;
  char *file; // NULL when no file:line:col location was found
  unsigned line, column;
  char *location; // the printed location, used when `file` is NULL
  char *message;
  struct DiagRecord *notes;
  size_t numNotes;
} DiagRecord;

typedef struct DiagList {
  DiagRecord *items;
  size_t size, capacity;
} DiagList;

typedef struct DiagEngine {
  const SourceFile *source;
  /// While the input is parsed: the name MLIR gives its buffer, which
  /// diagnostics show as the input's name (see Source.c).
  const char *bufferName;
  /// --verify-diagnostics: delivered diagnostics go to `recorded`.
  bool recording;
  DiagList recorded;
  bool sawError; // an error was delivered
  MlirContext context;
  MlirDiagnosticHandlerID handlerID;
} DiagEngine;

void attachDiagEngine(DiagEngine *engine, MlirContext context,
                      const SourceFile *source);
void detachDiagEngine(DiagEngine *engine);
void clearDiagList(DiagList *list);

/// Prints `file:line:col: severity: message`, then the source line and a
/// caret (underlining `length` characters) when `file` is the input.
void printSourceMessage(FILE *stream, const SourceFile *source,
                        const char *file, unsigned line, unsigned column,
                        size_t length, const char *severity,
                        const char *message);
void printDiagRecord(FILE *stream, const SourceFile *source,
                     const DiagRecord *record);

//===----------------------------------------------------------------------===//
// --verify-diagnostics (VerifyDiagnostics.c)
//===----------------------------------------------------------------------===//

typedef struct ExpectationList ExpectationList;

/// Collects the `expected-*` comments of `text` (a padded chunk). Malformed
/// directives are reported; then returns NULL.
ExpectationList *collectExpectations(const SourceFile *source, const char *text,
                                     size_t size);
/// Matches `recorded` against the expectations; reports unexpected and
/// missing diagnostics. Returns whether everything matched.
bool checkExpectations(const SourceFile *source, ExpectationList *expected,
                       const DiagList *recorded);
void freeExpectations(ExpectationList *expected);

//===----------------------------------------------------------------------===//
// Parsing (Source.c)
//===----------------------------------------------------------------------===//

/// Parses a padded chunk into a builtin.module the way mlir-opt does: a
/// single top-level module is used as is, anything else is wrapped into
/// one. Returns a null operation on failure (diagnostics were delivered).
MlirOperation parseModule(MlirContext ctx, DiagEngine *engine, const char *text,
                          size_t size);

#endif // COOPVEC_TOOLS_COOPVEC_OPT_DRIVER_H
