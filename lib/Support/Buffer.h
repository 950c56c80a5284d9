//===- Buffer.h - A growable string buffer (internal) -------------*- C -*-===//
//
// MLIR's C API prints through MlirStringCallback; this buffer collects those
// chunks so that callers can inspect printed types, build messages, etc.
//
//===----------------------------------------------------------------------===//

#ifndef COOPVEC_LIB_SUPPORT_BUFFER_H
#define COOPVEC_LIB_SUPPORT_BUFFER_H

#include <mlir-c/Support.h>

#include <stddef.h>

typedef struct CoopvecBuffer {
  char *data; // always NUL-terminated once anything was appended
  size_t size;
  size_t capacity;
} CoopvecBuffer;

void coopvecBufferAppend(CoopvecBuffer *buffer, const char *text, size_t size);
void coopvecBufferAppendStr(CoopvecBuffer *buffer, const char *text);
void coopvecBufferAppendf(CoopvecBuffer *buffer, const char *format, ...)
    __attribute__((format(printf, 2, 3)));
/// An MlirStringCallback whose userData is a CoopvecBuffer.
void coopvecBufferCallback(MlirStringRef chunk, void *userData);
/// The contents as a C string ("" when empty).
const char *coopvecBufferStr(const CoopvecBuffer *buffer);
void coopvecBufferClear(CoopvecBuffer *buffer);
void coopvecBufferFree(CoopvecBuffer *buffer);

#endif // COOPVEC_LIB_SUPPORT_BUFFER_H
