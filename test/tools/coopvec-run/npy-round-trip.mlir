// Inputs and outputs as .npy files, through the reference interpreter
// (--reference) so that only the file handling is under test.

// Random inputs saved with --save-inputs and read back with --arg give the
// same results.
// RUN: rm -rf %t && mkdir %t
// RUN: coopvec-run %s --entry=layer --batch=4 --random --seed=7 --reference \
// RUN:   --save-inputs=%t/in --print > %t/random.txt
// RUN: coopvec-run %s --entry=layer --batch=4 --arg=%t/in0.npy \
// RUN:   --arg=%t/in1.npy --arg=%t/in2.npy --reference --print > %t/files.txt
// RUN: diff %t/random.txt %t/files.txt
// RUN: FileCheck %s --check-prefix=LAYER < %t/files.txt
// LAYER: result 0: f32, shape (4, 5)
// LAYER-NEXT: [0] {{.*}}
// LAYER: [3] {{.*}}
// LAYER: argument 1 (written): f32, shape (20,)

// Another seed gives other numbers.
// RUN: coopvec-run %s --entry=layer --batch=4 --random --seed=8 --reference \
// RUN:   --print > %t/seed8.txt
// RUN: not diff %t/random.txt %t/seed8.txt

// --out writes results as PREFIX<k>.npy and written memrefs as
// PREFIX_arg<i>.npy; a result file is a valid input of the same shape.
// RUN: coopvec-run %s --entry=layer --batch=4 --arg=%t/in0.npy \
// RUN:   --arg=%t/in1.npy --arg=%t/in2.npy --reference --out=%t/out
// RUN: coopvec-run %s --entry=identity --batch=4 --arg=%t/out0.npy \
// RUN:   --reference --print > %t/identity.txt
// RUN: head -n 5 %t/files.txt | diff - %t/identity.txt
// RUN: not ls %t/out_arg0.npy
// RUN: coopvec-run %s --entry=sum --batch=1 --arg=%t/out_arg1.npy \
// RUN:   --reference --print | FileCheck %s --check-prefix=GRAD
// GRAD: result 0: f32, shape (1, 1)

// -o DIR is --out=DIR/result.
// RUN: coopvec-run %s --entry=layer --batch=4 --random --reference -o %t
// RUN: ls %t/result0.npy %t/result_arg1.npy

// Conversions: an '<f8' file feeds an f32 argument (rounded to nearest
// even), an '<f2' file an f32 one (exact); f32 data for an f16 argument
// would round silently and is refused.
// RUN: coopvec-run %s --entry=widths --batch=3 --random --reference \
// RUN:   --save-inputs=%t/w
// RUN: coopvec-run %s --entry=identity --batch=3 --arg=%t/w0.npy --reference \
// RUN:   --print | FileCheck %s --check-prefix=WIDEN
// WIDEN: result 0: f32, shape (3, 5)
// RUN: coopvec-run %s --entry=scalar32 --arg=%t/w2.npy --reference --print \
// RUN:   | FileCheck %s --check-prefix=NARROW
// NARROW: result 0: f32, shape (1, 1)
// RUN: not coopvec-run %s --entry=widths --batch=3 --arg=%t/w1.npy \
// RUN:   --arg=%t/w1.npy --arg=%t/w2.npy --reference 2>&1 \
// RUN:   | FileCheck %s --check-prefix=LOSSY
// LOSSY: error: {{.*}}w1.npy: argument #0 (!coopvec.vec<5 : i64, f16>) expects dtype '<f2', got '<f4'

func.func @layer(%x: !coopvec.vec<3, f32>, %w: memref<?xf32>, %zero: f32) -> !coopvec.vec<5, f32> {
  %A = "coopvec.matrix_view"(%w) {offset = 0} : (memref<?xf32>) -> !coopvec.matrix<5, 3, f32, "row_major">
  %y = "coopvec.matvec"(%A, %x) : (!coopvec.matrix<5, 3, f32, "row_major">, !coopvec.vec<3, f32>) -> !coopvec.vec<5, f32>
  %r = "coopvec.max"(%y, %zero) : (!coopvec.vec<5, f32>, f32) -> !coopvec.vec<5, f32>
  %c15 = arith.constant 15 : index
  "coopvec.reduce_sum_accumulate"(%r, %w, %c15) : (!coopvec.vec<5, f32>, memref<?xf32>, index) -> ()
  return %r : !coopvec.vec<5, f32>
}

func.func @identity(%x: !coopvec.vec<5, f32>) -> !coopvec.vec<5, f32> {
  return %x : !coopvec.vec<5, f32>
}

func.func @sum(%w: memref<20xf32>) -> !coopvec.vec<1, f32> {
  %c0 = arith.constant 0 : index
  %v = "coopvec.load"(%w, %c0) : (memref<20xf32>, index) -> !coopvec.vec<1, f32>
  return %v : !coopvec.vec<1, f32>
}

func.func @widths(%h: !coopvec.vec<5, f16>, %f: !coopvec.vec<5, f32>, %d: f64) {
  return
}

func.func @scalar32(%s: f32) -> !coopvec.vec<1, f32> {
  %v = "coopvec.splat"(%s) : (f32) -> !coopvec.vec<1, f32>
  return %v : !coopvec.vec<1, f32>
}

// Integer memrefs (per-thread programs): i32 as '<i4', i8 as '|i1', read
// and written; NumPy's booleans ('|b1') feed an i8 argument; an integer
// argument takes its own width only. Each of 3 threads adds 1 to h[0] and
// m[1] (--random fills integers with 0).
// RUN: coopvec-run %s --entry=ints --batch=3 --random --reference \
// RUN:   --save-inputs=%t/i --out=%t/o --print | FileCheck %s --check-prefix=INTS
// INTS:      argument 1 (written): i32, shape (8,)
// INTS-NEXT: [0] 3 0 0 0 0 0 0 0
// INTS-NEXT: argument 2 (written): i8, shape (8,)
// INTS-NEXT: [0] 0 3 0 0 0 0 0 0
// RUN: head -c 80 %t/i1.npy | FileCheck %s --check-prefix=I32FILE
// I32FILE: 'descr': '<i4'
// RUN: head -c 80 %t/o_arg2.npy | FileCheck %s --check-prefix=I8FILE
// I8FILE: 'descr': '|i1'
// RUN: coopvec-run %s --entry=ints --batch=3 --arg=%t/i0.npy \
// RUN:   --arg=%t/o_arg1.npy --arg=%t/o_arg2.npy --reference --print \
// RUN:   | FileCheck %s --check-prefix=AGAIN
// AGAIN:      [0] 6 0 0 0 0 0 0 0
// AGAIN:      [0] 0 6 0 0 0 0 0 0
// RUN: printf "\x93NUMPY\x01\x00\x3a\x00{'descr': '|b1', 'fortran_order': False, 'shape': (8,), }\n\x01\x01\x01\x01\x01\x01\x01\x01" > %t/bool.npy
// RUN: coopvec-run %s --entry=ints --batch=3 --arg=%t/i0.npy \
// RUN:   --arg=%t/o_arg1.npy --arg=%t/bool.npy --reference --print \
// RUN:   | FileCheck %s --check-prefix=BOOL
// BOOL: argument 2 (written): i8, shape (8,)
// BOOL-NEXT: [0] 1 4 1 1 1 1 1 1
// RUN: not coopvec-run %s --entry=ints --batch=3 --arg=%t/i0.npy \
// RUN:   --arg=%t/o_arg1.npy --arg=%t/o_arg1.npy --reference 2>&1 \
// RUN:   | FileCheck %s --check-prefix=WIDTH
// WIDTH: error: {{.*}}o_arg1.npy: argument #2 (memref<8xi8>) expects dtype '|i1', got '<i4'

func.func @ints(%x: !coopvec.vec<1, f32>, %h: memref<8xi32>, %m: memref<8xi8>) -> !coopvec.vec<1, f32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one32 = arith.constant 1 : i32
  %one8 = arith.constant 1 : i8
  %a = memref.atomic_rmw addi %one32, %h[%c0] : (i32, memref<8xi32>) -> i32
  %b = memref.atomic_rmw addi %one8, %m[%c1] : (i8, memref<8xi8>) -> i8
  return %x : !coopvec.vec<1, f32>
}
