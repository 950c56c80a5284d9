//===- Diagnostics.c - Copying, printing and routing MLIR diagnostics -----===//
//
// The handler copies every MlirDiagnostic into a DiagRecord (the diagnostic
// itself dies when the handler returns) and then either records it
// (--verify-diagnostics) or prints it in
// the `file:line:col: error: message` form, with the source line and a
// caret like mlir-opt.
//
//===----------------------------------------------------------------------===//

#include "Driver.h"

#include <stdlib.h>
#include <string.h>

static char *copyString(const char *text, size_t length) {
  char *copy = malloc(length + 1);
  if (!copy) {
    fprintf(stderr, "coopvec-opt: out of memory\n");
    abort();
  }
  memcpy(copy, text, length);
  copy[length] = '\0';
  return copy;
}

static char *takeBuffer(CoopvecBuffer *buffer) {
  char *text = copyString(coopvecBufferStr(buffer), buffer->size);
  coopvecBufferFree(buffer);
  return text;
}

//===----------------------------------------------------------------------===//
// Locations
//===----------------------------------------------------------------------===//

/// Finds the file:line:col a location points at, looking through name,
/// call-site (the callee, as MLIR's source manager handler does) and fused
/// locations. Returns a null location when there is none.
static MlirLocation findFileLocation(MlirLocation loc) {
  if (mlirLocationIsAFileLineColRange(loc))
    return loc;
  if (mlirLocationIsAName(loc))
    return findFileLocation(mlirLocationNameGetChildLoc(loc));
  if (mlirLocationIsACallSite(loc))
    return findFileLocation(mlirLocationCallSiteGetCallee(loc));
  MlirLocation none = {NULL};
  if (!mlirLocationIsAFused(loc))
    return none;
  intptr_t count = mlirLocationFusedGetNumLocations(loc);
  MlirLocation *parts = calloc((size_t)count + 1, sizeof(MlirLocation));
  mlirLocationFusedGetLocations(loc, parts);
  MlirLocation found = none;
  for (intptr_t i = 0; i < count && mlirLocationIsNull(found); ++i)
    found = findFileLocation(parts[i]);
  free(parts);
  return found;
}

static void setRecordLocation(DiagEngine *engine, MlirLocation loc,
                              DiagRecord *record) {
  MlirLocation fileLoc = findFileLocation(loc);
  if (mlirLocationIsNull(fileLoc)) {
    CoopvecBuffer printed = {0};
    mlirLocationPrint(loc, coopvecBufferCallback, &printed);
    record->location = takeBuffer(&printed);
    return;
  }
  MlirStringRef file =
      mlirIdentifierStr(mlirLocationFileLineColRangeGetFilename(fileLoc));
  // While parsing, the buffer's name stands for the input (Source.c).
  if (engine->bufferName &&
      mlirStringRefEqual(file,
                         mlirStringRefCreateFromCString(engine->bufferName)))
    file = mlirStringRefCreateFromCString(engine->source->name);
  record->file = copyString(file.data, file.length);
  record->line = (unsigned)mlirLocationFileLineColRangeGetStartLine(fileLoc);
  record->column =
      (unsigned)mlirLocationFileLineColRangeGetStartColumn(fileLoc);
}

//===----------------------------------------------------------------------===//
// Records
//===----------------------------------------------------------------------===//

static void copyDiagnostic(DiagEngine *engine, MlirDiagnostic diagnostic,
                           DiagRecord *record) {
  memset(record, 0, sizeof(*record));
  record->severity = mlirDiagnosticGetSeverity(diagnostic);
  setRecordLocation(engine, mlirDiagnosticGetLocation(diagnostic), record);
  CoopvecBuffer message = {0};
  mlirDiagnosticPrint(diagnostic, coopvecBufferCallback, &message);
  record->message = takeBuffer(&message);
  intptr_t numNotes = mlirDiagnosticGetNumNotes(diagnostic);
  if (numNotes <= 0)
    return;
  record->notes = calloc((size_t)numNotes, sizeof(DiagRecord));
  record->numNotes = (size_t)numNotes;
  for (intptr_t i = 0; i < numNotes; ++i)
    copyDiagnostic(engine, mlirDiagnosticGetNote(diagnostic, i),
                   &record->notes[i]);
}

static void freeDiagRecord(DiagRecord *record) {
  for (size_t i = 0; i < record->numNotes; ++i)
    freeDiagRecord(&record->notes[i]);
  free(record->notes);
  free(record->file);
  free(record->location);
  free(record->message);
}

static void appendDiagRecord(DiagList *list, const DiagRecord *record) {
  if (list->size == list->capacity) {
    size_t capacity = list->capacity ? 2 * list->capacity : 8;
    DiagRecord *items = realloc(list->items, capacity * sizeof(DiagRecord));
    if (!items) {
      fprintf(stderr, "coopvec-opt: out of memory\n");
      abort();
    }
    list->items = items;
    list->capacity = capacity;
  }
  list->items[list->size++] = *record;
}

void clearDiagList(DiagList *list) {
  for (size_t i = 0; i < list->size; ++i)
    freeDiagRecord(&list->items[i]);
  free(list->items);
  memset(list, 0, sizeof(*list));
}

//===----------------------------------------------------------------------===//
// Printing
//===----------------------------------------------------------------------===//

/// Prints line `line` of the input and a caret under `column`.
static void printSourceLine(FILE *stream, const SourceFile *source,
                            unsigned line, unsigned column, size_t length) {
  const char *begin = source->text, *end = source->text + source->size;
  for (unsigned current = 1; current < line && begin < end; ++current) {
    const char *newline = memchr(begin, '\n', (size_t)(end - begin));
    begin = newline ? newline + 1 : end;
  }
  if (begin == end || column == 0)
    return;
  const char *lineEnd = memchr(begin, '\n', (size_t)(end - begin));
  size_t lineLength = (size_t)((lineEnd ? lineEnd : end) - begin);
  if (lineLength && begin[lineLength - 1] == '\r')
    --lineLength;
  fprintf(stream, "%.*s\n", (int)lineLength, begin);
  // Keep tabs so that the caret lines up with the text above it.
  for (unsigned i = 0; i + 1 < column && i < lineLength; ++i)
    fputc(begin[i] == '\t' ? '\t' : ' ', stream);
  fputc('^', stream);
  for (size_t i = 1; i < length; ++i)
    fputc('~', stream);
  fputc('\n', stream);
}

void printSourceMessage(FILE *stream, const SourceFile *source,
                        const char *file, unsigned line, unsigned column,
                        size_t length, const char *severity,
                        const char *message) {
  fprintf(stream, "%s:%u:%u: %s: %s\n", file, line, column, severity, message);
  if (source && strcmp(file, source->name) == 0)
    printSourceLine(stream, source, line, column, length);
}

static bool sameFileLocation(const DiagRecord *a, const DiagRecord *b) {
  return a->file && b->file && a->line == b->line && a->column == b->column &&
         strcmp(a->file, b->file) == 0;
}

/// Prints `record`; like MLIR, a note at its parent's location does not
/// repeat the source line.
static void printRecordUnder(FILE *stream, const SourceFile *source,
                             const DiagRecord *record,
                             const DiagRecord *parent) {
  const char *severity = coopvecSeverityName(record->severity);
  if (!record->file)
    fprintf(stream, "%s: %s: %s\n", record->location, severity,
            record->message);
  else if (parent && sameFileLocation(record, parent))
    fprintf(stream, "%s:%u:%u: %s: %s\n", record->file, record->line,
            record->column, severity, record->message);
  else
    printSourceMessage(stream, source, record->file, record->line,
                       record->column, 1, severity, record->message);
  for (size_t i = 0; i < record->numNotes; ++i)
    printRecordUnder(stream, source, &record->notes[i], record);
}

void printDiagRecord(FILE *stream, const SourceFile *source,
                     const DiagRecord *record) {
  printRecordUnder(stream, source, record, NULL);
}

//===----------------------------------------------------------------------===//
// The handler
//===----------------------------------------------------------------------===//

/// Takes ownership of `record`.
static void deliver(DiagEngine *engine, DiagRecord *record) {
  if (record->severity == MlirDiagnosticError)
    engine->sawError = true;
  if (engine->recording) {
    appendDiagRecord(&engine->recorded, record);
    return;
  }
  printDiagRecord(stderr, engine->source, record);
  fflush(stderr);
  freeDiagRecord(record);
}

static MlirLogicalResult handleDiagnostic(MlirDiagnostic diagnostic,
                                          void *userData) {
  DiagEngine *engine = userData;
  DiagRecord record;
  copyDiagnostic(engine, diagnostic, &record);
  deliver(engine, &record);
  return mlirLogicalResultSuccess();
}

void attachDiagEngine(DiagEngine *engine, MlirContext context,
                      const SourceFile *source) {
  engine->context = context;
  engine->source = source;
  engine->handlerID = mlirContextAttachDiagnosticHandler(
      context, handleDiagnostic, engine, /*deleteUserData=*/NULL);
}

void detachDiagEngine(DiagEngine *engine) {
  mlirContextDetachDiagnosticHandler(engine->context, engine->handlerID);
  clearDiagList(&engine->recorded);
}
