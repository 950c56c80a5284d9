// RUN: coopvec-opt %s --split-input-file --verify-diagnostics --coopvec-autodiff='func=f input-gradients=false'
// RUN: not coopvec-opt %s --split-input-file --coopvec-autodiff='func=f input-gradients=false' 2>&1 | FileCheck %s
// RUN: not coopvec-opt %s --coopvec-autodiff='func=f input-gradients=maybe' 2>&1 | FileCheck %s --check-prefix=BAD
// CHECK-NOT: func.func @f_grad(
// BAD: input-gradients

// input-gradients=false with no weights read from a memref: the gradient
// would compute nothing, so it is refused.
// expected-error@+1 {{'func.func' op @f reads no weights from a memref argument, and input-gradients=false asks for no input gradient: there is nothing to differentiate}}
func.func @f(%x: !coopvec.vec<2, f32>, %w: memref<?xf32>) -> !coopvec.vec<2, f32> {
  %y = "coopvec.neg"(%x) : (!coopvec.vec<2, f32>) -> !coopvec.vec<2, f32>
  return %y : !coopvec.vec<2, f32>
}

// -----

// Nor without any memref argument.
// expected-error@+1 {{'func.func' op @f reads no weights from a memref argument}}
func.func @f(%x: !coopvec.vec<2, f32>) -> !coopvec.vec<2, f32> {
  %y = "coopvec.mul"(%x, %x) : (!coopvec.vec<2, f32>, !coopvec.vec<2, f32>) -> !coopvec.vec<2, f32>
  return %y : !coopvec.vec<2, f32>
}
