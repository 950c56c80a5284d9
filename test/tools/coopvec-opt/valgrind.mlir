// REQUIRES: valgrind
// Valgrind cannot run the sanitizer build; that build checks memory itself.
// UNSUPPORTED: asan
// No memory errors or definite leaks, on success and on the error paths
// (syntax error, unmatched expectation, bad pipeline).

// RUN: split-file --leading-lines %s %t
// RUN: valgrind -q --leak-check=full --errors-for-leak-kinds=definite --error-exitcode=9 coopvec-opt --split-input-file --verify-diagnostics %t/good.mlir --cse --coopvec-canonicalize
// RUN: not valgrind --leak-check=full --errors-for-leak-kinds=definite coopvec-opt --split-input-file %t/bad.mlir 2>&1 | FileCheck %s
// RUN: not valgrind --leak-check=full --errors-for-leak-kinds=definite coopvec-opt --verify-diagnostics %t/bad.mlir 2>&1 | FileCheck %s
// RUN: not valgrind --leak-check=full --errors-for-leak-kinds=definite coopvec-opt %t/good.mlir --pass-pipeline='cse,bogus' 2>&1 | FileCheck %s
// CHECK: ERROR SUMMARY: 0 errors

//--- good.mlir
func.func @f(%x: !coopvec.vec<4, f32>) -> !coopvec.vec<4, f32> {
  return %x : !coopvec.vec<4, f32>
}
// -----
// expected-error@+1 {{expects exactly 1 operands}}
%0 = "coopvec.splat"() : () -> f32
// -----
// expected-note@+1 {{see existing symbol definition here}}
func.func private @twice()
// expected-error@+1 {{redefinition of symbol named 'twice'}}
func.func private @twice()

//--- bad.mlir
// expected-error@+1 {{not produced}}
func.func private @a(
// -----
%0 = "coopvec.splat"() : () -> f32
// -----
func.func private @a()
func.func private @a()
