// The demo MLP: 32 -> 64 -> 64 -> 64 -> 16, ReLU between layers, f32.
// Per-thread semantics: each thread maps its own 32-vector to a 16-vector;
// all threads share the packed weight buffer %w, which holds, per layer,
// the row-major weight matrix W (out x in) followed by the bias b (out).
// Weight buffer size: 11472 floats.
func.func @mlp(%x: !coopvec.vec<32, f32>, %w: memref<?xf32>) -> !coopvec.vec<16, f32> {
  %zero = arith.constant 0.0 : f32
  %W0 = "coopvec.matrix_view"(%w) {offset = 0} : (memref<?xf32>) -> !coopvec.matrix<64, 32, f32, "row_major">
  %boff0 = arith.constant 2048 : index
  %b0 = "coopvec.load"(%w, %boff0) : (memref<?xf32>, index) -> !coopvec.vec<64, f32>
  %y0 = "coopvec.matvec"(%W0, %x, %b0) : (!coopvec.matrix<64, 32, f32, "row_major">, !coopvec.vec<32, f32>, !coopvec.vec<64, f32>) -> !coopvec.vec<64, f32>
  %h0 = "coopvec.max"(%y0, %zero) : (!coopvec.vec<64, f32>, f32) -> !coopvec.vec<64, f32>
  %W1 = "coopvec.matrix_view"(%w) {offset = 8448} : (memref<?xf32>) -> !coopvec.matrix<64, 64, f32, "row_major">
  %boff1 = arith.constant 6208 : index
  %b1 = "coopvec.load"(%w, %boff1) : (memref<?xf32>, index) -> !coopvec.vec<64, f32>
  %y1 = "coopvec.matvec"(%W1, %h0, %b1) : (!coopvec.matrix<64, 64, f32, "row_major">, !coopvec.vec<64, f32>, !coopvec.vec<64, f32>) -> !coopvec.vec<64, f32>
  %h1 = "coopvec.max"(%y1, %zero) : (!coopvec.vec<64, f32>, f32) -> !coopvec.vec<64, f32>
  %W2 = "coopvec.matrix_view"(%w) {offset = 25088} : (memref<?xf32>) -> !coopvec.matrix<64, 64, f32, "row_major">
  %boff2 = arith.constant 10368 : index
  %b2 = "coopvec.load"(%w, %boff2) : (memref<?xf32>, index) -> !coopvec.vec<64, f32>
  %y2 = "coopvec.matvec"(%W2, %h1, %b2) : (!coopvec.matrix<64, 64, f32, "row_major">, !coopvec.vec<64, f32>, !coopvec.vec<64, f32>) -> !coopvec.vec<64, f32>
  %h2 = "coopvec.max"(%y2, %zero) : (!coopvec.vec<64, f32>, f32) -> !coopvec.vec<64, f32>
  %W3 = "coopvec.matrix_view"(%w) {offset = 41728} : (memref<?xf32>) -> !coopvec.matrix<16, 64, f32, "row_major">
  %boff3 = arith.constant 11456 : index
  %b3 = "coopvec.load"(%w, %boff3) : (memref<?xf32>, index) -> !coopvec.vec<16, f32>
  %y3 = "coopvec.matvec"(%W3, %h2, %b3) : (!coopvec.matrix<16, 64, f32, "row_major">, !coopvec.vec<64, f32>, !coopvec.vec<16, f32>) -> !coopvec.vec<16, f32>
  return %y3 : !coopvec.vec<16, f32>
}
