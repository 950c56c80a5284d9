// Structured control flow in per-thread functions (spec: "Per-thread
// programs", docs/dialect.md), JIT-run by coopvec-run --check against the
// reference interpreter. Every thread takes its own path: branches taken by
// 0%, 100%, alternating threads, a scattered fraction and the first 13
// threads; loops with per-thread trip counts 0..40; scf.while with
// per-thread exits; if / for / if nested three deep with a matvec,
// outer_product_accumulate and reduce_sum_accumulate at the innermost level;
// vec stores and loads at per-thread offsets inside a branch. Values cross
// the regions as vecs and scalars (f32, i32) in both directions. The batches
// (1, 31, 33, 1029, 4099) leave partial SIMD lane groups, subgroups and
// workgroups, so that divergence meets the threads past the end of the
// batch. --check compares every result and every written buffer (the
// gradients). A thread that must branch on its own number reads it from the
// vec argument %tid, a file of 0, 1, ..., N-1 written by Inputs/npy.sh.
//
// Only the CPU runs these here; test/Integration/Vulkan/vulkan.test runs
// them on Vulkan and test/Integration/GPU/ptxas.test lowers them to PTX.
// A uniform-offset store inside such a branch, which the GPU targets
// refuse, is in test/tools/coopvec-run/per-thread-gpu-gaps.mlir.

// RUN: split-file %s %t
// RUN: bash %S/Inputs/npy.sh ids 1 %t/ids1.npy
// RUN: bash %S/Inputs/npy.sh ids 31 %t/ids31.npy
// RUN: bash %S/Inputs/npy.sh ids 33 %t/ids33.npy
// RUN: bash %S/Inputs/npy.sh ids 1029 %t/ids1029.npy
// RUN: bash %S/Inputs/npy.sh ids 4099 %t/ids4099.npy

// Branches taken by 0%, 100%, odd threads, x0 < t (t is a random scalar:
// a scattered fraction) and threads 0-12; a matvec with a bias loaded inside
// the branch on one side, scalar arith / math and elementwise ops on the
// other, yielding a vec and a scalar.
// RUN: coopvec-run %t/split32.mlir --entry=split32 --batch=1 --arg=%t/ids1.npy --random --seed=101 --check | FileCheck %s --check-prefix=SPLIT
// RUN: coopvec-run %t/split32.mlir --entry=split32 --batch=33 --arg=%t/ids33.npy --random --seed=102 --lanes=16 --check | FileCheck %s --check-prefix=SPLIT
// RUN: coopvec-run %t/split32.mlir --entry=split32 --batch=4099 --arg=%t/ids4099.npy --random --seed=103 --check | FileCheck %s --check-prefix=SPLIT
// RUN: coopvec-run %t/split16.mlir --entry=split16 --batch=31 --arg=%t/ids31.npy --random --seed=104 --check | FileCheck %s --check-prefix=SPLIT
// RUN: coopvec-run %t/split16.mlir --entry=split16 --batch=33 --arg=%t/ids33.npy --random --seed=105 --lanes=4 --check | FileCheck %s --check-prefix=SPLIT
// RUN: coopvec-run %t/split16.mlir --entry=split16 --batch=1029 --arg=%t/ids1029.npy --random --seed=106 --check | FileCheck %s --check-prefix=SPLIT
// SPLIT:      result 0: max abs error {{.*}}: PASS
// SPLIT-NEXT: result 1: max abs error {{.*}}: PASS
// SPLIT-NEXT: result 2: max abs error {{.*}}: PASS
// SPLIT-NEXT: result 3: max abs error {{.*}}: PASS
// SPLIT-NEXT: result 4: max abs error {{.*}}: PASS
// SPLIT-NEXT: result 5: max abs error {{.*}}: PASS
// SPLIT-NEXT: {{^PASS$}}

// if (x0 < t) { for i < n (0..7) { if ((i + thread) odd) { matvec, tanh,
// outer_product_accumulate, reduce_sum_accumulate } else { fma } } }; the
// gradient buffer (argument 3) is compared too.
// RUN: coopvec-run %t/nested32.mlir --entry=nested32 --batch=33 --arg=%t/ids33.npy --random --seed=111 --check | FileCheck %s --check-prefix=NESTED
// RUN: coopvec-run %t/nested32.mlir --entry=nested32 --batch=4099 --arg=%t/ids4099.npy --random --seed=112 --check | FileCheck %s --check-prefix=NESTED
// RUN: coopvec-run %t/nested16.mlir --entry=nested16 --batch=1029 --arg=%t/ids1029.npy --random --seed=113 --check | FileCheck %s --check-prefix=NESTED
// NESTED:      result 0: max abs error {{.*}}: PASS
// NESTED-NEXT: result 1: max abs error {{.*}}: PASS
// NESTED-NEXT: argument 3 (written): max abs error {{.*}}: PASS
// NESTED-NEXT: {{^PASS$}}

// scf.while with a per-thread exit (a trip count 0..39, cut short at a
// multiple of 3..8), carrying a vec, an i32 and an f32.
// RUN: coopvec-run %t/while32.mlir --entry=while32 --batch=4099 --random --seed=116 --check | FileCheck %s --check-prefix=WHILE
// RUN: coopvec-run %t/while16.mlir --entry=while16 --batch=31 --random --seed=117 --check | FileCheck %s --check-prefix=WHILE
// WHILE:      result 0: max abs error {{.*}}: PASS
// WHILE-NEXT: result 1: max abs error {{.*}}: PASS
// WHILE-NEXT: {{^PASS$}}

// scf.for with per-thread trip counts 0..40 holding a matvec and a
// reduce_sum_accumulate at a per-thread offset (argument 2, compared), and
// an i32 loop whose bounds and step (-2..2: steps <= 0 run nothing) vary.
// RUN: coopvec-run %t/trips32.mlir --entry=trips32 --batch=1 --random --seed=120 --check | FileCheck %s --check-prefix=TRIPS
// RUN: coopvec-run %t/trips32.mlir --entry=trips32 --batch=4099 --random --seed=121 --check | FileCheck %s --check-prefix=TRIPS
// RUN: coopvec-run %t/trips16.mlir --entry=trips16 --batch=1029 --random --seed=122 --check | FileCheck %s --check-prefix=TRIPS
// TRIPS:      result 0: max abs error {{.*}}: PASS
// TRIPS-NEXT: result 1: max abs error {{.*}}: PASS
// TRIPS-NEXT: argument 2 (written): max abs error {{.*}}: PASS
// TRIPS-NEXT: {{^PASS$}}

// Two scf.index_switch with other coopvec ops in their cases, one on the
// thread number mod 5, one on a selector from the input (SPIR-V:
// coopvec-prepare-spirv makes them chains of scf.if); also on Vulkan
// where there is a device.
// RUN: coopvec-run %t/switch.mlir --entry=switch32 --batch=33 --arg=%t/ids33.npy --random --seed=504 --check | FileCheck %s --check-prefix=SWITCH
// RUN: coopvec-run %t/switch.mlir --entry=switch32 --batch=1029 --arg=%t/ids1029.npy --random --seed=505 --check | FileCheck %s --check-prefix=SWITCH
// RUN: %if vulkan && !coopvec-run-target %{ coopvec-run --target=vulkan %t/switch.mlir --entry=switch32 --batch=1029 --arg=%t/ids1029.npy --random --seed=505 --check | FileCheck %s --check-prefix=SWITCH %}
// SWITCH:      result 0: max abs error {{.*}}: PASS
// SWITCH-NEXT: result 1: max abs error {{.*}}: PASS
// SWITCH-NEXT: result 2: max abs error {{.*}}: PASS
// SWITCH-NEXT: {{^PASS$}}

// coopvec.store and coopvec.load at the per-thread offset 4 t inside the
// branches of odd and even threads (no two threads share an element): the
// buffer of N * 4 elements (argument 3) is compared, every element written.
// RUN: coopvec-run %t/stores.mlir --entry=stores32 --batch=1 --arg=%t/ids1.npy --random --memref-size=2:16 --memref-size=3:4 --seed=125 --check | FileCheck %s --check-prefix=STORES
// RUN: coopvec-run %t/stores.mlir --entry=stores32 --batch=31 --arg=%t/ids31.npy --random --memref-size=2:124 --memref-size=3:124 --seed=126 --check | FileCheck %s --check-prefix=STORES
// RUN: coopvec-run %t/stores.mlir --entry=stores32 --batch=1029 --arg=%t/ids1029.npy --random --memref-size=2:4116 --memref-size=3:4116 --seed=127 --check | FileCheck %s --check-prefix=STORES
// STORES:      result 0: max abs error {{.*}}: PASS
// STORES-NEXT: argument 3 (written): max abs error {{.*}}: PASS
// STORES-NEXT: {{^PASS$}}

//--- split32.mlir
// f32: a 5x8 row-major matrix at element 0 of %w, its bias at element 40.
func.func @split32(%tid: !coopvec.vec<1, f32>, %x: !coopvec.vec<8, f32>, %w: memref<?xf32>, %t: f32) -> (!coopvec.vec<5, f32>, !coopvec.vec<5, f32>, !coopvec.vec<5, f32>, !coopvec.vec<5, f32>, !coopvec.vec<5, f32>, !coopvec.vec<5, f32>) {
  %c40 = arith.constant 40 : index
  %two = arith.constant 2.0 : f32
  %i1 = arith.constant 1 : i32
  %i13 = arith.constant 13 : i32
  %id = "coopvec.unpack"(%tid) : (!coopvec.vec<1, f32>) -> f32
  %n = arith.fptosi %id : f32 to i32
  %e:8 = "coopvec.unpack"(%x) : (!coopvec.vec<8, f32>) -> (f32, f32, f32, f32, f32, f32, f32, f32)
  %A = "coopvec.matrix_view"(%w) {offset = 0} : (memref<?xf32>) -> !coopvec.matrix<5, 8, f32, "row_major">
  // 0%: |x| < 1 is never above 2; 100%: always below.
  %none = arith.cmpf ogt, %e#0, %two : f32
  %all = arith.cmpf olt, %e#0, %two : f32
  // Alternating: odd thread numbers.
  %bit = arith.andi %n, %i1 : i32
  %odd = arith.cmpi eq, %bit, %i1 : i32
  // About (t + 1) / 2 of the threads, scattered: x0 < t (ordered).
  %below = arith.cmpf olt, %e#0, %t : f32
  // Threads 0-12: a partial lane group / subgroup takes the branch.
  %first = arith.cmpi slt, %n, %i13 : i32
  %r0:2 = scf.if %none -> (!coopvec.vec<5, f32>, f32) {
    %b = "coopvec.load"(%w, %c40) : (memref<?xf32>, index) -> !coopvec.vec<5, f32>
    %y = "coopvec.matvec"(%A, %x, %b) : (!coopvec.matrix<5, 8, f32, "row_major">, !coopvec.vec<8, f32>, !coopvec.vec<5, f32>) -> !coopvec.vec<5, f32>
    %s = arith.mulf %e#1, %e#2 : f32
    scf.yield %y, %s : !coopvec.vec<5, f32>, f32
  } else {
    %p = arith.mulf %e#0, %e#1 : f32
    %q = arith.addf %e#2, %e#3 : f32
    %u = arith.maximumf %e#4, %e#5 : f32
    %d = arith.subf %e#6, %e#7 : f32
    %f = math.fma %e#0, %e#7, %e#3 : f32
    %v = "coopvec.from_elements"(%p, %q, %u, %d, %f) : (f32, f32, f32, f32, f32) -> !coopvec.vec<5, f32>
    %h = "coopvec.tanh"(%v) : (!coopvec.vec<5, f32>) -> !coopvec.vec<5, f32>
    %s = math.exp %e#1 : f32
    scf.yield %h, %s : !coopvec.vec<5, f32>, f32
  }
  %r1:2 = scf.if %all -> (!coopvec.vec<5, f32>, f32) {
    %b = "coopvec.load"(%w, %c40) : (memref<?xf32>, index) -> !coopvec.vec<5, f32>
    %y = "coopvec.matvec"(%A, %x, %b) : (!coopvec.matrix<5, 8, f32, "row_major">, !coopvec.vec<8, f32>, !coopvec.vec<5, f32>) -> !coopvec.vec<5, f32>
    %s = arith.mulf %e#1, %e#2 : f32
    scf.yield %y, %s : !coopvec.vec<5, f32>, f32
  } else {
    %p = arith.mulf %e#0, %e#1 : f32
    %q = arith.addf %e#2, %e#3 : f32
    %u = arith.maximumf %e#4, %e#5 : f32
    %d = arith.subf %e#6, %e#7 : f32
    %f = math.fma %e#0, %e#7, %e#3 : f32
    %v = "coopvec.from_elements"(%p, %q, %u, %d, %f) : (f32, f32, f32, f32, f32) -> !coopvec.vec<5, f32>
    %h = "coopvec.tanh"(%v) : (!coopvec.vec<5, f32>) -> !coopvec.vec<5, f32>
    %s = math.exp %e#1 : f32
    scf.yield %h, %s : !coopvec.vec<5, f32>, f32
  }
  %r2:2 = scf.if %odd -> (!coopvec.vec<5, f32>, f32) {
    %b = "coopvec.load"(%w, %c40) : (memref<?xf32>, index) -> !coopvec.vec<5, f32>
    %y = "coopvec.matvec"(%A, %x, %b) : (!coopvec.matrix<5, 8, f32, "row_major">, !coopvec.vec<8, f32>, !coopvec.vec<5, f32>) -> !coopvec.vec<5, f32>
    %s = arith.mulf %e#1, %e#2 : f32
    scf.yield %y, %s : !coopvec.vec<5, f32>, f32
  } else {
    %p = arith.mulf %e#0, %e#1 : f32
    %q = arith.addf %e#2, %e#3 : f32
    %u = arith.maximumf %e#4, %e#5 : f32
    %d = arith.subf %e#6, %e#7 : f32
    %f = math.fma %e#0, %e#7, %e#3 : f32
    %v = "coopvec.from_elements"(%p, %q, %u, %d, %f) : (f32, f32, f32, f32, f32) -> !coopvec.vec<5, f32>
    %h = "coopvec.tanh"(%v) : (!coopvec.vec<5, f32>) -> !coopvec.vec<5, f32>
    %s = math.exp %e#1 : f32
    scf.yield %h, %s : !coopvec.vec<5, f32>, f32
  }
  %r3:2 = scf.if %below -> (!coopvec.vec<5, f32>, f32) {
    %b = "coopvec.load"(%w, %c40) : (memref<?xf32>, index) -> !coopvec.vec<5, f32>
    %y = "coopvec.matvec"(%A, %x, %b) : (!coopvec.matrix<5, 8, f32, "row_major">, !coopvec.vec<8, f32>, !coopvec.vec<5, f32>) -> !coopvec.vec<5, f32>
    %s = arith.mulf %e#1, %e#2 : f32
    scf.yield %y, %s : !coopvec.vec<5, f32>, f32
  } else {
    %p = arith.mulf %e#0, %e#1 : f32
    %q = arith.addf %e#2, %e#3 : f32
    %u = arith.maximumf %e#4, %e#5 : f32
    %d = arith.subf %e#6, %e#7 : f32
    %f = math.fma %e#0, %e#7, %e#3 : f32
    %v = "coopvec.from_elements"(%p, %q, %u, %d, %f) : (f32, f32, f32, f32, f32) -> !coopvec.vec<5, f32>
    %h = "coopvec.tanh"(%v) : (!coopvec.vec<5, f32>) -> !coopvec.vec<5, f32>
    %s = math.exp %e#1 : f32
    scf.yield %h, %s : !coopvec.vec<5, f32>, f32
  }
  %r4:2 = scf.if %first -> (!coopvec.vec<5, f32>, f32) {
    %b = "coopvec.load"(%w, %c40) : (memref<?xf32>, index) -> !coopvec.vec<5, f32>
    %y = "coopvec.matvec"(%A, %x, %b) : (!coopvec.matrix<5, 8, f32, "row_major">, !coopvec.vec<8, f32>, !coopvec.vec<5, f32>) -> !coopvec.vec<5, f32>
    %s = arith.mulf %e#1, %e#2 : f32
    scf.yield %y, %s : !coopvec.vec<5, f32>, f32
  } else {
    %p = arith.mulf %e#0, %e#1 : f32
    %q = arith.addf %e#2, %e#3 : f32
    %u = arith.maximumf %e#4, %e#5 : f32
    %d = arith.subf %e#6, %e#7 : f32
    %f = math.fma %e#0, %e#7, %e#3 : f32
    %v = "coopvec.from_elements"(%p, %q, %u, %d, %f) : (f32, f32, f32, f32, f32) -> !coopvec.vec<5, f32>
    %h = "coopvec.tanh"(%v) : (!coopvec.vec<5, f32>) -> !coopvec.vec<5, f32>
    %s = math.exp %e#1 : f32
    scf.yield %h, %s : !coopvec.vec<5, f32>, f32
  }
  %s = "coopvec.from_elements"(%r0#1, %r1#1, %r2#1, %r3#1, %r4#1) : (f32, f32, f32, f32, f32) -> !coopvec.vec<5, f32>
  return %r0#0, %r1#0, %r2#0, %r3#0, %r4#0, %s : !coopvec.vec<5, f32>, !coopvec.vec<5, f32>, !coopvec.vec<5, f32>, !coopvec.vec<5, f32>, !coopvec.vec<5, f32>, !coopvec.vec<5, f32>
}

//--- split16.mlir
// f16: the same in the training layout.
func.func @split16(%tid: !coopvec.vec<1, f32>, %x: !coopvec.vec<8, f16>, %w: memref<?xf16>, %t: f16) -> (!coopvec.vec<5, f16>, !coopvec.vec<5, f16>, !coopvec.vec<5, f16>, !coopvec.vec<5, f16>, !coopvec.vec<5, f16>, !coopvec.vec<5, f16>) {
  %c40 = arith.constant 40 : index
  %two = arith.constant 2.0 : f16
  %i1 = arith.constant 1 : i32
  %i13 = arith.constant 13 : i32
  %id = "coopvec.unpack"(%tid) : (!coopvec.vec<1, f32>) -> f32
  %n = arith.fptosi %id : f32 to i32
  %e:8 = "coopvec.unpack"(%x) : (!coopvec.vec<8, f16>) -> (f16, f16, f16, f16, f16, f16, f16, f16)
  %A = "coopvec.matrix_view"(%w) {offset = 0} : (memref<?xf16>) -> !coopvec.matrix<5, 8, f16, "training">
  // 0%: |x| < 1 is never above 2; 100%: always below.
  %none = arith.cmpf ogt, %e#0, %two : f16
  %all = arith.cmpf olt, %e#0, %two : f16
  // Alternating: odd thread numbers.
  %bit = arith.andi %n, %i1 : i32
  %odd = arith.cmpi eq, %bit, %i1 : i32
  // About (t + 1) / 2 of the threads, scattered: x0 < t (ordered).
  %below = arith.cmpf olt, %e#0, %t : f16
  // Threads 0-12: a partial lane group / subgroup takes the branch.
  %first = arith.cmpi slt, %n, %i13 : i32
  %r0:2 = scf.if %none -> (!coopvec.vec<5, f16>, f16) {
    %b = "coopvec.load"(%w, %c40) : (memref<?xf16>, index) -> !coopvec.vec<5, f16>
    %y = "coopvec.matvec"(%A, %x, %b) : (!coopvec.matrix<5, 8, f16, "training">, !coopvec.vec<8, f16>, !coopvec.vec<5, f16>) -> !coopvec.vec<5, f16>
    %s = arith.mulf %e#1, %e#2 : f16
    scf.yield %y, %s : !coopvec.vec<5, f16>, f16
  } else {
    %p = arith.mulf %e#0, %e#1 : f16
    %q = arith.addf %e#2, %e#3 : f16
    %u = arith.maximumf %e#4, %e#5 : f16
    %d = arith.subf %e#6, %e#7 : f16
    %f = math.fma %e#0, %e#7, %e#3 : f16
    %v = "coopvec.from_elements"(%p, %q, %u, %d, %f) : (f16, f16, f16, f16, f16) -> !coopvec.vec<5, f16>
    %h = "coopvec.tanh"(%v) : (!coopvec.vec<5, f16>) -> !coopvec.vec<5, f16>
    %s = math.exp %e#1 : f16
    scf.yield %h, %s : !coopvec.vec<5, f16>, f16
  }
  %r1:2 = scf.if %all -> (!coopvec.vec<5, f16>, f16) {
    %b = "coopvec.load"(%w, %c40) : (memref<?xf16>, index) -> !coopvec.vec<5, f16>
    %y = "coopvec.matvec"(%A, %x, %b) : (!coopvec.matrix<5, 8, f16, "training">, !coopvec.vec<8, f16>, !coopvec.vec<5, f16>) -> !coopvec.vec<5, f16>
    %s = arith.mulf %e#1, %e#2 : f16
    scf.yield %y, %s : !coopvec.vec<5, f16>, f16
  } else {
    %p = arith.mulf %e#0, %e#1 : f16
    %q = arith.addf %e#2, %e#3 : f16
    %u = arith.maximumf %e#4, %e#5 : f16
    %d = arith.subf %e#6, %e#7 : f16
    %f = math.fma %e#0, %e#7, %e#3 : f16
    %v = "coopvec.from_elements"(%p, %q, %u, %d, %f) : (f16, f16, f16, f16, f16) -> !coopvec.vec<5, f16>
    %h = "coopvec.tanh"(%v) : (!coopvec.vec<5, f16>) -> !coopvec.vec<5, f16>
    %s = math.exp %e#1 : f16
    scf.yield %h, %s : !coopvec.vec<5, f16>, f16
  }
  %r2:2 = scf.if %odd -> (!coopvec.vec<5, f16>, f16) {
    %b = "coopvec.load"(%w, %c40) : (memref<?xf16>, index) -> !coopvec.vec<5, f16>
    %y = "coopvec.matvec"(%A, %x, %b) : (!coopvec.matrix<5, 8, f16, "training">, !coopvec.vec<8, f16>, !coopvec.vec<5, f16>) -> !coopvec.vec<5, f16>
    %s = arith.mulf %e#1, %e#2 : f16
    scf.yield %y, %s : !coopvec.vec<5, f16>, f16
  } else {
    %p = arith.mulf %e#0, %e#1 : f16
    %q = arith.addf %e#2, %e#3 : f16
    %u = arith.maximumf %e#4, %e#5 : f16
    %d = arith.subf %e#6, %e#7 : f16
    %f = math.fma %e#0, %e#7, %e#3 : f16
    %v = "coopvec.from_elements"(%p, %q, %u, %d, %f) : (f16, f16, f16, f16, f16) -> !coopvec.vec<5, f16>
    %h = "coopvec.tanh"(%v) : (!coopvec.vec<5, f16>) -> !coopvec.vec<5, f16>
    %s = math.exp %e#1 : f16
    scf.yield %h, %s : !coopvec.vec<5, f16>, f16
  }
  %r3:2 = scf.if %below -> (!coopvec.vec<5, f16>, f16) {
    %b = "coopvec.load"(%w, %c40) : (memref<?xf16>, index) -> !coopvec.vec<5, f16>
    %y = "coopvec.matvec"(%A, %x, %b) : (!coopvec.matrix<5, 8, f16, "training">, !coopvec.vec<8, f16>, !coopvec.vec<5, f16>) -> !coopvec.vec<5, f16>
    %s = arith.mulf %e#1, %e#2 : f16
    scf.yield %y, %s : !coopvec.vec<5, f16>, f16
  } else {
    %p = arith.mulf %e#0, %e#1 : f16
    %q = arith.addf %e#2, %e#3 : f16
    %u = arith.maximumf %e#4, %e#5 : f16
    %d = arith.subf %e#6, %e#7 : f16
    %f = math.fma %e#0, %e#7, %e#3 : f16
    %v = "coopvec.from_elements"(%p, %q, %u, %d, %f) : (f16, f16, f16, f16, f16) -> !coopvec.vec<5, f16>
    %h = "coopvec.tanh"(%v) : (!coopvec.vec<5, f16>) -> !coopvec.vec<5, f16>
    %s = math.exp %e#1 : f16
    scf.yield %h, %s : !coopvec.vec<5, f16>, f16
  }
  %r4:2 = scf.if %first -> (!coopvec.vec<5, f16>, f16) {
    %b = "coopvec.load"(%w, %c40) : (memref<?xf16>, index) -> !coopvec.vec<5, f16>
    %y = "coopvec.matvec"(%A, %x, %b) : (!coopvec.matrix<5, 8, f16, "training">, !coopvec.vec<8, f16>, !coopvec.vec<5, f16>) -> !coopvec.vec<5, f16>
    %s = arith.mulf %e#1, %e#2 : f16
    scf.yield %y, %s : !coopvec.vec<5, f16>, f16
  } else {
    %p = arith.mulf %e#0, %e#1 : f16
    %q = arith.addf %e#2, %e#3 : f16
    %u = arith.maximumf %e#4, %e#5 : f16
    %d = arith.subf %e#6, %e#7 : f16
    %f = math.fma %e#0, %e#7, %e#3 : f16
    %v = "coopvec.from_elements"(%p, %q, %u, %d, %f) : (f16, f16, f16, f16, f16) -> !coopvec.vec<5, f16>
    %h = "coopvec.tanh"(%v) : (!coopvec.vec<5, f16>) -> !coopvec.vec<5, f16>
    %s = math.exp %e#1 : f16
    scf.yield %h, %s : !coopvec.vec<5, f16>, f16
  }
  %s = "coopvec.from_elements"(%r0#1, %r1#1, %r2#1, %r3#1, %r4#1) : (f16, f16, f16, f16, f16) -> !coopvec.vec<5, f16>
  return %r0#0, %r1#0, %r2#0, %r3#0, %r4#0, %s : !coopvec.vec<5, f16>, !coopvec.vec<5, f16>, !coopvec.vec<5, f16>, !coopvec.vec<5, f16>, !coopvec.vec<5, f16>, !coopvec.vec<5, f16>
}

//--- nested32.mlir
// Three levels: if (x0 < t) { for i in [0, n) (n = 0..7 from x1) {
// if ((i + thread) odd) { h = tanh((A h + b) / 4); G += h x^T; g[64..72)
// += h } else { h = h * x2 + x } } }. The innermost level holds a matvec
// and both accumulating ops. (The / 4 keeps the iteration contracting, so
// that rounding differences between the engines do not grow with n.)
func.func @nested32(%tid: !coopvec.vec<1, f32>, %x: !coopvec.vec<8, f32>, %w: memref<?xf32>, %g: memref<?xf32>, %t: f32) -> (!coopvec.vec<8, f32>, !coopvec.vec<1, f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %i1 = arith.constant 1 : i32
  %one = arith.constant 1.0 : f32
  %quarter = arith.constant 0.25 : f32
  %four = arith.constant 4.0 : f32
  %zero = arith.constant 0.0 : f32
  %id = "coopvec.unpack"(%tid) : (!coopvec.vec<1, f32>) -> f32
  %n = arith.fptosi %id : f32 to i32
  %e:8 = "coopvec.unpack"(%x) : (!coopvec.vec<8, f32>) -> (f32, f32, f32, f32, f32, f32, f32, f32)
  %A = "coopvec.matrix_view"(%w) {offset = 0} : (memref<?xf32>) -> !coopvec.matrix<8, 8, f32, "row_major">
  %G = "coopvec.matrix_view"(%g) {offset = 0} : (memref<?xf32>) -> !coopvec.matrix<8, 8, f32, "row_major">
  %b = "coopvec.load"(%w, %c64) : (memref<?xf32>, index) -> !coopvec.vec<8, f32>
  %p = arith.addf %e#1, %one : f32
  %q = arith.mulf %p, %four : f32
  %trips = arith.fptosi %q : f32 to i32
  %ub = arith.index_cast %trips : i32 to index
  %c = arith.cmpf olt, %e#0, %t : f32
  %r:2 = scf.if %c -> (!coopvec.vec<8, f32>, f32) {
    %l:2 = scf.for %i = %c0 to %ub step %c1 iter_args(%h = %x, %s = %zero) -> (!coopvec.vec<8, f32>, f32) {
      %ii = arith.index_cast %i : index to i32
      %k = arith.addi %ii, %n : i32
      %bit = arith.andi %k, %i1 : i32
      %odd = arith.cmpi eq, %bit, %i1 : i32
      %h2:2 = scf.if %odd -> (!coopvec.vec<8, f32>, f32) {
        %y = "coopvec.matvec"(%A, %h, %b) : (!coopvec.matrix<8, 8, f32, "row_major">, !coopvec.vec<8, f32>, !coopvec.vec<8, f32>) -> !coopvec.vec<8, f32>
        %z = "coopvec.mul"(%y, %quarter) : (!coopvec.vec<8, f32>, f32) -> !coopvec.vec<8, f32>
        %a = "coopvec.tanh"(%z) : (!coopvec.vec<8, f32>) -> !coopvec.vec<8, f32>
        "coopvec.outer_product_accumulate"(%a, %x, %G) : (!coopvec.vec<8, f32>, !coopvec.vec<8, f32>, !coopvec.matrix<8, 8, f32, "row_major">) -> ()
        "coopvec.reduce_sum_accumulate"(%a, %g, %c64) : (!coopvec.vec<8, f32>, memref<?xf32>, index) -> ()
        %s1 = arith.addf %s, %one : f32
        scf.yield %a, %s1 : !coopvec.vec<8, f32>, f32
      } else {
        %y = "coopvec.fma"(%h, %e#2, %x) : (!coopvec.vec<8, f32>, f32, !coopvec.vec<8, f32>) -> !coopvec.vec<8, f32>
        %s1 = arith.subf %s, %e#3 : f32
        scf.yield %y, %s1 : !coopvec.vec<8, f32>, f32
      }
      scf.yield %h2#0, %h2#1 : !coopvec.vec<8, f32>, f32
    }
    scf.yield %l#0, %l#1 : !coopvec.vec<8, f32>, f32
  } else {
    %y = "coopvec.neg"(%x) : (!coopvec.vec<8, f32>) -> !coopvec.vec<8, f32>
    scf.yield %y, %id : !coopvec.vec<8, f32>, f32
  }
  %s = "coopvec.from_elements"(%r#1) : (f32) -> !coopvec.vec<1, f32>
  return %r#0, %s : !coopvec.vec<8, f32>, !coopvec.vec<1, f32>
}

//--- nested16.mlir
// The same in f16 (the thread number stays f32: f16 holds integers up to
// 2048 exactly).
func.func @nested16(%tid: !coopvec.vec<1, f32>, %x: !coopvec.vec<8, f16>, %w: memref<?xf16>, %g: memref<?xf16>, %t: f16) -> (!coopvec.vec<8, f16>, !coopvec.vec<1, f16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %i1 = arith.constant 1 : i32
  %one = arith.constant 1.0 : f16
  %quarter = arith.constant 0.25 : f16
  %four = arith.constant 4.0 : f16
  %zero = arith.constant 0.0 : f16
  %id = "coopvec.unpack"(%tid) : (!coopvec.vec<1, f32>) -> f32
  %n = arith.fptosi %id : f32 to i32
  %idh = arith.truncf %id : f32 to f16
  %e:8 = "coopvec.unpack"(%x) : (!coopvec.vec<8, f16>) -> (f16, f16, f16, f16, f16, f16, f16, f16)
  %A = "coopvec.matrix_view"(%w) {offset = 0} : (memref<?xf16>) -> !coopvec.matrix<8, 8, f16, "row_major">
  %G = "coopvec.matrix_view"(%g) {offset = 0} : (memref<?xf16>) -> !coopvec.matrix<8, 8, f16, "row_major">
  %b = "coopvec.load"(%w, %c64) : (memref<?xf16>, index) -> !coopvec.vec<8, f16>
  %p = arith.addf %e#1, %one : f16
  %q = arith.mulf %p, %four : f16
  %trips = arith.fptosi %q : f16 to i32
  %ub = arith.index_cast %trips : i32 to index
  %c = arith.cmpf olt, %e#0, %t : f16
  %r:2 = scf.if %c -> (!coopvec.vec<8, f16>, f16) {
    %l:2 = scf.for %i = %c0 to %ub step %c1 iter_args(%h = %x, %s = %zero) -> (!coopvec.vec<8, f16>, f16) {
      %ii = arith.index_cast %i : index to i32
      %k = arith.addi %ii, %n : i32
      %bit = arith.andi %k, %i1 : i32
      %odd = arith.cmpi eq, %bit, %i1 : i32
      %h2:2 = scf.if %odd -> (!coopvec.vec<8, f16>, f16) {
        %y = "coopvec.matvec"(%A, %h, %b) : (!coopvec.matrix<8, 8, f16, "row_major">, !coopvec.vec<8, f16>, !coopvec.vec<8, f16>) -> !coopvec.vec<8, f16>
        %z = "coopvec.mul"(%y, %quarter) : (!coopvec.vec<8, f16>, f16) -> !coopvec.vec<8, f16>
        %a = "coopvec.tanh"(%z) : (!coopvec.vec<8, f16>) -> !coopvec.vec<8, f16>
        "coopvec.outer_product_accumulate"(%a, %x, %G) : (!coopvec.vec<8, f16>, !coopvec.vec<8, f16>, !coopvec.matrix<8, 8, f16, "row_major">) -> ()
        "coopvec.reduce_sum_accumulate"(%a, %g, %c64) : (!coopvec.vec<8, f16>, memref<?xf16>, index) -> ()
        %s1 = arith.addf %s, %one : f16
        scf.yield %a, %s1 : !coopvec.vec<8, f16>, f16
      } else {
        %y = "coopvec.fma"(%h, %e#2, %x) : (!coopvec.vec<8, f16>, f16, !coopvec.vec<8, f16>) -> !coopvec.vec<8, f16>
        %s1 = arith.subf %s, %e#3 : f16
        scf.yield %y, %s1 : !coopvec.vec<8, f16>, f16
      }
      scf.yield %h2#0, %h2#1 : !coopvec.vec<8, f16>, f16
    }
    scf.yield %l#0, %l#1 : !coopvec.vec<8, f16>, f16
  } else {
    %y = "coopvec.neg"(%x) : (!coopvec.vec<8, f16>) -> !coopvec.vec<8, f16>
    scf.yield %y, %idh : !coopvec.vec<8, f16>, f16
  }
  %s = "coopvec.from_elements"(%r#1) : (f16) -> !coopvec.vec<1, f16>
  return %r#0, %s : !coopvec.vec<8, f16>, !coopvec.vec<1, f16>
}

//--- while32.mlir
// scf.while with a per-thread exit: thread t iterates h = tanh((A h + b) / 4)
// until its counter k reaches n = 0..39 (from x0) or k + 1 is a multiple of
// m = 3..8 (from x1), whichever comes first; the loop carries a vec, an i32
// counter and an f32 sum, and the results are h, k and the sum.
func.func @while32(%x: !coopvec.vec<8, f32>, %w: memref<?xf32>) -> (!coopvec.vec<8, f32>, !coopvec.vec<2, f32>) {
  %c64 = arith.constant 64 : index
  %one = arith.constant 1.0 : f32
  %quarter = arith.constant 0.25 : f32
  %twenty = arith.constant 20.0 : f32
  %three = arith.constant 3.0 : f32
  %six = arith.constant 6.0 : f32
  %i0 = arith.constant 0 : i32
  %i1 = arith.constant 1 : i32
  %zero = arith.constant 0.0 : f32
  %e:8 = "coopvec.unpack"(%x) : (!coopvec.vec<8, f32>) -> (f32, f32, f32, f32, f32, f32, f32, f32)
  %A = "coopvec.matrix_view"(%w) {offset = 0} : (memref<?xf32>) -> !coopvec.matrix<8, 8, f32, "row_major">
  %b = "coopvec.load"(%w, %c64) : (memref<?xf32>, index) -> !coopvec.vec<8, f32>
  %p = arith.addf %e#0, %one : f32
  %q = arith.mulf %p, %twenty : f32
  %n = arith.fptosi %q : f32 to i32
  %m0 = math.fma %e#1, %three, %six : f32
  %m = arith.fptosi %m0 : f32 to i32
  %r:3 = scf.while (%h = %x, %k = %i0, %s = %zero) : (!coopvec.vec<8, f32>, i32, f32) -> (!coopvec.vec<8, f32>, i32, f32) {
    %more = arith.cmpi slt, %k, %n : i32
    %k1 = arith.addi %k, %i1 : i32
    %rem = arith.remsi %k1, %m : i32
    %notdiv = arith.cmpi ne, %rem, %i0 : i32
    %go = arith.andi %more, %notdiv : i1
    scf.condition(%go) %h, %k, %s : !coopvec.vec<8, f32>, i32, f32
  } do {
  ^bb0(%h: !coopvec.vec<8, f32>, %k: i32, %s: f32):
    %y = "coopvec.matvec"(%A, %h, %b) : (!coopvec.matrix<8, 8, f32, "row_major">, !coopvec.vec<8, f32>, !coopvec.vec<8, f32>) -> !coopvec.vec<8, f32>
    %z = "coopvec.mul"(%y, %quarter) : (!coopvec.vec<8, f32>, f32) -> !coopvec.vec<8, f32>
        %a = "coopvec.tanh"(%z) : (!coopvec.vec<8, f32>) -> !coopvec.vec<8, f32>
    %k1 = arith.addi %k, %i1 : i32
    %f:8 = "coopvec.unpack"(%a) : (!coopvec.vec<8, f32>) -> (f32, f32, f32, f32, f32, f32, f32, f32)
    %s1 = arith.addf %s, %f#0 : f32
    scf.yield %a, %k1, %s1 : !coopvec.vec<8, f32>, i32, f32
  }
  %kf = arith.sitofp %r#1 : i32 to f32
  %o = "coopvec.from_elements"(%kf, %r#2) : (f32, f32) -> !coopvec.vec<2, f32>
  return %r#0, %o : !coopvec.vec<8, f32>, !coopvec.vec<2, f32>
}

//--- while16.mlir
// f16: m = fma(x1, 3, 6), rounded once (on Vulkan, coopvec-prepare-spirv
// computes f16 fmas in f32, whether the driver fuses GLSL Fma or not:
// lavapipe's unfused f16 Fma changed which integer some m truncate to).
func.func @while16(%x: !coopvec.vec<8, f16>, %w: memref<?xf16>) -> (!coopvec.vec<8, f16>, !coopvec.vec<2, f16>) {
  %c64 = arith.constant 64 : index
  %one = arith.constant 1.0 : f16
  %quarter = arith.constant 0.25 : f16
  %twenty = arith.constant 20.0 : f16
  %three = arith.constant 3.0 : f16
  %six = arith.constant 6.0 : f16
  %i0 = arith.constant 0 : i32
  %i1 = arith.constant 1 : i32
  %zero = arith.constant 0.0 : f16
  %e:8 = "coopvec.unpack"(%x) : (!coopvec.vec<8, f16>) -> (f16, f16, f16, f16, f16, f16, f16, f16)
  %A = "coopvec.matrix_view"(%w) {offset = 0} : (memref<?xf16>) -> !coopvec.matrix<8, 8, f16, "row_major">
  %b = "coopvec.load"(%w, %c64) : (memref<?xf16>, index) -> !coopvec.vec<8, f16>
  %p = arith.addf %e#0, %one : f16
  %q = arith.mulf %p, %twenty : f16
  %n = arith.fptosi %q : f16 to i32
  %m0 = math.fma %e#1, %three, %six : f16
  %m = arith.fptosi %m0 : f16 to i32
  %r:3 = scf.while (%h = %x, %k = %i0, %s = %zero) : (!coopvec.vec<8, f16>, i32, f16) -> (!coopvec.vec<8, f16>, i32, f16) {
    %more = arith.cmpi slt, %k, %n : i32
    %k1 = arith.addi %k, %i1 : i32
    %rem = arith.remsi %k1, %m : i32
    %notdiv = arith.cmpi ne, %rem, %i0 : i32
    %go = arith.andi %more, %notdiv : i1
    scf.condition(%go) %h, %k, %s : !coopvec.vec<8, f16>, i32, f16
  } do {
  ^bb0(%h: !coopvec.vec<8, f16>, %k: i32, %s: f16):
    %y = "coopvec.matvec"(%A, %h, %b) : (!coopvec.matrix<8, 8, f16, "row_major">, !coopvec.vec<8, f16>, !coopvec.vec<8, f16>) -> !coopvec.vec<8, f16>
    %z = "coopvec.mul"(%y, %quarter) : (!coopvec.vec<8, f16>, f16) -> !coopvec.vec<8, f16>
        %a = "coopvec.tanh"(%z) : (!coopvec.vec<8, f16>) -> !coopvec.vec<8, f16>
    %k1 = arith.addi %k, %i1 : i32
    %f:8 = "coopvec.unpack"(%a) : (!coopvec.vec<8, f16>) -> (f16, f16, f16, f16, f16, f16, f16, f16)
    %s1 = arith.addf %s, %f#0 : f16
    scf.yield %a, %k1, %s1 : !coopvec.vec<8, f16>, i32, f16
  }
  %kf = arith.sitofp %r#1 : i32 to f16
  %o = "coopvec.from_elements"(%kf, %r#2) : (f16, f16) -> !coopvec.vec<2, f16>
  return %r#0, %o : !coopvec.vec<8, f16>, !coopvec.vec<2, f16>
}

//--- trips32.mlir
// scf.for with per-thread trip counts 0..40 (ub from x0), holding a matvec
// and a reduce_sum_accumulate at a per-thread offset (8 * (i mod 3));
// then a loop whose lower bound (-3..3), upper bound and step (-2..2, so
// some threads have steps <= 0 and run no iteration) all vary.
func.func @trips32(%x: !coopvec.vec<8, f32>, %w: memref<?xf32>, %g: memref<24xf32>) -> (!coopvec.vec<8, f32>, !coopvec.vec<3, f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %one = arith.constant 1.0 : f32
  %quarter = arith.constant 0.25 : f32
  %three = arith.constant 3.0 : f32
  %four = arith.constant 4.0 : f32
  %k = arith.constant 20.5 : f32
  %small = arith.constant 0.125 : f32
  %zero = arith.constant 0.0 : f32
  %e:8 = "coopvec.unpack"(%x) : (!coopvec.vec<8, f32>) -> (f32, f32, f32, f32, f32, f32, f32, f32)
  %A = "coopvec.matrix_view"(%w) {offset = 0} : (memref<?xf32>) -> !coopvec.matrix<8, 8, f32, "row_major">
  %b = "coopvec.load"(%w, %c64) : (memref<?xf32>, index) -> !coopvec.vec<8, f32>
  %p = arith.addf %e#0, %one : f32
  %q = arith.mulf %p, %k : f32
  %n = arith.fptosi %q : f32 to i64
  %ub = arith.index_cast %n : i64 to index
  %l:2 = scf.for %i = %c0 to %ub step %c1 iter_args(%h = %x, %s = %zero) -> (!coopvec.vec<8, f32>, f32) {
    %y = "coopvec.matvec"(%A, %h, %b) : (!coopvec.matrix<8, 8, f32, "row_major">, !coopvec.vec<8, f32>, !coopvec.vec<8, f32>) -> !coopvec.vec<8, f32>
    %z = "coopvec.mul"(%y, %quarter) : (!coopvec.vec<8, f32>, f32) -> !coopvec.vec<8, f32>
        %a = "coopvec.tanh"(%z) : (!coopvec.vec<8, f32>) -> !coopvec.vec<8, f32>
    %d = "coopvec.mul"(%a, %small) : (!coopvec.vec<8, f32>, f32) -> !coopvec.vec<8, f32>
    %r = arith.remui %i, %c3 : index
    %off = arith.muli %r, %c8 : index
    "coopvec.reduce_sum_accumulate"(%d, %g, %off) : (!coopvec.vec<8, f32>, memref<24xf32>, index) -> ()
    %s1 = arith.addf %s, %one : f32
    scf.yield %a, %s1 : !coopvec.vec<8, f32>, f32
  }
  // lb = trunc(4 x1) in -3..3, ub = trunc(4 x2) + 4 in 1..7,
  // step = trunc(3 x3) in -2..2.
  %lbf = arith.mulf %e#1, %four : f32
  %lbi = arith.fptosi %lbf : f32 to i32
  %ubf = math.fma %e#2, %four, %four : f32
  %ubi = arith.fptosi %ubf : f32 to i32
  %stf = arith.mulf %e#3, %three : f32
  %sti = arith.fptosi %stf : f32 to i32
  %m:2 = scf.for %j = %lbi to %ubi step %sti iter_args(%c = %zero, %u = %zero) -> (f32, f32) : i32 {
    %jf = arith.sitofp %j : i32 to f32
    %c1f = arith.addf %c, %one : f32
    %u1 = math.fma %u, %e#4, %jf : f32
    scf.yield %c1f, %u1 : f32, f32
  }
  %o = "coopvec.from_elements"(%l#1, %m#0, %m#1) : (f32, f32, f32) -> !coopvec.vec<3, f32>
  return %l#0, %o : !coopvec.vec<8, f32>, !coopvec.vec<3, f32>
}

//--- trips16.mlir
// f16, accumulating the f16 rows widened into an f32 gradient (per-thread
// additions into f16 storage round at every one of the ~N * 7 additions,
// beyond what --check's tolerance for N threads allows).
func.func @trips16(%x: !coopvec.vec<8, f16>, %w: memref<?xf16>, %g: memref<24xf32>) -> (!coopvec.vec<8, f16>, !coopvec.vec<3, f16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %one = arith.constant 1.0 : f16
  %quarter = arith.constant 0.25 : f16
  %three = arith.constant 3.0 : f16
  %four = arith.constant 4.0 : f16
  %k = arith.constant 20.5 : f16
  %small = arith.constant 0.125 : f16
  %zero = arith.constant 0.0 : f16
  %e:8 = "coopvec.unpack"(%x) : (!coopvec.vec<8, f16>) -> (f16, f16, f16, f16, f16, f16, f16, f16)
  %A = "coopvec.matrix_view"(%w) {offset = 0} : (memref<?xf16>) -> !coopvec.matrix<8, 8, f16, "row_major">
  %b = "coopvec.load"(%w, %c64) : (memref<?xf16>, index) -> !coopvec.vec<8, f16>
  %p = arith.addf %e#0, %one : f16
  %q = arith.mulf %p, %k : f16
  %n = arith.fptosi %q : f16 to i64
  %ub = arith.index_cast %n : i64 to index
  %l:2 = scf.for %i = %c0 to %ub step %c1 iter_args(%h = %x, %s = %zero) -> (!coopvec.vec<8, f16>, f16) {
    %y = "coopvec.matvec"(%A, %h, %b) : (!coopvec.matrix<8, 8, f16, "row_major">, !coopvec.vec<8, f16>, !coopvec.vec<8, f16>) -> !coopvec.vec<8, f16>
    %z = "coopvec.mul"(%y, %quarter) : (!coopvec.vec<8, f16>, f16) -> !coopvec.vec<8, f16>
        %a = "coopvec.tanh"(%z) : (!coopvec.vec<8, f16>) -> !coopvec.vec<8, f16>
    %d = "coopvec.mul"(%a, %small) : (!coopvec.vec<8, f16>, f16) -> !coopvec.vec<8, f16>
    %r = arith.remui %i, %c3 : index
    %off = arith.muli %r, %c8 : index
    %d32 = "coopvec.cast"(%d) : (!coopvec.vec<8, f16>) -> !coopvec.vec<8, f32>
    "coopvec.reduce_sum_accumulate"(%d32, %g, %off) : (!coopvec.vec<8, f32>, memref<24xf32>, index) -> ()
    %s1 = arith.addf %s, %one : f16
    scf.yield %a, %s1 : !coopvec.vec<8, f16>, f16
  }
  // lb = trunc(4 x1) in -3..3, ub = trunc(4 x2) + 4 in 1..7,
  // step = trunc(3 x3) in -2..2.
  %lbf = arith.mulf %e#1, %four : f16
  %lbi = arith.fptosi %lbf : f16 to i32
  %ub4 = arith.mulf %e#2, %four : f16
  %ubf = arith.addf %ub4, %four : f16
  %ubi = arith.fptosi %ubf : f16 to i32
  %stf = arith.mulf %e#3, %three : f16
  %sti = arith.fptosi %stf : f16 to i32
  %m:2 = scf.for %j = %lbi to %ubi step %sti iter_args(%c = %zero, %u = %zero) -> (f16, f16) : i32 {
    %jf = arith.sitofp %j : i32 to f16
    %c1f = arith.addf %c, %one : f16
    %u1 = math.fma %u, %e#4, %jf : f16
    scf.yield %c1f, %u1 : f16, f16
  }
  %o = "coopvec.from_elements"(%l#1, %m#0, %m#1) : (f16, f16, f16) -> !coopvec.vec<3, f16>
  return %l#0, %o : !coopvec.vec<8, f16>, !coopvec.vec<3, f16>
}

//--- stores.mlir
// Odd threads store A x at offset 4 t of %out, even ones load 4 elements
// of %w at offset 4 t and store their sum with x there.
func.func @stores32(%tid: !coopvec.vec<1, f32>, %x: !coopvec.vec<4, f32>, %w: memref<?xf32>, %out: memref<?xf32>) -> !coopvec.vec<4, f32> {
  %c4 = arith.constant 4 : index
  %i1 = arith.constant 1 : i32
  %id = "coopvec.unpack"(%tid) : (!coopvec.vec<1, f32>) -> f32
  %n = arith.fptosi %id : f32 to i32
  %ni = arith.index_cast %n : i32 to index
  %off = arith.muli %ni, %c4 : index
  %A = "coopvec.matrix_view"(%w) {offset = 0} : (memref<?xf32>) -> !coopvec.matrix<4, 4, f32, "row_major">
  %bit = arith.andi %n, %i1 : i32
  %odd = arith.cmpi eq, %bit, %i1 : i32
  %r = scf.if %odd -> !coopvec.vec<4, f32> {
    %y = "coopvec.matvec"(%A, %x) : (!coopvec.matrix<4, 4, f32, "row_major">, !coopvec.vec<4, f32>) -> !coopvec.vec<4, f32>
    "coopvec.store"(%y, %out, %off) : (!coopvec.vec<4, f32>, memref<?xf32>, index) -> ()
    scf.yield %y : !coopvec.vec<4, f32>
  } else {
    %v = "coopvec.load"(%w, %off) : (memref<?xf32>, index) -> !coopvec.vec<4, f32>
    %y = "coopvec.add"(%v, %x) : (!coopvec.vec<4, f32>, !coopvec.vec<4, f32>) -> !coopvec.vec<4, f32>
    "coopvec.store"(%y, %out, %off) : (!coopvec.vec<4, f32>, memref<?xf32>, index) -> ()
    scf.yield %y : !coopvec.vec<4, f32>
  }
  return %r : !coopvec.vec<4, f32>
}

//--- switch.mlir
// Two scf.index_switch: one on thread % 5 (cases 0-3 and the default for
// 4), one on a selector from the input, fptosi((x0 + 1) * 2.5) in 0..4
// (cases 1 and 3 and the default); each case runs other coopvec ops:
// matvecs of two matrices (one transposed), tanh / exp2, a scalar path.
func.func @switch32(%tid: !coopvec.vec<1, f32>, %x: !coopvec.vec<6, f32>, %w: memref<?xf32>) -> (!coopvec.vec<6, f32>, !coopvec.vec<6, f32>, !coopvec.vec<2, f32>) {
  %c5 = arith.constant 5 : i32
  %one = arith.constant 1.0 : f32
  %k = arith.constant 2.5 : f32
  %id = "coopvec.unpack"(%tid) : (!coopvec.vec<1, f32>) -> f32
  %n = arith.fptosi %id : f32 to i32
  %m = arith.remsi %n, %c5 : i32
  %sel = arith.index_cast %m : i32 to index
  %e:6 = "coopvec.unpack"(%x) : (!coopvec.vec<6, f32>) -> (f32, f32, f32, f32, f32, f32)
  %A = "coopvec.matrix_view"(%w) {offset = 0} : (memref<?xf32>) -> !coopvec.matrix<6, 6, f32, "row_major">
  %B = "coopvec.matrix_view"(%w) {offset = 144} : (memref<?xf32>) -> !coopvec.matrix<6, 6, f32, "col_major">
  %r:2 = scf.index_switch %sel -> !coopvec.vec<6, f32>, f32
  case 0 {
    %y = "coopvec.matvec"(%A, %x) : (!coopvec.matrix<6, 6, f32, "row_major">, !coopvec.vec<6, f32>) -> !coopvec.vec<6, f32>
    scf.yield %y, %e#0 : !coopvec.vec<6, f32>, f32
  }
  case 1 {
    %y = "coopvec.matvec"(%B, %x, %x) {transpose} : (!coopvec.matrix<6, 6, f32, "col_major">, !coopvec.vec<6, f32>, !coopvec.vec<6, f32>) -> !coopvec.vec<6, f32>
    %s = math.sin %e#1 : f32
    scf.yield %y, %s : !coopvec.vec<6, f32>, f32
  }
  case 2 {
    %y = "coopvec.tanh"(%x) : (!coopvec.vec<6, f32>) -> !coopvec.vec<6, f32>
    %s = arith.addf %e#2, %one : f32
    scf.yield %y, %s : !coopvec.vec<6, f32>, f32
  }
  case 3 {
    %y = "coopvec.exp2"(%x) : (!coopvec.vec<6, f32>) -> !coopvec.vec<6, f32>
    %z = "coopvec.matvec"(%A, %y) : (!coopvec.matrix<6, 6, f32, "row_major">, !coopvec.vec<6, f32>) -> !coopvec.vec<6, f32>
    %s = arith.mulf %e#3, %e#4 : f32
    scf.yield %z, %s : !coopvec.vec<6, f32>, f32
  }
  default {
    %y = "coopvec.neg"(%x) : (!coopvec.vec<6, f32>) -> !coopvec.vec<6, f32>
    %s = arith.negf %e#5 : f32
    scf.yield %y, %s : !coopvec.vec<6, f32>, f32
  }
  %p = arith.addf %e#0, %one : f32
  %q = arith.mulf %p, %k : f32
  %v = arith.fptosi %q : f32 to i64
  %sel2 = arith.index_cast %v : i64 to index
  %t:2 = scf.index_switch %sel2 -> !coopvec.vec<6, f32>, f32
  case 1 {
    %y = "coopvec.matvec"(%B, %x) : (!coopvec.matrix<6, 6, f32, "col_major">, !coopvec.vec<6, f32>) -> !coopvec.vec<6, f32>
    scf.yield %y, %q : !coopvec.vec<6, f32>, f32
  }
  case 3 {
    %y = "coopvec.matvec"(%A, %x) {transpose} : (!coopvec.matrix<6, 6, f32, "row_major">, !coopvec.vec<6, f32>) -> !coopvec.vec<6, f32>
    %s = math.cos %q : f32
    scf.yield %y, %s : !coopvec.vec<6, f32>, f32
  }
  default {
    %y = "coopvec.mul"(%x, %e#1) : (!coopvec.vec<6, f32>, f32) -> !coopvec.vec<6, f32>
    scf.yield %y, %e#2 : !coopvec.vec<6, f32>, f32
  }
  %s = "coopvec.from_elements"(%r#1, %t#1) : (f32, f32) -> !coopvec.vec<2, f32>
  return %r#0, %t#0, %s : !coopvec.vec<6, f32>, !coopvec.vec<6, f32>, !coopvec.vec<2, f32>
}
