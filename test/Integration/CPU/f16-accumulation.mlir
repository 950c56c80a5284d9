// f16 gradients are summed in f32 over the threads of a run and rounded to
// f16 once (docs/dialect.md, "f16 accumulation"). The execution engine runs
// the lowered code on an f32 shadow of each f16 buffer that is only
// accumulated into and adds it to the f16 buffer once after the run
// (docs/execution-engine.md, "f16 gradients"). Without it, the atomic adds
// of per-subgroup (GPU) or per-lane-group (CPU) partial sums rounded the
// buffer each time: 65537 threads adding 1/64 stopped at 256 on Vulkan and
// 512 on the CPU instead of 1024, once 1/8 or 1/4 was half an f16 ulp of
// the sum. The expected values are exact (batch / 64 and products of powers
// of two, rounded once), the same for the interpreter (--reference) and
// every target (vulkan.test and cuda.test rerun this file there).
//
// The gradient buffers start at -0.0 (written with printf: a version 1.0
// .npy header of 0x80 bytes, then f16 bits 0x8000): an element no thread
// adds to keeps its -0.0, which a shadow starting at +0.0 would lose.

// RUN: split-file %s %t
// RUN: printf "\x93NUMPY\x01\x00\x76\x00%%-117s\n" "{'descr': '<f2', 'fortran_order': False, 'shape': (5,), }" > %t/g5.npy
// RUN: printf '\x00\x80\x00\x80\x00\x80\x00\x80\x00\x80' >> %t/g5.npy
// RUN: printf "\x93NUMPY\x01\x00\x76\x00%%-117s\n" "{'descr': '<f2', 'fortran_order': False, 'shape': (40,), }" > %t/g40.npy
// RUN: printf '\x00\x80\x00\x80\x00\x80\x00\x80\x00\x80\x00\x80\x00\x80\x00\x80\x00\x80\x00\x80\x00\x80\x00\x80\x00\x80\x00\x80\x00\x80\x00\x80\x00\x80\x00\x80\x00\x80\x00\x80\x00\x80\x00\x80\x00\x80\x00\x80\x00\x80\x00\x80\x00\x80\x00\x80\x00\x80\x00\x80\x00\x80\x00\x80\x00\x80\x00\x80\x00\x80\x00\x80\x00\x80\x00\x80\x00\x80\x00\x80' >> %t/g40.npy

// reduce_sum_accumulate of (1/64, 1/64, -0.0) at element 1 of 5: elements
// 1 and 2 get batch / 64; element 3 gets only -0.0 from every thread (its
// sign is not checked: the CPU lowering masks the lanes past the last
// thread with +0.0 and Vulkan gives +0 too; --check counts them equal);
// elements 0 and 4 are not accessed.
// RUN: coopvec-run %t/acc16.mlir --entry=acc16 --batch=1 --arg=%t/g5.npy --print | FileCheck %s --check-prefix=B1
// RUN: coopvec-run %t/acc16.mlir --entry=acc16 --batch=31 --arg=%t/g5.npy --print | FileCheck %s --check-prefix=B31
// RUN: coopvec-run %t/acc16.mlir --entry=acc16 --batch=65537 --arg=%t/g5.npy --print | FileCheck %s --check-prefix=B65537
// RUN: coopvec-run %t/acc16.mlir --entry=acc16 --batch=131072 --arg=%t/g5.npy --print | FileCheck %s --check-prefix=B131072
// RUN: coopvec-run %t/acc16.mlir --entry=acc16 --batch=65537 --arg=%t/g5.npy --reference --print | FileCheck %s --check-prefix=B65537
// RUN: coopvec-run %t/acc16.mlir --entry=acc16 --batch=131072 --arg=%t/g5.npy --reference --print | FileCheck %s --check-prefix=B131072
// RUN: coopvec-run %t/acc16.mlir --entry=acc16 --batch=65537 --arg=%t/g5.npy --check | FileCheck %s --check-prefix=CHECKED
// On the CPU, the sum does not depend on the host threads (one rounding
// per run, after all of them).
// RUN: %if !coopvec-run-target %{ coopvec-run %t/acc16.mlir --entry=acc16 --batch=131072 --arg=%t/g5.npy --threads=3 --print | FileCheck %s --check-prefix=B131072 %}
// RUN: %if !coopvec-run-target %{ coopvec-run %t/acc16.mlir --entry=acc16 --batch=131072 --arg=%t/g5.npy --threads=1 --print | FileCheck %s --check-prefix=B131072 %}
// On Vulkan from this suite too (vulkan.test reruns all of it there).
// RUN: %if vulkan && !coopvec-run-target %{ coopvec-run %t/acc16.mlir --entry=acc16 --batch=65537 --arg=%t/g5.npy --print --target=vulkan | FileCheck %s --check-prefix=B65537 %}
// RUN: %if vulkan && !coopvec-run-target %{ coopvec-run %t/acc16.mlir --entry=acc16 --batch=131072 --arg=%t/g5.npy --print --target=vulkan | FileCheck %s --check-prefix=B131072 %}
// B1:      argument 0 (written): f16, shape (5,)
// B1-NEXT: [0] -0 0.015625 0.015625 {{-?0}} -0{{$}}
// B31:      argument 0 (written): f16, shape (5,)
// B31-NEXT: [0] -0 0.48438 0.48438 {{-?0}} -0{{$}}
// B65537:      argument 0 (written): f16, shape (5,)
// B65537-NEXT: [0] -0 1024 1024 {{-?0}} -0{{$}}
// B131072:      argument 0 (written): f16, shape (5,)
// B131072-NEXT: [0] -0 2048 2048 {{-?0}} -0{{$}}
// CHECKED: argument 0 (written): max abs error 0, max rel error 0
// CHECKED: {{^PASS$}}

// Two oracles of random f16 vecs (uniform in [-1, 1)) summed into a random
// f16 buffer. The interpreter (--check) sums in double and rounds once;
// rtol 1/1000 is one to two f16 ulps (an ulp is 2^-11 to 2^-10 of a value).
// Independently of it, Inputs/f16-sums.py sums the saved inputs in float64
// (exact here) and rounds once with NumPy: the target may differ by 1 ulp
// (its f32 sum can cross an f16 rounding boundary); none did on the CPU or
// lavapipe. Before the shadows, rounded per lane group (CPU) or subgroup
// (Vulkan), these sums were off by up to 166 / 90 ulps (CPU / Vulkan) at
// 31 threads, 369 / 159 at 65537 and 56 / 85 at 2^17 (ulps of the result:
// an element that cancels to a small sum loses the most), and both
// --check runs failed (0.4% relative at 31 threads, 14% / 33% at 2^17).
// RUN: coopvec-run %t/sum16.mlir --entry=sum16 --batch=31 --random --seed=1 --check --atol=0 --rtol=0.001 | FileCheck %s --check-prefix=SUM
// RUN: coopvec-run %t/sum16.mlir --entry=sum16 --batch=131072 --random --seed=2 --check --atol=0 --rtol=0.001 | FileCheck %s --check-prefix=SUM
// SUM: argument 1 (written): {{.*}}: PASS
// SUM: {{^PASS$}}
// RUN: %if python-numpy %{ coopvec-run %t/sum16.mlir --entry=sum16 --batch=31 --random --seed=2 --save-inputs=%t/in31_ --out=%t/out31 %}
// RUN: %if python-numpy %{ %python %S/Inputs/f16-sums.py %t/in31_0.npy %t/in31_1.npy %t/out31_arg1.npy | FileCheck %s --check-prefix=ULP %}
// RUN: %if python-numpy %{ coopvec-run %t/sum16.mlir --entry=sum16 --batch=65537 --random --seed=2 --save-inputs=%t/in65537_ --out=%t/out65537 %}
// RUN: %if python-numpy %{ %python %S/Inputs/f16-sums.py %t/in65537_0.npy %t/in65537_1.npy %t/out65537_arg1.npy | FileCheck %s --check-prefix=ULP %}
// RUN: %if python-numpy %{ coopvec-run %t/sum16.mlir --entry=sum16 --batch=131072 --random --seed=3 --save-inputs=%t/in131072_ --out=%t/out131072 %}
// RUN: %if python-numpy %{ %python %S/Inputs/f16-sums.py %t/in131072_0.npy %t/in131072_1.npy %t/out131072_arg1.npy | FileCheck %s --check-prefix=ULP %}
// ULP: threads, 8 elements: max difference {{[01]}} ulp
// ULP-NEXT: {{^PASS$}}

// outer_product_accumulate of a = (1/8, 1/4), b = (1/8, 1/16, 1/2) into
// 2x3 views at bytes 0 (row_major), 16 (col_major) and 64 (training, stored
// row-major), 65537 threads: a_i b_j * 65537 rounded once is 1024, 512,
// 4096 / 2048, 1024, 8192 (65537 / 64 = 1024.016 and so on). The elements
// between the views stay -0.0.
// RUN: coopvec-run %t/outer16.mlir --entry=outer16 --batch=65537 --arg=%t/g40.npy --print | FileCheck %s --check-prefix=OUTER
// RUN: coopvec-run %t/outer16.mlir --entry=outer16 --batch=65537 --arg=%t/g40.npy --reference --print | FileCheck %s --check-prefix=OUTER
// RUN: %if vulkan && !coopvec-run-target %{ coopvec-run %t/outer16.mlir --entry=outer16 --batch=65537 --arg=%t/g40.npy --print --target=vulkan | FileCheck %s --check-prefix=OUTER %}
// OUTER:      argument 0 (written): f16, shape (40,)
// OUTER-NEXT: [0] 1024 512 4096 2048 1024 8192 -0 -0 1024 2048 512 1024 4096 8192 -0 -0 -0 -0 -0 -0 -0 -0 -0 -0 -0 -0 -0 -0 -0 -0 -0 -0 1024 512 4096 2048 1024 8192 -0 -0{{$}}

// Not shadowed: an f16 buffer that is also stored into (docs/dialect.md,
// "f16 accumulation"). The store keeps its value (3, not 3 plus a sum, not
// f32 bits) and element 1's sum is rounded by every atomic add, as the
// docs say: 2^18 threads adding 1/64 give 4096 when rounded once (the
// interpreter), but a sum rounded after each partial sum of s threads
// stops at 32 s (where s / 64 is half an ulp), so a subgroup of 8 to 64
// threads (training=subgroup) leaves 256 to 2048 (lavapipe: 256) and
// --check fails there; the GPU targets' default sums a workgroup (or a
// chunk of its rows) first: 2048 at 64 threads, 4096 at 128. The
// CPU adds once per call of @f_batched (the offset is a constant), each
// host thread's exact sum of at most 2^18 / 64 = 4096: 4096, as the
// interpreter. Elements 2 to 4 are not accessed and stay -0.0.
// RUN: coopvec-run %t/store16.mlir --entry=store16 --batch=262144 --arg=%t/g5.npy --print | FileCheck %s --check-prefix=STORED
// RUN: %if vulkan && !coopvec-run-target %{ coopvec-run %t/store16.mlir --entry=store16 --batch=262144 --arg=%t/g5.npy --print --target=vulkan | FileCheck %s --check-prefix=STORED %}
// RUN: coopvec-run %t/store16.mlir --entry=store16 --batch=262144 --arg=%t/g5.npy --reference --print | FileCheck %s --check-prefix=STORED-REF
// RUN: %if !coopvec-run-target %{ coopvec-run %t/store16.mlir --entry=store16 --batch=262144 --arg=%t/g5.npy --check | FileCheck %s --check-prefix=STORED-CPU %}
// RUN: %if coopvec-run-target %{ not coopvec-run %t/store16.mlir --entry=store16 --batch=262144 --arg=%t/g5.npy --check --training=subgroup | FileCheck %s --check-prefix=STORED-CHECK %}
// RUN: %if vulkan && !coopvec-run-target %{ not coopvec-run %t/store16.mlir --entry=store16 --batch=262144 --arg=%t/g5.npy --check --target=vulkan --training=subgroup | FileCheck %s --check-prefix=STORED-CHECK %}
// STORED:      argument 0 (written): f16, shape (5,)
// STORED-NEXT: [0] 3 {{(256|512|1024|2048|4096)}} -0 -0 -0{{$}}
// STORED-CPU:  argument 0 (written): max abs error 0, {{.*}}: PASS
// STORED-REF:      argument 0 (written): f16, shape (5,)
// STORED-REF-NEXT: [0] 3 4096 -0 -0 -0{{$}}
// STORED-CHECK: argument 0 (written): {{.*}}: FAIL
// STORED-CHECK: {{^FAIL$}}

// Run-time bounds checks see the shadow's size (the buffer's) and name the
// op of the source: threads 1 and 3 accumulate at elements 20 and 30 of 16
// (offsets read from a vec holding 0, 20, 3, 30, as in
// test/tools/coopvec-run/runtime-bounds.mlir).
// RUN: printf "\x93NUMPY\x01\x00\x3c\x00{'descr': '<f4', 'fortran_order': False, 'shape': (4, 1), }\n\x00\x00\x00\x00\x00\x00\xa0\x41\x00\x00\x40\x40\x00\x00\xf0\x41" > %t/x.npy
// RUN: not coopvec-run %t/bounds16.mlir --entry=bounds16 --batch=4 --arg=%t/x.npy --random --memref-size=1:16 2>&1 | FileCheck %s --check-prefix=BOUNDS
// BOUNDS: coopvec-run: error: @bounds16: 2 accesses outside their buffer at run time (reads gave 0, writes were dropped); the first: thread 1 at {{.*}}bounds16.mlir:7:3 ('coopvec.reduce_sum_accumulate')

//--- acc16.mlir
func.func @acc16(%g: memref<?xf16>) {
  %c1 = arith.constant 1 : index
  %s = arith.constant 0.015625 : f16
  %z = arith.constant -0.0 : f16
  %x = "coopvec.from_elements"(%s, %s, %z) : (f16, f16, f16) -> !coopvec.vec<3, f16>
  "coopvec.reduce_sum_accumulate"(%x, %g, %c1) : (!coopvec.vec<3, f16>, memref<?xf16>, index) -> ()
  return
}

//--- sum16.mlir
func.func @sum16(%x: !coopvec.vec<8, f16>, %g: memref<?xf16>) {
  %c0 = arith.constant 0 : index
  "coopvec.reduce_sum_accumulate"(%x, %g, %c0) : (!coopvec.vec<8, f16>, memref<?xf16>, index) -> ()
  return
}

//--- outer16.mlir
func.func @outer16(%g: memref<?xf16>) {
  %a0 = arith.constant 0.125 : f16
  %a1 = arith.constant 0.25 : f16
  %b1 = arith.constant 0.0625 : f16
  %b2 = arith.constant 0.5 : f16
  %a = "coopvec.from_elements"(%a0, %a1) : (f16, f16) -> !coopvec.vec<2, f16>
  %b = "coopvec.from_elements"(%a0, %b1, %b2) : (f16, f16, f16) -> !coopvec.vec<3, f16>
  %R = "coopvec.matrix_view"(%g) {offset = 0} : (memref<?xf16>) -> !coopvec.matrix<2, 3, f16, "row_major">
  %C = "coopvec.matrix_view"(%g) {offset = 16} : (memref<?xf16>) -> !coopvec.matrix<2, 3, f16, "col_major">
  %T = "coopvec.matrix_view"(%g) {offset = 64} : (memref<?xf16>) -> !coopvec.matrix<2, 3, f16, "training">
  "coopvec.outer_product_accumulate"(%a, %b, %R) : (!coopvec.vec<2, f16>, !coopvec.vec<3, f16>, !coopvec.matrix<2, 3, f16, "row_major">) -> ()
  "coopvec.outer_product_accumulate"(%a, %b, %C) : (!coopvec.vec<2, f16>, !coopvec.vec<3, f16>, !coopvec.matrix<2, 3, f16, "col_major">) -> ()
  "coopvec.outer_product_accumulate"(%a, %b, %T) : (!coopvec.vec<2, f16>, !coopvec.vec<3, f16>, !coopvec.matrix<2, 3, f16, "training">) -> ()
  return
}

//--- store16.mlir
func.func @store16(%g: memref<?xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = arith.constant 0.015625 : f16
  %three = arith.constant 3.0 : f16
  %x = "coopvec.from_elements"(%s) : (f16) -> !coopvec.vec<1, f16>
  "coopvec.reduce_sum_accumulate"(%x, %g, %c1) : (!coopvec.vec<1, f16>, memref<?xf16>, index) -> ()
  memref.store %three, %g[%c0] : memref<?xf16>
  return
}

//--- bounds16.mlir
func.func @bounds16(%x: !coopvec.vec<1, f32>, %g: memref<?xf16>) {
  %e = "coopvec.unpack"(%x) : (!coopvec.vec<1, f32>) -> f32
  %i64 = arith.fptosi %e : f32 to i64
  %i = arith.index_cast %i64 : i64 to index
  %h = arith.constant 0.5 : f16
  %v = "coopvec.from_elements"(%h, %h) : (f16, f16) -> !coopvec.vec<2, f16>
  "coopvec.reduce_sum_accumulate"(%v, %g, %i) : (!coopvec.vec<2, f16>, memref<?xf16>, index) -> ()
  return
}
