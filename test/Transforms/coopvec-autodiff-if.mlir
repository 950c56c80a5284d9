// RUN: coopvec-opt %s --split-input-file --pass-pipeline='builtin.module(coopvec-autodiff{func=f})' | FileCheck %s

// The reverse of an scf.if (docs/autodiff.md, "Control flow"): an scf.if
// on the same recomputed condition whose branches recompute the forward
// branch, seed the yielded values with the if results' adjoints, apply
// the rules in reverse (a matvec's transposed product and its
// outer_product_accumulate inside the branch, for the threads that took
// it) and yield the adjoints of the outer values they use (x, e#1); after
// the if, those are added to the outer adjoints. Recomputed values that
// only the forward needed (the branch's sin, its matvec) are erased.
// Finite differences: test/CAPI/autodiff-general.c.
// CHECK-LABEL: func.func @f_grad(
// CHECK-SAME:      %[[X:[a-z0-9]+]]: !coopvec.vec<2 : i64, f32>, %[[W:[a-z0-9]+]]: memref<?xf32>, %[[GW:[a-z0-9]+]]: memref<?xf32>, %[[DY:[a-z0-9]+]]: !coopvec.vec<2 : i64, f32>)
// CHECK-NEXT:    %[[E:.*]]:2 = "coopvec.unpack"(%[[X]])
// CHECK-NEXT:    %[[Z:.*]] = arith.constant 0.0
// CHECK-NEXT:    %[[C:.*]] = arith.cmpf ogt, %[[E]]#0, %[[Z]]
// CHECK-NEXT:    %[[A:.*]] = "coopvec.matrix_view"(%[[W]])
// CHECK-NEXT:    %[[R:.*]]:2 = scf.if %[[C]] -> (!coopvec.vec<2 : i64, f32>, f32) {
// CHECK-NEXT:      %[[Y:.*]] = "coopvec.matvec"(%[[A]], %[[X]])
// CHECK-NEXT:      %[[S:.*]] = math.sin %[[E]]#1
// CHECK-NEXT:      scf.yield %[[Y]], %[[S]]
// CHECK-NEXT:    } else {
// CHECK-NEXT:      scf.yield %[[X]], %[[E]]#1
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[DR0:.*]] = "coopvec.mul"(%[[DY]], %[[R]]#1)
// CHECK-NEXT:    %[[P:.*]] = "coopvec.mul"(%[[DY]], %[[R]]#0)
// CHECK:         %[[DR1:.*]] = "coopvec.unpack"({{.*}}) : (!coopvec.vec<1 : i64, f32>) -> f32
// CHECK-NEXT:    %[[B:.*]]:2 = scf.if %[[C]] -> (!coopvec.vec<2 : i64, f32>, f32) {
// CHECK-NEXT:      %[[COS:.*]] = math.cos %[[E]]#1
// CHECK-NEXT:      %[[DE1:.*]] = arith.mulf %[[DR1]], %[[COS]]
// CHECK-NEXT:      %[[DX:.*]] = "coopvec.matvec"(%[[A]], %[[DR0]]) {transpose}
// CHECK-NEXT:      %[[GA:.*]] = "coopvec.matrix_view"(%[[GW]])
// CHECK-NEXT:      "coopvec.outer_product_accumulate"(%[[DR0]], %[[X]], %[[GA]])
// CHECK-NEXT:      scf.yield %[[DX]], %[[DE1]]
// CHECK-NEXT:    } else {
// CHECK-NEXT:      scf.yield %[[DR0]], %[[DR1]]
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[Z2:.*]] = arith.constant 0.0
// CHECK-NEXT:    %[[DV:.*]] = "coopvec.from_elements"(%[[Z2]], %[[B]]#1)
// CHECK-NEXT:    %[[DXS:.*]] = "coopvec.add"(%[[B]]#0, %[[DV]])
// CHECK-NEXT:    return %[[DXS]]
func.func @f(%x: !coopvec.vec<2, f32>, %w: memref<?xf32>) -> !coopvec.vec<2, f32> {
  %e:2 = "coopvec.unpack"(%x) : (!coopvec.vec<2, f32>) -> (f32, f32)
  %z = arith.constant 0.0 : f32
  %c = arith.cmpf ogt, %e#0, %z : f32
  %A = "coopvec.matrix_view"(%w) {offset = 0} : (memref<?xf32>) -> !coopvec.matrix<2, 2, f32, "row_major">
  %r:2 = scf.if %c -> (!coopvec.vec<2, f32>, f32) {
    %y = "coopvec.matvec"(%A, %x) : (!coopvec.matrix<2, 2, f32, "row_major">, !coopvec.vec<2, f32>) -> !coopvec.vec<2, f32>
    %s = math.sin %e#1 : f32
    scf.yield %y, %s : !coopvec.vec<2, f32>, f32
  } else {
    scf.yield %x, %e#1 : !coopvec.vec<2, f32>, f32
  }
  %o = "coopvec.mul"(%r#0, %r#1) : (!coopvec.vec<2, f32>, f32) -> !coopvec.vec<2, f32>
  return %o : !coopvec.vec<2, f32>
}

// -----

// A nested scf.if, and a branch that uses no varied value: the reverse
// branches yield zeros for the captures they do not reach.
// CHECK-LABEL: func.func @f_grad(
// CHECK-SAME:      %[[X:[a-z0-9]+]]: !coopvec.vec<1 : i64, f32>, %[[DY:[a-z0-9]+]]: !coopvec.vec<1 : i64, f32>)
// CHECK:         %[[G:.*]] = "coopvec.unpack"(%[[DY]])
// CHECK-NEXT:    %[[B:.*]] = scf.if %{{.*}} -> (f32) {
// CHECK-NEXT:      %[[I:.*]] = scf.if %{{.*}} -> (f32) {
// CHECK-NEXT:        %[[T:.*]] = arith.mulf %[[G]], %{{.*}}
// CHECK-NEXT:        %[[U:.*]] = arith.mulf %[[G]], %{{.*}}
// CHECK-NEXT:        %[[V:.*]] = arith.addf %[[T]], %[[U]]
// CHECK-NEXT:        scf.yield %[[V]]
// CHECK-NEXT:      } else {
// CHECK-NEXT:        scf.yield %[[G]]
// CHECK-NEXT:      }
// CHECK-NEXT:      scf.yield %[[I]]
// CHECK-NEXT:    } else {
// CHECK-NEXT:      %[[Z:.*]] = arith.constant 0.0
// CHECK-NEXT:      scf.yield %[[Z]]
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[DX:.*]] = "coopvec.from_elements"(%[[B]])
// CHECK-NEXT:    return %[[DX]]
func.func @f(%x: !coopvec.vec<1, f32>) -> !coopvec.vec<1, f32> {
  %e:1 = "coopvec.unpack"(%x) : (!coopvec.vec<1, f32>) -> (f32)
  %z = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %c = arith.cmpf ogt, %e#0, %z : f32
  %d = arith.cmpf ogt, %e#0, %one : f32
  %r = scf.if %c -> f32 {
    %i = scf.if %d -> f32 {
      %s = arith.mulf %e#0, %e#0 : f32
      scf.yield %s : f32
    } else {
      scf.yield %e#0 : f32
    }
    scf.yield %i : f32
  } else {
    scf.yield %z : f32
  }
  %y = "coopvec.from_elements"(%r) : (f32) -> !coopvec.vec<1, f32>
  return %y : !coopvec.vec<1, f32>
}
