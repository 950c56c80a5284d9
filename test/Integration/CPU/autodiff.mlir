// Gradients made by coopvec-autodiff run through coopvec-run like any
// per-thread function: JIT-compiled by coopvec-lower-to-cpu, dX results
// in <prefix>0.npy..., the accumulated gradient buffers in
// <prefix>_argN.npy, and --check against the reference interpreter.

// RUN: split-file %s %t

// Known values (docs/autodiff.md): A = [[1, 3], [-2, 4], [3, -2]] row-major
// at w[0, 6), b at w[8, 11), x = (2, 4), dY = (-2, 5, 10) in two threads.
// dX = (18, -6) per thread, dA = 2 * dY x^T and db = 2 * dY (summed over
// the two threads) are added into the zero buffer g. Inputs are '<f4'
// files written with printf.
// RUN: coopvec-opt %t/kv.mlir --coopvec-autodiff=func=kv -o %t/kv-grad.mlir
// RUN: printf "\x93NUMPY\x01\x00\x3c\x00{'descr': '<f4', 'fortran_order': False, 'shape': (2, 2), }\n\x00\x00\x00\x40\x00\x00\x80\x40\x00\x00\x00\x40\x00\x00\x80\x40" > %t/x.npy
// RUN: printf "\x93NUMPY\x01\x00\x3b\x00{'descr': '<f4', 'fortran_order': False, 'shape': (12,), }\n\x00\x00\x80\x3f\x00\x00\x40\x40\x00\x00\x00\xc0\x00\x00\x80\x40\x00\x00\x40\x40\x00\x00\x00\xc0\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x3f\x00\x00\x80\xbf\x00\x00\x00\x40\x00\x00\x00\x00" > %t/w.npy
// RUN: printf "\x93NUMPY\x01\x00\x3b\x00{'descr': '<f4', 'fortran_order': False, 'shape': (12,), }\n\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00" > %t/g.npy
// RUN: printf "\x93NUMPY\x01\x00\x3c\x00{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }\n\x00\x00\x00\xc0\x00\x00\xa0\x40\x00\x00\x20\x41\x00\x00\x00\xc0\x00\x00\xa0\x40\x00\x00\x20\x41" > %t/dy.npy
// RUN: coopvec-run %t/kv-grad.mlir --entry=kv_grad --batch=2 --arg=%t/x.npy --arg=%t/w.npy --arg=%t/g.npy --arg=%t/dy.npy --print --check --out=%t/out | FileCheck %s --check-prefix=KV
// KV:      result 0
// KV-NEXT: {{[[:space:]]}}18 -6{{$}}
// KV-NEXT: {{[[:space:]]}}18 -6{{$}}
// KV-NEXT: argument 2
// KV-NEXT: {{[[:space:]]}}-8 -16 20 40 40 80 0 0 -4 10 20 0{{$}}
// KV:      result 0: max abs error 0, {{.*}}: PASS
// KV-NEXT: argument 2 (written): max abs error 0, {{.*}}: PASS
// KV-NEXT: {{^PASS$}}

// The files hold what was printed: the gradient buffer accumulates across
// calls (fed back, it doubles), and dX fed to @kv as x gives
// A (18, -6) + b = (0.5, -61, 68).
// RUN: coopvec-run %t/kv-grad.mlir --entry=kv_grad --batch=2 --arg=%t/x.npy --arg=%t/w.npy --arg=%t/out_arg2.npy --arg=%t/dy.npy --print | FileCheck %s --check-prefix=KV-AGAIN
// KV-AGAIN: argument 2
// KV-AGAIN-NEXT: {{[[:space:]]}}-16 -32 40 80 80 160 0 0 -8 20 40 0{{$}}
// RUN: coopvec-run %t/kv-grad.mlir --entry=kv --batch=2 --arg=%t/out0.npy --arg=%t/w.npy --print | FileCheck %s --check-prefix=KV-DX
// KV-DX:      {{[[:space:]]}}0.5 -61 68{{$}}
// KV-DX-NEXT: {{[[:space:]]}}0.5 -61 68{{$}}

// A two-layer f32 MLP (ReLU, then log2(1 + exp2(h)), a smooth ReLU), its
// gradient checked against the interpreter for 1, 17 and 1000 threads:
// dX and the gradient buffer, which starts random (so the accumulation
// adds to it).
// RUN: coopvec-opt %t/mlp32.mlir --coopvec-autodiff=func=mlp32 -o %t/mlp32-grad.mlir
// RUN: coopvec-run %t/mlp32-grad.mlir --entry=mlp32_grad --batch=1 --random --seed=1 --check | FileCheck %s
// RUN: coopvec-run %t/mlp32-grad.mlir --entry=mlp32_grad --batch=17 --random --seed=2 --check | FileCheck %s
// RUN: coopvec-run %t/mlp32-grad.mlir --entry=mlp32_grad --batch=1000 --random --seed=3 --check | FileCheck %s

// The same in f16 with the "training" layout and tanh.
// RUN: coopvec-opt %t/mlp16.mlir --coopvec-autodiff=func=mlp16 -o %t/mlp16-grad.mlir
// RUN: coopvec-run %t/mlp16-grad.mlir --entry=mlp16_grad --batch=1 --random --seed=4 --check | FileCheck %s
// RUN: coopvec-run %t/mlp16-grad.mlir --entry=mlp16_grad --batch=17 --random --seed=5 --check | FileCheck %s
// RUN: coopvec-run %t/mlp16-grad.mlir --entry=mlp16_grad --batch=1000 --random --seed=6 --check | FileCheck %s

// One weight used twice (two outer products into one gradient) and an
// element of a vec used as a scalar.
// RUN: coopvec-opt %t/twice.mlir --coopvec-autodiff=func=twice -o %t/twice-grad.mlir
// RUN: coopvec-run %t/twice-grad.mlir --entry=twice_grad --batch=33 --random --seed=7 --check | FileCheck %s

// CHECK:      result 0: max abs error {{.*}}: PASS
// CHECK-NEXT: argument 2 (written): max abs error {{.*}}: PASS
// CHECK-NEXT: {{^PASS$}}

//--- kv.mlir
func.func @kv(%x: !coopvec.vec<2, f32>, %w: memref<?xf32>) -> !coopvec.vec<3, f32> {
  %c8 = arith.constant 8 : index
  %A = "coopvec.matrix_view"(%w) {offset = 0} : (memref<?xf32>) -> !coopvec.matrix<3, 2, f32, "row_major">
  %b = "coopvec.load"(%w, %c8) : (memref<?xf32>, index) -> !coopvec.vec<3, f32>
  %y = "coopvec.matvec"(%A, %x, %b) : (!coopvec.matrix<3, 2, f32, "row_major">, !coopvec.vec<2, f32>, !coopvec.vec<3, f32>) -> !coopvec.vec<3, f32>
  return %y : !coopvec.vec<3, f32>
}

//--- mlp32.mlir
// 3 -> 17 (ReLU) -> 7 (smooth ReLU); W1 17x3 row-major at 0, b1 at 51,
// W2 7x17 col-major at byte 272 (element 68), b2 at 187: 194 floats.
func.func @mlp32(%x: !coopvec.vec<3, f32>, %w: memref<?xf32>) -> !coopvec.vec<7, f32> {
  %c51 = arith.constant 51 : index
  %c187 = arith.constant 187 : index
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %A1 = "coopvec.matrix_view"(%w) {offset = 0} : (memref<?xf32>) -> !coopvec.matrix<17, 3, f32, "row_major">
  %b1 = "coopvec.load"(%w, %c51) : (memref<?xf32>, index) -> !coopvec.vec<17, f32>
  %h1 = "coopvec.matvec"(%A1, %x, %b1) : (!coopvec.matrix<17, 3, f32, "row_major">, !coopvec.vec<3, f32>, !coopvec.vec<17, f32>) -> !coopvec.vec<17, f32>
  %r1 = "coopvec.max"(%h1, %zero) : (!coopvec.vec<17, f32>, f32) -> !coopvec.vec<17, f32>
  %A2 = "coopvec.matrix_view"(%w) {offset = 272} : (memref<?xf32>) -> !coopvec.matrix<7, 17, f32, "col_major">
  %b2 = "coopvec.load"(%w, %c187) : (memref<?xf32>, index) -> !coopvec.vec<7, f32>
  %h2 = "coopvec.matvec"(%A2, %r1, %b2) : (!coopvec.matrix<7, 17, f32, "col_major">, !coopvec.vec<17, f32>, !coopvec.vec<7, f32>) -> !coopvec.vec<7, f32>
  %e = "coopvec.exp2"(%h2) : (!coopvec.vec<7, f32>) -> !coopvec.vec<7, f32>
  %p = "coopvec.add"(%e, %one) : (!coopvec.vec<7, f32>, f32) -> !coopvec.vec<7, f32>
  %y = "coopvec.log2"(%p) : (!coopvec.vec<7, f32>) -> !coopvec.vec<7, f32>
  return %y : !coopvec.vec<7, f32>
}

//--- mlp16.mlir
// 16 -> 33 (tanh) -> 3, f16, "training" layout (64-byte aligned views):
// W1 33x16 at byte 0, b1 at element 528, W2 3x33 at byte 1152 (element
// 576), b2 at element 672.
func.func @mlp16(%x: !coopvec.vec<16, f16>, %w: memref<?xf16>) -> !coopvec.vec<3, f16> {
  %c528 = arith.constant 528 : index
  %c672 = arith.constant 672 : index
  %W1 = "coopvec.matrix_view"(%w) {offset = 0} : (memref<?xf16>) -> !coopvec.matrix<33, 16, f16, "training">
  %b1 = "coopvec.load"(%w, %c528) : (memref<?xf16>, index) -> !coopvec.vec<33, f16>
  %h1 = "coopvec.matvec"(%W1, %x, %b1) : (!coopvec.matrix<33, 16, f16, "training">, !coopvec.vec<16, f16>, !coopvec.vec<33, f16>) -> !coopvec.vec<33, f16>
  %a1 = "coopvec.tanh"(%h1) : (!coopvec.vec<33, f16>) -> !coopvec.vec<33, f16>
  %W2 = "coopvec.matrix_view"(%w) {offset = 1152} : (memref<?xf16>) -> !coopvec.matrix<3, 33, f16, "training">
  %b2 = "coopvec.load"(%w, %c672) : (memref<?xf16>, index) -> !coopvec.vec<3, f16>
  %y = "coopvec.matvec"(%W2, %a1, %b2) : (!coopvec.matrix<3, 33, f16, "training">, !coopvec.vec<33, f16>, !coopvec.vec<3, f16>) -> !coopvec.vec<3, f16>
  return %y : !coopvec.vec<3, f16>
}

//--- twice.mlir
// W (5x5, row-major at 0) applied, then applied transposed; the middle
// element of the first product scales the result.
func.func @twice(%x: !coopvec.vec<5, f32>, %w: memref<?xf32>) -> !coopvec.vec<5, f32> {
  %W = "coopvec.matrix_view"(%w) {offset = 0} : (memref<?xf32>) -> !coopvec.matrix<5, 5, f32, "row_major">
  %y1 = "coopvec.matvec"(%W, %x) : (!coopvec.matrix<5, 5, f32, "row_major">, !coopvec.vec<5, f32>) -> !coopvec.vec<5, f32>
  %t = "coopvec.tanh"(%y1) : (!coopvec.vec<5, f32>) -> !coopvec.vec<5, f32>
  %y2 = "coopvec.matvec"(%W, %t) {transpose} : (!coopvec.matrix<5, 5, f32, "row_major">, !coopvec.vec<5, f32>) -> !coopvec.vec<5, f32>
  %e:5 = "coopvec.unpack"(%y1) : (!coopvec.vec<5, f32>) -> (f32, f32, f32, f32, f32)
  %y = "coopvec.mul"(%y2, %e#2) : (!coopvec.vec<5, f32>, f32) -> !coopvec.vec<5, f32>
  return %y : !coopvec.vec<5, f32>
}
