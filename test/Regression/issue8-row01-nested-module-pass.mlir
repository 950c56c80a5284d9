// Issue 8, row 1: a module pass nested in a function pass manager
// (`func.func(coopvec-lower-to-cpu)`) made MLIR abort the process ("LLVM
// ERROR: Can't add pass ... restricted to 'builtin.module' on a PassManager
// intended to run on 'func.func'", SIGABRT) in coopvec-opt and in
// coopvec-run --pipeline. The pipeline parser now refuses it with a located
// error, exit status 1; upstream module passes get MLIR's own error.

// RUN: not coopvec-opt %s --pass-pipeline='func.func(coopvec-lower-to-cpu)' 2>&1 \
// RUN:   | FileCheck %s --strict-whitespace --check-prefix=OPT
// OPT:      pass pipeline:1:11: error: in pipeline 'coopvec-lower-to-cpu': pass 'convert-coopvec-to-cpu' runs on 'builtin.module' and cannot be nested in a pass manager on 'func.func'
// OPT-NEXT: {{^}}  func.func(coopvec-lower-to-cpu)
// OPT-NEXT: {{^}}            ^
// OPT-NOT:  LLVM ERROR

// The same nesting one level down, and the conversion pass itself.
// RUN: not coopvec-opt %s --pass-pipeline='builtin.module(func.func(cse,coopvec-lower-to-cpu{lanes=4}))' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NESTED
// NESTED: pass pipeline:1:30: error: in pipeline 'coopvec-lower-to-cpu': pass 'convert-coopvec-to-cpu' runs on 'builtin.module' and cannot be nested in a pass manager on 'func.func'
// RUN: not coopvec-opt %s --pass-pipeline='func.func(convert-coopvec-to-cpu)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=CONVERT
// CONVERT: pass pipeline:1:11: error: pass 'convert-coopvec-to-cpu' runs on 'builtin.module' and cannot be nested in a pass manager on 'func.func'

// An upstream module pass in a function: MLIR's message, as a pipeline error.
// RUN: not coopvec-opt %s --pass-pipeline='func.func(convert-func-to-llvm)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=UPSTREAM
// UPSTREAM: pass pipeline:1:11: error: invalid pass element 'convert-func-to-llvm': Can't add pass 'ConvertFuncToLLVMPass' restricted to 'builtin.module' on a PassManager intended to run on 'func.func'

// coopvec-run --pipeline goes through the same parser.
// RUN: not coopvec-run %s --entry=neg --batch=2 --random \
// RUN:   --pipeline='func.func(coopvec-lower-to-cpu)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=RUNNER
// RUNNER: coopvec-run: error: lowering with 'func.func(coopvec-lower-to-cpu)' failed: pass pipeline:1:11: error: in pipeline 'coopvec-lower-to-cpu': pass 'convert-coopvec-to-cpu' runs on 'builtin.module' and cannot be nested in a pass manager on 'func.func'
// RUNNER-NOT: LLVM ERROR

func.func @neg(%x: !coopvec.vec<4, f32>) -> !coopvec.vec<4, f32> {
  %0 = "coopvec.neg"(%x) : (!coopvec.vec<4, f32>) -> !coopvec.vec<4, f32>
  return %0 : !coopvec.vec<4, f32>
}
