// End to end: coopvec-lower-to-cpu + JIT against the reference interpreter,
// for small MLPs with awkward widths (1, 3, 7, 17, 33) and batch sizes
// around a SIMD width (1, 15, 16, 17) and a large one (1000), f32 and f16,
// all four matrix layouts, transposed matvec, and gradients written by
// outer_product_accumulate / reduce_sum_accumulate. The sanitizer build
// (asan) runs one batch per lowering: the others repeat JIT-compiled code,
// which it does not instrument, and cost it 40 s.

// RUN: coopvec-run %s --entry=mlp32 --batch=1 --random --seed=1 --check | FileCheck %s --check-prefix=ONE
// RUN: %if !asan %{ coopvec-run %s --entry=mlp32 --batch=15 --random --seed=2 --check | FileCheck %s --check-prefix=ONE %}
// RUN: %if !asan %{ coopvec-run %s --entry=mlp32 --batch=16 --random --seed=3 --check | FileCheck %s --check-prefix=ONE %}
// RUN: coopvec-run %s --entry=mlp32 --batch=17 --random --seed=4 --check | FileCheck %s --check-prefix=ONE
// RUN: %if !asan %{ coopvec-run %s --entry=mlp32 --batch=1000 --random --seed=5 --check | FileCheck %s --check-prefix=ONE %}
// RUN: coopvec-run %s --entry=mlp32 --batch=17 --random --seed=6 --lanes=1 --check | FileCheck %s --check-prefix=ONE
// RUN: coopvec-run %s --entry=mlp32 --batch=17 --random --seed=7 --lanes=3 --check | FileCheck %s --check-prefix=ONE
// RUN: %if !asan %{ coopvec-run %s --entry=mlp16 --batch=1 --random --seed=1 --check | FileCheck %s --check-prefix=ONE %}
// RUN: %if !asan %{ coopvec-run %s --entry=mlp16 --batch=15 --random --seed=2 --check | FileCheck %s --check-prefix=ONE %}
// RUN: %if !asan %{ coopvec-run %s --entry=mlp16 --batch=16 --random --seed=3 --check | FileCheck %s --check-prefix=ONE %}
// RUN: coopvec-run %s --entry=mlp16 --batch=17 --random --seed=4 --check | FileCheck %s --check-prefix=ONE
// RUN: %if !asan %{ coopvec-run %s --entry=mlp16 --batch=1000 --random --seed=5 --check | FileCheck %s --check-prefix=ONE %}
// ONE: result 0: max abs error {{.*}}: PASS
// ONE-NEXT: {{^PASS$}}

// RUN: %if !asan %{ coopvec-run %s --entry=wide32 --batch=1 --random --seed=1 --check | FileCheck %s --check-prefix=WIDE32 %}
// RUN: %if !asan %{ coopvec-run %s --entry=wide32 --batch=16 --random --seed=2 --check | FileCheck %s --check-prefix=WIDE32 %}
// RUN: coopvec-run %s --entry=wide32 --batch=17 --random --seed=3 --check | FileCheck %s --check-prefix=WIDE32
// RUN: %if !asan %{ coopvec-run %s --entry=wide32 --batch=1000 --random --seed=4 --check | FileCheck %s --check-prefix=WIDE32 %}
// WIDE32: result 0: max abs error {{.*}}: PASS
// WIDE32-NEXT: result 1: max abs error {{.*}}: PASS
// WIDE32-NEXT: argument 2 (written): max abs error {{.*}}: PASS
// WIDE32-NEXT: {{^PASS$}}

// RUN: %if !asan %{ coopvec-run %s --entry=wide16 --batch=1 --random --seed=1 --check | FileCheck %s --check-prefix=WIDE16 %}
// RUN: coopvec-run %s --entry=wide16 --batch=15 --random --seed=2 --check | FileCheck %s --check-prefix=WIDE16
// RUN: %if !asan %{ coopvec-run %s --entry=wide16 --batch=1000 --random --seed=3 --check | FileCheck %s --check-prefix=WIDE16 %}
// WIDE16: result 0: max abs error {{.*}}: PASS
// WIDE16-NEXT: argument 2 (written): max abs error {{.*}}: PASS
// WIDE16-NEXT: {{^PASS$}}

// The weights are read-only: not an output.
// RUN: coopvec-run %s --entry=wide32 --batch=2 --random --check | FileCheck %s --check-prefix=READONLY
// READONLY-NOT: argument 1

// Tight tolerances make the same comparison fail (exit code 1). (In f32:
// the f16 results of mlp16 round to the very values of the reference.)
// RUN: not coopvec-run %s --entry=mlp32 --batch=16 --random --check --rtol=0 --atol=0 | FileCheck %s --check-prefix=TIGHT
// TIGHT: result 0: {{.*}} (atol 0, rtol 0): FAIL
// TIGHT: {{^FAIL$}}

// 3 -> 7 -> 17 -> 1, relu then tanh, f32, all weights in one buffer.
func.func @mlp32(%x: !coopvec.vec<3, f32>, %w: memref<?xf32>) -> !coopvec.vec<1, f32> {
  %c21 = arith.constant 21 : index
  %c147 = arith.constant 147 : index
  %zero = arith.constant 0.0 : f32
  %A1 = "coopvec.matrix_view"(%w) {offset = 0} : (memref<?xf32>) -> !coopvec.matrix<7, 3, f32, "row_major">
  %b1 = "coopvec.load"(%w, %c21) : (memref<?xf32>, index) -> !coopvec.vec<7, f32>
  %h1 = "coopvec.matvec"(%A1, %x, %b1) : (!coopvec.matrix<7, 3, f32, "row_major">, !coopvec.vec<3, f32>, !coopvec.vec<7, f32>) -> !coopvec.vec<7, f32>
  %r1 = "coopvec.max"(%h1, %zero) : (!coopvec.vec<7, f32>, f32) -> !coopvec.vec<7, f32>
  %A2 = "coopvec.matrix_view"(%w) {offset = 112} : (memref<?xf32>) -> !coopvec.matrix<17, 7, f32, "col_major">
  %b2 = "coopvec.load"(%w, %c147) : (memref<?xf32>, index) -> !coopvec.vec<17, f32>
  %h2 = "coopvec.matvec"(%A2, %r1, %b2) : (!coopvec.matrix<17, 7, f32, "col_major">, !coopvec.vec<7, f32>, !coopvec.vec<17, f32>) -> !coopvec.vec<17, f32>
  %r2 = "coopvec.tanh"(%h2) : (!coopvec.vec<17, f32>) -> !coopvec.vec<17, f32>
  %A3 = "coopvec.matrix_view"(%w) {offset = 656} : (memref<?xf32>) -> !coopvec.matrix<1, 17, f32, "row_major">
  %y = "coopvec.matvec"(%A3, %r2) : (!coopvec.matrix<1, 17, f32, "row_major">, !coopvec.vec<17, f32>) -> !coopvec.vec<1, f32>
  return %y : !coopvec.vec<1, f32>
}

// Same shape in f16 (f32 accumulation), inference layout for the middle layer.
func.func @mlp16(%x: !coopvec.vec<3, f16>, %w: memref<?xf16>) -> !coopvec.vec<1, f16> {
  %c21 = arith.constant 21 : index
  %c28 = arith.constant 28 : index
  %zero = arith.constant 0.0 : f16
  %A1 = "coopvec.matrix_view"(%w) {offset = 0} : (memref<?xf16>) -> !coopvec.matrix<7, 3, f16, "row_major">
  %b1 = "coopvec.load"(%w, %c21) : (memref<?xf16>, index) -> !coopvec.vec<7, f16>
  %h1 = "coopvec.matvec"(%A1, %x, %b1) : (!coopvec.matrix<7, 3, f16, "row_major">, !coopvec.vec<3, f16>, !coopvec.vec<7, f16>) -> !coopvec.vec<7, f16>
  %r1 = "coopvec.max"(%h1, %zero) : (!coopvec.vec<7, f16>, f16) -> !coopvec.vec<7, f16>
  %A2 = "coopvec.matrix_view"(%w) {offset = 64} : (memref<?xf16>) -> !coopvec.matrix<17, 7, f16, "inference">
  %b2 = "coopvec.load"(%w, %c28) : (memref<?xf16>, index) -> !coopvec.vec<17, f16>
  %h2 = "coopvec.matvec"(%A2, %r1, %b2) : (!coopvec.matrix<17, 7, f16, "inference">, !coopvec.vec<7, f16>, !coopvec.vec<17, f16>) -> !coopvec.vec<17, f16>
  %r2 = "coopvec.tanh"(%h2) : (!coopvec.vec<17, f16>) -> !coopvec.vec<17, f16>
  %A3 = "coopvec.matrix_view"(%w) {offset = 320} : (memref<?xf16>) -> !coopvec.matrix<1, 17, f16, "col_major">
  %y = "coopvec.matvec"(%A3, %r2) : (!coopvec.matrix<1, 17, f16, "col_major">, !coopvec.vec<17, f16>) -> !coopvec.vec<1, f16>
  return %y : !coopvec.vec<1, f16>
}

// 33 wide, transposed matvec, and a backward pass writing gradients.
func.func @wide32(%x: !coopvec.vec<33, f32>, %w: memref<?xf32>, %g: memref<?xf32>) -> (!coopvec.vec<17, f32>, !coopvec.vec<33, f32>) {
  %A = "coopvec.matrix_view"(%w) {offset = 0} : (memref<?xf32>) -> !coopvec.matrix<33, 17, f32, "row_major">
  %y = "coopvec.matvec"(%A, %x) {transpose} : (!coopvec.matrix<33, 17, f32, "row_major">, !coopvec.vec<33, f32>) -> !coopvec.vec<17, f32>
  %z = "coopvec.matvec"(%A, %y) : (!coopvec.matrix<33, 17, f32, "row_major">, !coopvec.vec<17, f32>) -> !coopvec.vec<33, f32>
  %G = "coopvec.matrix_view"(%g) {offset = 0} : (memref<?xf32>) -> !coopvec.matrix<33, 17, f32, "row_major">
  "coopvec.outer_product_accumulate"(%x, %y, %G) : (!coopvec.vec<33, f32>, !coopvec.vec<17, f32>, !coopvec.matrix<33, 17, f32, "row_major">) -> ()
  %c561 = arith.constant 561 : index
  "coopvec.reduce_sum_accumulate"(%y, %g, %c561) : (!coopvec.vec<17, f32>, memref<?xf32>, index) -> ()
  return %y, %z : !coopvec.vec<17, f32>, !coopvec.vec<33, f32>
}

func.func @wide16(%x: !coopvec.vec<33, f16>, %w: memref<?xf16>, %g: memref<?xf16>) -> !coopvec.vec<17, f16> {
  %A = "coopvec.matrix_view"(%w) {offset = 0} : (memref<?xf16>) -> !coopvec.matrix<33, 17, f16, "training">
  %y = "coopvec.matvec"(%A, %x) {transpose} : (!coopvec.matrix<33, 17, f16, "training">, !coopvec.vec<33, f16>) -> !coopvec.vec<17, f16>
  %G = "coopvec.matrix_view"(%g) {offset = 0} : (memref<?xf16>) -> !coopvec.matrix<33, 17, f16, "training">
  "coopvec.outer_product_accumulate"(%x, %y, %G) : (!coopvec.vec<33, f16>, !coopvec.vec<17, f16>, !coopvec.matrix<33, 17, f16, "training">) -> ()
  return %y : !coopvec.vec<17, f16>
}
