// The price of a branch in a per-thread program (bench/per-thread-cpu).
// @straight is the MLP of examples/mlp.mlir (32 -> 64 -> 64 -> 64 -> 16,
// ReLU, f32; weight buffer 11472 floats), copied op for op. @branched runs
// the same MLP only where the thread's first input exceeds %threshold and
// returns zeros elsewhere. The condition is varying (it reads the thread's
// own vec), so the compiler cannot know whether the lanes of a group agree:
// the benchmark picks the threshold to make them agree (-2: inputs are in
// [-1, 1), every lane takes the MLP; 2: none does) or disagree (0: about
// half the lanes of each group).
//
// @straight_loads_first is @straight with its bias loads moved to the top.
// Like the loads inside @branched's branch (checked at run time there),
// the CPU lowering then reads each bias into a tile of broadcast rows per
// group of lanes instead of starting the matvec's sums from the weight
// buffer: it separates that cost from the branch's own (docs/performance.md,
// "Per-thread programs").
func.func @straight(%x: !coopvec.vec<32, f32>, %w: memref<?xf32>) -> !coopvec.vec<16, f32> {
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

func.func @straight_loads_first(%x: !coopvec.vec<32, f32>, %w: memref<?xf32>) -> !coopvec.vec<16, f32> {
  %zero = arith.constant 0.0 : f32
  %boff0 = arith.constant 2048 : index
  %b0 = "coopvec.load"(%w, %boff0) : (memref<?xf32>, index) -> !coopvec.vec<64, f32>
  %boff1 = arith.constant 6208 : index
  %b1 = "coopvec.load"(%w, %boff1) : (memref<?xf32>, index) -> !coopvec.vec<64, f32>
  %boff2 = arith.constant 10368 : index
  %b2 = "coopvec.load"(%w, %boff2) : (memref<?xf32>, index) -> !coopvec.vec<64, f32>
  %boff3 = arith.constant 11456 : index
  %b3 = "coopvec.load"(%w, %boff3) : (memref<?xf32>, index) -> !coopvec.vec<16, f32>
  %W0 = "coopvec.matrix_view"(%w) {offset = 0} : (memref<?xf32>) -> !coopvec.matrix<64, 32, f32, "row_major">
  %y0 = "coopvec.matvec"(%W0, %x, %b0) : (!coopvec.matrix<64, 32, f32, "row_major">, !coopvec.vec<32, f32>, !coopvec.vec<64, f32>) -> !coopvec.vec<64, f32>
  %h0 = "coopvec.max"(%y0, %zero) : (!coopvec.vec<64, f32>, f32) -> !coopvec.vec<64, f32>
  %W1 = "coopvec.matrix_view"(%w) {offset = 8448} : (memref<?xf32>) -> !coopvec.matrix<64, 64, f32, "row_major">
  %y1 = "coopvec.matvec"(%W1, %h0, %b1) : (!coopvec.matrix<64, 64, f32, "row_major">, !coopvec.vec<64, f32>, !coopvec.vec<64, f32>) -> !coopvec.vec<64, f32>
  %h1 = "coopvec.max"(%y1, %zero) : (!coopvec.vec<64, f32>, f32) -> !coopvec.vec<64, f32>
  %W2 = "coopvec.matrix_view"(%w) {offset = 25088} : (memref<?xf32>) -> !coopvec.matrix<64, 64, f32, "row_major">
  %y2 = "coopvec.matvec"(%W2, %h1, %b2) : (!coopvec.matrix<64, 64, f32, "row_major">, !coopvec.vec<64, f32>, !coopvec.vec<64, f32>) -> !coopvec.vec<64, f32>
  %h2 = "coopvec.max"(%y2, %zero) : (!coopvec.vec<64, f32>, f32) -> !coopvec.vec<64, f32>
  %W3 = "coopvec.matrix_view"(%w) {offset = 41728} : (memref<?xf32>) -> !coopvec.matrix<16, 64, f32, "row_major">
  %y3 = "coopvec.matvec"(%W3, %h2, %b3) : (!coopvec.matrix<16, 64, f32, "row_major">, !coopvec.vec<64, f32>, !coopvec.vec<16, f32>) -> !coopvec.vec<16, f32>
  return %y3 : !coopvec.vec<16, f32>
}

func.func @branched(%x: !coopvec.vec<32, f32>, %w: memref<?xf32>, %threshold: f32) -> !coopvec.vec<16, f32> {
  %e:32 = "coopvec.unpack"(%x) : (!coopvec.vec<32, f32>) -> (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)
  %take = arith.cmpf ogt, %e#0, %threshold : f32
  %r = scf.if %take -> !coopvec.vec<16, f32> {
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
    scf.yield %y3 : !coopvec.vec<16, f32>
  } else {
    %none = arith.constant 0.0 : f32
    %zeros = "coopvec.splat"(%none) : (f32) -> !coopvec.vec<16, f32>
    scf.yield %zeros : !coopvec.vec<16, f32>
  }
  return %r : !coopvec.vec<16, f32>
}
