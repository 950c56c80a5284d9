//===- npy.c - C API: NumPy .npy files ------------------------------------===//

// RUN: coopvec-capi-npy %t.npy 2>&1 | FileCheck %s

#include "coopvec-c/Npy.h"

#include <stdio.h>
#include <string.h>

static void printToStderr(MlirStringRef text, void *userData) {
  (void)userData;
  fprintf(stderr, "%.*s", (int)text.length, text.data);
}

typedef struct Image {
  char bytes[1024];
  size_t size;
} Image;

static void appendToImage(MlirStringRef text, void *userData) {
  Image *image = userData;
  if (image->size + text.length > sizeof(image->bytes))
    return;
  memcpy(image->bytes + image->size, text.data, text.length);
  image->size += text.length;
}

/// Builds a .npy image with the given version and raw header text.
static void buildImage(Image *image, int major, const char *header,
                       const void *data, size_t dataSize) {
  size_t headerLength = strlen(header);
  memcpy(image->bytes, "\x93NUMPY", 6);
  image->bytes[6] = (char)major;
  image->bytes[7] = 0;
  size_t lengthBytes = major == 1 ? 2 : 4;
  for (size_t i = 0; i < lengthBytes; ++i)
    image->bytes[8 + i] = (char)((headerLength >> (8 * i)) & 0xff);
  image->size = 8 + lengthBytes;
  memcpy(image->bytes + image->size, header, headerLength);
  image->size += headerLength;
  memcpy(image->bytes + image->size, data, dataSize);
  image->size += dataSize;
}

static void printArray(const CoopvecNpyArray *array) {
  fprintf(stderr, "%s rank %d shape (", coopvecDTypeGetName(array->array.dtype),
          array->rank);
  for (int i = 0; i < array->rank; ++i)
    fprintf(stderr, i ? ", %lld" : "%lld", (long long)array->shape[i]);
  fprintf(stderr, ") values");
  for (int64_t i = 0; i < array->array.size; ++i)
    fprintf(stderr, " %g", coopvecArrayGet(&array->array, i));
  fprintf(stderr, "\n");
}

/// Parses `image` and prints the array or the error.
static void parseAndPrint(const Image *image) {
  CoopvecNpyArray array;
  if (mlirLogicalResultIsFailure(coopvecNpyParse(
          image->bytes, image->size, &array, printToStderr, NULL))) {
    fprintf(stderr, " (data null: %d)\n", array.array.data == NULL);
    return;
  }
  printArray(&array);
  coopvecNpyArrayDestroy(&array);
}

static void testSerialize(void) {
  // CHECK-LABEL: testSerialize
  fprintf(stderr, "testSerialize\n");
  float values[6] = {1, -2, 3.5f, 0, 1e-3f, 42};
  CoopvecNpyArray array = {{values, CoopvecDTypeF32, 6}, 2, {2, 3}};
  Image image = {.size = 0};
  if (mlirLogicalResultIsFailure(
          coopvecNpySerialize(&array, appendToImage, &image)))
    return;
  // The data starts at a multiple of 64 bytes, as NumPy aligns it.
  // CHECK: size 152, header {'descr': '<f4', 'fortran_order': False,
  // CHECK-SAME: 'shape': (2, 3), }{{$}}
  size_t headerLength = (unsigned char)image.bytes[8];
  fprintf(stderr, "size %zu, header %.*s\n", image.size,
          (int)strcspn(image.bytes + 10, "}") + 1, image.bytes + 10);
  fprintf(stderr, "data offset %zu, ends with newline %d\n", 10 + headerLength,
          image.bytes[10 + headerLength - 1] == '\n');
  // CHECK: data offset 128, ends with newline 1
  // CHECK: f32 rank 2 shape (2, 3) values 1 -2 3.5 0 0.001 42
  parseAndPrint(&image);

  // A 1-tuple keeps its comma; a 0-d array has the empty shape.
  double scalar = 0.25;
  CoopvecNpyArray zeroD = {{&scalar, CoopvecDTypeF64, 1}, 0, {0}};
  image.size = 0;
  coopvecNpySerialize(&zeroD, appendToImage, &image);
  // CHECK: f64 rank 0 shape () values 0.25
  parseAndPrint(&image);
  uint16_t halves[3] = {0x3c00, 0xc000, 0x3555}; // 1, -2, ~1/3
  CoopvecNpyArray oneD = {{halves, CoopvecDTypeF16, 3}, 1, {3}};
  image.size = 0;
  coopvecNpySerialize(&oneD, appendToImage, &image);
  // CHECK: 'shape': (3,), }
  fprintf(stderr, "%.*s\n", (int)strcspn(image.bytes + 10, "}") + 1,
          image.bytes + 10);
  // CHECK: f16 rank 1 shape (3) values 1 -2 0.333252
  parseAndPrint(&image);
  // Empty arrays are representable.
  CoopvecNpyArray empty = {{values, CoopvecDTypeI64, 0}, 2, {0, 5}};
  image.size = 0;
  coopvecNpySerialize(&empty, appendToImage, &image);
  // CHECK: i64 rank 2 shape (0, 5) values
  parseAndPrint(&image);
  // A shape that disagrees with the size is refused.
  CoopvecNpyArray wrong = {{values, CoopvecDTypeF32, 6}, 1, {5}};
  // CHECK: mismatched shape refused: 1
  fprintf(stderr, "mismatched shape refused: %d\n",
          mlirLogicalResultIsFailure(
              coopvecNpySerialize(&wrong, appendToImage, &image)));
}

static void testFile(const char *path) {
  // CHECK-LABEL: testFile
  fprintf(stderr, "testFile\n");
  int64_t values[4] = {7, -1, 0, 1LL << 40};
  CoopvecNpyArray array = {{values, CoopvecDTypeI64, 4}, 2, {4, 1}};
  if (mlirLogicalResultIsFailure(
          coopvecNpyWrite(path, &array, printToStderr, NULL)))
    return;
  CoopvecNpyArray back;
  if (mlirLogicalResultIsFailure(
          coopvecNpyRead(path, &back, printToStderr, NULL)))
    return;
  // CHECK: i64 rank 2 shape (4, 1) values 7 -1 0 1.09951e+12
  printArray(&back);
  // CHECK: same bytes: 1
  fprintf(stderr, "same bytes: %d\n",
          memcmp(back.array.data, values, sizeof(values)) == 0);
  coopvecNpyArrayDestroy(&back);
  // CHECK: cannot open: No such file or directory
  coopvecNpyRead("/nonexistent/x.npy", &back, printToStderr, NULL);
  fprintf(stderr, "\n");
  // CHECK: cannot open for writing: No such file or directory
  coopvecNpyWrite("/nonexistent/x.npy", &array, printToStderr, NULL);
  fprintf(stderr, "\n");
}

/// Headers NumPy or other writers may produce.
static void testAcceptedHeaders(void) {
  // CHECK-LABEL: testAcceptedHeaders
  fprintf(stderr, "testAcceptedHeaders\n");
  float data[2] = {0.5f, -4};
  Image image;
  // CHECK: f32 rank 1 shape (2) values 0.5 -4
  buildImage(&image, 2,
             "{'descr': '<f4', 'fortran_order': False, 'shape': "
             "(2,), }    \n",
             data, sizeof(data));
  parseAndPrint(&image);
  // Version 3, keys in another order, double quotes, no trailing comma.
  // CHECK: f32 rank 2 shape (1, 2) values 0.5 -4
  buildImage(&image, 3,
             "{\"shape\": (1,2), \"descr\": \"<f4\", "
             "\"fortran_order\": False}\n",
             data, sizeof(data));
  parseAndPrint(&image);
  // Python 2 long literals; Fortran order where it equals C order.
  // CHECK: f32 rank 3 shape (2, 1, 1) values 0.5 -4
  buildImage(&image, 1,
             "{'descr': '<f4', 'fortran_order': True, 'shape': "
             "(2L, 1L, 1L), }\n",
             data, sizeof(data));
  parseAndPrint(&image);
}

static void testRejectedFiles(void) {
  // CHECK-LABEL: testRejectedFiles
  fprintf(stderr, "testRejectedFiles\n");
  float data[4] = {1, 2, 3, 4};
  const char *f4x2 = "{'descr': '<f4', 'fortran_order': False, "
                     "'shape': (2,), }\n";
  Image image;
  buildImage(&image, 1, f4x2, data, sizeof(data) / 2);
  image.bytes[1] = 'X';
  // CHECK: not a .npy file (bad magic string) (data null: 1)
  parseAndPrint(&image);
  image.size = 4;
  // CHECK: not a .npy file (bad magic string)
  parseAndPrint(&image);
  buildImage(&image, 4, f4x2, data, sizeof(data) / 2);
  // CHECK: unsupported .npy format version 4.0 (supported: 1.0, 2.0, 3.0)
  parseAndPrint(&image);
  buildImage(&image, 1, f4x2, data, sizeof(data) / 2);
  image.size = 20;
  // CHECK: truncated header
  parseAndPrint(&image);
  buildImage(&image, 1, f4x2, data, sizeof(data) / 2 - 1);
  // CHECK: truncated data: expected 8 bytes, found 7
  parseAndPrint(&image);
  buildImage(&image, 1, f4x2, data, sizeof(data));
  // CHECK: trailing bytes: expected 8 bytes of data, found 16
  parseAndPrint(&image);
  buildImage(&image, 1,
             "{'descr': '>f4', 'fortran_order': False, "
             "'shape': (2,), }\n",
             data, 8);
  // CHECK: unsupported dtype '>f4': big-endian data is not supported
  parseAndPrint(&image);
  buildImage(&image, 1,
             "{'descr': '<u4', 'fortran_order': False, "
             "'shape': (2,), }\n",
             data, 8);
  // CHECK: unsupported dtype '<u4' (supported: '<f2', '<f4', '<f8', '<i8', '<i4', '|i1', '|b1')
  parseAndPrint(&image);
  buildImage(&image, 1,
             "{'descr': '<f4', 'fortran_order': True, "
             "'shape': (2, 2), }\n",
             data, sizeof(data));
  // CHECK: fortran_order arrays are not supported (save the array in C order)
  parseAndPrint(&image);
}

static void testMalformedHeaders(void) {
  // CHECK-LABEL: testMalformedHeaders
  fprintf(stderr, "testMalformedHeaders\n");
  static const char *headers[] = {
      "{'descr': '<f4', 'shape': (1,), }\n",
      "{'descr': '<f4', 'fortran_order': False, 'shape': (1,), 'x': 1}\n",
      "{'descr': '<f4', 'descr': '<f4', 'fortran_order': False}\n",
      "{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (1,)}\n",
      "{'descr': '<f4', 'fortran_order': false, 'shape': (1,)}\n",
      "{'descr': '<f4', 'fortran_order': False, 'shape': (-1,)}\n",
      "{'descr': '<f4', 'fortran_order': False, 'shape': "
      "(1,1,1,1,1,1,1,1,1)}\n",
      "{'descr': '<f4', 'fortran_order': False, 'shape': (1,)} x\n",
      "{'descr': '<f4 , 'fortran_order': False, 'shape': (1,)}\n",
      "{'descr': '<f4', 'fortran_order': False, 'shape': "
      "(99999999999, 99999999999)}\n",
  };
  // CHECK: at byte 34: the header needs 'descr', 'fortran_order' and
  // CHECK: at byte 60: unknown key (expected 'descr', 'fortran_order' or
  // CHECK: at byte 31: duplicate key
  // CHECK: at byte 10: structured dtypes are not supported
  // CHECK: at byte 34: expected True or False
  // CHECK: at byte 51: expected a non-negative integer dimension
  // CHECK: at byte 67: too many dimensions
  // CHECK: at byte 56: unexpected text after the dictionary
  // CHECK: at byte 18: expected ',' or '}'
  // CHECK: shape too large
  float data = 1;
  for (size_t i = 0; i < sizeof(headers) / sizeof(headers[0]); ++i) {
    Image image;
    buildImage(&image, 1, headers[i], &data, sizeof(data));
    parseAndPrint(&image);
  }
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: coopvec-capi-npy SCRATCH.npy\n");
    return 1;
  }
  testSerialize();
  testFile(argv[1]);
  testAcceptedHeaders();
  testRejectedFiles();
  testMalformedHeaders();
  return 0;
}
