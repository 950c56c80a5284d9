//===- Npy.c - NumPy .npy files -------------------------------------------===//
//
// The format (numpy.lib.format): the magic "\x93NUMPY", a major and minor
// version byte, the header length (2 bytes little-endian in version 1, 4 in
// versions 2 and 3), then the header: a Python dict literal
//   {'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }
// padded with spaces and ended by '\n', then the raw data. The header is
// parsed by hand with a strict grammar: NumPy itself only ever writes this
// one shape of dict, and anything else is more likely a damaged file.
//
//===----------------------------------------------------------------------===//

#include "coopvec-c/Npy.h"

#include "coopvec-c/Support.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// .npy data is stored byte for byte; '<' (little-endian) data is only
// meaningful as-is on a little-endian host.
#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "Npy.c assumes a little-endian host"
#endif

static const char kMagic[6] = {'\x93', 'N', 'U', 'M', 'P', 'Y'};

typedef struct NpyDType {
  const char *descr;
  CoopvecDType dtype;
} NpyDType;

static const NpyDType kDTypes[] = {
    {"<f2", CoopvecDTypeF16},
    {"<f4", CoopvecDTypeF32},
    {"<f8", CoopvecDTypeF64},
    {"<i8", CoopvecDTypeI64},
    {"<i4", CoopvecDTypeI32},
    {"|i1", CoopvecDTypeI8},
    // Read only (the first entry of a dtype is what is written): NumPy
    // reads '<i1' as int8, and writes bool arrays (masks) as '|b1', one
    // byte of 0 or 1.
    {"<i1", CoopvecDTypeI8},
    {"|b1", CoopvecDTypeI8},
};
enum { kNumDTypes = sizeof(kDTypes) / sizeof(kDTypes[0]) };

const char *coopvecNpyDescr(CoopvecDType dtype) {
  for (int i = 0; i < kNumDTypes; ++i)
    if (kDTypes[i].dtype == dtype)
      return kDTypes[i].descr;
  return NULL;
}

bool coopvecNpyIsSupportedDType(CoopvecDType dtype) {
  return coopvecNpyDescr(dtype) != NULL;
}

/// Reports a printf-style message through an optional callback.
static void reportError(MlirStringCallback callback, void *userData,
                        const char *format, ...)
    __attribute__((format(printf, 3, 4)));
static void reportError(MlirStringCallback callback, void *userData,
                        const char *format, ...) {
  if (!callback)
    return;
  char message[512];
  va_list args;
  va_start(args, format);
  int length = vsnprintf(message, sizeof(message), format, args);
  va_end(args);
  if (length < 0)
    return;
  if ((size_t)length >= sizeof(message))
    length = sizeof(message) - 1;
  callback(mlirStringRefCreate(message, (size_t)length), userData);
}

//===----------------------------------------------------------------------===//
// Header parsing
//===----------------------------------------------------------------------===//

typedef struct HeaderParser {
  const char *text;
  size_t length;
  size_t pos;
  MlirStringCallback errorCallback;
  void *userData;
} HeaderParser;

/// The header after parsing: which keys were seen and their values.
typedef struct Header {
  char descr[32];
  bool fortranOrder;
  int rank;
  int64_t shape[COOPVEC_NPY_MAX_RANK];
  bool hasDescr, hasFortranOrder, hasShape;
} Header;

static MlirLogicalResult headerError(HeaderParser *parser, const char *what) {
  reportError(parser->errorCallback, parser->userData,
              "malformed header at byte %zu: %s", parser->pos, what);
  return mlirLogicalResultFailure();
}

static void skipSpace(HeaderParser *parser) {
  while (parser->pos < parser->length && (parser->text[parser->pos] == ' ' ||
                                          parser->text[parser->pos] == '\t' ||
                                          parser->text[parser->pos] == '\n'))
    ++parser->pos;
}

/// Whether the next character after optional spaces is `c`.
static bool peek(HeaderParser *parser, char c) {
  skipSpace(parser);
  return parser->pos < parser->length && parser->text[parser->pos] == c;
}

/// Consumes `c` after optional spaces.
static bool consume(HeaderParser *parser, char c) {
  if (!peek(parser, c))
    return false;
  ++parser->pos;
  return true;
}

/// Parses a quoted Python string (no escapes: dtype strings have none) into
/// `out` of `capacity` bytes.
static MlirLogicalResult parseString(HeaderParser *parser, char *out,
                                     size_t capacity) {
  skipSpace(parser);
  if (parser->pos >= parser->length ||
      (parser->text[parser->pos] != '\'' && parser->text[parser->pos] != '"'))
    return headerError(parser, "expected a quoted string");
  char quote = parser->text[parser->pos++];
  size_t start = parser->pos;
  while (parser->pos < parser->length && parser->text[parser->pos] != quote)
    ++parser->pos;
  if (parser->pos >= parser->length)
    return headerError(parser, "unterminated string");
  size_t length = parser->pos++ - start;
  if (length >= capacity)
    return headerError(parser, "string too long");
  memcpy(out, parser->text + start, length);
  out[length] = '\0';
  return mlirLogicalResultSuccess();
}

static MlirLogicalResult parseBool(HeaderParser *parser, bool *value) {
  skipSpace(parser);
  const char *rest = parser->text + parser->pos;
  size_t left = parser->length - parser->pos;
  if (left >= 4 && strncmp(rest, "True", 4) == 0) {
    *value = true;
    parser->pos += 4;
  } else if (left >= 5 && strncmp(rest, "False", 5) == 0) {
    *value = false;
    parser->pos += 5;
  } else {
    return headerError(parser, "expected True or False");
  }
  return mlirLogicalResultSuccess();
}

/// Parses a non-negative decimal integer (NumPy may write a trailing 'L' on
/// Python 2 files).
static MlirLogicalResult parseDimension(HeaderParser *parser, int64_t *value) {
  skipSpace(parser);
  size_t start = parser->pos;
  int64_t result = 0;
  while (parser->pos < parser->length && parser->text[parser->pos] >= '0' &&
         parser->text[parser->pos] <= '9') {
    int digit = parser->text[parser->pos++] - '0';
    if (result > (INT64_MAX - digit) / 10)
      return headerError(parser, "dimension too large");
    result = result * 10 + digit;
  }
  if (parser->pos == start)
    return headerError(parser, "expected a non-negative integer dimension");
  if (parser->pos < parser->length && parser->text[parser->pos] == 'L')
    ++parser->pos;
  *value = result;
  return mlirLogicalResultSuccess();
}

/// Parses a shape tuple: `()`, `(3,)`, `(3, 4)`, `(3, 4,)`.
static MlirLogicalResult parseShape(HeaderParser *parser, Header *header) {
  if (!consume(parser, '('))
    return headerError(parser, "expected '(' starting the shape");
  header->rank = 0;
  while (!consume(parser, ')')) {
    if (header->rank == COOPVEC_NPY_MAX_RANK)
      return headerError(parser, "too many dimensions");
    if (mlirLogicalResultIsFailure(
            parseDimension(parser, &header->shape[header->rank++])))
      return mlirLogicalResultFailure();
    if (!consume(parser, ',') && !peek(parser, ')'))
      return headerError(parser, "expected ',' or ')' in the shape");
  }
  return mlirLogicalResultSuccess();
}

/// Parses one `'key': value` entry.
static MlirLogicalResult parseEntry(HeaderParser *parser, Header *header) {
  char key[32];
  if (mlirLogicalResultIsFailure(parseString(parser, key, sizeof(key))))
    return mlirLogicalResultFailure();
  if (!consume(parser, ':'))
    return headerError(parser, "expected ':' after a key");
  bool *seen = NULL;
  MlirLogicalResult result;
  if (strcmp(key, "descr") == 0) {
    seen = &header->hasDescr;
    if (peek(parser, '['))
      return headerError(parser, "structured dtypes are not supported");
    result = parseString(parser, header->descr, sizeof(header->descr));
  } else if (strcmp(key, "fortran_order") == 0) {
    seen = &header->hasFortranOrder;
    result = parseBool(parser, &header->fortranOrder);
  } else if (strcmp(key, "shape") == 0) {
    seen = &header->hasShape;
    result = parseShape(parser, header);
  } else {
    return headerError(parser, "unknown key (expected 'descr', "
                               "'fortran_order' or 'shape')");
  }
  if (*seen)
    return headerError(parser, "duplicate key");
  *seen = true;
  return result;
}

static MlirLogicalResult parseHeaderDict(HeaderParser *parser, Header *header) {
  if (!consume(parser, '{'))
    return headerError(parser, "expected '{'");
  while (!consume(parser, '}')) {
    if (mlirLogicalResultIsFailure(parseEntry(parser, header)))
      return mlirLogicalResultFailure();
    if (!consume(parser, ',') && !peek(parser, '}'))
      return headerError(parser, "expected ',' or '}'");
  }
  skipSpace(parser);
  if (parser->pos != parser->length)
    return headerError(parser, "unexpected text after the dictionary");
  if (!header->hasDescr || !header->hasFortranOrder || !header->hasShape)
    return headerError(parser,
                       "the header needs 'descr', 'fortran_order' and 'shape'");
  return mlirLogicalResultSuccess();
}

static MlirLogicalResult resolveDType(const char *descr, CoopvecDType *dtype,
                                      MlirStringCallback errorCallback,
                                      void *userData) {
  for (int i = 0; i < kNumDTypes; ++i) {
    if (strcmp(descr, kDTypes[i].descr) == 0) {
      *dtype = kDTypes[i].dtype;
      return mlirLogicalResultSuccess();
    }
  }
  if (descr[0] == '>')
    reportError(errorCallback, userData,
                "unsupported dtype '%s': big-endian data is not supported",
                descr);
  else
    reportError(errorCallback, userData,
                "unsupported dtype '%s' (supported: '<f2', '<f4', '<f8', "
                "'<i8', '<i4', '|i1', '|b1')",
                descr);
  return mlirLogicalResultFailure();
}

//===----------------------------------------------------------------------===//
// Reading
//===----------------------------------------------------------------------===//

/// Checks the magic and version; sets where the header text lies.
static MlirLogicalResult parsePreamble(const unsigned char *bytes, size_t size,
                                       size_t *headerStart,
                                       size_t *headerLength,
                                       MlirStringCallback errorCallback,
                                       void *userData) {
  if (size < sizeof(kMagic) || memcmp(bytes, kMagic, sizeof(kMagic)) != 0) {
    reportError(errorCallback, userData, "not a .npy file (bad magic string)");
    return mlirLogicalResultFailure();
  }
  if (size < 8) {
    reportError(errorCallback, userData, "truncated header");
    return mlirLogicalResultFailure();
  }
  unsigned major = bytes[6], minor = bytes[7];
  if (major < 1 || major > 3 || minor != 0) {
    reportError(errorCallback, userData,
                "unsupported .npy format version %u.%u (supported: 1.0, "
                "2.0, 3.0)",
                major, minor);
    return mlirLogicalResultFailure();
  }
  size_t lengthBytes = major == 1 ? 2 : 4;
  *headerStart = 8 + lengthBytes;
  *headerLength = 0;
  if (size >= *headerStart)
    for (size_t i = 0; i < lengthBytes; ++i)
      *headerLength |= (size_t)bytes[8 + i] << (8 * i);
  if (size < *headerStart || size - *headerStart < *headerLength) {
    reportError(errorCallback, userData, "truncated header");
    return mlirLogicalResultFailure();
  }
  return mlirLogicalResultSuccess();
}

/// Fortran order is accepted when it coincides with C order: at most one
/// dimension is larger than 1.
static bool layoutsCoincide(const Header *header) {
  int large = 0;
  for (int i = 0; i < header->rank; ++i)
    large += header->shape[i] > 1;
  return large <= 1;
}

static MlirLogicalResult checkHeader(const Header *header,
                                     MlirStringCallback errorCallback,
                                     void *userData) {
  if (header->fortranOrder && !layoutsCoincide(header)) {
    reportError(errorCallback, userData,
                "fortran_order arrays are not supported (save the array in "
                "C order)");
    return mlirLogicalResultFailure();
  }
  return mlirLogicalResultSuccess();
}

/// Number of elements of the shape, or -1 if the byte size overflows.
static int64_t countElements(const Header *header, int64_t elementSize) {
  int64_t count = 1;
  for (int i = 0; i < header->rank; ++i) {
    if (header->shape[i] != 0 &&
        count > INT64_MAX / elementSize / header->shape[i])
      return -1;
    count *= header->shape[i];
  }
  return count;
}

/// The element count and byte size of the header's array.
static MlirLogicalResult dataSize(const Header *header, CoopvecDType dtype,
                                  int64_t *count, size_t *bytes,
                                  MlirStringCallback errorCallback,
                                  void *userData) {
  int64_t elementSize = coopvecDTypeGetSize(dtype);
  *count = countElements(header, elementSize);
  if (*count < 0) {
    reportError(errorCallback, userData, "shape too large");
    return mlirLogicalResultFailure();
  }
  *bytes = (size_t)(*count * elementSize);
  return mlirLogicalResultSuccess();
}

/// Fills `result` with the header's description and `data` (owned).
static void setResult(CoopvecNpyArray *result, const Header *header,
                      CoopvecDType dtype, void *data, int64_t count) {
  result->array.data = data;
  result->array.dtype = dtype;
  result->array.size = count;
  result->rank = header->rank;
  memcpy(result->shape, header->shape, sizeof(result->shape));
}

static MlirLogicalResult copyData(const unsigned char *data, size_t available,
                                  const Header *header, CoopvecDType dtype,
                                  CoopvecNpyArray *result,
                                  MlirStringCallback errorCallback,
                                  void *userData) {
  int64_t count;
  size_t expected;
  if (mlirLogicalResultIsFailure(
          dataSize(header, dtype, &count, &expected, errorCallback, userData)))
    return mlirLogicalResultFailure();
  if (available != expected) {
    reportError(errorCallback, userData,
                available < expected
                    ? "truncated data: expected %zu bytes, found %zu"
                    : "trailing bytes: expected %zu bytes of data, found %zu",
                expected, available);
    return mlirLogicalResultFailure();
  }
  // malloc(0) may return NULL; keep a valid pointer for empty arrays.
  void *copy = malloc(expected ? expected : 1);
  if (!copy) {
    reportError(errorCallback, userData, "out of memory (%zu bytes)", expected);
    return mlirLogicalResultFailure();
  }
  if (expected)
    memcpy(copy, data, expected);
  setResult(result, header, dtype, copy, count);
  return mlirLogicalResultSuccess();
}

/// Parses the preamble and header dictionary of `bytes[0, size)`; sets where
/// the data starts.
static MlirLogicalResult
parseHeaderImage(const unsigned char *bytes, size_t size, Header *header,
                 CoopvecDType *dtype, size_t *dataStart,
                 MlirStringCallback errorCallback, void *userData) {
  size_t headerStart, headerLength;
  if (mlirLogicalResultIsFailure(parsePreamble(
          bytes, size, &headerStart, &headerLength, errorCallback, userData)))
    return mlirLogicalResultFailure();
  HeaderParser parser = {(const char *)bytes + headerStart, headerLength, 0,
                         errorCallback, userData};
  memset(header, 0, sizeof(*header));
  if (mlirLogicalResultIsFailure(parseHeaderDict(&parser, header)) ||
      mlirLogicalResultIsFailure(
          resolveDType(header->descr, dtype, errorCallback, userData)) ||
      mlirLogicalResultIsFailure(checkHeader(header, errorCallback, userData)))
    return mlirLogicalResultFailure();
  *dataStart = headerStart + headerLength;
  return mlirLogicalResultSuccess();
}

MlirLogicalResult coopvecNpyParse(const void *bytes, size_t size,
                                  CoopvecNpyArray *result,
                                  MlirStringCallback errorCallback,
                                  void *userData) {
  memset(result, 0, sizeof(*result));
  const unsigned char *data = bytes;
  Header header;
  CoopvecDType dtype;
  size_t dataStart;
  if (mlirLogicalResultIsFailure(parseHeaderImage(
          data, size, &header, &dtype, &dataStart, errorCallback, userData)))
    return mlirLogicalResultFailure();
  return copyData(data + dataStart, size - dataStart, &header, dtype, result,
                  errorCallback, userData);
}

//===----------------------------------------------------------------------===//
// Reading files
//===----------------------------------------------------------------------===//

// A file is read as its header announces it: the preamble, the header, then
// exactly the data bytes the shape needs. So a file never makes the reader
// allocate or read more than its header declares (and `maxBytes` allows),
// and a stream without end (/dev/zero) fails at its first bytes.

enum { kTrailingBytesCounted = 1 << 20 };

/// Appends up to `size` bytes of `file` to `image`; false on a read error,
/// with its errno in `*readErrno`.
static bool readInto(FILE *file, CoopvecBuffer *image, size_t size,
                     int *readErrno) {
  char chunk[65536];
  errno = 0;
  while (size > 0) {
    size_t want = size < sizeof(chunk) ? size : sizeof(chunk);
    size_t got = fread(chunk, 1, want, file);
    *readErrno = errno;
    coopvecBufferAppend(image, chunk, got);
    size -= got;
    if (got < want)
      break;
  }
  return !ferror(file);
}

/// Where the header ends according to a valid preamble; 0 otherwise (the
/// parser then reports what is wrong).
static size_t headerEnd(const CoopvecBuffer *image) {
  const unsigned char *bytes = (const unsigned char *)image->data;
  if (image->size < 12 || memcmp(bytes, kMagic, sizeof(kMagic)) != 0 ||
      bytes[6] < 1 || bytes[6] > 3 || bytes[7] != 0)
    return 0;
  size_t lengthBytes = bytes[6] == 1 ? 2 : 4, length = 0;
  for (size_t i = 0; i < lengthBytes; ++i)
    length |= (size_t)bytes[8 + i] << (8 * i);
  return 8 + lengthBytes + length;
}

/// Reads the preamble and the header (bounded by `maxBytes`).
static MlirLogicalResult readHeader(FILE *file, uint64_t maxBytes,
                                    CoopvecBuffer *image,
                                    MlirStringCallback errorCallback,
                                    void *userData) {
  int readErrno = 0;
  bool ok = readInto(file, image, 12, &readErrno);
  size_t end = headerEnd(image);
  if (ok && end > maxBytes) {
    reportError(errorCallback, userData,
                "the header alone (%zu bytes) exceeds the limit of %llu "
                "bytes for this input",
                end, (unsigned long long)maxBytes);
    return mlirLogicalResultFailure();
  }
  if (ok && end > image->size)
    ok = readInto(file, image, end - image->size, &readErrno);
  // Say why (a folder opens but does not read: "Is a directory").
  if (!ok)
    reportError(errorCallback, userData, "read error: %s", strerror(readErrno));
  return ok ? mlirLogicalResultSuccess() : mlirLogicalResultFailure();
}

/// After the data: anything left is an error (counted up to a bound).
static MlirLogicalResult checkEnd(FILE *file, size_t expected,
                                  MlirStringCallback errorCallback,
                                  void *userData) {
  if (fgetc(file) == EOF)
    return mlirLogicalResultSuccess();
  size_t extra = 1, got;
  char chunk[4096];
  while (extra < kTrailingBytesCounted &&
         (got = fread(chunk, 1, sizeof(chunk), file)) > 0)
    extra += got;
  reportError(errorCallback, userData,
              extra < kTrailingBytesCounted
                  ? "trailing bytes: expected %zu bytes of data, found %zu"
                  : "trailing bytes: expected %zu bytes of data, found more "
                    "than %zu",
              expected, expected + extra);
  return mlirLogicalResultFailure();
}

static MlirLogicalResult readData(FILE *file, const Header *header,
                                  CoopvecDType dtype, size_t dataStart,
                                  uint64_t maxBytes, CoopvecNpyArray *result,
                                  MlirStringCallback errorCallback,
                                  void *userData) {
  int64_t count;
  size_t bytes;
  if (mlirLogicalResultIsFailure(
          dataSize(header, dtype, &count, &bytes, errorCallback, userData)))
    return mlirLogicalResultFailure();
  if (bytes > maxBytes || dataStart > maxBytes - bytes) {
    reportError(errorCallback, userData,
                "the array holds %zu bytes, more than the limit of %llu "
                "bytes for this input",
                bytes, (unsigned long long)maxBytes);
    return mlirLogicalResultFailure();
  }
  unsigned char *data = malloc(bytes ? bytes : 1);
  if (!data) {
    reportError(errorCallback, userData, "out of memory (%zu bytes)", bytes);
    return mlirLogicalResultFailure();
  }
  errno = 0;
  size_t got = fread(data, 1, bytes, file);
  int readErrno = errno;
  MlirLogicalResult status = mlirLogicalResultFailure();
  if (ferror(file))
    reportError(errorCallback, userData, "read error: %s", strerror(readErrno));
  else if (got < bytes)
    reportError(errorCallback, userData,
                "truncated data: expected %zu bytes, found %zu", bytes, got);
  else
    status = checkEnd(file, bytes, errorCallback, userData);
  if (mlirLogicalResultIsFailure(status)) {
    free(data);
    return status;
  }
  setResult(result, header, dtype, data, count);
  return status;
}

MlirLogicalResult coopvecNpyReadLimited(const char *path, uint64_t maxBytes,
                                        CoopvecNpyArray *result,
                                        MlirStringCallback errorCallback,
                                        void *userData) {
  memset(result, 0, sizeof(*result));
  FILE *file = fopen(path, "rb");
  if (!file) {
    reportError(errorCallback, userData, "cannot open: %s", strerror(errno));
    return mlirLogicalResultFailure();
  }
  CoopvecBuffer image = {0};
  Header header;
  CoopvecDType dtype;
  size_t dataStart;
  MlirLogicalResult status =
      readHeader(file, maxBytes, &image, errorCallback, userData);
  if (mlirLogicalResultIsSuccess(status))
    status = parseHeaderImage((const unsigned char *)coopvecBufferStr(&image),
                              image.size, &header, &dtype, &dataStart,
                              errorCallback, userData);
  if (mlirLogicalResultIsSuccess(status))
    status = readData(file, &header, dtype, dataStart, maxBytes, result,
                      errorCallback, userData);
  coopvecBufferFree(&image);
  fclose(file);
  return status;
}

MlirLogicalResult coopvecNpyRead(const char *path, CoopvecNpyArray *result,
                                 MlirStringCallback errorCallback,
                                 void *userData) {
  return coopvecNpyReadLimited(path, UINT64_MAX, result, errorCallback,
                               userData);
}

//===----------------------------------------------------------------------===//
// Writing
//===----------------------------------------------------------------------===//

static bool shapeMatchesSize(const CoopvecNpyArray *array) {
  if (array->rank < 0 || array->rank > COOPVEC_NPY_MAX_RANK)
    return false;
  bool empty = false;
  for (int i = 0; i < array->rank; ++i) {
    if (array->shape[i] < 0)
      return false;
    empty |= array->shape[i] == 0;
  }
  if (empty) // (2^62, 4, 0) holds 0 elements, though 2^62 * 4 overflows
    return array->array.size == 0;
  int64_t count = 1;
  for (int i = 0; i < array->rank; ++i)
    if (__builtin_mul_overflow(count, array->shape[i], &count))
      return false; // an embedder's shape: more elements than any array
  return count == array->array.size;
}

/// Appends the preamble and the header padded (with spaces, then '\n') so
/// that the data starts at a multiple of 64 bytes.
static void appendHeader(CoopvecBuffer *out, const CoopvecNpyArray *array) {
  CoopvecBuffer dict = {0};
  coopvecBufferAppendf(&dict,
                       "{'descr': '%s', 'fortran_order': False, "
                       "'shape': (",
                       coopvecNpyDescr(array->array.dtype));
  for (int i = 0; i < array->rank; ++i)
    coopvecBufferAppendf(&dict, i ? " %lld," : "%lld,",
                         (long long)array->shape[i]);
  if (array->rank > 1)
    --dict.size; // (3, 4) rather than (3, 4,); a 1-tuple keeps its comma.
  coopvecBufferAppendStr(&dict, "), }");
  size_t unpadded = sizeof(kMagic) + 4 + dict.size + 1;
  size_t padding = (64 - unpadded % 64) % 64;
  size_t headerLength = dict.size + padding + 1;
  coopvecBufferAppend(out, kMagic, sizeof(kMagic));
  char version[4] = {1, 0, (char)(headerLength & 0xff),
                     (char)(headerLength >> 8)};
  coopvecBufferAppend(out, version, sizeof(version));
  coopvecBufferAppend(out, dict.data, dict.size);
  for (size_t i = 0; i < padding; ++i)
    coopvecBufferAppendStr(out, " ");
  coopvecBufferAppendStr(out, "\n");
  coopvecBufferFree(&dict);
}

MlirLogicalResult coopvecNpySerialize(const CoopvecNpyArray *array,
                                      MlirStringCallback callback,
                                      void *userData) {
  if (!coopvecNpyIsSupportedDType(array->array.dtype) ||
      !shapeMatchesSize(array))
    return mlirLogicalResultFailure();
  CoopvecBuffer header = {0};
  appendHeader(&header, array);
  callback(mlirStringRefCreate(header.data, header.size), userData);
  coopvecBufferFree(&header);
  size_t bytes =
      (size_t)(array->array.size * coopvecDTypeGetSize(array->array.dtype));
  if (bytes)
    callback(mlirStringRefCreate(array->array.data, bytes), userData);
  return mlirLogicalResultSuccess();
}

typedef struct FileWriter {
  FILE *file;
  bool failed;
} FileWriter;

static void writeChunk(MlirStringRef chunk, void *userData) {
  FileWriter *writer = userData;
  if (fwrite(chunk.data, 1, chunk.length, writer->file) != chunk.length)
    writer->failed = true;
}

MlirLogicalResult coopvecNpyWrite(const char *path,
                                  const CoopvecNpyArray *array,
                                  MlirStringCallback errorCallback,
                                  void *userData) {
  if (!coopvecNpyIsSupportedDType(array->array.dtype) ||
      !shapeMatchesSize(array)) {
    reportError(errorCallback, userData,
                "cannot write a %s array with this shape as .npy",
                coopvecDTypeGetName(array->array.dtype));
    return mlirLogicalResultFailure();
  }
  FileWriter writer = {fopen(path, "wb"), false};
  if (!writer.file) {
    reportError(errorCallback, userData, "cannot open for writing: %s",
                strerror(errno));
    return mlirLogicalResultFailure();
  }
  coopvecNpySerialize(array, writeChunk, &writer);
  if (fclose(writer.file) != 0)
    writer.failed = true;
  if (writer.failed) {
    reportError(errorCallback, userData, "write error");
    return mlirLogicalResultFailure();
  }
  return mlirLogicalResultSuccess();
}

void coopvecNpyArrayDestroy(CoopvecNpyArray *array) {
  free(array->array.data);
  memset(array, 0, sizeof(*array));
}
