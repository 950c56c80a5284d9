// RUN: coopvec-opt %s --pass-pipeline='builtin.module(coopvec-autodiff{func=f})' | FileCheck %s

// A local array holding values of the inputs (docs/autodiff.md, "Local
// arrays"): the forward's stores and loads are recomputed in order; the
// adjoint array is a second alloca (zero when made), built at the last
// load. In reverse: a load y = A[i] adds ȳ into Ā[i]; a store A[i] = v
// adds Ā[i] to v̄ and zeroes Ā[i]. A store before any reverse load (here
// the first store of A[0] is overwritten) reads Ā as it is then. The last
// load, which only the result used, is not recomputed.
// Finite differences: test/CAPI/autodiff-general.c.
// CHECK-LABEL: func.func @f_grad(
// CHECK-SAME:      %[[X:[a-z0-9]+]]: !coopvec.vec<2 : i64, f32>, %[[DY:[a-z0-9]+]]: !coopvec.vec<1 : i64, f32>)
// CHECK-NEXT:    %[[E:.*]]:2 = "coopvec.unpack"(%[[X]])
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[A:.*]] = memref.alloca() : memref<2xf32>
// CHECK-NEXT:    memref.store %[[E]]#0, %[[A]][%[[C0]]]
// CHECK-NEXT:    memref.store %[[E]]#1, %[[A]][%[[C1]]]
// CHECK-NEXT:    %[[U:.*]] = memref.load %[[A]][%[[C0]]]
// CHECK-NEXT:    %[[W:.*]] = arith.mulf %[[U]], %[[U]]
// CHECK-NEXT:    memref.store %[[W]], %[[A]][%[[C0]]]
// CHECK-NEXT:    %[[G:.*]] = "coopvec.unpack"(%[[DY]])
// CHECK-NEXT:    %[[DA:.*]] = memref.alloca() : memref<2xf32>
// CHECK-NEXT:    %[[O:.*]] = memref.load %[[DA]][%[[C0]]]
// CHECK-NEXT:    %[[S:.*]] = arith.addf %[[O]], %[[G]]
// CHECK-NEXT:    memref.store %[[S]], %[[DA]][%[[C0]]]
// CHECK-NEXT:    %[[DW:.*]] = memref.load %[[DA]][%[[C0]]]
// CHECK-NEXT:    %[[Z:.*]] = arith.constant 0.0
// CHECK-NEXT:    memref.store %[[Z]], %[[DA]][%[[C0]]]
// CHECK-NEXT:    %[[P1:.*]] = arith.mulf %[[DW]], %[[U]]
// CHECK-NEXT:    %[[P2:.*]] = arith.mulf %[[DW]], %[[U]]
// CHECK-NEXT:    %[[DU:.*]] = arith.addf %[[P1]], %[[P2]]
// CHECK-NEXT:    %[[O2:.*]] = memref.load %[[DA]][%[[C0]]]
// CHECK-NEXT:    %[[S2:.*]] = arith.addf %[[O2]], %[[DU]]
// CHECK-NEXT:    memref.store %[[S2]], %[[DA]][%[[C0]]]
// CHECK-NEXT:    %[[D1:.*]] = memref.load %[[DA]][%[[C1]]]
// CHECK-NEXT:    memref.store %[[Z]], %[[DA]][%[[C1]]]
// CHECK-NEXT:    %[[D0:.*]] = memref.load %[[DA]][%[[C0]]]
// CHECK-NEXT:    memref.store %[[Z]], %[[DA]][%[[C0]]]
// CHECK-NEXT:    %[[DX:.*]] = "coopvec.from_elements"(%[[D0]], %[[D1]])
// CHECK-NEXT:    return %[[DX]]
func.func @f(%x: !coopvec.vec<2, f32>) -> !coopvec.vec<1, f32> {
  %e:2 = "coopvec.unpack"(%x) : (!coopvec.vec<2, f32>) -> (f32, f32)
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = memref.alloca() : memref<2xf32>
  memref.store %e#0, %a[%c0] : memref<2xf32>
  memref.store %e#1, %a[%c1] : memref<2xf32>
  %u = memref.load %a[%c0] : memref<2xf32>
  %w = arith.mulf %u, %u : f32
  memref.store %w, %a[%c0] : memref<2xf32>
  %v = memref.load %a[%c0] : memref<2xf32>
  %y = "coopvec.from_elements"(%v) : (f32) -> !coopvec.vec<1, f32>
  return %y : !coopvec.vec<1, f32>
}
