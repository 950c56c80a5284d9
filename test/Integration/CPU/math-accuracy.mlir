// The accuracy of the lowered exp2, log2 and tanh against the reference
// interpreter, with tolerances derived from the measured error bounds
// (docs/execution-model.md, "Transcendentals"; bench/math-ulp.c measures
// them over every f32): below 1 ulp for each function in f32, i.e. a
// relative error under 2^-23 (an ulp is at most 2^-23 of the value). The
// reference is rounded to the element type before the comparison
// (docs/dialect.md, "Special values"), which adds up to half an ulp:
//   f32: rtol = 1.5 * 2^-23 = 1.79e-7 -> 1.8e-7; results in the subnormal
//        range (exp2 below -126) have absolute ulps of 2^-149 = 1.4e-45:
//        atol = 1.5 * 2^-149 -> 2.2e-45.
//   f16: the f32 result (within 1 f32 ulp = 2^-13 f16 ulps) rounded to
//        f16 is within 0.5 + 2^-13 f16 ulps of the exact value, so within
//        one f16 ulp of the rounded reference: rtol = 2^-10 -> 9.8e-4, and
//        atol = 2^-24 (the f16 subnormal ulp) -> 6e-8.
// A larger error, a lost sign, a subnormal flushed to zero or a wrong
// overflow fails.
//
// Inputs: each of the widths 1, 3, 7, 17, 33 and 127 (SSA element values
// and tiled element loops) takes random x in [-1, 1) and evaluates
// exp2(128 x), exp2(x), log2(x), log2(2^60 x), log2(2^-100 x), tanh(x),
// tanh(8 x), tanh(2^-16 x) (f16: 8 x, 2^10 x, 2^-10 x, 8 x, 2^-8 x): the
// scale factors are powers of two, so both engines see the same inputs. A
// negative x gives NaN, which must match NaN. Then boundary inputs for each
// function: around the subnormal range and overflow, the reduction
// boundaries (|f| = 1/2 for exp2, sqrt(2) and 1 for log2, 7/8 and 2^-12 for
// tanh, where the code switches formulas) and subnormal inputs.
//
// The boundary vectors are multiplied by %rt1, a 1.0 read at run time, so
// that no compiler folds them (x * 1 = x exactly). Each function is its own
// split-file piece because coopvec-run lowers and JIT-compiles every
// function of its input.
//
// RUN: split-file %s %t
// RUN: printf "\x93NUMPY\x01\x00\x76\x00%%-117s\n" "{'descr': '<f4', 'fortran_order': False, 'shape': (), }" > %t/one-f32.npy
// RUN: printf '\x00\x00\x80\x3f' >> %t/one-f32.npy
// RUN: printf "\x93NUMPY\x01\x00\x76\x00%%-117s\n" "{'descr': '<f2', 'fortran_order': False, 'shape': (), }" > %t/one-f16.npy
// RUN: printf '\x00\x3c' >> %t/one-f16.npy
// RUN: coopvec-run %t/f32.mlir --entry=f32 --batch=17 --arg=%t/one-f32.npy --random --seed=1 --check --rtol=1.8e-7 --atol=2.2e-45 | FileCheck %s
// RUN: coopvec-run %t/f32.mlir --entry=f32 --batch=1000 --arg=%t/one-f32.npy --random --seed=2 --check --rtol=1.8e-7 --atol=2.2e-45 | FileCheck %s
// RUN: coopvec-run %t/f16.mlir --entry=f16 --batch=17 --arg=%t/one-f16.npy --random --seed=3 --check --rtol=9.8e-4 --atol=6e-8 | FileCheck %s
// RUN: coopvec-run %t/f16.mlir --entry=f16 --batch=1000 --arg=%t/one-f16.npy --random --seed=4 --check --rtol=9.8e-4 --atol=6e-8 | FileCheck %s

// CHECK-NOT: FAIL
// CHECK: result 50: {{.*}}: PASS
// CHECK-NOT: FAIL
// CHECK: {{^PASS$}}

//--- f32.mlir
!f32_1 = !coopvec.vec<1, f32>
!f32_3 = !coopvec.vec<3, f32>
!f32_7 = !coopvec.vec<7, f32>
!f32_17 = !coopvec.vec<17, f32>
!f32_33 = !coopvec.vec<33, f32>
!f32_127 = !coopvec.vec<127, f32>
!f32_exp2 = !coopvec.vec<14, f32>
!f32_log2 = !coopvec.vec<14, f32>
!f32_tanh = !coopvec.vec<14, f32>

func.func @f32(%rt1: f32, %x1: !f32_1, %x3: !f32_3, %x7: !f32_7, %x17: !f32_17,
                %x33: !f32_33, %x127: !f32_127)
    -> (!f32_1, !f32_1, !f32_1, !f32_1, !f32_1, !f32_1, !f32_1, !f32_1, !f32_3,
        !f32_3, !f32_3, !f32_3, !f32_3, !f32_3, !f32_3, !f32_3, !f32_7, !f32_7,
        !f32_7, !f32_7, !f32_7, !f32_7, !f32_7, !f32_7, !f32_17, !f32_17,
        !f32_17, !f32_17, !f32_17, !f32_17, !f32_17, !f32_17, !f32_33, !f32_33,
        !f32_33, !f32_33, !f32_33, !f32_33, !f32_33, !f32_33, !f32_127,
        !f32_127, !f32_127, !f32_127, !f32_127, !f32_127, !f32_127, !f32_127,
        !f32_exp2, !f32_log2, !f32_tanh) {
  %exp = arith.constant 0x43000000 : f32 // 128
  %lhi = arith.constant 0x5D800000 : f32 // 2^60
  %llo = arith.constant 0x0D800000 : f32 // 2^-100
  %thi = arith.constant 8.0 : f32
  %tlo = arith.constant 0x37800000 : f32 // 2^-16

  %ea1 = "coopvec.mul"(%x1, %exp) : (!f32_1, f32) -> !f32_1
  %e1_1 = "coopvec.exp2"(%ea1) : (!f32_1) -> !f32_1
  %e2_1 = "coopvec.exp2"(%x1) : (!f32_1) -> !f32_1
  %l1_1 = "coopvec.log2"(%x1) : (!f32_1) -> !f32_1
  %la1 = "coopvec.mul"(%x1, %lhi) : (!f32_1, f32) -> !f32_1
  %l2_1 = "coopvec.log2"(%la1) : (!f32_1) -> !f32_1
  %lb1 = "coopvec.mul"(%x1, %llo) : (!f32_1, f32) -> !f32_1
  %l3_1 = "coopvec.log2"(%lb1) : (!f32_1) -> !f32_1
  %t1_1 = "coopvec.tanh"(%x1) : (!f32_1) -> !f32_1
  %ta1 = "coopvec.mul"(%x1, %thi) : (!f32_1, f32) -> !f32_1
  %t2_1 = "coopvec.tanh"(%ta1) : (!f32_1) -> !f32_1
  %tb1 = "coopvec.mul"(%x1, %tlo) : (!f32_1, f32) -> !f32_1
  %t3_1 = "coopvec.tanh"(%tb1) : (!f32_1) -> !f32_1

  %ea3 = "coopvec.mul"(%x3, %exp) : (!f32_3, f32) -> !f32_3
  %e1_3 = "coopvec.exp2"(%ea3) : (!f32_3) -> !f32_3
  %e2_3 = "coopvec.exp2"(%x3) : (!f32_3) -> !f32_3
  %l1_3 = "coopvec.log2"(%x3) : (!f32_3) -> !f32_3
  %la3 = "coopvec.mul"(%x3, %lhi) : (!f32_3, f32) -> !f32_3
  %l2_3 = "coopvec.log2"(%la3) : (!f32_3) -> !f32_3
  %lb3 = "coopvec.mul"(%x3, %llo) : (!f32_3, f32) -> !f32_3
  %l3_3 = "coopvec.log2"(%lb3) : (!f32_3) -> !f32_3
  %t1_3 = "coopvec.tanh"(%x3) : (!f32_3) -> !f32_3
  %ta3 = "coopvec.mul"(%x3, %thi) : (!f32_3, f32) -> !f32_3
  %t2_3 = "coopvec.tanh"(%ta3) : (!f32_3) -> !f32_3
  %tb3 = "coopvec.mul"(%x3, %tlo) : (!f32_3, f32) -> !f32_3
  %t3_3 = "coopvec.tanh"(%tb3) : (!f32_3) -> !f32_3

  %ea7 = "coopvec.mul"(%x7, %exp) : (!f32_7, f32) -> !f32_7
  %e1_7 = "coopvec.exp2"(%ea7) : (!f32_7) -> !f32_7
  %e2_7 = "coopvec.exp2"(%x7) : (!f32_7) -> !f32_7
  %l1_7 = "coopvec.log2"(%x7) : (!f32_7) -> !f32_7
  %la7 = "coopvec.mul"(%x7, %lhi) : (!f32_7, f32) -> !f32_7
  %l2_7 = "coopvec.log2"(%la7) : (!f32_7) -> !f32_7
  %lb7 = "coopvec.mul"(%x7, %llo) : (!f32_7, f32) -> !f32_7
  %l3_7 = "coopvec.log2"(%lb7) : (!f32_7) -> !f32_7
  %t1_7 = "coopvec.tanh"(%x7) : (!f32_7) -> !f32_7
  %ta7 = "coopvec.mul"(%x7, %thi) : (!f32_7, f32) -> !f32_7
  %t2_7 = "coopvec.tanh"(%ta7) : (!f32_7) -> !f32_7
  %tb7 = "coopvec.mul"(%x7, %tlo) : (!f32_7, f32) -> !f32_7
  %t3_7 = "coopvec.tanh"(%tb7) : (!f32_7) -> !f32_7

  %ea17 = "coopvec.mul"(%x17, %exp) : (!f32_17, f32) -> !f32_17
  %e1_17 = "coopvec.exp2"(%ea17) : (!f32_17) -> !f32_17
  %e2_17 = "coopvec.exp2"(%x17) : (!f32_17) -> !f32_17
  %l1_17 = "coopvec.log2"(%x17) : (!f32_17) -> !f32_17
  %la17 = "coopvec.mul"(%x17, %lhi) : (!f32_17, f32) -> !f32_17
  %l2_17 = "coopvec.log2"(%la17) : (!f32_17) -> !f32_17
  %lb17 = "coopvec.mul"(%x17, %llo) : (!f32_17, f32) -> !f32_17
  %l3_17 = "coopvec.log2"(%lb17) : (!f32_17) -> !f32_17
  %t1_17 = "coopvec.tanh"(%x17) : (!f32_17) -> !f32_17
  %ta17 = "coopvec.mul"(%x17, %thi) : (!f32_17, f32) -> !f32_17
  %t2_17 = "coopvec.tanh"(%ta17) : (!f32_17) -> !f32_17
  %tb17 = "coopvec.mul"(%x17, %tlo) : (!f32_17, f32) -> !f32_17
  %t3_17 = "coopvec.tanh"(%tb17) : (!f32_17) -> !f32_17

  %ea33 = "coopvec.mul"(%x33, %exp) : (!f32_33, f32) -> !f32_33
  %e1_33 = "coopvec.exp2"(%ea33) : (!f32_33) -> !f32_33
  %e2_33 = "coopvec.exp2"(%x33) : (!f32_33) -> !f32_33
  %l1_33 = "coopvec.log2"(%x33) : (!f32_33) -> !f32_33
  %la33 = "coopvec.mul"(%x33, %lhi) : (!f32_33, f32) -> !f32_33
  %l2_33 = "coopvec.log2"(%la33) : (!f32_33) -> !f32_33
  %lb33 = "coopvec.mul"(%x33, %llo) : (!f32_33, f32) -> !f32_33
  %l3_33 = "coopvec.log2"(%lb33) : (!f32_33) -> !f32_33
  %t1_33 = "coopvec.tanh"(%x33) : (!f32_33) -> !f32_33
  %ta33 = "coopvec.mul"(%x33, %thi) : (!f32_33, f32) -> !f32_33
  %t2_33 = "coopvec.tanh"(%ta33) : (!f32_33) -> !f32_33
  %tb33 = "coopvec.mul"(%x33, %tlo) : (!f32_33, f32) -> !f32_33
  %t3_33 = "coopvec.tanh"(%tb33) : (!f32_33) -> !f32_33

  %ea127 = "coopvec.mul"(%x127, %exp) : (!f32_127, f32) -> !f32_127
  %e1_127 = "coopvec.exp2"(%ea127) : (!f32_127) -> !f32_127
  %e2_127 = "coopvec.exp2"(%x127) : (!f32_127) -> !f32_127
  %l1_127 = "coopvec.log2"(%x127) : (!f32_127) -> !f32_127
  %la127 = "coopvec.mul"(%x127, %lhi) : (!f32_127, f32) -> !f32_127
  %l2_127 = "coopvec.log2"(%la127) : (!f32_127) -> !f32_127
  %lb127 = "coopvec.mul"(%x127, %llo) : (!f32_127, f32) -> !f32_127
  %l3_127 = "coopvec.log2"(%lb127) : (!f32_127) -> !f32_127
  %t1_127 = "coopvec.tanh"(%x127) : (!f32_127) -> !f32_127
  %ta127 = "coopvec.mul"(%x127, %thi) : (!f32_127, f32) -> !f32_127
  %t2_127 = "coopvec.tanh"(%ta127) : (!f32_127) -> !f32_127
  %tb127 = "coopvec.mul"(%x127, %tlo) : (!f32_127, f32) -> !f32_127
  %t3_127 = "coopvec.tanh"(%tb127) : (!f32_127) -> !f32_127

  %e0 = arith.constant -149.5 : f32
  %e1 = arith.constant -149.25 : f32
  %e2 = arith.constant -126.5 : f32
  %e3 = arith.constant -126.0 : f32
  %e4 = arith.constant -125.9 : f32
  %e5 = arith.constant -0.5 : f32
  %e6 = arith.constant 0xBEFFFFFF : f32
  %e7 = arith.constant 0.5 : f32
  %e8 = arith.constant 0x3F000001 : f32
  %e9 = arith.constant 1.0e-8 : f32
  %e10 = arith.constant -1.0e-8 : f32
  %e11 = arith.constant 0x42FFFFFF : f32
  %e12 = arith.constant 64.5 : f32
  %e13 = arith.constant -64.5 : f32
  %exp2_c = "coopvec.from_elements"(%e0, %e1, %e2, %e3, %e4, %e5, %e6, %e7, %e8,
      %e9, %e10, %e11, %e12, %e13)
      : (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32) -> !f32_exp2
  %exp2_in = "coopvec.mul"(%exp2_c, %rt1) : (!f32_exp2, f32) -> !f32_exp2
  %exp2_out = "coopvec.exp2"(%exp2_in) : (!f32_exp2) -> !f32_exp2

  %l0 = arith.constant 0x00000001 : f32
  %l1 = arith.constant 0x00000003 : f32
  %l2 = arith.constant 0x007FFFFF : f32
  %l3 = arith.constant 0x00800000 : f32
  %l4 = arith.constant 0x7F7FFFFF : f32
  %l5 = arith.constant 1.0 : f32
  %l6 = arith.constant 0x3F7FFFFF : f32
  %l7 = arith.constant 0x3F800001 : f32
  %l8 = arith.constant 0x3FB504F3 : f32
  %l9 = arith.constant 0x3FB504F4 : f32
  %l10 = arith.constant 0x3F3504F3 : f32
  %l11 = arith.constant 0x3F3504F2 : f32
  %l12 = arith.constant 3.0 : f32
  %l13 = arith.constant 0.75 : f32
  %log2_c = "coopvec.from_elements"(%l0, %l1, %l2, %l3, %l4, %l5, %l6, %l7, %l8,
      %l9, %l10, %l11, %l12, %l13)
      : (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32) -> !f32_log2
  %log2_in = "coopvec.mul"(%log2_c, %rt1) : (!f32_log2, f32) -> !f32_log2
  %log2_out = "coopvec.log2"(%log2_in) : (!f32_log2) -> !f32_log2

  %t0 = arith.constant 0x39800000 : f32
  %t1 = arith.constant 0x397FFFFF : f32
  %t2 = arith.constant 0x3F5FFFFF : f32
  %t3 = arith.constant 0.875 : f32
  %t4 = arith.constant -0.875 : f32
  %t5 = arith.constant 9.0 : f32
  %t6 = arith.constant 9.01 : f32
  %t7 = arith.constant 10.0 : f32
  %t8 = arith.constant 0x41200001 : f32
  %t9 = arith.constant 0.55 : f32
  %t10 = arith.constant 1.0e-3 : f32
  %t11 = arith.constant -1.0e-3 : f32
  %t12 = arith.constant 4.0 : f32
  %t13 = arith.constant 0x00000005 : f32
  %tanh_c = "coopvec.from_elements"(%t0, %t1, %t2, %t3, %t4, %t5, %t6, %t7, %t8,
      %t9, %t10, %t11, %t12, %t13)
      : (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32) -> !f32_tanh
  %tanh_in = "coopvec.mul"(%tanh_c, %rt1) : (!f32_tanh, f32) -> !f32_tanh
  %tanh_out = "coopvec.tanh"(%tanh_in) : (!f32_tanh) -> !f32_tanh
  return %e1_1, %e2_1, %l1_1, %l2_1, %l3_1, %t1_1, %t2_1, %t3_1, %e1_3, %e2_3,
         %l1_3, %l2_3, %l3_3, %t1_3, %t2_3, %t3_3, %e1_7, %e2_7, %l1_7, %l2_7,
         %l3_7, %t1_7, %t2_7, %t3_7, %e1_17, %e2_17, %l1_17, %l2_17, %l3_17,
         %t1_17, %t2_17, %t3_17, %e1_33, %e2_33, %l1_33, %l2_33, %l3_33, %t1_33,
         %t2_33, %t3_33, %e1_127, %e2_127, %l1_127, %l2_127, %l3_127, %t1_127,
         %t2_127, %t3_127, %exp2_out, %log2_out, %tanh_out
      : !f32_1, !f32_1, !f32_1, !f32_1, !f32_1, !f32_1, !f32_1, !f32_1, !f32_3,
        !f32_3, !f32_3, !f32_3, !f32_3, !f32_3, !f32_3, !f32_3, !f32_7, !f32_7,
        !f32_7, !f32_7, !f32_7, !f32_7, !f32_7, !f32_7, !f32_17, !f32_17,
        !f32_17, !f32_17, !f32_17, !f32_17, !f32_17, !f32_17, !f32_33, !f32_33,
        !f32_33, !f32_33, !f32_33, !f32_33, !f32_33, !f32_33, !f32_127,
        !f32_127, !f32_127, !f32_127, !f32_127, !f32_127, !f32_127, !f32_127,
        !f32_exp2, !f32_log2, !f32_tanh
}

//--- f16.mlir
!f16_1 = !coopvec.vec<1, f16>
!f16_3 = !coopvec.vec<3, f16>
!f16_7 = !coopvec.vec<7, f16>
!f16_17 = !coopvec.vec<17, f16>
!f16_33 = !coopvec.vec<33, f16>
!f16_127 = !coopvec.vec<127, f16>
!f16_exp2 = !coopvec.vec<9, f16>
!f16_log2 = !coopvec.vec<11, f16>
!f16_tanh = !coopvec.vec<9, f16>

func.func @f16(%rt1: f16, %x1: !f16_1, %x3: !f16_3, %x7: !f16_7, %x17: !f16_17,
                %x33: !f16_33, %x127: !f16_127)
    -> (!f16_1, !f16_1, !f16_1, !f16_1, !f16_1, !f16_1, !f16_1, !f16_1, !f16_3,
        !f16_3, !f16_3, !f16_3, !f16_3, !f16_3, !f16_3, !f16_3, !f16_7, !f16_7,
        !f16_7, !f16_7, !f16_7, !f16_7, !f16_7, !f16_7, !f16_17, !f16_17,
        !f16_17, !f16_17, !f16_17, !f16_17, !f16_17, !f16_17, !f16_33, !f16_33,
        !f16_33, !f16_33, !f16_33, !f16_33, !f16_33, !f16_33, !f16_127,
        !f16_127, !f16_127, !f16_127, !f16_127, !f16_127, !f16_127, !f16_127,
        !f16_exp2, !f16_log2, !f16_tanh) {
  %exp = arith.constant 8.0 : f16
  %lhi = arith.constant 1024.0 : f16 // 2^10
  %llo = arith.constant 0x1400 : f16 // 2^-10
  %thi = arith.constant 8.0 : f16
  %tlo = arith.constant 0x1C00 : f16 // 2^-8

  %ea1 = "coopvec.mul"(%x1, %exp) : (!f16_1, f16) -> !f16_1
  %e1_1 = "coopvec.exp2"(%ea1) : (!f16_1) -> !f16_1
  %e2_1 = "coopvec.exp2"(%x1) : (!f16_1) -> !f16_1
  %l1_1 = "coopvec.log2"(%x1) : (!f16_1) -> !f16_1
  %la1 = "coopvec.mul"(%x1, %lhi) : (!f16_1, f16) -> !f16_1
  %l2_1 = "coopvec.log2"(%la1) : (!f16_1) -> !f16_1
  %lb1 = "coopvec.mul"(%x1, %llo) : (!f16_1, f16) -> !f16_1
  %l3_1 = "coopvec.log2"(%lb1) : (!f16_1) -> !f16_1
  %t1_1 = "coopvec.tanh"(%x1) : (!f16_1) -> !f16_1
  %ta1 = "coopvec.mul"(%x1, %thi) : (!f16_1, f16) -> !f16_1
  %t2_1 = "coopvec.tanh"(%ta1) : (!f16_1) -> !f16_1
  %tb1 = "coopvec.mul"(%x1, %tlo) : (!f16_1, f16) -> !f16_1
  %t3_1 = "coopvec.tanh"(%tb1) : (!f16_1) -> !f16_1

  %ea3 = "coopvec.mul"(%x3, %exp) : (!f16_3, f16) -> !f16_3
  %e1_3 = "coopvec.exp2"(%ea3) : (!f16_3) -> !f16_3
  %e2_3 = "coopvec.exp2"(%x3) : (!f16_3) -> !f16_3
  %l1_3 = "coopvec.log2"(%x3) : (!f16_3) -> !f16_3
  %la3 = "coopvec.mul"(%x3, %lhi) : (!f16_3, f16) -> !f16_3
  %l2_3 = "coopvec.log2"(%la3) : (!f16_3) -> !f16_3
  %lb3 = "coopvec.mul"(%x3, %llo) : (!f16_3, f16) -> !f16_3
  %l3_3 = "coopvec.log2"(%lb3) : (!f16_3) -> !f16_3
  %t1_3 = "coopvec.tanh"(%x3) : (!f16_3) -> !f16_3
  %ta3 = "coopvec.mul"(%x3, %thi) : (!f16_3, f16) -> !f16_3
  %t2_3 = "coopvec.tanh"(%ta3) : (!f16_3) -> !f16_3
  %tb3 = "coopvec.mul"(%x3, %tlo) : (!f16_3, f16) -> !f16_3
  %t3_3 = "coopvec.tanh"(%tb3) : (!f16_3) -> !f16_3

  %ea7 = "coopvec.mul"(%x7, %exp) : (!f16_7, f16) -> !f16_7
  %e1_7 = "coopvec.exp2"(%ea7) : (!f16_7) -> !f16_7
  %e2_7 = "coopvec.exp2"(%x7) : (!f16_7) -> !f16_7
  %l1_7 = "coopvec.log2"(%x7) : (!f16_7) -> !f16_7
  %la7 = "coopvec.mul"(%x7, %lhi) : (!f16_7, f16) -> !f16_7
  %l2_7 = "coopvec.log2"(%la7) : (!f16_7) -> !f16_7
  %lb7 = "coopvec.mul"(%x7, %llo) : (!f16_7, f16) -> !f16_7
  %l3_7 = "coopvec.log2"(%lb7) : (!f16_7) -> !f16_7
  %t1_7 = "coopvec.tanh"(%x7) : (!f16_7) -> !f16_7
  %ta7 = "coopvec.mul"(%x7, %thi) : (!f16_7, f16) -> !f16_7
  %t2_7 = "coopvec.tanh"(%ta7) : (!f16_7) -> !f16_7
  %tb7 = "coopvec.mul"(%x7, %tlo) : (!f16_7, f16) -> !f16_7
  %t3_7 = "coopvec.tanh"(%tb7) : (!f16_7) -> !f16_7

  %ea17 = "coopvec.mul"(%x17, %exp) : (!f16_17, f16) -> !f16_17
  %e1_17 = "coopvec.exp2"(%ea17) : (!f16_17) -> !f16_17
  %e2_17 = "coopvec.exp2"(%x17) : (!f16_17) -> !f16_17
  %l1_17 = "coopvec.log2"(%x17) : (!f16_17) -> !f16_17
  %la17 = "coopvec.mul"(%x17, %lhi) : (!f16_17, f16) -> !f16_17
  %l2_17 = "coopvec.log2"(%la17) : (!f16_17) -> !f16_17
  %lb17 = "coopvec.mul"(%x17, %llo) : (!f16_17, f16) -> !f16_17
  %l3_17 = "coopvec.log2"(%lb17) : (!f16_17) -> !f16_17
  %t1_17 = "coopvec.tanh"(%x17) : (!f16_17) -> !f16_17
  %ta17 = "coopvec.mul"(%x17, %thi) : (!f16_17, f16) -> !f16_17
  %t2_17 = "coopvec.tanh"(%ta17) : (!f16_17) -> !f16_17
  %tb17 = "coopvec.mul"(%x17, %tlo) : (!f16_17, f16) -> !f16_17
  %t3_17 = "coopvec.tanh"(%tb17) : (!f16_17) -> !f16_17

  %ea33 = "coopvec.mul"(%x33, %exp) : (!f16_33, f16) -> !f16_33
  %e1_33 = "coopvec.exp2"(%ea33) : (!f16_33) -> !f16_33
  %e2_33 = "coopvec.exp2"(%x33) : (!f16_33) -> !f16_33
  %l1_33 = "coopvec.log2"(%x33) : (!f16_33) -> !f16_33
  %la33 = "coopvec.mul"(%x33, %lhi) : (!f16_33, f16) -> !f16_33
  %l2_33 = "coopvec.log2"(%la33) : (!f16_33) -> !f16_33
  %lb33 = "coopvec.mul"(%x33, %llo) : (!f16_33, f16) -> !f16_33
  %l3_33 = "coopvec.log2"(%lb33) : (!f16_33) -> !f16_33
  %t1_33 = "coopvec.tanh"(%x33) : (!f16_33) -> !f16_33
  %ta33 = "coopvec.mul"(%x33, %thi) : (!f16_33, f16) -> !f16_33
  %t2_33 = "coopvec.tanh"(%ta33) : (!f16_33) -> !f16_33
  %tb33 = "coopvec.mul"(%x33, %tlo) : (!f16_33, f16) -> !f16_33
  %t3_33 = "coopvec.tanh"(%tb33) : (!f16_33) -> !f16_33

  %ea127 = "coopvec.mul"(%x127, %exp) : (!f16_127, f16) -> !f16_127
  %e1_127 = "coopvec.exp2"(%ea127) : (!f16_127) -> !f16_127
  %e2_127 = "coopvec.exp2"(%x127) : (!f16_127) -> !f16_127
  %l1_127 = "coopvec.log2"(%x127) : (!f16_127) -> !f16_127
  %la127 = "coopvec.mul"(%x127, %lhi) : (!f16_127, f16) -> !f16_127
  %l2_127 = "coopvec.log2"(%la127) : (!f16_127) -> !f16_127
  %lb127 = "coopvec.mul"(%x127, %llo) : (!f16_127, f16) -> !f16_127
  %l3_127 = "coopvec.log2"(%lb127) : (!f16_127) -> !f16_127
  %t1_127 = "coopvec.tanh"(%x127) : (!f16_127) -> !f16_127
  %ta127 = "coopvec.mul"(%x127, %thi) : (!f16_127, f16) -> !f16_127
  %t2_127 = "coopvec.tanh"(%ta127) : (!f16_127) -> !f16_127
  %tb127 = "coopvec.mul"(%x127, %tlo) : (!f16_127, f16) -> !f16_127
  %t3_127 = "coopvec.tanh"(%tb127) : (!f16_127) -> !f16_127

  %e0 = arith.constant -24.5 : f16
  %e1 = arith.constant -24.25 : f16
  %e2 = arith.constant -14.5 : f16
  %e3 = arith.constant -14.0 : f16
  %e4 = arith.constant 0x4BFF : f16
  %e5 = arith.constant -0.5 : f16
  %e6 = arith.constant 0.5 : f16
  %e7 = arith.constant 0x1400 : f16
  %e8 = arith.constant 8.5 : f16
  %exp2_c = "coopvec.from_elements"(%e0, %e1, %e2, %e3, %e4, %e5, %e6, %e7, %e8)
      : (f16, f16, f16, f16, f16, f16, f16, f16, f16) -> !f16_exp2
  %exp2_in = "coopvec.mul"(%exp2_c, %rt1) : (!f16_exp2, f16) -> !f16_exp2
  %exp2_out = "coopvec.exp2"(%exp2_in) : (!f16_exp2) -> !f16_exp2

  %l0 = arith.constant 0x0001 : f16
  %l1 = arith.constant 0x0003 : f16
  %l2 = arith.constant 0x03FF : f16
  %l3 = arith.constant 0x0400 : f16
  %l4 = arith.constant 65504.0 : f16
  %l5 = arith.constant 1.0 : f16
  %l6 = arith.constant 0x3BFF : f16
  %l7 = arith.constant 0x3C01 : f16
  %l8 = arith.constant 0x3DA8 : f16
  %l9 = arith.constant 0x3DA9 : f16
  %l10 = arith.constant 0x39A8 : f16
  %log2_c = "coopvec.from_elements"(%l0, %l1, %l2, %l3, %l4, %l5, %l6, %l7, %l8,
      %l9, %l10)
      : (f16, f16, f16, f16, f16, f16, f16, f16, f16, f16, f16) -> !f16_log2
  %log2_in = "coopvec.mul"(%log2_c, %rt1) : (!f16_log2, f16) -> !f16_log2
  %log2_out = "coopvec.log2"(%log2_in) : (!f16_log2) -> !f16_log2

  %t0 = arith.constant 0x0C00 : f16
  %t1 = arith.constant 0x3B00 : f16
  %t2 = arith.constant 0x3AFF : f16
  %t3 = arith.constant 5.0 : f16
  %t4 = arith.constant 4.5 : f16
  %t5 = arith.constant 1.0e-3 : f16
  %t6 = arith.constant -0.5 : f16
  %t7 = arith.constant 0x0003 : f16
  %t8 = arith.constant 0x8400 : f16
  %tanh_c = "coopvec.from_elements"(%t0, %t1, %t2, %t3, %t4, %t5, %t6, %t7, %t8)
      : (f16, f16, f16, f16, f16, f16, f16, f16, f16) -> !f16_tanh
  %tanh_in = "coopvec.mul"(%tanh_c, %rt1) : (!f16_tanh, f16) -> !f16_tanh
  %tanh_out = "coopvec.tanh"(%tanh_in) : (!f16_tanh) -> !f16_tanh
  return %e1_1, %e2_1, %l1_1, %l2_1, %l3_1, %t1_1, %t2_1, %t3_1, %e1_3, %e2_3,
         %l1_3, %l2_3, %l3_3, %t1_3, %t2_3, %t3_3, %e1_7, %e2_7, %l1_7, %l2_7,
         %l3_7, %t1_7, %t2_7, %t3_7, %e1_17, %e2_17, %l1_17, %l2_17, %l3_17,
         %t1_17, %t2_17, %t3_17, %e1_33, %e2_33, %l1_33, %l2_33, %l3_33, %t1_33,
         %t2_33, %t3_33, %e1_127, %e2_127, %l1_127, %l2_127, %l3_127, %t1_127,
         %t2_127, %t3_127, %exp2_out, %log2_out, %tanh_out
      : !f16_1, !f16_1, !f16_1, !f16_1, !f16_1, !f16_1, !f16_1, !f16_1, !f16_3,
        !f16_3, !f16_3, !f16_3, !f16_3, !f16_3, !f16_3, !f16_3, !f16_7, !f16_7,
        !f16_7, !f16_7, !f16_7, !f16_7, !f16_7, !f16_7, !f16_17, !f16_17,
        !f16_17, !f16_17, !f16_17, !f16_17, !f16_17, !f16_17, !f16_33, !f16_33,
        !f16_33, !f16_33, !f16_33, !f16_33, !f16_33, !f16_33, !f16_127,
        !f16_127, !f16_127, !f16_127, !f16_127, !f16_127, !f16_127, !f16_127,
        !f16_exp2, !f16_log2, !f16_tanh
}
