// RUN: coopvec-opt %s --split-input-file --pass-pipeline='builtin.module(coopvec-autodiff{func=f input-gradients=false})' | FileCheck %s
// RUN: coopvec-opt %s --split-input-file --coopvec-autodiff='func=f input-gradients=0' | FileCheck %s
// RUN: coopvec-opt %s --split-input-file --coopvec-autodiff='func=f input-gradients=true' | FileCheck %s --check-prefix=INPUTS
// RUN: coopvec-opt --list-passes | FileCheck %s --check-prefix=LIST

// input-gradients=false: the vec arguments are constants, @f_grad returns
// nothing and adds the weights' gradients only (docs/autodiff.md).

// LIST: coopvec-autodiff
// LIST: input-gradients=<bool> (default: true)

// Two layers: the first layer's transposed matvec (x̄ = A0^T ȳ0, only dX
// needed it) is gone; the second's (ȳ0 = A1^T ȳ1) stays. The second vec
// argument %t (a target) gets no adjoint either.
// CHECK-LABEL: func.func @f_grad(
// CHECK-SAME:      %[[X:[a-z0-9]+]]: !coopvec.vec<3 : i64, f32>, %[[T:[a-z0-9]+]]: !coopvec.vec<5 : i64, f32>, %[[W:[a-z0-9]+]]: memref<?xf32>,
// CHECK-SAME:      %[[G:[a-z0-9]+]]: memref<?xf32>, %[[DY:[a-z0-9]+]]: !coopvec.vec<5 : i64, f32>) {
// CHECK:         %[[A1:.*]] = "coopvec.matrix_view"(%[[W]]) {offset = 64 : i64}
// CHECK:         "coopvec.matvec"(%[[A1]], %{{.*}}) {transpose}
// CHECK-NOT:     "coopvec.matvec"(%{{.*}}) {transpose}
// CHECK:         "coopvec.outer_product_accumulate"(%{{.*}}, %[[X]], %{{.*}})
// CHECK-NEXT:    return{{$}}
// INPUTS-LABEL: func.func @f_grad(
// INPUTS-SAME:      -> (!coopvec.vec<3 : i64, f32>, !coopvec.vec<5 : i64, f32>)
// INPUTS-COUNT-2: {transpose}
// INPUTS:         return %{{.*}}, %{{.*}} : !coopvec.vec<3 : i64, f32>, !coopvec.vec<5 : i64, f32>
func.func @f(%x: !coopvec.vec<3, f32>, %t: !coopvec.vec<5, f32>, %w: memref<?xf32>) -> !coopvec.vec<5, f32> {
  %A0 = "coopvec.matrix_view"(%w) {offset = 0} : (memref<?xf32>) -> !coopvec.matrix<4, 3, f32, "row_major">
  %h = "coopvec.matvec"(%A0, %x) : (!coopvec.matrix<4, 3, f32, "row_major">, !coopvec.vec<3, f32>) -> !coopvec.vec<4, f32>
  %A1 = "coopvec.matrix_view"(%w) {offset = 64} : (memref<?xf32>) -> !coopvec.matrix<5, 4, f32, "row_major">
  %y = "coopvec.matvec"(%A1, %h) : (!coopvec.matrix<5, 4, f32, "row_major">, !coopvec.vec<4, f32>) -> !coopvec.vec<5, f32>
  %d = "coopvec.sub"(%y, %t) : (!coopvec.vec<5, f32>, !coopvec.vec<5, f32>) -> !coopvec.vec<5, f32>
  %l = "coopvec.mul"(%d, %d) : (!coopvec.vec<5, f32>, !coopvec.vec<5, f32>) -> !coopvec.vec<5, f32>
  return %l : !coopvec.vec<5, f32>
}

// -----

// A result that depends on the inputs only is constant: its dY is unused
// and @f_grad adds the bias's gradient only.
// CHECK-LABEL: func.func @f_grad(
// CHECK-SAME:      %[[X:[a-z0-9]+]]: !coopvec.vec<2 : i64, f32>, %[[W:[a-z0-9]+]]: memref<?xf32>, %[[G:[a-z0-9]+]]: memref<?xf32>, %[[DY:[a-z0-9]+]]: !coopvec.vec<2 : i64, f32>, %[[DZ:[a-z0-9]+]]: !coopvec.vec<2 : i64, f32>) {
// CHECK-NEXT:    %[[C:.*]] = arith.constant 0 : index
// CHECK-NEXT:    "coopvec.reduce_sum_accumulate"(%[[DY]], %[[G]], %[[C]])
// CHECK-NEXT:    return{{$}}
func.func @f(%x: !coopvec.vec<2, f32>, %w: memref<?xf32>) -> (!coopvec.vec<2, f32>, !coopvec.vec<2, f32>) {
  %c0 = arith.constant 0 : index
  %b = "coopvec.load"(%w, %c0) : (memref<?xf32>, index) -> !coopvec.vec<2, f32>
  %y = "coopvec.add"(%x, %b) : (!coopvec.vec<2, f32>, !coopvec.vec<2, f32>) -> !coopvec.vec<2, f32>
  %z = "coopvec.neg"(%x) : (!coopvec.vec<2, f32>) -> !coopvec.vec<2, f32>
  return %y, %z : !coopvec.vec<2, f32>, !coopvec.vec<2, f32>
}
