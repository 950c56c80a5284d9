// Gradients of local arrays read and written inside control flow
// (docs/autodiff.md, "Local arrays in control flow"), run by coopvec-run
// --check against the reference interpreter on the CPU, and on Vulkan
// where there is a device (vulkan.test runs this file on Vulkan too): a
// histogram scf.for with a per-thread trip count (0 to 8) adding into
// A[(i + n) & 3] what an earlier iteration stored there, a nested scf.if
// storing on one side only, and an scf.while (0 to 2 trips) whose `before`
// reads what `after` stored, in f32 and f16, at batches 1, 31, 1029 and
// 4099. Finite differences of the same patterns are
// test/CAPI/autodiff-general.c ("scf.* local array").

// RUN: coopvec-opt %s --coopvec-autodiff=func=cf32,cf16 -o %t-grad.mlir
// RUN: coopvec-run %t-grad.mlir --entry=cf32_grad --batch=1 --random --seed=1 --check | FileCheck %s
// RUN: coopvec-run %t-grad.mlir --entry=cf32_grad --batch=31 --random --seed=2 --check | FileCheck %s
// RUN: coopvec-run %t-grad.mlir --entry=cf32_grad --batch=4099 --random --seed=3 --check | FileCheck %s
// RUN: coopvec-run %t-grad.mlir --entry=cf16_grad --batch=31 --random --seed=4 --check | FileCheck %s
// RUN: coopvec-run %t-grad.mlir --entry=cf16_grad --batch=1029 --random --seed=5 --check | FileCheck %s
// RUN: %if vulkan && !coopvec-run-target %{ coopvec-run --target=vulkan %t-grad.mlir --entry=cf32_grad --batch=1029 --random --seed=6 --check | FileCheck %s %}
// RUN: %if vulkan && !coopvec-run-target %{ coopvec-run --target=vulkan %t-grad.mlir --entry=cf16_grad --batch=31 --random --seed=7 --check | FileCheck %s %}
// CHECK:      result 0: max abs error {{.*}}: PASS
// CHECK-NEXT: {{^PASS$}}

func.func @cf32(%x: !coopvec.vec<3, f32>) -> !coopvec.vec<3, f32> {
  %e:3 = "coopvec.unpack"(%x) : (!coopvec.vec<3, f32>) -> (f32, f32, f32)
  %i0 = arith.constant 0 : index
  %i1 = arith.constant 1 : index
  %i2 = arith.constant 2 : index
  %m3 = arith.constant 3 : i32
  %one = arith.constant 1 : i32
  %k4 = arith.constant 4.0 : f32
  %q = arith.mulf %e#2, %k4 : f32
  %qa = math.absf %q : f32
  %ni = arith.fptosi %qa : f32 to i32
  %n = arith.index_cast %ni : i32 to index
  %arr = memref.alloca() : memref<4xf32>
  %s = math.sin %e#0 : f32
  memref.store %s, %arr[%i0] : memref<4xf32>
  memref.store %e#1, %arr[%i1] : memref<4xf32>
  %ac = arith.mulf %e#0, %e#2 : f32
  scf.for %i = %i0 to %n step %i1 {
    %ii = arith.index_cast %i : index to i32
    %t = arith.addi %ii, %ni : i32
    %j = arith.andi %t, %m3 : i32
    %jx = arith.index_cast %j : i32 to index
    %o = memref.load %arr[%jx] : memref<4xf32>
    %th = math.tanh %o : f32
    %nv = arith.addf %th, %ac : f32
    memref.store %nv, %arr[%jx] : memref<4xf32>
    %big = arith.cmpf ogt, %nv, %e#1 : f32
    scf.if %big {
      %h = arith.mulf %nv, %e#2 : f32
      memref.store %h, %arr[%i2] : memref<4xf32>
    }
  }
  %z = arith.constant 0 : i32
  %w:2 = scf.while (%i = %z, %v = %e#1) : (i32, f32) -> (i32, f32) {
    %half = arith.constant 2 : i32
    %nh = arith.shrsi %ni, %half : i32
    %go = arith.cmpi slt, %i, %nh : i32
    %j = arith.andi %i, %m3 : i32
    %jx = arith.index_cast %j : i32 to index
    %o = memref.load %arr[%jx] : memref<4xf32>
    %xo = arith.mulf %o, %v : f32
    scf.condition(%go) %i, %xo : i32, f32
  } do {
  ^bb0(%k: i32, %xa: f32):
    %k2 = arith.addi %k, %one : i32
    %j = arith.andi %k2, %m3 : i32
    %jx = arith.index_cast %j : i32 to index
    %sx = math.sin %xa : f32
    memref.store %sx, %arr[%jx] : memref<4xf32>
    scf.yield %k2, %sx : i32, f32
  }
  %u0 = memref.load %arr[%i0] : memref<4xf32>
  %u1 = memref.load %arr[%i1] : memref<4xf32>
  %u2 = memref.load %arr[%i2] : memref<4xf32>
  %p = arith.mulf %u0, %u1 : f32
  %y = "coopvec.from_elements"(%p, %u2, %w#1) : (f32, f32, f32) -> !coopvec.vec<3, f32>
  return %y : !coopvec.vec<3, f32>
}

func.func @cf16(%x: !coopvec.vec<3, f16>) -> !coopvec.vec<3, f16> {
  %e:3 = "coopvec.unpack"(%x) : (!coopvec.vec<3, f16>) -> (f16, f16, f16)
  %i0 = arith.constant 0 : index
  %i1 = arith.constant 1 : index
  %i2 = arith.constant 2 : index
  %m3 = arith.constant 3 : i32
  %one = arith.constant 1 : i32
  %k4 = arith.constant 4.0 : f16
  %q = arith.mulf %e#2, %k4 : f16
  %qa = math.absf %q : f16
  %ni = arith.fptosi %qa : f16 to i32
  %n = arith.index_cast %ni : i32 to index
  %arr = memref.alloca() : memref<4xf16>
  %s = math.sin %e#0 : f16
  memref.store %s, %arr[%i0] : memref<4xf16>
  memref.store %e#1, %arr[%i1] : memref<4xf16>
  %ac = arith.mulf %e#0, %e#2 : f16
  scf.for %i = %i0 to %n step %i1 {
    %ii = arith.index_cast %i : index to i32
    %t = arith.addi %ii, %ni : i32
    %j = arith.andi %t, %m3 : i32
    %jx = arith.index_cast %j : i32 to index
    %o = memref.load %arr[%jx] : memref<4xf16>
    %th = math.tanh %o : f16
    %nv = arith.addf %th, %ac : f16
    memref.store %nv, %arr[%jx] : memref<4xf16>
    %big = arith.cmpf ogt, %nv, %e#1 : f16
    scf.if %big {
      %h = arith.mulf %nv, %e#2 : f16
      memref.store %h, %arr[%i2] : memref<4xf16>
    }
  }
  %z = arith.constant 0 : i32
  %w:2 = scf.while (%i = %z, %v = %e#1) : (i32, f16) -> (i32, f16) {
    %half = arith.constant 2 : i32
    %nh = arith.shrsi %ni, %half : i32
    %go = arith.cmpi slt, %i, %nh : i32
    %j = arith.andi %i, %m3 : i32
    %jx = arith.index_cast %j : i32 to index
    %o = memref.load %arr[%jx] : memref<4xf16>
    %xo = arith.mulf %o, %v : f16
    scf.condition(%go) %i, %xo : i32, f16
  } do {
  ^bb0(%k: i32, %xa: f16):
    %k2 = arith.addi %k, %one : i32
    %j = arith.andi %k2, %m3 : i32
    %jx = arith.index_cast %j : i32 to index
    %sx = math.sin %xa : f16
    memref.store %sx, %arr[%jx] : memref<4xf16>
    scf.yield %k2, %sx : i32, f16
  }
  %u0 = memref.load %arr[%i0] : memref<4xf16>
  %u1 = memref.load %arr[%i1] : memref<4xf16>
  %u2 = memref.load %arr[%i2] : memref<4xf16>
  %p = arith.mulf %u0, %u1 : f16
  %y = "coopvec.from_elements"(%p, %u2, %w#1) : (f16, f16, f16) -> !coopvec.vec<3, f16>
  return %y : !coopvec.vec<3, f16>
}
