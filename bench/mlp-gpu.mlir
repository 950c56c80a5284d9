// The programs of bench/mlp-gpu: 32 -> W -> W -> W -> W -> 16, five matvecs
// with ReLU after all but the last (linear) layer, f16 storage (inputs,
// weights, biases, outputs), for W = 64 and 128. Each weight buffer holds,
// per layer, the row-major W (out x in) followed by the bias b (out);
// matrix_view offsets are in bytes, load offsets in elements.
//   @mlp_relu64:  elements 0 / 2048 / 2112 / 6208 / 6272 / 10368 / 10432 /
//                 14528 / 14592 / 15616; 15632 in all
//   @mlp_relu128: elements 0 / 4096 / 4224 / 20608 / 20736 / 37120 / 37248 /
//                 53632 / 53760 / 55808; 55824 in all
func.func @mlp_relu64(%x: !coopvec.vec<32, f16>, %w: memref<?xf16>) -> !coopvec.vec<16, f16> {
  %zero = arith.constant 0.0 : f16
  %W0 = "coopvec.matrix_view"(%w) {offset = 0} : (memref<?xf16>) -> !coopvec.matrix<64, 32, f16, "row_major">
  %boff0 = arith.constant 2048 : index
  %b0 = "coopvec.load"(%w, %boff0) : (memref<?xf16>, index) -> !coopvec.vec<64, f16>
  %y0 = "coopvec.matvec"(%W0, %x, %b0) : (!coopvec.matrix<64, 32, f16, "row_major">, !coopvec.vec<32, f16>, !coopvec.vec<64, f16>) -> !coopvec.vec<64, f16>
  %h0 = "coopvec.max"(%y0, %zero) : (!coopvec.vec<64, f16>, f16) -> !coopvec.vec<64, f16>
  %W1 = "coopvec.matrix_view"(%w) {offset = 4224} : (memref<?xf16>) -> !coopvec.matrix<64, 64, f16, "row_major">
  %boff1 = arith.constant 6208 : index
  %b1 = "coopvec.load"(%w, %boff1) : (memref<?xf16>, index) -> !coopvec.vec<64, f16>
  %y1 = "coopvec.matvec"(%W1, %h0, %b1) : (!coopvec.matrix<64, 64, f16, "row_major">, !coopvec.vec<64, f16>, !coopvec.vec<64, f16>) -> !coopvec.vec<64, f16>
  %h1 = "coopvec.max"(%y1, %zero) : (!coopvec.vec<64, f16>, f16) -> !coopvec.vec<64, f16>
  %W2 = "coopvec.matrix_view"(%w) {offset = 12544} : (memref<?xf16>) -> !coopvec.matrix<64, 64, f16, "row_major">
  %boff2 = arith.constant 10368 : index
  %b2 = "coopvec.load"(%w, %boff2) : (memref<?xf16>, index) -> !coopvec.vec<64, f16>
  %y2 = "coopvec.matvec"(%W2, %h1, %b2) : (!coopvec.matrix<64, 64, f16, "row_major">, !coopvec.vec<64, f16>, !coopvec.vec<64, f16>) -> !coopvec.vec<64, f16>
  %h2 = "coopvec.max"(%y2, %zero) : (!coopvec.vec<64, f16>, f16) -> !coopvec.vec<64, f16>
  %W3 = "coopvec.matrix_view"(%w) {offset = 20864} : (memref<?xf16>) -> !coopvec.matrix<64, 64, f16, "row_major">
  %boff3 = arith.constant 14528 : index
  %b3 = "coopvec.load"(%w, %boff3) : (memref<?xf16>, index) -> !coopvec.vec<64, f16>
  %y3 = "coopvec.matvec"(%W3, %h2, %b3) : (!coopvec.matrix<64, 64, f16, "row_major">, !coopvec.vec<64, f16>, !coopvec.vec<64, f16>) -> !coopvec.vec<64, f16>
  %h3 = "coopvec.max"(%y3, %zero) : (!coopvec.vec<64, f16>, f16) -> !coopvec.vec<64, f16>
  %W4 = "coopvec.matrix_view"(%w) {offset = 29184} : (memref<?xf16>) -> !coopvec.matrix<16, 64, f16, "row_major">
  %boff4 = arith.constant 15616 : index
  %b4 = "coopvec.load"(%w, %boff4) : (memref<?xf16>, index) -> !coopvec.vec<16, f16>
  %y4 = "coopvec.matvec"(%W4, %h3, %b4) : (!coopvec.matrix<16, 64, f16, "row_major">, !coopvec.vec<64, f16>, !coopvec.vec<16, f16>) -> !coopvec.vec<16, f16>
  return %y4 : !coopvec.vec<16, f16>
}

func.func @mlp_relu128(%x: !coopvec.vec<32, f16>, %w: memref<?xf16>) -> !coopvec.vec<16, f16> {
  %zero = arith.constant 0.0 : f16
  %W0 = "coopvec.matrix_view"(%w) {offset = 0} : (memref<?xf16>) -> !coopvec.matrix<128, 32, f16, "row_major">
  %boff0 = arith.constant 4096 : index
  %b0 = "coopvec.load"(%w, %boff0) : (memref<?xf16>, index) -> !coopvec.vec<128, f16>
  %y0 = "coopvec.matvec"(%W0, %x, %b0) : (!coopvec.matrix<128, 32, f16, "row_major">, !coopvec.vec<32, f16>, !coopvec.vec<128, f16>) -> !coopvec.vec<128, f16>
  %h0 = "coopvec.max"(%y0, %zero) : (!coopvec.vec<128, f16>, f16) -> !coopvec.vec<128, f16>
  %W1 = "coopvec.matrix_view"(%w) {offset = 8448} : (memref<?xf16>) -> !coopvec.matrix<128, 128, f16, "row_major">
  %boff1 = arith.constant 20608 : index
  %b1 = "coopvec.load"(%w, %boff1) : (memref<?xf16>, index) -> !coopvec.vec<128, f16>
  %y1 = "coopvec.matvec"(%W1, %h0, %b1) : (!coopvec.matrix<128, 128, f16, "row_major">, !coopvec.vec<128, f16>, !coopvec.vec<128, f16>) -> !coopvec.vec<128, f16>
  %h1 = "coopvec.max"(%y1, %zero) : (!coopvec.vec<128, f16>, f16) -> !coopvec.vec<128, f16>
  %W2 = "coopvec.matrix_view"(%w) {offset = 41472} : (memref<?xf16>) -> !coopvec.matrix<128, 128, f16, "row_major">
  %boff2 = arith.constant 37120 : index
  %b2 = "coopvec.load"(%w, %boff2) : (memref<?xf16>, index) -> !coopvec.vec<128, f16>
  %y2 = "coopvec.matvec"(%W2, %h1, %b2) : (!coopvec.matrix<128, 128, f16, "row_major">, !coopvec.vec<128, f16>, !coopvec.vec<128, f16>) -> !coopvec.vec<128, f16>
  %h2 = "coopvec.max"(%y2, %zero) : (!coopvec.vec<128, f16>, f16) -> !coopvec.vec<128, f16>
  %W3 = "coopvec.matrix_view"(%w) {offset = 74496} : (memref<?xf16>) -> !coopvec.matrix<128, 128, f16, "row_major">
  %boff3 = arith.constant 53632 : index
  %b3 = "coopvec.load"(%w, %boff3) : (memref<?xf16>, index) -> !coopvec.vec<128, f16>
  %y3 = "coopvec.matvec"(%W3, %h2, %b3) : (!coopvec.matrix<128, 128, f16, "row_major">, !coopvec.vec<128, f16>, !coopvec.vec<128, f16>) -> !coopvec.vec<128, f16>
  %h3 = "coopvec.max"(%y3, %zero) : (!coopvec.vec<128, f16>, f16) -> !coopvec.vec<128, f16>
  %W4 = "coopvec.matrix_view"(%w) {offset = 107520} : (memref<?xf16>) -> !coopvec.matrix<16, 128, f16, "row_major">
  %boff4 = arith.constant 55808 : index
  %b4 = "coopvec.load"(%w, %boff4) : (memref<?xf16>, index) -> !coopvec.vec<16, f16>
  %y4 = "coopvec.matvec"(%W4, %h3, %b4) : (!coopvec.matrix<16, 128, f16, "row_major">, !coopvec.vec<128, f16>, !coopvec.vec<16, f16>) -> !coopvec.vec<16, f16>
  return %y4 : !coopvec.vec<16, f16>
}
