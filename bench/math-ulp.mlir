// The transcendental ops measured by bench/math-ulp.c: one thread per input,
// lowered by coopvec-lower-to-cpu like any program (f16 is widened to f32,
// computed and rounded back, as in every lowered function).
func.func @math_f32(%x: !coopvec.vec<1, f32>)
    -> (!coopvec.vec<1, f32>, !coopvec.vec<1, f32>, !coopvec.vec<1, f32>) {
  %e = "coopvec.exp2"(%x) : (!coopvec.vec<1, f32>) -> !coopvec.vec<1, f32>
  %l = "coopvec.log2"(%x) : (!coopvec.vec<1, f32>) -> !coopvec.vec<1, f32>
  %t = "coopvec.tanh"(%x) : (!coopvec.vec<1, f32>) -> !coopvec.vec<1, f32>
  return %e, %l, %t : !coopvec.vec<1, f32>, !coopvec.vec<1, f32>, !coopvec.vec<1, f32>
}

func.func @math_f16(%x: !coopvec.vec<1, f16>)
    -> (!coopvec.vec<1, f16>, !coopvec.vec<1, f16>, !coopvec.vec<1, f16>) {
  %e = "coopvec.exp2"(%x) : (!coopvec.vec<1, f16>) -> !coopvec.vec<1, f16>
  %l = "coopvec.log2"(%x) : (!coopvec.vec<1, f16>) -> !coopvec.vec<1, f16>
  %t = "coopvec.tanh"(%x) : (!coopvec.vec<1, f16>) -> !coopvec.vec<1, f16>
  return %e, %l, %t : !coopvec.vec<1, f16>, !coopvec.vec<1, f16>, !coopvec.vec<1, f16>
}
