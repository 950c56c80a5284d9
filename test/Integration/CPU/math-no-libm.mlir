// exp2, log2 and tanh are lowered to vector code in registers
// (lib/Conversion/PerThread/Math.c): the host assembly of the lowered
// functions calls nothing (the only calls in the module are the C-interface
// wrappers calling the functions) and names no libm function. vec<64> goes
// through tiled element loops, vec<4> through SSA element values.

// RUN: coopvec-opt %s --pass-pipeline='builtin.module(coopvec-lower-to-cpu)' --emit=asm -o %t.s
// RUN: FileCheck %s < %t.s
// RUN: FileCheck %s --check-prefix=LIBM < %t.s

// CHECK-LABEL: wide_batched:
// CHECK-NOT: call
// CHECK: .size wide_batched,
// CHECK-LABEL: narrow_batched:
// CHECK-NOT: call
// CHECK: .size narrow_batched,

// LIBM-NOT: {{exp2f|log2f|expf|tanhf|exp2|log2|tanh}}

func.func @wide(%x: !coopvec.vec<64, f32>) -> (!coopvec.vec<64, f32>, !coopvec.vec<64, f32>, !coopvec.vec<64, f32>) {
  %e = "coopvec.exp2"(%x) : (!coopvec.vec<64, f32>) -> !coopvec.vec<64, f32>
  %l = "coopvec.log2"(%x) : (!coopvec.vec<64, f32>) -> !coopvec.vec<64, f32>
  %t = "coopvec.tanh"(%x) : (!coopvec.vec<64, f32>) -> !coopvec.vec<64, f32>
  return %e, %l, %t : !coopvec.vec<64, f32>, !coopvec.vec<64, f32>, !coopvec.vec<64, f32>
}

func.func @narrow(%x: !coopvec.vec<4, f16>) -> (!coopvec.vec<4, f16>, !coopvec.vec<4, f16>, !coopvec.vec<4, f16>) {
  %e = "coopvec.exp2"(%x) : (!coopvec.vec<4, f16>) -> !coopvec.vec<4, f16>
  %l = "coopvec.log2"(%x) : (!coopvec.vec<4, f16>) -> !coopvec.vec<4, f16>
  %t = "coopvec.tanh"(%x) : (!coopvec.vec<4, f16>) -> !coopvec.vec<4, f16>
  return %e, %l, %t : !coopvec.vec<4, f16>, !coopvec.vec<4, f16>, !coopvec.vec<4, f16>
}
