//===- fuzz-npy.c - Fuzz the .npy reader and writer -----------------------===//
//
// Input: a .npy file image. It is parsed from memory (coopvecNpyParse) and
// read from a file (coopvecNpyReadLimited on a memfd), which are separate
// code paths: the file reader never reads more than the header announces.
// Invariants beyond "no crash":
//  - both accept or both refuse the image, and accept it as the same array;
//  - an accepted array serializes (coopvecNpySerialize) to an image that
//    parses back to the same array.
// The first bytes also drive coopvecNpySerialize with an arbitrary rank,
// shape and size (an embedder's array): it must refuse every shape whose
// element count is not the array's size, without overflowing.
//
//===----------------------------------------------------------------------===//

#define _GNU_SOURCE // memfd_create

#include "FuzzCommon.h"

#include "coopvec-c/Npy.h"
#include "coopvec-c/Support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

enum { MAX_INPUT = 1 << 20 };

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  return 0;
}

static bool sameArray(const CoopvecNpyArray *a, const CoopvecNpyArray *b) {
  if (a->array.dtype != b->array.dtype || a->array.size != b->array.size ||
      a->rank != b->rank)
    return false;
  for (int i = 0; i < a->rank; ++i)
    if (a->shape[i] != b->shape[i])
      return false;
  size_t bytes =
      (size_t)a->array.size * (size_t)coopvecDTypeGetSize(a->array.dtype);
  return bytes == 0 || memcmp(a->array.data, b->array.data, bytes) == 0;
}

/// Reads the image back through a file, as coopvec-run reads its inputs.
static MlirLogicalResult readThroughFile(const uint8_t *data, size_t size,
                                         CoopvecNpyArray *result) {
  int fd = memfd_create("fuzz-npy", 0);
  if (fd < 0)
    coopvecFuzzFail("memfd_create failed");
  size_t written = 0;
  while (written < size) {
    ssize_t n = write(fd, data + written, size - written);
    if (n <= 0)
      coopvecFuzzFail("cannot write the memfd");
    written += (size_t)n;
  }
  char path[64];
  snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
  MlirLogicalResult status =
      coopvecNpyReadLimited(path, (uint64_t)1 << 30, result, NULL, NULL);
  close(fd);
  return status;
}

static void checkRoundTrip(const CoopvecNpyArray *array) {
  CoopvecBuffer image = {0};
  if (mlirLogicalResultIsFailure(
          coopvecNpySerialize(array, coopvecBufferCallback, &image)))
    coopvecFuzzFail("an array the reader accepted does not serialize");
  CoopvecNpyArray again;
  if (mlirLogicalResultIsFailure(
          coopvecNpyParse(image.data, image.size, &again, NULL, NULL)))
    coopvecFuzzFail("a serialized array does not parse");
  if (!sameArray(array, &again))
    coopvecFuzzFail("a serialized array parses to another array");
  coopvecNpyArrayDestroy(&again);
  coopvecBufferFree(&image);
}

/// Takes the next `n` bytes of the input as a little-endian number (zeros
/// past its end).
static uint64_t take(const uint8_t **data, size_t *size, int n) {
  uint64_t value = 0;
  for (int i = 0; i < n; ++i)
    if (*size) {
      value |= (uint64_t) * *data << (8 * i);
      ++*data;
      --*size;
    }
  return value;
}

/// Whether a writer must accept `array`: a supported dtype, a rank in
/// 0..COOPVEC_NPY_MAX_RANK, no negative dimension, and a shape whose
/// product (in exact arithmetic) is the size.
static bool shapeIsValid(const CoopvecNpyArray *array) {
  if (!coopvecNpyIsSupportedDType(array->array.dtype) || array->rank < 0 ||
      array->rank > COOPVEC_NPY_MAX_RANK)
    return false;
  bool empty = false;
  for (int i = 0; i < array->rank; ++i) {
    if (array->shape[i] < 0)
      return false;
    empty |= array->shape[i] == 0;
  }
  if (empty)
    return array->array.size == 0;
  int64_t product = 1;
  for (int i = 0; i < array->rank; ++i)
    if (__builtin_mul_overflow(product, array->shape[i], &product))
      return false;
  return product == array->array.size;
}

/// coopvecNpySerialize of an embedder's array with the shape of the first
/// bytes: accepted exactly when the shape's product is the size.
static void serializeArbitraryShape(const uint8_t *data, size_t size) {
  CoopvecNpyArray array;
  memset(&array, 0, sizeof(array));
  array.rank = (int)(int8_t)take(&data, &size, 1) % 12;
  array.array.dtype = (CoopvecDType)(take(&data, &size, 1) % 8);
  array.array.size = (int64_t)(take(&data, &size, 1) % 64);
  for (int i = 0; i < COOPVEC_NPY_MAX_RANK; ++i) {
    // Mostly small dimensions (so products match sizes), sometimes any.
    uint64_t raw = take(&data, &size, 1);
    array.shape[i] =
        raw & 0x80 ? (int64_t)take(&data, &size, 8) : (int64_t)(raw % 5);
  }
  double storage[64] = {0};
  array.array.data = storage;
  CoopvecBuffer image = {0};
  bool accepted = mlirLogicalResultIsSuccess(
      coopvecNpySerialize(&array, coopvecBufferCallback, &image));
  if (accepted != shapeIsValid(&array))
    coopvecFuzzFail(accepted ? "coopvecNpySerialize accepted an invalid shape"
                             : "coopvecNpySerialize refused a valid array");
  coopvecBufferFree(&image);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > MAX_INPUT)
    return 0;
  CoopvecNpyArray parsed, read;
  bool parseOk = mlirLogicalResultIsSuccess(
      coopvecNpyParse(data, size, &parsed, NULL, NULL));
  bool readOk = mlirLogicalResultIsSuccess(readThroughFile(data, size, &read));
  if (parseOk != readOk)
    coopvecFuzzFail(parseOk ? "the file reader refuses what the parser accepts"
                            : "the file reader accepts what the parser "
                              "refuses");
  if (parseOk) {
    if (!sameArray(&parsed, &read))
      coopvecFuzzFail("the file reader and the parser disagree");
    checkRoundTrip(&parsed);
  }
  coopvecNpyArrayDestroy(&parsed);
  coopvecNpyArrayDestroy(&read);
  serializeArbitraryShape(data, size);
  return 0;
}
