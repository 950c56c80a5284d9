func.func @f(%x: !coopvec.vec<4, f32>) {
  return
}
