// Each way --verify-diagnostics fails, and what it reports. Directives in
// the CHECK lines are spelled `expected-{{error}}` so that they are not
// directives themselves.

// RUN: split-file --leading-lines %s %t
// RUN: not coopvec-opt --verify-diagnostics %t/missing.mlir 2>&1 | FileCheck %s --strict-whitespace --check-prefix=MISSING
// RUN: not coopvec-opt --verify-diagnostics %t/unexpected.mlir 2>&1 | FileCheck %s --check-prefix=UNEXPECTED
// RUN: not coopvec-opt --verify-diagnostics %t/wrong-line.mlir 2>&1 | FileCheck %s --check-prefix=WRONG-LINE
// RUN: not coopvec-opt --verify-diagnostics %t/wrong-severity.mlir 2>&1 | FileCheck %s --check-prefix=WRONG-SEVERITY
// RUN: not coopvec-opt --verify-diagnostics %t/wrong-message.mlir 2>&1 | FileCheck %s --check-prefix=WRONG-MESSAGE
// RUN: not coopvec-opt --verify-diagnostics %t/malformed.mlir 2>&1 | FileCheck %s --check-prefix=MALFORMED
// '@above' on line 1 needs a file without leading lines.
// RUN: split-file %s %t.plain
// RUN: not coopvec-opt --verify-diagnostics %t.plain/nothing-above.mlir 2>&1 | FileCheck %s --check-prefix=NOTHING-ABOVE
// RUN: not coopvec-opt --verify-diagnostics %t/nothing-below.mlir 2>&1 | FileCheck %s --check-prefix=NOTHING-BELOW
// RUN: not coopvec-opt --verify-diagnostics %t/out-of-range.mlir 2>&1 | FileCheck %s --check-prefix=OUT-OF-RANGE
// RUN: not coopvec-opt --verify-diagnostics %t/bad-regex.mlir 2>&1 | FileCheck %s --check-prefix=BAD-REGEX

// A failing piece does not hide the others' results.
// RUN: not coopvec-opt --split-input-file --verify-diagnostics %t/split.mlir 2>&1 | FileCheck %s --check-prefix=SPLIT

//--- missing.mlir
// expected-error@+1 {{never emitted}}
func.func private @fine()
// MISSING:      missing.mlir:[[@LINE-2]]:24: error: expected error "never emitted" was not produced
// MISSING-NEXT: {{^}}// expected-{{error}}@+1 {{[{][{]}}never emitted}}
// MISSING-NEXT: {{^}}                       ^~~~~~~~~~~~~

//--- unexpected.mlir
%0 = "coopvec.splat"() : () -> f32
// UNEXPECTED:      unexpected.mlir:[[@LINE-1]]:6: error: unexpected error: op expects exactly 1 operands, but got 0
// UNEXPECTED-NEXT: %0 = "coopvec.splat"() : () -> f32
// UNEXPECTED-NOT:  see current operation

//--- wrong-line.mlir
// expected-error@+2 {{expects exactly 1 operands}}
%0 = "coopvec.splat"() : () -> f32
// WRONG-LINE-DAG: wrong-line.mlir:[[@LINE-1]]:6: error: unexpected error: op expects exactly 1 operands
// WRONG-LINE-DAG: wrong-line.mlir:[[@LINE-3]]:24: error: expected error "expects exactly 1 operands" was not produced

//--- wrong-severity.mlir
// expected-warning@+1 {{expects exactly 1 operands}}
%0 = "coopvec.splat"() : () -> f32
// WRONG-SEVERITY-DAG: wrong-severity.mlir:[[@LINE-1]]:6: error: unexpected error: op expects exactly 1 operands
// WRONG-SEVERITY-DAG: wrong-severity.mlir:[[@LINE-3]]:26: error: expected warning "expects exactly 1 operands" was not produced

//--- wrong-message.mlir
// expected-error@+1 {{expects exactly 2 operands}}
%0 = "coopvec.splat"() : () -> f32
// WRONG-MESSAGE-DAG: error: unexpected error: op expects exactly 1 operands
// WRONG-MESSAGE-DAG: error: expected error "expects exactly 2 operands" was not produced

//--- malformed.mlir
// expected-error@+1 {missing braces}
func.func private @a()
// MALFORMED: malformed.mlir:[[@LINE-2]]:18: error: expected '{{[{][{]}}message}}' in an expected-* directive

//--- nothing-above.mlir
// expected-error@above {{x}}
// NOTHING-ABOVE: nothing-above.mlir:1:18: error: '@above' has no line above it

//--- nothing-below.mlir
// Nothing but directives follows them, so '@below' has nowhere to go.
// NOTHING-BELOW: nothing-below.mlir:[[@LINE+3]]:27: error: '@below' has no line below it
// NOTHING-BELOW: nothing-below.mlir:[[@LINE+3]]:27: error: '@below' has no line below it
func.func private @a()
// expected-error@below {{x}}
// expected-error@below {{y}}
//--- out-of-range.mlir
// expected-error@-1000 {{x}}
// OUT-OF-RANGE: out-of-range.mlir:[[@LINE-1]]:18: error: the expected diagnostic's line is outside the input

//--- bad-regex.mlir
// expected-error-re@+1 {{a {{[}} b}}
func.func private @a()
// BAD-REGEX: bad-regex.mlir:[[@LINE-2]]:27: error: invalid regular expression in an expected-*-re message

//--- split.mlir
// expected-error@+1 {{never emitted}}
func.func private @a()
// -----
// expected-error@+1 {{expects exactly 1 operands}}
%0 = "coopvec.splat"() : () -> f32
// -----
%0 = "coopvec.splat"() : () -> f32
// SPLIT: split.mlir:[[@LINE-7]]:24: error: expected error "never emitted" was not produced
// SPLIT-NOT: split.mlir:[[@LINE-4]]
// SPLIT: split.mlir:[[@LINE-3]]:6: error: unexpected error: op expects exactly 1 operands
