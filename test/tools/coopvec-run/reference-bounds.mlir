// An access outside its buffer at a per-thread index (a gather and a
// scatter at an index each thread computes from its vec) does not stop the
// interpreter: reads give 0, writes are dropped, and once every thread has
// run, --reference reports how many there were and the first (the lowest
// thread, then the op first in the text), writes nothing and exits 1. The
// vec argument is written with printf (no NumPy needed): a version 1.0
// header of 0x3c bytes, then the f32 values 0, 20, 3, 30 of threads 0-3.

// RUN: rm -rf %t && mkdir %t
// RUN: printf "\x93NUMPY\x01\x00\x3c\x00{'descr': '<f4', 'fortran_order': False, 'shape': (4, 1), }\n\x00\x00\x00\x00\x00\x00\xa0\x41\x00\x00\x40\x40\x00\x00\xf0\x41" > %t/x.npy

// Threads 1 and 3 load and store at 20 and 30 of 16 elements.
// RUN: not coopvec-run %s --entry=scatter --batch=4 --arg=%t/x.npy --random \
// RUN:   --memref-size=1:16 --reference --print --out=%t/small > %t/out.txt 2>&1
// RUN: FileCheck %s --check-prefix=OUTSIDE < %t/out.txt
// OUTSIDE: coopvec-run: error: reference interpreter: {{.*}}reference-bounds.mlir:[[# @LINE + 23]]:8: error: 'memref.load' op 4 accesses outside their buffer (reads gave 0, writes were dropped); the first: thread 1, element 20 of a buffer of 16 elements
// OUTSIDE-NOT: result
// OUTSIDE-NOT: written
// RUN: not ls %t/small0.npy

// With 32 elements every access is inside: the scatter writes 1 at
// elements 0, 3, 20 and 30.
// RUN: coopvec-run %s --entry=scatter --batch=4 --arg=%t/x.npy --random \
// RUN:   --memref-size=1:32 --reference --print | FileCheck %s --check-prefix=INSIDE
// INSIDE: result 0: f32, shape (4, 1)
// INSIDE: argument 1 (written): f32, shape (32,)
// INSIDE-NEXT: [0] 1 {{[^ ]+}} {{[^ ]+}} 1 

// A local array, zeroed each time its alloca runs, is private per thread:
// element 20 of 16 is outside it too.
// RUN: not coopvec-run %s --entry=private --batch=4 --arg=%t/x.npy \
// RUN:   --reference 2>&1 | FileCheck %s --check-prefix=LOCAL
// LOCAL: coopvec-run: error: reference interpreter: {{.*}}reference-bounds.mlir:[[# @LINE + 18]]:3: error: 'memref.store' op 2 accesses outside their buffer (reads gave 0, writes were dropped); the first: thread 1, element 20 of a local array of 16 elements

func.func @scatter(%x: !coopvec.vec<1, f32>, %w: memref<?xf32>) -> !coopvec.vec<1, f32> {
  %e = "coopvec.unpack"(%x) : (!coopvec.vec<1, f32>) -> f32
  %i64 = arith.fptosi %e : f32 to i64
  %i = arith.index_cast %i64 : i64 to index
  %v = memref.load %w[%i] : memref<?xf32>
  %one = arith.constant 1.0 : f32
  memref.store %one, %w[%i] : memref<?xf32>
  %y = "coopvec.splat"(%v) : (f32) -> !coopvec.vec<1, f32>
  return %y : !coopvec.vec<1, f32>
}

func.func @private(%x: !coopvec.vec<1, f32>) -> !coopvec.vec<1, f32> {
  %e = "coopvec.unpack"(%x) : (!coopvec.vec<1, f32>) -> f32
  %i64 = arith.fptosi %e : f32 to i64
  %i = arith.index_cast %i64 : i64 to index
  %a = memref.alloca() : memref<16xf32>
  memref.store %e, %a[%i] : memref<16xf32>
  %c3 = arith.constant 3 : index
  %v = memref.load %a[%c3] : memref<16xf32>
  %y = "coopvec.splat"(%v) : (f32) -> !coopvec.vec<1, f32>
  return %y : !coopvec.vec<1, f32>
}
