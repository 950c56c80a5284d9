// The wide end: 64, 127 and 128, up to a 128 x 128 matrix (the largest
// the CPU lowering takes), f32 and f16, transposed and not.
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
// RUN: coopvec-run %t/w64_f32.mlir --entry=w64_f32 --batch=1 --random --seed=1 --check | FileCheck %s
// RUN: coopvec-run %t/w64_f32.mlir --entry=w64_f32 --batch=1000 --random --seed=2 --check | FileCheck %s
// RUN: coopvec-run %t/w127_f32.mlir --entry=w127_f32 --batch=15 --random --seed=3 --check | FileCheck %s
// RUN: coopvec-run %t/w127_f32.mlir --entry=w127_f32 --batch=1000 --random --seed=4 --check | FileCheck %s
// RUN: coopvec-run %t/w128_f16.mlir --entry=w128_f16 --batch=1 --random --seed=5 --check | FileCheck %s
// RUN: coopvec-run %t/w128_f16.mlir --entry=w128_f16 --batch=17 --random --seed=6 --check | FileCheck %s
// RUN: coopvec-run %t/w128_f16.mlir --entry=w128_f16 --batch=1000 --random --seed=7 --check | FileCheck %s
// CHECK: result 0: max abs error {{.*}}: PASS
// CHECK-NEXT: {{^PASS$}}

//--- w64_f32.mlir
// w64_f32: 64 -> 64 -> 16, f32; 5184 elements.
//   64x64 row_major at byte 0, bias at element 4096, relu
//   16x64 col_major at byte 16640, none
func.func @w64_f32(%x: !coopvec.vec<64, f32>, %w: memref<?xf32>) -> !coopvec.vec<16, f32> {
  %c4096 = arith.constant 4096 : index
  %zero = arith.constant 0.0 : f32
  %A1 = "coopvec.matrix_view"(%w) {offset = 0} : (memref<?xf32>) -> !coopvec.matrix<64, 64, f32, "row_major">
  %b1 = "coopvec.load"(%w, %c4096) : (memref<?xf32>, index) -> !coopvec.vec<64, f32>
  %h1 = "coopvec.matvec"(%A1, %x, %b1) : (!coopvec.matrix<64, 64, f32, "row_major">, !coopvec.vec<64, f32>, !coopvec.vec<64, f32>) -> !coopvec.vec<64, f32>
  %a1 = "coopvec.max"(%h1, %zero) : (!coopvec.vec<64, f32>, f32) -> !coopvec.vec<64, f32>
  %A2 = "coopvec.matrix_view"(%w) {offset = 16640} : (memref<?xf32>) -> !coopvec.matrix<16, 64, f32, "col_major">
  %h2 = "coopvec.matvec"(%A2, %a1) : (!coopvec.matrix<16, 64, f32, "col_major">, !coopvec.vec<64, f32>) -> !coopvec.vec<16, f32>
  return %h2 : !coopvec.vec<16, f32>
}

//--- w127_f32.mlir
// w127_f32: 33 -> 127 -> 128 -> 1, f32; 20705 elements.
//   127x33 col_major at byte 0, bias at element 4191, leaky
//   127x128 row_major transposed at byte 17280, softplus
//   1x128 row_major at byte 82304, bias at element 20704, none
func.func @w127_f32(%x: !coopvec.vec<33, f32>, %w: memref<?xf32>) -> !coopvec.vec<1, f32> {
  %c4191 = arith.constant 4191 : index
  %slope = arith.constant 0.01 : f32
  %log2e = arith.constant 1.4426950408889634 : f32
  %one = arith.constant 1.0 : f32
  %ln2 = arith.constant 0.6931471805599453 : f32
  %c20704 = arith.constant 20704 : index
  %A1 = "coopvec.matrix_view"(%w) {offset = 0} : (memref<?xf32>) -> !coopvec.matrix<127, 33, f32, "col_major">
  %b1 = "coopvec.load"(%w, %c4191) : (memref<?xf32>, index) -> !coopvec.vec<127, f32>
  %h1 = "coopvec.matvec"(%A1, %x, %b1) : (!coopvec.matrix<127, 33, f32, "col_major">, !coopvec.vec<33, f32>, !coopvec.vec<127, f32>) -> !coopvec.vec<127, f32>
  %t1 = "coopvec.mul"(%h1, %slope) : (!coopvec.vec<127, f32>, f32) -> !coopvec.vec<127, f32>
  %a1 = "coopvec.max"(%h1, %t1) : (!coopvec.vec<127, f32>, !coopvec.vec<127, f32>) -> !coopvec.vec<127, f32>
  %A2 = "coopvec.matrix_view"(%w) {offset = 17280} : (memref<?xf32>) -> !coopvec.matrix<127, 128, f32, "row_major">
  %h2 = "coopvec.matvec"(%A2, %a1) {transpose} : (!coopvec.matrix<127, 128, f32, "row_major">, !coopvec.vec<127, f32>) -> !coopvec.vec<128, f32>
  %t2 = "coopvec.mul"(%h2, %log2e) : (!coopvec.vec<128, f32>, f32) -> !coopvec.vec<128, f32>
  %t2_2 = "coopvec.exp2"(%t2) : (!coopvec.vec<128, f32>) -> !coopvec.vec<128, f32>
  %t2_3 = "coopvec.add"(%t2_2, %one) : (!coopvec.vec<128, f32>, f32) -> !coopvec.vec<128, f32>
  %t2_4 = "coopvec.log2"(%t2_3) : (!coopvec.vec<128, f32>) -> !coopvec.vec<128, f32>
  %a2 = "coopvec.mul"(%t2_4, %ln2) : (!coopvec.vec<128, f32>, f32) -> !coopvec.vec<128, f32>
  %A3 = "coopvec.matrix_view"(%w) {offset = 82304} : (memref<?xf32>) -> !coopvec.matrix<1, 128, f32, "row_major">
  %b3 = "coopvec.load"(%w, %c20704) : (memref<?xf32>, index) -> !coopvec.vec<1, f32>
  %h3 = "coopvec.matvec"(%A3, %a2, %b3) : (!coopvec.matrix<1, 128, f32, "row_major">, !coopvec.vec<128, f32>, !coopvec.vec<1, f32>) -> !coopvec.vec<1, f32>
  return %h3 : !coopvec.vec<1, f32>
}

//--- w128_f16.mlir
// w128_f16: 127 -> 128 -> 128 -> 64, f16; 41024 elements.
//   128x127 inference at byte 0, bias at element 16256, tanh
//   128x128 row_major at byte 32768, relu
//   128x64 training transposed at byte 65536, bias at element 40960, sigmoid
func.func @w128_f16(%x: !coopvec.vec<127, f16>, %w: memref<?xf16>) -> !coopvec.vec<64, f16> {
  %c16256 = arith.constant 16256 : index
  %zero = arith.constant 0.0 : f16
  %c40960 = arith.constant 40960 : index
  %half = arith.constant 0.5 : f16
  %A1 = "coopvec.matrix_view"(%w) {offset = 0} : (memref<?xf16>) -> !coopvec.matrix<128, 127, f16, "inference">
  %b1 = "coopvec.load"(%w, %c16256) : (memref<?xf16>, index) -> !coopvec.vec<128, f16>
  %h1 = "coopvec.matvec"(%A1, %x, %b1) : (!coopvec.matrix<128, 127, f16, "inference">, !coopvec.vec<127, f16>, !coopvec.vec<128, f16>) -> !coopvec.vec<128, f16>
  %a1 = "coopvec.tanh"(%h1) : (!coopvec.vec<128, f16>) -> !coopvec.vec<128, f16>
  %A2 = "coopvec.matrix_view"(%w) {offset = 32768} : (memref<?xf16>) -> !coopvec.matrix<128, 128, f16, "row_major">
  %h2 = "coopvec.matvec"(%A2, %a1) : (!coopvec.matrix<128, 128, f16, "row_major">, !coopvec.vec<128, f16>) -> !coopvec.vec<128, f16>
  %a2 = "coopvec.max"(%h2, %zero) : (!coopvec.vec<128, f16>, f16) -> !coopvec.vec<128, f16>
  %A3 = "coopvec.matrix_view"(%w) {offset = 65536} : (memref<?xf16>) -> !coopvec.matrix<128, 64, f16, "training">
  %b3 = "coopvec.load"(%w, %c40960) : (memref<?xf16>, index) -> !coopvec.vec<64, f16>
  %h3 = "coopvec.matvec"(%A3, %a2, %b3) {transpose} : (!coopvec.matrix<128, 64, f16, "training">, !coopvec.vec<128, f16>, !coopvec.vec<64, f16>) -> !coopvec.vec<64, f16>
  %t3 = "coopvec.mul"(%h3, %half) : (!coopvec.vec<64, f16>, f16) -> !coopvec.vec<64, f16>
  %t3_2 = "coopvec.tanh"(%t3) : (!coopvec.vec<64, f16>) -> !coopvec.vec<64, f16>
  %a3 = "coopvec.fma"(%t3_2, %half, %half) : (!coopvec.vec<64, f16>, f16, f16) -> !coopvec.vec<64, f16>
  return %a3 : !coopvec.vec<64, f16>
}

