// RUN: coopvec-opt %s --pass-pipeline='builtin.module(coopvec-autodiff{func=f})' | FileCheck %s

// The reverse of an scf.for by recomputation (docs/autodiff.md, "Loops"):
// n is the per-thread trip count (0 unless step > 0 and ub > lb); reverse
// iteration kk (k = n - 1 - kk) reruns the body k times from the inits
// (the inner scf.for) to get the state v_k, recomputes the body on it,
// and carries v̄ back one iteration: v̄_k = v̄_(k+1) cos v_k for sin. The
// forward loop, which nothing uses, is erased. Finite differences:
// test/CAPI/autodiff-general.c.
// CHECK-LABEL: func.func @f_grad(
// CHECK-SAME:      %[[X:[a-z0-9]+]]: !coopvec.vec<1 : i64, f32>, %[[N:[a-z0-9]+]]: index, %[[DY:[a-z0-9]+]]: !coopvec.vec<1 : i64, f32>)
// CHECK-NEXT:    %[[E:.*]] = "coopvec.unpack"(%[[X]])
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[G:.*]] = "coopvec.unpack"(%[[DY]])
// CHECK-NEXT:    %[[Z:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[UP:.*]] = arith.cmpi sgt, %[[N]], %[[C0]]
// CHECK-NEXT:    %[[POS:.*]] = arith.cmpi sgt, %[[C1]], %[[Z]]
// CHECK-NEXT:    %[[RUNS:.*]] = arith.andi %[[POS]], %[[UP]]
// CHECK-NEXT:    %[[D:.*]] = arith.subi %[[N]], %[[C0]]
// CHECK-NEXT:    %[[Q:.*]] = arith.ceildivsi %[[D]], %[[C1]]
// CHECK-NEXT:    %[[T:.*]] = arith.select %[[RUNS]], %[[Q]], %[[Z]]
// CHECK:         %[[R:.*]] = scf.for %[[KK:.*]] = %{{.*}} to %[[T]] step %{{.*}} iter_args(%[[VB:.*]] = %[[G]]) -> (f32) {
// CHECK:           %[[TM1:.*]] = arith.subi %[[T]], %{{.*}}
// CHECK-NEXT:      %[[K:.*]] = arith.subi %[[TM1]], %[[KK]]
// CHECK:           %[[VK:.*]] = scf.for %{{.*}} = %{{.*}} to %[[K]] step %{{.*}} iter_args(%[[S:.*]] = %[[E]]) -> (f32) {
// CHECK-NEXT:        %[[SIN:.*]] = math.sin %[[S]]
// CHECK-NEXT:        scf.yield %[[SIN]]
// CHECK-NEXT:      }
// CHECK-NEXT:      %[[COS:.*]] = math.cos %[[VK]]
// CHECK-NEXT:      %[[VB2:.*]] = arith.mulf %[[VB]], %[[COS]]
// CHECK-NEXT:      scf.yield %[[VB2]]
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[DX:.*]] = "coopvec.from_elements"(%[[R]])
// CHECK-NEXT:    return %[[DX]]
func.func @f(%x: !coopvec.vec<1, f32>, %n: index) -> !coopvec.vec<1, f32> {
  %e:1 = "coopvec.unpack"(%x) : (!coopvec.vec<1, f32>) -> (f32)
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%s = %e#0) -> (f32) {
    %t = math.sin %s : f32
    scf.yield %t : f32
  }
  %y = "coopvec.from_elements"(%r) : (f32) -> !coopvec.vec<1, f32>
  return %y : !coopvec.vec<1, f32>
}
