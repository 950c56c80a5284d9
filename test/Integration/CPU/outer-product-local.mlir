// outer_product_accumulate and reduce_sum_accumulate into a gradient
// buffer that is not an argument of the function (a memref.cast of one):
// the lowered code only has it inside the lane loop, so the outer
// product's f32 tile is zeroed, filled by the GEMM micro-kernel and added
// after each group of lanes, and the sums are reduced and added per group
// (docs/execution-model.md). The execution engine refuses the cast (it
// cannot bound the accesses through it), so the batched function runs as
// an object from --emit=obj in Inputs/outer-product-local-driver.c, which
// checks the buffer against a double-precision sum at 1, 7, 16, 31 and
// 1029 threads (8 lanes: partial last groups). a and b are log2 of
// squares, -inf in the lanes past the last thread.

// RUN: coopvec-opt %s --coopvec-lower-to-cpu="lanes=8" --emit=obj -o %t.o
// RUN: %cc -std=c11 -O2 %S/Inputs/outer-product-local-driver.c %t.o -lm -o %t.exe
// RUN: %t.exe | FileCheck %s

// CHECK: n=1: worst error {{.*}}: PASS
// CHECK-NEXT: n=7: worst error {{.*}}: PASS
// CHECK-NEXT: n=16: worst error {{.*}}: PASS
// CHECK-NEXT: n=31: worst error {{.*}}: PASS
// CHECK-NEXT: n=1029: worst error {{.*}}: PASS
// CHECK-NEXT: {{^PASS$}}

func.func @local(%x: !coopvec.vec<17, f32>, %y: !coopvec.vec<7, f32>, %s: memref<200xf32>) {
  %c119 = arith.constant 119 : index
  %g = memref.cast %s : memref<200xf32> to memref<?xf32>
  %xx = "coopvec.mul"(%x, %x) : (!coopvec.vec<17, f32>, !coopvec.vec<17, f32>) -> !coopvec.vec<17, f32>
  %a = "coopvec.log2"(%xx) : (!coopvec.vec<17, f32>) -> !coopvec.vec<17, f32>
  %yy = "coopvec.mul"(%y, %y) : (!coopvec.vec<7, f32>, !coopvec.vec<7, f32>) -> !coopvec.vec<7, f32>
  %b = "coopvec.log2"(%yy) : (!coopvec.vec<7, f32>) -> !coopvec.vec<7, f32>
  %G = "coopvec.matrix_view"(%g) {offset = 0} : (memref<?xf32>) -> !coopvec.matrix<17, 7, f32, "row_major">
  "coopvec.outer_product_accumulate"(%a, %b, %G) : (!coopvec.vec<17, f32>, !coopvec.vec<7, f32>, !coopvec.matrix<17, 7, f32, "row_major">) -> ()
  "coopvec.reduce_sum_accumulate"(%a, %g, %c119) : (!coopvec.vec<17, f32>, memref<?xf32>, index) -> ()
  return
}
