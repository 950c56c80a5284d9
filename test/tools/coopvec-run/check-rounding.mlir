// --check rounds the reference (computed in double) to the result's element
// type before comparing, as the compiled code's result is rounded: an f32
// result above FLT_MAX is an infinity on both sides and PASSes, where the
// unrounded reference (4.5e38) would make it a false FAIL. NaN matches NaN,
// an infinity only the same infinity (docs/coopvec-run.md).

// x = (0.75, -0.75, 0.25) as '<f4', written with printf.
// RUN: rm -rf %t && mkdir %t
// RUN: printf "\x93NUMPY\x01\x00\x3c\x00{'descr': '<f4', 'fortran_order': False, 'shape': (1, 3), }\n\x00\x00\x40\x3f\x00\x00\x40\xbf\x00\x00\x80\x3e" > %t/x.npy
// RUN: coopvec-run %s --entry=overflow --arg=%t/x.npy --check --print \
// RUN:   | FileCheck %s
// CHECK: result 0: f32, shape (1, 3)
// CHECK-NEXT: [0] inf -inf 1.5e+38
// CHECK-NEXT: result 0: max abs error 0, max rel error 0 (atol {{.*}}): PASS
// CHECK-NEXT: {{^PASS$}}
// The same values in f16 (above 65504 the f16 result is infinite too).
// RUN: coopvec-run %s --entry=overflow16 --arg=%t/x.npy --check --print \
// RUN:   | FileCheck %s --check-prefix=HALF
// HALF: result 0: f16, shape (1, 3)
// HALF-NEXT: [0] inf -inf 24992
// HALF-NEXT: result 0: {{.*}}: PASS
// HALF-NEXT: {{^PASS$}}

// x * 3e38 * 2: 4.5e38 and -4.5e38 overflow f32, 1.5e38 does not.
func.func @overflow(%x: !coopvec.vec<3, f32>) -> !coopvec.vec<3, f32> {
  %big = arith.constant 3.0e38 : f32
  %two = arith.constant 2.0 : f32
  %y = "coopvec.mul"(%x, %big) : (!coopvec.vec<3, f32>, f32) -> !coopvec.vec<3, f32>
  %z = "coopvec.mul"(%y, %two) : (!coopvec.vec<3, f32>, f32) -> !coopvec.vec<3, f32>
  return %z : !coopvec.vec<3, f32>
}

// x * 50000 * 2 in f16: 75000 overflows, 25000 rounds to 24992.
func.func @overflow16(%x: !coopvec.vec<3, f32>) -> !coopvec.vec<3, f16> {
  %big = arith.constant 50000.0 : f32
  %two = arith.constant 2.0 : f32
  %y = "coopvec.mul"(%x, %big) : (!coopvec.vec<3, f32>, f32) -> !coopvec.vec<3, f32>
  %z = "coopvec.mul"(%y, %two) : (!coopvec.vec<3, f32>, f32) -> !coopvec.vec<3, f32>
  %h = "coopvec.cast"(%z) : (!coopvec.vec<3, f32>) -> !coopvec.vec<3, f16>
  return %h : !coopvec.vec<3, f16>
}
