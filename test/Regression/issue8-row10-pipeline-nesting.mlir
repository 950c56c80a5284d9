// Issue 8, row 10: a pipeline nested tens of thousands of levels deep
// overflowed the stack (stock mlir-opt too). coopvecParsePassPipeline now
// refuses more than 32 pass managers nested in the root one, before MLIR
// sees any of them: 32 are accepted, the 33rd is an error at its column,
// exit status 1. A command line holds at most 128 KiB (about 10,000 levels, which did
// not yet crash), so test/CAPI/pipeline-limits.c passes a million levels
// through the C API.

// RUN: coopvec-opt %s --pass-pipeline='builtin.module(func.func(func.func(func.func(func.func(func.func(func.func(func.func(func.func(func.func(func.func(func.func(func.func(func.func(func.func(func.func(func.func(func.func(func.func(func.func(func.func(func.func(func.func(func.func(func.func(func.func(func.func(func.func(func.func(func.func(func.func(func.func(func.func(cse)))))))))))))))))))))))))))))))))' | FileCheck %s --check-prefix=OK
// OK: func.func @neg

// RUN: not coopvec-opt %s --pass-pipeline='builtin.module(func.func(func.func(func.func(func.func(func.func(func.func(func.func(func.func(func.func(func.func(func.func(func.func(func.func(func.func(func.func(func.func(func.func(func.func(func.func(func.func(func.func(func.func(func.func(func.func(func.func(func.func(func.func(func.func(func.func(func.func(func.func(func.func(func.func(cse))))))))))))))))))))))))))))))))))' 2>&1 | FileCheck %s --check-prefix=DEEP
// DEEP: pass pipeline:1:336: error: pass pipeline nested too deeply
// RUN: not coopvec-opt %s --pass-pipeline='any(any(any(any(any(any(any(any(any(any(any(any(any(any(any(any(any(any(any(any(any(any(any(any(any(any(any(any(any(any(any(any(any(cse)))))))))))))))))))))))))))))))))' 2>&1 | FileCheck %s --check-prefix=ANY
// ANY: pass pipeline:1:129: error: pass pipeline nested too deeply

func.func @neg(%x: !coopvec.vec<4, f32>) -> !coopvec.vec<4, f32> {
  %0 = "coopvec.neg"(%x) : (!coopvec.vec<4, f32>) -> !coopvec.vec<4, f32>
  return %0 : !coopvec.vec<4, f32>
}
