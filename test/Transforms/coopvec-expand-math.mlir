// coopvec-expand-math rewrites the math dialect's transcendental ops and
// arith.remf on f32 and f16 (scalars and vectors of any shape, anywhere in
// the module) into arith + math.fma code: no calls, loops or branches.
// RUN: coopvec-opt %s --coopvec-expand-math | FileCheck %s --implicit-check-not='math.{{(sin|cos|exp|exp2|log|log2|tanh|atan|atan2|erf|powf|rsqrt) }}' --implicit-check-not='{{call|scf\.|cf\.}}' --implicit-check-not='arith.remf {{.*}}: {{.*}}f{{16|32}}'
// The pass runs on any op: nested in func.func it expands the same.
// RUN: coopvec-opt %s --pass-pipeline='builtin.module(func.func(coopvec-expand-math))' | FileCheck %s --check-prefix=NESTED
// ops= restricts it; a repeated ops= adds to the list.
// RUN: coopvec-opt %s --pass-pipeline='builtin.module(coopvec-expand-math{ops=sin,powf})' | FileCheck %s --check-prefix=SOME
// RUN: coopvec-opt %s --pass-pipeline='builtin.module(coopvec-expand-math{ops=sin ops=powf})' | FileCheck %s --check-prefix=SOME
// RUN: coopvec-opt %s --coopvec-expand-math=ops=rsqrt | FileCheck %s --check-prefix=RSQRT
// RUN: coopvec-opt %s --coopvec-expand-math=ops=remf | FileCheck %s --check-prefix=REMF
// RUN: coopvec-opt --list-passes | FileCheck %s --check-prefix=LIST

// LIST: coopvec-expand-math
// LIST-NEXT: Expand math.sin, cos, exp, exp2, log, log2, tanh, atan, atan2, erf, powf, rsqrt and arith.remf (exact)
// LIST-NEXT: ops=<list> (default: sin,cos,exp,exp2,log,log2,tanh,atan,atan2,erf,powf,rsqrt,remf)

// CHECK-LABEL: func.func @scalar(
// CHECK-SAME: %[[X:.*]]: f32, %[[Y:.*]]: f32)
// CHECK: arith.bitcast %[[X]] : f32 to i32
// CHECK: math.fma {{.*}} : f32
// CHECK: arith.select {{.*}} : f32
// CHECK: return {{.*}} : f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32
// SOME-LABEL: func.func @scalar(
// SOME-NOT: math.sin
// SOME: math.cos
// SOME: math.exp
// SOME-NOT: math.powf
// SOME: math.rsqrt
// SOME: return
func.func @scalar(%x: f32, %y: f32) -> (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32) {
  %0 = math.sin %x : f32
  %1 = math.cos %x : f32
  %2 = math.exp %x : f32
  %3 = math.exp2 %x : f32
  %4 = math.log %x : f32
  %5 = math.log2 %x : f32
  %6 = math.tanh %x : f32
  %7 = math.atan %x : f32
  %8 = math.atan2 %y, %x : f32
  %9 = math.erf %x : f32
  %10 = math.powf %x, %y : f32
  %11 = math.rsqrt %x : f32
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11 : f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32
}

// Vectors keep their shape; the integer code is i32 (and i64 for the sin /
// cos reduction) of the same shape.
// CHECK-LABEL: func.func @vectors(
// CHECK: arith.bitcast {{.*}} : vector<16xf32> to vector<16xi32>
// CHECK: arith.muli {{.*}} : vector<16xi64>
// CHECK: math.fma {{.*}} : vector<16xf32>
// CHECK: math.fma {{.*}} : vector<2x3xf32>
// CHECK: return {{.*}} : vector<16xf32>, vector<2x3xf32>
func.func @vectors(%x: vector<16xf32>, %y: vector<2x3xf32>) -> (vector<16xf32>, vector<2x3xf32>) {
  %0 = math.sin %x : vector<16xf32>
  %1 = math.powf %y, %y : vector<2x3xf32>
  return %0, %1 : vector<16xf32>, vector<2x3xf32>
}

// Scalable and 0-D vectors keep their shape too.
// CHECK-LABEL: func.func @shapes(
// CHECK: arith.extui {{.*}} : vector<[4]xi32> to vector<[4]xi64>
// CHECK: math.fma {{.*}} : vector<[4]xf32>
// CHECK: math.fma {{.*}} : vector<f32>
// CHECK: return {{.*}} : vector<[4]xf32>, vector<f32>
func.func @shapes(%x: vector<[4]xf32>, %y: vector<f32>) -> (vector<[4]xf32>, vector<f32>) {
  %0 = math.cos %x : vector<[4]xf32>
  %1 = math.log %y : vector<f32>
  return %0, %1 : vector<[4]xf32>, vector<f32>
}

// f16: widened to f32 once per operand, computed, rounded once.
// CHECK-LABEL: func.func @half(
// CHECK-SAME: %[[H:.*]]: vector<2x3xf16>, %[[S:.*]]: f16)
// CHECK: %[[W:.*]] = arith.extf %[[H]] : vector<2x3xf16> to vector<2x3xf32>
// CHECK-NOT: f16
// CHECK: %[[E:.*]] = arith.truncf {{.*}} : vector<2x3xf32> to vector<2x3xf16>
// CHECK: %[[SW:.*]] = arith.extf %[[S]] : f16 to f32
// CHECK: arith.extf %[[S]] : f16 to f32
// CHECK-NOT: f16
// CHECK: %[[A:.*]] = arith.truncf {{.*}} : f32 to f16
// CHECK: return %[[E]], %[[A]] : vector<2x3xf16>, f16
func.func @half(%x: vector<2x3xf16>, %s: f16) -> (vector<2x3xf16>, f16) {
  %0 = math.exp %x : vector<2x3xf16>
  %1 = math.atan2 %s, %s : f16
  return %0, %1 : vector<2x3xf16>, f16
}

// Left alone: f64 and bf16, and the ops that are one instruction or exact.
// CHECK-LABEL: func.func @alone(
// CHECK-NEXT: math.sin %{{.*}} : f64
// CHECK-NEXT: math.exp %{{.*}} : bf16
// CHECK-NEXT: math.sqrt
// CHECK-NEXT: math.floor
// CHECK-NEXT: math.ceil
// CHECK-NEXT: math.round
// CHECK-NEXT: math.trunc
// CHECK-NEXT: math.absf
// CHECK-NEXT: math.copysign
// CHECK-NEXT: math.fma
// CHECK-NEXT: return
func.func @alone(%d: f64, %b: bf16, %x: f32) -> (f64, bf16, f32, f32, f32, f32, f32, f32, f32, f32) {
  %0 = math.sin %d : f64
  %1 = math.exp %b : bf16
  %2 = math.sqrt %x : f32
  %3 = math.floor %x : f32
  %4 = math.ceil %x : f32
  %5 = math.round %x : f32
  %6 = math.trunc %x : f32
  %7 = math.absf %x : f32
  %8 = math.copysign %x, %x : f32
  %9 = math.fma %x, %x, %x : f32
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9 : f64, bf16, f32, f32, f32, f32, f32, f32, f32, f32
}

// arith.remf (C's fmod, exact): y's mantissa as an integer, the quotient
// estimated with one reciprocal (no other division), the first step then
// 22 steps of 12 bits each, both ending with a product by the reciprocal;
// f16 via f32 with 3 steps (the f32 result is an f16 value, its truncf
// exact). f64 is left alone.
// CHECK-LABEL: func.func @remf(
// CHECK-SAME: %[[X:.*]]: f32, %[[Y:.*]]: f32, %[[V:.*]]: vector<4xf32>, %[[H:.*]]: vector<2xf16>, %[[D:.*]]: f64)
// CHECK: arith.bitcast %[[X]] : f32 to i32
// CHECK: %[[INV:.*]] = arith.divf %{{.*}}, %{{.*}} : f32
// CHECK-COUNT-23: arith.mulf %{{.*}}, %[[INV]] : f32
// CHECK-NOT: arith.mulf %{{.*}}, %[[INV]] : f32
// CHECK: %[[VINV:.*]] = arith.divf %{{.*}}, %{{.*}} : vector<4xf32>
// CHECK-COUNT-23: arith.mulf %{{.*}}, %[[VINV]] : vector<4xf32>
// CHECK-NOT: arith.mulf %{{.*}}, %[[VINV]]
// CHECK: arith.extf %[[H]] : vector<2xf16> to vector<2xf32>
// CHECK: %[[HINV:.*]] = arith.divf %{{.*}}, %{{.*}} : vector<2xf32>
// CHECK-COUNT-4: arith.mulf %{{.*}}, %[[HINV]] : vector<2xf32>
// CHECK-NOT: arith.mulf %{{.*}}, %[[HINV]]
// CHECK: %[[HR:.*]] = arith.truncf {{.*}} : vector<2xf32> to vector<2xf16>
// CHECK: %[[DR:.*]] = arith.remf %[[D]], %[[D]] : f64
// CHECK: return {{.*}}, {{.*}}, %[[HR]], %[[DR]] : f32, vector<4xf32>, vector<2xf16>, f64
// REMF-LABEL: func.func @scalar(
// REMF: math.sin
// REMF-LABEL: func.func @remf(
// REMF-NOT: arith.remf {{.*}} : f32
// REMF: arith.remf {{.*}} : f64
// REMF-NEXT: return
// SOME-LABEL: func.func @remf(
// SOME-COUNT-3: arith.remf
// SOME: return
func.func @remf(%x: f32, %y: f32, %v: vector<4xf32>, %h: vector<2xf16>, %d: f64) -> (f32, vector<4xf32>, vector<2xf16>, f64) {
  %0 = arith.remf %x, %y : f32
  %1 = arith.remf %v, %v : vector<4xf32>
  %2 = arith.remf %h, %h : vector<2xf16>
  %3 = arith.remf %d, %d : f64
  return %0, %1, %2, %3 : f32, vector<4xf32>, vector<2xf16>, f64
}

// Anywhere: inside loops (the expanded code stays in the loop body) and in
// gpu.func kernels.
// CHECK-LABEL: func.func @nested(
// CHECK: scf.for
// CHECK: math.fma
// CHECK: scf.yield
// NESTED-LABEL: func.func @nested(
// NESTED-NOT: math.log
// NESTED: scf.yield
func.func @nested(%x: f32, %n: index) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%a = %x) -> f32 {
    %l = math.log %a : f32
    scf.yield %l : f32
  }
  return %r : f32
}

// CHECK-LABEL: gpu.module @kernels
// CHECK: gpu.func @k(
// CHECK: math.fma
// CHECK: gpu.return
// RSQRT-LABEL: gpu.func @k(
// RSQRT: math.erf
// RSQRT-NOT: math.rsqrt
// RSQRT: gpu.return
gpu.module @kernels {
  gpu.func @k(%x: f32, %out: memref<2xf32>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %e = math.erf %x : f32
    %r = math.rsqrt %x : f32
    memref.store %e, %out[%c0] : memref<2xf32>
    memref.store %r, %out[%c1] : memref<2xf32>
    gpu.return
  }
}
