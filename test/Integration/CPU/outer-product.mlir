// outer_product_accumulate on the CPU is a register-blocked GEMM over each
// group of lanes (docs/execution-model.md, "Training ops"); these runs cover
// its edge cases against two oracles: the reference interpreter (--check)
// and, independently of it, Inputs/outer-product-sums.py, which sums the
// saved inputs in float64 (its docstring has the tolerance). Every function
// adds a_i * b_j into an M x K view of its gradient buffer and a_i into the
// elements after it (reduce_sum_accumulate, summed per call).
//
// - M and K of 1, 3, 7, 17, 33 and 127: neither a multiple of the row block
//   (6 with 16 lanes on AVX2, 12 with 8 or 3 lanes) nor of the lane
//   vector of columns the gradient tile is padded to;
// - row_major, col_major and the training layout; f32 and f16 buffers (the
//   f16 gradients are summed in f32 and rounded once);
// - batches 1, 31, 1029 and 4099: partial last groups (masked lanes), and
//   --lanes=3 (the transpose element by element, no shuffle block) and
//   --lanes=8, and --lanes=256 at 2 host threads;
// - @masked7x17: a and b are log2(x^2), -inf in the lanes past the last
//   thread: the masking must keep them out (0 * inf would be NaN).
//   @masked20x32 likewise with tiled a and b whose tiles the micro-kernel
//   reads as they are in full groups (CPUTraining.c,
//   stageMaskedUnlessAllActive) and copies masked in the last one.
// The flush after each group (a gradient buffer made inside the function,
// e.g. by a memref.cast, which the engine refuses to run: it cannot bound
// the accesses through it) runs as an --emit=obj object in
// outer-product-local.mlir.
// Each function is its own split-file piece: coopvec-run compiles the whole
// file.

// RUN: split-file %s %t
// RUN: coopvec-run %t/op1x1.mlir --entry=op1x1 --batch=1 --random --seed=1 --check | FileCheck %s --check-prefix=CHECKED
// RUN: coopvec-run %t/op1x1.mlir --entry=op1x1 --batch=31 --random --seed=2 --check --save-inputs=%t/op1x1_31_ --out=%t/op1x1_31 | FileCheck %s --check-prefix=CHECKED
// RUN: coopvec-run %t/op1x1.mlir --entry=op1x1 --batch=1029 --random --seed=3 --check | FileCheck %s --check-prefix=CHECKED
// RUN: coopvec-run %t/op1x1.mlir --entry=op1x1 --batch=4099 --random --seed=4 --check --save-inputs=%t/op1x1_4099_ --out=%t/op1x1_4099 | FileCheck %s --check-prefix=CHECKED
// RUN: coopvec-run %t/op3x7.mlir --entry=op3x7 --batch=1 --random --seed=5 --check | FileCheck %s --check-prefix=CHECKED
// RUN: coopvec-run %t/op3x7.mlir --entry=op3x7 --batch=31 --random --seed=6 --check --save-inputs=%t/op3x7_31_ --out=%t/op3x7_31 | FileCheck %s --check-prefix=CHECKED
// RUN: coopvec-run %t/op3x7.mlir --entry=op3x7 --batch=1029 --random --seed=7 --check | FileCheck %s --check-prefix=CHECKED
// RUN: coopvec-run %t/op3x7.mlir --entry=op3x7 --batch=4099 --random --seed=8 --check --save-inputs=%t/op3x7_4099_ --out=%t/op3x7_4099 | FileCheck %s --check-prefix=CHECKED
// RUN: coopvec-run %t/op17x33.mlir --entry=op17x33 --batch=1 --random --seed=9 --check | FileCheck %s --check-prefix=CHECKED
// RUN: coopvec-run %t/op17x33.mlir --entry=op17x33 --batch=31 --random --seed=10 --check --save-inputs=%t/op17x33_31_ --out=%t/op17x33_31 | FileCheck %s --check-prefix=CHECKED
// RUN: coopvec-run %t/op17x33.mlir --entry=op17x33 --batch=1029 --random --seed=11 --check | FileCheck %s --check-prefix=CHECKED
// RUN: coopvec-run %t/op17x33.mlir --entry=op17x33 --batch=4099 --random --seed=12 --check --save-inputs=%t/op17x33_4099_ --out=%t/op17x33_4099 | FileCheck %s --check-prefix=CHECKED
// RUN: coopvec-run %t/op17x33.mlir --entry=op17x33 --batch=1029 --random --seed=13 --lanes=3 --check --save-inputs=%t/op17x33_1029_l3_ --out=%t/op17x33_1029_l3 | FileCheck %s --check-prefix=CHECKED
// RUN: coopvec-run %t/op17x33.mlir --entry=op17x33 --batch=1029 --random --seed=14 --lanes=8 --check --save-inputs=%t/op17x33_1029_l8_ --out=%t/op17x33_1029_l8 | FileCheck %s --check-prefix=CHECKED
// RUN: coopvec-run %t/op33x127.mlir --entry=op33x127 --batch=1 --random --seed=15 --check | FileCheck %s --check-prefix=CHECKED
// RUN: coopvec-run %t/op33x127.mlir --entry=op33x127 --batch=31 --random --seed=16 --check --save-inputs=%t/op33x127_31_ --out=%t/op33x127_31 | FileCheck %s --check-prefix=CHECKED
// RUN: coopvec-run %t/op33x127.mlir --entry=op33x127 --batch=1029 --random --seed=17 --check | FileCheck %s --check-prefix=CHECKED
// RUN: coopvec-run %t/op33x127.mlir --entry=op33x127 --batch=4099 --random --seed=18 --check --save-inputs=%t/op33x127_4099_ --out=%t/op33x127_4099 | FileCheck %s --check-prefix=CHECKED
// RUN: coopvec-run %t/op127x3.mlir --entry=op127x3 --batch=1 --random --seed=19 --check | FileCheck %s --check-prefix=CHECKED
// RUN: coopvec-run %t/op127x3.mlir --entry=op127x3 --batch=31 --random --seed=20 --check --save-inputs=%t/op127x3_31_ --out=%t/op127x3_31 | FileCheck %s --check-prefix=CHECKED
// RUN: coopvec-run %t/op127x3.mlir --entry=op127x3 --batch=1029 --random --seed=21 --check | FileCheck %s --check-prefix=CHECKED
// RUN: coopvec-run %t/op127x3.mlir --entry=op127x3 --batch=4099 --random --seed=22 --check --save-inputs=%t/op127x3_4099_ --out=%t/op127x3_4099 | FileCheck %s --check-prefix=CHECKED
// RUN: coopvec-run %t/op127x3.mlir --entry=op127x3 --batch=1029 --random --seed=23 --lanes=3 --check --save-inputs=%t/op127x3_1029_l3_ --out=%t/op127x3_1029_l3 | FileCheck %s --check-prefix=CHECKED
// RUN: coopvec-run %t/op127x3.mlir --entry=op127x3 --batch=1029 --random --seed=24 --lanes=8 --check --save-inputs=%t/op127x3_1029_l8_ --out=%t/op127x3_1029_l8 | FileCheck %s --check-prefix=CHECKED
// RUN: coopvec-run %t/op7x17h.mlir --entry=op7x17h --batch=1 --random --seed=25 --check | FileCheck %s --check-prefix=CHECKED
// RUN: coopvec-run %t/op7x17h.mlir --entry=op7x17h --batch=31 --random --seed=26 --check --save-inputs=%t/op7x17h_31_ --out=%t/op7x17h_31 | FileCheck %s --check-prefix=CHECKED
// RUN: coopvec-run %t/op7x17h.mlir --entry=op7x17h --batch=1029 --random --seed=27 --check | FileCheck %s --check-prefix=CHECKED
// RUN: coopvec-run %t/op7x17h.mlir --entry=op7x17h --batch=4099 --random --seed=28 --check --save-inputs=%t/op7x17h_4099_ --out=%t/op7x17h_4099 | FileCheck %s --check-prefix=CHECKED
// RUN: coopvec-run %t/op7x17h.mlir --entry=op7x17h --batch=1029 --random --seed=29 --lanes=3 --check --save-inputs=%t/op7x17h_1029_l3_ --out=%t/op7x17h_1029_l3 | FileCheck %s --check-prefix=CHECKED
// RUN: coopvec-run %t/op7x17h.mlir --entry=op7x17h --batch=1029 --random --seed=30 --lanes=8 --check --save-inputs=%t/op7x17h_1029_l8_ --out=%t/op7x17h_1029_l8 | FileCheck %s --check-prefix=CHECKED
// RUN: coopvec-run %t/op33x3h.mlir --entry=op33x3h --batch=1 --random --seed=31 --check | FileCheck %s --check-prefix=CHECKED
// RUN: coopvec-run %t/op33x3h.mlir --entry=op33x3h --batch=31 --random --seed=32 --check --save-inputs=%t/op33x3h_31_ --out=%t/op33x3h_31 | FileCheck %s --check-prefix=CHECKED
// RUN: coopvec-run %t/op33x3h.mlir --entry=op33x3h --batch=1029 --random --seed=33 --check | FileCheck %s --check-prefix=CHECKED
// RUN: coopvec-run %t/op33x3h.mlir --entry=op33x3h --batch=4099 --random --seed=34 --check --save-inputs=%t/op33x3h_4099_ --out=%t/op33x3h_4099 | FileCheck %s --check-prefix=CHECKED
// RUN: coopvec-run %t/masked7x17.mlir --entry=masked7x17 --batch=31 --random --seed=35 --check --save-inputs=%t/masked7x17_31_ --out=%t/masked7x17_31 | FileCheck %s --check-prefix=CHECKED
// RUN: coopvec-run %t/masked7x17.mlir --entry=masked7x17 --batch=31 --random --seed=36 --lanes=3 --check --save-inputs=%t/masked7x17_31_l3_ --out=%t/masked7x17_31_l3 | FileCheck %s --check-prefix=CHECKED
// RUN: coopvec-run %t/masked7x17.mlir --entry=masked7x17 --batch=1029 --random --seed=37 --check --save-inputs=%t/masked7x17_1029_ --out=%t/masked7x17_1029 | FileCheck %s --check-prefix=CHECKED
// RUN: coopvec-run %t/masked7x17.mlir --entry=masked7x17 --batch=1029 --random --seed=38 --lanes=3 --check --save-inputs=%t/masked7x17_1029_l3_ --out=%t/masked7x17_1029_l3 | FileCheck %s --check-prefix=CHECKED
// RUN: coopvec-run %t/masked20x32.mlir --entry=masked20x32 --batch=31 --random --seed=39 --check --save-inputs=%t/masked20x32_31_ --out=%t/masked20x32_31 | FileCheck %s --check-prefix=CHECKED
// RUN: coopvec-run %t/masked20x32.mlir --entry=masked20x32 --batch=1029 --random --seed=40 --lanes=8 --check --save-inputs=%t/masked20x32_1029_l8_ --out=%t/masked20x32_1029_l8 | FileCheck %s --check-prefix=CHECKED
// The most lanes (256: the tiles of 33 x 127 are padded to 256 columns,
// 578 KiB of stack tiles) on 2 host threads: options of the CPU target.
// Not in the sanitizer build: LLVM compiles these 256-lane vectors for 80 s
// there (19 s in a release build), and the code it compiles, which is what
// this run checks, is not instrumented (CI time, docs/testing.md).
// RUN: %if !coopvec-run-target && !asan %{ coopvec-run %t/op33x127.mlir --entry=op33x127 --batch=4099 --random --seed=90 --lanes=256 --threads=2 --check --save-inputs=%t/op33x127_4099_l256_ --out=%t/op33x127_4099_l256 | FileCheck %s --check-prefix=CHECKED %}
// RUN: %if python-numpy && !coopvec-run-target && !asan %{ %python %S/Inputs/outer-product-sums.py 33 127 0 row_major %t/op33x127_4099_l256_0.npy %t/op33x127_4099_l256_1.npy %t/op33x127_4099_l256_2.npy %t/op33x127_4099_l256_arg2.npy --sum-at=4191 | FileCheck %s --check-prefix=ORACLE %}
// RUN: %if python-numpy %{ %python %S/Inputs/outer-product-sums.py 1 1 0 row_major %t/op1x1_31_0.npy %t/op1x1_31_1.npy %t/op1x1_31_2.npy %t/op1x1_31_arg2.npy --sum-at=1 | FileCheck %s --check-prefix=ORACLE %}
// RUN: %if python-numpy %{ %python %S/Inputs/outer-product-sums.py 1 1 0 row_major %t/op1x1_4099_0.npy %t/op1x1_4099_1.npy %t/op1x1_4099_2.npy %t/op1x1_4099_arg2.npy --sum-at=1 | FileCheck %s --check-prefix=ORACLE %}
// RUN: %if python-numpy %{ %python %S/Inputs/outer-product-sums.py 3 7 4 row_major %t/op3x7_31_0.npy %t/op3x7_31_1.npy %t/op3x7_31_2.npy %t/op3x7_31_arg2.npy --sum-at=25 | FileCheck %s --check-prefix=ORACLE %}
// RUN: %if python-numpy %{ %python %S/Inputs/outer-product-sums.py 3 7 4 row_major %t/op3x7_4099_0.npy %t/op3x7_4099_1.npy %t/op3x7_4099_2.npy %t/op3x7_4099_arg2.npy --sum-at=25 | FileCheck %s --check-prefix=ORACLE %}
// RUN: %if python-numpy %{ %python %S/Inputs/outer-product-sums.py 17 33 16 col_major %t/op17x33_31_0.npy %t/op17x33_31_1.npy %t/op17x33_31_2.npy %t/op17x33_31_arg2.npy --sum-at=577 | FileCheck %s --check-prefix=ORACLE %}
// RUN: %if python-numpy %{ %python %S/Inputs/outer-product-sums.py 17 33 16 col_major %t/op17x33_4099_0.npy %t/op17x33_4099_1.npy %t/op17x33_4099_2.npy %t/op17x33_4099_arg2.npy --sum-at=577 | FileCheck %s --check-prefix=ORACLE %}
// RUN: %if python-numpy %{ %python %S/Inputs/outer-product-sums.py 17 33 16 col_major %t/op17x33_1029_l3_0.npy %t/op17x33_1029_l3_1.npy %t/op17x33_1029_l3_2.npy %t/op17x33_1029_l3_arg2.npy --sum-at=577 | FileCheck %s --check-prefix=ORACLE %}
// RUN: %if python-numpy %{ %python %S/Inputs/outer-product-sums.py 17 33 16 col_major %t/op17x33_1029_l8_0.npy %t/op17x33_1029_l8_1.npy %t/op17x33_1029_l8_2.npy %t/op17x33_1029_l8_arg2.npy --sum-at=577 | FileCheck %s --check-prefix=ORACLE %}
// RUN: %if python-numpy %{ %python %S/Inputs/outer-product-sums.py 33 127 0 row_major %t/op33x127_31_0.npy %t/op33x127_31_1.npy %t/op33x127_31_2.npy %t/op33x127_31_arg2.npy --sum-at=4191 | FileCheck %s --check-prefix=ORACLE %}
// RUN: %if python-numpy %{ %python %S/Inputs/outer-product-sums.py 33 127 0 row_major %t/op33x127_4099_0.npy %t/op33x127_4099_1.npy %t/op33x127_4099_2.npy %t/op33x127_4099_arg2.npy --sum-at=4191 | FileCheck %s --check-prefix=ORACLE %}
// RUN: %if python-numpy %{ %python %S/Inputs/outer-product-sums.py 127 3 4 col_major %t/op127x3_31_0.npy %t/op127x3_31_1.npy %t/op127x3_31_2.npy %t/op127x3_31_arg2.npy --sum-at=385 | FileCheck %s --check-prefix=ORACLE %}
// RUN: %if python-numpy %{ %python %S/Inputs/outer-product-sums.py 127 3 4 col_major %t/op127x3_4099_0.npy %t/op127x3_4099_1.npy %t/op127x3_4099_2.npy %t/op127x3_4099_arg2.npy --sum-at=385 | FileCheck %s --check-prefix=ORACLE %}
// RUN: %if python-numpy %{ %python %S/Inputs/outer-product-sums.py 127 3 4 col_major %t/op127x3_1029_l3_0.npy %t/op127x3_1029_l3_1.npy %t/op127x3_1029_l3_2.npy %t/op127x3_1029_l3_arg2.npy --sum-at=385 | FileCheck %s --check-prefix=ORACLE %}
// RUN: %if python-numpy %{ %python %S/Inputs/outer-product-sums.py 127 3 4 col_major %t/op127x3_1029_l8_0.npy %t/op127x3_1029_l8_1.npy %t/op127x3_1029_l8_2.npy %t/op127x3_1029_l8_arg2.npy --sum-at=385 | FileCheck %s --check-prefix=ORACLE %}
// RUN: %if python-numpy %{ %python %S/Inputs/outer-product-sums.py 7 17 8 row_major %t/op7x17h_31_0.npy %t/op7x17h_31_1.npy %t/op7x17h_31_2.npy %t/op7x17h_31_arg2.npy --sum-at=127 | FileCheck %s --check-prefix=ORACLE %}
// RUN: %if python-numpy %{ %python %S/Inputs/outer-product-sums.py 7 17 8 row_major %t/op7x17h_4099_0.npy %t/op7x17h_4099_1.npy %t/op7x17h_4099_2.npy %t/op7x17h_4099_arg2.npy --sum-at=127 | FileCheck %s --check-prefix=ORACLE %}
// RUN: %if python-numpy %{ %python %S/Inputs/outer-product-sums.py 7 17 8 row_major %t/op7x17h_1029_l3_0.npy %t/op7x17h_1029_l3_1.npy %t/op7x17h_1029_l3_2.npy %t/op7x17h_1029_l3_arg2.npy --sum-at=127 | FileCheck %s --check-prefix=ORACLE %}
// RUN: %if python-numpy %{ %python %S/Inputs/outer-product-sums.py 7 17 8 row_major %t/op7x17h_1029_l8_0.npy %t/op7x17h_1029_l8_1.npy %t/op7x17h_1029_l8_2.npy %t/op7x17h_1029_l8_arg2.npy --sum-at=127 | FileCheck %s --check-prefix=ORACLE %}
// RUN: %if python-numpy %{ %python %S/Inputs/outer-product-sums.py 33 3 0 training %t/op33x3h_31_0.npy %t/op33x3h_31_1.npy %t/op33x3h_31_2.npy %t/op33x3h_31_arg2.npy --sum-at=99 | FileCheck %s --check-prefix=ORACLE %}
// RUN: %if python-numpy %{ %python %S/Inputs/outer-product-sums.py 33 3 0 training %t/op33x3h_4099_0.npy %t/op33x3h_4099_1.npy %t/op33x3h_4099_2.npy %t/op33x3h_4099_arg2.npy --sum-at=99 | FileCheck %s --check-prefix=ORACLE %}
// RUN: %if python-numpy %{ %python %S/Inputs/outer-product-sums.py 7 17 0 row_major %t/masked7x17_31_0.npy %t/masked7x17_31_1.npy %t/masked7x17_31_2.npy %t/masked7x17_31_arg2.npy --sum-at=119 --log2-squares | FileCheck %s --check-prefix=ORACLE %}
// RUN: %if python-numpy %{ %python %S/Inputs/outer-product-sums.py 7 17 0 row_major %t/masked7x17_31_l3_0.npy %t/masked7x17_31_l3_1.npy %t/masked7x17_31_l3_2.npy %t/masked7x17_31_l3_arg2.npy --sum-at=119 --log2-squares | FileCheck %s --check-prefix=ORACLE %}
// RUN: %if python-numpy %{ %python %S/Inputs/outer-product-sums.py 7 17 0 row_major %t/masked7x17_1029_0.npy %t/masked7x17_1029_1.npy %t/masked7x17_1029_2.npy %t/masked7x17_1029_arg2.npy --sum-at=119 --log2-squares | FileCheck %s --check-prefix=ORACLE %}
// RUN: %if python-numpy %{ %python %S/Inputs/outer-product-sums.py 7 17 0 row_major %t/masked7x17_1029_l3_0.npy %t/masked7x17_1029_l3_1.npy %t/masked7x17_1029_l3_2.npy %t/masked7x17_1029_l3_arg2.npy --sum-at=119 --log2-squares | FileCheck %s --check-prefix=ORACLE %}
// RUN: %if python-numpy %{ %python %S/Inputs/outer-product-sums.py 20 32 0 row_major %t/masked20x32_31_0.npy %t/masked20x32_31_1.npy %t/masked20x32_31_2.npy %t/masked20x32_31_arg2.npy --sum-at=640 --log2-squares | FileCheck %s --check-prefix=ORACLE %}
// RUN: %if python-numpy %{ %python %S/Inputs/outer-product-sums.py 20 32 0 row_major %t/masked20x32_1029_l8_0.npy %t/masked20x32_1029_l8_1.npy %t/masked20x32_1029_l8_2.npy %t/masked20x32_1029_l8_arg2.npy --sum-at=640 --log2-squares | FileCheck %s --check-prefix=ORACLE %}

// CHECKED: argument 2 (written): max abs error {{.*}}: PASS
// CHECKED-NEXT: {{^PASS$}}
// ORACLE: threads, {{[0-9]+}}x{{[0-9]+}} float{{16|32}}: worst error {{.*}} of the tolerance, untouched elements kept
// ORACLE-NEXT: {{^PASS$}}

//--- op1x1.mlir
func.func @op1x1(%a: !coopvec.vec<1, f32>, %b: !coopvec.vec<1, f32>, %g: memref<?xf32>) {
  %c1 = arith.constant 1 : index
  %G = "coopvec.matrix_view"(%g) {offset = 0} : (memref<?xf32>) -> !coopvec.matrix<1, 1, f32, "row_major">
  "coopvec.outer_product_accumulate"(%a, %b, %G) : (!coopvec.vec<1, f32>, !coopvec.vec<1, f32>, !coopvec.matrix<1, 1, f32, "row_major">) -> ()
  "coopvec.reduce_sum_accumulate"(%a, %g, %c1) : (!coopvec.vec<1, f32>, memref<?xf32>, index) -> ()
  return
}

//--- op3x7.mlir
func.func @op3x7(%a: !coopvec.vec<3, f32>, %b: !coopvec.vec<7, f32>, %g: memref<?xf32>) {
  %c25 = arith.constant 25 : index
  %G = "coopvec.matrix_view"(%g) {offset = 16} : (memref<?xf32>) -> !coopvec.matrix<3, 7, f32, "row_major">
  "coopvec.outer_product_accumulate"(%a, %b, %G) : (!coopvec.vec<3, f32>, !coopvec.vec<7, f32>, !coopvec.matrix<3, 7, f32, "row_major">) -> ()
  "coopvec.reduce_sum_accumulate"(%a, %g, %c25) : (!coopvec.vec<3, f32>, memref<?xf32>, index) -> ()
  return
}

//--- op17x33.mlir
func.func @op17x33(%a: !coopvec.vec<17, f32>, %b: !coopvec.vec<33, f32>, %g: memref<?xf32>) {
  %c577 = arith.constant 577 : index
  %G = "coopvec.matrix_view"(%g) {offset = 64} : (memref<?xf32>) -> !coopvec.matrix<17, 33, f32, "col_major">
  "coopvec.outer_product_accumulate"(%a, %b, %G) : (!coopvec.vec<17, f32>, !coopvec.vec<33, f32>, !coopvec.matrix<17, 33, f32, "col_major">) -> ()
  "coopvec.reduce_sum_accumulate"(%a, %g, %c577) : (!coopvec.vec<17, f32>, memref<?xf32>, index) -> ()
  return
}

//--- op33x127.mlir
func.func @op33x127(%a: !coopvec.vec<33, f32>, %b: !coopvec.vec<127, f32>, %g: memref<?xf32>) {
  %c4191 = arith.constant 4191 : index
  %G = "coopvec.matrix_view"(%g) {offset = 0} : (memref<?xf32>) -> !coopvec.matrix<33, 127, f32, "row_major">
  "coopvec.outer_product_accumulate"(%a, %b, %G) : (!coopvec.vec<33, f32>, !coopvec.vec<127, f32>, !coopvec.matrix<33, 127, f32, "row_major">) -> ()
  "coopvec.reduce_sum_accumulate"(%a, %g, %c4191) : (!coopvec.vec<33, f32>, memref<?xf32>, index) -> ()
  return
}

//--- op127x3.mlir
func.func @op127x3(%a: !coopvec.vec<127, f32>, %b: !coopvec.vec<3, f32>, %g: memref<?xf32>) {
  %c385 = arith.constant 385 : index
  %G = "coopvec.matrix_view"(%g) {offset = 16} : (memref<?xf32>) -> !coopvec.matrix<127, 3, f32, "col_major">
  "coopvec.outer_product_accumulate"(%a, %b, %G) : (!coopvec.vec<127, f32>, !coopvec.vec<3, f32>, !coopvec.matrix<127, 3, f32, "col_major">) -> ()
  "coopvec.reduce_sum_accumulate"(%a, %g, %c385) : (!coopvec.vec<127, f32>, memref<?xf32>, index) -> ()
  return
}

//--- op7x17h.mlir
func.func @op7x17h(%a: !coopvec.vec<7, f16>, %b: !coopvec.vec<17, f16>, %g: memref<?xf16>) {
  %c127 = arith.constant 127 : index
  %G = "coopvec.matrix_view"(%g) {offset = 16} : (memref<?xf16>) -> !coopvec.matrix<7, 17, f16, "row_major">
  "coopvec.outer_product_accumulate"(%a, %b, %G) : (!coopvec.vec<7, f16>, !coopvec.vec<17, f16>, !coopvec.matrix<7, 17, f16, "row_major">) -> ()
  "coopvec.reduce_sum_accumulate"(%a, %g, %c127) : (!coopvec.vec<7, f16>, memref<?xf16>, index) -> ()
  return
}

//--- op33x3h.mlir
func.func @op33x3h(%a: !coopvec.vec<33, f16>, %b: !coopvec.vec<3, f16>, %g: memref<?xf16>) {
  %c99 = arith.constant 99 : index
  %G = "coopvec.matrix_view"(%g) {offset = 0} : (memref<?xf16>) -> !coopvec.matrix<33, 3, f16, "training">
  "coopvec.outer_product_accumulate"(%a, %b, %G) : (!coopvec.vec<33, f16>, !coopvec.vec<3, f16>, !coopvec.matrix<33, 3, f16, "training">) -> ()
  "coopvec.reduce_sum_accumulate"(%a, %g, %c99) : (!coopvec.vec<33, f16>, memref<?xf16>, index) -> ()
  return
}

//--- masked7x17.mlir
func.func @masked7x17(%x: !coopvec.vec<7, f32>, %y: !coopvec.vec<17, f32>, %g: memref<?xf32>) {
  %c119 = arith.constant 119 : index
  %xx = "coopvec.mul"(%x, %x) : (!coopvec.vec<7, f32>, !coopvec.vec<7, f32>) -> !coopvec.vec<7, f32>
  %a = "coopvec.log2"(%xx) : (!coopvec.vec<7, f32>) -> !coopvec.vec<7, f32>
  %yy = "coopvec.mul"(%y, %y) : (!coopvec.vec<17, f32>, !coopvec.vec<17, f32>) -> !coopvec.vec<17, f32>
  %b = "coopvec.log2"(%yy) : (!coopvec.vec<17, f32>) -> !coopvec.vec<17, f32>
  %G = "coopvec.matrix_view"(%g) {offset = 0} : (memref<?xf32>) -> !coopvec.matrix<7, 17, f32, "row_major">
  "coopvec.outer_product_accumulate"(%a, %b, %G) : (!coopvec.vec<7, f32>, !coopvec.vec<17, f32>, !coopvec.matrix<7, 17, f32, "row_major">) -> ()
  "coopvec.reduce_sum_accumulate"(%a, %g, %c119) : (!coopvec.vec<7, f32>, memref<?xf32>, index) -> ()
  return
}

//--- masked20x32.mlir
func.func @masked20x32(%x: !coopvec.vec<20, f32>, %y: !coopvec.vec<32, f32>, %g: memref<?xf32>) {
  %c640 = arith.constant 640 : index
  %xx = "coopvec.mul"(%x, %x) : (!coopvec.vec<20, f32>, !coopvec.vec<20, f32>) -> !coopvec.vec<20, f32>
  %a = "coopvec.log2"(%xx) : (!coopvec.vec<20, f32>) -> !coopvec.vec<20, f32>
  %yy = "coopvec.mul"(%y, %y) : (!coopvec.vec<32, f32>, !coopvec.vec<32, f32>) -> !coopvec.vec<32, f32>
  %b = "coopvec.log2"(%yy) : (!coopvec.vec<32, f32>) -> !coopvec.vec<32, f32>
  %G = "coopvec.matrix_view"(%g) {offset = 0} : (memref<?xf32>) -> !coopvec.matrix<20, 32, f32, "row_major">
  "coopvec.outer_product_accumulate"(%a, %b, %G) : (!coopvec.vec<20, f32>, !coopvec.vec<32, f32>, !coopvec.matrix<20, 32, f32, "row_major">) -> ()
  "coopvec.reduce_sum_accumulate"(%a, %g, %c640) : (!coopvec.vec<20, f32>, memref<?xf32>, index) -> ()
  return
}
