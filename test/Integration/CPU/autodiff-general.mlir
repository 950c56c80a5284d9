// Gradients of general per-thread code (docs/autodiff.md, "Scalar rules"
// and "Gathers") run by coopvec-run --check against the reference
// interpreter on the CPU, and on Vulkan where there is a device: scalar
// arith / math on unpacked elements, a sin / cos encoding, scf.if on a
// per-thread condition, scf.index_switch on a per-thread selector,
// scf.for and scf.while with per-thread trip counts, local
// arrays, memref.load
// gathers (a scatter-add with memref.atomic_rmw) and coopvec.load gathers
// at per-thread offsets (reduce_sum_accumulate at the same offsets), in
// f32 and f16, at batches 1, 31, 1029 and 4099. Finite differences of each
// rule are test/CAPI/autodiff-general.c.

// RUN: split-file %s %t

// Scalar math and a memref.load gather, f32 and f16.
// RUN: coopvec-opt %t/scalar.mlir --coopvec-autodiff=func=scalar32,scalar16 -o %t/scalar-grad.mlir
// RUN: coopvec-run %t/scalar-grad.mlir --entry=scalar32_grad --batch=1 --random --seed=1 --memref-size=1:9 --memref-size=2:9 --check | FileCheck %s --check-prefix=SCALAR
// RUN: coopvec-run %t/scalar-grad.mlir --entry=scalar32_grad --batch=31 --random --seed=2 --memref-size=1:9 --memref-size=2:9 --check | FileCheck %s --check-prefix=SCALAR
// RUN: coopvec-run %t/scalar-grad.mlir --entry=scalar32_grad --batch=4099 --random --seed=3 --memref-size=1:9 --memref-size=2:9 --check | FileCheck %s --check-prefix=SCALAR
// RUN: coopvec-run %t/scalar-grad.mlir --entry=scalar16_grad --batch=31 --random --seed=4 --memref-size=1:9 --memref-size=2:9 --check | FileCheck %s --check-prefix=SCALAR
// RUN: coopvec-run %t/scalar-grad.mlir --entry=scalar16_grad --batch=1029 --random --seed=5 --memref-size=1:9 --memref-size=2:9 --check | FileCheck %s --check-prefix=SCALAR
// RUN: %if vulkan && !coopvec-run-target %{ coopvec-run --target=vulkan %t/scalar-grad.mlir --entry=scalar32_grad --batch=1029 --random --seed=6 --memref-size=1:9 --memref-size=2:9 --check | FileCheck %s --check-prefix=SCALAR %}
// RUN: %if vulkan && !coopvec-run-target %{ coopvec-run --target=vulkan %t/scalar-grad.mlir --entry=scalar16_grad --batch=4099 --random --seed=7 --memref-size=1:9 --memref-size=2:9 --check | FileCheck %s --check-prefix=SCALAR %}
// SCALAR:      result 0: max abs error {{.*}}: PASS
// SCALAR-NEXT: argument 2 (written): max abs error {{.*}}: PASS
// SCALAR-NEXT: {{^PASS$}}

// A sin / cos encoding of 7 elements (SinEncode) into a 14 -> 3 layer.
// RUN: coopvec-opt %t/encode.mlir --coopvec-autodiff=func=encode -o %t/encode-grad.mlir
// RUN: coopvec-run %t/encode-grad.mlir --entry=encode_grad --batch=1 --random --seed=8 --check | FileCheck %s --check-prefix=ENCODE
// RUN: coopvec-run %t/encode-grad.mlir --entry=encode_grad --batch=1029 --random --seed=9 --check | FileCheck %s --check-prefix=ENCODE
// RUN: %if vulkan && !coopvec-run-target %{ coopvec-run --target=vulkan %t/encode-grad.mlir --entry=encode_grad --batch=4099 --random --seed=10 --check | FileCheck %s --check-prefix=ENCODE %}
// ENCODE:      result 0: max abs error {{.*}}: PASS
// ENCODE-NEXT: argument 2 (written): max abs error {{.*}}: PASS
// ENCODE-NEXT: {{^PASS$}}

// scf.if on a per-thread condition (threads split between the branches),
// with a matvec and a tanh in one branch, yielding a vec and a scalar.
// RUN: coopvec-opt %t/branch.mlir --coopvec-autodiff=func=branch -o %t/branch-grad.mlir
// RUN: coopvec-run %t/branch-grad.mlir --entry=branch_grad --batch=1 --random --seed=16 --check | FileCheck %s --check-prefix=BRANCH
// RUN: coopvec-run %t/branch-grad.mlir --entry=branch_grad --batch=31 --random --seed=17 --check | FileCheck %s --check-prefix=BRANCH
// RUN: coopvec-run %t/branch-grad.mlir --entry=branch_grad --batch=4099 --random --seed=18 --check | FileCheck %s --check-prefix=BRANCH
// RUN: %if vulkan && !coopvec-run-target %{ coopvec-run --target=vulkan %t/branch-grad.mlir --entry=branch_grad --batch=1029 --random --seed=19 --check | FileCheck %s --check-prefix=BRANCH %}
// BRANCH:      result 0: max abs error {{.*}}: PASS
// BRANCH-NEXT: argument 2 (written): max abs error {{.*}}: PASS
// BRANCH-NEXT: {{^PASS$}}

// A local array of values of the inputs (stored, read at a per-thread
// index, overwritten), f32 and f16.
// RUN: coopvec-opt %t/local.mlir --coopvec-autodiff=func=local32,local16 -o %t/local-grad.mlir
// RUN: coopvec-run %t/local-grad.mlir --entry=local32_grad --batch=1 --random --seed=20 --check | FileCheck %s --check-prefix=LOCAL
// RUN: coopvec-run %t/local-grad.mlir --entry=local32_grad --batch=1029 --random --seed=21 --check | FileCheck %s --check-prefix=LOCAL
// RUN: coopvec-run %t/local-grad.mlir --entry=local16_grad --batch=4099 --random --seed=22 --check | FileCheck %s --check-prefix=LOCAL
// RUN: %if vulkan && !coopvec-run-target %{ coopvec-run --target=vulkan %t/local-grad.mlir --entry=local32_grad --batch=1029 --random --seed=23 --check | FileCheck %s --check-prefix=LOCAL %}
// RUN: %if vulkan && !coopvec-run-target %{ coopvec-run --target=vulkan %t/local-grad.mlir --entry=local16_grad --batch=31 --random --seed=24 --check | FileCheck %s --check-prefix=LOCAL %}
// LOCAL:      result 0: max abs error {{.*}}: PASS
// LOCAL-NEXT: {{^PASS$}}

// scf.for with a per-thread trip count (0 to 8) around a matvec and a
// tanh, carrying a vec and a scalar: reversed by recomputation.
// RUN: coopvec-opt %t/loop.mlir --coopvec-autodiff=func=loop -o %t/loop-grad.mlir
// RUN: coopvec-run %t/loop-grad.mlir --entry=loop_grad --batch=1 --random --seed=25 --check | FileCheck %s --check-prefix=LOOP
// RUN: coopvec-run %t/loop-grad.mlir --entry=loop_grad --batch=31 --random --seed=26 --check | FileCheck %s --check-prefix=LOOP
// RUN: coopvec-run %t/loop-grad.mlir --entry=loop_grad --batch=1029 --random --seed=27 --check | FileCheck %s --check-prefix=LOOP
// RUN: %if vulkan && !coopvec-run-target %{ coopvec-run --target=vulkan %t/loop-grad.mlir --entry=loop_grad --batch=1029 --random --seed=28 --check | FileCheck %s --check-prefix=LOOP %}
// LOOP:      result 0: max abs error {{.*}}: PASS
// LOOP-NEXT: argument 2 (written): max abs error {{.*}}: PASS
// LOOP-NEXT: {{^PASS$}}

// scf.while with a per-thread trip count (0 to 8) around a matvec and a
// tanh, `before` computing a forwarded scalar: reversed by recomputation
// with the trip count counted.
// RUN: coopvec-opt %t/while.mlir --coopvec-autodiff=func=march -o %t/while-grad.mlir
// RUN: coopvec-run %t/while-grad.mlir --entry=march_grad --batch=1 --random --seed=29 --check | FileCheck %s --check-prefix=LOOP
// RUN: coopvec-run %t/while-grad.mlir --entry=march_grad --batch=31 --random --seed=30 --check | FileCheck %s --check-prefix=LOOP
// RUN: coopvec-run %t/while-grad.mlir --entry=march_grad --batch=4099 --random --seed=31 --check | FileCheck %s --check-prefix=LOOP
// RUN: %if vulkan && !coopvec-run-target %{ coopvec-run --target=vulkan %t/while-grad.mlir --entry=march_grad --batch=1029 --random --seed=32 --check | FileCheck %s --check-prefix=LOOP %}

// scf.index_switch on a per-thread selector (0 to 8: every case and the
// default taken), a matvec in one case, a captured value yielded in
// another.
// RUN: coopvec-opt %t/switch.mlir --coopvec-autodiff=func=switch -o %t/switch-grad.mlir
// RUN: coopvec-run %t/switch-grad.mlir --entry=switch_grad --batch=1 --random --seed=33 --check | FileCheck %s --check-prefix=LOOP
// RUN: coopvec-run %t/switch-grad.mlir --entry=switch_grad --batch=31 --random --seed=34 --check | FileCheck %s --check-prefix=LOOP
// RUN: coopvec-run %t/switch-grad.mlir --entry=switch_grad --batch=1029 --random --seed=35 --check | FileCheck %s --check-prefix=LOOP
// RUN: coopvec-run %t/switch-grad.mlir --entry=switch_grad --batch=4099 --random --seed=36 --check | FileCheck %s --check-prefix=LOOP
// RUN: %if vulkan && !coopvec-run-target %{ coopvec-run --target=vulkan %t/switch-grad.mlir --entry=switch_grad --batch=4099 --random --seed=37 --check | FileCheck %s --check-prefix=LOOP %}

// examples/hashgrid.mlir (unpack, fptosi, an i32 hash, coopvec.load
// gathers from an f16 table at per-thread offsets, bilinear interpolation,
// a 4 -> 32 -> 32 -> 3 MLP), inlined and differentiated: the table's
// gradient is reduce_sum_accumulate at the gathered offsets.
// RUN: coopvec-opt %coopvec_src_root/examples/hashgrid.mlir --pass-pipeline='builtin.module(coopvec-inline,coopvec-autodiff{func=hashgrid})' -o %t/hashgrid-grad.mlir
// RUN: %if !coopvec-run-target %{ coopvec-run %t/hashgrid-grad.mlir --entry=hashgrid_grad --batch=1 --random --seed=11 --memref-size=1:4096 --memref-size=3:4096 --check | FileCheck %s --check-prefix=HASH %}
// RUN: %if !coopvec-run-target %{ coopvec-run %t/hashgrid-grad.mlir --entry=hashgrid_grad --batch=1029 --random --seed=12 --memref-size=1:4096 --memref-size=3:4096 --check | FileCheck %s --check-prefix=HASH %}
// RUN: %if !coopvec-run-target %{ coopvec-run %t/hashgrid-grad.mlir --entry=hashgrid_grad --batch=4099 --random --seed=13 --memref-size=1:4096 --memref-size=3:4096 --check | FileCheck %s --check-prefix=HASH %}
// HASH:      result 0: max abs error {{.*}}: PASS
// HASH-NEXT: argument 3 (written): max abs error {{.*}}: PASS
// HASH-NEXT: argument 4 (written): max abs error {{.*}}: PASS
// HASH-NEXT: {{^PASS$}}

// The gather's gradient against NumPy in float64 (Inputs/autodiff-gather.py),
// independently of the interpreter, with threads colliding on 8 entries.
// RUN: coopvec-opt %t/gather.mlir --coopvec-autodiff=func=gather -o %t/gather-grad.mlir
// RUN: %if python-numpy %{ coopvec-run %t/gather-grad.mlir --entry=gather_grad --batch=31 --random --seed=14 --memref-size=1:8 --memref-size=2:8 --save-inputs=%t/g31_ --out=%t/o31 %}
// RUN: %if python-numpy %{ %python %S/Inputs/autodiff-gather.py %t/g31_0.npy %t/g31_1.npy %t/g31_2.npy %t/g31_3.npy %t/o310.npy %t/o31_arg2.npy | FileCheck %s --check-prefix=NUMPY %}
// RUN: %if python-numpy %{ coopvec-run %t/gather-grad.mlir --entry=gather_grad --batch=4099 --random --seed=15 --memref-size=1:8 --memref-size=2:8 --save-inputs=%t/g4099_ --out=%t/o4099 %}
// RUN: %if python-numpy %{ %python %S/Inputs/autodiff-gather.py %t/g4099_0.npy %t/g4099_1.npy %t/g4099_2.npy %t/g4099_3.npy %t/o40990.npy %t/o4099_arg2.npy | FileCheck %s --check-prefix=NUMPY %}
// NUMPY: {{^PASS$}}

//--- scalar.mlir
// Every scalar rule on the elements of %x (in [-1, 1) for --random), and a
// gather from the 9-entry table %t at an index from x2 (threads collide).
func.func @scalar32(%x: !coopvec.vec<3, f32>, %t: memref<?xf32>) -> !coopvec.vec<3, f32> {
  %e:3 = "coopvec.unpack"(%x) : (!coopvec.vec<3, f32>) -> (f32, f32, f32)
  %c4 = arith.constant 4.0 : f32
  %two = arith.constant 2.0 : f32
  %q = arith.mulf %e#2, %c4 : f32
  %i = arith.fptosi %q : f32 to i32
  %m7 = arith.constant 7 : i32
  %j = arith.andi %i, %m7 : i32
  %k = arith.index_cast %j : i32 to index
  %v = memref.load %t[%k] : memref<?xf32>
  %s = math.sin %e#0 : f32
  %c = math.cos %e#1 : f32
  %p = arith.mulf %s, %v : f32
  %a = arith.addf %p, %c : f32
  %ex = math.exp %a : f32
  %sq = arith.mulf %e#1, %e#1 : f32
  %sp = arith.addf %sq, %two : f32
  %l = math.log %sp : f32
  %d = arith.divf %ex, %sp : f32
  %th = math.tanh %d : f32
  %at = math.atan2 %e#0, %sp : f32
  %mx = arith.maxnumf %th, %at : f32
  %er = math.erf %e#2 : f32
  %rs = math.rsqrt %sp : f32
  %pw = math.powf %sp, %e#0 : f32
  %ab = math.absf %e#1 : f32
  %f = math.fma %er, %rs, %ab : f32
  %cmp = arith.cmpf olt, %e#0, %e#1 : f32
  %sel = arith.select %cmp, %f, %pw : f32
  %fl = math.floor %q : f32
  %r0 = arith.addf %sel, %fl : f32
  %r1 = arith.subf %mx, %l : f32
  %y = "coopvec.from_elements"(%r0, %r1, %v) : (f32, f32, f32) -> !coopvec.vec<3, f32>
  return %y : !coopvec.vec<3, f32>
}

// The same in f16; the rules compute in f32 and round once.
func.func @scalar16(%x: !coopvec.vec<3, f16>, %t: memref<?xf16>) -> !coopvec.vec<3, f16> {
  %e:3 = "coopvec.unpack"(%x) : (!coopvec.vec<3, f16>) -> (f16, f16, f16)
  %c4 = arith.constant 4.0 : f16
  %two = arith.constant 2.0 : f16
  %q = arith.mulf %e#2, %c4 : f16
  %i = arith.fptosi %q : f16 to i32
  %m7 = arith.constant 7 : i32
  %j = arith.andi %i, %m7 : i32
  %k = arith.index_cast %j : i32 to index
  %v = memref.load %t[%k] : memref<?xf16>
  %s = math.sin %e#0 : f16
  %c = math.cos %e#1 : f16
  %p = arith.mulf %s, %v : f16
  %a = arith.addf %p, %c : f16
  %ex = math.exp2 %a : f16
  %sq = arith.mulf %e#1, %e#1 : f16
  %sp = arith.addf %sq, %two : f16
  %l = math.log2 %sp : f16
  %d = arith.divf %ex, %sp : f16
  %th = math.sqrt %d : f16
  %at = math.atan %e#0 : f16
  %mx = arith.minimumf %th, %at : f16
  %w = arith.extf %e#2 : f16 to f32
  %er = math.erf %w : f32
  %erh = arith.truncf %er : f32 to f16
  %cs = math.copysign %erh, %e#1 : f16
  %r0 = arith.remf %cs, %sp : f16
  %r1 = arith.subf %mx, %l : f16
  %y = "coopvec.from_elements"(%r0, %r1, %v) : (f16, f16, f16) -> !coopvec.vec<3, f16>
  return %y : !coopvec.vec<3, f16>
}

//--- encode.mlir
// (sin x_i ..., cos x_i ...) of the 7 elements, then W (3 x 14, row-major
// at element 0) and a bias at element 42 of %w.
func.func @encode(%x: !coopvec.vec<7, f32>, %w: memref<?xf32>) -> !coopvec.vec<3, f32> {
  %e:7 = "coopvec.unpack"(%x) : (!coopvec.vec<7, f32>) -> (f32, f32, f32, f32, f32, f32, f32)
  %s0 = math.sin %e#0 : f32
  %s1 = math.sin %e#1 : f32
  %s2 = math.sin %e#2 : f32
  %s3 = math.sin %e#3 : f32
  %s4 = math.sin %e#4 : f32
  %s5 = math.sin %e#5 : f32
  %s6 = math.sin %e#6 : f32
  %c0 = math.cos %e#0 : f32
  %c1 = math.cos %e#1 : f32
  %c2 = math.cos %e#2 : f32
  %c3 = math.cos %e#3 : f32
  %c4 = math.cos %e#4 : f32
  %c5 = math.cos %e#5 : f32
  %c6 = math.cos %e#6 : f32
  %f = "coopvec.from_elements"(%s0, %s1, %s2, %s3, %s4, %s5, %s6, %c0, %c1, %c2, %c3, %c4, %c5, %c6) : (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32) -> !coopvec.vec<14, f32>
  %A = "coopvec.matrix_view"(%w) {offset = 0} : (memref<?xf32>) -> !coopvec.matrix<3, 14, f32, "row_major">
  %boff = arith.constant 42 : index
  %b = "coopvec.load"(%w, %boff) : (memref<?xf32>, index) -> !coopvec.vec<3, f32>
  %y = "coopvec.matvec"(%A, %f, %b) : (!coopvec.matrix<3, 14, f32, "row_major">, !coopvec.vec<14, f32>, !coopvec.vec<3, f32>) -> !coopvec.vec<3, f32>
  return %y : !coopvec.vec<3, f32>
}

//--- gather.mlir
func.func @gather(%x: !coopvec.vec<2, f32>, %t: memref<?xf32>) -> !coopvec.vec<1, f32> {
  %e:2 = "coopvec.unpack"(%x) : (!coopvec.vec<2, f32>) -> (f32, f32)
  %c4 = arith.constant 4.0 : f32
  %q = arith.mulf %e#1, %c4 : f32
  %i = arith.fptosi %q : f32 to i32
  %m7 = arith.constant 7 : i32
  %j = arith.andi %i, %m7 : i32
  %k = arith.index_cast %j : i32 to index
  %v = memref.load %t[%k] : memref<?xf32>
  %s = math.sin %e#0 : f32
  %r = arith.mulf %v, %s : f32
  %y = "coopvec.from_elements"(%r) : (f32) -> !coopvec.vec<1, f32>
  return %y : !coopvec.vec<1, f32>
}

//--- branch.mlir
// x0 > 0: tanh(A x) * sin x1 (A 3x3 row-major at element 0 of %w);
// otherwise x * (x1 x2).
func.func @branch(%x: !coopvec.vec<3, f32>, %w: memref<?xf32>) -> !coopvec.vec<3, f32> {
  %e:3 = "coopvec.unpack"(%x) : (!coopvec.vec<3, f32>) -> (f32, f32, f32)
  %zero = arith.constant 0.0 : f32
  %c = arith.cmpf ogt, %e#0, %zero : f32
  %A = "coopvec.matrix_view"(%w) {offset = 0} : (memref<?xf32>) -> !coopvec.matrix<3, 3, f32, "row_major">
  %r:2 = scf.if %c -> (!coopvec.vec<3, f32>, f32) {
    %y = "coopvec.matvec"(%A, %x) : (!coopvec.matrix<3, 3, f32, "row_major">, !coopvec.vec<3, f32>) -> !coopvec.vec<3, f32>
    %t = "coopvec.tanh"(%y) : (!coopvec.vec<3, f32>) -> !coopvec.vec<3, f32>
    %s = math.sin %e#1 : f32
    scf.yield %t, %s : !coopvec.vec<3, f32>, f32
  } else {
    %m = arith.mulf %e#1, %e#2 : f32
    scf.yield %x, %m : !coopvec.vec<3, f32>, f32
  }
  %o = "coopvec.mul"(%r#0, %r#1) : (!coopvec.vec<3, f32>, f32) -> !coopvec.vec<3, f32>
  return %o : !coopvec.vec<3, f32>
}

//--- local.mlir
// A[0] = sin x0, A[1] = x1; v = A[k] (k = fptosi(4 x2) & 1);
// A[0] = v x2; A[2] = v; y = (A[0] A[1], A[2] A[2], v).
func.func @local32(%x: !coopvec.vec<3, f32>) -> !coopvec.vec<3, f32> {
  %e:3 = "coopvec.unpack"(%x) : (!coopvec.vec<3, f32>) -> (f32, f32, f32)
  %i0 = arith.constant 0 : index
  %i1 = arith.constant 1 : index
  %i2 = arith.constant 2 : index
  %arr = memref.alloca() : memref<4xf32>
  %s = math.sin %e#0 : f32
  memref.store %s, %arr[%i0] : memref<4xf32>
  memref.store %e#1, %arr[%i1] : memref<4xf32>
  %k4 = arith.constant 4.0 : f32
  %q = arith.mulf %e#2, %k4 : f32
  %n = arith.fptosi %q : f32 to i32
  %m1 = arith.constant 1 : i32
  %j = arith.andi %n, %m1 : i32
  %k = arith.index_cast %j : i32 to index
  %v = memref.load %arr[%k] : memref<4xf32>
  %w = arith.mulf %v, %e#2 : f32
  memref.store %w, %arr[%i0] : memref<4xf32>
  memref.store %v, %arr[%i2] : memref<4xf32>
  %u = memref.load %arr[%i0] : memref<4xf32>
  %u1 = memref.load %arr[%i1] : memref<4xf32>
  %u2 = memref.load %arr[%i2] : memref<4xf32>
  %p = arith.mulf %u, %u1 : f32
  %p2 = arith.mulf %u2, %u2 : f32
  %y = "coopvec.from_elements"(%p, %p2, %v) : (f32, f32, f32) -> !coopvec.vec<3, f32>
  return %y : !coopvec.vec<3, f32>
}

// The same in f16: A[0] = sin x0, A[1] = x1; v = A[k] (k = fptosi(4 x2) & 1);
// A[0] = v x2; A[2] = v; y = (A[0] A[1], A[2] A[2], v).
func.func @local16(%x: !coopvec.vec<3, f16>) -> !coopvec.vec<3, f16> {
  %e:3 = "coopvec.unpack"(%x) : (!coopvec.vec<3, f16>) -> (f16, f16, f16)
  %i0 = arith.constant 0 : index
  %i1 = arith.constant 1 : index
  %i2 = arith.constant 2 : index
  %arr = memref.alloca() : memref<4xf16>
  %s = math.sin %e#0 : f16
  memref.store %s, %arr[%i0] : memref<4xf16>
  memref.store %e#1, %arr[%i1] : memref<4xf16>
  %k4 = arith.constant 4.0 : f16
  %q = arith.mulf %e#2, %k4 : f16
  %n = arith.fptosi %q : f16 to i32
  %m1 = arith.constant 1 : i32
  %j = arith.andi %n, %m1 : i32
  %k = arith.index_cast %j : i32 to index
  %v = memref.load %arr[%k] : memref<4xf16>
  %w = arith.mulf %v, %e#2 : f16
  memref.store %w, %arr[%i0] : memref<4xf16>
  memref.store %v, %arr[%i2] : memref<4xf16>
  %u = memref.load %arr[%i0] : memref<4xf16>
  %u1 = memref.load %arr[%i1] : memref<4xf16>
  %u2 = memref.load %arr[%i2] : memref<4xf16>
  %p = arith.mulf %u, %u1 : f16
  %p2 = arith.mulf %u2, %u2 : f16
  %y = "coopvec.from_elements"(%p, %p2, %v) : (f16, f16, f16) -> !coopvec.vec<3, f16>
  return %y : !coopvec.vec<3, f16>
}

//--- loop.mlir
// n = fptosi(|4 x2|) times: v = tanh(A v) (A 3x3 row-major at element 0
// of %w), s = sin(s) x1; y = v s.
func.func @loop(%x: !coopvec.vec<3, f32>, %w: memref<?xf32>) -> !coopvec.vec<3, f32> {
  %e:3 = "coopvec.unpack"(%x) : (!coopvec.vec<3, f32>) -> (f32, f32, f32)
  %c4 = arith.constant 4.0 : f32
  %q = arith.mulf %e#2, %c4 : f32
  %qa = math.absf %q : f32
  %ni = arith.fptosi %qa : f32 to i32
  %n = arith.index_cast %ni : i32 to index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %A = "coopvec.matrix_view"(%w) {offset = 0} : (memref<?xf32>) -> !coopvec.matrix<3, 3, f32, "row_major">
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%v = %x, %s = %e#0) -> (!coopvec.vec<3, f32>, f32) {
    %y = "coopvec.matvec"(%A, %v) : (!coopvec.matrix<3, 3, f32, "row_major">, !coopvec.vec<3, f32>) -> !coopvec.vec<3, f32>
    %t = "coopvec.tanh"(%y) : (!coopvec.vec<3, f32>) -> !coopvec.vec<3, f32>
    %sn = math.sin %s : f32
    %s2 = arith.mulf %sn, %e#1 : f32
    scf.yield %t, %s2 : !coopvec.vec<3, f32>, f32
  }
  %o = "coopvec.mul"(%r#0, %r#1) : (!coopvec.vec<3, f32>, f32) -> !coopvec.vec<3, f32>
  return %o : !coopvec.vec<3, f32>
}

//--- while.mlir
// n = fptosi(|4 x2|) rounds: s = s x1 (in `before`, forwarded), then
// v = tanh(A v), s = sin(s); y = v s.
func.func @march(%x: !coopvec.vec<3, f32>, %w: memref<?xf32>) -> !coopvec.vec<3, f32> {
  %e:3 = "coopvec.unpack"(%x) : (!coopvec.vec<3, f32>) -> (f32, f32, f32)
  %c4 = arith.constant 4.0 : f32
  %q = arith.mulf %e#2, %c4 : f32
  %qa = math.absf %q : f32
  %n = arith.fptosi %qa : f32 to i32
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %A = "coopvec.matrix_view"(%w) {offset = 0} : (memref<?xf32>) -> !coopvec.matrix<3, 3, f32, "row_major">
  %r:3 = scf.while (%i = %c0, %v = %x, %s = %e#0) : (i32, !coopvec.vec<3, f32>, f32) -> (i32, !coopvec.vec<3, f32>, f32) {
    %go = arith.cmpi slt, %i, %n : i32
    %s1 = arith.mulf %s, %e#1 : f32
    scf.condition(%go) %i, %v, %s1 : i32, !coopvec.vec<3, f32>, f32
  } do {
  ^bb0(%j: i32, %u: !coopvec.vec<3, f32>, %t: f32):
    %y = "coopvec.matvec"(%A, %u) : (!coopvec.matrix<3, 3, f32, "row_major">, !coopvec.vec<3, f32>) -> !coopvec.vec<3, f32>
    %th = "coopvec.tanh"(%y) : (!coopvec.vec<3, f32>) -> !coopvec.vec<3, f32>
    %sn = math.sin %t : f32
    %k = arith.addi %j, %c1 : i32
    scf.yield %k, %th, %sn : i32, !coopvec.vec<3, f32>, f32
  }
  %o = "coopvec.mul"(%r#1, %r#2) : (!coopvec.vec<3, f32>, f32) -> !coopvec.vec<3, f32>
  return %o : !coopvec.vec<3, f32>
}

//--- switch.mlir
// Selector fptosi(|4 x2|): case 0 tanh(A x), case 1 x x, case 3 x itself,
// the default -x; times a scalar each case yields.
func.func @switch(%x: !coopvec.vec<3, f32>, %w: memref<?xf32>) -> !coopvec.vec<3, f32> {
  %e:3 = "coopvec.unpack"(%x) : (!coopvec.vec<3, f32>) -> (f32, f32, f32)
  %c4 = arith.constant 4.0 : f32
  %q = arith.mulf %e#2, %c4 : f32
  %qa = math.absf %q : f32
  %si = arith.fptosi %qa : f32 to i32
  %sel = arith.index_cast %si : i32 to index
  %A = "coopvec.matrix_view"(%w) {offset = 0} : (memref<?xf32>) -> !coopvec.matrix<3, 3, f32, "row_major">
  %r:2 = scf.index_switch %sel -> !coopvec.vec<3, f32>, f32
  case 0 {
    %y = "coopvec.matvec"(%A, %x) : (!coopvec.matrix<3, 3, f32, "row_major">, !coopvec.vec<3, f32>) -> !coopvec.vec<3, f32>
    %t = "coopvec.tanh"(%y) : (!coopvec.vec<3, f32>) -> !coopvec.vec<3, f32>
    scf.yield %t, %e#0 : !coopvec.vec<3, f32>, f32
  }
  case 1 {
    %m = "coopvec.mul"(%x, %x) : (!coopvec.vec<3, f32>, !coopvec.vec<3, f32>) -> !coopvec.vec<3, f32>
    %sn = math.sin %e#0 : f32
    scf.yield %m, %sn : !coopvec.vec<3, f32>, f32
  }
  case 3 {
    scf.yield %x, %e#1 : !coopvec.vec<3, f32>, f32
  }
  default {
    %ng = "coopvec.neg"(%x) : (!coopvec.vec<3, f32>) -> !coopvec.vec<3, f32>
    %p = arith.mulf %e#0, %e#1 : f32
    scf.yield %ng, %p : !coopvec.vec<3, f32>, f32
  }
  %o = "coopvec.mul"(%r#0, %r#1) : (!coopvec.vec<3, f32>, f32) -> !coopvec.vec<3, f32>
  return %o : !coopvec.vec<3, f32>
}
