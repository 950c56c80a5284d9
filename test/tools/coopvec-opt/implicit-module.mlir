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
