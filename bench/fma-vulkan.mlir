// The price of f32 fmas rounded once on Vulkan (coopvec-prepare-spirv
// computes them in f64, docs/passes.md): @fma16 chains 16 coopvec.fma on a
// vec<32, f32> per thread, @tanh applies the math library's tanh (its
// polynomial and exp code use fma) to one. Measured with `coopvec-run
// --target=vulkan --time` against the commit before the change
// (docs/performance.md, "f32 fma on Vulkan").
func.func @fma16(%x: !coopvec.vec<32, f32>) -> !coopvec.vec<32, f32> {
  %k = arith.constant 0.999 : f32
  %b = arith.constant 0.001 : f32
  %y0 = "coopvec.fma"(%x, %k, %b) : (!coopvec.vec<32, f32>, f32, f32) -> !coopvec.vec<32, f32>
  %y1 = "coopvec.fma"(%y0, %k, %b) : (!coopvec.vec<32, f32>, f32, f32) -> !coopvec.vec<32, f32>
  %y2 = "coopvec.fma"(%y1, %k, %b) : (!coopvec.vec<32, f32>, f32, f32) -> !coopvec.vec<32, f32>
  %y3 = "coopvec.fma"(%y2, %k, %b) : (!coopvec.vec<32, f32>, f32, f32) -> !coopvec.vec<32, f32>
  %y4 = "coopvec.fma"(%y3, %k, %b) : (!coopvec.vec<32, f32>, f32, f32) -> !coopvec.vec<32, f32>
  %y5 = "coopvec.fma"(%y4, %k, %b) : (!coopvec.vec<32, f32>, f32, f32) -> !coopvec.vec<32, f32>
  %y6 = "coopvec.fma"(%y5, %k, %b) : (!coopvec.vec<32, f32>, f32, f32) -> !coopvec.vec<32, f32>
  %y7 = "coopvec.fma"(%y6, %k, %b) : (!coopvec.vec<32, f32>, f32, f32) -> !coopvec.vec<32, f32>
  %y8 = "coopvec.fma"(%y7, %k, %b) : (!coopvec.vec<32, f32>, f32, f32) -> !coopvec.vec<32, f32>
  %y9 = "coopvec.fma"(%y8, %k, %b) : (!coopvec.vec<32, f32>, f32, f32) -> !coopvec.vec<32, f32>
  %y10 = "coopvec.fma"(%y9, %k, %b) : (!coopvec.vec<32, f32>, f32, f32) -> !coopvec.vec<32, f32>
  %y11 = "coopvec.fma"(%y10, %k, %b) : (!coopvec.vec<32, f32>, f32, f32) -> !coopvec.vec<32, f32>
  %y12 = "coopvec.fma"(%y11, %k, %b) : (!coopvec.vec<32, f32>, f32, f32) -> !coopvec.vec<32, f32>
  %y13 = "coopvec.fma"(%y12, %k, %b) : (!coopvec.vec<32, f32>, f32, f32) -> !coopvec.vec<32, f32>
  %y14 = "coopvec.fma"(%y13, %k, %b) : (!coopvec.vec<32, f32>, f32, f32) -> !coopvec.vec<32, f32>
  %y15 = "coopvec.fma"(%y14, %k, %b) : (!coopvec.vec<32, f32>, f32, f32) -> !coopvec.vec<32, f32>
  return %y15 : !coopvec.vec<32, f32>
}

func.func @tanh(%x: !coopvec.vec<32, f32>) -> !coopvec.vec<32, f32> {
  %y = "coopvec.tanh"(%x) : (!coopvec.vec<32, f32>) -> !coopvec.vec<32, f32>
  return %y : !coopvec.vec<32, f32>
}
