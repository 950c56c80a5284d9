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

/// mlirModuleCreateParse (MLIR 22) names the buffer it parses "-"; the
/// diagnostic engine and renameLocations give the input's name instead.
static const char parsedBufferName[] = "-";

/// The location `loc` with the input's name if it points into the buffer.
static MlirLocation renamedLocation(MlirContext ctx, MlirStringRef name,
                                    MlirLocation loc) {
  if (!mlirLocationIsAFileLineColRange(loc) ||
      !mlirStringRefEqual(
          mlirIdentifierStr(mlirLocationFileLineColRangeGetFilename(loc)),
          mlirStringRefCreateFromCString(parsedBufferName)))
    return loc;
  return mlirLocationFileLineColRangeGet(
      ctx, name, (unsigned)mlirLocationFileLineColRangeGetStartLine(loc),
      (unsigned)mlirLocationFileLineColRangeGetStartColumn(loc),
      (unsigned)mlirLocationFileLineColRangeGetEndLine(loc),
      (unsigned)mlirLocationFileLineColRangeGetEndColumn(loc));
}

typedef struct Rename {
  MlirContext ctx;
  MlirStringRef name;
} Rename;

/// Renames the locations of `op` and of its blocks' arguments.
static MlirWalkResult renameLocations(MlirOperation op, void *userData) {
  const Rename *rename = userData;
  mlirOperationSetLocation(op, renamedLocation(rename->ctx, rename->name,
                                               mlirOperationGetLocation(op)));
  for (intptr_t r = 0; r < mlirOperationGetNumRegions(op); ++r)
    for (MlirBlock block =
             mlirRegionGetFirstBlock(mlirOperationGetRegion(op, r));
         !mlirBlockIsNull(block); block = mlirBlockGetNextInRegion(block))
      for (intptr_t a = 0; a < mlirBlockGetNumArguments(block); ++a) {
        MlirValue arg = mlirBlockGetArgument(block, a);
        mlirBlockArgumentSetLocation(
            arg, renamedLocation(rename->ctx, rename->name,
                                 mlirValueGetLocation(arg)));
      }
  return MlirWalkResultAdvance;
}

MlirOperation parseModule(MlirContext ctx, DiagEngine *engine, const char *text,
                          size_t size) {
  // Like mlir-opt, the parser reads every top-level op (and the type and
  // attribute aliases between them, which may not go inside a module) and
  // only then wraps them into a module if they are not one. Wrapping the
  // text in `module { ... }` instead moved the aliases into its region,
  // where they are an error (issue 24, row 8).
  engine->bufferName = parsedBufferName;
  MlirModule module =
      mlirModuleCreateParse(ctx, mlirStringRefCreate(text, size));
  engine->bufferName = NULL;
  if (mlirModuleIsNull(module))
    return (MlirOperation){NULL};
  MlirOperation op = mlirModuleGetOperation(module);
  Rename rename = {ctx, mlirStringRefCreateFromCString(engine->source->name)};
  mlirOperationWalk(op, renameLocations, &rename, MlirWalkPreOrder);
  return op;
}
