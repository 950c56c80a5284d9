// RUN: coopvec-opt %s --pass-pipeline='builtin.module(coopvec-autodiff{func=f})' | FileCheck %s

// The reverse of an scf.index_switch (docs/autodiff.md, "Control flow:
// scf.index_switch"): a chain of scf.if on the selector, one reverse
// branch per case (recomputing it), the default last. Case 1 gives
// x̄ = ȳ cos x, case 4 (which yields the captured element itself) ȳ, the
// default (a constant) 0. Finite differences:
// test/CAPI/autodiff-general.c.
// CHECK-LABEL: func.func @f_grad(
// CHECK-SAME:      %[[X:[a-z0-9]+]]: !coopvec.vec<1 : i64, f32>, %[[N:[a-z0-9]+]]: index, %[[DY:[a-z0-9]+]]: !coopvec.vec<1 : i64, f32>)
// CHECK-NEXT:    %[[E:.*]] = "coopvec.unpack"(%[[X]])
// CHECK-NEXT:    %[[G:.*]] = "coopvec.unpack"(%[[DY]])
// CHECK-NEXT:    %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[IS1:.*]] = arith.cmpi eq, %[[N]], %[[C1]] : index
// CHECK-NEXT:    %[[R:.*]] = scf.if %[[IS1]] -> (f32) {
// CHECK-NEXT:      %[[COS:.*]] = math.cos %[[E]]
// CHECK-NEXT:      %[[D1:.*]] = arith.mulf %[[G]], %[[COS]]
// CHECK-NEXT:      scf.yield %[[D1]] : f32
// CHECK-NEXT:    } else {
// CHECK-NEXT:      %[[C4:.*]] = arith.constant 4 : index
// CHECK-NEXT:      %[[IS4:.*]] = arith.cmpi eq, %[[N]], %[[C4]] : index
// CHECK-NEXT:      %[[R4:.*]] = scf.if %[[IS4]] -> (f32) {
// CHECK-NEXT:        scf.yield %[[G]] : f32
// CHECK-NEXT:      } else {
// CHECK-NEXT:        %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:        scf.yield %[[Z]] : f32
// CHECK-NEXT:      }
// CHECK-NEXT:      scf.yield %[[R4]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[DX:.*]] = "coopvec.from_elements"(%[[R]])
// CHECK-NEXT:    return %[[DX]]
func.func @f(%x: !coopvec.vec<1, f32>, %n: index) -> !coopvec.vec<1, f32> {
  %e:1 = "coopvec.unpack"(%x) : (!coopvec.vec<1, f32>) -> (f32)
  %r = scf.index_switch %n -> f32
  case 1 {
    %s = math.sin %e#0 : f32
    scf.yield %s : f32
  }
  case 4 {
    scf.yield %e#0 : f32
  }
  default {
    %c = arith.constant 2.0 : f32
    scf.yield %c : f32
  }
  %y = "coopvec.from_elements"(%r) : (f32) -> !coopvec.vec<1, f32>
  return %y : !coopvec.vec<1, f32>
}
