// Errors in pass pipelines and on the command line: a message with a caret
// under the offending column, exit status 1, no output.

// RUN: split-file --leading-lines %s %t

// RUN: not coopvec-opt %t/valid.mlir --pass-pipeline='cse,no-such-pass' 2>&1 | FileCheck %s --strict-whitespace --check-prefix=UNKNOWN-PASS
// UNKNOWN-PASS:      pass pipeline:1:5: error: 'no-such-pass' is neither a coopvec pass nor a registered MLIR pass or pipeline
// UNKNOWN-PASS-NEXT: {{^}}  cse,no-such-pass
// UNKNOWN-PASS-NEXT: {{^}}      ^

// RUN: not coopvec-opt %t/valid.mlir --pass-pipeline='coopvec-canonicalize{' 2>&1 | FileCheck %s --strict-whitespace --check-prefix=BRACE
// BRACE:      pass pipeline:1:21: error: unbalanced '{' in pass options
// BRACE-NEXT: {{^}}  coopvec-canonicalize{
// BRACE-NEXT: {{^}}                      ^

// RUN: not coopvec-opt %t/valid.mlir --pass-pipeline='builtin.module(func.func(cse)' 2>&1 | FileCheck %s --strict-whitespace --check-prefix=PAREN
// PAREN:      pass pipeline:1:30: error: expected ',' or ')'
// PAREN-NEXT: {{^}}  builtin.module(func.func(cse)
// PAREN-NEXT: {{^}}                               ^

// RUN: not coopvec-opt %t/valid.mlir --pass-pipeline='cse)' 2>&1 | FileCheck %s --check-prefix=EXTRA-PAREN
// EXTRA-PAREN: pass pipeline:1:4: error: expected ',' or the end of the pipeline

// RUN: not coopvec-opt %t/valid.mlir --pass-pipeline='coopvec-canonicalize{bogus=1}' 2>&1 | FileCheck %s --check-prefix=BAD-OPTION
// BAD-OPTION: pass pipeline:1:1: error: pass 'coopvec-canonicalize' has no option 'bogus'

// RUN: not coopvec-opt %t/valid.mlir --canonicalize=bogus=1 2>&1 | FileCheck %s --check-prefix=BAD-UPSTREAM-OPTION
// BAD-UPSTREAM-OPTION: pass pipeline:1:1: error: invalid pass element 'canonicalize{bogus=1}'

// RUN: not coopvec-opt %t/valid.mlir --no-such-option 2>&1 | FileCheck %s --check-prefix=UNKNOWN-OPTION
// UNKNOWN-OPTION:      coopvec-opt: error: unknown option '--no-such-option'
// UNKNOWN-OPTION-NEXT: coopvec-opt: note: see 'coopvec-opt --help'

// RUN: not coopvec-opt %t/valid.mlir --cse --pass-pipeline=cse 2>&1 | FileCheck %s --check-prefix=MIXED
// MIXED: coopvec-opt: error: '--pass-pipeline' cannot be combined with individual pass flags ('--cse')

// RUN: not coopvec-opt %t/valid.mlir --split-input-file=maybe 2>&1 | FileCheck %s --check-prefix=BAD-BOOL
// BAD-BOOL: coopvec-opt: error: option '--split-input-file=maybe' takes true or false, not 'maybe'

// RUN: not coopvec-opt %t/valid.mlir -o 2>&1 | FileCheck %s --check-prefix=NO-VALUE
// NO-VALUE: coopvec-opt: error: option '-o' needs a value

// RUN: not coopvec-opt %s %s 2>&1 | FileCheck %s --check-prefix=TWO-INPUTS
// TWO-INPUTS: coopvec-opt: error: more than one input file

// RUN: not coopvec-opt %t.does-not-exist.mlir 2>&1 | FileCheck %s --check-prefix=NO-FILE
// NO-FILE: coopvec-opt: error: cannot open input file '{{.*}}does-not-exist.mlir': No such file or directory

// RUN: not coopvec-opt %t/valid.mlir -o %t.no-such-dir/out.mlir 2>&1 | FileCheck %s --check-prefix=NO-OUTPUT
// NO-OUTPUT: coopvec-opt: error: cannot open output file '{{.*}}out.mlir': No such file or directory

// Malformed IR: file:line:col, the line and a caret; nothing on stdout.
// RUN: not coopvec-opt %t/syntax.mlir 2>%t.err | count 0
// RUN: FileCheck %s --strict-whitespace --check-prefix=SYNTAX < %t.err

//--- valid.mlir
func.func private @valid()

//--- syntax.mlir
func.func private @broken(%x: i32 -> i32
// SYNTAX:      syntax.mlir:[[@LINE-1]]:34: error: expected ')'
// SYNTAX-NEXT: {{^}}func.func private @broken(%x: i32 -> i32
// SYNTAX-NEXT: {{^}}                                 ^
