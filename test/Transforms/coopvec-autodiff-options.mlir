// `func` is a comma list and may repeat; every function named gets its
// gradient, the others are left alone.
// RUN: coopvec-opt %s --pass-pipeline='builtin.module(coopvec-autodiff{func=g,h func=k})' | FileCheck %s
// RUN: coopvec-opt %s --coopvec-autodiff='func=g func=h,k' | FileCheck %s
// RUN: coopvec-opt --list-passes | FileCheck %s --check-prefix=LIST

// LIST: coopvec-autodiff
// LIST-NEXT: Add @NAME_grad, the reverse-mode gradient
// LIST-NEXT: func=<list> (default: )

// CHECK-LABEL: func.func @f(
// CHECK-NOT:   @f_grad
// CHECK-LABEL: func.func @g(
// CHECK-LABEL: func.func @g_grad(
// CHECK-SAME:      %{{.*}}: !coopvec.vec<2 : i64, f32>, %[[DY:.*]]: !coopvec.vec<2 : i64, f32>)
// CHECK-NEXT:    %[[DX:.*]] = "coopvec.neg"(%[[DY]])
// CHECK-NEXT:    return %[[DX]]
// CHECK-LABEL: func.func @h(
// CHECK-LABEL: func.func @h_grad(
// CHECK-LABEL: func.func @k(
// CHECK-LABEL: func.func @k_grad(
// CHECK-NOT:   @f_grad
func.func @f(%x: !coopvec.vec<2, f32>) -> !coopvec.vec<2, f32> {
  return %x : !coopvec.vec<2, f32>
}
func.func @g(%x: !coopvec.vec<2, f32>) -> !coopvec.vec<2, f32> {
  %y = "coopvec.neg"(%x) : (!coopvec.vec<2, f32>) -> !coopvec.vec<2, f32>
  return %y : !coopvec.vec<2, f32>
}
func.func @h(%x: !coopvec.vec<2, f32>) -> !coopvec.vec<2, f32> {
  return %x : !coopvec.vec<2, f32>
}
func.func @k(%x: !coopvec.vec<2, f32>) -> !coopvec.vec<2, f32> {
  return %x : !coopvec.vec<2, f32>
}
