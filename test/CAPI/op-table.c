//===- op-table.c - C API: the list of coopvec ops ------------------------===//
//
// Prints every op of the public op list, one line each:
//   op <full name> <class>
// test/Dialect/op-table.test compares the names with the IRDL definition
// and docs/dialect.md.
//
//===----------------------------------------------------------------------===//

// RUN: coopvec-capi-op-table 2>&1 | FileCheck %s

#include "coopvec-c/Dialect.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

static bool equals(MlirStringRef text, const char *expected) {
  return text.length == strlen(expected) &&
         strncmp(text.data, expected, text.length) == 0;
}

static bool isKnownClass(MlirStringRef name) {
  static const char *const classes[] = {"construction",
                                        "transfer",
                                        "elementwise-unary",
                                        "elementwise-binary",
                                        "elementwise-ternary",
                                        "matvec",
                                        "training"};
  for (size_t i = 0; i < sizeof(classes) / sizeof(classes[0]); ++i)
    if (equals(name, classes[i]))
      return true;
  return false;
}

int main(void) {
  intptr_t count = coopvecGetNumOps();
  int errors = 0;
  for (intptr_t i = 0; i < count; ++i) {
    MlirStringRef name = coopvecOpGetName(i);
    MlirStringRef opClass = coopvecOpGetClassName(i);
    printf("op %.*s %.*s\n", (int)name.length, name.data, (int)opClass.length,
           opClass.data);
    if (name.length <= strlen("coopvec.") ||
        strncmp(name.data, "coopvec.", strlen("coopvec.")) != 0) {
      printf("error: op %ld: name is not coopvec.<name>\n", (long)i);
      ++errors;
    }
    if (!isKnownClass(opClass)) {
      printf("error: op %ld: unknown class\n", (long)i);
      ++errors;
    }
  }
  // Out-of-range indices give empty strings.
  printf("out of range: '%s' '%s' '%s'\n",
         coopvecOpGetName(-1).length ? "name" : "",
         coopvecOpGetName(count).length ? "name" : "",
         coopvecOpGetClassName(count).length ? "class" : "");
  printf("ops: %ld, errors: %d\n", (long)count, errors);
  return errors ? 1 : 0;
}

// A few rows, to check the format and the classes.
// CHECK-DAG: {{^}}op coopvec.from_elements construction{{$}}
// CHECK-DAG: {{^}}op coopvec.cast construction{{$}}
// CHECK-DAG: {{^}}op coopvec.masked_load transfer{{$}}
// CHECK-DAG: {{^}}op coopvec.matrix_view transfer{{$}}
// CHECK-DAG: {{^}}op coopvec.neg elementwise-unary{{$}}
// CHECK-DAG: {{^}}op coopvec.step elementwise-binary{{$}}
// CHECK-DAG: {{^}}op coopvec.fma elementwise-ternary{{$}}
// CHECK-DAG: {{^}}op coopvec.matvec matvec{{$}}
// CHECK-DAG: {{^}}op coopvec.outer_product_accumulate training{{$}}
// CHECK-DAG: {{^}}op coopvec.reduce_sum_accumulate training{{$}}
// CHECK-NOT: error
// CHECK: out of range: '' '' ''
// CHECK-NEXT: ops: {{[1-9][0-9]*}}, errors: 0
