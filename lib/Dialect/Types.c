//===- Types.c - Building and inspecting coopvec types --------------------===//
//
// IRDL types are dynamic types, and MLIR 22's C API has no accessor for the
// parameters of a dynamic type. The one stable interface is the printed
// form, `!coopvec.vec<16 : i64, f16>`, so parameters are recovered by
// printing the type and parsing each top-level parameter back as an
// attribute or a type. Types are built the same way, through
// mlirTypeParseGet, which also runs the IRDL parameter constraints.
//
//===----------------------------------------------------------------------===//

#include "coopvec-c/Dialect.h"

#include "coopvec-c/Support.h"

#include <mlir-c/BuiltinAttributes.h>

#include <stdio.h>
#include <string.h>

enum { MAX_PARAMS = 4 };

typedef struct ParsedParams {
  CoopvecBuffer text; // the printed type; params point into it
  const char *params[MAX_PARAMS];
  size_t lengths[MAX_PARAMS];
  int count;
} ParsedParams;

static const char *layoutNames[] = {"row_major", "col_major", "inference",
                                    "training"};

const char *coopvecLayoutGetName(CoopvecLayout layout) {
  if ((unsigned)layout >= sizeof(layoutNames) / sizeof(layoutNames[0]))
    return "<invalid layout>";
  return layoutNames[layout];
}

bool coopvecLayoutFromName(MlirStringRef name, CoopvecLayout *layout) {
  for (unsigned i = 0; i < sizeof(layoutNames) / sizeof(layoutNames[0]); ++i) {
    if (strlen(layoutNames[i]) == name.length &&
        strncmp(layoutNames[i], name.data, name.length) == 0) {
      *layout = (CoopvecLayout)i;
      return true;
    }
  }
  return false;
}

static void trim(const char **text, size_t *length) {
  while (*length && (**text == ' ')) {
    ++*text;
    --*length;
  }
  while (*length && (*text)[*length - 1] == ' ')
    --*length;
}

/// Splits the printed `!coopvec.<mnemonic><p0, p1, ...>` at top-level
/// commas. Returns false if `type` is not a coopvec type with `mnemonic`.
static bool parseParams(MlirType type, const char *mnemonic,
                        ParsedParams *out) {
  memset(out, 0, sizeof(*out));
  if (mlirTypeIsNull(type))
    return false;
  mlirTypePrint(type, coopvecBufferCallback, &out->text);
  const char *text = coopvecBufferStr(&out->text);
  char prefix[32];
  snprintf(prefix, sizeof(prefix), "!coopvec.%s<", mnemonic);
  size_t prefixLength = strlen(prefix);
  size_t length = out->text.size;
  if (length <= prefixLength || strncmp(text, prefix, prefixLength) != 0 ||
      text[length - 1] != '>')
    return false;
  const char *begin = text + prefixLength, *end = text + length - 1;
  int depth = 0;
  bool quoted = false;
  const char *start = begin;
  for (const char *p = begin; p <= end; ++p) {
    bool atEnd = p == end;
    if (!atEnd && *p == '"')
      quoted = !quoted;
    if (!atEnd && !quoted && (*p == '<' || *p == '(' || *p == '['))
      ++depth;
    if (!atEnd && !quoted && (*p == '>' || *p == ')' || *p == ']'))
      --depth;
    if (atEnd || (*p == ',' && depth == 0 && !quoted)) {
      if (out->count == MAX_PARAMS)
        return false;
      out->params[out->count] = start;
      out->lengths[out->count] = (size_t)(p - start);
      trim(&out->params[out->count], &out->lengths[out->count]);
      ++out->count;
      start = p + 1;
    }
  }
  return true;
}

static int64_t integerParam(MlirType type, const ParsedParams *params,
                            int index) {
  MlirAttribute attr = mlirAttributeParseGet(
      mlirTypeGetContext(type),
      mlirStringRefCreate(params->params[index], params->lengths[index]));
  if (mlirAttributeIsNull(attr) || !mlirAttributeIsAInteger(attr))
    return -1;
  return mlirIntegerAttrGetValueInt(attr);
}

static MlirType typeParam(MlirType type, const ParsedParams *params,
                          int index) {
  return mlirTypeParseGet(
      mlirTypeGetContext(type),
      mlirStringRefCreate(params->params[index], params->lengths[index]));
}

bool coopvecTypeIsAVec(MlirType type) {
  ParsedParams params;
  bool isVec = parseParams(type, "vec", &params) && params.count == 2;
  coopvecBufferFree(&params.text);
  return isVec;
}

bool coopvecTypeIsAMatrix(MlirType type) {
  ParsedParams params;
  bool isMatrix = parseParams(type, "matrix", &params) && params.count == 4;
  coopvecBufferFree(&params.text);
  return isMatrix;
}

int64_t coopvecVecTypeGetSize(MlirType type) {
  ParsedParams params;
  int64_t size = -1;
  if (parseParams(type, "vec", &params) && params.count == 2)
    size = integerParam(type, &params, 0);
  coopvecBufferFree(&params.text);
  return size;
}

MlirType coopvecVecTypeGetElementType(MlirType type) {
  ParsedParams params;
  MlirType element = {NULL};
  if (parseParams(type, "vec", &params) && params.count == 2)
    element = typeParam(type, &params, 1);
  coopvecBufferFree(&params.text);
  return element;
}

static int64_t matrixDim(MlirType type, int index) {
  ParsedParams params;
  int64_t dim = -1;
  if (parseParams(type, "matrix", &params) && params.count == 4)
    dim = integerParam(type, &params, index);
  coopvecBufferFree(&params.text);
  return dim;
}

int64_t coopvecMatrixTypeGetRows(MlirType type) { return matrixDim(type, 0); }
int64_t coopvecMatrixTypeGetCols(MlirType type) { return matrixDim(type, 1); }

MlirType coopvecMatrixTypeGetElementType(MlirType type) {
  ParsedParams params;
  MlirType element = {NULL};
  if (parseParams(type, "matrix", &params) && params.count == 4)
    element = typeParam(type, &params, 2);
  coopvecBufferFree(&params.text);
  return element;
}

bool coopvecMatrixTypeGetLayout(MlirType type, CoopvecLayout *layout) {
  ParsedParams params;
  bool found = false;
  if (parseParams(type, "matrix", &params) && params.count == 4 &&
      params.lengths[3] >= 2) {
    // The layout prints as a quoted string: strip the quotes.
    MlirStringRef name =
        mlirStringRefCreate(params.params[3] + 1, params.lengths[3] - 2);
    found = coopvecLayoutFromName(name, layout);
  }
  coopvecBufferFree(&params.text);
  return found;
}

/// Prints `type` into `buffer` (for building type strings to parse).
static void appendType(CoopvecBuffer *buffer, MlirType type) {
  mlirTypePrint(type, coopvecBufferCallback, buffer);
}

MlirType coopvecVecTypeGet(MlirContext ctx, int64_t size, MlirType element) {
  MlirType result = {NULL};
  if (size < 1 || !coopvecIsSupportedElementType(element))
    return result;
  CoopvecBuffer text = {0};
  coopvecBufferAppendf(&text, "!coopvec.vec<%lld, ", (long long)size);
  appendType(&text, element);
  coopvecBufferAppendStr(&text, ">");
  result = mlirTypeParseGet(ctx, mlirStringRefCreate(text.data, text.size));
  coopvecBufferFree(&text);
  return result;
}

MlirType coopvecMatrixTypeGet(MlirContext ctx, int64_t rows, int64_t cols,
                              MlirType element, CoopvecLayout layout) {
  MlirType result = {NULL};
  if (rows < 1 || cols < 1 || !coopvecIsSupportedElementType(element) ||
      (unsigned)layout > CoopvecLayoutTraining)
    return result;
  CoopvecBuffer text = {0};
  coopvecBufferAppendf(&text, "!coopvec.matrix<%lld, %lld, ", (long long)rows,
                       (long long)cols);
  appendType(&text, element);
  coopvecBufferAppendf(&text, ", \"%s\">", coopvecLayoutGetName(layout));
  result = mlirTypeParseGet(ctx, mlirStringRefCreate(text.data, text.size));
  coopvecBufferFree(&text);
  return result;
}
