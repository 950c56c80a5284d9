// RUN: coopvec-opt %s --pass-pipeline='builtin.module(coopvec-autodiff{func=loop,branch})' | FileCheck %s

// Local arrays read and written inside control flow (docs/autodiff.md,
// "Local arrays in control flow"): before the forward's scf.for is
// recomputed, the array is copied into a snapshot (an alloca at the entry,
// filled by a loop of loads and stores); each reverse iteration copies it
// back before recomputing the state, so the recomputed loads read what
// the forward read. The adjoint array is made before the reverse loop
// and walked in reverse iteration order. The loop has no results: it is
// reversed because it stores values of the inputs.
// Finite differences: test/CAPI/autodiff-general.c.
// CHECK-LABEL: func.func @loop_grad(
// CHECK-NEXT:    %[[S:.*]] = memref.alloca() : memref<2xf32>
// CHECK-NEXT:    %[[E:.*]] = "coopvec.unpack"
// CHECK:         %[[A:.*]] = memref.alloca() : memref<2xf32>
// CHECK-NEXT:    memref.store %[[E]], %[[A]][%[[C0:.*]]]
// CHECK:         scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:      %[[T:.*]] = memref.load %[[A]][%[[K]]]
// CHECK-NEXT:      memref.store %[[T]], %[[S]][%[[K]]]
// CHECK-NEXT:    }
// CHECK-NEXT:    scf.for
// CHECK-NEXT:      memref.load %[[A]][%[[C0]]]
// CHECK-NEXT:      arith.mulf
// CHECK-NEXT:      memref.store %{{.*}}, %[[A]][%[[C0]]]
// CHECK-NEXT:    }
// CHECK:         %[[DA:.*]] = memref.alloca() : memref<2xf32>
// CHECK:         %[[N:.*]] = arith.select
// CHECK:         scf.for %{{.*}} = %{{.*}} to %[[N]] step
// CHECK:           scf.for %[[K2:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:        %[[T2:.*]] = memref.load %[[S]][%[[K2]]]
// CHECK-NEXT:        memref.store %[[T2]], %[[A]][%[[K2]]]
// CHECK-NEXT:      }
// CHECK:           scf.for
// CHECK-NEXT:        memref.load %[[A]][%[[C0]]]
// CHECK-NEXT:        arith.mulf
// CHECK-NEXT:        memref.store %{{.*}}, %[[A]][%[[C0]]]
// CHECK-NEXT:      }
// CHECK-NEXT:      %[[U:.*]] = memref.load %[[A]][%[[C0]]]
// CHECK-NEXT:      arith.mulf %[[U]], %[[U]]
// CHECK-NEXT:      memref.store %{{.*}}, %[[A]][%[[C0]]]
// CHECK-NEXT:      %[[DW:.*]] = memref.load %[[DA]][%[[C0]]]
// CHECK-NEXT:      %[[Z:.*]] = arith.constant 0.0
// CHECK-NEXT:      memref.store %[[Z]], %[[DA]][%[[C0]]]
// CHECK-NEXT:      %[[P1:.*]] = arith.mulf %[[DW]], %[[U]]
// CHECK-NEXT:      %[[P2:.*]] = arith.mulf %[[DW]], %[[U]]
// CHECK-NEXT:      %[[DU:.*]] = arith.addf %[[P1]], %[[P2]]
// CHECK-NEXT:      %[[O:.*]] = memref.load %[[DA]][%[[C0]]]
// CHECK-NEXT:      %[[SU:.*]] = arith.addf %[[O]], %[[DU]]
// CHECK-NEXT:      memref.store %[[SU]], %[[DA]][%[[C0]]]
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[D0:.*]] = memref.load %[[DA]][%[[C0]]]
// CHECK:         "coopvec.from_elements"(%[[D0]])
func.func @loop(%x: !coopvec.vec<1, f32>, %n: index) -> !coopvec.vec<1, f32> {
  %e:1 = "coopvec.unpack"(%x) : (!coopvec.vec<1, f32>) -> (f32)
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = memref.alloca() : memref<2xf32>
  memref.store %e#0, %a[%c0] : memref<2xf32>
  scf.for %i = %c0 to %n step %c1 {
    %u = memref.load %a[%c0] : memref<2xf32>
    %w = arith.mulf %u, %u : f32
    memref.store %w, %a[%c0] : memref<2xf32>
  }
  %v = memref.load %a[%c0] : memref<2xf32>
  %y = "coopvec.from_elements"(%v) : (f32) -> !coopvec.vec<1, f32>
  return %y : !coopvec.vec<1, f32>
}

// A branch that stores on one side only, on a rank-0 array: the snapshot
// is a load and a store before the forward's scf.if, copied back before
// the reverse scf.if, whose then-branch recomputes the load and the store.
// CHECK-LABEL: func.func @branch_grad(
// CHECK-NEXT:    %[[S:.*]] = memref.alloca() : memref<f32>
// CHECK-NEXT:    %[[E:.*]] = "coopvec.unpack"
// CHECK-NEXT:    %[[A:.*]] = memref.alloca() : memref<f32>
// CHECK-NEXT:    memref.store %[[E]], %[[A]][]
// CHECK-NEXT:    %[[T:.*]] = memref.load %[[A]][]
// CHECK-NEXT:    memref.store %[[T]], %[[S]][]
// CHECK-NEXT:    scf.if %[[C:.*]] {
// CHECK:         %[[DA:.*]] = memref.alloca() : memref<f32>
// CHECK:         %[[T2:.*]] = memref.load %[[S]][]
// CHECK-NEXT:    memref.store %[[T2]], %[[A]][]
// CHECK-NEXT:    scf.if %[[C]] {
// CHECK-NEXT:      %[[U:.*]] = memref.load %[[A]][]
// CHECK-NEXT:      math.sin %[[U]]
// CHECK-NEXT:      memref.store %{{.*}}, %[[A]][]
// CHECK-NEXT:      %[[DW:.*]] = memref.load %[[DA]][]
// CHECK:           math.cos %[[U]]
// CHECK:         } else {
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[D0:.*]] = memref.load %[[DA]][]
// CHECK:         "coopvec.from_elements"(%[[D0]])
func.func @branch(%x: !coopvec.vec<1, f32>, %c: i1) -> !coopvec.vec<1, f32> {
  %e:1 = "coopvec.unpack"(%x) : (!coopvec.vec<1, f32>) -> (f32)
  %a = memref.alloca() : memref<f32>
  memref.store %e#0, %a[] : memref<f32>
  scf.if %c {
    %u = memref.load %a[] : memref<f32>
    %w = math.sin %u : f32
    memref.store %w, %a[] : memref<f32>
  }
  %v = memref.load %a[] : memref<f32>
  %y = "coopvec.from_elements"(%v) : (f32) -> !coopvec.vec<1, f32>
  return %y : !coopvec.vec<1, f32>
}
