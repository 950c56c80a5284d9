// The per-sample work of examples/raymarch.mlir, straight-line
// (bench/per-thread-cpu): each thread evaluates one sample of the
// radiance field with the ops of the ray marcher's loop body, minus the
// loop, its masks and the composite. The benchmark compares the ray
// marcher's GFLOP/s over all the samples its rays took with @field's over
// as many samples: the difference is the price of the loop, its masks and
// its early exits.
//
// Sample %s (4 floats): the point p = (s0, s1, s2); s3 is not read.
// Result (r, g, b, alpha): the sample's colour and opacity
// alpha = 1 - exp(-sigma dt), dt = 1/16, as the ray marcher composites it.
//
// The encoding, the MLP 12 -> 32 -> 32 -> 4 (ReLU, f32) and the weight
// buffer %w (1604 floats, the same offsets) are those of
// examples/raymarch.mlir.
//
// @field loads each bias right before its matvec, as examples/mlp.mlir
// does: the CPU lowering then starts the matvec's sums from the weight
// buffer. @field_as_loop is the same function with the bias loads first,
// in the ray marcher's order (there they sit before the loop, read once per
// group of lanes); straight-line, that order costs a tile of broadcast
// biases filled per group (docs/performance.md, "Per-thread programs").
func.func @field(%s: !coopvec.vec<4, f32>, %w: memref<?xf32>) -> !coopvec.vec<4, f32> {
  %zero = arith.constant 0.0 : f32
  %half = arith.constant 0.5 : f32
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %m2 = arith.constant -2.0 : f32
  %pi = arith.constant 3.14159265 : f32
  %dt = arith.constant 0.0625 : f32

  %W0 = "coopvec.matrix_view"(%w) {offset = 0} : (memref<?xf32>) -> !coopvec.matrix<32, 12, f32, "row_major">
  %W1 = "coopvec.matrix_view"(%w) {offset = 1664} : (memref<?xf32>) -> !coopvec.matrix<32, 32, f32, "row_major">
  %W2 = "coopvec.matrix_view"(%w) {offset = 5888} : (memref<?xf32>) -> !coopvec.matrix<4, 32, f32, "row_major">
  %p:4 = "coopvec.unpack"(%s) : (!coopvec.vec<4, f32>) -> (f32, f32, f32, f32)
  // Positional encoding: sin / cos of pi p, then of 2 pi p by the double
  // angle formulas sin 2a = 2 sin a cos a, cos 2a = 1 - 2 sin^2 a.
  %ax = arith.mulf %p#0, %pi : f32
  %ay = arith.mulf %p#1, %pi : f32
  %az = arith.mulf %p#2, %pi : f32
  %sx = math.sin %ax : f32
  %sy = math.sin %ay : f32
  %sz = math.sin %az : f32
  %cx = math.cos %ax : f32
  %cy = math.cos %ay : f32
  %cz = math.cos %az : f32
  %sx2 = arith.mulf %sx, %cx : f32
  %sy2 = arith.mulf %sy, %cy : f32
  %sz2 = arith.mulf %sz, %cz : f32
  %s2x = arith.mulf %sx2, %two : f32
  %s2y = arith.mulf %sy2, %two : f32
  %s2z = arith.mulf %sz2, %two : f32
  %qx = arith.mulf %sx, %sx : f32
  %qy = arith.mulf %sy, %sy : f32
  %qz = arith.mulf %sz, %sz : f32
  %c2x = math.fma %qx, %m2, %one : f32
  %c2y = math.fma %qy, %m2, %one : f32
  %c2z = math.fma %qz, %m2, %one : f32
  %enc = "coopvec.from_elements"(%sx, %sy, %sz, %cx, %cy, %cz, %s2x, %s2y, %s2z, %c2x, %c2y, %c2z) : (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32) -> !coopvec.vec<12, f32>
  // The field: 12 -> 32 -> 32 -> 4, ReLU (matvecs with their biases).
  %o0 = arith.constant 384 : index
  %b0 = "coopvec.load"(%w, %o0) : (memref<?xf32>, index) -> !coopvec.vec<32, f32>
  %y0 = "coopvec.matvec"(%W0, %enc, %b0) : (!coopvec.matrix<32, 12, f32, "row_major">, !coopvec.vec<12, f32>, !coopvec.vec<32, f32>) -> !coopvec.vec<32, f32>
  %h0 = "coopvec.max"(%y0, %zero) : (!coopvec.vec<32, f32>, f32) -> !coopvec.vec<32, f32>
  %o1 = arith.constant 1440 : index
  %b1 = "coopvec.load"(%w, %o1) : (memref<?xf32>, index) -> !coopvec.vec<32, f32>
  %y1 = "coopvec.matvec"(%W1, %h0, %b1) : (!coopvec.matrix<32, 32, f32, "row_major">, !coopvec.vec<32, f32>, !coopvec.vec<32, f32>) -> !coopvec.vec<32, f32>
  %h1 = "coopvec.max"(%y1, %zero) : (!coopvec.vec<32, f32>, f32) -> !coopvec.vec<32, f32>
  %o2 = arith.constant 1600 : index
  %b2 = "coopvec.load"(%w, %o2) : (memref<?xf32>, index) -> !coopvec.vec<4, f32>
  %y = "coopvec.matvec"(%W2, %h1, %b2) : (!coopvec.matrix<4, 32, f32, "row_major">, !coopvec.vec<32, f32>, !coopvec.vec<4, f32>) -> !coopvec.vec<4, f32>
  %out:4 = "coopvec.unpack"(%y) : (!coopvec.vec<4, f32>) -> (f32, f32, f32, f32)
  // Density and colour.
  %sigma = arith.maximumf %out#0, %zero : f32
  %tr = math.tanh %out#1 : f32
  %tg = math.tanh %out#2 : f32
  %tb = math.tanh %out#3 : f32
  %cr = math.fma %tr, %half, %half : f32
  %cg = math.fma %tg, %half, %half : f32
  %cb = math.fma %tb, %half, %half : f32
  // The sample's opacity: it lets through exp(-sigma dt) of the light.
  %sigma_dt = arith.mulf %sigma, %dt : f32
  %minus = arith.negf %sigma_dt : f32
  %pass = math.exp %minus : f32
  %alpha = arith.subf %one, %pass : f32
  %result = "coopvec.from_elements"(%cr, %cg, %cb, %alpha) : (f32, f32, f32, f32) -> !coopvec.vec<4, f32>
  return %result : !coopvec.vec<4, f32>
}

// @field with the bias loads where the ray marcher has them (first).
func.func @field_as_loop(%s: !coopvec.vec<4, f32>, %w: memref<?xf32>) -> !coopvec.vec<4, f32> {
  %zero = arith.constant 0.0 : f32
  %half = arith.constant 0.5 : f32
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %m2 = arith.constant -2.0 : f32
  %pi = arith.constant 3.14159265 : f32
  %dt = arith.constant 0.0625 : f32

  %W0 = "coopvec.matrix_view"(%w) {offset = 0} : (memref<?xf32>) -> !coopvec.matrix<32, 12, f32, "row_major">
  %o0 = arith.constant 384 : index
  %b0 = "coopvec.load"(%w, %o0) : (memref<?xf32>, index) -> !coopvec.vec<32, f32>
  %W1 = "coopvec.matrix_view"(%w) {offset = 1664} : (memref<?xf32>) -> !coopvec.matrix<32, 32, f32, "row_major">
  %o1 = arith.constant 1440 : index
  %b1 = "coopvec.load"(%w, %o1) : (memref<?xf32>, index) -> !coopvec.vec<32, f32>
  %W2 = "coopvec.matrix_view"(%w) {offset = 5888} : (memref<?xf32>) -> !coopvec.matrix<4, 32, f32, "row_major">
  %o2 = arith.constant 1600 : index
  %b2 = "coopvec.load"(%w, %o2) : (memref<?xf32>, index) -> !coopvec.vec<4, f32>

  %p:4 = "coopvec.unpack"(%s) : (!coopvec.vec<4, f32>) -> (f32, f32, f32, f32)
  // Positional encoding: sin / cos of pi p, then of 2 pi p by the double
  // angle formulas sin 2a = 2 sin a cos a, cos 2a = 1 - 2 sin^2 a.
  %ax = arith.mulf %p#0, %pi : f32
  %ay = arith.mulf %p#1, %pi : f32
  %az = arith.mulf %p#2, %pi : f32
  %sx = math.sin %ax : f32
  %sy = math.sin %ay : f32
  %sz = math.sin %az : f32
  %cx = math.cos %ax : f32
  %cy = math.cos %ay : f32
  %cz = math.cos %az : f32
  %sx2 = arith.mulf %sx, %cx : f32
  %sy2 = arith.mulf %sy, %cy : f32
  %sz2 = arith.mulf %sz, %cz : f32
  %s2x = arith.mulf %sx2, %two : f32
  %s2y = arith.mulf %sy2, %two : f32
  %s2z = arith.mulf %sz2, %two : f32
  %qx = arith.mulf %sx, %sx : f32
  %qy = arith.mulf %sy, %sy : f32
  %qz = arith.mulf %sz, %sz : f32
  %c2x = math.fma %qx, %m2, %one : f32
  %c2y = math.fma %qy, %m2, %one : f32
  %c2z = math.fma %qz, %m2, %one : f32
  %enc = "coopvec.from_elements"(%sx, %sy, %sz, %cx, %cy, %cz, %s2x, %s2y, %s2z, %c2x, %c2y, %c2z) : (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32) -> !coopvec.vec<12, f32>
  // The field: 12 -> 32 -> 32 -> 4, ReLU (matvecs with their biases).
  %y0 = "coopvec.matvec"(%W0, %enc, %b0) : (!coopvec.matrix<32, 12, f32, "row_major">, !coopvec.vec<12, f32>, !coopvec.vec<32, f32>) -> !coopvec.vec<32, f32>
  %h0 = "coopvec.max"(%y0, %zero) : (!coopvec.vec<32, f32>, f32) -> !coopvec.vec<32, f32>
  %y1 = "coopvec.matvec"(%W1, %h0, %b1) : (!coopvec.matrix<32, 32, f32, "row_major">, !coopvec.vec<32, f32>, !coopvec.vec<32, f32>) -> !coopvec.vec<32, f32>
  %h1 = "coopvec.max"(%y1, %zero) : (!coopvec.vec<32, f32>, f32) -> !coopvec.vec<32, f32>
  %y = "coopvec.matvec"(%W2, %h1, %b2) : (!coopvec.matrix<4, 32, f32, "row_major">, !coopvec.vec<32, f32>, !coopvec.vec<4, f32>) -> !coopvec.vec<4, f32>
  %out:4 = "coopvec.unpack"(%y) : (!coopvec.vec<4, f32>) -> (f32, f32, f32, f32)
  // Density and colour.
  %sigma = arith.maximumf %out#0, %zero : f32
  %tr = math.tanh %out#1 : f32
  %tg = math.tanh %out#2 : f32
  %tb = math.tanh %out#3 : f32
  %cr = math.fma %tr, %half, %half : f32
  %cg = math.fma %tg, %half, %half : f32
  %cb = math.fma %tb, %half, %half : f32
  // The sample's opacity: it lets through exp(-sigma dt) of the light.
  %sigma_dt = arith.mulf %sigma, %dt : f32
  %minus = arith.negf %sigma_dt : f32
  %pass = math.exp %minus : f32
  %alpha = arith.subf %one, %pass : f32
  %result = "coopvec.from_elements"(%cr, %cg, %cb, %alpha) : (f32, f32, f32, f32) -> !coopvec.vec<4, f32>
  return %result : !coopvec.vec<4, f32>
}
