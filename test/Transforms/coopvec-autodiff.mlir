// RUN: coopvec-opt %s --split-input-file --pass-pipeline='builtin.module(coopvec-autodiff{func=f})' | FileCheck %s
// RUN: coopvec-opt %s --split-input-file --coopvec-autodiff=func=f | FileCheck %s

// The IR coopvec-autodiff generates, rule by rule (docs/autodiff.md). Every
// piece differentiates its @f; @f itself is left as it was, and @f_grad
// recomputes the forward values its rules need (the others are erased)
// before the reverse sweep. The numbers of these rules are checked by
// finite differences in test/CAPI/autodiff.c.

//===----------------------------------------------------------------------===//
// matvec
//===----------------------------------------------------------------------===//

// y = A x + b with b loaded from the weights: x̄ = A^T ȳ, Ā += ȳ x^T through
// a view of the gradient buffer at A's offset and layout, b̄ added at the
// bias's offset (an index argument, kept).
// CHECK-LABEL: func.func @f(
// CHECK:         "coopvec.matvec"
// CHECK-NEXT:    return
// CHECK-LABEL: func.func @f_grad(
// CHECK-SAME:      %[[X:[a-z0-9]+]]: !coopvec.vec<3 : i64, f32>, %[[W:[a-z0-9]+]]: memref<?xf32>, %[[OFF:[a-z0-9]+]]: index,
// CHECK-SAME:      %[[G:[a-z0-9]+]]: memref<?xf32>, %[[DY:[a-z0-9]+]]: !coopvec.vec<7 : i64, f32>) -> !coopvec.vec<3 : i64, f32>
// CHECK-NEXT:    %[[A:.*]] = "coopvec.matrix_view"(%[[W]]) {offset = 64 : i64} : (memref<?xf32>) -> !coopvec.matrix<7 : i64, 3 : i64, f32, "row_major">
// CHECK-NEXT:    %[[DX:.*]] = "coopvec.matvec"(%[[A]], %[[DY]]) {transpose}
// CHECK-NEXT:    %[[GA:.*]] = "coopvec.matrix_view"(%[[G]]) {offset = 64 : i64} : (memref<?xf32>) -> !coopvec.matrix<7 : i64, 3 : i64, f32, "row_major">
// CHECK-NEXT:    "coopvec.outer_product_accumulate"(%[[DY]], %[[X]], %[[GA]])
// CHECK-NEXT:    "coopvec.reduce_sum_accumulate"(%[[DY]], %[[G]], %[[OFF]])
// CHECK-NEXT:    return %[[DX]] : !coopvec.vec<3 : i64, f32>
func.func @f(%x: !coopvec.vec<3, f32>, %w: memref<?xf32>, %off: index) -> !coopvec.vec<7, f32> {
  %A = "coopvec.matrix_view"(%w) {offset = 64} : (memref<?xf32>) -> !coopvec.matrix<7, 3, f32, "row_major">
  %b = "coopvec.load"(%w, %off) : (memref<?xf32>, index) -> !coopvec.vec<7, f32>
  %y = "coopvec.matvec"(%A, %x, %b) : (!coopvec.matrix<7, 3, f32, "row_major">, !coopvec.vec<3, f32>, !coopvec.vec<7, f32>) -> !coopvec.vec<7, f32>
  return %y : !coopvec.vec<7, f32>
}

// -----

// y = A^T x + b: x̄ = A ȳ (no transpose), Ā += x ȳ^T (operands swapped),
// and a bias that is an argument gets ȳ as its dX.
// CHECK-LABEL: func.func @f_grad(
// CHECK-SAME:      %[[X:[a-z0-9]+]]: !coopvec.vec<7 : i64, f16>, %[[W:[a-z0-9]+]]: memref<?xf16>, %[[B:[a-z0-9]+]]: !coopvec.vec<3 : i64, f16>,
// CHECK-SAME:      %[[G:[a-z0-9]+]]: memref<?xf16>, %[[DY:[a-z0-9]+]]: !coopvec.vec<3 : i64, f16>) -> (!coopvec.vec<7 : i64, f16>, !coopvec.vec<3 : i64, f16>)
// CHECK-NEXT:    %[[A:.*]] = "coopvec.matrix_view"(%[[W]]) {offset = 128 : i64}
// CHECK-NEXT:    %[[DX:.*]] = "coopvec.matvec"(%[[A]], %[[DY]]) : (!coopvec.matrix<7 : i64, 3 : i64, f16, "training">, !coopvec.vec<3 : i64, f16>) -> !coopvec.vec<7 : i64, f16>
// CHECK-NEXT:    %[[GA:.*]] = "coopvec.matrix_view"(%[[G]]) {offset = 128 : i64} : (memref<?xf16>) -> !coopvec.matrix<7 : i64, 3 : i64, f16, "training">
// CHECK-NEXT:    "coopvec.outer_product_accumulate"(%[[X]], %[[DY]], %[[GA]])
// CHECK-NEXT:    return %[[DX]], %[[DY]]
func.func @f(%x: !coopvec.vec<7, f16>, %w: memref<?xf16>, %b: !coopvec.vec<3, f16>) -> !coopvec.vec<3, f16> {
  %A = "coopvec.matrix_view"(%w) {offset = 128} : (memref<?xf16>) -> !coopvec.matrix<7, 3, f16, "training">
  %y = "coopvec.matvec"(%A, %x, %b) {transpose} : (!coopvec.matrix<7, 3, f16, "training">, !coopvec.vec<7, f16>, !coopvec.vec<3, f16>) -> !coopvec.vec<3, f16>
  return %y : !coopvec.vec<3, f16>
}

// -----

// A weight used twice: one gradient view, one outer product per use. The
// second use (transposed) is differentiated first.
// CHECK-LABEL: func.func @f_grad(
// CHECK-SAME:      %[[X:[a-z0-9]+]]: !coopvec.vec<4 : i64, f32>, %[[W:[a-z0-9]+]]: memref<?xf32>, %[[G:[a-z0-9]+]]: memref<?xf32>, %[[DY:[a-z0-9]+]]: !coopvec.vec<4 : i64, f32>)
// CHECK-NEXT:    %[[A:.*]] = "coopvec.matrix_view"(%[[W]])
// CHECK-NEXT:    %[[Y1:.*]] = "coopvec.matvec"(%[[A]], %[[X]]) :
// CHECK-NEXT:    %[[DY1:.*]] = "coopvec.matvec"(%[[A]], %[[DY]]) :
// CHECK-NEXT:    %[[GA:.*]] = "coopvec.matrix_view"(%[[G]]) {offset = 0 : i64}
// CHECK-NEXT:    "coopvec.outer_product_accumulate"(%[[Y1]], %[[DY]], %[[GA]])
// CHECK-NEXT:    %[[DX:.*]] = "coopvec.matvec"(%[[A]], %[[DY1]]) {transpose}
// CHECK-NEXT:    "coopvec.outer_product_accumulate"(%[[DY1]], %[[X]], %[[GA]])
// CHECK-NEXT:    return %[[DX]]
func.func @f(%x: !coopvec.vec<4, f32>, %w: memref<?xf32>) -> !coopvec.vec<4, f32> {
  %A = "coopvec.matrix_view"(%w) {offset = 0} : (memref<?xf32>) -> !coopvec.matrix<4, 4, f32, "col_major">
  %y1 = "coopvec.matvec"(%A, %x) : (!coopvec.matrix<4, 4, f32, "col_major">, !coopvec.vec<4, f32>) -> !coopvec.vec<4, f32>
  %y2 = "coopvec.matvec"(%A, %y1) {transpose} : (!coopvec.matrix<4, 4, f32, "col_major">, !coopvec.vec<4, f32>) -> !coopvec.vec<4, f32>
  return %y2 : !coopvec.vec<4, f32>
}

// -----

// The signature: a gradient buffer only for memrefs the forward reads
// weights from (%out is only written), a dY per result, a dX per vec
// argument. The forward's store is not repeated; a result that does not
// depend on the inputs (%ones) leaves its dY unused.
// CHECK-LABEL: func.func @f_grad(
// CHECK-SAME:      %[[X:[a-z0-9]+]]: !coopvec.vec<4 : i64, f32>, %[[W:[a-z0-9]+]]: memref<?xf32>, %[[OUT:[a-z0-9]+]]: memref<?xf32>, %[[N:[a-z0-9]+]]: index,
// CHECK-SAME:      %[[G:[a-z0-9]+]]: memref<?xf32>, %[[DY0:[a-z0-9]+]]: !coopvec.vec<4 : i64, f32>, %[[DY1:[a-z0-9]+]]: !coopvec.vec<4 : i64, f32>) -> !coopvec.vec<4 : i64, f32>
// CHECK-NOT:     coopvec.store
// CHECK-NEXT:    %[[B:.*]] = "coopvec.load"(%[[W]], %[[N]])
// CHECK-NEXT:    %[[DX:.*]] = "coopvec.mul"(%[[DY0]], %[[B]])
// CHECK-NEXT:    %[[DB:.*]] = "coopvec.mul"(%[[DY0]], %[[X]])
// CHECK-NEXT:    "coopvec.reduce_sum_accumulate"(%[[DB]], %[[G]], %[[N]])
// CHECK-NEXT:    return %[[DX]]
func.func @f(%x: !coopvec.vec<4, f32>, %w: memref<?xf32>, %out: memref<?xf32>, %n: index) -> (!coopvec.vec<4, f32>, !coopvec.vec<4, f32>) {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1.0 : f32
  %ones = "coopvec.splat"(%one) : (f32) -> !coopvec.vec<4, f32>
  "coopvec.store"(%ones, %out, %c0) : (!coopvec.vec<4, f32>, memref<?xf32>, index) -> ()
  %b = "coopvec.load"(%w, %n) : (memref<?xf32>, index) -> !coopvec.vec<4, f32>
  %y = "coopvec.mul"(%x, %b) : (!coopvec.vec<4, f32>, !coopvec.vec<4, f32>) -> !coopvec.vec<4, f32>
  return %y, %ones : !coopvec.vec<4, f32>, !coopvec.vec<4, f32>
}

// -----

// Several memrefs get their buffers in argument order; a private @f gets a
// private @f_grad.
// CHECK-LABEL: func.func private @f_grad(
// CHECK-SAME:      %[[X:[a-z0-9]+]]: !coopvec.vec<2 : i64, f32>, %[[V:[a-z0-9]+]]: memref<8xf32>, %[[W:[a-z0-9]+]]: memref<?xf32>,
// CHECK-SAME:      %[[GV:[a-z0-9]+]]: memref<8xf32>, %[[GW:[a-z0-9]+]]: memref<?xf32>, %{{.*}}: !coopvec.vec<2 : i64, f32>)
// CHECK-DAG:     "coopvec.reduce_sum_accumulate"(%{{.*}}, %[[GV]], %{{.*}})
// CHECK-DAG:     "coopvec.reduce_sum_accumulate"(%{{.*}}, %[[GW]], %{{.*}})
func.func private @f(%x: !coopvec.vec<2, f32>, %v: memref<8xf32>, %w: memref<?xf32>) -> !coopvec.vec<2, f32> {
  %c1 = arith.constant 1 : index
  %a = "coopvec.load"(%v, %c1) : (memref<8xf32>, index) -> !coopvec.vec<2, f32>
  %b = "coopvec.load"(%w, %c1) : (memref<?xf32>, index) -> !coopvec.vec<2, f32>
  %s = "coopvec.add"(%a, %b) : (!coopvec.vec<2, f32>, !coopvec.vec<2, f32>) -> !coopvec.vec<2, f32>
  %y = "coopvec.mul"(%s, %x) : (!coopvec.vec<2, f32>, !coopvec.vec<2, f32>) -> !coopvec.vec<2, f32>
  return %y : !coopvec.vec<2, f32>
}

//===----------------------------------------------------------------------===//
// Arithmetic
//===----------------------------------------------------------------------===//

// -----

// add, sub, neg: ā += ȳ, b̄ += ±ȳ (a first contribution -ȳ is a neg).
// The forward values are not needed and are erased.
// CHECK-LABEL: func.func @f_grad(
// CHECK-SAME:      %{{[a-z0-9]+}}: !coopvec.vec<3 : i64, f32>, %{{[a-z0-9]+}}: !coopvec.vec<3 : i64, f32>, %[[DY:[a-z0-9]+]]: !coopvec.vec<3 : i64, f32>)
// CHECK-NEXT:    %[[N:.*]] = "coopvec.neg"(%[[DY]])
// CHECK-NEXT:    %[[NN:.*]] = "coopvec.neg"(%[[N]])
// CHECK-NEXT:    %[[DB:.*]] = "coopvec.add"(%[[NN]], %[[N]])
// CHECK-NEXT:    return %[[N]], %[[DB]]
func.func @f(%a: !coopvec.vec<3, f32>, %b: !coopvec.vec<3, f32>) -> !coopvec.vec<3, f32> {
  %0 = "coopvec.add"(%a, %b) : (!coopvec.vec<3, f32>, !coopvec.vec<3, f32>) -> !coopvec.vec<3, f32>
  %1 = "coopvec.sub"(%0, %b) : (!coopvec.vec<3, f32>, !coopvec.vec<3, f32>) -> !coopvec.vec<3, f32>
  %2 = "coopvec.neg"(%1) : (!coopvec.vec<3, f32>) -> !coopvec.vec<3, f32>
  return %2 : !coopvec.vec<3, f32>
}

// -----

// mul and fma: each factor gets ȳ times the other (an fma into an existing
// adjoint); fma's addend gets ȳ. A scalar argument is a constant: it
// scales but gets no gradient.
// CHECK-LABEL: func.func @f_grad(
// CHECK-SAME:      %[[A:[a-z0-9]+]]: !coopvec.vec<3 : i64, f32>, %[[B:[a-z0-9]+]]: !coopvec.vec<3 : i64, f32>, %[[S:[a-z0-9]+]]: f32, %[[DY:[a-z0-9]+]]: !coopvec.vec<3 : i64, f32>) -> (!coopvec.vec<3 : i64, f32>, !coopvec.vec<3 : i64, f32>)
// CHECK-NEXT:    %[[P:.*]] = "coopvec.mul"(%[[A]], %[[S]])
// CHECK-NEXT:    %[[DP:.*]] = "coopvec.mul"(%[[DY]], %[[B]])
// CHECK-NEXT:    %[[DB:.*]] = "coopvec.fma"(%[[DY]], %[[P]], %[[DY]])
// CHECK-NEXT:    %[[DA:.*]] = "coopvec.mul"(%[[DP]], %[[S]])
// CHECK-NEXT:    return %[[DA]], %[[DB]]
func.func @f(%a: !coopvec.vec<3, f32>, %b: !coopvec.vec<3, f32>, %s: f32) -> !coopvec.vec<3, f32> {
  %p = "coopvec.mul"(%a, %s) : (!coopvec.vec<3, f32>, f32) -> !coopvec.vec<3, f32>
  %y = "coopvec.fma"(%p, %b, %b) : (!coopvec.vec<3, f32>, !coopvec.vec<3, f32>, !coopvec.vec<3, f32>) -> !coopvec.vec<3, f32>
  return %y : !coopvec.vec<3, f32>
}

// -----

// x * x: both contributions land on x, the second through an fma.
// CHECK-LABEL: func.func @f_grad(
// CHECK-SAME:      %[[X:[a-z0-9]+]]: !coopvec.vec<5 : i64, f16>, %[[DY:[a-z0-9]+]]: !coopvec.vec<5 : i64, f16>)
// CHECK-NEXT:    %[[D:.*]] = "coopvec.mul"(%[[DY]], %[[X]])
// CHECK-NEXT:    %[[D2:.*]] = "coopvec.fma"(%[[DY]], %[[X]], %[[D]])
// CHECK-NEXT:    return %[[D2]]
func.func @f(%x: !coopvec.vec<5, f16>) -> !coopvec.vec<5, f16> {
  %y = "coopvec.mul"(%x, %x) : (!coopvec.vec<5, f16>, !coopvec.vec<5, f16>) -> !coopvec.vec<5, f16>
  return %y : !coopvec.vec<5, f16>
}

//===----------------------------------------------------------------------===//
// max, min, step
//===----------------------------------------------------------------------===//

// -----

// max(a, b): the weight of a is 1 where a > b, 0 where a < b and 1/2 on a
// tie, (step(a, b) - step(b, a)) / 2 + 1/2 on the operands with NaN
// replaced by -inf (max is maxNum: a NaN operand is never selected); b gets
// ȳ minus a's share.
// CHECK-LABEL: func.func @f_grad(
// CHECK-SAME:      %[[A:[a-z0-9]+]]: !coopvec.vec<3 : i64, f32>, %[[B:[a-z0-9]+]]: !coopvec.vec<3 : i64, f32>, %[[DY:[a-z0-9]+]]: !coopvec.vec<3 : i64, f32>)
// CHECK-NEXT:    %[[NINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK-NEXT:    %[[A1:.*]] = "coopvec.max"(%[[A]], %[[NINF]])
// CHECK-NEXT:    %[[B1:.*]] = "coopvec.max"(%[[B]], %[[NINF]])
// CHECK-NEXT:    %[[AB:.*]] = "coopvec.step"(%[[A1]], %[[B1]])
// CHECK-NEXT:    %[[BA:.*]] = "coopvec.step"(%[[B1]], %[[A1]])
// CHECK-NEXT:    %[[HALF:.*]] = arith.constant 5.000000e-01 : f32
// CHECK-NEXT:    %[[D:.*]] = "coopvec.sub"(%[[AB]], %[[BA]])
// CHECK-NEXT:    %[[WA:.*]] = "coopvec.fma"(%[[D]], %[[HALF]], %[[HALF]])
// CHECK-NEXT:    %[[GA:.*]] = "coopvec.mul"(%[[DY]], %[[WA]])
// CHECK-NEXT:    %[[GB:.*]] = "coopvec.sub"(%[[DY]], %[[GA]])
// CHECK-NEXT:    return %[[GA]], %[[GB]]
func.func @f(%a: !coopvec.vec<3, f32>, %b: !coopvec.vec<3, f32>) -> !coopvec.vec<3, f32> {
  %y = "coopvec.max"(%a, %b) : (!coopvec.vec<3, f32>, !coopvec.vec<3, f32>) -> !coopvec.vec<3, f32>
  return %y : !coopvec.vec<3, f32>
}

// -----

// min: a is selected where a <= b, the steps swap roles and NaN becomes
// +inf. A scalar operand is splat (steps take a vec on the left).
// CHECK-LABEL: func.func @f_grad(
// CHECK-SAME:      %[[A:[a-z0-9]+]]: !coopvec.vec<3 : i64, f16>, %[[S:[a-z0-9]+]]: f16, %[[DY:[a-z0-9]+]]: !coopvec.vec<3 : i64, f16>)
// CHECK-NEXT:    %[[INF:.*]] = arith.constant 0x7C00 : f16
// CHECK-NEXT:    %[[A1:.*]] = "coopvec.min"(%[[A]], %[[INF]])
// CHECK-NEXT:    %[[SV:.*]] = "coopvec.splat"(%[[S]])
// CHECK-NEXT:    %[[S1:.*]] = "coopvec.min"(%[[SV]], %[[INF]])
// CHECK-NEXT:    %[[AS:.*]] = "coopvec.step"(%[[A1]], %[[S1]])
// CHECK-NEXT:    %[[SA:.*]] = "coopvec.step"(%[[S1]], %[[A1]])
// CHECK-NEXT:    %[[HALF:.*]] = arith.constant 5.000000e-01 : f16
// CHECK-NEXT:    %[[D:.*]] = "coopvec.sub"(%[[SA]], %[[AS]])
// CHECK-NEXT:    %[[WA:.*]] = "coopvec.fma"(%[[D]], %[[HALF]], %[[HALF]])
// CHECK-NEXT:    %[[GA:.*]] = "coopvec.mul"(%[[DY]], %[[WA]])
// CHECK-NEXT:    return %[[GA]]
func.func @f(%a: !coopvec.vec<3, f16>, %s: f16) -> !coopvec.vec<3, f16> {
  %y = "coopvec.min"(%a, %s) : (!coopvec.vec<3, f16>, f16) -> !coopvec.vec<3, f16>
  return %y : !coopvec.vec<3, f16>
}

// -----

// ReLU with a constant: a number constant cannot be NaN, so only the
// varied operand is guarded.
// CHECK-LABEL: func.func @f_grad(
// CHECK-SAME:      %[[H:[a-z0-9]+]]: !coopvec.vec<3 : i64, f32>, %[[DY:[a-z0-9]+]]: !coopvec.vec<3 : i64, f32>)
// CHECK-NEXT:    %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    %[[NINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK-NEXT:    %[[H1:.*]] = "coopvec.max"(%[[H]], %[[NINF]])
// CHECK-NEXT:    %[[Z:.*]] = "coopvec.splat"(%[[ZERO]])
// CHECK-NEXT:    %[[HZ:.*]] = "coopvec.step"(%[[H1]], %[[Z]])
// CHECK-NEXT:    %[[ZH:.*]] = "coopvec.step"(%[[Z]], %[[H1]])
// CHECK-NOT:     "coopvec.max"
// CHECK:         return
func.func @f(%h: !coopvec.vec<3, f32>) -> !coopvec.vec<3, f32> {
  %zero = arith.constant 0.0 : f32
  %y = "coopvec.max"(%h, %zero) : (!coopvec.vec<3, f32>, f32) -> !coopvec.vec<3, f32>
  return %y : !coopvec.vec<3, f32>
}

// -----

// step is piecewise constant: no gradient passes through it, so an input
// that only reaches the results through step gets a zero dX.
// CHECK-LABEL: func.func @f_grad(
// CHECK-SAME:      %[[A:[a-z0-9]+]]: !coopvec.vec<3 : i64, f32>, %[[B:[a-z0-9]+]]: !coopvec.vec<3 : i64, f32>, %[[DY:[a-z0-9]+]]: !coopvec.vec<3 : i64, f32>)
// CHECK-NEXT:    %[[T:.*]] = "coopvec.step"(%[[A]], %[[B]])
// CHECK-NEXT:    %[[DB:.*]] = "coopvec.mul"(%[[DY]], %[[T]])
// CHECK-NEXT:    %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    %[[DA:.*]] = "coopvec.splat"(%[[Z]])
// CHECK-NEXT:    return %[[DA]], %[[DB]]
func.func @f(%a: !coopvec.vec<3, f32>, %b: !coopvec.vec<3, f32>) -> !coopvec.vec<3, f32> {
  %t = "coopvec.step"(%a, %b) : (!coopvec.vec<3, f32>, !coopvec.vec<3, f32>) -> !coopvec.vec<3, f32>
  %y = "coopvec.mul"(%b, %t) : (!coopvec.vec<3, f32>, !coopvec.vec<3, f32>) -> !coopvec.vec<3, f32>
  return %y : !coopvec.vec<3, f32>
}

//===----------------------------------------------------------------------===//
// exp2, log2, tanh, cast
//===----------------------------------------------------------------------===//

// -----

// f32: exp2 gives ȳ y ln 2; log2 gives ȳ exp2(-log2 x) / ln 2 (the dialect
// has no division).
// CHECK-LABEL: func.func @f_grad(
// CHECK-SAME:      %[[X:[a-z0-9]+]]: !coopvec.vec<3 : i64, f32>, %[[DY:[a-z0-9]+]]: !coopvec.vec<3 : i64, f32>)
// CHECK-NEXT:    %[[Y:.*]] = "coopvec.exp2"(%[[X]])
// CHECK-NEXT:    %[[L:.*]] = "coopvec.log2"(%[[Y]])
// CHECK-NEXT:    %[[NL:.*]] = "coopvec.neg"(%[[L]])
// CHECK-NEXT:    %[[R:.*]] = "coopvec.exp2"(%[[NL]])
// CHECK-NEXT:    %[[P:.*]] = "coopvec.mul"(%[[DY]], %[[R]])
// CHECK-NEXT:    %[[INVLN2:.*]] = arith.constant 1.44269502 : f32
// CHECK-NEXT:    %[[DY1:.*]] = "coopvec.mul"(%[[P]], %[[INVLN2]])
// CHECK-NEXT:    %[[Q:.*]] = "coopvec.mul"(%[[DY1]], %[[Y]])
// CHECK-NEXT:    %[[LN2:.*]] = arith.constant 0.693147182 : f32
// CHECK-NEXT:    %[[DX:.*]] = "coopvec.mul"(%[[Q]], %[[LN2]])
// CHECK-NEXT:    return %[[DX]]
func.func @f(%x: !coopvec.vec<3, f32>) -> !coopvec.vec<3, f32> {
  %y = "coopvec.exp2"(%x) : (!coopvec.vec<3, f32>) -> !coopvec.vec<3, f32>
  %l = "coopvec.log2"(%y) : (!coopvec.vec<3, f32>) -> !coopvec.vec<3, f32>
  return %l : !coopvec.vec<3, f32>
}

// -----

// f16: the derivative factors are computed in f32 and rounded once.
// CHECK-LABEL: func.func @f_grad(
// CHECK-SAME:      %[[X:[a-z0-9]+]]: !coopvec.vec<17 : i64, f16>, %[[DY:[a-z0-9]+]]: !coopvec.vec<17 : i64, f16>)
// CHECK-NEXT:    %[[X32:.*]] = "coopvec.cast"(%[[X]]) : (!coopvec.vec<17 : i64, f16>) -> !coopvec.vec<17 : i64, f32>
// CHECK-NEXT:    %[[L:.*]] = "coopvec.log2"(%[[X32]]) : (!coopvec.vec<17 : i64, f32>)
// CHECK-NEXT:    %[[NL:.*]] = "coopvec.neg"(%[[L]])
// CHECK-NEXT:    %[[R:.*]] = "coopvec.exp2"(%[[NL]])
// CHECK-NEXT:    %[[DY32:.*]] = "coopvec.cast"(%[[DY]]) : (!coopvec.vec<17 : i64, f16>) -> !coopvec.vec<17 : i64, f32>
// CHECK-NEXT:    %[[P:.*]] = "coopvec.mul"(%[[DY32]], %[[R]])
// CHECK-NEXT:    %[[C:.*]] = arith.constant 1.44269502 : f32
// CHECK-NEXT:    %[[Q:.*]] = "coopvec.mul"(%[[P]], %[[C]])
// CHECK-NEXT:    %[[DX:.*]] = "coopvec.cast"(%[[Q]]) : (!coopvec.vec<17 : i64, f32>) -> !coopvec.vec<17 : i64, f16>
// CHECK-NEXT:    return %[[DX]]
func.func @f(%x: !coopvec.vec<17, f16>) -> !coopvec.vec<17, f16> {
  %l = "coopvec.log2"(%x) : (!coopvec.vec<17, f16>) -> !coopvec.vec<17, f16>
  return %l : !coopvec.vec<17, f16>
}

// -----

// tanh: ȳ (1 - y²) with 1 - y² = fma(-y, y, 1).
// CHECK-LABEL: func.func @f_grad(
// CHECK-SAME:      %[[X:[a-z0-9]+]]: !coopvec.vec<3 : i64, f16>, %[[DY:[a-z0-9]+]]: !coopvec.vec<3 : i64, f16>)
// CHECK-NEXT:    %[[Y:.*]] = "coopvec.tanh"(%[[X]])
// CHECK-NEXT:    %[[ONE:.*]] = arith.constant 1.000000e+00 : f16
// CHECK-NEXT:    %[[NY:.*]] = "coopvec.neg"(%[[Y]])
// CHECK-NEXT:    %[[S:.*]] = "coopvec.fma"(%[[NY]], %[[Y]], %[[ONE]])
// CHECK-NEXT:    %[[DX:.*]] = "coopvec.mul"(%[[DY]], %[[S]])
// CHECK-NEXT:    return %[[DX]]
func.func @f(%x: !coopvec.vec<3, f16>) -> !coopvec.vec<3, f16> {
  %y = "coopvec.tanh"(%x) : (!coopvec.vec<3, f16>) -> !coopvec.vec<3, f16>
  return %y : !coopvec.vec<3, f16>
}

// -----

// cast: the adjoint is cast back to the operand's element type.
// CHECK-LABEL: func.func @f_grad(
// CHECK-SAME:      %[[X:[a-z0-9]+]]: !coopvec.vec<3 : i64, f32>, %[[DY:[a-z0-9]+]]: !coopvec.vec<3 : i64, f16>) -> !coopvec.vec<3 : i64, f32>
// CHECK-NEXT:    %[[DX:.*]] = "coopvec.cast"(%[[DY]]) : (!coopvec.vec<3 : i64, f16>) -> !coopvec.vec<3 : i64, f32>
// CHECK-NEXT:    return %[[DX]]
func.func @f(%x: !coopvec.vec<3, f32>) -> !coopvec.vec<3, f16> {
  %y = "coopvec.cast"(%x) : (!coopvec.vec<3, f32>) -> !coopvec.vec<3, f16>
  return %y : !coopvec.vec<3, f16>
}

//===----------------------------------------------------------------------===//
// Construction
//===----------------------------------------------------------------------===//

// -----

// A per-thread scalar (an element of an unpack) has a scalar adjoint of its
// type: from from_elements, element i of ȳ; from a scalar operand (mul) or
// a splat, the sum of the elements, added pairwise (pad -0.0) and unpacked.
// unpack gathers the elements' adjoints back into a vec.
// CHECK-LABEL: func.func @f_grad(
// CHECK-SAME:      %[[V:[a-z0-9]+]]: !coopvec.vec<3 : i64, f32>, %[[DY:[a-z0-9]+]]: !coopvec.vec<3 : i64, f32>)
// CHECK-NEXT:    %[[E:.*]]:3 = "coopvec.unpack"(%[[V]])
// CHECK-NEXT:    %[[W:.*]] = "coopvec.from_elements"(%[[E]]#2, %[[E]]#0, %[[E]]#0)
// CHECK-NEXT:    %[[DW:.*]] = "coopvec.mul"(%[[DY]], %[[E]]#1)
// CHECK-NEXT:    %[[PE:.*]] = "coopvec.mul"(%[[DY]], %[[W]])
// CHECK-NEXT:    %[[P:.*]]:3 = "coopvec.unpack"(%[[PE]])
// CHECK-NEXT:    %[[LO:.*]] = "coopvec.from_elements"(%[[P]]#0, %[[P]]#1) : (f32, f32) -> !coopvec.vec<2 : i64, f32>
// CHECK-NEXT:    %[[PAD:.*]] = arith.constant -0.000000e+00 : f32
// CHECK-NEXT:    %[[HI:.*]] = "coopvec.from_elements"(%[[P]]#2, %[[PAD]]) : (f32, f32) -> !coopvec.vec<2 : i64, f32>
// CHECK-NEXT:    %[[H:.*]] = "coopvec.add"(%[[LO]], %[[HI]])
// CHECK-NEXT:    %[[Q:.*]]:2 = "coopvec.unpack"(%[[H]])
// CHECK-NEXT:    %[[Q0:.*]] = "coopvec.from_elements"(%[[Q]]#0) : (f32) -> !coopvec.vec<1 : i64, f32>
// CHECK-NEXT:    %[[Q1:.*]] = "coopvec.from_elements"(%[[Q]]#1) : (f32) -> !coopvec.vec<1 : i64, f32>
// CHECK-NEXT:    %[[D1V:.*]] = "coopvec.add"(%[[Q0]], %[[Q1]]) : (!coopvec.vec<1 : i64, f32>
// CHECK-NEXT:    %[[D1:.*]] = "coopvec.unpack"(%[[D1V]]) : (!coopvec.vec<1 : i64, f32>) -> f32
// CHECK-NEXT:    %[[R:.*]]:3 = "coopvec.unpack"(%[[DW]])
// CHECK-NEXT:    %[[D0:.*]] = arith.addf %[[R]]#1, %[[R]]#2 : f32
// CHECK-NEXT:    %[[DV:.*]] = "coopvec.from_elements"(%[[D0]], %[[D1]], %[[R]]#0) : (f32, f32, f32) -> !coopvec.vec<3 : i64, f32>
// CHECK-NEXT:    return %[[DV]]
func.func @f(%v: !coopvec.vec<3, f32>) -> !coopvec.vec<3, f32> {
  %e:3 = "coopvec.unpack"(%v) : (!coopvec.vec<3, f32>) -> (f32, f32, f32)
  %w = "coopvec.from_elements"(%e#2, %e#0, %e#0) : (f32, f32, f32) -> !coopvec.vec<3, f32>
  %y = "coopvec.mul"(%w, %e#1) : (!coopvec.vec<3, f32>, f32) -> !coopvec.vec<3, f32>
  return %y : !coopvec.vec<3, f32>
}

// -----

// splat of an element: the element's adjoint is the sum of ȳ; the other
// elements get zeros.
// CHECK-LABEL: func.func @f_grad(
// CHECK-SAME:      %[[V:[a-z0-9]+]]: !coopvec.vec<2 : i64, f16>, %[[DY:[a-z0-9]+]]: !coopvec.vec<2 : i64, f16>)
// CHECK-NEXT:    %[[P:.*]]:2 = "coopvec.unpack"(%[[DY]])
// CHECK-NEXT:    %[[LO:.*]] = "coopvec.from_elements"(%[[P]]#0) : (f16)
// CHECK-NEXT:    %[[HI:.*]] = "coopvec.from_elements"(%[[P]]#1) : (f16)
// CHECK-NEXT:    %[[S:.*]] = "coopvec.add"(%[[LO]], %[[HI]])
// CHECK-NEXT:    %[[S1:.*]] = "coopvec.unpack"(%[[S]])
// CHECK-NEXT:    %[[Z:.*]] = arith.constant 0.000000e+00 : f16
// CHECK-NEXT:    %[[DV:.*]] = "coopvec.from_elements"(%[[Z]], %[[S1]]) : (f16, f16) -> !coopvec.vec<2 : i64, f16>
// CHECK-NEXT:    return %[[DV]]
func.func @f(%v: !coopvec.vec<2, f16>) -> !coopvec.vec<2, f16> {
  %e:2 = "coopvec.unpack"(%v) : (!coopvec.vec<2, f16>) -> (f16, f16)
  %y = "coopvec.splat"(%e#1) : (f16) -> !coopvec.vec<2, f16>
  return %y : !coopvec.vec<2, f16>
}

// -----

// Builtin vectors: a vector result's dY enters through from_vector, and
// to_vector / from_vector pass the adjoint through.
// CHECK-LABEL: func.func @f_grad(
// CHECK-SAME:      %[[X:[a-z0-9]+]]: !coopvec.vec<4 : i64, f32>, %[[DY:[a-z0-9]+]]: vector<4xf32>) -> !coopvec.vec<4 : i64, f32>
// CHECK-NEXT:    %[[V:.*]] = "coopvec.to_vector"(%[[X]])
// CHECK-NEXT:    %[[W:.*]] = "coopvec.from_vector"(%[[V]])
// CHECK-NEXT:    %[[T:.*]] = "coopvec.tanh"(%[[W]])
// CHECK-NEXT:    %[[D:.*]] = "coopvec.from_vector"(%[[DY]])
// CHECK-NEXT:    %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:    %[[NT:.*]] = "coopvec.neg"(%[[T]])
// CHECK-NEXT:    %[[S:.*]] = "coopvec.fma"(%[[NT]], %[[T]], %[[ONE]])
// CHECK-NEXT:    %[[DX:.*]] = "coopvec.mul"(%[[D]], %[[S]])
// CHECK-NEXT:    return %[[DX]]
func.func @f(%x: !coopvec.vec<4, f32>) -> vector<4xf32> {
  %v = "coopvec.to_vector"(%x) : (!coopvec.vec<4, f32>) -> vector<4xf32>
  %w = "coopvec.from_vector"(%v) : (vector<4xf32>) -> !coopvec.vec<4, f32>
  %t = "coopvec.tanh"(%w) : (!coopvec.vec<4, f32>) -> !coopvec.vec<4, f32>
  %r = "coopvec.to_vector"(%t) : (!coopvec.vec<4, f32>) -> vector<4xf32>
  return %r : vector<4xf32>
}

// -----

// A result that is an argument: its dY is that argument's dX.
// CHECK-LABEL: func.func @f_grad(
// CHECK-SAME:      %{{[a-z0-9]+}}: !coopvec.vec<2 : i64, f32>, %[[DY:[a-z0-9]+]]: !coopvec.vec<2 : i64, f32>)
// CHECK-NEXT:    return %[[DY]]
func.func @f(%x: !coopvec.vec<2, f32>) -> !coopvec.vec<2, f32> {
  return %x : !coopvec.vec<2, f32>
}

// -----

// Uniform ops (offset arithmetic, memref.dim of the weights) are
// recomputed; a masked_load that only feeds step needs no gradient.
// CHECK-LABEL: func.func @f_grad(
// CHECK-SAME:      %[[X:[a-z0-9]+]]: !coopvec.vec<4 : i64, f32>, %[[W:[a-z0-9]+]]: memref<?xf32>, %[[M:[a-z0-9]+]]: vector<4xi1>, %[[G:[a-z0-9]+]]: memref<?xf32>, %[[DY:[a-z0-9]+]]: !coopvec.vec<4 : i64, f32>)
// CHECK:         %[[N:.*]] = memref.dim %[[W]]
// CHECK-NEXT:    %[[O:.*]] = arith.subi %[[N]]
// CHECK-NEXT:    %[[B:.*]] = "coopvec.load"(%[[W]], %[[O]])
// CHECK-NEXT:    %[[T:.*]] = "coopvec.masked_load"(%[[W]]
// CHECK-NEXT:    %[[S:.*]] = "coopvec.step"(%[[X]], %[[T]])
// CHECK-NEXT:    %[[P:.*]] = "coopvec.mul"(%[[B]], %[[S]])
// CHECK-NEXT:    %[[DX:.*]] = "coopvec.mul"(%[[DY]], %[[P]])
// CHECK-NEXT:    %[[DP:.*]] = "coopvec.mul"(%[[DY]], %[[X]])
// CHECK-NEXT:    %[[DB:.*]] = "coopvec.mul"(%[[DP]], %[[S]])
// CHECK-NEXT:    "coopvec.reduce_sum_accumulate"(%[[DB]], %[[G]], %[[O]])
// CHECK-NEXT:    return %[[DX]]
func.func @f(%x: !coopvec.vec<4, f32>, %w: memref<?xf32>, %m: vector<4xi1>) -> !coopvec.vec<4, f32> {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f32
  %n = memref.dim %w, %c0 : memref<?xf32>
  %o = arith.subi %n, %c4 : index
  %b = "coopvec.load"(%w, %o) : (memref<?xf32>, index) -> !coopvec.vec<4, f32>
  %t = "coopvec.masked_load"(%w, %c0, %m, %zero) : (memref<?xf32>, index, vector<4xi1>, f32) -> !coopvec.vec<4, f32>
  %s = "coopvec.step"(%x, %t) : (!coopvec.vec<4, f32>, !coopvec.vec<4, f32>) -> !coopvec.vec<4, f32>
  %p = "coopvec.mul"(%b, %s) : (!coopvec.vec<4, f32>, !coopvec.vec<4, f32>) -> !coopvec.vec<4, f32>
  %y = "coopvec.mul"(%x, %p) : (!coopvec.vec<4, f32>, !coopvec.vec<4, f32>) -> !coopvec.vec<4, f32>
  return %y : !coopvec.vec<4, f32>
}

