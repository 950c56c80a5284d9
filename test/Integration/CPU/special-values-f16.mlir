// Special values (docs/dialect.md, "Special values"), f16: the twin of
// special-values.mlir (read its header) for vecs of f16, whose values the
// lowering computes in f32 and rounds to f16 when they are stored, while
// the interpreter rounds its double results to f16 (%rt1 is an f16 1.0
// read at run time, as there). Here max = 65504 and
// tiny = 2^-24, the smallest f16 subnormal; results overflow above 65504
// and round to zero at 2^-25 (a tie, to even). The weights are the f16
// matrix
//   [ 1,   2,   3,   0.5 ]
//   [ inf, 1,   1,   1   ]
//   [ max, max, 1,   1   ]
//   [ NaN, 1,   1,   1   ]
// whose products accumulate in f32 (max + max does not overflow until the
// result is rounded to f16).
//
// RUN: printf "\x93NUMPY\x01\x00\x76\x00%%-117s\n" "{'descr': '<f2', 'fortran_order': False, 'shape': (), }" > %t.one.npy
// RUN: printf '\x00\x3c' >> %t.one.npy
// RUN: printf "\x93NUMPY\x01\x00\x76\x00%%-117s\n" "{'descr': '<f2', 'fortran_order': False, 'shape': (16,), }" > %t.w.npy
// RUN: printf '\x00\x3c\x00\x40\x00\x42\x00\x38\x00\x7c\x00\x3c\x00\x3c\x00\x3c\xff\x7b\xff\x7b\x00\x3c\x00\x3c\x00\x7e\x00\x3c\x00\x3c\x00\x3c' >> %t.w.npy
// RUN: coopvec-run %s --entry=special --batch=1 --arg=%t.one.npy --arg=%t.w.npy --random --print | sed -e 's/^  \[[0-9]*\]//' | uniq -c | FileCheck %s --match-full-lines -DN=1
// RUN: coopvec-run %s --entry=special --batch=17 --arg=%t.one.npy --arg=%t.w.npy --random --print | sed -e 's/^  \[[0-9]*\]//' | uniq -c | FileCheck %s --match-full-lines -DN=17
// RUN: coopvec-run %s --entry=special --batch=17 --lanes=4 --arg=%t.one.npy --arg=%t.w.npy --random --print | sed -e 's/^  \[[0-9]*\]//' | uniq -c | FileCheck %s --match-full-lines -DN=17
// RUN: coopvec-run %s --entry=special --batch=17 --arg=%t.one.npy --arg=%t.w.npy --random --reference --print | sed -e 's/^  \[[0-9]*\]//' | uniq -c | FileCheck %s --match-full-lines -DN=17

// neg S, with S = [NaN, inf, -inf, 0, -0, max, -max, tiny, -tiny]
// CHECK: 1 result 0: f16, shape ([[N]], 9)
// CHECK-NEXT: [[N]] {{-?nan}} -inf inf -0 0 -65504 65504 -5.9605e-08 5.9605e-08
// add S, [1, -inf, -inf, -0, -0, max, max, tiny, tiny]
// CHECK-NEXT: 1 result 1: f16, shape ([[N]], 9)
// CHECK-NEXT: [[N]] {{-?nan}} {{-?nan}} -inf 0 -0 inf 0 1.1921e-07 0
// sub S, the same
// CHECK-NEXT: 1 result 2: f16, shape ([[N]], 9)
// CHECK-NEXT: [[N]] {{-?nan}} inf {{-?nan}} 0 0 0 -inf 0 -1.1921e-07
// mul S, [2, 0, 2, -1, -1, 2, 0.5, 0.5, -0.5]
// CHECK-NEXT: 1 result 3: f16, shape ([[N]], 9)
// CHECK-NEXT: [[N]] {{-?nan}} {{-?nan}} -inf -0 0 inf -32752 0 0
// mul S, 0 (a scalar)
// CHECK-NEXT: 1 result 4: f16, shape ([[N]], 9)
// CHECK-NEXT: [[N]] {{-?nan}} {{-?nan}} {{-?nan}} 0 -0 0 -0 0 -0
// min / max S, [1, NaN, 0, -0, 0, NaN, inf, -tiny, NaN]
// CHECK-NEXT: 1 result 5: f16, shape ([[N]], 9)
// CHECK-NEXT: [[N]] 1 inf -inf {{-?0}} {{-?0}} 65504 -65504 -5.9605e-08 -5.9605e-08
// CHECK-NEXT: 1 result 6: f16, shape ([[N]], 9)
// CHECK-NEXT: [[N]] 1 inf 0 {{-?0}} {{-?0}} 65504 inf 5.9605e-08 -5.9605e-08
// min / max [NaN, -0], [NaN, -0]
// CHECK-NEXT: 1 result 7: f16, shape ([[N]], 2)
// CHECK-NEXT: [[N]] {{-?nan}} -0
// CHECK-NEXT: 1 result 8: f16, shape ([[N]], 2)
// CHECK-NEXT: [[N]] {{-?nan}} -0
// step S, [0, NaN, 0, -0, 0, inf, -inf, 0, 0]
// CHECK-NEXT: 1 result 9: f16, shape ([[N]], 9)
// CHECK-NEXT: [[N]] 1 1 0 1 1 0 1 1 0
// step S, NaN (a scalar)
// CHECK-NEXT: 1 result 10: f16, shape ([[N]], 9)
// CHECK-NEXT: [[N]] 1 1 1 1 1 1 1 1 1
// fma [max, inf, NaN, 1, -0, 0, tiny, tiny, inf, max]
//     [2,   0,   1,   1, 1,  -1, 0.5,  0.5,  1,   max]
//     [-max, 1,  1, NaN, -0, 0, 0,    tiny, -inf, -inf]
// CHECK-NEXT: 1 result 11: f16, shape ([[N]], 10)
// CHECK-NEXT: [[N]] 65504 {{-?nan}} {{-?nan}} {{-?nan}} -0 0 0 1.1921e-07 {{-?nan}} -inf
// fma S, -1, -0 (scalars)
// CHECK-NEXT: 1 result 12: f16, shape ([[N]], 9)
// CHECK-NEXT: [[N]] {{-?nan}} -inf inf -0 0 -65504 65504 -5.9605e-08 5.9605e-08
// exp2 S
// CHECK-NEXT: 1 result 13: f16, shape ([[N]], 9)
// CHECK-NEXT: [[N]] {{-?nan}} inf 0 1 1 inf 0 1 1
// exp2 [16, -16, 15, -14, -24, -24.5, -25, 20, -20]
// CHECK-NEXT: 1 result 14: f16, shape ([[N]], 9)
// CHECK-NEXT: [[N]] inf 1.5259e-05 32768 6.1035e-05 5.9605e-08 5.9605e-08 0 inf 9.5367e-07
// log2 S
// CHECK-NEXT: 1 result 15: f16, shape ([[N]], 9)
// CHECK-NEXT: [[N]] {{-?nan}} inf {{-?nan}} -inf -inf 16 {{-?nan}} -24 {{-?nan}}
// log2 [2^-14, 2^-20, 0.5, 1, 2, 1024, 32768, -0.001]
// CHECK-NEXT: 1 result 16: f16, shape ([[N]], 8)
// CHECK-NEXT: [[N]] -14 -20 -1 0 1 10 15 {{-?nan}}
// tanh S
// CHECK-NEXT: 1 result 17: f16, shape ([[N]], 9)
// CHECK-NEXT: [[N]] {{-?nan}} 1 -1 0 -0 1 -1 5.9605e-08 -5.9605e-08
// tanh [10, -10, 2^-13, -2^-20, 2^-14, 5]
// CHECK-NEXT: 1 result 18: f16, shape ([[N]], 6)
// CHECK-NEXT: [[N]] 1 -1 0.00012207 -9.5367e-07 6.1035e-05 1
// cast to f32: S (exact)
// CHECK-NEXT: 1 result 19: f32, shape ([[N]], 9)
// CHECK-NEXT: [[N]] {{-?nan}} inf -inf 0 -0 65504 -65504 5.96046448e-08 -5.96046448e-08
// matvec A, [-0, -0, -0, -0]: sums of -0 products are -0
// CHECK-NEXT: 1 result 20: f16, shape ([[N]], 4)
// CHECK-NEXT: [[N]] -0 {{-?nan}} -0 {{-?nan}}
// matvec A, [2, 2, 0, 0]: 4 max overflows when rounded to f16
// CHECK-NEXT: 1 result 21: f16, shape ([[N]], 4)
// CHECK-NEXT: [[N]] 6 inf inf {{-?nan}}
// matvec A, [1, -1, 0, 0]: max - max is +0
// CHECK-NEXT: 1 result 22: f16, shape ([[N]], 4)
// CHECK-NEXT: [[N]] -1 inf 0 {{-?nan}}
// matvec A^T, [-0, -0, -0, -0]
// CHECK-NEXT: 1 result 23: f16, shape ([[N]], 4)
// CHECK-NEXT: [[N]] {{-?nan}} -0 -0 -0
// matvec A, [-0, -0, -0, -0], bias [0, 1, -0, 5]
// CHECK-NEXT: 1 result 24: f16, shape ([[N]], 4)
// CHECK-NEXT: [[N]] 0 {{-?nan}} -0 {{-?nan}}
// matvec A, [1, 1, -max, 0]: max + max - max is max, as the sum is in f32
// CHECK-NEXT: 1 result 25: f16, shape ([[N]], 4)
// CHECK-NEXT: [[N]] -inf inf 65504 {{-?nan}}

!h2 = !coopvec.vec<2, f16>
!h4 = !coopvec.vec<4, f16>
!h6 = !coopvec.vec<6, f16>
!h8 = !coopvec.vec<8, f16>
!h9 = !coopvec.vec<9, f16>
!h10 = !coopvec.vec<10, f16>
!v9 = !coopvec.vec<9, f32>
!m = !coopvec.matrix<4, 4, f16, "row_major">

func.func @special(%rt1: f16, %w: memref<16xf16>, %d: !coopvec.vec<1, f16>)
    -> (!h9, !h9, !h9, !h9, !h9, !h9, !h9, !h2, !h2, !h9, !h9, !h10, !h9,
        !h9, !h9, !h9, !h8, !h9, !h6, !v9, !h4, !h4, !h4, !h4, !h4, !h4) {
  %nan = arith.constant 0x7E00 : f16
  %inf = arith.constant 0x7C00 : f16
  %ninf = arith.constant 0xFC00 : f16
  %zero = arith.constant 0.0 : f16
  %nzero = arith.constant -0.0 : f16
  %max = arith.constant 65504.0 : f16
  %nmax = arith.constant -65504.0 : f16
  %tiny = arith.constant 0x0001 : f16
  %ntiny = arith.constant 0x8001 : f16
  %one = arith.constant 1.0 : f16
  %none = arith.constant -1.0 : f16
  %two = arith.constant 2.0 : f16
  %half = arith.constant 0.5 : f16
  %nhalf = arith.constant -0.5 : f16
  %S_c = "coopvec.from_elements"(%nan, %inf, %ninf, %zero, %nzero, %max, %nmax, %tiny, %ntiny) : (f16, f16, f16, f16, f16, f16, f16, f16, f16) -> !h9
  %S = "coopvec.mul"(%S_c, %rt1) : (!h9, f16) -> !h9

  %r0 = "coopvec.neg"(%S) : (!h9) -> !h9
  %T_c = "coopvec.from_elements"(%one, %ninf, %ninf, %nzero, %nzero, %max, %max, %tiny, %tiny) : (f16, f16, f16, f16, f16, f16, f16, f16, f16) -> !h9
  %T = "coopvec.mul"(%T_c, %rt1) : (!h9, f16) -> !h9
  %r1 = "coopvec.add"(%S, %T) : (!h9, !h9) -> !h9
  %r2 = "coopvec.sub"(%S, %T) : (!h9, !h9) -> !h9
  %U_c = "coopvec.from_elements"(%two, %zero, %two, %none, %none, %two, %half, %half, %nhalf) : (f16, f16, f16, f16, f16, f16, f16, f16, f16) -> !h9
  %U = "coopvec.mul"(%U_c, %rt1) : (!h9, f16) -> !h9
  %r3 = "coopvec.mul"(%S, %U) : (!h9, !h9) -> !h9
  %r4 = "coopvec.mul"(%S, %zero) : (!h9, f16) -> !h9

  %M_c = "coopvec.from_elements"(%one, %nan, %zero, %nzero, %zero, %nan, %inf, %ntiny, %nan) : (f16, f16, f16, f16, f16, f16, f16, f16, f16) -> !h9
  %M = "coopvec.mul"(%M_c, %rt1) : (!h9, f16) -> !h9
  %r5 = "coopvec.min"(%S, %M) : (!h9, !h9) -> !h9
  %r6 = "coopvec.max"(%S, %M) : (!h9, !h9) -> !h9
  %P_c = "coopvec.from_elements"(%nan, %nzero) : (f16, f16) -> !h2
  %P = "coopvec.mul"(%P_c, %rt1) : (!h2, f16) -> !h2
  %r7 = "coopvec.min"(%P, %P) : (!h2, !h2) -> !h2
  %r8 = "coopvec.max"(%P, %P) : (!h2, !h2) -> !h2
  %E_c = "coopvec.from_elements"(%zero, %nan, %zero, %nzero, %zero, %inf, %ninf, %zero, %zero) : (f16, f16, f16, f16, f16, f16, f16, f16, f16) -> !h9
  %E = "coopvec.mul"(%E_c, %rt1) : (!h9, f16) -> !h9
  %r9 = "coopvec.step"(%S, %E) : (!h9, !h9) -> !h9
  %r10 = "coopvec.step"(%S, %nan) : (!h9, f16) -> !h9

  %F1_c = "coopvec.from_elements"(%max, %inf, %nan, %one, %nzero, %zero, %tiny, %tiny, %inf, %max) : (f16, f16, f16, f16, f16, f16, f16, f16, f16, f16) -> !h10
  %F1 = "coopvec.mul"(%F1_c, %rt1) : (!h10, f16) -> !h10
  %F2_c = "coopvec.from_elements"(%two, %zero, %one, %one, %one, %none, %half, %half, %one, %max) : (f16, f16, f16, f16, f16, f16, f16, f16, f16, f16) -> !h10
  %F2 = "coopvec.mul"(%F2_c, %rt1) : (!h10, f16) -> !h10
  %F3_c = "coopvec.from_elements"(%nmax, %one, %one, %nan, %nzero, %zero, %zero, %tiny, %ninf, %ninf) : (f16, f16, f16, f16, f16, f16, f16, f16, f16, f16) -> !h10
  %F3 = "coopvec.mul"(%F3_c, %rt1) : (!h10, f16) -> !h10
  %r11 = "coopvec.fma"(%F1, %F2, %F3) : (!h10, !h10, !h10) -> !h10
  %r12 = "coopvec.fma"(%S, %none, %nzero) : (!h9, f16, f16) -> !h9

  %r13 = "coopvec.exp2"(%S) : (!h9) -> !h9
  %x16 = arith.constant 16.0 : f16
  %xm16 = arith.constant -16.0 : f16
  %x15 = arith.constant 15.0 : f16
  %xm14 = arith.constant -14.0 : f16
  %xm24 = arith.constant -24.0 : f16
  %xm24h = arith.constant -24.5 : f16
  %xm25 = arith.constant -25.0 : f16
  %x20 = arith.constant 20.0 : f16
  %xm20 = arith.constant -20.0 : f16
  %X_c = "coopvec.from_elements"(%x16, %xm16, %x15, %xm14, %xm24, %xm24h, %xm25, %x20, %xm20) : (f16, f16, f16, f16, f16, f16, f16, f16, f16) -> !h9
  %X = "coopvec.mul"(%X_c, %rt1) : (!h9, f16) -> !h9
  %r14 = "coopvec.exp2"(%X) : (!h9) -> !h9

  %r15 = "coopvec.log2"(%S) : (!h9) -> !h9
  %p14 = arith.constant 0x0400 : f16
  %p20 = arith.constant 0x0010 : f16
  %p1024 = arith.constant 1024.0 : f16
  %p32768 = arith.constant 32768.0 : f16
  %neps = arith.constant -1.0e-3 : f16
  %L_c = "coopvec.from_elements"(%p14, %p20, %half, %one, %two, %p1024, %p32768, %neps) : (f16, f16, f16, f16, f16, f16, f16, f16) -> !h8
  %L = "coopvec.mul"(%L_c, %rt1) : (!h8, f16) -> !h8
  %r16 = "coopvec.log2"(%L) : (!h8) -> !h8

  %r17 = "coopvec.tanh"(%S) : (!h9) -> !h9
  %t10 = arith.constant 10.0 : f16
  %tm10 = arith.constant -10.0 : f16
  %t13 = arith.constant 0x0800 : f16
  %tm20 = arith.constant 0x8010 : f16
  %t5 = arith.constant 5.0 : f16
  %H_c = "coopvec.from_elements"(%t10, %tm10, %t13, %tm20, %p14, %t5) : (f16, f16, f16, f16, f16, f16) -> !h6
  %H = "coopvec.mul"(%H_c, %rt1) : (!h6, f16) -> !h6
  %r18 = "coopvec.tanh"(%H) : (!h6) -> !h6

  %r19 = "coopvec.cast"(%S) : (!h9) -> !v9

  %A = "coopvec.matrix_view"(%w) {offset = 0} : (memref<16xf16>) -> !m
  %XA_c = "coopvec.from_elements"(%nzero, %nzero, %nzero, %nzero) : (f16, f16, f16, f16) -> !h4
  %XA = "coopvec.mul"(%XA_c, %rt1) : (!h4, f16) -> !h4
  %r20 = "coopvec.matvec"(%A, %XA) : (!m, !h4) -> !h4
  %XB_c = "coopvec.from_elements"(%two, %two, %zero, %zero) : (f16, f16, f16, f16) -> !h4
  %XB = "coopvec.mul"(%XB_c, %rt1) : (!h4, f16) -> !h4
  %r21 = "coopvec.matvec"(%A, %XB) : (!m, !h4) -> !h4
  %XC_c = "coopvec.from_elements"(%one, %none, %zero, %zero) : (f16, f16, f16, f16) -> !h4
  %XC = "coopvec.mul"(%XC_c, %rt1) : (!h4, f16) -> !h4
  %r22 = "coopvec.matvec"(%A, %XC) : (!m, !h4) -> !h4
  %r23 = "coopvec.matvec"(%A, %XA) {transpose} : (!m, !h4) -> !h4
  %five = arith.constant 5.0 : f16
  %B_c = "coopvec.from_elements"(%zero, %one, %nzero, %five) : (f16, f16, f16, f16) -> !h4
  %B = "coopvec.mul"(%B_c, %rt1) : (!h4, f16) -> !h4
  %r24 = "coopvec.matvec"(%A, %XA, %B) : (!m, !h4, !h4) -> !h4
  %XD_c = "coopvec.from_elements"(%one, %one, %nmax, %zero) : (f16, f16, f16, f16) -> !h4
  %XD = "coopvec.mul"(%XD_c, %rt1) : (!h4, f16) -> !h4
  %r25 = "coopvec.matvec"(%A, %XD) : (!m, !h4) -> !h4

  return %r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8, %r9, %r10, %r11, %r12,
         %r13, %r14, %r15, %r16, %r17, %r18, %r19, %r20, %r21, %r22, %r23,
         %r24, %r25
      : !h9, !h9, !h9, !h9, !h9, !h9, !h9, !h2, !h2, !h9, !h9, !h10, !h9,
        !h9, !h9, !h9, !h8, !h9, !h6, !v9, !h4, !h4, !h4, !h4, !h4, !h4
}
