//===- Source.c - Reading, splitting and parsing the input ----------------===//

#include "Driver.h"
#include "coopvec-c/Support.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

//===----------------------------------------------------------------------===//
// Reading
//===----------------------------------------------------------------------===//

/// MLIR text larger than this is not a program but a mistake (such as
/// /dev/zero); refuse it instead of reading until memory runs out.
enum { MAX_INPUT_BYTES = 256 << 20 };

typedef enum ReadStatus { ReadOk, ReadError, ReadTooLarge } ReadStatus;

static ReadStatus readStream(FILE *file, CoopvecBuffer *contents) {
  char chunk[65536];
  size_t got;
  while ((got = fread(chunk, 1, sizeof(chunk), file)) > 0) {
    if (contents->size + got > MAX_INPUT_BYTES)
      return ReadTooLarge;
    coopvecBufferAppend(contents, chunk, got);
  }
  // Appending nothing still allocates, so an empty input is "" and not NULL.
  coopvecBufferAppend(contents, "", 0);
  return ferror(file) ? ReadError : ReadOk;
}

bool readSource(const char *path, SourceFile *source) {
  bool isStdin = strcmp(path, "-") == 0;
  source->name = isStdin ? "<stdin>" : path;
  FILE *file = isStdin ? stdin : fopen(path, "rb");
  if (!file) {
    fprintf(stderr, "coopvec-opt: error: cannot open input file '%s': %s\n",
            path, strerror(errno));
    return false;
  }
  CoopvecBuffer contents = {0};
  ReadStatus status = readStream(file, &contents);
  int readErrno = errno;
  if (!isStdin)
    fclose(file);
  if (status == ReadTooLarge)
    fprintf(stderr,
            "coopvec-opt: error: input file '%s' is larger than %d MiB\n", path,
            MAX_INPUT_BYTES >> 20);
  else if (status == ReadError)
    fprintf(stderr, "coopvec-opt: error: cannot read input file '%s': %s\n",
            path, strerror(readErrno));
  if (status != ReadOk) {
    coopvecBufferFree(&contents);
    return false;
  }
  source->text = contents.data;
  source->size = contents.size;
  return true;
}

void freeSource(SourceFile *source) {
  free(source->text);
  source->text = NULL;
  source->size = 0;
}

//===----------------------------------------------------------------------===//
// Splitting
//===----------------------------------------------------------------------===//

/// Whether [begin, end) is `// -----` followed only by blanks.
static bool isSplitMarker(const char *begin, const char *end) {
  static const char marker[] = "// -----";
  size_t markerLength = sizeof(marker) - 1;
  if ((size_t)(end - begin) < markerLength ||
      strncmp(begin, marker, markerLength) != 0)
    return false;
  for (const char *c = begin + markerLength; c < end; ++c)
    if (*c != ' ' && *c != '\t' && *c != '\r')
      return false;
  return true;
}

static void appendChunk(SourceChunk **chunks, size_t *count, size_t begin,
                        size_t end, unsigned firstLine) {
  SourceChunk *grown = realloc(*chunks, (*count + 1) * sizeof(SourceChunk));
  if (!grown) {
    fprintf(stderr, "coopvec-opt: out of memory\n");
    abort();
  }
  *chunks = grown;
  grown[(*count)++] = (SourceChunk){begin, end, firstLine};
}

size_t splitSource(const SourceFile *source, bool split, SourceChunk **chunks) {
  *chunks = NULL;
  size_t count = 0, chunkBegin = 0, lineBegin = 0;
  unsigned line = 1, chunkFirstLine = 1;
  while (split && lineBegin < source->size) {
    const char *newline =
        memchr(source->text + lineBegin, '\n', source->size - lineBegin);
    size_t lineEnd = newline ? (size_t)(newline - source->text) : source->size;
    size_t next = newline ? lineEnd + 1 : lineEnd;
    if (isSplitMarker(source->text + lineBegin, source->text + lineEnd)) {
      appendChunk(chunks, &count, chunkBegin, lineBegin, chunkFirstLine);
      chunkBegin = next;
      chunkFirstLine = line + 1;
    }
    lineBegin = next;
    ++line;
  }
  appendChunk(chunks, &count, chunkBegin, source->size, chunkFirstLine);
  return count;
}

void getPaddedChunk(const SourceFile *source, SourceChunk chunk,
                    CoopvecBuffer *text) {
  coopvecBufferClear(text);
  for (unsigned line = 1; line < chunk.firstLine; ++line)
    coopvecBufferAppend(text, "\n", 1);
  coopvecBufferAppend(text, source->text + chunk.begin,
                      chunk.end - chunk.begin);
}

//===----------------------------------------------------------------------===//
// Parsing
//===----------------------------------------------------------------------===//

static const char implicitModulePrefix[] = "module {";

static bool isModule(MlirOperation op) {
  return coopvecOpIsNamed(op, "builtin.module");
}

/// mlirOperationCreateParse insists on exactly one top-level operation and
/// says so with this error; any other error is a genuine one.
static bool failedOnlyForTopLevelCount(const DiagList *captured) {
  static const char countError[] =
      "source must contain a single top-level operation, found:";
  return captured->size == 1 &&
         captured->items[0].severity == MlirDiagnosticError &&
         strncmp(captured->items[0].message, countError,
                 sizeof(countError) - 1) == 0;
}

/// mlir-opt gives an implicit module the location `file:0:0`.
static void setImplicitModuleLocation(MlirContext ctx, DiagEngine *engine,
                                      MlirOperation module) {
  MlirLocation loc = mlirLocationFileLineColGet(
      ctx, mlirStringRefCreateFromCString(engine->source->name), 0, 0);
  mlirOperationSetLocation(module, loc);
}

static MlirOperation wrapInModule(MlirContext ctx, DiagEngine *engine,
                                  MlirOperation op) {
  MlirModule module = mlirModuleCreateEmpty(mlirLocationUnknownGet(ctx));
  mlirBlockAppendOwnedOperation(mlirModuleGetBody(module), op);
  MlirOperation moduleOp = mlirModuleGetOperation(module);
  setImplicitModuleLocation(ctx, engine, moduleOp);
  return moduleOp;
}

/// Whether the first line is blank or a comment, so that `module {` can go
/// in front of it without moving any token a location points at.
static bool firstLineHasNoCode(const char *text, size_t size) {
  size_t i = 0;
  while (i < size && (text[i] == ' ' || text[i] == '\t'))
    ++i;
  return i == size || text[i] == '\n' || text[i] == '\r' ||
         (i + 1 < size && text[i] == '/' && text[i + 1] == '/');
}

typedef struct ColumnFix {
  MlirContext ctx;
  MlirStringRef file;
  unsigned shift;
} ColumnFix;

/// Moves a line-1 location of the input back by the prefix's width.
static MlirWalkResult fixFirstLineColumn(MlirOperation op, void *userData) {
  const ColumnFix *fix = userData;
  MlirLocation loc = mlirOperationGetLocation(op);
  if (!mlirLocationIsAFileLineColRange(loc) ||
      mlirLocationFileLineColRangeGetStartLine(loc) != 1 ||
      !mlirStringRefEqual(
          mlirIdentifierStr(mlirLocationFileLineColRangeGetFilename(loc)),
          fix->file))
    return MlirWalkResultAdvance;
  int startColumn = mlirLocationFileLineColRangeGetStartColumn(loc);
  int endLine = mlirLocationFileLineColRangeGetEndLine(loc);
  int endColumn = mlirLocationFileLineColRangeGetEndColumn(loc);
  int shift = (int)fix->shift;
  if (startColumn > shift)
    startColumn -= shift;
  if (endLine == 1 && endColumn > shift)
    endColumn -= shift;
  mlirOperationSetLocation(op,
                           mlirLocationFileLineColRangeGet(
                               fix->ctx, fix->file, 1, (unsigned)startColumn,
                               (unsigned)endLine, (unsigned)endColumn));
  return MlirWalkResultAdvance;
}

/// Parses `module {` + text + `}`. The prefix shares line 1 so that every
/// line number stays right; when line 1 holds code its columns move, which
/// the diagnostic engine (while parsing) and fixFirstLineColumn (after)
/// take back out.
static MlirOperation parseWrapped(MlirContext ctx, DiagEngine *engine,
                                  const char *text, size_t size) {
  CoopvecBuffer wrapped = {0};
  coopvecBufferAppendStr(&wrapped, implicitModulePrefix);
  coopvecBufferAppend(&wrapped, text, size);
  coopvecBufferAppendStr(&wrapped, "\n}");
  if (!firstLineHasNoCode(text, size))
    engine->firstLineShift = sizeof(implicitModulePrefix) - 1;
  MlirOperation module = mlirOperationCreateParse(
      ctx, mlirStringRefCreate(wrapped.data, wrapped.size),
      mlirStringRefCreateFromCString(engine->source->name));
  coopvecBufferFree(&wrapped);
  if (!mlirOperationIsNull(module) && engine->firstLineShift) {
    ColumnFix fix = {ctx, mlirStringRefCreateFromCString(engine->source->name),
                     engine->firstLineShift};
    mlirOperationWalk(module, fixFirstLineColumn, &fix, MlirWalkPreOrder);
  }
  engine->firstLineShift = 0;
  if (!mlirOperationIsNull(module))
    setImplicitModuleLocation(ctx, engine, module);
  return module;
}

MlirOperation parseModule(MlirContext ctx, DiagEngine *engine, const char *text,
                          size_t size) {
  engine->firstLineShift = 0;
  // The first attempt's diagnostics are held back: its complaint about the
  // number of top-level operations is not the user's business.
  engine->capturing = true;
  MlirOperation op = mlirOperationCreateParse(
      ctx, mlirStringRefCreate(text, size),
      mlirStringRefCreateFromCString(engine->source->name));
  engine->capturing = false;
  if (mlirOperationIsNull(op) &&
      failedOnlyForTopLevelCount(&engine->captured)) {
    clearDiagList(&engine->captured);
    return parseWrapped(ctx, engine, text, size);
  }
  replayCapturedDiagnostics(engine);
  if (mlirOperationIsNull(op) || isModule(op))
    return op;
  return wrapInModule(ctx, engine, op);
}
