// f16 MLPs of depth 1-4 in all four layouts (row_major, col_major,
// inference, training) through coopvec-lower-to-cpu and the JIT, checked
// against the reference interpreter (f16 storage, f32 accumulation).
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
// RUN: coopvec-run %t/h1_sigmoid.mlir --entry=h1_sigmoid --batch=1 --random --seed=1 --check | FileCheck %s
// RUN: coopvec-run %t/h1_sigmoid.mlir --entry=h1_sigmoid --batch=16 --random --seed=2 --check | FileCheck %s
// RUN: coopvec-run %t/h1_sigmoid.mlir --entry=h1_sigmoid --batch=1000 --random --seed=3 --check | FileCheck %s
// RUN: coopvec-run %t/h2_relu_sigmoid.mlir --entry=h2_relu_sigmoid --batch=15 --random --seed=4 --check | FileCheck %s
// RUN: coopvec-run %t/h2_relu_sigmoid.mlir --entry=h2_relu_sigmoid --batch=17 --random --seed=5 --check | FileCheck %s
// RUN: coopvec-run %t/h2_relu_sigmoid.mlir --entry=h2_relu_sigmoid --batch=1000 --random --seed=6 --check | FileCheck %s
// RUN: coopvec-run %t/h3_tanh_softplus.mlir --entry=h3_tanh_softplus --batch=1 --random --seed=7 --check | FileCheck %s
// RUN: coopvec-run %t/h3_tanh_softplus.mlir --entry=h3_tanh_softplus --batch=16 --random --seed=8 --check | FileCheck %s
// RUN: coopvec-run %t/h3_tanh_softplus.mlir --entry=h3_tanh_softplus --batch=17 --random --seed=9 --check | FileCheck %s
// RUN: coopvec-run %t/h4_four_layouts.mlir --entry=h4_four_layouts --batch=15 --random --seed=10 --check | FileCheck %s
// RUN: coopvec-run %t/h4_four_layouts.mlir --entry=h4_four_layouts --batch=17 --random --seed=11 --check | FileCheck %s
// RUN: coopvec-run %t/h4_four_layouts.mlir --entry=h4_four_layouts --batch=1000 --random --seed=12 --check | FileCheck %s
// Other SIMD widths than the host's, with a partial last group.
// RUN: coopvec-run %t/h4_four_layouts.mlir --entry=h4_four_layouts --batch=17 --lanes=16 --random --seed=13 --check | FileCheck %s
// RUN: coopvec-run %t/h3_tanh_softplus.mlir --entry=h3_tanh_softplus --batch=15 --lanes=4 --random --seed=14 --check | FileCheck %s
// CHECK: result 0: max abs error {{.*}}: PASS
// CHECK-NEXT: {{^PASS$}}

//--- h1_sigmoid.mlir
// h1_sigmoid: 33 -> 16, f16; 544 elements.
//   16x33 training at byte 0, bias at element 528, sigmoid
func.func @h1_sigmoid(%x: !coopvec.vec<33, f16>, %w: memref<?xf16>) -> !coopvec.vec<16, f16> {
  %c528 = arith.constant 528 : index
  %half = arith.constant 0.5 : f16
  %A1 = "coopvec.matrix_view"(%w) {offset = 0} : (memref<?xf16>) -> !coopvec.matrix<16, 33, f16, "training">
  %b1 = "coopvec.load"(%w, %c528) : (memref<?xf16>, index) -> !coopvec.vec<16, f16>
  %h1 = "coopvec.matvec"(%A1, %x, %b1) : (!coopvec.matrix<16, 33, f16, "training">, !coopvec.vec<33, f16>, !coopvec.vec<16, f16>) -> !coopvec.vec<16, f16>
  %t1 = "coopvec.mul"(%h1, %half) : (!coopvec.vec<16, f16>, f16) -> !coopvec.vec<16, f16>
  %t1_2 = "coopvec.tanh"(%t1) : (!coopvec.vec<16, f16>) -> !coopvec.vec<16, f16>
  %a1 = "coopvec.fma"(%t1_2, %half, %half) : (!coopvec.vec<16, f16>, f16, f16) -> !coopvec.vec<16, f16>
  return %a1 : !coopvec.vec<16, f16>
}

//--- h2_relu_sigmoid.mlir
// h2_relu_sigmoid: 17 -> 7 -> 3, f16; 149 elements.
//   7x17 inference at byte 0, bias at element 119, relu
//   7x3 col_major transposed at byte 256, sigmoid2
func.func @h2_relu_sigmoid(%x: !coopvec.vec<17, f16>, %w: memref<?xf16>) -> !coopvec.vec<3, f16> {
  %c119 = arith.constant 119 : index
  %zero = arith.constant 0.0 : f16
  %minus_log2e = arith.constant -1.4426950408889634 : f16
  %one = arith.constant 1.0 : f16
  %A1 = "coopvec.matrix_view"(%w) {offset = 0} : (memref<?xf16>) -> !coopvec.matrix<7, 17, f16, "inference">
  %b1 = "coopvec.load"(%w, %c119) : (memref<?xf16>, index) -> !coopvec.vec<7, f16>
  %h1 = "coopvec.matvec"(%A1, %x, %b1) : (!coopvec.matrix<7, 17, f16, "inference">, !coopvec.vec<17, f16>, !coopvec.vec<7, f16>) -> !coopvec.vec<7, f16>
  %a1 = "coopvec.max"(%h1, %zero) : (!coopvec.vec<7, f16>, f16) -> !coopvec.vec<7, f16>
  %A2 = "coopvec.matrix_view"(%w) {offset = 256} : (memref<?xf16>) -> !coopvec.matrix<7, 3, f16, "col_major">
  %h2 = "coopvec.matvec"(%A2, %a1) {transpose} : (!coopvec.matrix<7, 3, f16, "col_major">, !coopvec.vec<7, f16>) -> !coopvec.vec<3, f16>
  %t2 = "coopvec.mul"(%h2, %minus_log2e) : (!coopvec.vec<3, f16>, f16) -> !coopvec.vec<3, f16>
  %t2_2 = "coopvec.exp2"(%t2) : (!coopvec.vec<3, f16>) -> !coopvec.vec<3, f16>
  %t2_3 = "coopvec.add"(%t2_2, %one) : (!coopvec.vec<3, f16>, f16) -> !coopvec.vec<3, f16>
  %t2_4 = "coopvec.log2"(%t2_3) : (!coopvec.vec<3, f16>) -> !coopvec.vec<3, f16>
  %t2_5 = "coopvec.neg"(%t2_4) : (!coopvec.vec<3, f16>) -> !coopvec.vec<3, f16>
  %a2 = "coopvec.exp2"(%t2_5) : (!coopvec.vec<3, f16>) -> !coopvec.vec<3, f16>
  return %a2 : !coopvec.vec<3, f16>
}

//--- h3_tanh_softplus.mlir
// h3_tanh_softplus: 3 -> 32 -> 17 -> 1, f16; 690 elements.
//   32x3 row_major at byte 0, bias at element 96, tanh
//   17x32 inference at byte 256, softplus
//   17x1 training transposed at byte 1344, bias at element 689, none
func.func @h3_tanh_softplus(%x: !coopvec.vec<3, f16>, %w: memref<?xf16>) -> !coopvec.vec<1, f16> {
  %c96 = arith.constant 96 : index
  %log2e = arith.constant 1.4426950408889634 : f16
  %one = arith.constant 1.0 : f16
  %ln2 = arith.constant 0.6931471805599453 : f16
  %c689 = arith.constant 689 : index
  %A1 = "coopvec.matrix_view"(%w) {offset = 0} : (memref<?xf16>) -> !coopvec.matrix<32, 3, f16, "row_major">
  %b1 = "coopvec.load"(%w, %c96) : (memref<?xf16>, index) -> !coopvec.vec<32, f16>
  %h1 = "coopvec.matvec"(%A1, %x, %b1) : (!coopvec.matrix<32, 3, f16, "row_major">, !coopvec.vec<3, f16>, !coopvec.vec<32, f16>) -> !coopvec.vec<32, f16>
  %a1 = "coopvec.tanh"(%h1) : (!coopvec.vec<32, f16>) -> !coopvec.vec<32, f16>
  %A2 = "coopvec.matrix_view"(%w) {offset = 256} : (memref<?xf16>) -> !coopvec.matrix<17, 32, f16, "inference">
  %h2 = "coopvec.matvec"(%A2, %a1) : (!coopvec.matrix<17, 32, f16, "inference">, !coopvec.vec<32, f16>) -> !coopvec.vec<17, f16>
  %t2 = "coopvec.mul"(%h2, %log2e) : (!coopvec.vec<17, f16>, f16) -> !coopvec.vec<17, f16>
  %t2_2 = "coopvec.exp2"(%t2) : (!coopvec.vec<17, f16>) -> !coopvec.vec<17, f16>
  %t2_3 = "coopvec.add"(%t2_2, %one) : (!coopvec.vec<17, f16>, f16) -> !coopvec.vec<17, f16>
  %t2_4 = "coopvec.log2"(%t2_3) : (!coopvec.vec<17, f16>) -> !coopvec.vec<17, f16>
  %a2 = "coopvec.mul"(%t2_4, %ln2) : (!coopvec.vec<17, f16>, f16) -> !coopvec.vec<17, f16>
  %A3 = "coopvec.matrix_view"(%w) {offset = 1344} : (memref<?xf16>) -> !coopvec.matrix<17, 1, f16, "training">
  %b3 = "coopvec.load"(%w, %c689) : (memref<?xf16>, index) -> !coopvec.vec<1, f16>
  %h3 = "coopvec.matvec"(%A3, %a2, %b3) {transpose} : (!coopvec.matrix<17, 1, f16, "training">, !coopvec.vec<17, f16>, !coopvec.vec<1, f16>) -> !coopvec.vec<1, f16>
  return %h3 : !coopvec.vec<1, f16>
}

//--- h4_four_layouts.mlir
// h4_four_layouts: 16 -> 33 -> 7 -> 17 -> 32, f16; 1472 elements.
//   33x16 row_major at byte 0, steprelu
//   33x7 col_major transposed at byte 1056, bias at element 759, clamp
//   17x7 training at byte 1536, bias at element 887, leaky
//   17x32 inference transposed at byte 1856, tanh
func.func @h4_four_layouts(%x: !coopvec.vec<16, f16>, %w: memref<?xf16>) -> !coopvec.vec<32, f16> {
  %zero = arith.constant 0.0 : f16
  %c759 = arith.constant 759 : index
  %minus_one = arith.constant -1.0 : f16
  %one = arith.constant 1.0 : f16
  %c887 = arith.constant 887 : index
  %slope = arith.constant 0.01 : f16
  %A1 = "coopvec.matrix_view"(%w) {offset = 0} : (memref<?xf16>) -> !coopvec.matrix<33, 16, f16, "row_major">
  %h1 = "coopvec.matvec"(%A1, %x) : (!coopvec.matrix<33, 16, f16, "row_major">, !coopvec.vec<16, f16>) -> !coopvec.vec<33, f16>
  %t1 = "coopvec.step"(%h1, %zero) : (!coopvec.vec<33, f16>, f16) -> !coopvec.vec<33, f16>
  %a1 = "coopvec.mul"(%h1, %t1) : (!coopvec.vec<33, f16>, !coopvec.vec<33, f16>) -> !coopvec.vec<33, f16>
  %A2 = "coopvec.matrix_view"(%w) {offset = 1056} : (memref<?xf16>) -> !coopvec.matrix<33, 7, f16, "col_major">
  %b2 = "coopvec.load"(%w, %c759) : (memref<?xf16>, index) -> !coopvec.vec<7, f16>
  %h2 = "coopvec.matvec"(%A2, %a1, %b2) {transpose} : (!coopvec.matrix<33, 7, f16, "col_major">, !coopvec.vec<33, f16>, !coopvec.vec<7, f16>) -> !coopvec.vec<7, f16>
  %t2 = "coopvec.max"(%h2, %minus_one) : (!coopvec.vec<7, f16>, f16) -> !coopvec.vec<7, f16>
  %a2 = "coopvec.min"(%t2, %one) : (!coopvec.vec<7, f16>, f16) -> !coopvec.vec<7, f16>
  %A3 = "coopvec.matrix_view"(%w) {offset = 1536} : (memref<?xf16>) -> !coopvec.matrix<17, 7, f16, "training">
  %b3 = "coopvec.load"(%w, %c887) : (memref<?xf16>, index) -> !coopvec.vec<17, f16>
  %h3 = "coopvec.matvec"(%A3, %a2, %b3) : (!coopvec.matrix<17, 7, f16, "training">, !coopvec.vec<7, f16>, !coopvec.vec<17, f16>) -> !coopvec.vec<17, f16>
  %t3 = "coopvec.mul"(%h3, %slope) : (!coopvec.vec<17, f16>, f16) -> !coopvec.vec<17, f16>
  %a3 = "coopvec.max"(%h3, %t3) : (!coopvec.vec<17, f16>, !coopvec.vec<17, f16>) -> !coopvec.vec<17, f16>
  %A4 = "coopvec.matrix_view"(%w) {offset = 1856} : (memref<?xf16>) -> !coopvec.matrix<17, 32, f16, "inference">
  %h4 = "coopvec.matvec"(%A4, %a3) {transpose} : (!coopvec.matrix<17, 32, f16, "inference">, !coopvec.vec<17, f16>) -> !coopvec.vec<32, f16>
  %a4 = "coopvec.tanh"(%h4) : (!coopvec.vec<32, f16>) -> !coopvec.vec<32, f16>
  return %a4 : !coopvec.vec<32, f16>
}

