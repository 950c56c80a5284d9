// Scalar math and arith on per-thread values (spec: "Per-thread programs",
// arith and math), from random vec elements scaled to ranges where the
// functions are interesting: sin / cos of arguments up to 1e4 (f32), exp
// and exp2 into overflow and the subnormals, log / log2 / rsqrt of exact
// m * 2^k spanning 2^-40..2^40 and of negatives and zero, tanh / erf / atan,
// atan2 in all quadrants, powf of negative bases with integer exponents,
// fma; then the integer cases the spec defines (division and remainder by
// zero, INT_MIN / -1, shifts by the width or more and by negative amounts,
// fptosi / fptoui of NaN, of values beyond the range and of negatives);
// and a sin / cos positional encoding (the Fourier features of an
// image-fitting network) feeding two matvecs.
//
// --check runs the interpreter (C's double functions rounded once) beside
// the JIT. The transcendental runs pass --atol=1e-30: the default atol
// grows with the largest value of an output (here up to 3e38, from exp),
// which would let any small value pass; 1e-30 only absorbs the subnormals
// a device may flush, and every other element must be within the default
// rtol (1e-4 for f32, 1e-2 for f16) of the reference. (On the CPU every
// f32 result was within 1 ulp of the rounded reference and every f16 one
// within 1 f16 ulp.) The integer results are exact integers in f32 and the
// JIT's --print must equal the interpreter's.
//
// math.floor / ceil / round / absf / copysign and arith.remf:
// math-exact.mlir.

// RUN: split-file %s %t

// RUN: coopvec-run %t/trans32.mlir --entry=trans32 --batch=31 --random --seed=301 --check --atol=1e-30 | FileCheck %s --check-prefix=TRANS
// RUN: coopvec-run %t/trans32.mlir --entry=trans32 --batch=4099 --random --seed=302 --check --atol=1e-30 | FileCheck %s --check-prefix=TRANS
// RUN: coopvec-run %t/trans16.mlir --entry=trans16 --batch=33 --random --seed=303 --check --atol=1e-30 | FileCheck %s --check-prefix=TRANS
// RUN: coopvec-run %t/trans16.mlir --entry=trans16 --batch=4099 --random --seed=304 --check --atol=1e-30 | FileCheck %s --check-prefix=TRANS
// TRANS:      result 0: max abs error {{.*}} (atol 1e-30, rtol {{.*}}): PASS
// TRANS-NEXT: result 1: max abs error {{.*}} (atol 1e-30, rtol {{.*}}): PASS
// TRANS-NEXT: result 2: max abs error {{.*}} (atol 1e-30, rtol {{.*}}): PASS
// TRANS-NEXT: {{^PASS$}}

// RUN: coopvec-run %t/intedge.mlir --entry=intedge --batch=1 --random --seed=305 --check | FileCheck %s --check-prefix=INT
// RUN: coopvec-run %t/intedge.mlir --entry=intedge --batch=1029 --random --seed=306 --check | FileCheck %s --check-prefix=INT
// INT:      result 0: max abs error {{.*}}: PASS
// INT-NEXT: {{^PASS$}}
// RUN: coopvec-run %t/intedge.mlir --entry=intedge --batch=1029 --random --seed=306 --print > %t/int-jit.txt
// RUN: coopvec-run %t/intedge.mlir --entry=intedge --batch=1029 --random --seed=306 --reference --print > %t/int-ref.txt
// RUN: diff %t/int-jit.txt %t/int-ref.txt

// RUN: coopvec-run %t/fourier32.mlir --entry=fourier32 --batch=1029 --random --seed=307 --check | FileCheck %s --check-prefix=FOURIER
// RUN: coopvec-run %t/fourier16.mlir --entry=fourier16 --batch=33 --random --seed=308 --check | FileCheck %s --check-prefix=FOURIER
// RUN: coopvec-run %t/fourier16.mlir --entry=fourier16 --batch=1029 --random --seed=309 --check | FileCheck %s --check-prefix=FOURIER
// FOURIER:      result 0: max abs error {{.*}}: PASS
// FOURIER-NEXT: {{^PASS$}}

// arith.maximumf / minimumf (NaN propagates, -0 < +0) of pairs drawn
// from +0, -0, NaN, +-inf and x2, in f32 and f16: the JIT's --print
// (signed zeros and NaN included) must equal the interpreter's, on Vulkan
// too, where coopvec-prepare-spirv expands them (GLSL FMax / FMin leave
// the sign of max(-0, +0) to the driver).
// RUN: coopvec-run %t/minmax.mlir --entry=minmax --batch=1029 --random --seed=310 --print > %t/minmax-jit.txt
// RUN: coopvec-run %t/minmax.mlir --entry=minmax --batch=1029 --random --seed=310 --reference --print > %t/minmax-ref.txt
// RUN: diff %t/minmax-jit.txt %t/minmax-ref.txt
// RUN: %if vulkan && !coopvec-run-target %{ coopvec-run --target=vulkan %t/minmax.mlir --entry=minmax --batch=1029 --random --seed=310 --print > %t/minmax-vk.txt %}
// RUN: %if vulkan && !coopvec-run-target %{ diff %t/minmax-vk.txt %t/minmax-ref.txt %}
// RUN: FileCheck %s --check-prefix=MINMAX < %t/minmax-ref.txt
// MINMAX: result 0: f32, shape (1029, 6)
// MINMAX: result 1: f16, shape (1029, 4)

//--- minmax.mlir
// a from x0 and b from x1 (uniform in [-1, 1]): +0, -0, NaN, x2 or +inf /
// -0, +0, x2, NaN or -inf by fifths; maximumf / minimumf of (a, b) and of
// (b, a), and the pair itself; the same in f16.
func.func @minmax(%x: !coopvec.vec<4, f32>) -> (!coopvec.vec<6, f32>, !coopvec.vec<4, f16>) {
  %e:4 = "coopvec.unpack"(%x) : (!coopvec.vec<4, f32>) -> (f32, f32, f32, f32)
  %pz = arith.constant 0.0 : f32
  %nz = arith.constant -0.0 : f32
  %nan = arith.constant 0x7FC00000 : f32
  %inf = arith.constant 0x7F800000 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %t6 = arith.constant 0.6 : f32
  %t2 = arith.constant 0.2 : f32
  %m2 = arith.constant -0.2 : f32
  %m6 = arith.constant -0.6 : f32
  %a1 = arith.cmpf ogt, %e#0, %t6 : f32
  %a2 = arith.cmpf ogt, %e#0, %t2 : f32
  %a3 = arith.cmpf ogt, %e#0, %m2 : f32
  %a4 = arith.cmpf ogt, %e#0, %m6 : f32
  %av4 = arith.select %a4, %e#2, %inf : f32
  %av3 = arith.select %a3, %nan, %av4 : f32
  %av2 = arith.select %a2, %nz, %av3 : f32
  %a = arith.select %a1, %pz, %av2 : f32
  %b1 = arith.cmpf ogt, %e#1, %t6 : f32
  %b2 = arith.cmpf ogt, %e#1, %t2 : f32
  %b3 = arith.cmpf ogt, %e#1, %m2 : f32
  %b4 = arith.cmpf ogt, %e#1, %m6 : f32
  %bv4 = arith.select %b4, %nan, %ninf : f32
  %bv3 = arith.select %b3, %e#2, %bv4 : f32
  %bv2 = arith.select %b2, %pz, %bv3 : f32
  %b = arith.select %b1, %nz, %bv2 : f32
  %max = arith.maximumf %a, %b : f32
  %min = arith.minimumf %a, %b : f32
  %maxr = arith.maximumf %b, %a : f32
  %minr = arith.minimumf %b, %a : f32
  %r0 = "coopvec.from_elements"(%max, %min, %maxr, %minr, %a, %b) : (f32, f32, f32, f32, f32, f32) -> !coopvec.vec<6, f32>
  %ah = arith.truncf %a : f32 to f16
  %bh = arith.truncf %b : f32 to f16
  %maxh = arith.maximumf %ah, %bh : f16
  %minh = arith.minimumf %ah, %bh : f16
  %maxhr = arith.maximumf %bh, %ah : f16
  %minhr = arith.minimumf %bh, %ah : f16
  %r1 = "coopvec.from_elements"(%maxh, %minh, %maxhr, %minhr) : (f16, f16, f16, f16) -> !coopvec.vec<4, f16>
  return %r0, %r1 : !coopvec.vec<6, f32>, !coopvec.vec<4, f16>
}

// math.trunc of multiples of 1/4 in [-8, 8) (halves, negatives: -0 for
// (-1, 0)) and of x itself, in f32 and f16; arith.ceildivsi, ceildivui,
// floordivsi of x3's bits (or INT_MIN where x1 > 0) by -299..299 (by zero
// and INT_MIN / -1 too), and remsi / divsi of INT_MIN by the same
// divisors. Exact: the --print of every target must equal the
// interpreter's (SPIR-V: coopvec-prepare-spirv expands them,
// docs/passes.md).
// RUN: coopvec-run %t/rounding.mlir --entry=rounding --batch=1029 --random --seed=311 --print > %t/rounding-jit.txt
// RUN: coopvec-run %t/rounding.mlir --entry=rounding --batch=1029 --random --seed=311 --reference --print > %t/rounding-ref.txt
// RUN: diff %t/rounding-jit.txt %t/rounding-ref.txt
// RUN: %if vulkan && !coopvec-run-target %{ coopvec-run --target=vulkan %t/rounding.mlir --entry=rounding --batch=1029 --random --seed=311 --print > %t/rounding-vk.txt %}
// RUN: %if vulkan && !coopvec-run-target %{ diff %t/rounding-vk.txt %t/rounding-ref.txt %}
// RUN: FileCheck %s --check-prefix=ROUNDING < %t/rounding-ref.txt
// ROUNDING: result 0: f32, shape (1029, 2)
// ROUNDING: result 1: f16, shape (1029, 2)
// ROUNDING: result 2: f32, shape (1029, 10)

//--- rounding.mlir
func.func @rounding(%x: !coopvec.vec<4, f32>) -> (!coopvec.vec<2, f32>, !coopvec.vec<2, f16>, !coopvec.vec<10, f32>) {
  %c32 = arith.constant 32.0 : f32
  %quarter = arith.constant 0.25 : f32
  %zero = arith.constant 0.0 : f32
  %k300 = arith.constant 300.0 : f32
  %min = arith.constant -2147483648 : i32
  %lo = arith.constant 65535 : i32
  %s16 = arith.constant 16 : i32
  %e:4 = "coopvec.unpack"(%x) : (!coopvec.vec<4, f32>) -> (f32, f32, f32, f32)
  %s = arith.mulf %e#0, %c32 : f32
  %si = arith.fptosi %s : f32 to i32
  %sf = arith.sitofp %si : i32 to f32
  %h = arith.mulf %sf, %quarter : f32
  %t = math.trunc %h : f32
  %t2 = math.trunc %e#1 : f32
  %hh = arith.truncf %h : f32 to f16
  %th = math.trunc %hh : f16
  %e16 = arith.truncf %e#1 : f32 to f16
  %th2 = math.trunc %e16 : f16
  %r0 = "coopvec.from_elements"(%t, %t2) : (f32, f32) -> !coopvec.vec<2, f32>
  %r1 = "coopvec.from_elements"(%th, %th2) : (f16, f16) -> !coopvec.vec<2, f16>
  // Each i32 quotient as a signed high and an unsigned low half (exact in
  // f32).
  %df = arith.mulf %e#2, %k300 : f32
  %d = arith.fptosi %df : f32 to i32
  %pos = arith.cmpf ogt, %e#1, %zero : f32
  %bits = arith.bitcast %e#3 : f32 to i32
  %a = arith.select %pos, %min, %bits : i32
  %q1 = arith.ceildivsi %a, %d : i32
  %q2 = arith.ceildivui %a, %d : i32
  %q3 = arith.floordivsi %a, %d : i32
  %q4 = arith.remsi %min, %d : i32
  %q5 = arith.divsi %min, %d : i32
  %h1 = arith.shrsi %q1, %s16 : i32
  %l1 = arith.andi %q1, %lo : i32
  %h2 = arith.shrsi %q2, %s16 : i32
  %l2 = arith.andi %q2, %lo : i32
  %h3 = arith.shrsi %q3, %s16 : i32
  %l3 = arith.andi %q3, %lo : i32
  %f1 = arith.sitofp %h1 : i32 to f32
  %g1 = arith.sitofp %l1 : i32 to f32
  %f2 = arith.sitofp %h2 : i32 to f32
  %g2 = arith.sitofp %l2 : i32 to f32
  %f3 = arith.sitofp %h3 : i32 to f32
  %g3 = arith.sitofp %l3 : i32 to f32
  %h4 = arith.shrsi %q4, %s16 : i32
  %l4 = arith.andi %q4, %lo : i32
  %h5 = arith.shrsi %q5, %s16 : i32
  %l5 = arith.andi %q5, %lo : i32
  %f4 = arith.sitofp %h4 : i32 to f32
  %g4 = arith.sitofp %l4 : i32 to f32
  %f5 = arith.sitofp %h5 : i32 to f32
  %g5 = arith.sitofp %l5 : i32 to f32
  %r2 = "coopvec.from_elements"(%f1, %g1, %f2, %g2, %f3, %g3, %f4, %g4, %f5, %g5) : (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32) -> !coopvec.vec<10, f32>
  return %r0, %r1, %r2 : !coopvec.vec<2, f32>, !coopvec.vec<2, f16>, !coopvec.vec<10, f32>
}

// f16 math.fma, rounded once: fma(a, 1000 a, b) (cancellation near -b,
// where a product rounded to f16 first is far off) and, in threads with
// x3 > 0.8 (< -0.8), fma(1.5, 683/1024, +-2^-24), whose exact value lies
// just beside a midpoint of f16 (1 + 2^-11 +- 2^-24): rounded to f32 first
// it would be the midpoint and then round to 1. The --print of every
// target must equal the interpreter's (Vulkan: coopvec-prepare-spirv
// computes f16 fmas in f32, rounded to odd, docs/passes.md).
// RUN: coopvec-run %t/fma16.mlir --entry=fma16 --batch=1029 --random --seed=312 --print > %t/fma16-jit.txt
// RUN: coopvec-run %t/fma16.mlir --entry=fma16 --batch=1029 --random --seed=312 --reference --print > %t/fma16-ref.txt
// RUN: diff %t/fma16-jit.txt %t/fma16-ref.txt
// RUN: %if vulkan && !coopvec-run-target %{ coopvec-run --target=vulkan %t/fma16.mlir --entry=fma16 --batch=1029 --random --seed=312 --print > %t/fma16-vk.txt %}
// RUN: %if vulkan && !coopvec-run-target %{ diff %t/fma16-vk.txt %t/fma16-ref.txt %}
// RUN: FileCheck %s --check-prefix=FMA16 < %t/fma16-ref.txt
// FMA16: result 0: f16, shape (1029, 2)
// FMA16-DAG: {{^  \[[0-9]+\] [^ ]+ 1.001$}}
// FMA16-DAG: {{^  \[[0-9]+\] [^ ]+ 1$}}

//--- fma16.mlir
func.func @fma16(%x: !coopvec.vec<4, f32>) -> !coopvec.vec<2, f16> {
  %k1000 = arith.constant 1000.0 : f16
  %t8 = arith.constant 0.8 : f32
  %m8 = arith.constant -0.8 : f32
  %a0 = arith.constant 1.5 : f16
  %b0 = arith.constant 0.6669921875 : f16
  %tiny = arith.constant 5.9604644775390625E-8 : f16
  %ntiny = arith.constant -5.9604644775390625E-8 : f16
  %e:4 = "coopvec.unpack"(%x) : (!coopvec.vec<4, f32>) -> (f32, f32, f32, f32)
  %a16 = arith.truncf %e#0 : f32 to f16
  %b16 = arith.truncf %e#1 : f32 to f16
  %x2 = arith.truncf %e#2 : f32 to f16
  %m16 = arith.mulf %a16, %k1000 : f16
  %f = math.fma %a16, %m16, %b16 : f16
  %hi = arith.cmpf ogt, %e#3, %t8 : f32
  %lo = arith.cmpf olt, %e#3, %m8 : f32
  %hard = arith.ori %hi, %lo : i1
  %c = arith.select %hi, %tiny, %ntiny : f16
  %a = arith.select %hard, %a0, %x2 : f16
  %b = arith.select %hard, %b0, %b16 : f16
  %c1 = arith.select %hard, %c, %a16 : f16
  %g = math.fma %a, %b, %c1 : f16
  %y = "coopvec.from_elements"(%f, %g) : (f16, f16) -> !coopvec.vec<2, f16>
  return %y : !coopvec.vec<2, f16>
}

//--- trans32.mlir
func.func @trans32(%x: !coopvec.vec<4, f32>) -> (!coopvec.vec<6, f32>, !coopvec.vec<6, f32>, !coopvec.vec<6, f32>) {
  %e:4 = "coopvec.unpack"(%x) : (!coopvec.vec<4, f32>) -> (f32, f32, f32, f32)
  %big = arith.constant 1.000000e+04 : f32
  %ex = arith.constant 9.000000e+01 : f32
  %ex2 = arith.constant 1.300000e+02 : f32
  %kexp = arith.constant 4.000000e+01 : f32
  %th = arith.constant 8.000000e+00 : f32
  %four = arith.constant 4.000000e+00 : f32
  %one5 = arith.constant 1.500000e+00 : f32
  %zero = arith.constant 0.000000e+00 : f32
  %bias = arith.constant 127 : i32
  %shift = arith.constant 23 : i32
  // sin, cos of |x| < 10000 (the reduction of large arguments).
  %a = arith.mulf %e#0, %big : f32
  %sin = math.sin %a : f32
  %cos = math.cos %a : f32
  // exp over [-90, 90) and exp2 over [-130, 130): overflow to inf, subnormals.
  %b = arith.mulf %e#1, %ex : f32
  %exp = math.exp %b : f32
  %b2 = arith.mulf %e#1, %ex2 : f32
  %exp2 = math.exp2 %b2 : f32
  // m * 2^k exactly: m = 1.5 + x2 in [0.5, 2.5), k = trunc(40 x3), 2^k
  // built in the exponent bits; negated where x0 < x2 (log of a negative:
  // NaN), and zero where x1 < -0.9 (log(0) = -inf).
  %kf = arith.mulf %e#3, %kexp : f32
  %k = arith.fptosi %kf : f32 to i32
  %kb = arith.addi %k, %bias : i32
  %ks = arith.shli %kb, %shift : i32
  %p2 = arith.bitcast %ks : i32 to f32
  %m = arith.addf %e#2, %one5 : f32
  %pos = arith.mulf %m, %p2 : f32
  %n = arith.negf %pos : f32
  %isneg = arith.cmpf olt, %e#0, %e#2 : f32
  %s = arith.select %isneg, %n, %pos : f32
  %lim = arith.constant -0.9 : f32
  %iszero = arith.cmpf olt, %e#1, %lim : f32
  %l = arith.select %iszero, %zero, %s : f32
  %log = math.log %l : f32
  %log2 = math.log2 %l : f32
  %rsqrt = math.rsqrt %l : f32
  // tanh, erf, atan of |x| < 8; atan2 in every quadrant.
  %t = arith.mulf %e#3, %th : f32
  %tanh = math.tanh %t : f32
  %erf = math.erf %t : f32
  %atan = math.atan %t : f32
  %atan2 = math.atan2 %e#0, %e#1 : f32
  // powf: a negative base with an integer exponent -4..4 (odd: negative
  // results), a positive one with any exponent.
  %ef = arith.mulf %e#3, %four : f32
  %ei = arith.fptosi %ef : f32 to i32
  %ie = arith.sitofp %ei : i32 to f32
  %base = arith.mulf %e#0, %four : f32
  %pow1 = math.powf %base, %ie : f32
  %pow2 = math.powf %pos, %e#0 : f32
  %fma = math.fma %e#0, %a, %e#1 : f32
  %r0 = "coopvec.from_elements"(%sin, %cos, %exp, %exp2, %log, %log2) : (f32, f32, f32, f32, f32, f32) -> !coopvec.vec<6, f32>
  %r1 = "coopvec.from_elements"(%rsqrt, %tanh, %erf, %atan, %atan2, %fma) : (f32, f32, f32, f32, f32, f32) -> !coopvec.vec<6, f32>
  %r2 = "coopvec.from_elements"(%pow1, %pow2, %l, %pos, %ie, %a) : (f32, f32, f32, f32, f32, f32) -> !coopvec.vec<6, f32>
  return %r0, %r1, %r2 : !coopvec.vec<6, f32>, !coopvec.vec<6, f32>, !coopvec.vec<6, f32>
}

//--- trans16.mlir
// f16: the ranges scaled to f16's (exp overflows from 11.1, exp2 from 16;
// 2^k for k in -13..13).
func.func @trans16(%x: !coopvec.vec<4, f16>) -> (!coopvec.vec<6, f16>, !coopvec.vec<6, f16>, !coopvec.vec<6, f16>) {
  %e:4 = "coopvec.unpack"(%x) : (!coopvec.vec<4, f16>) -> (f16, f16, f16, f16)
  %big = arith.constant 1.000000e+03 : f16
  %ex = arith.constant 1.200000e+01 : f16
  %ex2 = arith.constant 1.800000e+01 : f16
  %kexp = arith.constant 1.400000e+01 : f16
  %th = arith.constant 4.000000e+00 : f16
  %four = arith.constant 4.000000e+00 : f16
  %one5 = arith.constant 1.500000e+00 : f16
  %zero = arith.constant 0.000000e+00 : f16
  %bias = arith.constant 15 : i16
  %shift = arith.constant 10 : i16
  // sin, cos of |x| < 1000 (the reduction of large arguments).
  %a = arith.mulf %e#0, %big : f16
  %sin = math.sin %a : f16
  %cos = math.cos %a : f16
  // exp over [-12, 12) and exp2 over [-18, 18): overflow to inf, subnormals.
  %b = arith.mulf %e#1, %ex : f16
  %exp = math.exp %b : f16
  %b2 = arith.mulf %e#1, %ex2 : f16
  %exp2 = math.exp2 %b2 : f16
  // m * 2^k exactly: m = 1.5 + x2 in [0.5, 2.5), k = trunc(14 x3), 2^k
  // built in the exponent bits; negated where x0 < x2 (log of a negative:
  // NaN), and zero where x1 < -0.9 (log(0) = -inf).
  %kf = arith.mulf %e#3, %kexp : f16
  %k = arith.fptosi %kf : f16 to i16
  %kb = arith.addi %k, %bias : i16
  %ks = arith.shli %kb, %shift : i16
  %p2 = arith.bitcast %ks : i16 to f16
  %m = arith.addf %e#2, %one5 : f16
  %pos = arith.mulf %m, %p2 : f16
  %n = arith.negf %pos : f16
  %isneg = arith.cmpf olt, %e#0, %e#2 : f16
  %s = arith.select %isneg, %n, %pos : f16
  %lim = arith.constant -0.9 : f16
  %iszero = arith.cmpf olt, %e#1, %lim : f16
  %l = arith.select %iszero, %zero, %s : f16
  %log = math.log %l : f16
  %log2 = math.log2 %l : f16
  %rsqrt = math.rsqrt %l : f16
  // tanh, erf, atan of |x| < 4; atan2 in every quadrant.
  %t = arith.mulf %e#3, %th : f16
  %tanh = math.tanh %t : f16
  %erf = math.erf %t : f16
  %atan = math.atan %t : f16
  %atan2 = math.atan2 %e#0, %e#1 : f16
  // powf: a negative base with an integer exponent -4..4 (odd: negative
  // results), a positive one with any exponent.
  %ef = arith.mulf %e#3, %four : f16
  %ei = arith.fptosi %ef : f16 to i16
  %ie = arith.sitofp %ei : i16 to f16
  %base = arith.mulf %e#0, %four : f16
  %pow1 = math.powf %base, %ie : f16
  %pow2 = math.powf %pos, %e#0 : f16
  // (No math.fma in f16 here: see the header.)
  %fma = math.atan2 %e#1, %e#0 : f16
  %r0 = "coopvec.from_elements"(%sin, %cos, %exp, %exp2, %log, %log2) : (f16, f16, f16, f16, f16, f16) -> !coopvec.vec<6, f16>
  %r1 = "coopvec.from_elements"(%rsqrt, %tanh, %erf, %atan, %atan2, %fma) : (f16, f16, f16, f16, f16, f16) -> !coopvec.vec<6, f16>
  %r2 = "coopvec.from_elements"(%pow1, %pow2, %l, %pos, %ie, %a) : (f16, f16, f16, f16, f16, f16) -> !coopvec.vec<6, f16>
  return %r0, %r1, %r2 : !coopvec.vec<6, f16>, !coopvec.vec<6, f16>, !coopvec.vec<6, f16>
}

//--- intedge.mlir
// Each output element is an exact integer: the i32 results are folded in
// pairs with xor and split into a signed high and an unsigned low half.
func.func @intedge(%x: !coopvec.vec<4, f32>) -> !coopvec.vec<16, f32> {
  %zero = arith.constant 0.0 : f32
  %onef = arith.constant 1.0 : f32
  %k3 = arith.constant 1.5 : f32
  %k40 = arith.constant 40.0 : f32
  %k300 = arith.constant 300.0 : f32
  %huge = arith.constant 1.0e30 : f32
  %min = arith.constant -2147483648 : i32
  %seven = arith.constant 7 : i32
  %lo = arith.constant 65535 : i32
  %s16 = arith.constant 16 : i32
  %e:4 = "coopvec.unpack"(%x) : (!coopvec.vec<4, f32>) -> (f32, f32, f32, f32)
  // Divisors in {-1, 0, 1}; numerators INT_MIN (where x1 > 0) or the bits
  // of x2: division by zero, INT_MIN / -1, remsi(INT_MIN, -1).
  %df = arith.mulf %e#0, %k3 : f32
  %d = arith.fptosi %df : f32 to i32
  %pos = arith.cmpf ogt, %e#1, %zero : f32
  %bits = arith.bitcast %e#2 : f32 to i32
  %a = arith.select %pos, %min, %bits : i32
  %q1 = arith.divsi %a, %d : i32
  %q2 = arith.remsi %a, %d : i32
  %q3 = arith.divui %a, %d : i32
  %q4 = arith.remui %a, %d : i32
  // A wider divisor range, -299..299 (0 included), on the bits of x2.
  %d2f = arith.mulf %e#0, %k300 : f32
  %d2 = arith.fptosi %d2f : f32 to i32
  %q5 = arith.divsi %bits, %d2 : i32
  %q6 = arith.remsi %bits, %d2 : i32
  %q7 = arith.remui %bits, %d2 : i32
  // Shift amounts -8..47 (many >= 32, some negative).
  %sf = math.fma %e#3, %k40, %onef : f32
  %sh0 = arith.fptosi %sf : f32 to i32
  %sh = arith.subi %sh0, %seven : i32
  %r1 = arith.shli %bits, %sh : i32
  %r2 = arith.shrsi %bits, %sh : i32
  %r3 = arith.shrui %bits, %sh : i32
  // fptosi / fptoui of NaN (0 / 0 where x0 > x3), of +-1e30 x1 (beyond
  // the range: saturating) and of negatives (fptoui: 0); to i32, i8, i16.
  %big = arith.mulf %e#1, %huge : f32
  %z = arith.subf %e#0, %e#0 : f32
  %nan = arith.divf %z, %z : f32
  %gt = arith.cmpf ogt, %e#0, %e#3 : f32
  %v = arith.select %gt, %nan, %big : f32
  %c1 = arith.fptosi %v : f32 to i32
  %c2 = arith.fptoui %v : f32 to i32
  %c3 = arith.fptosi %v : f32 to i8
  %c4 = arith.fptoui %big : f32 to i16
  %c3w = arith.extsi %c3 : i8 to i32
  %c4w = arith.extui %c4 : i16 to i32
  %x1 = arith.xori %q1, %q2 : i32
  %x2 = arith.xori %q3, %q4 : i32
  %x3 = arith.xori %q5, %q6 : i32
  %x4 = arith.xori %q7, %r1 : i32
  %x5 = arith.xori %r2, %r3 : i32
  %x6 = arith.xori %c1, %c2 : i32
  %x7 = arith.xori %c3w, %c4w : i32
  %x8 = arith.xori %d, %sh : i32
  %h1 = arith.shrsi %x1, %s16 : i32
  %l1 = arith.andi %x1, %lo : i32
  %h2 = arith.shrsi %x2, %s16 : i32
  %l2 = arith.andi %x2, %lo : i32
  %h3 = arith.shrsi %x3, %s16 : i32
  %l3 = arith.andi %x3, %lo : i32
  %h4 = arith.shrsi %x4, %s16 : i32
  %l4 = arith.andi %x4, %lo : i32
  %h5 = arith.shrsi %x5, %s16 : i32
  %l5 = arith.andi %x5, %lo : i32
  %h6 = arith.shrsi %x6, %s16 : i32
  %l6 = arith.andi %x6, %lo : i32
  %h7 = arith.shrsi %x7, %s16 : i32
  %l7 = arith.andi %x7, %lo : i32
  %h8 = arith.shrsi %x8, %s16 : i32
  %l8 = arith.andi %x8, %lo : i32
  %f1 = arith.sitofp %h1 : i32 to f32
  %g1 = arith.sitofp %l1 : i32 to f32
  %f2 = arith.sitofp %h2 : i32 to f32
  %g2 = arith.sitofp %l2 : i32 to f32
  %f3 = arith.sitofp %h3 : i32 to f32
  %g3 = arith.sitofp %l3 : i32 to f32
  %f4 = arith.sitofp %h4 : i32 to f32
  %g4 = arith.sitofp %l4 : i32 to f32
  %f5 = arith.sitofp %h5 : i32 to f32
  %g5 = arith.sitofp %l5 : i32 to f32
  %f6 = arith.sitofp %h6 : i32 to f32
  %g6 = arith.sitofp %l6 : i32 to f32
  %f7 = arith.sitofp %h7 : i32 to f32
  %g7 = arith.sitofp %l7 : i32 to f32
  %f8 = arith.sitofp %h8 : i32 to f32
  %g8 = arith.sitofp %l8 : i32 to f32
  %y = "coopvec.from_elements"(%f1, %g1, %f2, %g2, %f3, %g3, %f4, %g4, %f5, %g5, %f6, %g6, %f7, %g7, %f8, %g8) : (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32) -> !coopvec.vec<16, f32>
  return %y : !coopvec.vec<16, f32>
}

//--- fourier32.mlir
// enc = (sin(2^k pi x_j), cos(2^k pi x_j)), k = 0..3, j = 0..1; then
// W2 tanh(W1 enc + b1) + b2, W1 16x16 at element 0, b1 at 256, W2 3x16 at
// element 272, b2 at 320.
func.func @fourier32(%x: !coopvec.vec<2, f32>, %w: memref<?xf32>) -> !coopvec.vec<3, f32> {
  %c256 = arith.constant 256 : index
  %e:2 = "coopvec.unpack"(%x) : (!coopvec.vec<2, f32>) -> (f32, f32)
  %f00 = arith.constant 3.141592654 : f32
  %a00 = arith.mulf %e#0, %f00 : f32
  %s00 = math.sin %a00 : f32
  %c00 = math.cos %a00 : f32
  %f01 = arith.constant 6.283185307 : f32
  %a01 = arith.mulf %e#0, %f01 : f32
  %s01 = math.sin %a01 : f32
  %c01 = math.cos %a01 : f32
  %f02 = arith.constant 12.566370614 : f32
  %a02 = arith.mulf %e#0, %f02 : f32
  %s02 = math.sin %a02 : f32
  %c02 = math.cos %a02 : f32
  %f03 = arith.constant 25.132741229 : f32
  %a03 = arith.mulf %e#0, %f03 : f32
  %s03 = math.sin %a03 : f32
  %c03 = math.cos %a03 : f32
  %f10 = arith.constant 3.141592654 : f32
  %a10 = arith.mulf %e#1, %f10 : f32
  %s10 = math.sin %a10 : f32
  %c10 = math.cos %a10 : f32
  %f11 = arith.constant 6.283185307 : f32
  %a11 = arith.mulf %e#1, %f11 : f32
  %s11 = math.sin %a11 : f32
  %c11 = math.cos %a11 : f32
  %f12 = arith.constant 12.566370614 : f32
  %a12 = arith.mulf %e#1, %f12 : f32
  %s12 = math.sin %a12 : f32
  %c12 = math.cos %a12 : f32
  %f13 = arith.constant 25.132741229 : f32
  %a13 = arith.mulf %e#1, %f13 : f32
  %s13 = math.sin %a13 : f32
  %c13 = math.cos %a13 : f32
  %enc = "coopvec.from_elements"(%s00, %c00, %s01, %c01, %s02, %c02, %s03, %c03, %s10, %c10, %s11, %c11, %s12, %c12, %s13, %c13) : (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32) -> !coopvec.vec<16, f32>
  %cb2 = arith.constant 320 : index
  %W1 = "coopvec.matrix_view"(%w) {offset = 0} : (memref<?xf32>) -> !coopvec.matrix<16, 16, f32, "row_major">
  %b1 = "coopvec.load"(%w, %c256) : (memref<?xf32>, index) -> !coopvec.vec<16, f32>
  %h = "coopvec.matvec"(%W1, %enc, %b1) : (!coopvec.matrix<16, 16, f32, "row_major">, !coopvec.vec<16, f32>, !coopvec.vec<16, f32>) -> !coopvec.vec<16, f32>
  %a = "coopvec.tanh"(%h) : (!coopvec.vec<16, f32>) -> !coopvec.vec<16, f32>
  %W2 = "coopvec.matrix_view"(%w) {offset = 1088} : (memref<?xf32>) -> !coopvec.matrix<3, 16, f32, "row_major">
  %b2 = "coopvec.load"(%w, %cb2) : (memref<?xf32>, index) -> !coopvec.vec<3, f32>
  %y = "coopvec.matvec"(%W2, %a, %b2) : (!coopvec.matrix<3, 16, f32, "row_major">, !coopvec.vec<16, f32>, !coopvec.vec<3, f32>) -> !coopvec.vec<3, f32>
  return %y : !coopvec.vec<3, f32>
}

//--- fourier16.mlir
// f16, inference layout (tensor cores on NVVM, cooperative matrices on
// Vulkan): W2 at byte 576 (element 288), b2 at element 336.
func.func @fourier16(%x: !coopvec.vec<2, f16>, %w: memref<?xf16>) -> !coopvec.vec<3, f16> {
  %c256 = arith.constant 256 : index
  %e:2 = "coopvec.unpack"(%x) : (!coopvec.vec<2, f16>) -> (f16, f16)
  %f00 = arith.constant 3.141592654 : f16
  %a00 = arith.mulf %e#0, %f00 : f16
  %s00 = math.sin %a00 : f16
  %c00 = math.cos %a00 : f16
  %f01 = arith.constant 6.283185307 : f16
  %a01 = arith.mulf %e#0, %f01 : f16
  %s01 = math.sin %a01 : f16
  %c01 = math.cos %a01 : f16
  %f02 = arith.constant 12.566370614 : f16
  %a02 = arith.mulf %e#0, %f02 : f16
  %s02 = math.sin %a02 : f16
  %c02 = math.cos %a02 : f16
  %f03 = arith.constant 25.132741229 : f16
  %a03 = arith.mulf %e#0, %f03 : f16
  %s03 = math.sin %a03 : f16
  %c03 = math.cos %a03 : f16
  %f10 = arith.constant 3.141592654 : f16
  %a10 = arith.mulf %e#1, %f10 : f16
  %s10 = math.sin %a10 : f16
  %c10 = math.cos %a10 : f16
  %f11 = arith.constant 6.283185307 : f16
  %a11 = arith.mulf %e#1, %f11 : f16
  %s11 = math.sin %a11 : f16
  %c11 = math.cos %a11 : f16
  %f12 = arith.constant 12.566370614 : f16
  %a12 = arith.mulf %e#1, %f12 : f16
  %s12 = math.sin %a12 : f16
  %c12 = math.cos %a12 : f16
  %f13 = arith.constant 25.132741229 : f16
  %a13 = arith.mulf %e#1, %f13 : f16
  %s13 = math.sin %a13 : f16
  %c13 = math.cos %a13 : f16
  %enc = "coopvec.from_elements"(%s00, %c00, %s01, %c01, %s02, %c02, %s03, %c03, %s10, %c10, %s11, %c11, %s12, %c12, %s13, %c13) : (f16, f16, f16, f16, f16, f16, f16, f16, f16, f16, f16, f16, f16, f16, f16, f16) -> !coopvec.vec<16, f16>
  %cb2 = arith.constant 336 : index
  %W1 = "coopvec.matrix_view"(%w) {offset = 0} : (memref<?xf16>) -> !coopvec.matrix<16, 16, f16, "inference">
  %b1 = "coopvec.load"(%w, %c256) : (memref<?xf16>, index) -> !coopvec.vec<16, f16>
  %h = "coopvec.matvec"(%W1, %enc, %b1) : (!coopvec.matrix<16, 16, f16, "inference">, !coopvec.vec<16, f16>, !coopvec.vec<16, f16>) -> !coopvec.vec<16, f16>
  %a = "coopvec.tanh"(%h) : (!coopvec.vec<16, f16>) -> !coopvec.vec<16, f16>
  %W2 = "coopvec.matrix_view"(%w) {offset = 576} : (memref<?xf16>) -> !coopvec.matrix<3, 16, f16, "inference">
  %b2 = "coopvec.load"(%w, %cb2) : (memref<?xf16>, index) -> !coopvec.vec<3, f16>
  %y = "coopvec.matvec"(%W2, %a, %b2) : (!coopvec.matrix<3, 16, f16, "inference">, !coopvec.vec<16, f16>, !coopvec.vec<3, f16>) -> !coopvec.vec<3, f16>
  return %y : !coopvec.vec<3, f16>
}
