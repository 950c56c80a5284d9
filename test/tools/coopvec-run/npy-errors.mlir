// Bad .npy inputs get one clear error naming the file, and exit code 1.
// The files are written with printf: no NumPy needed.

// RUN: rm -rf %t && mkdir %t
// RUN: coopvec-run %s --entry=scale --batch=2 --random --reference \
// RUN:   --save-inputs=%t/good
// RUN: coopvec-run %s --entry=scale --batch=2 --arg=%t/good0.npy \
// RUN:   --arg=%t/good1.npy --reference --print \
// RUN:   | FileCheck %s --check-prefix=GOOD
// GOOD: result 0: f32, shape (2, 3)

// RUN: printf 'NOTNUMPY' > %t/magic.npy
// RUN: not coopvec-run %s --entry=scale --batch=2 --arg=%t/magic.npy \
// RUN:   --arg=%t/good1.npy 2>&1 | FileCheck %s --check-prefix=MAGIC
// MAGIC: coopvec-run: error: {{.*}}magic.npy: not a .npy file (bad magic string)

// RUN: printf "\x93NUMPY\x01\x00\x3c\x00{'descr': '>f4', 'fortran_order': False, 'shape': (2, 3), }\n%%024d" 0 > %t/big.npy
// RUN: not coopvec-run %s --entry=scale --batch=2 --arg=%t/big.npy \
// RUN:   --arg=%t/good1.npy 2>&1 | FileCheck %s --check-prefix=BIG
// BIG: coopvec-run: error: {{.*}}big.npy: unsupported dtype '>f4': big-endian data is not supported

// RUN: printf "\x93NUMPY\x01\x00\x3c\x00{'descr': '<u4', 'fortran_order': False, 'shape': (2, 3), }\n%%024d" 0 > %t/u4.npy
// RUN: not coopvec-run %s --entry=scale --batch=2 --arg=%t/u4.npy \
// RUN:   --arg=%t/good1.npy 2>&1 | FileCheck %s --check-prefix=U4
// U4: coopvec-run: error: {{.*}}u4.npy: unsupported dtype '<u4' (supported: '<f2', '<f4', '<f8', '<i8', '<i4', '|i1', '|b1')

// RUN: printf "\x93NUMPY\x01\x00\x3b\x00{'descr': '<f4', 'fortran_order': True, 'shape': (2, 3), }\n%%024d" 0 > %t/fortran.npy
// RUN: not coopvec-run %s --entry=scale --batch=2 --arg=%t/fortran.npy \
// RUN:   --arg=%t/good1.npy 2>&1 | FileCheck %s --check-prefix=FORTRAN
// FORTRAN: coopvec-run: error: {{.*}}fortran.npy: fortran_order arrays are not supported (save the array in C order)

// RUN: printf "\x93NUMPY\x01\x00\x3c\x00{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }\n%%020d" 0 > %t/short.npy
// RUN: not coopvec-run %s --entry=scale --batch=2 --arg=%t/short.npy \
// RUN:   --arg=%t/good1.npy 2>&1 | FileCheck %s --check-prefix=SHORT
// SHORT: coopvec-run: error: {{.*}}short.npy: truncated data: expected 24 bytes, found 20

// RUN: printf "\x93NUMPY\x01\x00\x3c\x00{'descr': '<f4', 'fortran_order': False, 'shape': (2, 4), }\n%%032d" 0 > %t/shape.npy
// RUN: not coopvec-run %s --entry=scale --batch=2 --arg=%t/shape.npy \
// RUN:   --arg=%t/good1.npy 2>&1 | FileCheck %s --check-prefix=SHAPE
// SHAPE: coopvec-run: error: {{.*}}shape.npy: argument #0 (!coopvec.vec<3 : i64, f32>) expects shape (2, 3), got (2, 4)

// The batch is part of the shape.
// RUN: not coopvec-run %s --entry=scale --batch=3 --arg=%t/good0.npy \
// RUN:   --arg=%t/good1.npy 2>&1 | FileCheck %s --check-prefix=BATCH
// BATCH: coopvec-run: error: {{.*}}good0.npy: argument #0 (!coopvec.vec<3 : i64, f32>) expects shape (3, 3), got (2, 3)

// RUN: printf "\x93NUMPY\x01\x00\x3c\x00{'descr': '<i8', 'fortran_order': False, 'shape': (2, 3), }\n%%048d" 0 > %t/int.npy
// RUN: not coopvec-run %s --entry=scale --batch=2 --arg=%t/int.npy \
// RUN:   --arg=%t/good1.npy 2>&1 | FileCheck %s --check-prefix=DTYPE
// DTYPE: coopvec-run: error: {{.*}}int.npy: argument #0 (!coopvec.vec<3 : i64, f32>) expects dtype '<f4', got '<i8'

// A scalar takes a 0-d or one-element array.
// RUN: printf "\x93NUMPY\x01\x00\x3a\x00{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }\n%%08d" 0 > %t/two.npy
// RUN: not coopvec-run %s --entry=scale --batch=2 --arg=%t/good0.npy \
// RUN:   --arg=%t/two.npy 2>&1 | FileCheck %s --check-prefix=SCALAR
// SCALAR: coopvec-run: error: {{.*}}two.npy: argument #1 (f32) expects shape () or (1,), got (2,)

// RUN: not coopvec-run %s --entry=scale --batch=2 --arg=%t/none.npy \
// RUN:   --arg=%t/good1.npy 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: coopvec-run: error: {{.*}}none.npy: cannot open: No such file or directory

// RUN: not coopvec-run %s --entry=scale --batch=2 --arg=%t/good0.npy 2>&1 \
// RUN:   | FileCheck %s --check-prefix=COUNT
// COUNT: coopvec-run: error: @scale takes 2 argument(s), got 1 --arg file(s) (or use --random)

func.func @scale(%x: !coopvec.vec<3, f32>, %s: f32) -> !coopvec.vec<3, f32> {
  %y = "coopvec.mul"(%x, %s) : (!coopvec.vec<3, f32>, f32) -> !coopvec.vec<3, f32>
  return %y : !coopvec.vec<3, f32>
}
