// Index offsets read from .npy files are checked before anything runs: a
// negative offset, 2^63-1 (whose end overflows) and -2^40 are errors, for a
// function that loads and one that stores, with random or file memrefs, in
// the JIT and in the interpreter (--reference). Nothing is printed or
// written. The i64 scalars are written with printf (no NumPy needed): a
// version 1.0 header of 0x38 bytes, then 8 little-endian bytes.

// RUN: rm -rf %t && mkdir %t
// RUN: printf "\x93NUMPY\x01\x00\x38\x00{'descr': '<i8', 'fortran_order': False, 'shape': (), }\n\xff\xff\xff\xff\xff\xff\xff\xff" > %t/minus1.npy
// RUN: printf "\x93NUMPY\x01\x00\x38\x00{'descr': '<i8', 'fortran_order': False, 'shape': (), }\n\xff\xff\xff\xff\xff\xff\xff\x7f" > %t/max.npy
// RUN: printf "\x93NUMPY\x01\x00\x38\x00{'descr': '<i8', 'fortran_order': False, 'shape': (), }\n\x00\x00\x00\x00\x00\xff\xff\xff" > %t/minus2p40.npy
// RUN: printf "\x93NUMPY\x01\x00\x38\x00{'descr': '<i8', 'fortran_order': False, 'shape': (), }\n\x03\x00\x00\x00\x00\x00\x00\x00" > %t/three.npy

// The files hold what they should: offset 3 is fine and reads w[3, 7).
// RUN: coopvec-run %s --entry=load --batch=2 --arg=%t/three.npy --random \
// RUN:   --save-inputs=%t/in --print | FileCheck %s --check-prefix=GOOD
// GOOD: result 0: f32, shape (2, 4)
// RUN: coopvec-run %s --entry=load --batch=2 --arg=%t/three.npy \
// RUN:   --arg=%t/in1.npy --reference --print | FileCheck %s --check-prefix=GOOD

// RUN: not coopvec-run %s --entry=load --batch=2 --arg=%t/minus1.npy \
// RUN:   --random --print > %t/out.txt 2>&1
// RUN: FileCheck %s --check-prefix=LOAD-NEG < %t/out.txt
// LOAD-NEG: coopvec-run: error: argument #1 (memref<?xf32>) of @load: 'coopvec.load' at {{.*}}offsets.mlir:{{[0-9]+}}:8: offset -1 is negative (elements before the buffer)
// LOAD-NEG-NOT: result
// RUN: not coopvec-run %s --entry=load --batch=2 --arg=%t/minus1.npy \
// RUN:   --arg=%t/in1.npy --print > %t/out.txt 2>&1
// RUN: FileCheck %s --check-prefix=LOAD-NEG < %t/out.txt
// RUN: not coopvec-run %s --entry=load --batch=2 --arg=%t/minus1.npy \
// RUN:   --arg=%t/in1.npy --reference --print > %t/out.txt 2>&1
// RUN: FileCheck %s --check-prefix=LOAD-NEG < %t/out.txt
// RUN: not coopvec-run %s --entry=load --batch=2 --arg=%t/max.npy \
// RUN:   --arg=%t/in1.npy --print > %t/out.txt 2>&1
// RUN: FileCheck %s --check-prefix=LOAD-MAX < %t/out.txt
// LOAD-MAX: coopvec-run: error: argument #1 (memref<?xf32>) of @load: 'coopvec.load' at {{.*}}: offset 9223372036854775807 + 4 elements overflows a 64-bit index
// LOAD-MAX-NOT: result
// RUN: not coopvec-run %s --entry=load --batch=2 --arg=%t/minus2p40.npy \
// RUN:   --random --memref-size=1:16 --print > %t/out.txt 2>&1
// RUN: FileCheck %s --check-prefix=LOAD-BIG-NEG < %t/out.txt
// LOAD-BIG-NEG: coopvec-run: error: argument #1 (memref<?xf32>) of @load: 'coopvec.load' at {{.*}}: offset -1099511627776 is negative
// LOAD-BIG-NEG-NOT: result

// The store writes w[2 * off, 2 * off + 4): 2 * (2^63 - 1) overflows.
// RUN: not coopvec-run %s --entry=store --batch=2 --arg=%t/minus1.npy \
// RUN:   --random --memref-size=2:16 --print --out=%t/store > %t/out.txt 2>&1
// RUN: FileCheck %s --check-prefix=STORE-NEG < %t/out.txt
// STORE-NEG: coopvec-run: error: argument #2 (memref<?xf32>) of @store: 'coopvec.store' at {{.*}}offsets.mlir:{{[0-9]+}}:3: offset -2 is negative (elements before the buffer)
// STORE-NEG-NOT: argument 2 (written)
// RUN: not ls %t/store_arg2.npy
// RUN: not coopvec-run %s --entry=store --batch=2 --arg=%t/max.npy \
// RUN:   --random --memref-size=2:16 --print > %t/out.txt 2>&1
// RUN: FileCheck %s --check-prefix=STORE-MAX < %t/out.txt
// STORE-MAX: coopvec-run: error: argument #2 (memref<?xf32>) of @store: 'coopvec.store' at {{.*}}: its offset cannot be evaluated: arith.muli of 9223372036854775807 and 2 overflows
// STORE-MAX-NOT: argument 2 (written)
// RUN: not coopvec-run %s --entry=store --batch=2 --arg=%t/minus2p40.npy \
// RUN:   --random --memref-size=2:16 --reference --print > %t/out.txt 2>&1
// RUN: FileCheck %s --check-prefix=STORE-BIG-NEG < %t/out.txt
// STORE-BIG-NEG: coopvec-run: error: argument #2 (memref<?xf32>) of @store: 'coopvec.store' at {{.*}}: offset -2199023255552 is negative
// STORE-BIG-NEG-NOT: argument 2 (written)

func.func @load(%off: index, %w: memref<?xf32>) -> !coopvec.vec<4, f32> {
  %y = "coopvec.load"(%w, %off) : (memref<?xf32>, index) -> !coopvec.vec<4, f32>
  return %y : !coopvec.vec<4, f32>
}

func.func @store(%off: index, %x: !coopvec.vec<4, f32>, %w: memref<?xf32>) {
  %c2 = arith.constant 2 : index
  %o = arith.muli %off, %c2 : index
  "coopvec.store"(%x, %w, %o) : (!coopvec.vec<4, f32>, memref<?xf32>, index) -> ()
  return
}
