// Every form of expected-* directive that --verify-diagnostics accepts.
// RUN: coopvec-opt --split-input-file --verify-diagnostics %s
// The IR of pieces without errors is still printed.
// RUN: coopvec-opt --split-input-file --verify-diagnostics %s | FileCheck %s

// CHECK: func.func private @no_diagnostics()
func.func private @no_diagnostics()

// -----

// On the same line.
%0 = "coopvec.splat"() : () -> f32 // expected-error {{expects exactly 1 operands, but got 0}}

// -----

// expected-error@+2 {{expects exactly 1 operands}}
func.func @plus_offset() {
  %0 = "coopvec.splat"() : () -> f32
  return
}

// -----

func.func @minus_offset() {
  %0 = "coopvec.splat"() : () -> f32
  return
}
// expected-error@-3 {{expects exactly 1 operands}}

// -----

func.func @above() {
  %0 = "coopvec.splat"() : () -> f32
  // expected-error@above {{expects exactly 1 operands}}
  return
}

// -----

func.func @below() {
  // expected-error@below {{expects exactly 1 operands}}
  %0 = "coopvec.splat"() : () -> f32
  return
}

// -----

// Notes attached to a diagnostic are matched too.
// expected-note@+1 {{see existing symbol definition here}}
func.func private @twice()
// expected-error@+1 {{redefinition of symbol named 'twice'}}
func.func private @twice()

// -----

// A diagnostic without a file location.
// expected-error@unknown {{expects exactly 1 operands}}
%0 = "coopvec.splat"() : () -> f32 loc(unknown)

// -----

// With -re, {{...}} inside the message is a regular expression.
// expected-error-re@+1 {{expects exactly {{[0-9]+}} operands, but got 0}}
%0 = "coopvec.splat"() : () -> f32

// -----

// A comment that mentions expected-error without a directive is prose.
func.func private @prose()
