//===- Run.c - Check the caller's arrays, then run on the backend ---------===//
//
// Everything a call hands over is checked here, for every target, before
// any compiled code runs: counts, dtypes, sizes, alignment, and every
// offset and extent of a memref access (Extent.c), with overflow-safe
// arithmetic. The backend then runs the batch (CPURun.c for the CPU).
//
//===----------------------------------------------------------------------===//

// sysconf is POSIX, not C11.
#define _POSIX_C_SOURCE 200809L

#include "ExecutionEngine/Engine.h"
#include "ExecutionEngine/Shadows.h"

#include <unistd.h>

enum { kMaxThreads = 1024 };

int coopvecGetDefaultNumThreads(void) {
  long cores = sysconf(_SC_NPROCESSORS_ONLN);
  return cores < 1 ? 1 : cores > kMaxThreads ? kMaxThreads : (int)cores;
}

//===----------------------------------------------------------------------===//
// Checks
//===----------------------------------------------------------------------===//

static const char kSupportedArgs[] =
    "supported: !coopvec.vec and rank-1 memref of f16/f32, scalar "
    "f16/f32/f64/index/i64";
static const char kSupportedResults[] =
    "results must be !coopvec.vec of f16/f32";

/// The dtype, pointer and alignment of one array against its value.
static CoopvecStatus checkArray(CoopvecFunction *function, const char *what,
                                intptr_t index, const CoopvecValueInfo *info,
                                const CoopvecArray *array) {
  CoopvecEngine *engine = function->engine;
  if (info->kind == CoopvecValueKindUnsupported)
    return coopvecEngineFail(
        engine, CoopvecStatusUnsupportedType,
        "%s #%ld of @%s has type %s, which the execution engine cannot pass "
        "(%s)",
        what, (long)index, function->name, info->type,
        what[0] == 'r' ? kSupportedResults : kSupportedArgs);
  if (array->dtype != info->dtype)
    return coopvecEngineFail(engine, CoopvecStatusTypeMismatch,
                             "%s #%ld (%s) of @%s expects %s data, got %s",
                             what, (long)index, info->type, function->name,
                             coopvecDTypeGetName(info->dtype),
                             coopvecDTypeGetName(array->dtype));
  int64_t elementBytes = coopvecDTypeGetSize(info->dtype);
  if (array->size < 0 || (array->size > 0 && !array->data) ||
      (uintptr_t)array->data % (uintptr_t)elementBytes != 0)
    return coopvecEngineFail(
        engine, CoopvecStatusInvalidArgument, "%s #%ld (%s) of @%s: %s", what,
        (long)index, info->type, function->name,
        array->size < 0 ? "negative size"
        : !array->data  ? "NULL data for a non-empty array"
                        : "data not aligned to its element size");
  return CoopvecStatusSuccess;
}

/// The number of elements the value needs, or -1 for a dynamic memref.
static CoopvecStatus expectedSize(CoopvecFunction *function, const char *what,
                                  intptr_t index, const CoopvecValueInfo *info,
                                  int64_t batch, int64_t *size) {
  *size = info->kind == CoopvecValueKindScalar ? 1 : info->length;
  if (info->kind != CoopvecValueKindVec ||
      !__builtin_mul_overflow(batch, info->length, size))
    return CoopvecStatusSuccess;
  return coopvecEngineFail(function->engine, CoopvecStatusSizeMismatch,
                           "%s #%ld (%s) of @%s: a batch of %lld threads "
                           "overflows the element count",
                           what, (long)index, info->type, function->name,
                           (long long)batch);
}

static CoopvecStatus checkValue(CoopvecFunction *function, const char *what,
                                intptr_t index, const CoopvecValueInfo *info,
                                const CoopvecArray *array, int64_t batch) {
  CoopvecStatus status = checkArray(function, what, index, info, array);
  int64_t size;
  if (status == CoopvecStatusSuccess)
    status = expectedSize(function, what, index, info, batch, &size);
  if (status != CoopvecStatusSuccess || size < 0 || array->size == size)
    return status;
  return coopvecEngineFail(
      function->engine, CoopvecStatusSizeMismatch,
      "%s #%ld (%s) of @%s holds %lld elements, expected %lld%s", what,
      (long)index, info->type, function->name, (long long)array->size,
      (long long)size,
      info->kind == CoopvecValueKindVec      ? " (batch x vector length)"
      : info->kind == CoopvecValueKindScalar ? " (one uniform value)"
                                             : " (the static memref size)");
}

/// Every memref must cover what the function accesses.
static CoopvecStatus checkExtents(CoopvecFunction *function,
                                  const CoopvecArray *args) {
  for (intptr_t i = 0; i < function->numArgs; ++i) {
    if (function->args[i].kind != CoopvecValueKindMemRef)
      continue;
    int64_t extent;
    CoopvecStatus status =
        coopvecComputeExtent(function, i, args, true, &extent);
    if (status != CoopvecStatusSuccess)
      return status;
    if (extent > args[i].size)
      return coopvecEngineFail(
          function->engine, CoopvecStatusOutOfBounds,
          "argument #%ld (%s) of @%s holds %lld elements, but the function "
          "accesses %lld",
          (long)i, function->args[i].type, function->name,
          (long long)args[i].size, (long long)extent);
  }
  return CoopvecStatusSuccess;
}

static CoopvecStatus checkCounts(CoopvecFunction *function, int64_t batch,
                                 const CoopvecArray *args, intptr_t numArgs,
                                 const CoopvecArray *results,
                                 intptr_t numResults, int numThreads) {
  CoopvecEngine *engine = function->engine;
  if (batch < 0)
    return coopvecEngineFail(engine, CoopvecStatusInvalidArgument,
                             "batch %lld is negative", (long long)batch);
  if (numThreads < 0 || numThreads > kMaxThreads)
    return coopvecEngineFail(engine, CoopvecStatusInvalidArgument,
                             "%d threads: use 0 (all cores) to %d", numThreads,
                             kMaxThreads);
  if (numArgs != function->numArgs || (numArgs && !args) ||
      numResults != function->numResults || (numResults && !results))
    return coopvecEngineFail(engine, CoopvecStatusInvalidArgument,
                             "@%s takes %ld argument(s) and %ld result(s), "
                             "got %ld and %ld",
                             function->name, (long)function->numArgs,
                             (long)function->numResults, (long)numArgs,
                             (long)numResults);
  if (!coopvecEngineIsCompiled(engine))
    return coopvecEngineFail(engine, CoopvecStatusNotCompiled,
                             "the engine is not compiled (call "
                             "coopvecEngineCompile first)");
  return CoopvecStatusSuccess;
}

static CoopvecStatus checkCall(CoopvecFunction *function, int64_t batch,
                               const CoopvecArray *args, intptr_t numArgs,
                               const CoopvecArray *results, intptr_t numResults,
                               int numThreads) {
  CoopvecStatus status = checkCounts(function, batch, args, numArgs, results,
                                     numResults, numThreads);
  for (intptr_t i = 0; i < numArgs && !status; ++i)
    status = checkValue(function, "argument", i, &function->args[i], &args[i],
                        batch);
  for (intptr_t i = 0; i < numResults && !status; ++i)
    status = checkValue(function, "result", i, &function->results[i],
                        &results[i], batch);
  return status ? status : checkExtents(function, args);
}

CoopvecStatus coopvecFunctionRun(CoopvecFunction *function, int64_t batch,
                                 const CoopvecArray *args, intptr_t numArgs,
                                 const CoopvecArray *results,
                                 intptr_t numResults, int numThreads) {
  if (!function)
    return CoopvecStatusInvalidArgument;
  CoopvecStatus status = checkCall(function, batch, args, numArgs, results,
                                   numResults, numThreads);
  if (status)
    return status;
  return coopvecRunWithShadows(function, batch, args, results, numThreads);
}
