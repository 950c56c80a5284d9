// An unknown name in ops= is an error at the op the pass runs on; nothing is
// expanded.
// RUN: coopvec-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(coopvec-expand-math{ops=sin,cosine})'
// RUN: not coopvec-opt %s --split-input-file --pass-pipeline='builtin.module(coopvec-expand-math{ops=sin,,cos})' 2>&1 | FileCheck %s --check-prefix=EMPTY
// RUN: not coopvec-opt %s --split-input-file --pass-pipeline='builtin.module(coopvec-expand-math{ops=math.sin})' 2>&1 | FileCheck %s --check-prefix=PREFIX
// RUN: not coopvec-opt %s --split-input-file --pass-pipeline='builtin.module(coopvec-expand-math{op=sin})' 2>&1 | FileCheck %s --check-prefix=OPTION
// EMPTY: error: coopvec-expand-math: unknown op '' in ops= (expected names among sin, cos, exp, exp2, log, log2, tanh, atan, atan2, erf, powf, rsqrt, remf)
// PREFIX: error: coopvec-expand-math: unknown op 'math.sin' in ops=
// OPTION: pass 'coopvec-expand-math' has no option 'op'

// expected-error@+1 {{coopvec-expand-math: unknown op 'cosine' in ops= (expected names among sin, cos, exp, exp2, log, log2, tanh, atan, atan2, erf, powf, rsqrt, remf)}}
module {
  func.func @f(%x: f32) -> f32 {
    %0 = math.sin %x : f32
    return %0 : f32
  }
}
