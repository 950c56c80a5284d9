//===- Interpreter.c - coopvecInterpret: the reference interpreter --------===//
//
// Checks the module, decodes the function, binds the caller's arrays, runs
// the program once per thread (threads 0, 1, ... in order) and writes the
// buffers back. Memory ops work on a shadow copy of every buffer (doubles
// for floats), so gradient accumulations sum in double whatever the element
// type, and the caller's buffers change only if every thread succeeded and
// no access was out of bounds.
//
//===----------------------------------------------------------------------===//

#include "Interpreter/Decode.h"
#include "Interpreter/Execute.h"

#include "coopvec-c/Support.h"

#include "coopvec-c/Passes.h"

#include <mlir-c/Diagnostics.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

//===----------------------------------------------------------------------===//
// Errors
//===----------------------------------------------------------------------===//

/// "file:line:col" for file locations, MLIR's printed form otherwise.
static void appendLocation(CoopvecBuffer *message, MlirLocation location) {
  if (!mlirLocationIsAFileLineColRange(location)) {
    mlirLocationPrint(location, coopvecBufferCallback, message);
    return;
  }
  MlirStringRef file =
      mlirIdentifierStr(mlirLocationFileLineColRangeGetFilename(location));
  coopvecBufferAppendf(message, "%.*s:%d:%d", (int)file.length, file.data,
                       mlirLocationFileLineColRangeGetStartLine(location),
                       mlirLocationFileLineColRangeGetStartColumn(location));
}

static void deliver(Interp *interp, CoopvecBuffer *message) {
  interp->failed = true;
  if (interp->errorCallback)
    interp->errorCallback(
        mlirStringRefCreate(coopvecBufferStr(message), message->size),
        interp->userData);
  coopvecBufferFree(message);
}

bool coopvecInterpError(Interp *interp, MlirOperation op, const char *format,
                        ...) {
  if (interp->failed)
    return false;
  CoopvecBuffer message = {0};
  if (!mlirOperationIsNull(op)) {
    appendLocation(&message, mlirOperationGetLocation(op));
    MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
    coopvecBufferAppendf(&message, ": error: '%.*s' op ", (int)name.length,
                         name.data);
  } else {
    coopvecBufferAppendStr(&message, "error: ");
  }
  char text[512];
  va_list args;
  va_start(args, format);
  vsnprintf(text, sizeof(text), format, args);
  va_end(args);
  coopvecBufferAppendStr(&message, text);
  if (interp->thread >= 0)
    coopvecBufferAppendf(&message, " (thread %lld)", (long long)interp->thread);
  deliver(interp, &message);
  return false;
}

/// Forwards the first error diagnostic emitted while the module is verified
/// to the caller's callback instead of the context's handlers.
static MlirLogicalResult captureDiagnostic(MlirDiagnostic diagnostic,
                                           void *userData) {
  Interp *interp = userData;
  if (mlirDiagnosticGetSeverity(diagnostic) == MlirDiagnosticError &&
      !interp->failed) {
    CoopvecBuffer message = {0};
    appendLocation(&message, mlirDiagnosticGetLocation(diagnostic));
    coopvecBufferAppendStr(&message, ": error: ");
    mlirDiagnosticPrint(diagnostic, coopvecBufferCallback, &message);
    deliver(interp, &message);
  }
  return mlirLogicalResultSuccess();
}

static bool verifyModule(Interp *interp) {
  MlirContext ctx = mlirOperationGetContext(interp->moduleOp);
  MlirDiagnosticHandlerID handler =
      mlirContextAttachDiagnosticHandler(ctx, captureDiagnostic, interp, NULL);
  bool ok = mlirOperationVerify(interp->moduleOp) &&
            mlirLogicalResultIsSuccess(coopvecVerify(interp->moduleOp));
  mlirContextDetachDiagnosticHandler(ctx, handler);
  if (!ok && !interp->failed)
    coopvecInterpError(interp, interp->moduleOp, "does not verify");
  return ok;
}

//===----------------------------------------------------------------------===//
// Host arrays
//===----------------------------------------------------------------------===//

static bool isIntDType(CoopvecDType dtype) {
  return dtype == CoopvecDTypeI8 || dtype == CoopvecDTypeI32 ||
         dtype == CoopvecDTypeI64;
}

static bool isFloatDType(CoopvecDType dtype) {
  return dtype == CoopvecDTypeF16 || dtype == CoopvecDTypeF32 ||
         dtype == CoopvecDTypeF64;
}

/// The dtype of an integer memref's elements; -1 if none holds them.
static int intMemRefDType(int bits) {
  switch (bits) {
  case 8:
    return CoopvecDTypeI8;
  case 32:
    return CoopvecDTypeI32;
  case 64:
    return CoopvecDTypeI64;
  default:
    return -1;
  }
}

/// Inputs must match their element type exactly, so that the interpreter
/// sees the values the compiled code sees (integer scalars and vectors may
/// come in any integer dtype); float results may be wider.
static bool dtypeFits(const Slot *slot, CoopvecDType dtype, bool isResult) {
  if (slot->elem == ELEM_INT && slot->kind == SLOT_MEMREF)
    return (int)dtype == intMemRefDType(slot->bits);
  if (slot->elem == ELEM_INT)
    return isIntDType(dtype);
  if (isResult)
    return isFloatDType(dtype);
  switch (slot->elem) {
  case ELEM_F16:
    return dtype == CoopvecDTypeF16;
  case ELEM_F32:
    return dtype == CoopvecDTypeF32;
  default:
    return dtype == CoopvecDTypeF64;
  }
}

static int64_t readInt(const CoopvecArray *array, int64_t index) {
  switch (array->dtype) {
  case CoopvecDTypeI8:
    return ((const int8_t *)array->data)[index];
  case CoopvecDTypeI32:
    return ((const int32_t *)array->data)[index];
  default:
    return ((const int64_t *)array->data)[index];
  }
}

static void writeInt(CoopvecArray *array, int64_t index, int64_t value) {
  switch (array->dtype) {
  case CoopvecDTypeI8:
    ((int8_t *)array->data)[index] = (int8_t)value;
    return;
  case CoopvecDTypeI32:
    ((int32_t *)array->data)[index] = (int32_t)value;
    return;
  default:
    ((int64_t *)array->data)[index] = value;
    return;
  }
}

/// Checks one of the caller's arrays against the slot it binds to.
static bool checkArray(Interp *interp, Program *program, const Slot *slot,
                       const CoopvecArray *array, int64_t expected,
                       bool perThreadOrShared, bool isResult, int index) {
  const char *what = isResult ? "result" : "argument";
  char type[96];
  coopvecSlotDescribe(slot, type, sizeof(type));
  if (!dtypeFits(slot, array->dtype, isResult))
    return coopvecInterpError(interp, program->func,
                              "%s #%d (%s) was given an array of %s", what,
                              index, type, coopvecDTypeGetName(array->dtype));
  bool sizeOk =
      array->size == expected || (perThreadOrShared && array->size == 1);
  if (!sizeOk || array->size < 0)
    return coopvecInterpError(interp, program->func,
                              "%s #%d (%s) needs %s%lld elements; the array "
                              "has %lld",
                              what, index, type,
                              perThreadOrShared ? "1 or " : "",
                              (long long)expected, (long long)array->size);
  if (!array->data && array->size > 0)
    return coopvecInterpError(interp, program->func, "%s #%d has no data", what,
                              index);
  return true;
}

//===----------------------------------------------------------------------===//
// Buffers
//===----------------------------------------------------------------------===//

/// The buffer for a memref argument. Arrays passed twice (same data) share
/// one buffer, so that aliasing arguments see each other's writes.
static int32_t bindBuffer(Interp *interp, const Slot *slot,
                          const CoopvecArray *array) {
  for (int32_t i = 0; i < interp->numBuffers; ++i)
    if (interp->buffers[i].array.data == array->data &&
        interp->buffers[i].array.size == array->size &&
        interp->buffers[i].array.dtype == array->dtype && array->size > 0)
      return i;
  Buffer *buffer = &interp->buffers[interp->numBuffers];
  buffer->array = *array;
  buffer->elem = slot->elem;
  buffer->bits = slot->bits;
  buffer->dirty = false;
  buffer->shadow = malloc(sizeof(Cell) * (size_t)(array->size + 1));
  if (!buffer->shadow)
    abort();
  for (int64_t i = 0; i < array->size; ++i) {
    if (slot->elem == ELEM_INT)
      buffer->shadow[i].i =
          coopvecInterpWrap((uint64_t)readInt(array, i), slot->bits);
    else
      buffer->shadow[i].f = coopvecArrayGet(array, i);
  }
  return interp->numBuffers++;
}

static void writeBackBuffers(Interp *interp) {
  for (int32_t i = 0; i < interp->numBuffers; ++i) {
    Buffer *buffer = &interp->buffers[i];
    for (int64_t j = 0; buffer->dirty && j < buffer->array.size; ++j) {
      if (buffer->elem == ELEM_INT)
        writeInt(&buffer->array, j, buffer->shadow[j].i);
      else
        coopvecArraySet(&buffer->array, j, buffer->shadow[j].f);
    }
  }
}

static void freeBuffers(Interp *interp) {
  for (int32_t i = 0; i < interp->numBuffers; ++i)
    free(interp->buffers[i].shadow);
  free(interp->buffers);
}

//===----------------------------------------------------------------------===//
// Arguments and results
//===----------------------------------------------------------------------===//

static bool bindArguments(Interp *interp, Program *program, int64_t numThreads,
                          const CoopvecArray *args) {
  interp->buffers = calloc((size_t)program->numArgs + 1, sizeof(Buffer));
  for (int32_t i = 0; i < program->numArgs; ++i) {
    const Slot *slot = &program->slots[program->argSlots[i]];
    if (slot->kind == SLOT_MATRIX)
      return coopvecInterpError(interp, program->func,
                                "argument #%d is a matrix; pass its buffer "
                                "as a memref and view it with "
                                "coopvec.matrix_view",
                                i);
    if (slot->kind != SLOT_MEMREF) {
      if (!checkArray(interp, program, slot, &args[i], numThreads * slot->width,
                      !slot->isVector, false, i))
        return false;
      continue;
    }
    int64_t expected = slot->staticSize >= 0 ? slot->staticSize : args[i].size;
    if (!checkArray(interp, program, slot, &args[i], expected, false, false, i))
      return false;
    program->frame[slot->offset].i = bindBuffer(interp, slot, &args[i]);
  }
  return true;
}

/// Copies thread `thread`'s share of the per-thread arguments into the
/// frame; memrefs were bound once.
static void loadArguments(Program *program, int64_t thread,
                          const CoopvecArray *args) {
  for (int32_t i = 0; i < program->numArgs; ++i) {
    const Slot *slot = &program->slots[program->argSlots[i]];
    if (slot->kind == SLOT_MEMREF)
      continue;
    int64_t first = args[i].size == 1 ? 0 : thread * slot->width;
    Cell *cells = &program->frame[slot->offset];
    for (int64_t j = 0; j < slot->width; ++j) {
      if (slot->kind == SLOT_INT)
        cells[j].i = coopvecInterpWrap((uint64_t)readInt(&args[i], first + j),
                                       slot->bits);
      else
        cells[j].f = coopvecArrayGet(&args[i], first + j);
    }
  }
}

static bool checkResults(Interp *interp, Program *program, int64_t numThreads,
                         CoopvecArray *results) {
  for (int32_t i = 0; i < program->numReturns; ++i) {
    const Slot *slot = &program->slots[program->returnSlots[i]];
    if (slot->kind == SLOT_MEMREF || slot->kind == SLOT_MATRIX)
      return coopvecInterpError(interp, program->func,
                                "returns a memref or matrix as result #%d; "
                                "only values can be returned",
                                i);
    if (!checkArray(interp, program, slot, &results[i],
                    numThreads * slot->width, false, true, i))
      return false;
  }
  return true;
}

static void storeResults(Program *program, int64_t thread,
                         CoopvecArray *results) {
  for (int32_t i = 0; i < program->numReturns; ++i) {
    const Slot *slot = &program->slots[program->returnSlots[i]];
    const Cell *cells = &program->frame[slot->offset];
    for (int64_t j = 0; j < slot->width; ++j) {
      if (slot->kind == SLOT_INT)
        writeInt(&results[i], thread * slot->width + j, cells[j].i);
      else
        coopvecArraySet(&results[i], thread * slot->width + j, cells[j].f);
    }
  }
}

//===----------------------------------------------------------------------===//
// Entry point
//===----------------------------------------------------------------------===//

static Program *prepare(Interp *interp, MlirStringRef funcName,
                        int64_t numThreads, const CoopvecArray *args,
                        intptr_t numArgs, const CoopvecArray *results,
                        intptr_t numResults) {
  MlirOperation none = {NULL};
  if (numThreads < 1) {
    coopvecInterpError(interp, none,
                       "the number of threads must be positive, not %lld",
                       (long long)numThreads);
    return NULL;
  }
  if ((numArgs > 0 && !args) || (numResults > 0 && !results)) {
    coopvecInterpError(interp, none, "the argument or result list is null");
    return NULL;
  }
  MlirOperation func = coopvecInterpLookupFunction(interp, funcName);
  if (mlirOperationIsNull(func)) {
    coopvecInterpError(interp, none, "no func.func named '%.*s' in the module",
                       (int)funcName.length, funcName.data);
    return NULL;
  }
  Program *program = coopvecInterpDecode(interp, func);
  if (program &&
      (numArgs != program->numArgs || numResults != program->numReturns)) {
    coopvecInterpError(interp, func,
                       "takes %d arguments and returns %d results; %lld "
                       "arguments and %lld results were given",
                       program->numArgs, program->numReturns,
                       (long long)numArgs, (long long)numResults);
    return NULL;
  }
  return program;
}

/// Out-of-bounds accesses do not stop the run; it fails at the end with
/// one error at the first one (the lowest thread's, first in the text).
static bool reportOutOfBounds(Interp *interp) {
  const OutOfBounds *first = &interp->outOfBounds;
  if (first->count == 0)
    return true;
  bool one = first->count == 1;
  return coopvecInterpError(
      interp, first->op,
      "%lld %s outside %s buffer (reads gave 0, writes were dropped); the "
      "first: thread %lld, %s",
      (long long)first->count, one ? "access" : "accesses",
      one ? "its" : "their", (long long)first->thread, first->what);
}

static bool runThreads(Interp *interp, Program *program, int64_t numThreads,
                       const CoopvecArray *args, CoopvecArray *results) {
  for (int64_t thread = 0; thread < numThreads; ++thread) {
    interp->thread = thread;
    loadArguments(program, thread, args);
    if (!coopvecInterpRun(interp, program))
      return false;
    storeResults(program, thread, results);
  }
  interp->thread = -1;
  return reportOutOfBounds(interp);
}

MlirLogicalResult coopvecInterpret(MlirOperation moduleOp,
                                   MlirStringRef funcName, int64_t numThreads,
                                   const CoopvecArray *args, intptr_t numArgs,
                                   CoopvecArray *results, intptr_t numResults,
                                   MlirStringCallback errorCallback,
                                   void *userData) {
  Interp interp = {0};
  interp.moduleOp = moduleOp;
  interp.errorCallback = errorCallback;
  interp.userData = userData;
  interp.thread = -1;
  interp.outOfBounds.thread = -1;
  bool ok;
  if (mlirOperationIsNull(moduleOp)) {
    ok = coopvecInterpError(&interp, moduleOp, "the module is null");
  } else if (verifyModule(&interp)) {
    Program *program = prepare(&interp, funcName, numThreads, args, numArgs,
                               results, numResults);
    ok = program && bindArguments(&interp, program, numThreads, args) &&
         checkResults(&interp, program, numThreads, results) &&
         runThreads(&interp, program, numThreads, args, results);
  } else {
    ok = false;
  }
  if (ok)
    writeBackBuffers(&interp);
  freeBuffers(&interp);
  free(interp.callPath);
  free(interp.outOfBounds.path);
  coopvecInterpFreePrograms(&interp);
  return ok ? mlirLogicalResultSuccess() : mlirLogicalResultFailure();
}
