// The exact math ops of a per-thread program through coopvec-lower-to-nvvm:
// each is one PTX instruction, rounded as C's function (cvt.rmi / rpi /
// rzi are floor / ceil / trunc, round's halves away from zero are LLVM's
// trunc(x + copysign(0.5, x)) with selects for |x| < 0.5 and |x| >= 2^23),
// with subnormals kept (no .ftz), and no libdevice call (__nv_floorf ...),
// which would need a CUDA toolkit at link time. f16 floor / ceil / trunc /
// abs are native on sm_80; sqrt is computed in f32 (sqrt.rn.f32) and rounded
// once more, which is still correctly rounded. arith.remf is
// coopvec-expand-math's exact code (no __nv_fmodf).
// RUN: coopvec-opt %s --coopvec-lower-to-nvvm --emit=ptx | FileCheck %s --implicit-check-not='{{__nv_|\.ftz}}'

// CHECK: .entry
// CHECK-DAG: cvt.rmi.f32.f32
// CHECK-DAG: cvt.rpi.f32.f32
// CHECK-DAG: cvt.rzi.f32.f32
// CHECK-DAG: abs.f32
// CHECK-DAG: copysign.f32
// CHECK-DAG: sqrt.rn.f32
// CHECK-DAG: cvt.rmi.f16.f16
// CHECK-DAG: cvt.rpi.f16.f16
// CHECK-DAG: cvt.rzi.f16.f16
// CHECK-DAG: abs.f16
// CHECK-DAG: cvt.f32.f16
// CHECK-DAG: fma.rn.f16
// CHECK: ret;

func.func @exact(%x: !coopvec.vec<4, f32>) -> (!coopvec.vec<8, f32>, !coopvec.vec<8, f16>) {
  %e:4 = "coopvec.unpack"(%x) : (!coopvec.vec<4, f32>) -> (f32, f32, f32, f32)
  %fl = math.floor %e#0 : f32
  %ce = math.ceil %e#1 : f32
  %ro = math.round %e#2 : f32
  %tr = math.trunc %e#3 : f32
  %ab = math.absf %e#0 : f32
  %cs = math.copysign %e#1, %e#2 : f32
  %sq = math.sqrt %e#3 : f32
  %rm = arith.remf %e#0, %e#1 : f32
  %r0 = "coopvec.from_elements"(%fl, %ce, %ro, %tr, %ab, %cs, %sq, %rm) : (f32, f32, f32, f32, f32, f32, f32, f32) -> !coopvec.vec<8, f32>
  %h:4 = "coopvec.unpack"(%x) : (!coopvec.vec<4, f32>) -> (f32, f32, f32, f32)
  %a = arith.truncf %h#0 : f32 to f16
  %b = arith.truncf %h#1 : f32 to f16
  %hfl = math.floor %a : f16
  %hce = math.ceil %b : f16
  %hro = math.round %a : f16
  %htr = math.trunc %b : f16
  %hab = math.absf %a : f16
  %hcs = math.copysign %a, %b : f16
  %hsq = math.sqrt %b : f16
  %hfma = math.fma %a, %b, %hab : f16
  %r1 = "coopvec.from_elements"(%hfl, %hce, %hro, %htr, %hcs, %hsq, %hfma, %hfma) : (f16, f16, f16, f16, f16, f16, f16, f16) -> !coopvec.vec<8, f16>
  return %r0, %r1 : !coopvec.vec<8, f32>, !coopvec.vec<8, f16>
}
