// RUN: coopvec-opt --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(convert-coopvec-to-vector{lanes=4})' %s
// RUN: not coopvec-opt --pass-pipeline='builtin.module(convert-coopvec-to-vector{lanes=300})' %s 2>&1 | FileCheck %s --check-prefix=LANES
// RUN: not coopvec-opt --pass-pipeline='builtin.module(convert-coopvec-to-vector{lanes=four})' %s 2>&1 | FileCheck %s --check-prefix=LANES-VALUE
// RUN: not coopvec-opt --pass-pipeline='builtin.module(convert-coopvec-to-vector{row-block=65})' %s 2>&1 | FileCheck %s --check-prefix=ROW-BLOCK

// LANES: error: convert-coopvec-to-vector: lanes=300 is out of range; use 1 to 256, or 0 for the host's default
// ROW-BLOCK: error: convert-coopvec-to-vector: row-block=65 is out of range; use 1 to 64, or 0 for the host's default
// LANES-VALUE: invalid value 'four' for option 'lanes' of pass 'convert-coopvec-to-vector': expected an integer

// Nothing is changed unless every per-thread function can be lowered.

func.func @callee(%x: !coopvec.vec<2, f32>) -> !coopvec.vec<2, f32> {
  return %x : !coopvec.vec<2, f32>
}

func.func @caller(%x: !coopvec.vec<2, f32>) -> !coopvec.vec<2, f32> {
  // expected-error@+1 {{'func.call' op calls per-thread function @callee; convert-coopvec-to-vector does not support calls between per-thread functions (inline the callee)}}
  %y = func.call @callee(%x) : (!coopvec.vec<2, f32>) -> !coopvec.vec<2, f32>
  return %y : !coopvec.vec<2, f32>
}

// -----

func.func @per_thread_scalar(%x: !coopvec.vec<2, f32>) -> !coopvec.vec<1, f32> {
  %e:2 = "coopvec.unpack"(%x) : (!coopvec.vec<2, f32>) -> (f32, f32)
  // expected-error@+1 {{'arith.addf' op uses a per-thread value (operand #0); only coopvec ops can use per-thread values}}
  %s = arith.addf %e#0, %e#1 : f32
  %v = "coopvec.splat"(%s) : (f32) -> !coopvec.vec<1, f32>
  return %v : !coopvec.vec<1, f32>
}

// -----

// expected-error@+1 {{'func.func' op @scalar_result: result #0 of a per-thread function must be a !coopvec.vec (each thread's result is written to an output buffer)}}
func.func @scalar_result(%x: !coopvec.vec<2, f32>, %s: f32) -> f32 {
  return %s : f32
}

// -----

// expected-error@+1 {{'func.func' op @matrix_arg: argument #1 is a !coopvec.matrix, which has no batched form; pass its buffer and create the view with coopvec.matrix_view inside the function}}
func.func @matrix_arg(%x: !coopvec.vec<2, f32>, %A: !coopvec.matrix<2, 2, f32, "row_major">) -> !coopvec.vec<2, f32> {
  %y = "coopvec.matvec"(%A, %x) : (!coopvec.matrix<2, 2, f32, "row_major">, !coopvec.vec<2, f32>) -> !coopvec.vec<2, f32>
  return %y : !coopvec.vec<2, f32>
}

// -----

// expected-error@+1 {{'func.func' op @taken: cannot create @taken_batched, the name is taken}}
func.func @taken(%x: !coopvec.vec<2, f32>) -> !coopvec.vec<2, f32> {
  return %x : !coopvec.vec<2, f32>
}
func.func @taken_batched() {
  return
}

// -----

func.func @big(%x: !coopvec.vec<256, f32>, %w: memref<?xf32>) -> !coopvec.vec<256, f32> {
  %A = "coopvec.matrix_view"(%w) {offset = 0} : (memref<?xf32>) -> !coopvec.matrix<256, 256, f32, "row_major">
  // expected-error@+1 {{'coopvec.matvec' op uses a 256 x 256 matrix; convert-coopvec-to-vector handles matrices of at most 16384 elements}}
  %y = "coopvec.matvec"(%A, %x) : (!coopvec.matrix<256, 256, f32, "row_major">, !coopvec.vec<256, f32>) -> !coopvec.vec<256, f32>
  return %y : !coopvec.vec<256, f32>
}

// -----

func.func @side_effect(%x: !coopvec.vec<2, f32>, %g: memref<?xf32>, %s: f32) -> !coopvec.vec<2, f32> {
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{'memref.atomic_rmw' op cannot be lowered inside a per-thread function: only coopvec, arith, math, index, vector, ub, affine index and non-atomic memref ops can}}
  %old = memref.atomic_rmw addf %s, %g[%c0] : (f32, memref<?xf32>) -> f32
  return %x : !coopvec.vec<2, f32>
}
