// Chains of elementwise ops on tiled vecs (more than 16 elements), which
// the CPU lowering runs as one element loop per chain
// (lib/Conversion/PerThread/ElementLoopFusion.c): the JIT against the
// reference interpreter (--check), which evaluates op by op. The chains
// reuse tiles in place (an operand dying at an op of the chain), read a
// value of the chain again after the chain (its row must still be stored),
// read an operand from before the chain after another op of the chain has
// overwritten a different tile, round through f16 inside the chain, and run
// under a branch the threads take divergently. Batches 1, 7, 33 and 1029
// leave partial lane groups; 4, 8 and the host's lanes.
//
// The ReLU derivative (@relu) is also checked against values written out by
// hand: at x = -1, -0, 0, 2 and NaN the derivative of max(x, 0) is 0, 0.5,
// 0.5, 1 and 0 (docs/autodiff.md, max), times dy = 3.

// RUN: split-file %s %t
// RUN: bash %S/Inputs/npy.sh ids 1 %t/ids1.npy
// RUN: bash %S/Inputs/npy.sh ids 7 %t/ids7.npy
// RUN: bash %S/Inputs/npy.sh ids 33 %t/ids33.npy
// RUN: bash %S/Inputs/npy.sh ids 1029 %t/ids1029.npy

// RUN: coopvec-run %t/chains.mlir --entry=chains --batch=1 --arg=%t/ids1.npy --random --seed=501 --check | FileCheck %s --check-prefix=CHAINS
// RUN: coopvec-run %t/chains.mlir --entry=chains --batch=7 --arg=%t/ids7.npy --random --seed=502 --lanes=4 --check | FileCheck %s --check-prefix=CHAINS
// RUN: coopvec-run %t/chains.mlir --entry=chains --batch=33 --arg=%t/ids33.npy --random --seed=503 --lanes=8 --check | FileCheck %s --check-prefix=CHAINS
// RUN: coopvec-run %t/chains.mlir --entry=chains --batch=1029 --arg=%t/ids1029.npy --random --seed=504 --check | FileCheck %s --check-prefix=CHAINS
// CHAINS:      result 0: max abs error {{.*}}: PASS
// CHAINS-NEXT: result 1: max abs error {{.*}}: PASS
// CHAINS-NEXT: result 2: max abs error {{.*}}: PASS
// CHAINS-NEXT: result 3: max abs error {{.*}}: PASS
// CHAINS-NEXT: {{^PASS$}}

// RUN: coopvec-run %t/relu.mlir --entry=relu --batch=3 --print | FileCheck %s --check-prefix=RELU
// RUN: coopvec-run %t/relu.mlir --entry=relu --batch=3 --reference --print | FileCheck %s --check-prefix=RELU
// RELU:      result 0: f32, shape (3, 20)
// RELU-NEXT:   [0] 0 1.5 1.5 3 0 0 1.5 1.5 3 0 0 1.5 1.5 3 0 0 1.5 1.5 3 0
// RELU-NEXT:   [1] 0 1.5 1.5 3 0 0 1.5 1.5 3 0 0 1.5 1.5 3 0 0 1.5 1.5 3 0
// RELU-NEXT:   [2] 0 1.5 1.5 3 0 0 1.5 1.5 3 0 0 1.5 1.5 3 0 0 1.5 1.5 3 0

//--- chains.mlir
!v = !coopvec.vec<40, f32>
!h = !coopvec.vec<40, f16>
func.func @chains(%tid: !coopvec.vec<1, f32>, %x: !v, %y: !v) -> (!v, !v, !v, !v) {
  // Through f16 and back inside the chain (of -x: exact, so the JIT and
  // the interpreter round the same value). In place: %x dies at %b, %a at
  // %c; %y is read after %x's tile holds %b.
  %a = "coopvec.neg"(%x) : (!v) -> !v
  %e = "coopvec.cast"(%a) : (!v) -> !h
  %f = "coopvec.cast"(%e) : (!h) -> !v
  %b = "coopvec.mul"(%f, %x) : (!v, !v) -> !v
  %c = "coopvec.add"(%b, %a) : (!v, !v) -> !v
  %d = "coopvec.fma"(%c, %y, %b) : (!v, !v, !v) -> !v
  %two = arith.constant 2.0 : f32
  %g = "coopvec.min"(%d, %two) : (!v, f32) -> !v
  %t = "coopvec.tanh"(%g) : (!v) -> !v
  // A branch odd threads take: a chain under the mask, reading %c (kept).
  %t0 = "coopvec.unpack"(%tid) : (!coopvec.vec<1, f32>) -> f32
  %ti = arith.fptosi %t0 : f32 to i32
  %one = arith.constant 1 : i32
  %bit = arith.andi %ti, %one : i32
  %odd = arith.cmpi eq, %bit, %one : i32
  %r = scf.if %odd -> (!v) {
    %p = "coopvec.sub"(%t, %c) : (!v, !v) -> !v
    %q = "coopvec.max"(%p, %two) : (!v, f32) -> !v
    %s = "coopvec.step"(%q, %y) : (!v, !v) -> !v
    scf.yield %s : !v
  } else {
    %p = "coopvec.exp2"(%t) : (!v) -> !v
    %q = "coopvec.log2"(%p) : (!v) -> !v
    scf.yield %q : !v
  }
  return %c, %t, %r, %d : !v, !v, !v, !v
}

//--- relu.mlir
!v = !coopvec.vec<20, f32>
func.func @relu() -> !v {
  %m1 = arith.constant -1.0 : f32
  %mz = arith.constant -0.0 : f32
  %z = arith.constant 0.0 : f32
  %p2 = arith.constant 2.0 : f32
  %nan = arith.constant 0x7FC00000 : f32
  %x = "coopvec.from_elements"(%m1, %mz, %z, %p2, %nan, %m1, %mz, %z, %p2, %nan, %m1, %mz, %z, %p2, %nan, %m1, %mz, %z, %p2, %nan) : (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32) -> !v
  %three = arith.constant 3.0 : f32
  %dy = "coopvec.splat"(%three) : (f32) -> !v
  %ninf = arith.constant 0xFF800000 : f32
  %m = "coopvec.max"(%x, %ninf) : (!v, f32) -> !v
  %zv = "coopvec.splat"(%z) : (f32) -> !v
  %s0 = "coopvec.step"(%m, %zv) : (!v, !v) -> !v
  %s1 = "coopvec.step"(%zv, %m) : (!v, !v) -> !v
  %half = arith.constant 0.5 : f32
  %d = "coopvec.sub"(%s0, %s1) : (!v, !v) -> !v
  %w = "coopvec.fma"(%d, %half, %half) : (!v, f32, f32) -> !v
  %r = "coopvec.mul"(%dy, %w) : (!v, !v) -> !v
  return %r : !v
}
