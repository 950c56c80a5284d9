// RUN: coopvec-opt --split-input-file --verify-diagnostics --coopvec-inline %s | FileCheck %s

// coopvec-inline replaces every call inside a per-thread function by the
// callee's body, at any depth and through plain helpers; the lowering
// passes do the same first (docs/passes.md, "coopvec-inline").

// CHECK-LABEL: func.func @caller(
// CHECK-SAME:      %[[X:[^:]*]]: !coopvec.vec<2 : i64, f32>, %[[S:[^:]*]]: f32)
// CHECK-NOT:     func.call
// CHECK:         %[[T:.*]] = arith.mulf %[[S]], %[[S]] : f32
// CHECK-NEXT:    %[[U:.*]] = arith.addf %[[T]], %[[S]] : f32
// CHECK-NEXT:    %[[Y:.*]] = "coopvec.mul"(%[[X]], %[[U]])
// CHECK-NEXT:    %[[Z:.*]] = "coopvec.add"(%[[Y]], %[[Y]])
// CHECK-NEXT:    return %[[Z]]
func.func @square(%a: f32) -> f32 {
  %b = arith.mulf %a, %a : f32
  return %b : f32
}

func.func @scale(%x: !coopvec.vec<2, f32>, %s: f32) -> !coopvec.vec<2, f32> {
  %t = func.call @square(%s) : (f32) -> f32
  %u = arith.addf %t, %s : f32
  %y = "coopvec.mul"(%x, %u) : (!coopvec.vec<2, f32>, f32) -> !coopvec.vec<2, f32>
  return %y : !coopvec.vec<2, f32>
}

func.func @caller(%x: !coopvec.vec<2, f32>, %s: f32) -> !coopvec.vec<2, f32> {
  %y = func.call @scale(%x, %s) : (!coopvec.vec<2, f32>, f32) -> !coopvec.vec<2, f32>
  %z = "coopvec.add"(%y, %y) : (!coopvec.vec<2, f32>, !coopvec.vec<2, f32>) -> !coopvec.vec<2, f32>
  return %z : !coopvec.vec<2, f32>
}

// -----

// Calls inside control flow are inlined where they are.
// CHECK-LABEL: func.func @in_loop(
// CHECK:         scf.for
// CHECK-NEXT:      %[[N:.*]] = "coopvec.neg"
// CHECK-NEXT:      scf.yield %[[N]]
func.func @negate(%x: !coopvec.vec<1, f32>) -> !coopvec.vec<1, f32> {
  %n = "coopvec.neg"(%x) : (!coopvec.vec<1, f32>) -> !coopvec.vec<1, f32>
  return %n : !coopvec.vec<1, f32>
}

func.func @in_loop(%x: !coopvec.vec<1, f32>, %k: index) -> !coopvec.vec<1, f32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %k step %c1 iter_args(%v = %x) -> !coopvec.vec<1, f32> {
    %w = func.call @negate(%v) : (!coopvec.vec<1, f32>) -> !coopvec.vec<1, f32>
    scf.yield %w : !coopvec.vec<1, f32>
  }
  return %r : !coopvec.vec<1, f32>
}

// -----

// Mutual recursion is refused at the call that closes the cycle.
func.func @even(%x: !coopvec.vec<1, f32>) -> !coopvec.vec<1, f32> {
  %y = func.call @odd(%x) : (!coopvec.vec<1, f32>) -> !coopvec.vec<1, f32>
  return %y : !coopvec.vec<1, f32>
}

func.func @odd(%x: !coopvec.vec<1, f32>) -> !coopvec.vec<1, f32> {
  // expected-error@+1 {{'func.call' op calls @even recursively; per-thread functions cannot recurse (coopvec-inline inlines every call)}}
  %y = func.call @even(%x) : (!coopvec.vec<1, f32>) -> !coopvec.vec<1, f32>
  return %y : !coopvec.vec<1, f32>
}

// -----

func.func private @external(f32) -> f32

func.func @calls_external(%x: !coopvec.vec<1, f32>, %s: f32) -> !coopvec.vec<1, f32> {
  // expected-error@+1 {{'func.call' op calls @external, which has no body in the module; coopvec-inline inlines every call of a per-thread function}}
  %t = func.call @external(%s) : (f32) -> f32
  return %x : !coopvec.vec<1, f32>
}

// -----

// A private per-thread function that per-thread functions call is a
// helper: inlined, then erased (it may return a per-thread scalar, which
// no batched form could). A private one nobody calls stays (an entry),
// and so does a public callee.
// CHECK-LABEL: func.func @uses_helper(
// CHECK-NOT:     func.call
// CHECK:         "coopvec.unpack"
// CHECK:         arith.addf
// CHECK-NOT:     func.func @sum_helper
// CHECK-NOT:     func.func private @sum_helper
// CHECK:         func.func private @uncalled(
// CHECK:         func.func @public_callee(
func.func private @sum_helper(%x: !coopvec.vec<2, f32>) -> f32 {
  %e:2 = "coopvec.unpack"(%x) : (!coopvec.vec<2, f32>) -> (f32, f32)
  %s = arith.addf %e#0, %e#1 : f32
  return %s : f32
}

func.func @uses_helper(%x: !coopvec.vec<2, f32>) -> !coopvec.vec<2, f32> {
  %s = func.call @sum_helper(%x) : (!coopvec.vec<2, f32>) -> f32
  %y = func.call @public_callee(%x, %s) : (!coopvec.vec<2, f32>, f32) -> !coopvec.vec<2, f32>
  return %y : !coopvec.vec<2, f32>
}

func.func private @uncalled(%x: !coopvec.vec<2, f32>) -> !coopvec.vec<2, f32> {
  return %x : !coopvec.vec<2, f32>
}

func.func @public_callee(%x: !coopvec.vec<2, f32>, %s: f32) -> !coopvec.vec<2, f32> {
  %y = "coopvec.mul"(%x, %s) : (!coopvec.vec<2, f32>, f32) -> !coopvec.vec<2, f32>
  return %y : !coopvec.vec<2, f32>
}
