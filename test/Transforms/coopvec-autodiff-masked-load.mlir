// RUN: coopvec-opt %s --split-input-file --pass-pipeline='builtin.module(coopvec-autodiff{func=f})' | FileCheck %s

// The rule of coopvec.masked_load (docs/autodiff.md, "masked_load"): the
// enabled elements' ȳ_i are scatter-added at offset + i under scf.if on the
// mask bit (masked-off elements may lie past the end: never touched); the
// padding gets the sum of ȳ_i over the masked-off elements. Finite
// differences: test/CAPI/autodiff-general.c ("masked_load").

// A buffer read only: one guarded atomic per element; the mask bits come
// from the mask through uitofp / from_vector / unpack (every engine runs
// them). No padding adjoint: the padding is a constant.
// CHECK-LABEL: func.func @f_grad(
// CHECK-SAME:      %[[X:[a-z0-9]+]]: !coopvec.vec<3 : i64, f32>, %[[W:[a-z0-9]+]]: memref<?xf32>, %[[M:[a-z0-9]+]]: vector<3xi1>, %[[OFF:[a-z0-9]+]]: index, %[[P:[a-z0-9]+]]: f32, %[[GW:[a-z0-9]+]]: memref<?xf32>, %[[DY:[a-z0-9]+]]: !coopvec.vec<3 : i64, f32>)
// CHECK:         %[[MF:.*]] = arith.uitofp %[[M]] : vector<3xi1> to vector<3xf32>
// CHECK-NEXT:    %[[MV:.*]] = "coopvec.from_vector"(%[[MF]])
// CHECK-NEXT:    %[[MB:.*]]:3 = "coopvec.unpack"(%[[MV]])
// CHECK-NEXT:    %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    %[[B0:.*]] = arith.cmpf une, %[[MB]]#0, %[[ZERO]] : f32
// CHECK-NEXT:    %[[B1:.*]] = arith.cmpf une, %[[MB]]#1, %[[ZERO]] : f32
// CHECK-NEXT:    %[[B2:.*]] = arith.cmpf une, %[[MB]]#2, %[[ZERO]] : f32
// CHECK-NEXT:    %[[G:.*]]:3 = "coopvec.unpack"(%{{.*}})
// CHECK-NEXT:    scf.if %[[B0]] {
// CHECK-NEXT:      memref.atomic_rmw addf %[[G]]#0, %[[GW]][%[[OFF]]] : (f32, memref<?xf32>) -> f32
// CHECK-NEXT:    }
// CHECK-NEXT:    scf.if %[[B1]] {
// CHECK-NEXT:      %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT:      %[[I1:.*]] = arith.addi %[[OFF]], %[[C1]] : index
// CHECK-NEXT:      memref.atomic_rmw addf %[[G]]#1, %[[GW]][%[[I1]]] : (f32, memref<?xf32>) -> f32
// CHECK-NEXT:    }
// CHECK-NEXT:    scf.if %[[B2]] {
// CHECK-NEXT:      %[[C2:.*]] = arith.constant 2 : index
// CHECK-NEXT:      %[[I2:.*]] = arith.addi %[[OFF]], %[[C2]] : index
// CHECK-NEXT:      memref.atomic_rmw addf %[[G]]#2, %[[GW]][%[[I2]]] : (f32, memref<?xf32>) -> f32
// CHECK-NEXT:    }
// CHECK-NOT:     arith.select
// CHECK:         return
func.func @f(%x: !coopvec.vec<3, f32>, %w: memref<?xf32>, %m: vector<3xi1>, %off: index, %p: f32) -> !coopvec.vec<3, f32> {
  %b = "coopvec.masked_load"(%w, %off, %m, %p) : (memref<?xf32>, index, vector<3xi1>, f32) -> !coopvec.vec<3, f32>
  %y = "coopvec.mul"(%x, %b) : (!coopvec.vec<3, f32>, !coopvec.vec<3, f32>) -> !coopvec.vec<3, f32>
  return %y : !coopvec.vec<3, f32>
}

// -----

// A varied padding (an element of %x), f16: it gets ȳ_i where the mask bit
// is off (select), summed over the elements.
// CHECK-LABEL: func.func @f_grad(
// CHECK-SAME:      %[[X:[a-z0-9]+]]: !coopvec.vec<2 : i64, f16>, %[[W:[a-z0-9]+]]: memref<?xf16>, %[[M:[a-z0-9]+]]: vector<2xi1>, %[[OFF:[a-z0-9]+]]: index, %[[GW:[a-z0-9]+]]: memref<?xf16>, %[[DY:[a-z0-9]+]]: !coopvec.vec<2 : i64, f16>)
// CHECK:         %[[MF:.*]] = arith.uitofp %[[M]] : vector<2xi1> to vector<2xf16>
// CHECK:         %[[B0:.*]] = arith.cmpf une, %{{.*}}#0, %[[ZERO:.*]] : f16
// CHECK-NEXT:    %[[B1:.*]] = arith.cmpf une, %{{.*}}#1, %[[ZERO]] : f16
// CHECK-NEXT:    %[[G:.*]]:2 = "coopvec.unpack"(%[[DY]])
// CHECK:         memref.atomic_rmw addf %[[G]]#0, %[[GW]][%[[OFF]]] : (f16, memref<?xf16>) -> f16
// CHECK:         memref.atomic_rmw addf %[[G]]#1, %[[GW]][%{{.*}}] : (f16, memref<?xf16>) -> f16
// CHECK:         %[[S0:.*]] = arith.select %[[B0]], %[[ZERO]], %[[G]]#0 : f16
// CHECK-NEXT:    %[[S1:.*]] = arith.select %[[B1]], %[[ZERO]], %[[G]]#1 : f16
// CHECK-NEXT:    "coopvec.from_elements"(%[[S0]], %[[S1]])
// CHECK:         return
func.func @f(%x: !coopvec.vec<2, f16>, %w: memref<?xf16>, %m: vector<2xi1>, %off: index) -> !coopvec.vec<2, f16> {
  %e:2 = "coopvec.unpack"(%x) : (!coopvec.vec<2, f16>) -> (f16, f16)
  %b = "coopvec.masked_load"(%w, %off, %m, %e#1) : (memref<?xf16>, index, vector<2xi1>, f16) -> !coopvec.vec<2, f16>
  return %b : !coopvec.vec<2, f16>
}
