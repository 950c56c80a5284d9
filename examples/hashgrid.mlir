// A multiresolution hash-grid encoding feeding an MLP (Instant-NGP /
// tiny-cuda-nn style), in 2-D with 2 levels: each thread maps its point
// x to 3 outputs (say the RGB of an image at x).
//
// Point %x (2 floats in [-1, 1) for `coopvec-run --random`): the grid
// coordinates are u = 0.5 + 0.5 x, in [0, 1].
// Level l (resolution N = 16, 32) finds the cell of u * N, hashes each of
// its 4 corners (ix, iy) into a table of T = 2^10 entries,
//   h = ((ix * 1) xor (iy * 2654435761)) mod T        (i32, wrapping)
// gathers the corners' F = 2 features and interpolates them bilinearly.
// The 2 levels' features, concatenated, feed the MLP, 4 -> 32 -> 32 -> 3
// (ReLU, linear output). At N = 32 the 33^2 corners share 2^10 entries
// (1089 corners, 932 distinct entries): they collide, as in Instant-NGP's
// fine levels, where training teaches the MLP to resolve the collisions.
//
// Table %table, f16 (as Instant-NGP keeps it: half the memory and
// bandwidth of f32, and the gathers are its cost): level l, entry h,
// feature f at l * 2048 + 2 * h + f; 4096 elements, not derivable from
// the program (the gathers are at run-time indices): run it with
// `--memref-size=1:4096`. Each corner's 2 features are one coopvec.load
// at its own offset, widened to f32 exactly.
// The MLP is f32: its result is checked at f32's tolerances.
// Weight buffer %w, per layer the row-major matrix W (out x in), then the
// bias b; 1315 floats (coopvec-run sizes it from the views):
//   W0 32x4 at element 0 (byte 0),        b0 at 128
//   W1 32x32 at element 160 (byte 640),   b1 at 1184
//   W2  3x32 at element 1216 (byte 4864), b2 at 1312

// One level: the features at grid point (gx, gy) = u * N, interpolated
// from the level's table, which starts at element %base. @hashgrid calls
// it once per level; the lowering pipelines inline the calls.
func.func private @level(%gx: f32, %gy: f32, %table: memref<?xf16>, %base: index) -> !coopvec.vec<2, f32> {
  %c1 = arith.constant 1 : i32
  %prime = arith.constant 2654435761 : i32    // wraps to -1640531535 in i32
  %mask = arith.constant 1023 : i32           // T - 1
  %c2 = arith.constant 2 : index              // F features per entry
  // The cell (ix, iy) .. (ix + 1, iy + 1) and the position (fx, fy) in it
  // (gx, gy >= 0: rounding toward zero is floor).
  %ix = arith.fptosi %gx : f32 to i32
  %iy = arith.fptosi %gy : f32 to i32
  %x0 = arith.sitofp %ix : i32 to f32
  %y0 = arith.sitofp %iy : i32 to f32
  %fx = arith.subf %gx, %x0 : f32
  %fy = arith.subf %gy, %y0 : f32
  %ix1 = arith.addi %ix, %c1 : i32
  %iy1 = arith.addi %iy, %c1 : i32
  // The spatial hash of each corner, as an offset into the table.
  %hy0 = arith.muli %iy, %prime : i32
  %hy1 = arith.muli %iy1, %prime : i32
  %h00 = arith.xori %ix, %hy0 : i32
  %h10 = arith.xori %ix1, %hy0 : i32
  %h01 = arith.xori %ix, %hy1 : i32
  %h11 = arith.xori %ix1, %hy1 : i32
  %m00 = arith.andi %h00, %mask : i32
  %m10 = arith.andi %h10, %mask : i32
  %m01 = arith.andi %h01, %mask : i32
  %m11 = arith.andi %h11, %mask : i32
  %e00 = arith.index_cast %m00 : i32 to index
  %e10 = arith.index_cast %m10 : i32 to index
  %e01 = arith.index_cast %m01 : i32 to index
  %e11 = arith.index_cast %m11 : i32 to index
  %s00 = arith.muli %e00, %c2 : index
  %s10 = arith.muli %e10, %c2 : index
  %s01 = arith.muli %e01, %c2 : index
  %s11 = arith.muli %e11, %c2 : index
  %o00 = arith.addi %s00, %base : index
  %o10 = arith.addi %s10, %base : index
  %o01 = arith.addi %s01, %base : index
  %o11 = arith.addi %s11, %base : index
  // Gather the 4 corners' features (each thread at its own offsets).
  %v00 = "coopvec.load"(%table, %o00) : (memref<?xf16>, index) -> !coopvec.vec<2, f16>
  %v10 = "coopvec.load"(%table, %o10) : (memref<?xf16>, index) -> !coopvec.vec<2, f16>
  %v01 = "coopvec.load"(%table, %o01) : (memref<?xf16>, index) -> !coopvec.vec<2, f16>
  %v11 = "coopvec.load"(%table, %o11) : (memref<?xf16>, index) -> !coopvec.vec<2, f16>
  %f00 = "coopvec.cast"(%v00) : (!coopvec.vec<2, f16>) -> !coopvec.vec<2, f32>
  %f10 = "coopvec.cast"(%v10) : (!coopvec.vec<2, f16>) -> !coopvec.vec<2, f32>
  %f01 = "coopvec.cast"(%v01) : (!coopvec.vec<2, f16>) -> !coopvec.vec<2, f32>
  %f11 = "coopvec.cast"(%v11) : (!coopvec.vec<2, f16>) -> !coopvec.vec<2, f32>
  // Bilinear interpolation: along x on both rows, then along y.
  %d0 = "coopvec.sub"(%f10, %f00) : (!coopvec.vec<2, f32>, !coopvec.vec<2, f32>) -> !coopvec.vec<2, f32>
  %r0 = "coopvec.fma"(%d0, %fx, %f00) : (!coopvec.vec<2, f32>, f32, !coopvec.vec<2, f32>) -> !coopvec.vec<2, f32>
  %d1 = "coopvec.sub"(%f11, %f01) : (!coopvec.vec<2, f32>, !coopvec.vec<2, f32>) -> !coopvec.vec<2, f32>
  %r1 = "coopvec.fma"(%d1, %fx, %f01) : (!coopvec.vec<2, f32>, f32, !coopvec.vec<2, f32>) -> !coopvec.vec<2, f32>
  %d = "coopvec.sub"(%r1, %r0) : (!coopvec.vec<2, f32>, !coopvec.vec<2, f32>) -> !coopvec.vec<2, f32>
  %r = "coopvec.fma"(%d, %fy, %r0) : (!coopvec.vec<2, f32>, f32, !coopvec.vec<2, f32>) -> !coopvec.vec<2, f32>
  return %r : !coopvec.vec<2, f32>
}

func.func @hashgrid(%x: !coopvec.vec<2, f32>, %table: memref<?xf16>, %w: memref<?xf32>) -> !coopvec.vec<3, f32> {
  %zero = arith.constant 0.0 : f32
  %half = arith.constant 0.5 : f32
  %n0 = arith.constant 16.0 : f32
  %n1 = arith.constant 32.0 : f32
  %base0 = arith.constant 0 : index
  %base1 = arith.constant 2048 : index
  // The encoding: level 0 and level 1, concatenated.
  %xy:2 = "coopvec.unpack"(%x) : (!coopvec.vec<2, f32>) -> (f32, f32)
  %ux = math.fma %xy#0, %half, %half : f32
  %uy = math.fma %xy#1, %half, %half : f32
  %gx0 = arith.mulf %ux, %n0 : f32
  %gy0 = arith.mulf %uy, %n0 : f32
  %gx1 = arith.mulf %ux, %n1 : f32
  %gy1 = arith.mulf %uy, %n1 : f32
  %l0 = func.call @level(%gx0, %gy0, %table, %base0) : (f32, f32, memref<?xf16>, index) -> !coopvec.vec<2, f32>
  %l1 = func.call @level(%gx1, %gy1, %table, %base1) : (f32, f32, memref<?xf16>, index) -> !coopvec.vec<2, f32>
  %a:2 = "coopvec.unpack"(%l0) : (!coopvec.vec<2, f32>) -> (f32, f32)
  %b:2 = "coopvec.unpack"(%l1) : (!coopvec.vec<2, f32>) -> (f32, f32)
  %enc = "coopvec.from_elements"(%a#0, %a#1, %b#0, %b#1) : (f32, f32, f32, f32) -> !coopvec.vec<4, f32>
  // The MLP: 4 -> 32 -> 32 -> 3.
  %W0 = "coopvec.matrix_view"(%w) {offset = 0} : (memref<?xf32>) -> !coopvec.matrix<32, 4, f32, "row_major">
  %o0 = arith.constant 128 : index
  %b0 = "coopvec.load"(%w, %o0) : (memref<?xf32>, index) -> !coopvec.vec<32, f32>
  %y0 = "coopvec.matvec"(%W0, %enc, %b0) : (!coopvec.matrix<32, 4, f32, "row_major">, !coopvec.vec<4, f32>, !coopvec.vec<32, f32>) -> !coopvec.vec<32, f32>
  %h0 = "coopvec.max"(%y0, %zero) : (!coopvec.vec<32, f32>, f32) -> !coopvec.vec<32, f32>
  %W1 = "coopvec.matrix_view"(%w) {offset = 640} : (memref<?xf32>) -> !coopvec.matrix<32, 32, f32, "row_major">
  %o1 = arith.constant 1184 : index
  %b1 = "coopvec.load"(%w, %o1) : (memref<?xf32>, index) -> !coopvec.vec<32, f32>
  %y1 = "coopvec.matvec"(%W1, %h0, %b1) : (!coopvec.matrix<32, 32, f32, "row_major">, !coopvec.vec<32, f32>, !coopvec.vec<32, f32>) -> !coopvec.vec<32, f32>
  %h1 = "coopvec.max"(%y1, %zero) : (!coopvec.vec<32, f32>, f32) -> !coopvec.vec<32, f32>
  %W2 = "coopvec.matrix_view"(%w) {offset = 4864} : (memref<?xf32>) -> !coopvec.matrix<3, 32, f32, "row_major">
  %o2 = arith.constant 1312 : index
  %b2 = "coopvec.load"(%w, %o2) : (memref<?xf32>, index) -> !coopvec.vec<3, f32>
  %y = "coopvec.matvec"(%W2, %h1, %b2) : (!coopvec.matrix<3, 32, f32, "row_major">, !coopvec.vec<32, f32>, !coopvec.vec<3, f32>) -> !coopvec.vec<3, f32>
  return %y : !coopvec.vec<3, f32>
}
