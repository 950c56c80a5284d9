//===- Buffer.c - A growable string buffer --------------------------------===//

#include "Support/Location.h"

#include "coopvec-c/Support.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void reserve(CoopvecBuffer *buffer, size_t extra) {
  size_t needed = buffer->size + extra + 1;
  if (needed <= buffer->capacity)
    return;
  size_t capacity = buffer->capacity ? buffer->capacity : 64;
  while (capacity < needed)
    capacity *= 2;
  char *data = realloc(buffer->data, capacity);
  if (!data) {
    fprintf(stderr, "coopvec: out of memory\n");
    abort();
  }
  buffer->data = data;
  buffer->capacity = capacity;
}

void coopvecBufferAppend(CoopvecBuffer *buffer, const char *text, size_t size) {
  reserve(buffer, size);
  if (size)
    memcpy(buffer->data + buffer->size, text, size);
  buffer->size += size;
  buffer->data[buffer->size] = '\0';
}

void coopvecBufferAppendStr(CoopvecBuffer *buffer, const char *text) {
  coopvecBufferAppend(buffer, text, strlen(text));
}

void coopvecBufferAppendf(CoopvecBuffer *buffer, const char *format, ...) {
  va_list args;
  va_start(args, format);
  int length = vsnprintf(NULL, 0, format, args);
  va_end(args);
  if (length <= 0)
    return;
  reserve(buffer, (size_t)length);
  va_start(args, format);
  vsnprintf(buffer->data + buffer->size, (size_t)length + 1, format, args);
  va_end(args);
  buffer->size += (size_t)length;
}

void coopvecBufferCallback(MlirStringRef chunk, void *userData) {
  coopvecBufferAppend((CoopvecBuffer *)userData, chunk.data, chunk.length);
}

const char *coopvecBufferStr(const CoopvecBuffer *buffer) {
  return buffer->data ? buffer->data : "";
}

void coopvecBufferClear(CoopvecBuffer *buffer) {
  buffer->size = 0;
  if (buffer->data)
    buffer->data[0] = '\0';
}

void coopvecBufferFree(CoopvecBuffer *buffer) {
  free(buffer->data);
  buffer->data = NULL;
  buffer->size = buffer->capacity = 0;
}

void coopvecBufferAppendLocation(CoopvecBuffer *buffer, MlirLocation location) {
  if (mlirLocationIsAFileLineColRange(location)) {
    MlirStringRef file =
        mlirIdentifierStr(mlirLocationFileLineColRangeGetFilename(location));
    coopvecBufferAppendf(buffer, "%.*s:%d:%d", (int)file.length, file.data,
                         mlirLocationFileLineColRangeGetStartLine(location),
                         mlirLocationFileLineColRangeGetStartColumn(location));
    return;
  }
  mlirLocationPrint(location, coopvecBufferCallback, buffer);
}
