// A one-layer f16 function for ptxas-report.test's --autodiff runs (fast).
func.func @tiny(%x: !coopvec.vec<16, f16>, %w: memref<?xf16>) -> !coopvec.vec<16, f16> {
  %W = "coopvec.matrix_view"(%w) {offset = 0} : (memref<?xf16>) -> !coopvec.matrix<16, 16, f16, "row_major">
  %y = "coopvec.matvec"(%W, %x) : (!coopvec.matrix<16, 16, f16, "row_major">, !coopvec.vec<16, f16>) -> !coopvec.vec<16, f16>
  return %y : !coopvec.vec<16, f16>
}
