/*===- coopvec-c/Support.h - Small helpers for C users of MLIR ----*- C -*-===*\
|*                                                                            *|
|* Utilities every C program over the MLIR C API ends up writing: a growable  *|
|* string buffer that collects what MLIR prints through MlirStringCallback,   *|
|* severity names for diagnostics, and an op-name test. The library and its   *|
|* tools use them; embedders may too.                                         *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef COOPVEC_C_SUPPORT_H
#define COOPVEC_C_SUPPORT_H

#include "coopvec-c/Export.h"

#include <mlir-c/Diagnostics.h>
#include <mlir-c/IR.h>
#include <mlir-c/Support.h>

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// A growable string; zero-initialize it (`CoopvecBuffer b = {0};`) and
/// release it with coopvecBufferFree. Out of memory aborts.
typedef struct CoopvecBuffer {
  char *data; // always NUL-terminated once anything was appended
  size_t size;
  size_t capacity;
} CoopvecBuffer;

COOPVEC_EXPORT void coopvecBufferAppend(CoopvecBuffer *buffer, const char *text,
                                        size_t size);
COOPVEC_EXPORT void coopvecBufferAppendStr(CoopvecBuffer *buffer,
                                           const char *text);
COOPVEC_EXPORT void coopvecBufferAppendf(CoopvecBuffer *buffer,
                                         const char *format, ...)
    __attribute__((format(printf, 2, 3)));
/// An MlirStringCallback whose userData is a CoopvecBuffer.
COOPVEC_EXPORT void coopvecBufferCallback(MlirStringRef chunk, void *userData);
/// The contents as a C string ("" when empty).
COOPVEC_EXPORT const char *coopvecBufferStr(const CoopvecBuffer *buffer);
COOPVEC_EXPORT void coopvecBufferClear(CoopvecBuffer *buffer);
COOPVEC_EXPORT void coopvecBufferFree(CoopvecBuffer *buffer);

/// "error", "warning", "note" or "remark", as MLIR prints severities.
COOPVEC_EXPORT const char *coopvecSeverityName(MlirDiagnosticSeverity severity);

/// Whether `op` is non-null and named `name` (e.g. "func.func").
COOPVEC_EXPORT bool coopvecOpIsNamed(MlirOperation op, const char *name);

#ifdef __cplusplus
}
#endif

#endif // COOPVEC_C_SUPPORT_H
