// f32 MLPs of depth 1-4 (row_major and col_major, the layouts legal for
// f32) through coopvec-lower-to-cpu and the JIT, checked against the
// reference interpreter at batch sizes around the SIMD width and 1000.
//
// Activations, built from the elementwise ops (the dialect has no division
// or reciprocal, so sigmoid = 1 / (1 + e^-h) goes through tanh or through
// exp2 / log2: 1 / s = 2^-log2(s)):
//   relu(h)     = max(h, 0)
//   leaky(h)    = max(h, 0.01 * h)
//   tanh(h)     = tanh(h)
//   sigmoid(h)  = 0.5 + 0.5 * tanh(h / 2) = fma(tanh(0.5 * h), 0.5, 0.5)
//   sigmoid2(h) = exp2(-log2(1 + exp2(-h * log2(e))))
//   softplus(h) = ln(1 + e^h) = log2(1 + exp2(h * log2(e))) * ln(2)
//   steprelu(h) = h * step(h, 0)       (ReLU through its derivative mask)
//   clamp(h)    = min(max(h, -1), 1)   (hard tanh)
// Weights: one buffer per MLP; each layer's matrix starts at a 16-byte
// (row_major / col_major) or 64-byte (inference / training) aligned offset,
// its bias (if any) follows it. coopvec-run sizes the random buffer from
// the views and loads. A layer marked "transposed" stores its matrix as
// in x out and multiplies with {transpose}.
//
// Each MLP is its own split-file piece because coopvec-run lowers and
// JIT-compiles every function of its input, not only the entry.

// RUN: split-file %s %t
// RUN: coopvec-run %t/d1_relu.mlir --entry=d1_relu --batch=1 --random --seed=1 --check | FileCheck %s
// RUN: coopvec-run %t/d1_relu.mlir --entry=d1_relu --batch=15 --random --seed=2 --check | FileCheck %s
// RUN: coopvec-run %t/d1_relu.mlir --entry=d1_relu --batch=1000 --random --seed=3 --check | FileCheck %s
// RUN: coopvec-run %t/d2_leaky_sigmoid.mlir --entry=d2_leaky_sigmoid --batch=16 --random --seed=4 --check | FileCheck %s
// RUN: coopvec-run %t/d2_leaky_sigmoid.mlir --entry=d2_leaky_sigmoid --batch=17 --random --seed=5 --check | FileCheck %s
// RUN: coopvec-run %t/d2_leaky_sigmoid.mlir --entry=d2_leaky_sigmoid --batch=1000 --random --seed=6 --check | FileCheck %s
// RUN: coopvec-run %t/d3_sigmoid.mlir --entry=d3_sigmoid --batch=1 --random --seed=7 --check | FileCheck %s
// RUN: coopvec-run %t/d3_sigmoid.mlir --entry=d3_sigmoid --batch=17 --random --seed=8 --check | FileCheck %s
// RUN: coopvec-run %t/d3_sigmoid.mlir --entry=d3_sigmoid --batch=1000 --random --seed=9 --check | FileCheck %s
// RUN: coopvec-run %t/d4_softplus.mlir --entry=d4_softplus --batch=15 --random --seed=10 --check | FileCheck %s
// RUN: coopvec-run %t/d4_softplus.mlir --entry=d4_softplus --batch=16 --random --seed=11 --check | FileCheck %s
// RUN: coopvec-run %t/d4_softplus.mlir --entry=d4_softplus --batch=1000 --random --seed=12 --check | FileCheck %s
// Other SIMD widths than the host's: 16 lanes (AVX-512 width, two
// registers on AVX2) and 4 (SSE), with a partial last group.
// RUN: coopvec-run %t/d4_softplus.mlir --entry=d4_softplus --batch=17 --lanes=16 --random --seed=13 --check | FileCheck %s
// RUN: coopvec-run %t/d3_sigmoid.mlir --entry=d3_sigmoid --batch=15 --lanes=4 --random --seed=14 --check | FileCheck %s
// A CPU without FMA (x86-64: SSE2), whose matvecs multiply and add (CPU
// runs only: the GPU targets run this folder with their own pipelines).
// RUN: %if !coopvec-run-target %{ coopvec-run %t/d4_softplus.mlir --entry=d4_softplus --batch=17 --pipeline='builtin.module(coopvec-lower-to-cpu{target-cpu=x86-64})' --random --seed=15 --check | FileCheck %s %}
// CHECK: result 0: max abs error {{.*}}: PASS
// CHECK-NEXT: {{^PASS$}}

//--- d1_relu.mlir
// d1_relu: 16 -> 7, f32; 119 elements.
//   7x16 row_major at byte 0, bias at element 112, relu
func.func @d1_relu(%x: !coopvec.vec<16, f32>, %w: memref<?xf32>) -> !coopvec.vec<7, f32> {
  %c112 = arith.constant 112 : index
  %zero = arith.constant 0.0 : f32
  %A1 = "coopvec.matrix_view"(%w) {offset = 0} : (memref<?xf32>) -> !coopvec.matrix<7, 16, f32, "row_major">
  %b1 = "coopvec.load"(%w, %c112) : (memref<?xf32>, index) -> !coopvec.vec<7, f32>
  %h1 = "coopvec.matvec"(%A1, %x, %b1) : (!coopvec.matrix<7, 16, f32, "row_major">, !coopvec.vec<16, f32>, !coopvec.vec<7, f32>) -> !coopvec.vec<7, f32>
  %a1 = "coopvec.max"(%h1, %zero) : (!coopvec.vec<7, f32>, f32) -> !coopvec.vec<7, f32>
  return %a1 : !coopvec.vec<7, f32>
}

//--- d2_leaky_sigmoid.mlir
// d2_leaky_sigmoid: 3 -> 33 -> 1, f32; 165 elements.
//   33x3 col_major at byte 0, bias at element 99, leaky
//   1x33 row_major at byte 528, sigmoid2
func.func @d2_leaky_sigmoid(%x: !coopvec.vec<3, f32>, %w: memref<?xf32>) -> !coopvec.vec<1, f32> {
  %c99 = arith.constant 99 : index
  %slope = arith.constant 0.01 : f32
  %minus_log2e = arith.constant -1.4426950408889634 : f32
  %one = arith.constant 1.0 : f32
  %A1 = "coopvec.matrix_view"(%w) {offset = 0} : (memref<?xf32>) -> !coopvec.matrix<33, 3, f32, "col_major">
  %b1 = "coopvec.load"(%w, %c99) : (memref<?xf32>, index) -> !coopvec.vec<33, f32>
  %h1 = "coopvec.matvec"(%A1, %x, %b1) : (!coopvec.matrix<33, 3, f32, "col_major">, !coopvec.vec<3, f32>, !coopvec.vec<33, f32>) -> !coopvec.vec<33, f32>
  %t1 = "coopvec.mul"(%h1, %slope) : (!coopvec.vec<33, f32>, f32) -> !coopvec.vec<33, f32>
  %a1 = "coopvec.max"(%h1, %t1) : (!coopvec.vec<33, f32>, !coopvec.vec<33, f32>) -> !coopvec.vec<33, f32>
  %A2 = "coopvec.matrix_view"(%w) {offset = 528} : (memref<?xf32>) -> !coopvec.matrix<1, 33, f32, "row_major">
  %h2 = "coopvec.matvec"(%A2, %a1) : (!coopvec.matrix<1, 33, f32, "row_major">, !coopvec.vec<33, f32>) -> !coopvec.vec<1, f32>
  %t2 = "coopvec.mul"(%h2, %minus_log2e) : (!coopvec.vec<1, f32>, f32) -> !coopvec.vec<1, f32>
  %t2_2 = "coopvec.exp2"(%t2) : (!coopvec.vec<1, f32>) -> !coopvec.vec<1, f32>
  %t2_3 = "coopvec.add"(%t2_2, %one) : (!coopvec.vec<1, f32>, f32) -> !coopvec.vec<1, f32>
  %t2_4 = "coopvec.log2"(%t2_3) : (!coopvec.vec<1, f32>) -> !coopvec.vec<1, f32>
  %t2_5 = "coopvec.neg"(%t2_4) : (!coopvec.vec<1, f32>) -> !coopvec.vec<1, f32>
  %a2 = "coopvec.exp2"(%t2_5) : (!coopvec.vec<1, f32>) -> !coopvec.vec<1, f32>
  return %a2 : !coopvec.vec<1, f32>
}

//--- d3_sigmoid.mlir
// d3_sigmoid: 1 -> 17 -> 32 -> 3, f32; 679 elements.
//   17x1 row_major at byte 0, bias at element 17, sigmoid
//   17x32 col_major transposed at byte 144, tanh
//   3x32 row_major at byte 2320, bias at element 676, none
func.func @d3_sigmoid(%x: !coopvec.vec<1, f32>, %w: memref<?xf32>) -> !coopvec.vec<3, f32> {
  %c17 = arith.constant 17 : index
  %half = arith.constant 0.5 : f32
  %c676 = arith.constant 676 : index
  %A1 = "coopvec.matrix_view"(%w) {offset = 0} : (memref<?xf32>) -> !coopvec.matrix<17, 1, f32, "row_major">
  %b1 = "coopvec.load"(%w, %c17) : (memref<?xf32>, index) -> !coopvec.vec<17, f32>
  %h1 = "coopvec.matvec"(%A1, %x, %b1) : (!coopvec.matrix<17, 1, f32, "row_major">, !coopvec.vec<1, f32>, !coopvec.vec<17, f32>) -> !coopvec.vec<17, f32>
  %t1 = "coopvec.mul"(%h1, %half) : (!coopvec.vec<17, f32>, f32) -> !coopvec.vec<17, f32>
  %t1_2 = "coopvec.tanh"(%t1) : (!coopvec.vec<17, f32>) -> !coopvec.vec<17, f32>
  %a1 = "coopvec.fma"(%t1_2, %half, %half) : (!coopvec.vec<17, f32>, f32, f32) -> !coopvec.vec<17, f32>
  %A2 = "coopvec.matrix_view"(%w) {offset = 144} : (memref<?xf32>) -> !coopvec.matrix<17, 32, f32, "col_major">
  %h2 = "coopvec.matvec"(%A2, %a1) {transpose} : (!coopvec.matrix<17, 32, f32, "col_major">, !coopvec.vec<17, f32>) -> !coopvec.vec<32, f32>
  %a2 = "coopvec.tanh"(%h2) : (!coopvec.vec<32, f32>) -> !coopvec.vec<32, f32>
  %A3 = "coopvec.matrix_view"(%w) {offset = 2320} : (memref<?xf32>) -> !coopvec.matrix<3, 32, f32, "row_major">
  %b3 = "coopvec.load"(%w, %c676) : (memref<?xf32>, index) -> !coopvec.vec<3, f32>
  %h3 = "coopvec.matvec"(%A3, %a2, %b3) : (!coopvec.matrix<3, 32, f32, "row_major">, !coopvec.vec<32, f32>, !coopvec.vec<3, f32>) -> !coopvec.vec<3, f32>
  return %h3 : !coopvec.vec<3, f32>
}

//--- d4_softplus.mlir
// d4_softplus: 7 -> 16 -> 33 -> 17 -> 1, f32; 1274 elements.
//   16x7 col_major at byte 0, bias at element 112, softplus
//   16x33 row_major transposed at byte 512, bias at element 656, steprelu
//   17x33 col_major at byte 2768, clamp
//   17x1 row_major transposed at byte 5024, bias at element 1273, none
func.func @d4_softplus(%x: !coopvec.vec<7, f32>, %w: memref<?xf32>) -> !coopvec.vec<1, f32> {
  %c112 = arith.constant 112 : index
  %log2e = arith.constant 1.4426950408889634 : f32
  %one = arith.constant 1.0 : f32
  %ln2 = arith.constant 0.6931471805599453 : f32
  %c656 = arith.constant 656 : index
  %zero = arith.constant 0.0 : f32
  %minus_one = arith.constant -1.0 : f32
  %c1273 = arith.constant 1273 : index
  %A1 = "coopvec.matrix_view"(%w) {offset = 0} : (memref<?xf32>) -> !coopvec.matrix<16, 7, f32, "col_major">
  %b1 = "coopvec.load"(%w, %c112) : (memref<?xf32>, index) -> !coopvec.vec<16, f32>
  %h1 = "coopvec.matvec"(%A1, %x, %b1) : (!coopvec.matrix<16, 7, f32, "col_major">, !coopvec.vec<7, f32>, !coopvec.vec<16, f32>) -> !coopvec.vec<16, f32>
  %t1 = "coopvec.mul"(%h1, %log2e) : (!coopvec.vec<16, f32>, f32) -> !coopvec.vec<16, f32>
  %t1_2 = "coopvec.exp2"(%t1) : (!coopvec.vec<16, f32>) -> !coopvec.vec<16, f32>
  %t1_3 = "coopvec.add"(%t1_2, %one) : (!coopvec.vec<16, f32>, f32) -> !coopvec.vec<16, f32>
  %t1_4 = "coopvec.log2"(%t1_3) : (!coopvec.vec<16, f32>) -> !coopvec.vec<16, f32>
  %a1 = "coopvec.mul"(%t1_4, %ln2) : (!coopvec.vec<16, f32>, f32) -> !coopvec.vec<16, f32>
  %A2 = "coopvec.matrix_view"(%w) {offset = 512} : (memref<?xf32>) -> !coopvec.matrix<16, 33, f32, "row_major">
  %b2 = "coopvec.load"(%w, %c656) : (memref<?xf32>, index) -> !coopvec.vec<33, f32>
  %h2 = "coopvec.matvec"(%A2, %a1, %b2) {transpose} : (!coopvec.matrix<16, 33, f32, "row_major">, !coopvec.vec<16, f32>, !coopvec.vec<33, f32>) -> !coopvec.vec<33, f32>
  %t2 = "coopvec.step"(%h2, %zero) : (!coopvec.vec<33, f32>, f32) -> !coopvec.vec<33, f32>
  %a2 = "coopvec.mul"(%h2, %t2) : (!coopvec.vec<33, f32>, !coopvec.vec<33, f32>) -> !coopvec.vec<33, f32>
  %A3 = "coopvec.matrix_view"(%w) {offset = 2768} : (memref<?xf32>) -> !coopvec.matrix<17, 33, f32, "col_major">
  %h3 = "coopvec.matvec"(%A3, %a2) : (!coopvec.matrix<17, 33, f32, "col_major">, !coopvec.vec<33, f32>) -> !coopvec.vec<17, f32>
  %t3 = "coopvec.max"(%h3, %minus_one) : (!coopvec.vec<17, f32>, f32) -> !coopvec.vec<17, f32>
  %a3 = "coopvec.min"(%t3, %one) : (!coopvec.vec<17, f32>, f32) -> !coopvec.vec<17, f32>
  %A4 = "coopvec.matrix_view"(%w) {offset = 5024} : (memref<?xf32>) -> !coopvec.matrix<17, 1, f32, "row_major">
  %b4 = "coopvec.load"(%w, %c1273) : (memref<?xf32>, index) -> !coopvec.vec<1, f32>
  %h4 = "coopvec.matvec"(%A4, %a3, %b4) {transpose} : (!coopvec.matrix<17, 1, f32, "row_major">, !coopvec.vec<17, f32>, !coopvec.vec<1, f32>) -> !coopvec.vec<1, f32>
  return %h4 : !coopvec.vec<1, f32>
}

