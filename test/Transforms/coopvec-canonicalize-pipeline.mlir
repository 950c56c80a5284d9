// RUN: coopvec-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(coopvec-canonicalize,cse))' | FileCheck %s --check-prefix=CSE
// RUN: coopvec-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(coopvec-canonicalize,canonicalize,coopvec-canonicalize))' | FileCheck %s --check-prefix=CANON
// RUN: coopvec-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(coopvec-canonicalize))' | FileCheck %s --check-prefix=ALONE

// coopvec-canonicalize creates one constant per fold; cse then merges the
// equal arith.constants. It cannot merge the equal coopvec.splats: IRDL ops
// have no traits, so cse must assume they have side effects.
// CSE-LABEL: func.func @cse_after_fold
// CSE: %[[C:.*]] = arith.constant 3.000000e+00 : f32
// CSE-NOT: arith.constant
// CSE: %[[S0:.*]] = "coopvec.splat"(%[[C]])
// CSE: %[[S1:.*]] = "coopvec.splat"(%[[C]])
// CSE: return %[[S0]], %[[S1]]
func.func @cse_after_fold(%v: !coopvec.vec<2, f32>) -> (!coopvec.vec<2, f32>, !coopvec.vec<2, f32>) {
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %s1 = "coopvec.splat"(%one) : (f32) -> !coopvec.vec<2, f32>
  %s2 = "coopvec.splat"(%two) : (f32) -> !coopvec.vec<2, f32>
  %a = "coopvec.add"(%s1, %s2) : (!coopvec.vec<2, f32>, !coopvec.vec<2, f32>) -> !coopvec.vec<2, f32>
  %b = "coopvec.add"(%s2, %one) : (!coopvec.vec<2, f32>, f32) -> !coopvec.vec<2, f32>
  return %a, %b : !coopvec.vec<2, f32>, !coopvec.vec<2, f32>
}

// -----

// coopvec-canonicalize leaves arith alone (no folding of non-coopvec ops);
// upstream canonicalize folds the addf, after which a second
// coopvec-canonicalize folds the now-constant coopvec.add.
// ALONE-LABEL: func.func @arith_then_coopvec
// ALONE: arith.addf
// ALONE: "coopvec.add"
// CANON-LABEL: func.func @arith_then_coopvec
// CANON-NOT: arith.addf
// CANON: %[[C:.*]] = arith.constant 3.000000e+00 : f32
// CANON-NEXT: %[[S:.*]] = "coopvec.splat"(%[[C]])
// CANON-NOT: "coopvec.add"
// CANON: return %[[S]]
func.func @arith_then_coopvec() -> !coopvec.vec<2, f32> {
  %one = arith.constant 1.0 : f32
  %two = arith.addf %one, %one : f32
  %s = "coopvec.splat"(%two) : (f32) -> !coopvec.vec<2, f32>
  %r = "coopvec.add"(%s, %one) : (!coopvec.vec<2, f32>, f32) -> !coopvec.vec<2, f32>
  return %r : !coopvec.vec<2, f32>
}
