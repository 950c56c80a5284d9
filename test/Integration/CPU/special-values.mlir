// Special values (docs/dialect.md, "Special values"), f32: every
// elementwise op, cast and matvec on NaN, +-inf, +-0, the largest finite
// value, the smallest subnormal and results that overflow or underflow,
// through both engines: the JIT (coopvec-lower-to-cpu) and the reference
// interpreter (--reference). Every printed value is the one the rule gives,
// so the test fails if either engine departs from it.
//
// The inputs are constants built inside @special with from_elements, each
// vector multiplied by %rt1, a 1.0 read at run time (x * 1 = x for every
// IEEE value): without it MLIR's and LLVM's constant folders would compute
// every result at compile time, and the test would check them instead of
// the lowered code. %d only makes the function per-thread (--random fills
// it). Each thread computes the same values: the sed / uniq pipe drops the
// row numbers and merges equal rows, so "[[N]] values" says that all N
// threads printed exactly those values (batch 1, and 17: partial SIMD
// groups, also with 4 lanes: four full groups and one thread). %rt1 and
// the weights (a 4 x 4 row-major matrix) are .npy files written with
// printf (no NumPy needed):
//   [ 1,   2,   3,   0.5 ]
//   [ inf, 1,   1,   1   ]
//   [ max, max, 1,   1   ]
//   [ NaN, 1,   1,   1   ]
// NaN prints as nan or -nan (the sign of a NaN is not specified); the sign
// of min / max of two zeros of different signs is the target's.
//
// RUN: printf "\x93NUMPY\x01\x00\x76\x00%%-117s\n" "{'descr': '<f4', 'fortran_order': False, 'shape': (), }" > %t.one.npy
// RUN: printf '\x00\x00\x80\x3f' >> %t.one.npy
// RUN: printf "\x93NUMPY\x01\x00\x76\x00%%-117s\n" "{'descr': '<f4', 'fortran_order': False, 'shape': (16,), }" > %t.w.npy
// RUN: printf '\x00\x00\x80\x3f\x00\x00\x00\x40\x00\x00\x40\x40\x00\x00\x00\x3f\x00\x00\x80\x7f\x00\x00\x80\x3f\x00\x00\x80\x3f\x00\x00\x80\x3f\xff\xff\x7f\x7f\xff\xff\x7f\x7f\x00\x00\x80\x3f\x00\x00\x80\x3f\x00\x00\xc0\x7f\x00\x00\x80\x3f\x00\x00\x80\x3f\x00\x00\x80\x3f' >> %t.w.npy
// RUN: coopvec-run %s --entry=special --batch=1 --arg=%t.one.npy --arg=%t.w.npy --random --print | sed -e 's/^  \[[0-9]*\]//' | uniq -c | FileCheck %s --match-full-lines -DN=1
// RUN: coopvec-run %s --entry=special --batch=17 --arg=%t.one.npy --arg=%t.w.npy --random --print | sed -e 's/^  \[[0-9]*\]//' | uniq -c | FileCheck %s --match-full-lines -DN=17
// RUN: coopvec-run %s --entry=special --batch=17 --lanes=4 --arg=%t.one.npy --arg=%t.w.npy --random --print | sed -e 's/^  \[[0-9]*\]//' | uniq -c | FileCheck %s --match-full-lines -DN=17
// RUN: coopvec-run %s --entry=special --batch=17 --arg=%t.one.npy --arg=%t.w.npy --random --reference --print | sed -e 's/^  \[[0-9]*\]//' | uniq -c | FileCheck %s --match-full-lines -DN=17

// neg S, with S = [NaN, inf, -inf, 0, -0, max, -max, tiny, -tiny]
// CHECK: 1 result 0: f32, shape ([[N]], 9)
// CHECK-NEXT: [[N]] {{-?nan}} -inf inf -0 0 -3.40282347e+38 3.40282347e+38 -1.40129846e-45 1.40129846e-45
// add S, [1, -inf, -inf, -0, -0, max, max, tiny, tiny]
// CHECK-NEXT: 1 result 1: f32, shape ([[N]], 9)
// CHECK-NEXT: [[N]] {{-?nan}} {{-?nan}} -inf 0 -0 inf 0 2.80259693e-45 0
// sub S, the same
// CHECK-NEXT: 1 result 2: f32, shape ([[N]], 9)
// CHECK-NEXT: [[N]] {{-?nan}} inf {{-?nan}} 0 0 0 -inf 0 -2.80259693e-45
// mul S, [2, 0, 2, -1, -1, 2, 0.5, 0.5, -0.5]
// CHECK-NEXT: 1 result 3: f32, shape ([[N]], 9)
// CHECK-NEXT: [[N]] {{-?nan}} {{-?nan}} -inf -0 0 inf -1.70141173e+38 0 0
// mul S, 0 (a scalar)
// CHECK-NEXT: 1 result 4: f32, shape ([[N]], 9)
// CHECK-NEXT: [[N]] {{-?nan}} {{-?nan}} {{-?nan}} 0 -0 0 -0 0 -0
// min / max S, [1, NaN, 0, -0, 0, NaN, inf, -tiny, NaN]
// CHECK-NEXT: 1 result 5: f32, shape ([[N]], 9)
// CHECK-NEXT: [[N]] 1 inf -inf {{-?0}} {{-?0}} 3.40282347e+38 -3.40282347e+38 -1.40129846e-45 -1.40129846e-45
// CHECK-NEXT: 1 result 6: f32, shape ([[N]], 9)
// CHECK-NEXT: [[N]] 1 inf 0 {{-?0}} {{-?0}} 3.40282347e+38 inf 1.40129846e-45 -1.40129846e-45
// min / max [NaN, -0], [NaN, -0]
// CHECK-NEXT: 1 result 7: f32, shape ([[N]], 2)
// CHECK-NEXT: [[N]] {{-?nan}} -0
// CHECK-NEXT: 1 result 8: f32, shape ([[N]], 2)
// CHECK-NEXT: [[N]] {{-?nan}} -0
// step S, [0, NaN, 0, -0, 0, inf, -inf, 0, 0]
// CHECK-NEXT: 1 result 9: f32, shape ([[N]], 9)
// CHECK-NEXT: [[N]] 1 1 0 1 1 0 1 1 0
// step S, NaN (a scalar)
// CHECK-NEXT: 1 result 10: f32, shape ([[N]], 9)
// CHECK-NEXT: [[N]] 1 1 1 1 1 1 1 1 1
// fma [max, inf, NaN, 1, -0, 0, tiny, tiny, inf, max]
//     [2,   0,   1,   1, 1,  -1, 0.5,  0.5,  1,   max]
//     [-max, 1,  1, NaN, -0, 0, 0,    tiny, -inf, -inf]
// CHECK-NEXT: 1 result 11: f32, shape ([[N]], 10)
// CHECK-NEXT: [[N]] 3.40282347e+38 {{-?nan}} {{-?nan}} {{-?nan}} -0 0 0 2.80259693e-45 {{-?nan}} -inf
// fma S, -1, -0 (scalars)
// CHECK-NEXT: 1 result 12: f32, shape ([[N]], 9)
// CHECK-NEXT: [[N]] {{-?nan}} -inf inf -0 0 -3.40282347e+38 3.40282347e+38 -1.40129846e-45 1.40129846e-45
// exp2 S
// CHECK-NEXT: 1 result 13: f32, shape ([[N]], 9)
// CHECK-NEXT: [[N]] {{-?nan}} inf 0 1 1 inf 0 1 1
// exp2 [200, -200, 128, 127, -126, -140, -149, -149.5, -150]
// CHECK-NEXT: 1 result 14: f32, shape ([[N]], 9)
// CHECK-NEXT: [[N]] inf 0 inf 1.70141183e+38 1.17549435e-38 7.17464814e-43 1.40129846e-45 1.40129846e-45 0
// log2 S
// CHECK-NEXT: 1 result 15: f32, shape ([[N]], 9)
// CHECK-NEXT: [[N]] {{-?nan}} inf {{-?nan}} -inf -inf 128 {{-?nan}} -149 {{-?nan}}
// log2 [2^-126, 2^-140, 0.5, 1, 2, 1024, 2^127, -1e-30]
// CHECK-NEXT: 1 result 16: f32, shape ([[N]], 8)
// CHECK-NEXT: [[N]] -126 -140 -1 0 1 10 127 {{-?nan}}
// tanh S
// CHECK-NEXT: 1 result 17: f32, shape ([[N]], 9)
// CHECK-NEXT: [[N]] {{-?nan}} 1 -1 0 -0 1 -1 1.40129846e-45 -1.40129846e-45
// tanh [10, -10, 20, 2^-13, -1e-30, 2^-126, 9.5]
// CHECK-NEXT: 1 result 18: f32, shape ([[N]], 7)
// CHECK-NEXT: [[N]] 1 -1 1 0.000122070312 -1e-30 1.17549435e-38 1
// cast to f16: S
// CHECK-NEXT: 1 result 19: f16, shape ([[N]], 9)
// CHECK-NEXT: [[N]] {{-?nan}} inf -inf 0 -0 inf -inf 0 -0
// cast to f16: [1e6, 65504, 65519, 65520, -65520, 2^-24, 2^-25,
//               2^-25 (1 + 2^-23), 1 + 2^-11, 1 + 3 * 2^-11]
// CHECK-NEXT: 1 result 20: f16, shape ([[N]], 10)
// CHECK-NEXT: [[N]] inf 65504 65504 inf -inf 5.9605e-08 0 5.9605e-08 1 1.002
// matvec A, [-0, -0, -0, -0]: sums of -0 products are -0
// CHECK-NEXT: 1 result 21: f32, shape ([[N]], 4)
// CHECK-NEXT: [[N]] -0 {{-?nan}} -0 {{-?nan}}
// matvec A, [2, 2, 0, 0]: max * 2 overflows
// CHECK-NEXT: 1 result 22: f32, shape ([[N]], 4)
// CHECK-NEXT: [[N]] 6 inf inf {{-?nan}}
// matvec A, [1, -1, 0, 0]: max - max is +0
// CHECK-NEXT: 1 result 23: f32, shape ([[N]], 4)
// CHECK-NEXT: [[N]] -1 inf 0 {{-?nan}}
// matvec A^T, [-0, -0, -0, -0]
// CHECK-NEXT: 1 result 24: f32, shape ([[N]], 4)
// CHECK-NEXT: [[N]] {{-?nan}} -0 -0 -0
// matvec A, [-0, -0, -0, -0], bias [0, 1, -0, 5]
// CHECK-NEXT: 1 result 25: f32, shape ([[N]], 4)
// CHECK-NEXT: [[N]] 0 {{-?nan}} -0 {{-?nan}}

!v2 = !coopvec.vec<2, f32>
!v4 = !coopvec.vec<4, f32>
!v7 = !coopvec.vec<7, f32>
!v8 = !coopvec.vec<8, f32>
!v9 = !coopvec.vec<9, f32>
!v10 = !coopvec.vec<10, f32>
!h9 = !coopvec.vec<9, f16>
!h10 = !coopvec.vec<10, f16>
!m = !coopvec.matrix<4, 4, f32, "row_major">

func.func @special(%rt1: f32, %w: memref<16xf32>, %d: !coopvec.vec<1, f32>)
    -> (!v9, !v9, !v9, !v9, !v9, !v9, !v9, !v2, !v2, !v9, !v9, !v10, !v9,
        !v9, !v9, !v9, !v8, !v9, !v7, !h9, !h10, !v4, !v4, !v4, !v4, !v4) {
  %nan = arith.constant 0x7FC00000 : f32
  %inf = arith.constant 0x7F800000 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %nzero = arith.constant -0.0 : f32
  %max = arith.constant 0x7F7FFFFF : f32
  %nmax = arith.constant 0xFF7FFFFF : f32
  %tiny = arith.constant 0x00000001 : f32
  %ntiny = arith.constant 0x80000001 : f32
  %one = arith.constant 1.0 : f32
  %none = arith.constant -1.0 : f32
  %two = arith.constant 2.0 : f32
  %half = arith.constant 0.5 : f32
  %nhalf = arith.constant -0.5 : f32
  %S_c = "coopvec.from_elements"(%nan, %inf, %ninf, %zero, %nzero, %max, %nmax, %tiny, %ntiny) : (f32, f32, f32, f32, f32, f32, f32, f32, f32) -> !v9
  %S = "coopvec.mul"(%S_c, %rt1) : (!v9, f32) -> !v9

  %r0 = "coopvec.neg"(%S) : (!v9) -> !v9
  %T_c = "coopvec.from_elements"(%one, %ninf, %ninf, %nzero, %nzero, %max, %max, %tiny, %tiny) : (f32, f32, f32, f32, f32, f32, f32, f32, f32) -> !v9
  %T = "coopvec.mul"(%T_c, %rt1) : (!v9, f32) -> !v9
  %r1 = "coopvec.add"(%S, %T) : (!v9, !v9) -> !v9
  %r2 = "coopvec.sub"(%S, %T) : (!v9, !v9) -> !v9
  %U_c = "coopvec.from_elements"(%two, %zero, %two, %none, %none, %two, %half, %half, %nhalf) : (f32, f32, f32, f32, f32, f32, f32, f32, f32) -> !v9
  %U = "coopvec.mul"(%U_c, %rt1) : (!v9, f32) -> !v9
  %r3 = "coopvec.mul"(%S, %U) : (!v9, !v9) -> !v9
  %r4 = "coopvec.mul"(%S, %zero) : (!v9, f32) -> !v9

  %M_c = "coopvec.from_elements"(%one, %nan, %zero, %nzero, %zero, %nan, %inf, %ntiny, %nan) : (f32, f32, f32, f32, f32, f32, f32, f32, f32) -> !v9
  %M = "coopvec.mul"(%M_c, %rt1) : (!v9, f32) -> !v9
  %r5 = "coopvec.min"(%S, %M) : (!v9, !v9) -> !v9
  %r6 = "coopvec.max"(%S, %M) : (!v9, !v9) -> !v9
  %P_c = "coopvec.from_elements"(%nan, %nzero) : (f32, f32) -> !v2
  %P = "coopvec.mul"(%P_c, %rt1) : (!v2, f32) -> !v2
  %r7 = "coopvec.min"(%P, %P) : (!v2, !v2) -> !v2
  %r8 = "coopvec.max"(%P, %P) : (!v2, !v2) -> !v2
  %E_c = "coopvec.from_elements"(%zero, %nan, %zero, %nzero, %zero, %inf, %ninf, %zero, %zero) : (f32, f32, f32, f32, f32, f32, f32, f32, f32) -> !v9
  %E = "coopvec.mul"(%E_c, %rt1) : (!v9, f32) -> !v9
  %r9 = "coopvec.step"(%S, %E) : (!v9, !v9) -> !v9
  %r10 = "coopvec.step"(%S, %nan) : (!v9, f32) -> !v9

  %F1_c = "coopvec.from_elements"(%max, %inf, %nan, %one, %nzero, %zero, %tiny, %tiny, %inf, %max) : (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32) -> !v10
  %F1 = "coopvec.mul"(%F1_c, %rt1) : (!v10, f32) -> !v10
  %F2_c = "coopvec.from_elements"(%two, %zero, %one, %one, %one, %none, %half, %half, %one, %max) : (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32) -> !v10
  %F2 = "coopvec.mul"(%F2_c, %rt1) : (!v10, f32) -> !v10
  %F3_c = "coopvec.from_elements"(%nmax, %one, %one, %nan, %nzero, %zero, %zero, %tiny, %ninf, %ninf) : (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32) -> !v10
  %F3 = "coopvec.mul"(%F3_c, %rt1) : (!v10, f32) -> !v10
  %r11 = "coopvec.fma"(%F1, %F2, %F3) : (!v10, !v10, !v10) -> !v10
  %r12 = "coopvec.fma"(%S, %none, %nzero) : (!v9, f32, f32) -> !v9

  %r13 = "coopvec.exp2"(%S) : (!v9) -> !v9
  %x200 = arith.constant 200.0 : f32
  %xm200 = arith.constant -200.0 : f32
  %x128 = arith.constant 128.0 : f32
  %x127 = arith.constant 127.0 : f32
  %xm126 = arith.constant -126.0 : f32
  %xm140 = arith.constant -140.0 : f32
  %xm149 = arith.constant -149.0 : f32
  %xm149h = arith.constant -149.5 : f32
  %xm150 = arith.constant -150.0 : f32
  %X_c = "coopvec.from_elements"(%x200, %xm200, %x128, %x127, %xm126, %xm140, %xm149, %xm149h, %xm150) : (f32, f32, f32, f32, f32, f32, f32, f32, f32) -> !v9
  %X = "coopvec.mul"(%X_c, %rt1) : (!v9, f32) -> !v9
  %r14 = "coopvec.exp2"(%X) : (!v9) -> !v9

  %r15 = "coopvec.log2"(%S) : (!v9) -> !v9
  %p126 = arith.constant 0x00800000 : f32
  %p140 = arith.constant 0x00000200 : f32
  %p1024 = arith.constant 1024.0 : f32
  %p127 = arith.constant 0x7F000000 : f32
  %neps = arith.constant -1.0e-30 : f32
  %L_c = "coopvec.from_elements"(%p126, %p140, %half, %one, %two, %p1024, %p127, %neps) : (f32, f32, f32, f32, f32, f32, f32, f32) -> !v8
  %L = "coopvec.mul"(%L_c, %rt1) : (!v8, f32) -> !v8
  %r16 = "coopvec.log2"(%L) : (!v8) -> !v8

  %r17 = "coopvec.tanh"(%S) : (!v9) -> !v9
  %t10 = arith.constant 10.0 : f32
  %tm10 = arith.constant -10.0 : f32
  %t20 = arith.constant 20.0 : f32
  %t13 = arith.constant 0x39000000 : f32
  %t95 = arith.constant 9.5 : f32
  %H_c = "coopvec.from_elements"(%t10, %tm10, %t20, %t13, %neps, %p126, %t95) : (f32, f32, f32, f32, f32, f32, f32) -> !v7
  %H = "coopvec.mul"(%H_c, %rt1) : (!v7, f32) -> !v7
  %r18 = "coopvec.tanh"(%H) : (!v7) -> !v7

  %r19 = "coopvec.cast"(%S) : (!v9) -> !h9
  %c1e6 = arith.constant 1.0e6 : f32
  %c65504 = arith.constant 65504.0 : f32
  %c65519 = arith.constant 65519.0 : f32
  %c65520 = arith.constant 65520.0 : f32
  %cm65520 = arith.constant -65520.0 : f32
  %c24 = arith.constant 0x33800000 : f32
  %c25 = arith.constant 0x33000000 : f32
  %c25up = arith.constant 0x33000001 : f32
  %c1tie = arith.constant 0x3F801000 : f32
  %c3tie = arith.constant 0x3F803000 : f32
  %C_c = "coopvec.from_elements"(%c1e6, %c65504, %c65519, %c65520, %cm65520, %c24, %c25, %c25up, %c1tie, %c3tie) : (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32) -> !v10
  %C = "coopvec.mul"(%C_c, %rt1) : (!v10, f32) -> !v10
  %r20 = "coopvec.cast"(%C) : (!v10) -> !h10

  %A = "coopvec.matrix_view"(%w) {offset = 0} : (memref<16xf32>) -> !m
  %XA_c = "coopvec.from_elements"(%nzero, %nzero, %nzero, %nzero) : (f32, f32, f32, f32) -> !v4
  %XA = "coopvec.mul"(%XA_c, %rt1) : (!v4, f32) -> !v4
  %r21 = "coopvec.matvec"(%A, %XA) : (!m, !v4) -> !v4
  %XB_c = "coopvec.from_elements"(%two, %two, %zero, %zero) : (f32, f32, f32, f32) -> !v4
  %XB = "coopvec.mul"(%XB_c, %rt1) : (!v4, f32) -> !v4
  %r22 = "coopvec.matvec"(%A, %XB) : (!m, !v4) -> !v4
  %XC_c = "coopvec.from_elements"(%one, %none, %zero, %zero) : (f32, f32, f32, f32) -> !v4
  %XC = "coopvec.mul"(%XC_c, %rt1) : (!v4, f32) -> !v4
  %r23 = "coopvec.matvec"(%A, %XC) : (!m, !v4) -> !v4
  %r24 = "coopvec.matvec"(%A, %XA) {transpose} : (!m, !v4) -> !v4
  %five = arith.constant 5.0 : f32
  %B_c = "coopvec.from_elements"(%zero, %one, %nzero, %five) : (f32, f32, f32, f32) -> !v4
  %B = "coopvec.mul"(%B_c, %rt1) : (!v4, f32) -> !v4
  %r25 = "coopvec.matvec"(%A, %XA, %B) : (!m, !v4, !v4) -> !v4

  return %r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8, %r9, %r10, %r11, %r12,
         %r13, %r14, %r15, %r16, %r17, %r18, %r19, %r20, %r21, %r22, %r23,
         %r24, %r25
      : !v9, !v9, !v9, !v9, !v9, !v9, !v9, !v2, !v2, !v9, !v9, !v10, !v9,
        !v9, !v9, !v9, !v8, !v9, !v7, !h9, !h10, !v4, !v4, !v4, !v4, !v4
}
