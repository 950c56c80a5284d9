// The expanded math ops (coopvec-expand-math, which every pipeline runs) on
// C99 Annex F's special values, subnormal inputs and results, overflow and
// underflow, the large-argument reduction of sin / cos, and a few ordinary
// values, as uniform vectors in a per-thread function. Each input vector is
// multiplied by %one = %s / %s, 1.0 computed at run time, so that nothing
// is folded at compile time. The printed values (9 digits: every f32 bit)
// were checked against mpmath (at most 0.48 ulp from the exact values);
// remf's against C's fmod (exact: the same bits on every engine).
//
// vulkan.test runs this file on Vulkan too, where the same bits must come
// out. lavapipe's (Mesa 22.3.6) GLSL Fma is not fused (fma(a, a, -a*a)
// gives 0), which the exact product errors of powf's log2 rely on: one
// powf result was 2.5 ulp off there (8.33901649e-05 instead of
// 8.33901795e-05) until coopvec-prepare-spirv computed f32 fmas in f64,
// rounded once (docs/passes.md).
//
// RUN: coopvec-run %s --entry=f --batch=1 --random --seed=1 --print | FileCheck %s


// sin of -0.0, inf, 2^-149, 1.0e30, 3716.5, -1.57079637
// CHECK-LABEL: result 0: f32, shape (1, 6)
// CHECK-NEXT: [0] -0 nan 1.40129846e-45 -0.791163445 0.00410918519 -1

// cos of 0.0, -inf, nan, 1.0e30, 1.57079637, -3716.5
// CHECK-LABEL: result 1: f32, shape (1, 6)
// CHECK-NEXT: [0] 1 nan nan -0.61160481 -4.37113883e-08 -0.999991536

// exp of -inf, 100.0, -104.0, -100.0, -0.0, 1.5
// CHECK-LABEL: result 2: f32, shape (1, 6)
// CHECK-NEXT: [0] 0 inf 0 3.78350585e-44 1 4.48168898

// exp2 of -149.0, -149.5, 128.0, 0.5, nan
// CHECK-LABEL: result 3: f32, shape (1, 5)
// CHECK-NEXT: [0] 1.40129846e-45 1.40129846e-45 inf 1.41421354 nan

// log of 0.0, -1.0, inf, 1.0, 2^-149, 0.3
// CHECK-LABEL: result 4: f32, shape (1, 6)
// CHECK-NEXT: [0] -inf nan inf 0 -103.278931 -1.20397282

// log2 of -0.0, 8.0, 2^-149, 3.0e38
// CHECK-LABEL: result 5: f32, shape (1, 4)
// CHECK-NEXT: [0] -inf 3 -149 127.81823

// tanh of -inf, -0.0, 0.5, -20.0
// CHECK-LABEL: result 6: f32, shape (1, 4)
// CHECK-NEXT: [0] -1 -0 0.462117165 -1

// atan of inf, -0.0, 1e-40, 100.0, -0.75
// CHECK-LABEL: result 7: f32, shape (1, 5)
// CHECK-NEXT: [0] 1.57079637 -0 9.9999461e-41 1.56079662 -0.643501103

// atan2 of (-0.0, -0.0), (0.0, -1.0), (-inf, inf), (inf, -inf), (1.0, -1.0e-30), (-1.0e-30, 1.0e30), (nan, 1.0)
// CHECK-LABEL: result 8: f32, shape (1, 7)
// CHECK-NEXT: [0] -3.14159274 3.14159274 -0.785398185 2.3561945 1.57079637 -0 nan

// erf of -inf, -0.0, 0.5, -2.0, 1e-40
// CHECK-LABEL: result 9: f32, shape (1, 5)
// CHECK-NEXT: [0] -1 -0 0.520499885 -0.995322287 1.12836756e-40

// powf of (-0.0, -3.0), (-8.0, 0.333333343), (nan, 0.0), (1.0, nan), (-2.0, 3.0), (-1.0, inf), (0.0, -0.5), (2.5, -10.25), (1.0e-20, 2.0)
// CHECK-LABEL: result 10: f32, shape (1, 9)
// CHECK-NEXT: [0] -inf nan 1 1 -8 1 inf 8.33901795e-05 9.9999461e-41

// rsqrt of -0.0, inf, -1.0, 2^-149, 0.25, 3.0
// CHECK-LABEL: result 11: f32, shape (1, 6)
// CHECK-NEXT: [0] -inf 0 nan 2.67137384e+22 2 0.577350259

// remf of (5.5, 2.0), (-5.5, 2.0), (-0.0, 3.0), (1.0, -inf), (-3.0, inf), (inf, 1.0), (1.0, -0.0), (nan, 1.0), (3.0e38, 3 * 2^-149), (1.0e-40, 3.0e-41), (-1.0e30, 3.14159274), (3.0e38, 0.1)
// CHECK-LABEL: result 12: f32, shape (1, 12)
// CHECK-NEXT: [0] 1.5 -1.5 -0 1 -3 nan nan nan 1.40129846e-45 9.99826454e-42 -0.314462185 0.0795948133

func.func @f(%x: !coopvec.vec<1, f32>, %s: f32)
    -> (!coopvec.vec<6, f32>, !coopvec.vec<6, f32>, !coopvec.vec<6, f32>, !coopvec.vec<5, f32>, !coopvec.vec<6, f32>, !coopvec.vec<4, f32>, !coopvec.vec<4, f32>, !coopvec.vec<5, f32>, !coopvec.vec<7, f32>, !coopvec.vec<5, f32>, !coopvec.vec<9, f32>, !coopvec.vec<6, f32>, !coopvec.vec<12, f32>) {
  %one = arith.divf %s, %s : f32
  %ones0 = vector.broadcast %one : f32 to vector<6xf32>
  %x0c = arith.constant dense<[-0.0, 0x7F800000, 1.401298e-45, 1.0e30, 3716.5, -1.57079637]> : vector<6xf32>
  %x0 = arith.mulf %x0c, %ones0 : vector<6xf32>
  %m0 = math.sin %x0 : vector<6xf32>
  %r0 = "coopvec.from_vector"(%m0) : (vector<6xf32>) -> !coopvec.vec<6, f32>
  %ones1 = vector.broadcast %one : f32 to vector<6xf32>
  %x1c = arith.constant dense<[0.0, 0xFF800000, 0x7FC00000, 1.0e30, 1.57079637, -3716.5]> : vector<6xf32>
  %x1 = arith.mulf %x1c, %ones1 : vector<6xf32>
  %m1 = math.cos %x1 : vector<6xf32>
  %r1 = "coopvec.from_vector"(%m1) : (vector<6xf32>) -> !coopvec.vec<6, f32>
  %ones2 = vector.broadcast %one : f32 to vector<6xf32>
  %x2c = arith.constant dense<[0xFF800000, 100.0, -104.0, -100.0, -0.0, 1.5]> : vector<6xf32>
  %x2 = arith.mulf %x2c, %ones2 : vector<6xf32>
  %m2 = math.exp %x2 : vector<6xf32>
  %r2 = "coopvec.from_vector"(%m2) : (vector<6xf32>) -> !coopvec.vec<6, f32>
  %ones3 = vector.broadcast %one : f32 to vector<5xf32>
  %x3c = arith.constant dense<[-149.0, -149.5, 128.0, 0.5, 0x7FC00000]> : vector<5xf32>
  %x3 = arith.mulf %x3c, %ones3 : vector<5xf32>
  %m3 = math.exp2 %x3 : vector<5xf32>
  %r3 = "coopvec.from_vector"(%m3) : (vector<5xf32>) -> !coopvec.vec<5, f32>
  %ones4 = vector.broadcast %one : f32 to vector<6xf32>
  %x4c = arith.constant dense<[0.0, -1.0, 0x7F800000, 1.0, 1.401298e-45, 0.3]> : vector<6xf32>
  %x4 = arith.mulf %x4c, %ones4 : vector<6xf32>
  %m4 = math.log %x4 : vector<6xf32>
  %r4 = "coopvec.from_vector"(%m4) : (vector<6xf32>) -> !coopvec.vec<6, f32>
  %ones5 = vector.broadcast %one : f32 to vector<4xf32>
  %x5c = arith.constant dense<[-0.0, 8.0, 1.401298e-45, 3.0e38]> : vector<4xf32>
  %x5 = arith.mulf %x5c, %ones5 : vector<4xf32>
  %m5 = math.log2 %x5 : vector<4xf32>
  %r5 = "coopvec.from_vector"(%m5) : (vector<4xf32>) -> !coopvec.vec<4, f32>
  %ones6 = vector.broadcast %one : f32 to vector<4xf32>
  %x6c = arith.constant dense<[0xFF800000, -0.0, 0.5, -20.0]> : vector<4xf32>
  %x6 = arith.mulf %x6c, %ones6 : vector<4xf32>
  %m6 = math.tanh %x6 : vector<4xf32>
  %r6 = "coopvec.from_vector"(%m6) : (vector<4xf32>) -> !coopvec.vec<4, f32>
  %ones7 = vector.broadcast %one : f32 to vector<5xf32>
  %x7c = arith.constant dense<[0x7F800000, -0.0, 1.0e-40, 100.0, -0.75]> : vector<5xf32>
  %x7 = arith.mulf %x7c, %ones7 : vector<5xf32>
  %m7 = math.atan %x7 : vector<5xf32>
  %r7 = "coopvec.from_vector"(%m7) : (vector<5xf32>) -> !coopvec.vec<5, f32>
  %ones8 = vector.broadcast %one : f32 to vector<7xf32>
  %x8c = arith.constant dense<[-0.0, 0.0, 0xFF800000, 0x7F800000, 1.0, -1.0e-30, 0x7FC00000]> : vector<7xf32>
  %x8 = arith.mulf %x8c, %ones8 : vector<7xf32>
  %y8c = arith.constant dense<[-0.0, -1.0, 0x7F800000, 0xFF800000, -1.0e-30, 1.0e30, 1.0]> : vector<7xf32>
  %y8 = arith.mulf %y8c, %ones8 : vector<7xf32>
  %m8 = math.atan2 %x8, %y8 : vector<7xf32>
  %r8 = "coopvec.from_vector"(%m8) : (vector<7xf32>) -> !coopvec.vec<7, f32>
  %ones9 = vector.broadcast %one : f32 to vector<5xf32>
  %x9c = arith.constant dense<[0xFF800000, -0.0, 0.5, -2.0, 1.0e-40]> : vector<5xf32>
  %x9 = arith.mulf %x9c, %ones9 : vector<5xf32>
  %m9 = math.erf %x9 : vector<5xf32>
  %r9 = "coopvec.from_vector"(%m9) : (vector<5xf32>) -> !coopvec.vec<5, f32>
  %ones10 = vector.broadcast %one : f32 to vector<9xf32>
  %x10c = arith.constant dense<[-0.0, -8.0, 0x7FC00000, 1.0, -2.0, -1.0, 0.0, 2.5, 1.0e-20]> : vector<9xf32>
  %x10 = arith.mulf %x10c, %ones10 : vector<9xf32>
  %y10c = arith.constant dense<[-3.0, 0.333333343, 0.0, 0x7FC00000, 3.0, 0x7F800000, -0.5, -10.25, 2.0]> : vector<9xf32>
  %y10 = arith.mulf %y10c, %ones10 : vector<9xf32>
  %m10 = math.powf %x10, %y10 : vector<9xf32>
  %r10 = "coopvec.from_vector"(%m10) : (vector<9xf32>) -> !coopvec.vec<9, f32>
  %ones11 = vector.broadcast %one : f32 to vector<6xf32>
  %x11c = arith.constant dense<[-0.0, 0x7F800000, -1.0, 1.401298e-45, 0.25, 3.0]> : vector<6xf32>
  %x11 = arith.mulf %x11c, %ones11 : vector<6xf32>
  %m11 = math.rsqrt %x11 : vector<6xf32>
  %r11 = "coopvec.from_vector"(%m11) : (vector<6xf32>) -> !coopvec.vec<6, f32>
  %ones12 = vector.broadcast %one : f32 to vector<12xf32>
  %x12c = arith.constant dense<[5.5, -5.5, -0.0, 1.0, -3.0, 0x7F800000, 1.0, 0x7FC00000, 3.0e38, 1.0e-40, -1.0e30, 3.0e38]> : vector<12xf32>
  %x12 = arith.mulf %x12c, %ones12 : vector<12xf32>
  %y12c = arith.constant dense<[2.0, 2.0, 3.0, 0xFF800000, 0x7F800000, 1.0, -0.0, 1.0, 4.203895e-45, 3.0e-41, 3.14159274, 0.1]> : vector<12xf32>
  %y12 = arith.mulf %y12c, %ones12 : vector<12xf32>
  %m12 = arith.remf %x12, %y12 : vector<12xf32>
  %r12 = "coopvec.from_vector"(%m12) : (vector<12xf32>) -> !coopvec.vec<12, f32>
  return %r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8, %r9, %r10, %r11, %r12 : !coopvec.vec<6, f32>, !coopvec.vec<6, f32>, !coopvec.vec<6, f32>, !coopvec.vec<5, f32>, !coopvec.vec<6, f32>, !coopvec.vec<4, f32>, !coopvec.vec<4, f32>, !coopvec.vec<5, f32>, !coopvec.vec<7, f32>, !coopvec.vec<5, f32>, !coopvec.vec<9, f32>, !coopvec.vec<6, f32>, !coopvec.vec<12, f32>
}
