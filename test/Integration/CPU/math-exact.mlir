// The exact float ops on per-thread values, compared with the reference
// interpreter (C's fmodf, floorf, ...) with no tolerance (NaN matches NaN):
// arith.remf (coopvec-expand-math's exact fmod code on every target) and
// math.floor, ceil, round, absf, copysign (one instruction each; on NVVM
// through coopvec-prepare-nvvm's intrinsic calls), in f32 and f16.
//
// remf: random x and y spread over 2^-64..2^64 (powers of two built in the
// exponent bits, so that every engine sees the same values), y = x / 8 in
// scale (few reduction steps), x near 2^60 by y near 2^-60 (about ten
// 12-bit steps), and x or y replaced by +-0, +-inf or NaN in some threads;
// f16: x up to 2^15, y from 2^-4 to 2^4, and by 3 * 2^-24 (the longest
// reduction, 3 steps). The f32 values and results stay normal (no flushed
// subnormals on a device without DenormPreserve); test/CAPI/
// expand-math-remf.c checks subnormals and every f16 x.
//
// floor / ceil / round (halves away from zero) of multiples of 1/4 in
// [-8, 8) (halves and negatives included), of x itself and of x 2^30
// (integers already); absf, copysign with a -0 or negative sign source.
//
// math.trunc and f16 math.fma: math-ops.mlir. Kept in
// test/tools/coopvec-run/per-thread-gpu-gaps.mlir: math.sqrt (checked
// there without tolerance; Vulkan's GLSL Sqrt need not be correctly
// rounded).
//
// RUN: coopvec-run %s --entry=remf32 --batch=4099 --random --seed=601 --check --atol=0 --rtol=0 | FileCheck %s --check-prefix=REMF32
// RUN: coopvec-run %s --entry=remf32 --batch=33 --random --seed=602 --check --atol=0 --rtol=0 | FileCheck %s --check-prefix=REMF32
// REMF32:      result 0: max abs error 0, {{.*}}: PASS
// REMF32-NEXT: {{^PASS$}}
// RUN: coopvec-run %s --entry=remf16 --batch=4099 --random --seed=603 --check --atol=0 --rtol=0 | FileCheck %s --check-prefix=REMF16
// REMF16:      result 0: max abs error 0, {{.*}}: PASS
// REMF16-NEXT: {{^PASS$}}
// RUN: coopvec-run %s --entry=rounding --batch=1029 --random --seed=604 --check --atol=0 --rtol=0 | FileCheck %s --check-prefix=ROUNDING
// ROUNDING:      result 0: max abs error 0, {{.*}}: PASS
// ROUNDING-NEXT: result 1: max abs error 0, {{.*}}: PASS
// ROUNDING-NEXT: {{^PASS$}}

// 2^k for an integer k in [-126, 127] (the exponent bits).
func.func private @pow2(%k: i32) -> f32 {
  %bias = arith.constant 127 : i32
  %c23 = arith.constant 23 : i32
  %b = arith.addi %k, %bias : i32
  %s = arith.shli %b, %c23 : i32
  %p = arith.bitcast %s : i32 to f32
  return %p : f32
}

func.func @remf32(%x: !coopvec.vec<6, f32>) -> !coopvec.vec<8, f32> {
  %e:6 = "coopvec.unpack"(%x) : (!coopvec.vec<6, f32>) -> (f32, f32, f32, f32, f32, f32)
  %k64 = arith.constant 64.0 : f32
  %eighth = arith.constant 0.125 : f32
  %two60 = arith.constant 0x5D800000 : f32
  %twom60 = arith.constant 0x21800000 : f32
  %inf = arith.constant 0x7F800000 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %nan = arith.constant 0x7FC00000 : f32
  %nzero = arith.constant -0.0 : f32
  %zero = arith.constant 0.0 : f32
  %t8 = arith.constant 0.8 : f32
  %tm8 = arith.constant -0.8 : f32
  %t9 = arith.constant 0.9 : f32
  %tm9 = arith.constant -0.9 : f32
  %t1 = arith.constant 0.1 : f32
  // a = e0 2^i, b = e2 2^j, i and j in (-64, 64).
  %fi = arith.mulf %e#1, %k64 : f32
  %i = arith.fptosi %fi : f32 to i32
  %pi = func.call @pow2(%i) : (i32) -> f32
  %a = arith.mulf %e#0, %pi : f32
  %fj = arith.mulf %e#3, %k64 : f32
  %j = arith.fptosi %fj : f32 to i32
  %pj = func.call @pow2(%j) : (i32) -> f32
  %b = arith.mulf %e#2, %pj : f32
  %r0 = arith.remf %a, %b : f32
  %r1 = arith.remf %b, %a : f32
  // y at x's scale / 8.
  %c0 = arith.mulf %e#2, %pi : f32
  %c = arith.mulf %c0, %eighth : f32
  %r2 = arith.remf %a, %c : f32
  // 2^60 by 2^-60.
  %big = arith.mulf %e#0, %two60 : f32
  %small = arith.mulf %e#2, %twom60 : f32
  %r3 = arith.remf %big, %small : f32
  // y = +inf, -inf, -0, +0 in some threads.
  %y0 = arith.cmpf ogt, %e#4, %t8 : f32
  %y1 = arith.cmpf olt, %e#4, %tm8 : f32
  %y2 = arith.cmpf ogt, %e#5, %t9 : f32
  %y3 = arith.cmpf olt, %e#5, %tm9 : f32
  %ys0 = arith.select %y3, %zero, %b : f32
  %ys1 = arith.select %y2, %nzero, %ys0 : f32
  %ys2 = arith.select %y1, %ninf, %ys1 : f32
  %ys = arith.select %y0, %inf, %ys2 : f32
  %r4 = arith.remf %a, %ys : f32
  // x = +inf, NaN, -0 in some threads.
  %x0 = arith.cmpf ogt, %e#5, %t8 : f32
  %x1 = arith.cmpf olt, %e#5, %tm8 : f32
  %ae4 = math.absf %e#4 : f32
  %x2 = arith.cmpf olt, %ae4, %t1 : f32
  %xs0 = arith.select %x2, %nzero, %a : f32
  %xs1 = arith.select %x1, %nan, %xs0 : f32
  %xs = arith.select %x0, %inf, %xs1 : f32
  %r5 = arith.remf %xs, %b : f32
  // x by itself (a zero of x's sign), and both specials together.
  %r6 = arith.remf %a, %a : f32
  %r7 = arith.remf %xs, %ys : f32
  %r = "coopvec.from_elements"(%r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7) : (f32, f32, f32, f32, f32, f32, f32, f32) -> !coopvec.vec<8, f32>
  return %r : !coopvec.vec<8, f32>
}

func.func @remf16(%x: !coopvec.vec<4, f32>) -> !coopvec.vec<6, f16> {
  %e:4 = "coopvec.unpack"(%x) : (!coopvec.vec<4, f32>) -> (f32, f32, f32, f32)
  %one = arith.constant 1.0 : f32
  %k8 = arith.constant 8.0 : f32
  %k4 = arith.constant 4.0 : f32
  %tiny = arith.constant 0x0003 : f16
  %inf = arith.constant 0x7C00 : f16
  %nan = arith.constant 0x7E00 : f16
  %nzero = arith.constant -0.0 : f16
  %t75 = arith.constant 0.75 : f32
  %tm75 = arith.constant -0.75 : f32
  // a = e0 2^i, i in [0, 16); b = e2 2^j, j in (-4, 4).
  %e1p = arith.addf %e#1, %one : f32
  %fi = arith.mulf %e1p, %k8 : f32
  %i = arith.fptosi %fi : f32 to i32
  %pi = func.call @pow2(%i) : (i32) -> f32
  %a32 = arith.mulf %e#0, %pi : f32
  %a = arith.truncf %a32 : f32 to f16
  %fj = arith.mulf %e#3, %k4 : f32
  %j = arith.fptosi %fj : f32 to i32
  %pj = func.call @pow2(%j) : (i32) -> f32
  %b32 = arith.mulf %e#2, %pj : f32
  %b = arith.truncf %b32 : f32 to f16
  %r0 = arith.remf %a, %b : f16
  %r1 = arith.remf %b, %a : f16
  // By 3 * 2^-24.
  %r2 = arith.remf %a, %tiny : f16
  %y0 = arith.cmpf ogt, %e#3, %t75 : f32
  %y1 = arith.cmpf olt, %e#3, %tm75 : f32
  %ys0 = arith.select %y1, %nzero, %b : f16
  %ys = arith.select %y0, %inf, %ys0 : f16
  %r3 = arith.remf %a, %ys : f16
  %x0 = arith.cmpf ogt, %e#1, %t75 : f32
  %x1 = arith.cmpf olt, %e#1, %tm75 : f32
  %xs0 = arith.select %x1, %nan, %a : f16
  %xs = arith.select %x0, %inf, %xs0 : f16
  %r4 = arith.remf %xs, %b : f16
  %r5 = arith.remf %xs, %ys : f16
  %r = "coopvec.from_elements"(%r0, %r1, %r2, %r3, %r4, %r5) : (f16, f16, f16, f16, f16, f16) -> !coopvec.vec<6, f16>
  return %r : !coopvec.vec<6, f16>
}

func.func @rounding(%x: !coopvec.vec<4, f32>) -> (!coopvec.vec<10, f32>, !coopvec.vec<7, f16>) {
  %c32 = arith.constant 32.0 : f32
  %q4 = arith.constant 0.25 : f32
  %two30 = arith.constant 1073741824.0 : f32
  %nzero = arith.constant -0.0 : f32
  %t5 = arith.constant 0.5 : f32
  %e:4 = "coopvec.unpack"(%x) : (!coopvec.vec<4, f32>) -> (f32, f32, f32, f32)
  // h: a multiple of 1/4 in [-8, 8).
  %s = arith.mulf %e#0, %c32 : f32
  %si = arith.fptosi %s : f32 to i32
  %sf = arith.sitofp %si : i32 to f32
  %h = arith.mulf %sf, %q4 : f32
  %fl = math.floor %h : f32
  %ce = math.ceil %h : f32
  %ro = math.round %h : f32
  %fl2 = math.floor %e#1 : f32
  %ce2 = math.ceil %e#1 : f32
  %ro2 = math.round %e#1 : f32
  %large = arith.mulf %e#2, %two30 : f32
  %ro3 = math.round %large : f32
  %ab = math.absf %e#2 : f32
  // copysign from e3, or from -0 where e3 > 0.5.
  %neg = arith.cmpf ogt, %e#3, %t5 : f32
  %sign = arith.select %neg, %nzero, %e#3 : f32
  %cs = math.copysign %e#1, %sign : f32
  %cs0 = math.copysign %nzero, %e#3 : f32
  %r0 = "coopvec.from_elements"(%fl, %ce, %ro, %fl2, %ce2, %ro2, %ro3, %ab, %cs, %cs0) : (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32) -> !coopvec.vec<10, f32>
  %h16 = arith.truncf %h : f32 to f16
  %x16 = arith.truncf %e#1 : f32 to f16
  %y16 = arith.truncf %e#3 : f32 to f16
  %hfl = math.floor %h16 : f16
  %hce = math.ceil %h16 : f16
  %hro = math.round %h16 : f16
  %hro2 = math.round %x16 : f16
  %hfl2 = math.floor %x16 : f16
  %hab = math.absf %y16 : f16
  %hcs = math.copysign %x16, %y16 : f16
  %r1 = "coopvec.from_elements"(%hfl, %hce, %hro, %hro2, %hfl2, %hab, %hcs) : (f16, f16, f16, f16, f16, f16, f16) -> !coopvec.vec<7, f16>
  return %r0, %r1 : !coopvec.vec<10, f32>, !coopvec.vec<7, f16>
}
