// A two-layer per-thread MLP (3 -> 7 -> 1) with ReLU, in generic form.
func.func @mlp(%x: !coopvec.vec<3, f32>, %w: memref<?xf32>, %off: index, %zero: f32) -> !coopvec.vec<1, f32> {
  %A = "coopvec.matrix_view"(%w) {offset = 0} : (memref<?xf32>) -> !coopvec.matrix<7, 3, f32, "row_major">
  %b = "coopvec.load"(%w, %off) : (memref<?xf32>, index) -> !coopvec.vec<7, f32>
  %h = "coopvec.matvec"(%A, %x) : (!coopvec.matrix<7, 3, f32, "row_major">, !coopvec.vec<3, f32>) -> !coopvec.vec<7, f32>
  %hb = "coopvec.add"(%h, %b) : (!coopvec.vec<7, f32>, !coopvec.vec<7, f32>) -> !coopvec.vec<7, f32>
  %r = "coopvec.max"(%hb, %zero) : (!coopvec.vec<7, f32>, f32) -> !coopvec.vec<7, f32>
  %B = "coopvec.matrix_view"(%w) {offset = 128} : (memref<?xf32>) -> !coopvec.matrix<1, 7, f32, "row_major">
  %y = "coopvec.matvec"(%B, %r) : (!coopvec.matrix<1, 7, f32, "row_major">, !coopvec.vec<7, f32>) -> !coopvec.vec<1, f32>
  return %y : !coopvec.vec<1, f32>
}
