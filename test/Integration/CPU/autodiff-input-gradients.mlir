// coopvec-autodiff{input-gradients=false} (docs/autodiff.md): a squared
// error loss after an MLP, its weights' gradient only (no dX results, the
// first layer's transposed matvec gone), run by coopvec-run --check
// against the reference interpreter. The gradient buffer (argument 3)
// starts random, so the accumulation adds to it; the target %t gets no
// gradient.

// RUN: split-file %s %t

// f32: 7 -> 17 (ReLU) -> 3, then (y - t)^2, at 1, 31, 1029 and 4099
// threads.
// RUN: coopvec-opt %t/mse32.mlir --coopvec-autodiff='func=mse32 input-gradients=false' -o %t/mse32-grad.mlir
// RUN: FileCheck %s --check-prefix=SIG32 < %t/mse32-grad.mlir
// SIG32: func.func @mse32_grad({{.*}}, %arg4: !coopvec.vec<3 : i64, f32>) {
// RUN: coopvec-run %t/mse32-grad.mlir --entry=mse32_grad --batch=1 --random --seed=1 --check | FileCheck %s
// RUN: coopvec-run %t/mse32-grad.mlir --entry=mse32_grad --batch=31 --random --seed=2 --check | FileCheck %s
// RUN: coopvec-run %t/mse32-grad.mlir --entry=mse32_grad --batch=1029 --random --seed=3 --check | FileCheck %s
// RUN: coopvec-run %t/mse32-grad.mlir --entry=mse32_grad --batch=4099 --random --seed=4 --check | FileCheck %s

// f16, "training" layout: 33 -> 127 (tanh) -> 1.
// RUN: coopvec-opt %t/mse16.mlir --coopvec-autodiff='func=mse16 input-gradients=false' -o %t/mse16-grad.mlir
// RUN: coopvec-run %t/mse16-grad.mlir --entry=mse16_grad --batch=1 --random --seed=5 --check | FileCheck %s
// RUN: coopvec-run %t/mse16-grad.mlir --entry=mse16_grad --batch=31 --random --seed=6 --check | FileCheck %s
// RUN: coopvec-run %t/mse16-grad.mlir --entry=mse16_grad --batch=1029 --random --seed=7 --check | FileCheck %s

// CHECK-NOT:  result 0
// CHECK:      argument 3 (written): max abs error {{.*}}: PASS
// CHECK-NEXT: {{^PASS$}}

//--- mse32.mlir
// W1 17x7 row-major at 0, b1 at 119, W2 3x17 row-major at byte 544
// (element 136), b2 at 187: 190 floats.
func.func @mse32(%x: !coopvec.vec<7, f32>, %t: !coopvec.vec<3, f32>, %w: memref<?xf32>) -> !coopvec.vec<3, f32> {
  %c119 = arith.constant 119 : index
  %c187 = arith.constant 187 : index
  %zero = arith.constant 0.0 : f32
  %A1 = "coopvec.matrix_view"(%w) {offset = 0} : (memref<?xf32>) -> !coopvec.matrix<17, 7, f32, "row_major">
  %b1 = "coopvec.load"(%w, %c119) : (memref<?xf32>, index) -> !coopvec.vec<17, f32>
  %h1 = "coopvec.matvec"(%A1, %x, %b1) : (!coopvec.matrix<17, 7, f32, "row_major">, !coopvec.vec<7, f32>, !coopvec.vec<17, f32>) -> !coopvec.vec<17, f32>
  %r1 = "coopvec.max"(%h1, %zero) : (!coopvec.vec<17, f32>, f32) -> !coopvec.vec<17, f32>
  %A2 = "coopvec.matrix_view"(%w) {offset = 544} : (memref<?xf32>) -> !coopvec.matrix<3, 17, f32, "row_major">
  %b2 = "coopvec.load"(%w, %c187) : (memref<?xf32>, index) -> !coopvec.vec<3, f32>
  %y = "coopvec.matvec"(%A2, %r1, %b2) : (!coopvec.matrix<3, 17, f32, "row_major">, !coopvec.vec<17, f32>, !coopvec.vec<3, f32>) -> !coopvec.vec<3, f32>
  %d = "coopvec.sub"(%y, %t) : (!coopvec.vec<3, f32>, !coopvec.vec<3, f32>) -> !coopvec.vec<3, f32>
  %l = "coopvec.mul"(%d, %d) : (!coopvec.vec<3, f32>, !coopvec.vec<3, f32>) -> !coopvec.vec<3, f32>
  return %l : !coopvec.vec<3, f32>
}

//--- mse16.mlir
// W1 127x33 "training" at byte 0, b1 at element 4191, W2 1x127 at byte
// 8704 (element 4352), b2 at element 4479.
func.func @mse16(%x: !coopvec.vec<33, f16>, %t: !coopvec.vec<1, f16>, %w: memref<?xf16>) -> !coopvec.vec<1, f16> {
  %cb1 = arith.constant 4191 : index
  %cb2 = arith.constant 4479 : index
  %W1 = "coopvec.matrix_view"(%w) {offset = 0} : (memref<?xf16>) -> !coopvec.matrix<127, 33, f16, "training">
  %b1 = "coopvec.load"(%w, %cb1) : (memref<?xf16>, index) -> !coopvec.vec<127, f16>
  %h1 = "coopvec.matvec"(%W1, %x, %b1) : (!coopvec.matrix<127, 33, f16, "training">, !coopvec.vec<33, f16>, !coopvec.vec<127, f16>) -> !coopvec.vec<127, f16>
  %a1 = "coopvec.tanh"(%h1) : (!coopvec.vec<127, f16>) -> !coopvec.vec<127, f16>
  %W2 = "coopvec.matrix_view"(%w) {offset = 8704} : (memref<?xf16>) -> !coopvec.matrix<1, 127, f16, "training">
  %b2 = "coopvec.load"(%w, %cb2) : (memref<?xf16>, index) -> !coopvec.vec<1, f16>
  %y = "coopvec.matvec"(%W2, %a1, %b2) : (!coopvec.matrix<1, 127, f16, "training">, !coopvec.vec<127, f16>, !coopvec.vec<1, f16>) -> !coopvec.vec<1, f16>
  %d = "coopvec.sub"(%y, %t) : (!coopvec.vec<1, f16>, !coopvec.vec<1, f16>) -> !coopvec.vec<1, f16>
  %l = "coopvec.mul"(%d, %d) : (!coopvec.vec<1, f16>, !coopvec.vec<1, f16>) -> !coopvec.vec<1, f16>
  return %l : !coopvec.vec<1, f16>
}
