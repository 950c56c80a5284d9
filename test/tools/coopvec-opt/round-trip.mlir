// Parsing and printing: an explicit module, implicit modules (several
// top-level ops, one non-module op, empty input), stdin, `-` and -o.

// RUN: coopvec-opt %s | FileCheck %s
// RUN: coopvec-opt %s | coopvec-opt | FileCheck %s
// RUN: coopvec-opt < %s | FileCheck %s
// RUN: coopvec-opt - < %s | FileCheck %s
// RUN: coopvec-opt %s -o %t.mlir && FileCheck %s < %t.mlir
// RUN: coopvec-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: coopvec-opt %s --mlir-print-debuginfo | FileCheck %s --check-prefix=DEBUGINFO

// CHECK:      module {
// CHECK-LABEL:  func.func @layer(
// CHECK-SAME:       %[[X:.*]]: !coopvec.vec<3 : i64, f32>, %[[W:.*]]: memref<?xf32>, %[[OFF:.*]]: index, %[[ZERO:.*]]: f32)
// CHECK:          %[[A:.*]] = "coopvec.matrix_view"(%[[W]]) {offset = 0 : i64}
// CHECK:          %[[B:.*]] = "coopvec.load"(%[[W]], %[[OFF]])
// CHECK:          %[[Y:.*]] = "coopvec.matvec"(%[[A]], %[[X]], %[[B]])
// CHECK:          %[[R:.*]] = "coopvec.max"(%[[Y]], %[[ZERO]])
// CHECK:          return %[[R]] : !coopvec.vec<7 : i64, f32>
// CHECK-NOT:    module

// GENERIC: "builtin.module"() ({
// GENERIC: "func.func"() <{function_type

// The explicit module's location is kept.
// DEBUGINFO: {{^}}} loc(#[[MODULE_LOC:loc[0-9]*]])
// DEBUGINFO: #[[MODULE_LOC]] = loc("{{.*}}round-trip.mlir":[[@LINE+1]]:1)
module {
  func.func @layer(%x: !coopvec.vec<3, f32>, %w: memref<?xf32>, %off: index, %zero: f32) -> !coopvec.vec<7, f32> {
    %A = "coopvec.matrix_view"(%w) {offset = 0} : (memref<?xf32>) -> !coopvec.matrix<7, 3, f32, "row_major">
    %b = "coopvec.load"(%w, %off) : (memref<?xf32>, index) -> !coopvec.vec<7, f32>
    %y = "coopvec.matvec"(%A, %x, %b) : (!coopvec.matrix<7, 3, f32, "row_major">, !coopvec.vec<3, f32>, !coopvec.vec<7, f32>) -> !coopvec.vec<7, f32>
    %r = "coopvec.max"(%y, %zero) : (!coopvec.vec<7, f32>, f32) -> !coopvec.vec<7, f32>
    return %r : !coopvec.vec<7, f32>
  }
}
