// --split-input-file: pieces are parsed on their own, keep the input's line
// numbers, are joined with `// -----` in the output, and a failing piece
// does not stop the others.

// RUN: not coopvec-opt --split-input-file %s > %t.out 2> %t.err
// RUN: FileCheck %s < %t.out
// RUN: FileCheck %s --check-prefix=ERR < %t.err

// Without the flag the markers are plain comments: one module, and the
// error in the second piece is still found.
// RUN: not coopvec-opt %s 2>&1 | FileCheck %s --check-prefix=WHOLE

// CHECK:      module {
// CHECK-NEXT:   func.func private @first()
// CHECK-NEXT: }
// CHECK-EMPTY:
// CHECK-NEXT: // -----
// CHECK-NEXT: // -----
// CHECK-NEXT: module {
// CHECK-NEXT:   func.func private @third()
// CHECK-NEXT: }
// CHECK-EMPTY:
// CHECK-NEXT: // -----
// CHECK-NEXT: module {
// CHECK-NEXT: }
// CHECK-NOT:  module

// WHOLE: split-input-file.mlir:[[@LINE+6]]:40: error: undefined symbol alias id 'unknown'
// WHOLE-NOT: error

func.func private @first()

// -----
func.func private @second() -> !unknown
// ERR: split-input-file.mlir:[[@LINE-1]]:40: error: undefined symbol alias id 'unknown'
// ERR-NOT: error

// -----   
func.func private @third()

// -----
