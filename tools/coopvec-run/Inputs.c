//===- Inputs.c - Host arrays: .npy inputs, random inputs, outputs --------===//

#include "Runner.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *descrOf(CoopvecDType dtype) {
  switch (dtype) {
  case CoopvecDTypeF16:
    return "<f2";
  case CoopvecDTypeF32:
    return "<f4";
  case CoopvecDTypeF64:
    return "<f8";
  default:
    return "<i8";
  }
}

static void formatShape(char *out, size_t size, int rank,
                        const int64_t *shape) {
  int used = snprintf(out, size, "(");
  for (int i = 0; i < rank && used < (int)size; ++i)
    used += snprintf(out + used, size - (size_t)used, i ? ", %lld" : "%lld",
                     (long long)shape[i]);
  if (used < (int)size)
    snprintf(out + used, size - (size_t)used, rank == 1 ? ",)" : ")");
}

/// Allocates a zeroed array of `dtype` with the given shape.
static void arrayAllocate(CoopvecNpyArray *array, CoopvecDType dtype, int rank,
                          const int64_t *shape) {
  memset(array, 0, sizeof(*array));
  array->rank = rank;
  array->array.dtype = dtype;
  array->array.size = 1;
  for (int i = 0; i < rank; ++i) {
    array->shape[i] = shape[i];
    array->array.size *= shape[i];
  }
  size_t bytes = (size_t)(array->array.size * coopvecDTypeGetSize(dtype));
  array->array.data = calloc(bytes ? bytes : 1, 1);
  if (!array->array.data) {
    runError("out of memory (%zu bytes)", bytes);
    exit(1);
  }
}

void arrayCopy(const CoopvecNpyArray *source, CoopvecNpyArray *copy) {
  arrayAllocate(copy, source->array.dtype, source->rank, source->shape);
  size_t bytes =
      (size_t)(source->array.size * coopvecDTypeGetSize(source->array.dtype));
  if (bytes)
    memcpy(copy->array.data, source->array.data, bytes);
}

MlirLogicalResult arraySave(const char *path, const CoopvecNpyArray *array) {
  char message[512] = "";
  if (mlirLogicalResultIsSuccess(
          coopvecNpyWrite(path, array, runCollectMessage, message)))
    return mlirLogicalResultSuccess();
  runError("%s: %s", path, message);
  return mlirLogicalResultFailure();
}

//===----------------------------------------------------------------------===//
// Reading --arg files
//===----------------------------------------------------------------------===//

/// The conversion rule: a float file may feed a float argument of another
/// width when nothing is lost silently: from '<f8' (NumPy's default, rounded
/// to nearest even like astype) or widening ('<f2' -> f32). Integers must
/// match exactly.
static bool canConvert(CoopvecDType from, CoopvecDType to) {
  if (from == to)
    return true;
  if (from == CoopvecDTypeI64 || to == CoopvecDTypeI64)
    return false;
  return from == CoopvecDTypeF64 ||
         coopvecDTypeGetSize(from) < coopvecDTypeGetSize(to);
}

static void convertInPlace(CoopvecNpyArray *array, CoopvecDType to) {
  CoopvecNpyArray converted;
  arrayAllocate(&converted, to, array->rank, array->shape);
  for (int64_t i = 0; i < array->array.size; ++i)
    coopvecArraySet(&converted.array, i, coopvecArrayGet(&array->array, i));
  coopvecNpyArrayDestroy(array);
  *array = converted;
}

/// The shape an argument expects, for messages and checks. Dynamic memrefs
/// accept any length (-1 here).
static int expectedShape(const ValueInfo *info, int64_t batch, int64_t *shape) {
  switch (info->kind) {
  case ArgKindVec:
    shape[0] = batch;
    shape[1] = info->length;
    return 2;
  case ArgKindMemRef:
    shape[0] = info->length;
    return 1;
  case ArgKindScalar:
    return 0;
  }
  return 0;
}

static bool shapeMatches(const ValueInfo *info, int64_t batch,
                         const CoopvecNpyArray *array) {
  if (info->kind == ArgKindScalar)
    return array->array.size == 1 && array->rank <= 1;
  int64_t shape[2];
  int rank = expectedShape(info, batch, shape);
  if (array->rank != rank)
    return false;
  for (int i = 0; i < rank; ++i)
    if (shape[i] >= 0 && array->shape[i] != shape[i])
      return false;
  return true;
}

static MlirLogicalResult checkShape(const char *path, intptr_t index,
                                    const ValueInfo *info, int64_t batch,
                                    const CoopvecNpyArray *array) {
  if (shapeMatches(info, batch, array))
    return mlirLogicalResultSuccess();
  char got[128], want[128];
  int64_t shape[2];
  int rank = expectedShape(info, batch, shape);
  formatShape(got, sizeof(got), array->rank, array->shape);
  formatShape(want, sizeof(want), rank, shape);
  if (info->kind == ArgKindScalar)
    snprintf(want, sizeof(want), "() or (1,)");
  else if (info->kind == ArgKindMemRef && info->length < 0)
    snprintf(want, sizeof(want), "(N,)");
  runError("%s: argument #%ld (%s) expects shape %s, got %s", path, (long)index,
           info->typeText, want, got);
  return mlirLogicalResultFailure();
}

static MlirLogicalResult readArg(const char *path, intptr_t index,
                                 const ValueInfo *info, int64_t batch,
                                 CoopvecNpyArray *array) {
  char message[512] = "";
  if (mlirLogicalResultIsFailure(
          coopvecNpyRead(path, array, runCollectMessage, message))) {
    runError("%s: %s", path, message);
    return mlirLogicalResultFailure();
  }
  if (!canConvert(array->array.dtype, info->dtype)) {
    runError("%s: argument #%ld (%s) expects dtype '%s', got '%s'", path,
             (long)index, info->typeText, descrOf(info->dtype),
             descrOf(array->array.dtype));
    return mlirLogicalResultFailure();
  }
  if (mlirLogicalResultIsFailure(checkShape(path, index, info, batch, array)))
    return mlirLogicalResultFailure();
  if (array->array.dtype != info->dtype)
    convertInPlace(array, info->dtype);
  return mlirLogicalResultSuccess();
}

//===----------------------------------------------------------------------===//
// Random inputs
//===----------------------------------------------------------------------===//

/// splitmix64: small, fast, and every seed gives a full-quality stream.
static uint64_t splitmix64(uint64_t *state) {
  uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/// Fills `array` uniformly in [-1, 1) (floats) or with 0 (integers: index
/// arguments are offsets, and 0 is the one offset always in bounds). Each
/// argument has its own stream so that one argument's size does not shift
/// the values of the next.
static void fillRandom(CoopvecNpyArray *array, uint64_t seed, intptr_t index) {
  uint64_t state = seed ^ (0xd1b54a32d192ed03ull * (uint64_t)(index + 1));
  bool isFloat = array->array.dtype != CoopvecDTypeI64;
  for (int64_t i = 0; i < array->array.size; ++i) {
    double unit = (double)(splitmix64(&state) >> 11) * 0x1.0p-53;
    coopvecArraySet(&array->array, i, isFloat ? 2 * unit - 1 : 0);
  }
}

/// The length of a random memref: --memref-size, else its static size,
/// else what its uses touch.
static MlirLogicalResult randomMemRefLength(const Options *options,
                                            intptr_t index,
                                            const ValueInfo *info,
                                            int64_t *length) {
  *length = info->length;
  if (options->memrefSizes[index] >= 0)
    *length = options->memrefSizes[index];
  else if (*length < 0)
    *length = info->usedExtent;
  if (*length >= 0 && info->usedExtent > *length) {
    runError("--memref-size=%ld:%lld is smaller than the %lld elements the "
             "function accesses",
             (long)index, (long long)*length, (long long)info->usedExtent);
    return mlirLogicalResultFailure();
  }
  if (*length >= 0)
    return mlirLogicalResultSuccess();
  runError("cannot derive the size of argument #%ld (%s) from its uses "
           "(an offset is not a constant); pass --memref-size=%ld:SIZE",
           (long)index, info->typeText, (long)index);
  return mlirLogicalResultFailure();
}

static MlirLogicalResult makeRandom(const Options *options, intptr_t index,
                                    const ValueInfo *info,
                                    CoopvecNpyArray *array) {
  int64_t shape[2];
  int rank = expectedShape(info, options->batch, shape);
  if (info->kind == ArgKindMemRef &&
      mlirLogicalResultIsFailure(
          randomMemRefLength(options, index, info, &shape[0])))
    return mlirLogicalResultFailure();
  arrayAllocate(array, info->dtype, rank, shape);
  fillRandom(array, options->seed, index);
  return mlirLogicalResultSuccess();
}

//===----------------------------------------------------------------------===//
// Putting it together
//===----------------------------------------------------------------------===//

/// A memref read from a file must cover what the function touches, or the
/// JIT code would read out of bounds.
static MlirLogicalResult checkExtent(const Options *options, intptr_t index,
                                     const ValueInfo *info,
                                     const CoopvecNpyArray *array) {
  if (info->kind != ArgKindMemRef || info->usedExtent <= array->array.size)
    return mlirLogicalResultSuccess();
  runError("%s: argument #%ld (%s) has %lld elements, but the function "
           "accesses %lld",
           options->argPaths[index], (long)index, info->typeText,
           (long long)array->array.size, (long long)info->usedExtent);
  return mlirLogicalResultFailure();
}

static MlirLogicalResult checkArgCount(const Options *options,
                                       const Signature *signature) {
  if (options->numArgPaths > signature->numArgs ||
      (!options->random && options->numArgPaths != signature->numArgs)) {
    runError("@%s takes %ld argument(s), got %d --arg file(s)%s",
             options->entry, (long)signature->numArgs, options->numArgPaths,
             options->random ? "" : " (or use --random)");
    return mlirLogicalResultFailure();
  }
  return mlirLogicalResultSuccess();
}

MlirLogicalResult inputsPrepare(const Options *options, Signature *signature,
                                CoopvecNpyArray *inputs) {
  if (mlirLogicalResultIsFailure(checkArgCount(options, signature)))
    return mlirLogicalResultFailure();
  intptr_t numArgs = signature->numArgs;
  const CoopvecNpyArray **known =
      calloc((size_t)numArgs + 1, sizeof(const CoopvecNpyArray *));
  MlirLogicalResult status = mlirLogicalResultSuccess();
  // Files and random scalars first: scalar offsets size the memrefs.
  for (intptr_t i = 0; i < numArgs && mlirLogicalResultIsSuccess(status); ++i) {
    const ValueInfo *info = &signature->args[i];
    if (i < options->numArgPaths)
      status =
          readArg(options->argPaths[i], i, info, options->batch, &inputs[i]);
    else if (info->kind == ArgKindScalar)
      status = makeRandom(options, i, info, &inputs[i]);
    else
      continue;
    known[i] = &inputs[i];
  }
  if (mlirLogicalResultIsSuccess(status))
    signatureDeriveExtents(signature, known);
  for (intptr_t i = 0; i < numArgs && mlirLogicalResultIsSuccess(status); ++i)
    status = known[i] ? checkExtent(options, i, &signature->args[i], &inputs[i])
                      : makeRandom(options, i, &signature->args[i], &inputs[i]);
  free(known);
  return status;
}

void outputsAllocate(const Options *options, const Signature *signature,
                     CoopvecNpyArray *results) {
  for (intptr_t i = 0; i < signature->numResults; ++i) {
    int64_t shape[2] = {options->batch, signature->results[i].length};
    arrayAllocate(&results[i], signature->results[i].dtype, 2, shape);
  }
}
