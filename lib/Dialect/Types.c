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

#include "Dialect/TypeCache.h"
#include "coopvec-c/Support.h"

#include <mlir-c/BuiltinAttributes.h>

#include <stdint.h>
#include <stdio.h>
#include <string.h>

enum { MAX_PARAMS = 4 };

typedef struct ParsedParams {
  CoopvecBuffer text; // the printed type; the strings below point into it
  const char *mnemonic;
  size_t mnemonicLength;
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

/// Whether `type` belongs to the coopvec dialect. Printing a type builds an
/// AsmState over every loaded dialect, which made these queries the larger
/// part of verifying and decoding a module; most queried types (f32, index,
/// memrefs) are rejected here without printing.
static bool isCoopvecDialectType(MlirType type) {
  MlirStringRef name = mlirDialectGetNamespace(mlirTypeGetDialect(type));
  return name.length == 7 && strncmp(name.data, "coopvec", 7) == 0;
}

/// Splits the printed `!coopvec.<mnemonic><p0, p1, ...>` (printed once) into
/// its mnemonic and its parameters at top-level commas. Returns false if
/// `type` is not a coopvec type of that form.
static bool parseParams(MlirType type, ParsedParams *out) {
  memset(out, 0, sizeof(*out));
  if (mlirTypeIsNull(type) || !isCoopvecDialectType(type))
    return false;
  mlirTypePrint(type, coopvecBufferCallback, &out->text);
  const char *text = coopvecBufferStr(&out->text);
  static const char prefix[] = "!coopvec.";
  size_t prefixLength = sizeof(prefix) - 1;
  size_t length = out->text.size;
  const char *open = memchr(text, '<', length);
  if (length <= prefixLength || strncmp(text, prefix, prefixLength) != 0 ||
      !open || text[length - 1] != '>')
    return false;
  out->mnemonic = text + prefixLength;
  out->mnemonicLength = (size_t)(open - out->mnemonic);
  const char *begin = open + 1, *end = text + length - 1;
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

/// What a type's parameters say, read once (the scoped cache below).
typedef enum TypeKind { KindOther, KindVec, KindMatrix } TypeKind;
typedef struct TypeInfo {
  const void *type; // the uniqued type's address: the cache key
  TypeKind kind;
  int64_t dims[2];  // vec: {size, -1}; matrix: {rows, cols}
  MlirType element; // null where a parameter does not parse
  bool hasLayout;
  CoopvecLayout layout;
} TypeInfo;

static void readVec(MlirType type, const ParsedParams *params, TypeInfo *info) {
  info->kind = KindVec;
  info->dims[0] = integerParam(type, params, 0);
  info->element = typeParam(type, params, 1);
}

static void readMatrix(MlirType type, const ParsedParams *params,
                       TypeInfo *info) {
  info->kind = KindMatrix;
  info->dims[0] = integerParam(type, params, 0);
  info->dims[1] = integerParam(type, params, 1);
  info->element = typeParam(type, params, 2);
  // The layout prints as a quoted string: strip the quotes.
  if (params->lengths[3] >= 2)
    info->hasLayout = coopvecLayoutFromName(
        mlirStringRefCreate(params->params[3] + 1, params->lengths[3] - 2),
        &info->layout);
}

static bool isMnemonic(const ParsedParams *params, const char *mnemonic) {
  return params->mnemonicLength == strlen(mnemonic) &&
         strncmp(params->mnemonic, mnemonic, params->mnemonicLength) == 0;
}

static void readTypeInfo(MlirType type, TypeInfo *info) {
  memset(info, 0, sizeof(*info));
  info->type = type.ptr;
  info->dims[0] = info->dims[1] = -1;
  ParsedParams params;
  if (parseParams(type, &params)) {
    if (isMnemonic(&params, "vec") && params.count == 2)
      readVec(type, &params, info);
    else if (isMnemonic(&params, "matrix") && params.count == 4)
      readMatrix(type, &params, info);
  }
  coopvecBufferFree(&params.text);
}

enum { CACHE_SIZE = 256 }; // a power of two
static _Thread_local int cacheDepth;
static _Thread_local TypeInfo cache[CACHE_SIZE];

void coopvecTypeCacheBegin(void) {
  if (cacheDepth++ == 0)
    memset(cache, 0, sizeof(cache));
}

void coopvecTypeCacheEnd(void) { --cacheDepth; }

/// `type`'s parameters: from the cache inside a scope, else read into
/// `scratch`.
static const TypeInfo *typeInfo(MlirType type, TypeInfo *scratch) {
  if (cacheDepth == 0 || mlirTypeIsNull(type)) {
    readTypeInfo(type, scratch);
    return scratch;
  }
  // Type storage is at least 8-byte aligned: drop the 3 low bits.
  TypeInfo *slot = &cache[((uintptr_t)type.ptr >> 3) & (CACHE_SIZE - 1)];
  if (slot->type != type.ptr)
    readTypeInfo(type, slot);
  return slot;
}

bool coopvecTypeIsAVec(MlirType type) {
  TypeInfo scratch;
  return typeInfo(type, &scratch)->kind == KindVec;
}

bool coopvecTypeIsAMatrix(MlirType type) {
  TypeInfo scratch;
  return typeInfo(type, &scratch)->kind == KindMatrix;
}

int64_t coopvecVecTypeGetSize(MlirType type) {
  TypeInfo scratch;
  const TypeInfo *info = typeInfo(type, &scratch);
  return info->kind == KindVec ? info->dims[0] : -1;
}

MlirType coopvecVecTypeGetElementType(MlirType type) {
  TypeInfo scratch;
  const TypeInfo *info = typeInfo(type, &scratch);
  MlirType null = {NULL};
  return info->kind == KindVec ? info->element : null;
}

static int64_t matrixDim(MlirType type, int index) {
  TypeInfo scratch;
  const TypeInfo *info = typeInfo(type, &scratch);
  return info->kind == KindMatrix ? info->dims[index] : -1;
}

int64_t coopvecMatrixTypeGetRows(MlirType type) { return matrixDim(type, 0); }
int64_t coopvecMatrixTypeGetCols(MlirType type) { return matrixDim(type, 1); }

MlirType coopvecMatrixTypeGetElementType(MlirType type) {
  TypeInfo scratch;
  const TypeInfo *info = typeInfo(type, &scratch);
  MlirType null = {NULL};
  return info->kind == KindMatrix ? info->element : null;
}

bool coopvecMatrixTypeGetLayout(MlirType type, CoopvecLayout *layout) {
  TypeInfo scratch;
  const TypeInfo *info = typeInfo(type, &scratch);
  if (info->kind != KindMatrix || !info->hasLayout)
    return false;
  *layout = info->layout;
  return true;
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
