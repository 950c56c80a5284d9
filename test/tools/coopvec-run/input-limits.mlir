// Inputs are bounded before they are allocated or read: a file is read as
// its header announces it, up to what its argument can hold, and a random
// memref is at most 2^31-1 elements. Each case is one clear error.

// RUN: rm -rf %t && mkdir %t

// A stream without end is not read forever: its first bytes are no .npy.
// RUN: not coopvec-run %s --entry=scale --batch=2 --arg=/dev/zero \
// RUN:   --arg=/dev/zero 2>&1 | FileCheck %s --check-prefix=ZERO
// ZERO: coopvec-run: error: /dev/zero: not a .npy file (bad magic string)
// RUN: not coopvec-run %s --entry=weights --batch=2 --arg=/dev/zero \
// RUN:   --random 2>&1 | FileCheck %s --check-prefix=ZERO

// A header announcing more data than the argument can hold is refused
// before the data is read: 2^40 floats for a (2, 3) vec argument, and for a
// dynamic memref (which may hold 2^31-1 elements).
// RUN: printf "\x93NUMPY\x01\x00\x46\x00{'descr': '<f4', 'fortran_order': False, 'shape': (1099511627776,), }\n" > %t/huge.npy
// RUN: not coopvec-run %s --entry=scale --batch=2 --arg=%t/huge.npy \
// RUN:   --random 2>&1 | FileCheck %s --check-prefix=HUGE
// RUN: not coopvec-run %s --entry=weights --batch=2 --arg=%t/huge.npy \
// RUN:   --random 2>&1 | FileCheck %s --check-prefix=HUGE
// HUGE: coopvec-run: error: {{.*}}huge.npy: the array holds 4398046511104 bytes, more than the limit of {{[0-9]+}} bytes for this input

// A random memref of 2^62 elements is refused, not allocated.
// RUN: not coopvec-run %s --entry=bias --batch=2 --random \
// RUN:   --memref-size=1:4611686018427387904 2>&1 \
// RUN:   | FileCheck %s --check-prefix=SIZE
// SIZE: coopvec-run: error: --memref-size=1:4611686018427387904: SIZE is above the limit of 2147483647 elements
// The same limit holds for a size derived from the function's accesses.
// RUN: not coopvec-run %s --entry=far --random 2>&1 \
// RUN:   | FileCheck %s --check-prefix=FAR
// FAR: coopvec-run: error: argument #0 (memref<?xf32>) would need 4294967298 random elements, more than the limit of 2147483647
// RUN: not coopvec-run %s --entry=weights --batch=2 --random \
// RUN:   --memref-size=0:-1 2>&1 | FileCheck %s --check-prefix=NEGATIVE
// NEGATIVE: coopvec-run: error: invalid value in '--memref-size=0:-1'

func.func @scale(%x: !coopvec.vec<3, f32>, %s: f32) -> !coopvec.vec<3, f32> {
  %y = "coopvec.mul"(%x, %s) : (!coopvec.vec<3, f32>, f32) -> !coopvec.vec<3, f32>
  return %y : !coopvec.vec<3, f32>
}

func.func @weights(%w: memref<?xf32>, %x: !coopvec.vec<3, f32>) -> !coopvec.vec<3, f32> {
  %c0 = arith.constant 0 : index
  %b = "coopvec.load"(%w, %c0) : (memref<?xf32>, index) -> !coopvec.vec<3, f32>
  %y = "coopvec.add"(%x, %b) : (!coopvec.vec<3, f32>, !coopvec.vec<3, f32>) -> !coopvec.vec<3, f32>
  return %y : !coopvec.vec<3, f32>
}

func.func @bias(%x: !coopvec.vec<3, f32>, %w: memref<?xf32>) -> !coopvec.vec<3, f32> {
  %c0 = arith.constant 0 : index
  %b = "coopvec.load"(%w, %c0) : (memref<?xf32>, index) -> !coopvec.vec<3, f32>
  %y = "coopvec.add"(%x, %b) : (!coopvec.vec<3, f32>, !coopvec.vec<3, f32>) -> !coopvec.vec<3, f32>
  return %y : !coopvec.vec<3, f32>
}

func.func @far(%w: memref<?xf32>) -> !coopvec.vec<2, f32> {
  %c = arith.constant 4294967296 : index
  %y = "coopvec.load"(%w, %c) : (memref<?xf32>, index) -> !coopvec.vec<2, f32>
  return %y : !coopvec.vec<2, f32>
}
