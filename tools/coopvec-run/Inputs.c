//===- Inputs.c - Host arrays: .npy inputs, random inputs, outputs --------===//
//
// Every input is bounded before it is allocated: a file by what its
// argument can hold (coopvecNpyReadLimited reads no more than that), a
// random memref by --memref-size (at most kMaxMemRefElements) or by the
// extent the engine derives from the function's accesses.
//
//===----------------------------------------------------------------------===//

#include "Runner.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/// A dtype's .npy name for messages; every dtype an argument can have has
/// one.
static const char *descrOf(CoopvecDType dtype) {
  const char *descr = coopvecNpyDescr(dtype);
  return descr ? descr : "?";
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

/// Allocates a zeroed array of `dtype` with the given shape; reports and
/// fails when it is too large or memory runs out.
static MlirLogicalResult arrayAllocate(CoopvecNpyArray *array,
                                       CoopvecDType dtype, int rank,
                                       const int64_t *shape) {
  memset(array, 0, sizeof(*array));
  array->rank = rank;
  array->array.dtype = dtype;
  int64_t size = 1, bytes = 0;
  bool overflow = false;
  for (int i = 0; i < rank; ++i) {
    array->shape[i] = shape[i];
    overflow |= __builtin_mul_overflow(size, shape[i], &size);
  }
  overflow |= __builtin_mul_overflow(size, coopvecDTypeGetSize(dtype), &bytes);
  if (!overflow)
    array->array.data = calloc(bytes ? (size_t)bytes : 1, 1);
  if (!array->array.data) {
    runError("cannot allocate an array of %lld elements of %s",
             overflow ? -1LL : (long long)size, coopvecDTypeGetName(dtype));
    return mlirLogicalResultFailure();
  }
  array->array.size = size;
  return mlirLogicalResultSuccess();
}

MlirLogicalResult arrayCopy(const CoopvecNpyArray *source,
                            CoopvecNpyArray *copy) {
  if (mlirLogicalResultIsFailure(arrayAllocate(copy, source->array.dtype,
                                               source->rank, source->shape)))
    return mlirLogicalResultFailure();
  size_t bytes =
      (size_t)(source->array.size * coopvecDTypeGetSize(source->array.dtype));
  if (bytes)
    memcpy(copy->array.data, source->array.data, bytes);
  return mlirLogicalResultSuccess();
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
static bool isFloatDType(CoopvecDType dtype) {
  return dtype == CoopvecDTypeF16 || dtype == CoopvecDTypeF32 ||
         dtype == CoopvecDTypeF64;
}

static bool canConvert(CoopvecDType from, CoopvecDType to) {
  if (from == to)
    return true;
  if (!isFloatDType(from) || !isFloatDType(to))
    return false;
  return from == CoopvecDTypeF64 ||
         coopvecDTypeGetSize(from) < coopvecDTypeGetSize(to);
}

static MlirLogicalResult convertInPlace(CoopvecNpyArray *array,
                                        CoopvecDType to) {
  CoopvecNpyArray converted;
  if (mlirLogicalResultIsFailure(
          arrayAllocate(&converted, to, array->rank, array->shape)))
    return mlirLogicalResultFailure();
  for (int64_t i = 0; i < array->array.size; ++i)
    coopvecArraySet(&converted.array, i, coopvecArrayGet(&array->array, i));
  coopvecNpyArrayDestroy(array);
  *array = converted;
  return mlirLogicalResultSuccess();
}

/// The shape an argument expects, for messages and checks. Dynamic memrefs
/// accept any length (-1 here).
static int expectedShape(const CoopvecValueInfo *info, int64_t batch,
                         int64_t *shape) {
  switch (info->kind) {
  case CoopvecValueKindVec:
    shape[0] = batch;
    shape[1] = info->length;
    return 2;
  case CoopvecValueKindMemRef:
    shape[0] = info->length;
    return 1;
  default:
    return 0;
  }
}

static bool shapeMatches(const CoopvecValueInfo *info, int64_t batch,
                         const CoopvecNpyArray *array) {
  if (info->kind == CoopvecValueKindScalar)
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
                                    const CoopvecValueInfo *info, int64_t batch,
                                    const CoopvecNpyArray *array) {
  if (shapeMatches(info, batch, array))
    return mlirLogicalResultSuccess();
  char got[128], want[128];
  int64_t shape[2];
  int rank = expectedShape(info, batch, shape);
  formatShape(got, sizeof(got), array->rank, array->shape);
  formatShape(want, sizeof(want), rank, shape);
  if (info->kind == CoopvecValueKindScalar)
    snprintf(want, sizeof(want), "() or (1,)");
  else if (info->kind == CoopvecValueKindMemRef && info->length < 0)
    snprintf(want, sizeof(want), "(N,)");
  runError("%s: argument #%ld (%s) expects shape %s, got %s", path, (long)index,
           info->type, want, got);
  return mlirLogicalResultFailure();
}

/// The most bytes a file for this argument may take: its elements at 8
/// bytes (the widest dtype, converted when read) plus a generous header.
static uint64_t fileLimit(const CoopvecValueInfo *info, int64_t batch) {
  const uint64_t headerBytes = 1 << 20;
  int64_t elements = info->length >= 0 ? info->length : kMaxMemRefElements;
  uint64_t bytes;
  if ((info->kind == CoopvecValueKindVec &&
       __builtin_mul_overflow(elements, batch, &elements)) ||
      __builtin_mul_overflow((uint64_t)elements, 8, &bytes) ||
      __builtin_add_overflow(bytes, headerBytes, &bytes))
    return UINT64_MAX;
  return bytes;
}

static MlirLogicalResult readArg(const char *path, intptr_t index,
                                 const CoopvecValueInfo *info, int64_t batch,
                                 CoopvecNpyArray *array) {
  char message[512] = "";
  if (mlirLogicalResultIsFailure(coopvecNpyReadLimited(
          path, fileLimit(info, batch), array, runCollectMessage, message))) {
    runError("%s: %s", path, message);
    return mlirLogicalResultFailure();
  }
  if (!canConvert(array->array.dtype, info->dtype)) {
    runError("%s: argument #%ld (%s) expects dtype '%s', got '%s'", path,
             (long)index, info->type, descrOf(info->dtype),
             descrOf(array->array.dtype));
    return mlirLogicalResultFailure();
  }
  if (mlirLogicalResultIsFailure(checkShape(path, index, info, batch, array)))
    return mlirLogicalResultFailure();
  if (array->array.dtype != info->dtype)
    return convertInPlace(array, info->dtype);
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
  bool isFloat = isFloatDType(array->array.dtype);
  for (int64_t i = 0; i < array->array.size; ++i) {
    double unit = (double)(splitmix64(&state) >> 11) * 0x1.0p-53;
    coopvecArraySet(&array->array, i, isFloat ? 2 * unit - 1 : 0);
  }
}

/// Why the engine cannot bound the accesses of memref argument `index`.
static void noteUnknownExtent(const Signature *signature, CoopvecEngine *engine,
                              intptr_t index, const CoopvecArray *known) {
  int64_t extent;
  if (coopvecFunctionGetMemRefExtent(signature->function, index, known,
                                     signature->numArgs,
                                     &extent) != CoopvecStatusSuccess)
    fprintf(stderr, "coopvec-run: note: %s\n", coopvecEngineGetError(engine));
}

/// The length of a random memref: --memref-size, else its static size,
/// else what its uses touch.
static MlirLogicalResult randomMemRefLength(const Options *options,
                                            const Signature *signature,
                                            intptr_t index, int64_t *length) {
  const CoopvecValueInfo *info = &signature->args[index];
  int64_t used = signature->usedExtents[index];
  *length = info->length;
  if (options->memrefSizes[index] >= 0)
    *length = options->memrefSizes[index];
  else if (*length < 0)
    *length = used;
  if (*length >= 0 && used > *length) {
    runError("--memref-size=%ld:%lld is smaller than the %lld elements the "
             "function accesses",
             (long)index, (long long)*length, (long long)used);
    return mlirLogicalResultFailure();
  }
  if (*length > kMaxMemRefElements) {
    runError("argument #%ld (%s) would need %lld random elements, more than "
             "the limit of %d",
             (long)index, info->type, (long long)*length, kMaxMemRefElements);
    return mlirLogicalResultFailure();
  }
  if (*length >= 0)
    return mlirLogicalResultSuccess();
  runError("cannot derive the size of argument #%ld (%s) from its uses "
           "(an offset is not a constant); pass --memref-size=%ld:SIZE",
           (long)index, info->type, (long)index);
  return mlirLogicalResultFailure();
}

static MlirLogicalResult makeRandom(const Options *options,
                                    const Signature *signature, intptr_t index,
                                    CoopvecNpyArray *array) {
  const CoopvecValueInfo *info = &signature->args[index];
  int64_t shape[2];
  int rank = expectedShape(info, options->batch, shape);
  if ((info->kind == CoopvecValueKindMemRef &&
       mlirLogicalResultIsFailure(
           randomMemRefLength(options, signature, index, &shape[0]))) ||
      mlirLogicalResultIsFailure(
          arrayAllocate(array, info->dtype, rank, shape)))
    return mlirLogicalResultFailure();
  fillRandom(array, options->seed, index);
  return mlirLogicalResultSuccess();
}

//===----------------------------------------------------------------------===//
// Putting it together
//===----------------------------------------------------------------------===//

/// A memref read from a file must cover what the function touches (the
/// engine would refuse it too, without naming the file).
static MlirLogicalResult checkExtent(const Options *options,
                                     const Signature *signature, intptr_t index,
                                     const CoopvecNpyArray *array) {
  const CoopvecValueInfo *info = &signature->args[index];
  int64_t used = signature->usedExtents[index];
  if (info->kind != CoopvecValueKindMemRef || used <= array->array.size)
    return mlirLogicalResultSuccess();
  runError("%s: argument #%ld (%s) has %lld elements, but the function "
           "accesses %lld",
           options->argPaths[index], (long)index, info->type,
           (long long)array->array.size, (long long)used);
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

/// Reads the --arg files and makes the random scalars: what the extents of
/// the memrefs depend on. `known[i]` is set for every array made.
static MlirLogicalResult prepareKnown(const Options *options,
                                      const Signature *signature,
                                      CoopvecNpyArray *inputs,
                                      CoopvecArray *known) {
  for (intptr_t i = 0; i < signature->numArgs; ++i) {
    const CoopvecValueInfo *info = &signature->args[i];
    MlirLogicalResult status;
    if (i < options->numArgPaths)
      status =
          readArg(options->argPaths[i], i, info, options->batch, &inputs[i]);
    else if (info->kind == CoopvecValueKindScalar)
      status = makeRandom(options, signature, i, &inputs[i]);
    else
      continue;
    if (mlirLogicalResultIsFailure(status))
      return status;
    known[i] = inputs[i].array;
  }
  return mlirLogicalResultSuccess();
}

MlirLogicalResult inputsPrepare(const Options *options, Signature *signature,
                                CoopvecEngine *engine,
                                CoopvecNpyArray *inputs) {
  if (mlirLogicalResultIsFailure(checkArgCount(options, signature)))
    return mlirLogicalResultFailure();
  intptr_t numArgs = signature->numArgs;
  CoopvecArray *known = calloc((size_t)numArgs + 1, sizeof(CoopvecArray));
  MlirLogicalResult status =
      known ? prepareKnown(options, signature, inputs, known)
            : mlirLogicalResultFailure();
  if (mlirLogicalResultIsSuccess(status))
    status = signatureDeriveExtents(signature, engine, known);
  for (intptr_t i = 0; i < numArgs && mlirLogicalResultIsSuccess(status); ++i) {
    if (known[i].data) {
      status = checkExtent(options, signature, i, &inputs[i]);
      continue;
    }
    status = makeRandom(options, signature, i, &inputs[i]);
    if (mlirLogicalResultIsFailure(status) &&
        signature->args[i].kind == CoopvecValueKindMemRef &&
        signature->args[i].length < 0 && signature->usedExtents[i] < 0 &&
        options->memrefSizes[i] < 0)
      noteUnknownExtent(signature, engine, i, known);
  }
  free(known);
  return status;
}

MlirLogicalResult outputsAllocate(const Options *options,
                                  const Signature *signature,
                                  CoopvecNpyArray *results) {
  for (intptr_t i = 0; i < signature->numResults; ++i) {
    int64_t shape[2] = {options->batch, signature->results[i].length};
    if (mlirLogicalResultIsFailure(
            arrayAllocate(&results[i], signature->results[i].dtype, 2, shape)))
      return mlirLogicalResultFailure();
  }
  return mlirLogicalResultSuccess();
}
