// A training step of a two-layer MLP, run for many threads (one sample per
// thread) and checked against the reference interpreter: the forward pass,
// the gradient of the squared error 0.5 * |y - target|^2, the backward
// matvecs ({transpose}), the activation derivative, and the weight and bias
// gradients summed over all threads by outer_product_accumulate and
// reduce_sum_accumulate into a shared gradient buffer. --check compares the
// per-thread results (y and dL/dx) and the final gradient buffer ("argument
// 3 (written)"); it starts random, so the accumulation adds to it. Each
// function is its own split-file piece: coopvec-run compiles the whole file.

// RUN: split-file %s %t
// RUN: coopvec-run %t/train32.mlir --entry=train32 --batch=1 --random --seed=11 --check | FileCheck %s
// RUN: coopvec-run %t/train32.mlir --entry=train32 --batch=17 --random --seed=12 --check | FileCheck %s
// RUN: coopvec-run %t/train32.mlir --entry=train32 --batch=1000 --random --seed=13 --check | FileCheck %s
// RUN: coopvec-run %t/train16.mlir --entry=train16 --batch=1 --random --seed=14 --check | FileCheck %s
// RUN: coopvec-run %t/train16.mlir --entry=train16 --batch=17 --random --seed=15 --check | FileCheck %s
// RUN: coopvec-run %t/train16.mlir --entry=train16 --batch=1000 --random --seed=16 --check | FileCheck %s
// 65537 threads: the f16 gradients are summed in f32 and rounded once per
// run (docs/dialect.md, "f16 accumulation"); rounded per subgroup, they
// stopped growing on Vulkan and failed the check.
// RUN: coopvec-run %t/train16.mlir --entry=train16 --batch=65537 --random --seed=17 --check | FileCheck %s

// The weights are only read; the gradients are written.
// CHECK: result 0: max abs error {{.*}}: PASS
// CHECK-NEXT: result 1: max abs error {{.*}}: PASS
// CHECK-NEXT: argument 3 (written): max abs error {{.*}}: PASS
// CHECK-NEXT: {{^PASS$}}

//--- train32.mlir
// 7 -> 17 (ReLU) -> 3, f32. Weight buffer %w (190 floats):
//   W1 17x7 row_major at byte 0, b1 at element 119,
//   W2 3x17 col_major at byte 544 (element 136), b2 at element 187.
// The gradient buffer %g has the same layout (dL/dW1, dL/db1, dL/dW2,
// dL/db2). Results: y and dL/dx.
func.func @train32(%x: !coopvec.vec<7, f32>, %target: !coopvec.vec<3, f32>, %w: memref<?xf32>, %g: memref<?xf32>) -> (!coopvec.vec<3, f32>, !coopvec.vec<7, f32>) {
  %c119 = arith.constant 119 : index
  %c187 = arith.constant 187 : index
  %zero = arith.constant 0.0 : f32
  // Forward.
  %W1 = "coopvec.matrix_view"(%w) {offset = 0} : (memref<?xf32>) -> !coopvec.matrix<17, 7, f32, "row_major">
  %b1 = "coopvec.load"(%w, %c119) : (memref<?xf32>, index) -> !coopvec.vec<17, f32>
  %h1 = "coopvec.matvec"(%W1, %x, %b1) : (!coopvec.matrix<17, 7, f32, "row_major">, !coopvec.vec<7, f32>, !coopvec.vec<17, f32>) -> !coopvec.vec<17, f32>
  %a1 = "coopvec.max"(%h1, %zero) : (!coopvec.vec<17, f32>, f32) -> !coopvec.vec<17, f32>
  %W2 = "coopvec.matrix_view"(%w) {offset = 544} : (memref<?xf32>) -> !coopvec.matrix<3, 17, f32, "col_major">
  %b2 = "coopvec.load"(%w, %c187) : (memref<?xf32>, index) -> !coopvec.vec<3, f32>
  %y = "coopvec.matvec"(%W2, %a1, %b2) : (!coopvec.matrix<3, 17, f32, "col_major">, !coopvec.vec<17, f32>, !coopvec.vec<3, f32>) -> !coopvec.vec<3, f32>
  // dL/dy, then layer 2: dL/dW2 = dy a1^T, dL/db2 = dy, dL/da1 = W2^T dy.
  %dy = "coopvec.sub"(%y, %target) : (!coopvec.vec<3, f32>, !coopvec.vec<3, f32>) -> !coopvec.vec<3, f32>
  %G2 = "coopvec.matrix_view"(%g) {offset = 544} : (memref<?xf32>) -> !coopvec.matrix<3, 17, f32, "col_major">
  "coopvec.outer_product_accumulate"(%dy, %a1, %G2) : (!coopvec.vec<3, f32>, !coopvec.vec<17, f32>, !coopvec.matrix<3, 17, f32, "col_major">) -> ()
  "coopvec.reduce_sum_accumulate"(%dy, %g, %c187) : (!coopvec.vec<3, f32>, memref<?xf32>, index) -> ()
  %da1 = "coopvec.matvec"(%W2, %dy) {transpose} : (!coopvec.matrix<3, 17, f32, "col_major">, !coopvec.vec<3, f32>) -> !coopvec.vec<17, f32>
  // ReLU'(h1) = step(h1, 0); layer 1 likewise, dL/dx = W1^T dh1.
  %mask = "coopvec.step"(%h1, %zero) : (!coopvec.vec<17, f32>, f32) -> !coopvec.vec<17, f32>
  %dh1 = "coopvec.mul"(%da1, %mask) : (!coopvec.vec<17, f32>, !coopvec.vec<17, f32>) -> !coopvec.vec<17, f32>
  %G1 = "coopvec.matrix_view"(%g) {offset = 0} : (memref<?xf32>) -> !coopvec.matrix<17, 7, f32, "row_major">
  "coopvec.outer_product_accumulate"(%dh1, %x, %G1) : (!coopvec.vec<17, f32>, !coopvec.vec<7, f32>, !coopvec.matrix<17, 7, f32, "row_major">) -> ()
  "coopvec.reduce_sum_accumulate"(%dh1, %g, %c119) : (!coopvec.vec<17, f32>, memref<?xf32>, index) -> ()
  %dx = "coopvec.matvec"(%W1, %dh1) {transpose} : (!coopvec.matrix<17, 7, f32, "row_major">, !coopvec.vec<17, f32>) -> !coopvec.vec<7, f32>
  return %y, %dx : !coopvec.vec<3, f32>, !coopvec.vec<7, f32>
}

//--- train16.mlir
// 16 -> 33 (tanh) -> 1, f16 in the training layout (64-byte aligned
// offsets). Weight buffer %w (610 halves):
//   W1 33x16 at byte 0, b1 at element 528,
//   W2 1x33 at byte 1152 (element 576), b2 at element 609.
// %g has the same layout. tanh'(h) = 1 - tanh(h)^2 = fma(-a, a, 1).
func.func @train16(%x: !coopvec.vec<16, f16>, %target: !coopvec.vec<1, f16>, %w: memref<?xf16>, %g: memref<?xf16>) -> (!coopvec.vec<1, f16>, !coopvec.vec<16, f16>) {
  %c528 = arith.constant 528 : index
  %c609 = arith.constant 609 : index
  %one = arith.constant 1.0 : f16
  // Forward.
  %W1 = "coopvec.matrix_view"(%w) {offset = 0} : (memref<?xf16>) -> !coopvec.matrix<33, 16, f16, "training">
  %b1 = "coopvec.load"(%w, %c528) : (memref<?xf16>, index) -> !coopvec.vec<33, f16>
  %h1 = "coopvec.matvec"(%W1, %x, %b1) : (!coopvec.matrix<33, 16, f16, "training">, !coopvec.vec<16, f16>, !coopvec.vec<33, f16>) -> !coopvec.vec<33, f16>
  %a1 = "coopvec.tanh"(%h1) : (!coopvec.vec<33, f16>) -> !coopvec.vec<33, f16>
  %W2 = "coopvec.matrix_view"(%w) {offset = 1152} : (memref<?xf16>) -> !coopvec.matrix<1, 33, f16, "training">
  %b2 = "coopvec.load"(%w, %c609) : (memref<?xf16>, index) -> !coopvec.vec<1, f16>
  %y = "coopvec.matvec"(%W2, %a1, %b2) : (!coopvec.matrix<1, 33, f16, "training">, !coopvec.vec<33, f16>, !coopvec.vec<1, f16>) -> !coopvec.vec<1, f16>
  // Backward through layer 2.
  %dy = "coopvec.sub"(%y, %target) : (!coopvec.vec<1, f16>, !coopvec.vec<1, f16>) -> !coopvec.vec<1, f16>
  %G2 = "coopvec.matrix_view"(%g) {offset = 1152} : (memref<?xf16>) -> !coopvec.matrix<1, 33, f16, "training">
  "coopvec.outer_product_accumulate"(%dy, %a1, %G2) : (!coopvec.vec<1, f16>, !coopvec.vec<33, f16>, !coopvec.matrix<1, 33, f16, "training">) -> ()
  "coopvec.reduce_sum_accumulate"(%dy, %g, %c609) : (!coopvec.vec<1, f16>, memref<?xf16>, index) -> ()
  %da1 = "coopvec.matvec"(%W2, %dy) {transpose} : (!coopvec.matrix<1, 33, f16, "training">, !coopvec.vec<1, f16>) -> !coopvec.vec<33, f16>
  // Through tanh and layer 1.
  %na1 = "coopvec.neg"(%a1) : (!coopvec.vec<33, f16>) -> !coopvec.vec<33, f16>
  %dtanh = "coopvec.fma"(%na1, %a1, %one) : (!coopvec.vec<33, f16>, !coopvec.vec<33, f16>, f16) -> !coopvec.vec<33, f16>
  %dh1 = "coopvec.mul"(%da1, %dtanh) : (!coopvec.vec<33, f16>, !coopvec.vec<33, f16>) -> !coopvec.vec<33, f16>
  %G1 = "coopvec.matrix_view"(%g) {offset = 0} : (memref<?xf16>) -> !coopvec.matrix<33, 16, f16, "training">
  "coopvec.outer_product_accumulate"(%dh1, %x, %G1) : (!coopvec.vec<33, f16>, !coopvec.vec<16, f16>, !coopvec.matrix<33, 16, f16, "training">) -> ()
  "coopvec.reduce_sum_accumulate"(%dh1, %g, %c528) : (!coopvec.vec<33, f16>, memref<?xf16>, index) -> ()
  %dx = "coopvec.matvec"(%W1, %dh1) {transpose} : (!coopvec.matrix<33, 16, f16, "training">, !coopvec.vec<33, f16>) -> !coopvec.vec<16, f16>
  return %y, %dx : !coopvec.vec<1, f16>, !coopvec.vec<16, f16>
}
