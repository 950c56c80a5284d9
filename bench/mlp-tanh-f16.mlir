// The second workload of bench/mlp-cpu: 32 -> W -> W -> W -> 16 with tanh
// between layers and f16 storage (inputs, weights, biases, outputs; f32
// arithmetic and accumulation, as the dialect has it), for W = 64 and 128.
// Each weight buffer holds, per layer, the row-major W (out x in) followed
// by the bias b (out); matrix_view offsets are in bytes.
//   @mlp_tanh64:  elements 0 / 2048 / 2112 / 6208 / 6272 / 10368 / 10432 /
//                 11456; 11472 in all
//   @mlp_tanh128: elements 0 / 4096 / 4224 / 20608 / 20736 / 37120 / 37248 /
//                 39296; 39312 in all
func.func @mlp_tanh64(%x: !coopvec.vec<32, f16>, %w: memref<?xf16>) -> !coopvec.vec<16, f16> {
  %W0 = "coopvec.matrix_view"(%w) {offset = 0} : (memref<?xf16>) -> !coopvec.matrix<64, 32, f16, "row_major">
  %boff0 = arith.constant 2048 : index
  %b0 = "coopvec.load"(%w, %boff0) : (memref<?xf16>, index) -> !coopvec.vec<64, f16>
  %y0 = "coopvec.matvec"(%W0, %x, %b0) : (!coopvec.matrix<64, 32, f16, "row_major">, !coopvec.vec<32, f16>, !coopvec.vec<64, f16>) -> !coopvec.vec<64, f16>
  %h0 = "coopvec.tanh"(%y0) : (!coopvec.vec<64, f16>) -> !coopvec.vec<64, f16>
  %W1 = "coopvec.matrix_view"(%w) {offset = 4224} : (memref<?xf16>) -> !coopvec.matrix<64, 64, f16, "row_major">
  %boff1 = arith.constant 6208 : index
  %b1 = "coopvec.load"(%w, %boff1) : (memref<?xf16>, index) -> !coopvec.vec<64, f16>
  %y1 = "coopvec.matvec"(%W1, %h0, %b1) : (!coopvec.matrix<64, 64, f16, "row_major">, !coopvec.vec<64, f16>, !coopvec.vec<64, f16>) -> !coopvec.vec<64, f16>
  %h1 = "coopvec.tanh"(%y1) : (!coopvec.vec<64, f16>) -> !coopvec.vec<64, f16>
  %W2 = "coopvec.matrix_view"(%w) {offset = 12544} : (memref<?xf16>) -> !coopvec.matrix<64, 64, f16, "row_major">
  %boff2 = arith.constant 10368 : index
  %b2 = "coopvec.load"(%w, %boff2) : (memref<?xf16>, index) -> !coopvec.vec<64, f16>
  %y2 = "coopvec.matvec"(%W2, %h1, %b2) : (!coopvec.matrix<64, 64, f16, "row_major">, !coopvec.vec<64, f16>, !coopvec.vec<64, f16>) -> !coopvec.vec<64, f16>
  %h2 = "coopvec.tanh"(%y2) : (!coopvec.vec<64, f16>) -> !coopvec.vec<64, f16>
  %W3 = "coopvec.matrix_view"(%w) {offset = 20864} : (memref<?xf16>) -> !coopvec.matrix<16, 64, f16, "row_major">
  %boff3 = arith.constant 11456 : index
  %b3 = "coopvec.load"(%w, %boff3) : (memref<?xf16>, index) -> !coopvec.vec<16, f16>
  %y3 = "coopvec.matvec"(%W3, %h2, %b3) : (!coopvec.matrix<16, 64, f16, "row_major">, !coopvec.vec<64, f16>, !coopvec.vec<16, f16>) -> !coopvec.vec<16, f16>
  return %y3 : !coopvec.vec<16, f16>
}

func.func @mlp_tanh128(%x: !coopvec.vec<32, f16>, %w: memref<?xf16>) -> !coopvec.vec<16, f16> {
  %W0 = "coopvec.matrix_view"(%w) {offset = 0} : (memref<?xf16>) -> !coopvec.matrix<128, 32, f16, "row_major">
  %boff0 = arith.constant 4096 : index
  %b0 = "coopvec.load"(%w, %boff0) : (memref<?xf16>, index) -> !coopvec.vec<128, f16>
  %y0 = "coopvec.matvec"(%W0, %x, %b0) : (!coopvec.matrix<128, 32, f16, "row_major">, !coopvec.vec<32, f16>, !coopvec.vec<128, f16>) -> !coopvec.vec<128, f16>
  %h0 = "coopvec.tanh"(%y0) : (!coopvec.vec<128, f16>) -> !coopvec.vec<128, f16>
  %W1 = "coopvec.matrix_view"(%w) {offset = 8448} : (memref<?xf16>) -> !coopvec.matrix<128, 128, f16, "row_major">
  %boff1 = arith.constant 20608 : index
  %b1 = "coopvec.load"(%w, %boff1) : (memref<?xf16>, index) -> !coopvec.vec<128, f16>
  %y1 = "coopvec.matvec"(%W1, %h0, %b1) : (!coopvec.matrix<128, 128, f16, "row_major">, !coopvec.vec<128, f16>, !coopvec.vec<128, f16>) -> !coopvec.vec<128, f16>
  %h1 = "coopvec.tanh"(%y1) : (!coopvec.vec<128, f16>) -> !coopvec.vec<128, f16>
  %W2 = "coopvec.matrix_view"(%w) {offset = 41472} : (memref<?xf16>) -> !coopvec.matrix<128, 128, f16, "row_major">
  %boff2 = arith.constant 37120 : index
  %b2 = "coopvec.load"(%w, %boff2) : (memref<?xf16>, index) -> !coopvec.vec<128, f16>
  %y2 = "coopvec.matvec"(%W2, %h1, %b2) : (!coopvec.matrix<128, 128, f16, "row_major">, !coopvec.vec<128, f16>, !coopvec.vec<128, f16>) -> !coopvec.vec<128, f16>
  %h2 = "coopvec.tanh"(%y2) : (!coopvec.vec<128, f16>) -> !coopvec.vec<128, f16>
  %W3 = "coopvec.matrix_view"(%w) {offset = 74496} : (memref<?xf16>) -> !coopvec.matrix<16, 128, f16, "row_major">
  %boff3 = arith.constant 39296 : index
  %b3 = "coopvec.load"(%w, %boff3) : (memref<?xf16>, index) -> !coopvec.vec<16, f16>
  %y3 = "coopvec.matvec"(%W3, %h2, %b3) : (!coopvec.matrix<16, 128, f16, "row_major">, !coopvec.vec<128, f16>, !coopvec.vec<16, f16>) -> !coopvec.vec<16, f16>
  return %y3 : !coopvec.vec<16, f16>
}
