// Input that is not a single builtin.module is wrapped into one, as by
// mlir-opt; line and column numbers stay those of the input.

// RUN: split-file --leading-lines %s %t
// RUN: coopvec-opt %t/several.mlir | FileCheck %s --check-prefix=SEVERAL
// RUN: coopvec-opt %t/single.mlir | FileCheck %s --check-prefix=SINGLE
// RUN: coopvec-opt %t/empty.mlir | FileCheck %s --check-prefix=EMPTY
// RUN: coopvec-opt %t/several.mlir --mlir-print-debuginfo | FileCheck %s --check-prefix=LOC
// Without --leading-lines, so that code starts on line 1.
// RUN: split-file %s %t.plain
// RUN: not coopvec-opt %t.plain/first-line.mlir 2>&1 | FileCheck %s --strict-whitespace --check-prefix=FIRST-LINE
// RUN: coopvec-opt %t.plain/first-line-ok.mlir --mlir-print-debuginfo | FileCheck %s --check-prefix=FIRST-LINE-LOC
// Issue 24, row 8: type and attribute aliases between several top-level
// ops stay at the top level, where they belong (the text used to be
// wrapped in `module {`, which put them inside: "1:9: error: expected
// operation name in quotes"), with a comment on line 1 and without.
// RUN: coopvec-opt %t/aliases.mlir | FileCheck %s --check-prefix=ALIASES
// RUN: coopvec-opt %t.plain/aliases.mlir --mlir-print-debuginfo | FileCheck %s --check-prefix=ALIASES-LOC --implicit-check-not='loc("-"'
// RUN: coopvec-opt %t.plain/aliases-code-first.mlir | FileCheck %s --check-prefix=ALIASES
// A file of split-file pieces, each with aliases, read whole.
// RUN: coopvec-opt %coopvec_src_root/test/Integration/CPU/math-accuracy.mlir | FileCheck %s --check-prefix=PIECES
// PIECES: module {
// PIECES: func.func @f32(
// PIECES: func.func @f16(

//--- several.mlir
// SEVERAL:      module {
// SEVERAL-NEXT:   func.func private @first()
// SEVERAL-NEXT:   func.func private @second()
// SEVERAL-NEXT: }
// SEVERAL-NOT:  module
func.func private @first()
func.func private @second()

// The implicit module is at file:0:0, the ops where they were written.
// LOC: module {
// LOC: } loc(#[[MODULE:loc[0-9]*]])
// LOC-DAG: #[[MODULE]] = loc("{{.*}}several.mlir":0:0)
// LOC-DAG: loc("{{.*}}several.mlir":[[@LINE-7]]:1)
// LOC-DAG: loc("{{.*}}several.mlir":[[@LINE-7]]:1)

//--- single.mlir
// SINGLE:      module {
// SINGLE-NEXT:   func.func private @only()
// SINGLE-NEXT: }
func.func private @only()

//--- empty.mlir
// EMPTY:      module {
// EMPTY-NEXT: }

//--- first-line.mlir
func.func private @a()  func.func @b() { %0 = "coopvec.splat"() : () -> i32
  return }
// Columns on line 1 are the input's, not shifted by the implicit module.
// FIRST-LINE: first-line.mlir:1:47: error: op expects exactly 1 operands, but got 0
// FIRST-LINE-NEXT: {{^}}func.func private @a()  func.func @b() { %0 = "coopvec.splat"() : () -> i32
// FIRST-LINE-NEXT: {{^}}                                              ^

//--- first-line-ok.mlir
func.func private @a()  func.func private @b()
// FIRST-LINE-LOC-DAG: loc("{{.*}}first-line-ok.mlir":1:1)
// FIRST-LINE-LOC-DAG: loc("{{.*}}first-line-ok.mlir":1:25)

//--- aliases.mlir
// A comment on line 1, then aliases, then several ops.
!v = !coopvec.vec<3, f32>
#one = 1.0 : f32
func.func private @first(!v)
!w = !coopvec.vec<5, f16>
func.func @second(%x: !w) -> f32 {
  %c = arith.constant #one
  return %c : f32
}
// ALIASES:      module {
// ALIASES-NEXT:   func.func private @first(!coopvec.vec<3 : i64, f32>)
// ALIASES-NEXT:   func.func @second(%arg0: !coopvec.vec<5 : i64, f16>) -> f32 {
// ALIASES-NEXT:     %cst = arith.constant 1.000000e+00 : f32
// ALIASES:      }
// The locations are the input's (block arguments too), the module at 0:0.
// ALIASES-LOC-DAG: loc("{{.*}}aliases.mlir":0:0)
// ALIASES-LOC-DAG: loc("{{.*}}aliases.mlir":6:19)
// ALIASES-LOC-DAG: loc("{{.*}}aliases.mlir":7:8)

//--- aliases-code-first.mlir
!v = !coopvec.vec<3, f32>
#one = 1.0 : f32
func.func private @first(!v)
!w = !coopvec.vec<5, f16>
func.func @second(%x: !w) -> f32 {
  %c = arith.constant #one
  return %c : f32
}
