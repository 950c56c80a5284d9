// The compiled code checks the accesses the engine cannot check before the
// run (offsets each thread computes; docs/dialect.md, "Out-of-bounds
// accesses"): one outside its buffer reads 0 or is dropped, and after the
// run coopvec-run reports how many there were and the first (the lowest
// thread, then the op first in the text), exactly as the interpreter does
// (reference-bounds.mlir runs the same functions), writes nothing and
// exits 1. The vec argument holds 0, 20, 3, 30 for threads 0-3 (see
// reference-bounds.mlir for the bytes).

// RUN: rm -rf %t && mkdir %t
// RUN: printf "\x93NUMPY\x01\x00\x3c\x00{'descr': '<f4', 'fortran_order': False, 'shape': (4, 1), }\n\x00\x00\x00\x00\x00\x00\xa0\x41\x00\x00\x40\x40\x00\x00\xf0\x41" > %t/x.npy

// One host thread and three (threads 1 and 3 then run on different host
// threads), and Vulkan where there is a device: the same count and the
// same first access.
// RUN: not coopvec-run %s --entry=scatter --batch=4 --arg=%t/x.npy --random \
// RUN:   --memref-size=1:16 --threads=1 --out=%t/one 2>&1 | FileCheck %s --check-prefix=SCATTER
// RUN: not coopvec-run %s --entry=scatter --batch=4 --arg=%t/x.npy --random \
// RUN:   --memref-size=1:16 --threads=3 --check 2>&1 | FileCheck %s --check-prefix=SCATTER
// RUN: %if vulkan %{ not coopvec-run %s --entry=scatter --batch=4 --arg=%t/x.npy --random --memref-size=1:16 --target=vulkan 2>&1 | FileCheck %s --check-prefix=SCATTER %}
// SCATTER: coopvec-run: error: @scatter: 4 accesses outside their buffer at run time (reads gave 0, writes were dropped); the first: thread 1 at {{.*}}runtime-bounds.mlir:[[# @LINE + 19]]:8 ('memref.load')
// SCATTER-NOT: PASS
// RUN: not ls %t/one0.npy

// Inside the buffer, the JIT agrees with the interpreter.
// RUN: coopvec-run %s --entry=scatter --batch=4 --arg=%t/x.npy --random \
// RUN:   --memref-size=1:32 --check | FileCheck %s --check-prefix=INSIDE
// INSIDE: PASS

// A local array: element 20 of 16 is outside it too.
// RUN: not coopvec-run %s --entry=private --batch=4 --arg=%t/x.npy 2>&1 \
// RUN:   | FileCheck %s --check-prefix=LOCAL
// RUN: %if vulkan %{ not coopvec-run %s --entry=private --batch=4 --arg=%t/x.npy --target=vulkan 2>&1 | FileCheck %s --check-prefix=LOCAL %}
// LOCAL: coopvec-run: error: @private: 2 accesses outside their buffer at run time (reads gave 0, writes were dropped); the first: thread 1 at {{.*}}runtime-bounds.mlir:[[# @LINE + 18]]:3 ('memref.store')

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
