// RUN: coopvec-opt %s --split-input-file --pass-pipeline='builtin.module(coopvec-canonicalize)' | FileCheck %s
// RUN: coopvec-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(coopvec-canonicalize))' | FileCheck %s
// RUN: coopvec-opt %s --split-input-file --coopvec-canonicalize | FileCheck %s

//===----------------------------------------------------------------------===//
// Pack / unpack round trips
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @unpack_of_from_elements
// CHECK-SAME: (%[[A:arg[0-9]+]]: f32, %[[B:arg[0-9]+]]: f32, %[[C:arg[0-9]+]]: f32)
// CHECK-NOT: "coopvec.
// CHECK: return %[[C]], %[[B]], %[[A]] : f32, f32, f32
func.func @unpack_of_from_elements(%a: f32, %b: f32, %c: f32) -> (f32, f32, f32) {
  %v = "coopvec.from_elements"(%a, %b, %c) : (f32, f32, f32) -> !coopvec.vec<3, f32>
  %x, %y, %z = "coopvec.unpack"(%v) : (!coopvec.vec<3, f32>) -> (f32, f32, f32)
  return %z, %y, %x : f32, f32, f32
}

// -----

// CHECK-LABEL: func.func @from_elements_of_unpack
// CHECK-SAME: (%[[V:arg[0-9]+]]: !coopvec.vec
// CHECK-NOT: "coopvec.
// CHECK: return %[[V]]
func.func @from_elements_of_unpack(%v: !coopvec.vec<3, f16>) -> !coopvec.vec<3, f16> {
  %a, %b, %c = "coopvec.unpack"(%v) : (!coopvec.vec<3, f16>) -> (f16, f16, f16)
  %r = "coopvec.from_elements"(%a, %b, %c) : (f16, f16, f16) -> !coopvec.vec<3, f16>
  return %r : !coopvec.vec<3, f16>
}

// -----

// Elements in another order are a shuffle, not a copy.
// CHECK-LABEL: func.func @from_elements_of_permuted_unpack
// CHECK: %[[E:.*]]:3 = "coopvec.unpack"
// CHECK: %[[R:.*]] = "coopvec.from_elements"(%[[E]]#2, %[[E]]#1, %[[E]]#0)
// CHECK: return %[[R]]
func.func @from_elements_of_permuted_unpack(%v: !coopvec.vec<3, f32>) -> !coopvec.vec<3, f32> {
  %a, %b, %c = "coopvec.unpack"(%v) : (!coopvec.vec<3, f32>) -> (f32, f32, f32)
  %r = "coopvec.from_elements"(%c, %b, %a) : (f32, f32, f32) -> !coopvec.vec<3, f32>
  return %r : !coopvec.vec<3, f32>
}

// -----

// Elements from two different vecs, or only some elements of one, stay.
// CHECK-LABEL: func.func @from_elements_of_two_unpacks
// CHECK: %[[E:.*]]:2 = "coopvec.unpack"(%arg0)
// CHECK: %[[F:.*]]:2 = "coopvec.unpack"(%arg1)
// CHECK: "coopvec.from_elements"(%[[E]]#0, %[[F]]#1)
// CHECK: %[[G:.*]]:3 = "coopvec.unpack"(%arg2)
// CHECK: "coopvec.from_elements"(%[[G]]#0, %[[G]]#1)
func.func @from_elements_of_two_unpacks(%v: !coopvec.vec<2, f32>, %w: !coopvec.vec<2, f32>, %u: !coopvec.vec<3, f32>) -> (!coopvec.vec<2, f32>, !coopvec.vec<2, f32>) {
  %a, %b = "coopvec.unpack"(%v) : (!coopvec.vec<2, f32>) -> (f32, f32)
  %c, %d = "coopvec.unpack"(%w) : (!coopvec.vec<2, f32>) -> (f32, f32)
  %r = "coopvec.from_elements"(%a, %d) : (f32, f32) -> !coopvec.vec<2, f32>
  %x, %y, %z = "coopvec.unpack"(%u) : (!coopvec.vec<3, f32>) -> (f32, f32, f32)
  %s = "coopvec.from_elements"(%x, %y) : (f32, f32) -> !coopvec.vec<2, f32>
  return %r, %s : !coopvec.vec<2, f32>, !coopvec.vec<2, f32>
}

//===----------------------------------------------------------------------===//
// Builtin vector round trips
//===----------------------------------------------------------------------===//

// -----

// CHECK-LABEL: func.func @to_vector_of_from_vector
// CHECK-SAME: (%[[X:arg[0-9]+]]: vector<4xf32>)
// CHECK-NOT: "coopvec.
// CHECK: return %[[X]] : vector<4xf32>
func.func @to_vector_of_from_vector(%x: vector<4xf32>) -> vector<4xf32> {
  %v = "coopvec.from_vector"(%x) : (vector<4xf32>) -> !coopvec.vec<4, f32>
  %y = "coopvec.to_vector"(%v) : (!coopvec.vec<4, f32>) -> vector<4xf32>
  return %y : vector<4xf32>
}

// -----

// The bridge stays for its other user; the round trip is still forwarded.
// CHECK-LABEL: func.func @from_vector_of_to_vector
// CHECK-SAME: (%[[V:arg[0-9]+]]: !coopvec.vec
// CHECK: %[[X:.*]] = "coopvec.to_vector"(%[[V]])
// CHECK-NOT: coopvec.from_vector
// CHECK: return %[[V]], %[[X]]
func.func @from_vector_of_to_vector(%v: !coopvec.vec<8, f16>) -> (!coopvec.vec<8, f16>, vector<8xf16>) {
  %x = "coopvec.to_vector"(%v) : (!coopvec.vec<8, f16>) -> vector<8xf16>
  %w = "coopvec.from_vector"(%x) : (vector<8xf16>) -> !coopvec.vec<8, f16>
  return %w, %x : !coopvec.vec<8, f16>, vector<8xf16>
}

//===----------------------------------------------------------------------===//
// Merging a bias add into matvec
//===----------------------------------------------------------------------===//

// -----

// CHECK-LABEL: func.func @merge_bias
// CHECK-SAME: (%[[X:arg[0-9]+]]: !coopvec.vec<3 : i64, f32>, %[[W:arg[0-9]+]]: memref<?xf32>, %[[B:arg[0-9]+]]: !coopvec.vec<7 : i64, f32>)
// CHECK: %[[A:.*]] = "coopvec.matrix_view"(%[[W]])
// CHECK-NEXT: %[[Y:.*]] = "coopvec.matvec"(%[[A]], %[[X]], %[[B]]) : (!coopvec.matrix<7 : i64, 3 : i64, f32, "row_major">, !coopvec.vec<3 : i64, f32>, !coopvec.vec<7 : i64, f32>) -> !coopvec.vec<7 : i64, f32>
// CHECK-NOT: coopvec.add
// CHECK: return %[[Y]]
func.func @merge_bias(%x: !coopvec.vec<3, f32>, %w: memref<?xf32>, %b: !coopvec.vec<7, f32>) -> !coopvec.vec<7, f32> {
  %A = "coopvec.matrix_view"(%w) {offset = 0} : (memref<?xf32>) -> !coopvec.matrix<7, 3, f32, "row_major">
  %p = "coopvec.matvec"(%A, %x) : (!coopvec.matrix<7, 3, f32, "row_major">, !coopvec.vec<3, f32>) -> !coopvec.vec<7, f32>
  %y = "coopvec.add"(%p, %b) : (!coopvec.vec<7, f32>, !coopvec.vec<7, f32>) -> !coopvec.vec<7, f32>
  return %y : !coopvec.vec<7, f32>
}

// -----

// The bias on the left, and `transpose` kept.
// CHECK-LABEL: func.func @merge_bias_lhs_transpose
// CHECK-SAME: (%[[X:arg[0-9]+]]: !coopvec.vec<7 : i64, f16>, %[[W:arg[0-9]+]]: memref<?xf16>, %[[B:arg[0-9]+]]: !coopvec.vec<3 : i64, f16>)
// CHECK: %[[A:.*]] = "coopvec.matrix_view"(%[[W]])
// CHECK-NEXT: %[[Y:.*]] = "coopvec.matvec"(%[[A]], %[[X]], %[[B]]) {transpose}
// CHECK-NOT: coopvec.add
// CHECK: return %[[Y]]
func.func @merge_bias_lhs_transpose(%x: !coopvec.vec<7, f16>, %w: memref<?xf16>, %b: !coopvec.vec<3, f16>) -> !coopvec.vec<3, f16> {
  %A = "coopvec.matrix_view"(%w) {offset = 64} : (memref<?xf16>) -> !coopvec.matrix<7, 3, f16, "inference">
  %p = "coopvec.matvec"(%A, %x) {transpose} : (!coopvec.matrix<7, 3, f16, "inference">, !coopvec.vec<7, f16>) -> !coopvec.vec<3, f16>
  %y = "coopvec.add"(%b, %p) : (!coopvec.vec<3, f16>, !coopvec.vec<3, f16>) -> !coopvec.vec<3, f16>
  return %y : !coopvec.vec<3, f16>
}

// -----

// A splat bias (not a constant identity) is merged before it would be
// rewritten into a scalar operand.
// CHECK-LABEL: func.func @merge_splat_bias
// CHECK-SAME: (%[[X:arg[0-9]+]]: !coopvec.vec<{{.*}}>, %[[A:arg[0-9]+]]: !coopvec.matrix<{{.*}}>, %[[S:arg[0-9]+]]: f32)
// CHECK: %[[B:.*]] = "coopvec.splat"(%[[S]])
// CHECK-NEXT: %[[Y:.*]] = "coopvec.matvec"(%[[A]], %[[X]], %[[B]])
// CHECK-NEXT: return %[[Y]]
func.func @merge_splat_bias(%x: !coopvec.vec<4, f32>, %A: !coopvec.matrix<4, 4, f32, "col_major">, %s: f32) -> !coopvec.vec<4, f32> {
  %p = "coopvec.matvec"(%A, %x) : (!coopvec.matrix<4, 4, f32, "col_major">, !coopvec.vec<4, f32>) -> !coopvec.vec<4, f32>
  %b = "coopvec.splat"(%s) : (f32) -> !coopvec.vec<4, f32>
  %y = "coopvec.add"(%p, %b) : (!coopvec.vec<4, f32>, !coopvec.vec<4, f32>) -> !coopvec.vec<4, f32>
  return %y : !coopvec.vec<4, f32>
}

// -----

// Not merged: a scalar rhs (matvec's bias must be a vec).
// CHECK-LABEL: func.func @no_merge_scalar
// CHECK: %[[P:.*]] = "coopvec.matvec"(%arg1, %arg0) :
// CHECK: %[[Y:.*]] = "coopvec.add"(%[[P]], %arg2)
// CHECK: return %[[Y]]
func.func @no_merge_scalar(%x: !coopvec.vec<4, f32>, %A: !coopvec.matrix<4, 4, f32, "row_major">, %s: f32) -> !coopvec.vec<4, f32> {
  %p = "coopvec.matvec"(%A, %x) : (!coopvec.matrix<4, 4, f32, "row_major">, !coopvec.vec<4, f32>) -> !coopvec.vec<4, f32>
  %y = "coopvec.add"(%p, %s) : (!coopvec.vec<4, f32>, f32) -> !coopvec.vec<4, f32>
  return %y : !coopvec.vec<4, f32>
}

// -----

// Not merged: the matvec already has a bias.
// CHECK-LABEL: func.func @no_merge_has_bias
// CHECK: %[[P:.*]] = "coopvec.matvec"(%arg1, %arg0, %arg2)
// CHECK: %[[Y:.*]] = "coopvec.add"(%[[P]], %arg3)
// CHECK: return %[[Y]]
func.func @no_merge_has_bias(%x: !coopvec.vec<4, f32>, %A: !coopvec.matrix<4, 4, f32, "row_major">, %b: !coopvec.vec<4, f32>, %c: !coopvec.vec<4, f32>) -> !coopvec.vec<4, f32> {
  %p = "coopvec.matvec"(%A, %x, %b) : (!coopvec.matrix<4, 4, f32, "row_major">, !coopvec.vec<4, f32>, !coopvec.vec<4, f32>) -> !coopvec.vec<4, f32>
  %y = "coopvec.add"(%p, %c) : (!coopvec.vec<4, f32>, !coopvec.vec<4, f32>) -> !coopvec.vec<4, f32>
  return %y : !coopvec.vec<4, f32>
}

// -----

// Not merged: the bias-free product has another user.
// CHECK-LABEL: func.func @no_merge_other_use
// CHECK: %[[P:.*]] = "coopvec.matvec"(%arg1, %arg0) :
// CHECK: %[[Y:.*]] = "coopvec.add"(%[[P]], %arg2)
// CHECK: return %[[Y]], %[[P]]
func.func @no_merge_other_use(%x: !coopvec.vec<4, f32>, %A: !coopvec.matrix<4, 4, f32, "row_major">, %b: !coopvec.vec<4, f32>) -> (!coopvec.vec<4, f32>, !coopvec.vec<4, f32>) {
  %p = "coopvec.matvec"(%A, %x) : (!coopvec.matrix<4, 4, f32, "row_major">, !coopvec.vec<4, f32>) -> !coopvec.vec<4, f32>
  %y = "coopvec.add"(%p, %b) : (!coopvec.vec<4, f32>, !coopvec.vec<4, f32>) -> !coopvec.vec<4, f32>
  return %y, %p : !coopvec.vec<4, f32>, !coopvec.vec<4, f32>
}

// -----

// Not merged: sub is not add.
// CHECK-LABEL: func.func @no_merge_sub
// CHECK: %[[P:.*]] = "coopvec.matvec"(%arg1, %arg0) :
// CHECK: "coopvec.sub"(%[[P]], %arg2)
func.func @no_merge_sub(%x: !coopvec.vec<4, f32>, %A: !coopvec.matrix<4, 4, f32, "row_major">, %b: !coopvec.vec<4, f32>) -> !coopvec.vec<4, f32> {
  %p = "coopvec.matvec"(%A, %x) : (!coopvec.matrix<4, 4, f32, "row_major">, !coopvec.vec<4, f32>) -> !coopvec.vec<4, f32>
  %y = "coopvec.sub"(%p, %b) : (!coopvec.vec<4, f32>, !coopvec.vec<4, f32>) -> !coopvec.vec<4, f32>
  return %y : !coopvec.vec<4, f32>
}

//===----------------------------------------------------------------------===//
// Constant splats
//===----------------------------------------------------------------------===//

// -----

// CHECK-LABEL: func.func @fold_constant_splats
// CHECK-DAG: %[[C0:.*]] = arith.constant 3.750000e+00 : f32
// CHECK-DAG: %[[C1:.*]] = arith.constant -7.500000e-01 : f32
// CHECK-DAG: %[[C2:.*]] = arith.constant 3.375000e+00 : f32
// CHECK-DAG: %[[C3:.*]] = arith.constant 1.500000e+00 : f32
// CHECK-DAG: %[[C4:.*]] = arith.constant 2.250000e+00 : f32
// CHECK-DAG: %[[S0:.*]] = "coopvec.splat"(%[[C0]])
// CHECK-DAG: %[[S1:.*]] = "coopvec.splat"(%[[C1]])
// CHECK-DAG: %[[S2:.*]] = "coopvec.splat"(%[[C2]])
// CHECK-DAG: %[[S3:.*]] = "coopvec.splat"(%[[C3]])
// CHECK-DAG: %[[S4:.*]] = "coopvec.splat"(%[[C4]])
// CHECK-NOT: coopvec.add
// CHECK-NOT: coopvec.sub
// CHECK-NOT: coopvec.mul
// CHECK-NOT: coopvec.min
// CHECK-NOT: coopvec.max
// CHECK: return %[[S0]], %[[S1]], %[[S2]], %[[S3]], %[[S4]]
func.func @fold_constant_splats() -> (!coopvec.vec<4, f32>, !coopvec.vec<4, f32>, !coopvec.vec<4, f32>, !coopvec.vec<4, f32>, !coopvec.vec<4, f32>) {
  %c1 = arith.constant 1.5 : f32
  %c2 = arith.constant 2.25 : f32
  %a = "coopvec.splat"(%c1) : (f32) -> !coopvec.vec<4, f32>
  %b = "coopvec.splat"(%c2) : (f32) -> !coopvec.vec<4, f32>
  %add = "coopvec.add"(%a, %b) : (!coopvec.vec<4, f32>, !coopvec.vec<4, f32>) -> !coopvec.vec<4, f32>
  %sub = "coopvec.sub"(%a, %b) : (!coopvec.vec<4, f32>, !coopvec.vec<4, f32>) -> !coopvec.vec<4, f32>
  %mul = "coopvec.mul"(%a, %c2) : (!coopvec.vec<4, f32>, f32) -> !coopvec.vec<4, f32>
  %min = "coopvec.min"(%a, %b) : (!coopvec.vec<4, f32>, !coopvec.vec<4, f32>) -> !coopvec.vec<4, f32>
  %max = "coopvec.max"(%a, %b) : (!coopvec.vec<4, f32>, !coopvec.vec<4, f32>) -> !coopvec.vec<4, f32>
  return %add, %sub, %mul, %min, %max : !coopvec.vec<4, f32>, !coopvec.vec<4, f32>, !coopvec.vec<4, f32>, !coopvec.vec<4, f32>, !coopvec.vec<4, f32>
}

// -----

// Folding rounds once to the element type, to nearest even: in f16,
// 2048 + 1 is exactly halfway between 2048 and 2050 and rounds to 2048.
// CHECK-LABEL: func.func @fold_f16_rounds_to_even
// CHECK: %[[C:.*]] = arith.constant 2.048000e+03 : f16
// CHECK: %[[S:.*]] = "coopvec.splat"(%[[C]]) : (f16) -> !coopvec.vec<2 : i64, f16>
// CHECK-NOT: coopvec.add
// CHECK: return %[[S]]
func.func @fold_f16_rounds_to_even() -> !coopvec.vec<2, f16> {
  %big = arith.constant 2048.0 : f16
  %one = arith.constant 1.0 : f16
  %a = "coopvec.splat"(%big) : (f16) -> !coopvec.vec<2, f16>
  %r = "coopvec.add"(%a, %one) : (!coopvec.vec<2, f16>, f16) -> !coopvec.vec<2, f16>
  return %r : !coopvec.vec<2, f16>
}

// -----

// Not folded: arithmetic on NaN (its payload is unspecified), and min/max
// of zeros of different sign, whose results targets disagree on. (The
// splat operands become scalars.)
// CHECK-LABEL: func.func @no_fold_nan_or_signed_zeros
// CHECK: "coopvec.add"
// CHECK: "coopvec.min"
// CHECK: "coopvec.max"
func.func @no_fold_nan_or_signed_zeros() -> (!coopvec.vec<2, f32>, !coopvec.vec<2, f32>, !coopvec.vec<2, f32>) {
  %nan = arith.constant 0x7FC00000 : f32
  %one = arith.constant 1.0 : f32
  %pz = arith.constant 0.0 : f32
  %nz = arith.constant -0.0 : f32
  %n = "coopvec.splat"(%nan) : (f32) -> !coopvec.vec<2, f32>
  %p = "coopvec.splat"(%pz) : (f32) -> !coopvec.vec<2, f32>
  %add = "coopvec.add"(%n, %one) : (!coopvec.vec<2, f32>, f32) -> !coopvec.vec<2, f32>
  %min = "coopvec.min"(%p, %nz) : (!coopvec.vec<2, f32>, f32) -> !coopvec.vec<2, f32>
  %max = "coopvec.max"(%p, %nz) : (!coopvec.vec<2, f32>, f32) -> !coopvec.vec<2, f32>
  return %add, %min, %max : !coopvec.vec<2, f32>, !coopvec.vec<2, f32>, !coopvec.vec<2, f32>
}

// -----

// min / max are IEEE minNum / maxNum: a NaN operand loses to a number, so
// they fold to the number; two NaNs are not folded.
// CHECK-LABEL: func.func @fold_min_max_nan
// CHECK-DAG: %[[TWO:.*]] = arith.constant 2.000000e+00 : f32
// CHECK-DAG: %[[NEG:.*]] = arith.constant -3.000000e+00 : f32
// CHECK-DAG: %[[NAN:.*]] = arith.constant 0x7FC00000 : f32
// CHECK-DAG: %[[S2:.*]] = "coopvec.splat"(%[[TWO]])
// CHECK-DAG: %[[S3:.*]] = "coopvec.splat"(%[[NEG]])
// CHECK-DAG: %[[SN:.*]] = "coopvec.splat"(%[[NAN]])
// CHECK: %[[BOTH:.*]] = "coopvec.max"(%[[SN]], %[[NAN]])
// CHECK: return %[[S2]], %[[S3]], %[[BOTH]]
func.func @fold_min_max_nan() -> (!coopvec.vec<2, f32>, !coopvec.vec<2, f32>, !coopvec.vec<2, f32>) {
  %nan = arith.constant 0x7FC00000 : f32
  %two = arith.constant 2.0 : f32
  %neg = arith.constant -3.0 : f32
  %n = "coopvec.splat"(%nan) : (f32) -> !coopvec.vec<2, f32>
  %t = "coopvec.splat"(%two) : (f32) -> !coopvec.vec<2, f32>
  %max = "coopvec.max"(%n, %two) : (!coopvec.vec<2, f32>, f32) -> !coopvec.vec<2, f32>
  %min = "coopvec.min"(%t, %nan) : (!coopvec.vec<2, f32>, f32) -> !coopvec.vec<2, f32>
  %mn = "coopvec.min"(%min, %neg) : (!coopvec.vec<2, f32>, f32) -> !coopvec.vec<2, f32>
  %both = "coopvec.max"(%n, %nan) : (!coopvec.vec<2, f32>, f32) -> !coopvec.vec<2, f32>
  return %max, %mn, %both : !coopvec.vec<2, f32>, !coopvec.vec<2, f32>, !coopvec.vec<2, f32>
}

// -----

// A splat operand where a scalar is accepted becomes that scalar.
// CHECK-LABEL: func.func @splat_operand_to_scalar
// CHECK-SAME: (%[[V:arg[0-9]+]]: !coopvec.vec<{{.*}}>, %[[S:arg[0-9]+]]: f32, %[[T:arg[0-9]+]]: f32)
// CHECK-NOT: coopvec.splat
// CHECK: %[[A:.*]] = "coopvec.add"(%[[V]], %[[S]]) : (!coopvec.vec<4 : i64, f32>, f32)
// CHECK: %[[M:.*]] = "coopvec.mul"(%[[A]], %[[S]]) : (!coopvec.vec<4 : i64, f32>, f32)
// CHECK: %[[B:.*]] = "coopvec.sub"(%[[M]], %[[T]]) : (!coopvec.vec<4 : i64, f32>, f32)
// CHECK: %[[C:.*]] = "coopvec.max"(%[[B]], %[[S]]) : (!coopvec.vec<4 : i64, f32>, f32)
// CHECK: %[[D:.*]] = "coopvec.step"(%[[C]], %[[T]]) : (!coopvec.vec<4 : i64, f32>, f32)
// CHECK: %[[E:.*]] = "coopvec.fma"(%[[D]], %[[S]], %[[T]]) : (!coopvec.vec<4 : i64, f32>, f32, f32)
// CHECK: %[[F:.*]] = "coopvec.fma"(%[[E]], %[[V]], %[[S]]) : (!coopvec.vec<4 : i64, f32>, !coopvec.vec<4 : i64, f32>, f32)
// CHECK: return %[[F]]
func.func @splat_operand_to_scalar(%v: !coopvec.vec<4, f32>, %s: f32, %t: f32) -> !coopvec.vec<4, f32> {
  %bs = "coopvec.splat"(%s) : (f32) -> !coopvec.vec<4, f32>
  %bt = "coopvec.splat"(%t) : (f32) -> !coopvec.vec<4, f32>
  %a = "coopvec.add"(%v, %bs) : (!coopvec.vec<4, f32>, !coopvec.vec<4, f32>) -> !coopvec.vec<4, f32>
  // add and mul commute, so a splat lhs moves to the rhs.
  %m = "coopvec.mul"(%bs, %a) : (!coopvec.vec<4, f32>, !coopvec.vec<4, f32>) -> !coopvec.vec<4, f32>
  %b = "coopvec.sub"(%m, %bt) : (!coopvec.vec<4, f32>, !coopvec.vec<4, f32>) -> !coopvec.vec<4, f32>
  %c = "coopvec.max"(%b, %bs) : (!coopvec.vec<4, f32>, !coopvec.vec<4, f32>) -> !coopvec.vec<4, f32>
  %d = "coopvec.step"(%c, %bt) : (!coopvec.vec<4, f32>, !coopvec.vec<4, f32>) -> !coopvec.vec<4, f32>
  %e = "coopvec.fma"(%d, %bs, %bt) : (!coopvec.vec<4, f32>, !coopvec.vec<4, f32>, !coopvec.vec<4, f32>) -> !coopvec.vec<4, f32>
  %f = "coopvec.fma"(%e, %v, %bs) : (!coopvec.vec<4, f32>, !coopvec.vec<4, f32>, !coopvec.vec<4, f32>) -> !coopvec.vec<4, f32>
  return %f : !coopvec.vec<4, f32>
}

// -----

// A splat lhs of an op that does not commute (sub, min, max, step, fma)
// stays: only the rhs of those ops may be a scalar.
// CHECK-LABEL: func.func @splat_lhs_kept
// CHECK-SAME: (%[[V:arg[0-9]+]]: !coopvec.vec<{{.*}}>, %[[S:arg[0-9]+]]: f32)
// CHECK: %[[B:.*]] = "coopvec.splat"(%[[S]])
// CHECK: "coopvec.sub"(%[[B]], %[[V]])
// CHECK: "coopvec.min"(%[[B]], %[[V]])
// CHECK: "coopvec.step"(%[[B]], %[[V]])
func.func @splat_lhs_kept(%v: !coopvec.vec<4, f32>, %s: f32) -> (!coopvec.vec<4, f32>, !coopvec.vec<4, f32>, !coopvec.vec<4, f32>) {
  %bs = "coopvec.splat"(%s) : (f32) -> !coopvec.vec<4, f32>
  %a = "coopvec.sub"(%bs, %v) : (!coopvec.vec<4, f32>, !coopvec.vec<4, f32>) -> !coopvec.vec<4, f32>
  %b = "coopvec.min"(%bs, %v) : (!coopvec.vec<4, f32>, !coopvec.vec<4, f32>) -> !coopvec.vec<4, f32>
  %c = "coopvec.step"(%bs, %v) : (!coopvec.vec<4, f32>, !coopvec.vec<4, f32>) -> !coopvec.vec<4, f32>
  return %a, %b, %c : !coopvec.vec<4, f32>, !coopvec.vec<4, f32>, !coopvec.vec<4, f32>
}

// -----

// v + (-0.0), v - (+0.0), v * 1.0 are v, as scalars or splats.
// CHECK-LABEL: func.func @identities
// CHECK-SAME: (%[[V:arg[0-9]+]]: !coopvec.vec
// CHECK-NOT: "coopvec.
// CHECK: return %[[V]], %[[V]], %[[V]], %[[V]], %[[V]]
func.func @identities(%v: !coopvec.vec<4, f16>) -> (!coopvec.vec<4, f16>, !coopvec.vec<4, f16>, !coopvec.vec<4, f16>, !coopvec.vec<4, f16>, !coopvec.vec<4, f16>) {
  %nz = arith.constant -0.0 : f16
  %pz = arith.constant 0.0 : f16
  %one = arith.constant 1.0 : f16
  %snz = "coopvec.splat"(%nz) : (f16) -> !coopvec.vec<4, f16>
  %sone = "coopvec.splat"(%one) : (f16) -> !coopvec.vec<4, f16>
  %a = "coopvec.add"(%v, %nz) : (!coopvec.vec<4, f16>, f16) -> !coopvec.vec<4, f16>
  %b = "coopvec.add"(%snz, %v) : (!coopvec.vec<4, f16>, !coopvec.vec<4, f16>) -> !coopvec.vec<4, f16>
  %c = "coopvec.sub"(%v, %pz) : (!coopvec.vec<4, f16>, f16) -> !coopvec.vec<4, f16>
  %d = "coopvec.mul"(%v, %sone) : (!coopvec.vec<4, f16>, !coopvec.vec<4, f16>) -> !coopvec.vec<4, f16>
  %e = "coopvec.mul"(%sone, %v) : (!coopvec.vec<4, f16>, !coopvec.vec<4, f16>) -> !coopvec.vec<4, f16>
  return %a, %b, %c, %d, %e : !coopvec.vec<4, f16>, !coopvec.vec<4, f16>, !coopvec.vec<4, f16>, !coopvec.vec<4, f16>, !coopvec.vec<4, f16>
}

// -----

// Not identities: -0.0 + +0.0 is +0.0, so v + 0.0 and v - (-0.0) may change
// v; v * 2.0 is not v either.
// CHECK-LABEL: func.func @not_identities
// CHECK-SAME: (%[[V:arg[0-9]+]]: !coopvec.vec
// CHECK-DAG: %[[PZ:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG: %[[NZ:.*]] = arith.constant -0.000000e+00 : f32
// CHECK-DAG: %[[TWO:.*]] = arith.constant 2.000000e+00 : f32
// CHECK: %[[A:.*]] = "coopvec.add"(%[[V]], %[[PZ]])
// CHECK: %[[B:.*]] = "coopvec.sub"(%[[V]], %[[NZ]])
// CHECK: %[[C:.*]] = "coopvec.mul"(%[[V]], %[[TWO]])
// CHECK: return %[[A]], %[[B]], %[[C]]
func.func @not_identities(%v: !coopvec.vec<4, f32>) -> (!coopvec.vec<4, f32>, !coopvec.vec<4, f32>, !coopvec.vec<4, f32>) {
  %pz = arith.constant 0.0 : f32
  %nz = arith.constant -0.0 : f32
  %two = arith.constant 2.0 : f32
  %spz = "coopvec.splat"(%pz) : (f32) -> !coopvec.vec<4, f32>
  %a = "coopvec.add"(%v, %spz) : (!coopvec.vec<4, f32>, !coopvec.vec<4, f32>) -> !coopvec.vec<4, f32>
  %b = "coopvec.sub"(%v, %nz) : (!coopvec.vec<4, f32>, f32) -> !coopvec.vec<4, f32>
  %c = "coopvec.mul"(%v, %two) : (!coopvec.vec<4, f32>, f32) -> !coopvec.vec<4, f32>
  return %a, %b, %c : !coopvec.vec<4, f32>, !coopvec.vec<4, f32>, !coopvec.vec<4, f32>
}

// -----

// cast of a constant splat is a constant splat, rounded to nearest even:
// 0.1 in f16 is 0.0999755859375.
// CHECK-LABEL: func.func @cast_of_constant_splat
// CHECK: %[[C:.*]] = arith.constant 9.997550e-02 : f16
// CHECK: %[[S:.*]] = "coopvec.splat"(%[[C]]) : (f16) -> !coopvec.vec<8 : i64, f16>
// CHECK-NOT: coopvec.cast
// CHECK: return %[[S]]
func.func @cast_of_constant_splat() -> !coopvec.vec<8, f16> {
  %c = arith.constant 0.1 : f32
  %s = "coopvec.splat"(%c) : (f32) -> !coopvec.vec<8, f32>
  %r = "coopvec.cast"(%s) : (!coopvec.vec<8, f32>) -> !coopvec.vec<8, f16>
  return %r : !coopvec.vec<8, f16>
}

// -----

// A cast to the same type is its source; a real conversion stays, also of
// a splat of a non-constant.
// CHECK-LABEL: func.func @casts
// CHECK-SAME: (%[[V:arg[0-9]+]]: !coopvec.vec<{{.*}}>, %[[S:arg[0-9]+]]: f32)
// CHECK: %[[B:.*]] = "coopvec.splat"(%[[S]])
// CHECK: %[[X:.*]] = "coopvec.cast"(%[[B]]) : (!coopvec.vec<8 : i64, f32>) -> !coopvec.vec<8 : i64, f16>
// CHECK: %[[Y:.*]] = "coopvec.cast"(%[[V]]) : (!coopvec.vec<8 : i64, f32>) -> !coopvec.vec<8 : i64, f16>
// CHECK: return %[[V]], %[[X]], %[[Y]]
func.func @casts(%v: !coopvec.vec<8, f32>, %s: f32) -> (!coopvec.vec<8, f32>, !coopvec.vec<8, f16>, !coopvec.vec<8, f16>) {
  %same = "coopvec.cast"(%v) : (!coopvec.vec<8, f32>) -> !coopvec.vec<8, f32>
  %b = "coopvec.splat"(%s) : (f32) -> !coopvec.vec<8, f32>
  %x = "coopvec.cast"(%b) : (!coopvec.vec<8, f32>) -> !coopvec.vec<8, f16>
  %y = "coopvec.cast"(%v) : (!coopvec.vec<8, f32>) -> !coopvec.vec<8, f16>
  return %same, %x, %y : !coopvec.vec<8, f32>, !coopvec.vec<8, f16>, !coopvec.vec<8, f16>
}

//===----------------------------------------------------------------------===//
// Dead coopvec ops
//===----------------------------------------------------------------------===//

// -----

// Unused pure ops (reads included) disappear, chains of them too; writes and
// accumulations stay with everything they use.
// CHECK-LABEL: func.func @dead_ops
// CHECK-SAME: (%[[X:arg[0-9]+]]: !coopvec.vec<{{.*}}>, %[[W:arg[0-9]+]]: memref<?xf32>, %[[G:arg[0-9]+]]: memref<?xf32>, %[[OFF:arg[0-9]+]]: index, %[[MASK:arg[0-9]+]]: vector<4xi1>)
// CHECK-NEXT: %[[A:.*]] = "coopvec.matrix_view"(%[[G]])
// CHECK-NEXT: %[[T:.*]] = "coopvec.tanh"(%[[X]])
// CHECK-NEXT: "coopvec.store"(%[[T]], %[[W]], %[[OFF]])
// CHECK-NEXT: "coopvec.masked_store"(%[[X]], %[[W]], %[[OFF]], %[[MASK]])
// CHECK-NEXT: "coopvec.outer_product_accumulate"(%[[X]], %[[X]], %[[A]])
// CHECK-NEXT: "coopvec.reduce_sum_accumulate"(%[[X]], %[[G]], %[[OFF]])
// CHECK-NEXT: return
func.func @dead_ops(%x: !coopvec.vec<4, f32>, %w: memref<?xf32>, %g: memref<?xf32>, %off: index, %mask: vector<4xi1>) {
  %pad = arith.constant 0.0 : f32
  %A = "coopvec.matrix_view"(%w) {offset = 0} : (memref<?xf32>) -> !coopvec.matrix<4, 4, f32, "row_major">
  %l = "coopvec.load"(%w, %off) : (memref<?xf32>, index) -> !coopvec.vec<4, f32>
  %ml = "coopvec.masked_load"(%w, %off, %mask, %pad) : (memref<?xf32>, index, vector<4xi1>, f32) -> !coopvec.vec<4, f32>
  %p = "coopvec.matvec"(%A, %l) : (!coopvec.matrix<4, 4, f32, "row_major">, !coopvec.vec<4, f32>) -> !coopvec.vec<4, f32>
  %s = "coopvec.fma"(%p, %ml, %x) : (!coopvec.vec<4, f32>, !coopvec.vec<4, f32>, !coopvec.vec<4, f32>) -> !coopvec.vec<4, f32>
  %n = "coopvec.neg"(%s) : (!coopvec.vec<4, f32>) -> !coopvec.vec<4, f32>
  %e = "coopvec.exp2"(%n) : (!coopvec.vec<4, f32>) -> !coopvec.vec<4, f32>
  %lg = "coopvec.log2"(%e) : (!coopvec.vec<4, f32>) -> !coopvec.vec<4, f32>
  %c = "coopvec.cast"(%lg) : (!coopvec.vec<4, f32>) -> !coopvec.vec<4, f16>
  %u:4 = "coopvec.unpack"(%c) : (!coopvec.vec<4, f16>) -> (f16, f16, f16, f16)
  %tv = "coopvec.to_vector"(%x) : (!coopvec.vec<4, f32>) -> vector<4xf32>
  %fv = "coopvec.from_vector"(%tv) : (vector<4xf32>) -> !coopvec.vec<4, f32>
  %G = "coopvec.matrix_view"(%g) {offset = 0} : (memref<?xf32>) -> !coopvec.matrix<4, 4, f32, "row_major">
  %t = "coopvec.tanh"(%x) : (!coopvec.vec<4, f32>) -> !coopvec.vec<4, f32>
  "coopvec.store"(%t, %w, %off) : (!coopvec.vec<4, f32>, memref<?xf32>, index) -> ()
  "coopvec.masked_store"(%x, %w, %off, %mask) : (!coopvec.vec<4, f32>, memref<?xf32>, index, vector<4xi1>) -> ()
  "coopvec.outer_product_accumulate"(%x, %x, %G) : (!coopvec.vec<4, f32>, !coopvec.vec<4, f32>, !coopvec.matrix<4, 4, f32, "row_major">) -> ()
  "coopvec.reduce_sum_accumulate"(%x, %g, %off) : (!coopvec.vec<4, f32>, memref<?xf32>, index) -> ()
  return
}

// -----

// An unpack with one element still used stays whole.
// CHECK-LABEL: func.func @partly_used_unpack
// CHECK: %[[E:.*]]:2 = "coopvec.unpack"(%arg0)
// CHECK: return %[[E]]#1
func.func @partly_used_unpack(%v: !coopvec.vec<2, f32>) -> f32 {
  %a, %b = "coopvec.unpack"(%v) : (!coopvec.vec<2, f32>) -> (f32, f32)
  return %b : f32
}

// -----

// Ops inside nested regions are rewritten too; a dead op used only inside
// a region is not dead.
// CHECK-LABEL: func.func @nested_regions
// CHECK-SAME: (%[[C:arg[0-9]+]]: i1, %[[V:arg[0-9]+]]: !coopvec.vec<{{.*}}>, %[[S:arg[0-9]+]]: f32)
// CHECK-NEXT: %[[T:.*]] = "coopvec.tanh"(%[[V]])
// CHECK-NEXT: %[[R:.*]] = scf.if %[[C]]
// CHECK-NEXT: %[[A:.*]] = "coopvec.add"(%[[T]], %[[S]])
// CHECK-NEXT: scf.yield %[[A]]
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.yield %[[V]]
// CHECK: return %[[R]]
func.func @nested_regions(%c: i1, %v: !coopvec.vec<4, f32>, %s: f32) -> !coopvec.vec<4, f32> {
  %t = "coopvec.tanh"(%v) : (!coopvec.vec<4, f32>) -> !coopvec.vec<4, f32>
  %r = scf.if %c -> !coopvec.vec<4, f32> {
    %b = "coopvec.splat"(%s) : (f32) -> !coopvec.vec<4, f32>
    %a = "coopvec.add"(%t, %b) : (!coopvec.vec<4, f32>, !coopvec.vec<4, f32>) -> !coopvec.vec<4, f32>
    %dead = "coopvec.neg"(%a) : (!coopvec.vec<4, f32>) -> !coopvec.vec<4, f32>
    scf.yield %a : !coopvec.vec<4, f32>
  } else {
    %x = "coopvec.to_vector"(%v) : (!coopvec.vec<4, f32>) -> vector<4xf32>
    %y = "coopvec.from_vector"(%x) : (vector<4xf32>) -> !coopvec.vec<4, f32>
    scf.yield %y : !coopvec.vec<4, f32>
  }
  return %r : !coopvec.vec<4, f32>
}

//===----------------------------------------------------------------------===//
// Everything together: a layer written the long way
//===----------------------------------------------------------------------===//

// -----

// CHECK-LABEL: func.func @layer
// CHECK-SAME: (%[[X:arg[0-9]+]]: vector<3xf32>, %[[W:arg[0-9]+]]: memref<?xf32>, %[[OFF:arg[0-9]+]]: index, %[[ZERO:arg[0-9]+]]: f32)
// CHECK-NEXT: %[[V:.*]] = "coopvec.from_vector"(%[[X]])
// CHECK-NEXT: %[[A:.*]] = "coopvec.matrix_view"(%[[W]])
// CHECK-NEXT: %[[B:.*]] = "coopvec.load"(%[[W]], %[[OFF]])
// CHECK-NEXT: %[[Y:.*]] = "coopvec.matvec"(%[[A]], %[[V]], %[[B]])
// CHECK-NEXT: %[[R:.*]] = "coopvec.max"(%[[Y]], %[[ZERO]])
// CHECK-NEXT: %[[O:.*]] = "coopvec.to_vector"(%[[R]])
// CHECK-NEXT: return %[[O]]
func.func @layer(%x: vector<3xf32>, %w: memref<?xf32>, %off: index, %zero: f32) -> vector<7xf32> {
  %v = "coopvec.from_vector"(%x) : (vector<3xf32>) -> !coopvec.vec<3, f32>
  %e:3 = "coopvec.unpack"(%v) : (!coopvec.vec<3, f32>) -> (f32, f32, f32)
  %v2 = "coopvec.from_elements"(%e#0, %e#1, %e#2) : (f32, f32, f32) -> !coopvec.vec<3, f32>
  %A = "coopvec.matrix_view"(%w) {offset = 0} : (memref<?xf32>) -> !coopvec.matrix<7, 3, f32, "row_major">
  %b = "coopvec.load"(%w, %off) : (memref<?xf32>, index) -> !coopvec.vec<7, f32>
  %p = "coopvec.matvec"(%A, %v2) : (!coopvec.matrix<7, 3, f32, "row_major">, !coopvec.vec<3, f32>) -> !coopvec.vec<7, f32>
  %one = arith.constant 1.0 : f32
  %ones = "coopvec.splat"(%one) : (f32) -> !coopvec.vec<7, f32>
  %q = "coopvec.mul"(%ones, %p) : (!coopvec.vec<7, f32>, !coopvec.vec<7, f32>) -> !coopvec.vec<7, f32>
  %y = "coopvec.add"(%q, %b) : (!coopvec.vec<7, f32>, !coopvec.vec<7, f32>) -> !coopvec.vec<7, f32>
  %zs = "coopvec.splat"(%zero) : (f32) -> !coopvec.vec<7, f32>
  %r = "coopvec.max"(%y, %zs) : (!coopvec.vec<7, f32>, !coopvec.vec<7, f32>) -> !coopvec.vec<7, f32>
  %o = "coopvec.to_vector"(%r) : (!coopvec.vec<7, f32>) -> vector<7xf32>
  return %o : vector<7xf32>
}
