// RUN: coopvec-opt %s --pass-pipeline='builtin.module(coopvec-autodiff{func=f})' | FileCheck %s

// The reverse of an scf.while by recomputation (docs/autodiff.md, "Loops:
// scf.while"): r = sin(s_n) with s_(k+1) = exp(sin s_k) and n per thread
// (the condition reads the state). A copy of the loop carrying an index
// counts n; the last `before` is reversed on s_n (an scf.for running
// before and after n times from the init): s̄_n = ȳ cos s_n; reverse
// iteration kk (k = n - 1 - kk) recomputes s_k and carries
// s̄_k = s̄_(k+1) exp(sin s_k) cos s_k. Finite differences:
// test/CAPI/autodiff-general.c.
// CHECK-LABEL: func.func @f_grad(
// CHECK-SAME:      %[[X:[a-z0-9]+]]: !coopvec.vec<1 : i64, f32>, %[[B:[a-z0-9]+]]: f32, %[[DY:[a-z0-9]+]]: !coopvec.vec<1 : i64, f32>)
// CHECK-NEXT:    %[[E:.*]] = "coopvec.unpack"(%[[X]])
// CHECK-NEXT:    %[[G:.*]] = "coopvec.unpack"(%[[DY]])
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[W:.*]]:2 = scf.while (%[[S:.*]] = %[[E]], %[[CNT:.*]] = %[[C0]]) : (f32, index) -> (f32, index) {
// CHECK-NEXT:      %[[GO:.*]] = arith.cmpf olt, %[[S]], %[[B]]
// CHECK-NEXT:      %[[T:.*]] = math.sin %[[S]]
// CHECK-NEXT:      scf.condition(%[[GO]]) %[[T]], %[[CNT]] : f32, index
// CHECK-NEXT:    } do {
// CHECK-NEXT:    ^bb0(%[[U:.*]]: f32, %[[CNT2:.*]]: index):
// CHECK-NEXT:      %[[V:.*]] = math.exp %[[U]]
// CHECK-NEXT:      %[[ONE:.*]] = arith.constant 1 : index
// CHECK-NEXT:      %[[NEXT:.*]] = arith.addi %[[CNT2]], %[[ONE]]
// CHECK-NEXT:      scf.yield %[[V]], %[[NEXT]] : f32, index
// CHECK-NEXT:    }
// CHECK:         %[[SN:.*]] = scf.for %{{.*}} = %{{.*}} to %[[W]]#1 step %{{.*}} iter_args(%[[A:.*]] = %[[E]]) -> (f32) {
// CHECK-NEXT:      %[[A1:.*]] = math.sin %[[A]]
// CHECK-NEXT:      %[[A2:.*]] = math.exp %[[A1]]
// CHECK-NEXT:      scf.yield %[[A2]]
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[COS:.*]] = math.cos %[[SN]]
// CHECK-NEXT:    %[[DSN:.*]] = arith.mulf %[[G]], %[[COS]]
// CHECK:         %[[R:.*]] = scf.for %[[KK:.*]] = %{{.*}} to %[[W]]#1 step %{{.*}} iter_args(%[[DS:.*]] = %[[DSN]]) -> (f32) {
// CHECK:           %[[NM1:.*]] = arith.subi %[[W]]#1, %{{.*}}
// CHECK-NEXT:      %[[K:.*]] = arith.subi %[[NM1]], %[[KK]]
// CHECK:           %[[SK:.*]] = scf.for %{{.*}} = %{{.*}} to %[[K]] step %{{.*}} iter_args(%[[P:.*]] = %[[E]]) -> (f32) {
// CHECK-NEXT:        math.sin %[[P]]
// CHECK-NEXT:        math.exp
// CHECK-NEXT:        scf.yield
// CHECK-NEXT:      }
// CHECK-NEXT:      %[[SIN:.*]] = math.sin %[[SK]]
// CHECK-NEXT:      %[[EXP:.*]] = math.exp %[[SIN]]
// CHECK-NEXT:      %[[D1:.*]] = arith.mulf %[[DS]], %[[EXP]]
// CHECK-NEXT:      %[[CK:.*]] = math.cos %[[SK]]
// CHECK-NEXT:      %[[D2:.*]] = arith.mulf %[[D1]], %[[CK]]
// CHECK-NEXT:      scf.yield %[[D2]]
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[DX:.*]] = "coopvec.from_elements"(%[[R]])
// CHECK-NEXT:    return %[[DX]]
func.func @f(%x: !coopvec.vec<1, f32>, %b: f32) -> !coopvec.vec<1, f32> {
  %e:1 = "coopvec.unpack"(%x) : (!coopvec.vec<1, f32>) -> (f32)
  %r = scf.while (%s = %e#0) : (f32) -> f32 {
    %go = arith.cmpf olt, %s, %b : f32
    %t = math.sin %s : f32
    scf.condition(%go) %t : f32
  } do {
  ^bb0(%u: f32):
    %v = math.exp %u : f32
    scf.yield %v : f32
  }
  %y = "coopvec.from_elements"(%r) : (f32) -> !coopvec.vec<1, f32>
  return %y : !coopvec.vec<1, f32>
}
