// Scatter-adds at per-thread indices under every reduce-mode of the
// lowering pipelines (docs/passes.md, "reduce-mode"; coopvec-run
// --reduce-mode): memref.atomic_rmw addf into one element (every thread
// collides), four elements (few addresses) and 1000 (random positions),
// addf of f16 and addi of i32 into four bins; under divergent control
// flow (only threads with a positive value add); reduce_sum_accumulate at
// a per-thread offset; and an atomic whose old value is used (stays one
// per thread in every mode). At batches 31, 1029 and 4099 each mode's run
// is compared with the reference interpreter (--check);
// test/Integration/Vulkan/vulkan.test and test/Integration/GPU/cuda.test
// run the same lines on those targets, whose local (and expand) mode uses
// subgroup reductions. The f32 sums reassociate (docs/dialect.md), so the
// tolerance is --check's (the interpreter rounds the f16 bins at each
// atomic, as GPU targets do; the CPU engine sums them in an f32 shadow and
// rounds once: docs/dialect.md, "f16 accumulation"); the integer bins are
// exact in every order (max abs error 0). Two cases are also checked
// against sums in double written by NumPy (Inputs/scatter-sums.py).

// RUN: split-file %s %t

// RUN: coopvec-run %t/scatter.mlir --entry=scatter --batch=31 --random --seed=301 --check --reduce-mode=direct | FileCheck %s --check-prefix=SCATTER
// RUN: coopvec-run %t/scatter.mlir --entry=scatter --batch=31 --random --seed=301 --check --reduce-mode=local | FileCheck %s --check-prefix=SCATTER
// RUN: coopvec-run %t/scatter.mlir --entry=scatter --batch=31 --random --seed=301 --check --reduce-mode=auto | FileCheck %s --check-prefix=SCATTER
// RUN: coopvec-run %t/scatter.mlir --entry=scatter --batch=1029 --random --seed=302 --check --reduce-mode=direct | FileCheck %s --check-prefix=SCATTER
// RUN: coopvec-run %t/scatter.mlir --entry=scatter --batch=1029 --random --seed=302 --check --reduce-mode=local | FileCheck %s --check-prefix=SCATTER
// RUN: coopvec-run %t/scatter.mlir --entry=scatter --batch=1029 --random --seed=302 --check --reduce-mode=auto | FileCheck %s --check-prefix=SCATTER
// RUN: coopvec-run %t/scatter.mlir --entry=scatter --batch=4099 --random --seed=303 --check --reduce-mode=direct | FileCheck %s --check-prefix=SCATTER
// RUN: coopvec-run %t/scatter.mlir --entry=scatter --batch=4099 --random --seed=303 --check --reduce-mode=local | FileCheck %s --check-prefix=SCATTER
// RUN: coopvec-run %t/scatter.mlir --entry=scatter --batch=4099 --random --seed=303 --check --reduce-mode=auto | FileCheck %s --check-prefix=SCATTER
// RUN: coopvec-run %t/scatter.mlir --entry=scatter --batch=31 --random --seed=301 --check --reduce-mode=expand | FileCheck %s --check-prefix=SCATTER
// RUN: coopvec-run %t/scatter.mlir --entry=scatter --batch=1029 --random --seed=302 --check --reduce-mode=expand | FileCheck %s --check-prefix=SCATTER
// RUN: coopvec-run %t/scatter.mlir --entry=scatter --batch=4099 --random --seed=303 --check --reduce-mode=expand | FileCheck %s --check-prefix=SCATTER
// expand on 1 to 5 host threads (each but the first adds into its own copy
// of %one, %few, %many, %count and the f32 shadow of the f16 %half, merged
// after the run); a race between threads would lose adds and fail.
// RUN: %if !coopvec-run-target %{ coopvec-run %t/scatter.mlir --entry=scatter --batch=4099 --random --seed=305 --check --reduce-mode=expand --threads=1 | FileCheck %s --check-prefix=SCATTER %}
// RUN: %if !coopvec-run-target %{ coopvec-run %t/scatter.mlir --entry=scatter --batch=4099 --random --seed=305 --check --reduce-mode=expand --threads=2 | FileCheck %s --check-prefix=SCATTER %}
// RUN: %if !coopvec-run-target %{ coopvec-run %t/scatter.mlir --entry=scatter --batch=4099 --random --seed=305 --check --reduce-mode=expand --threads=5 | FileCheck %s --check-prefix=SCATTER %}
// RUN: %if !coopvec-run-target %{ coopvec-run %t/scatter.mlir --entry=scatter --batch=4099 --random --seed=305 --print --reduce-mode=expand --threads=3 > %t/expand3.txt %}
// RUN: %if !coopvec-run-target %{ coopvec-run %t/scatter.mlir --entry=scatter --batch=4099 --random --seed=305 --print --reduce-mode=direct --threads=1 > %t/direct1.txt %}
// The integer bins are exact: equal to direct's on one thread.
// RUN: %if !coopvec-run-target %{ grep -A1 'argument 5' %t/expand3.txt > %t/expand3-count.txt %}
// RUN: %if !coopvec-run-target %{ grep -A1 'argument 5' %t/direct1.txt | diff - %t/expand3-count.txt %}
// local on 2 and 5 host threads: each host thread's call carries its sums
// into %one, %few, %many, %count and the shadow of %half (only added into)
// across its lane groups and adds what it holds at the end of the call
// (CarriedAdd.c); the threads' last adds race only as atomics. The
// integer bins equal direct's on the same inputs (seed 305, above).
// RUN: %if !coopvec-run-target %{ coopvec-run %t/scatter.mlir --entry=scatter --batch=4099 --random --seed=308 --check --reduce-mode=local --threads=2 | FileCheck %s --check-prefix=SCATTER %}
// RUN: %if !coopvec-run-target %{ coopvec-run %t/scatter.mlir --entry=scatter --batch=1029 --random --seed=309 --check --reduce-mode=local --threads=5 --lanes=4 | FileCheck %s --check-prefix=SCATTER %}
// RUN: %if !coopvec-run-target %{ coopvec-run %t/scatter.mlir --entry=scatter --batch=4099 --random --seed=305 --print --reduce-mode=local --threads=2 > %t/local2.txt %}
// RUN: %if !coopvec-run-target %{ grep -A1 'argument 5' %t/local2.txt | diff - %t/expand3-count.txt %}
// auto runs @"scatter.expand_batched" (copies of the f32 / i32 buffers)
// while the copies take at most 8 MiB, else @scatter_batched (atomics):
// %g of 3,000,000 f32 (12 MB per copy) takes the atomic code on 2 and 3
// host threads, the expand variant on 1 (no copy).
// RUN: %if !coopvec-run-target %{ coopvec-run %t/scatter.mlir --entry=scatter --batch=4099 --random --seed=306 --check --reduce-mode=auto --threads=3 | FileCheck %s --check-prefix=SCATTER %}
// RUN: %if !coopvec-run-target %{ coopvec-run %t/big.mlir --entry=big --batch=1029 --random --seed=307 --memref-size=1:3000000 --check --threads=2 | FileCheck %s --check-prefix=BIG %}
// RUN: %if !coopvec-run-target %{ coopvec-run %t/big.mlir --entry=big --batch=1029 --random --seed=307 --memref-size=1:3000000 --check --threads=3 | FileCheck %s --check-prefix=BIG %}
// RUN: %if !coopvec-run-target %{ coopvec-run %t/big.mlir --entry=big --batch=1029 --random --seed=307 --memref-size=1:3000000 --check --threads=1 | FileCheck %s --check-prefix=BIG %}
// RUN: %if !coopvec-run-target %{ coopvec-run %t/big.mlir --entry=big --batch=1029 --random --seed=307 --memref-size=1:3000000 --check --threads=2 --reduce-mode=expand | FileCheck %s --check-prefix=BIG %}
// BIG:      argument 1 (written): max abs error {{.*}}: PASS
// BIG-NEXT: {{^PASS$}}
// Odd lane counts (CPU; dropped on GPU targets): the last group is partial
// in a different place.
// RUN: coopvec-run %t/scatter.mlir --entry=scatter --batch=1029 --random --seed=304 --check --lanes=7 --reduce-mode=local | FileCheck %s --check-prefix=SCATTER
// RUN: coopvec-run %t/scatter.mlir --entry=scatter --batch=1029 --random --seed=304 --check --lanes=3 --reduce-mode=auto | FileCheck %s --check-prefix=SCATTER
// SCATTER:      argument 1 (written): max abs error {{.*}}: PASS
// SCATTER-NEXT: argument 2 (written): max abs error {{.*}}: PASS
// SCATTER-NEXT: argument 3 (written): max abs error {{.*}}: PASS
// SCATTER-NEXT: argument 4 (written): max abs error {{.*}}: PASS
// SCATTER-NEXT: argument 5 (written): max abs error 0, {{.*}}: PASS
// SCATTER-NEXT: {{^PASS$}}

// RUN: coopvec-run %t/divergent.mlir --entry=divergent --batch=31 --random --seed=311 --check --reduce-mode=direct | FileCheck %s --check-prefix=DIVERGENT
// RUN: coopvec-run %t/divergent.mlir --entry=divergent --batch=31 --random --seed=311 --check --reduce-mode=local | FileCheck %s --check-prefix=DIVERGENT
// RUN: coopvec-run %t/divergent.mlir --entry=divergent --batch=31 --random --seed=311 --check --reduce-mode=auto | FileCheck %s --check-prefix=DIVERGENT
// RUN: coopvec-run %t/divergent.mlir --entry=divergent --batch=4099 --random --seed=312 --check --reduce-mode=direct | FileCheck %s --check-prefix=DIVERGENT
// RUN: coopvec-run %t/divergent.mlir --entry=divergent --batch=4099 --random --seed=312 --check --reduce-mode=local | FileCheck %s --check-prefix=DIVERGENT
// RUN: coopvec-run %t/divergent.mlir --entry=divergent --batch=4099 --random --seed=312 --check --reduce-mode=auto | FileCheck %s --check-prefix=DIVERGENT
// RUN: coopvec-run %t/divergent.mlir --entry=divergent --batch=4099 --random --seed=312 --check --reduce-mode=expand | FileCheck %s --check-prefix=DIVERGENT
// DIVERGENT:      result 0: max abs error {{.*}}: PASS
// DIVERGENT-NEXT: argument 1 (written): max abs error {{.*}}: PASS
// DIVERGENT-NEXT: argument 2 (written): max abs error {{.*}}: PASS
// DIVERGENT-NEXT: argument 3 (written): max abs error {{.*}}: PASS
// DIVERGENT-NEXT: {{^PASS$}}

// Sums in double (NumPy), for the modes that reassociate most (local on 1
// and 3 host threads; expand on 3 host threads).
// RUN: %if python-numpy %{ coopvec-run %t/scatter.mlir --entry=scatter --batch=4099 --random --seed=321 --save-inputs=%t/in_ --out=%t/out --reduce-mode=local %}
// RUN: %if python-numpy %{ %python %S/Inputs/scatter-sums.py %t/in_ %t/out | FileCheck %s --check-prefix=DOUBLE %}
// RUN: %if python-numpy && !coopvec-run-target %{ coopvec-run %t/scatter.mlir --entry=scatter --batch=4099 --random --seed=323 --save-inputs=%t/lin_ --out=%t/lout --reduce-mode=local --threads=3 %}
// RUN: %if python-numpy && !coopvec-run-target %{ %python %S/Inputs/scatter-sums.py %t/lin_ %t/lout | FileCheck %s --check-prefix=DOUBLE %}
// RUN: %if python-numpy && !coopvec-run-target %{ coopvec-run %t/scatter.mlir --entry=scatter --batch=4099 --random --seed=322 --save-inputs=%t/ein_ --out=%t/eout --reduce-mode=expand --threads=3 %}
// RUN: %if python-numpy && !coopvec-run-target %{ %python %S/Inputs/scatter-sums.py %t/ein_ %t/eout | FileCheck %s --check-prefix=DOUBLE %}
// DOUBLE:      argument 1: 4099 adds, PASS
// DOUBLE-NEXT: argument 2: 4099 adds, PASS
// DOUBLE-NEXT: argument 3: 4099 adds, PASS
// DOUBLE-NEXT: {{^PASS$}}

// f16 buffers and reduce_sum_accumulate at per-thread offsets (@half): the
// f16 %bins take one memref.atomic_rmw addf per thread, %grad (f16) and
// %fgrad (f32) a reduce_sum_accumulate of the thread's vec at offset
// 2 * bin, from the threads with x1 > 0 only (the others are inactive
// there). On the CPU the engine runs every f16 buffer that is only added
// into on an f32 shadow, rounded once after the run (docs/dialect.md, "f16
// accumulation"), and expand copies the shadows (f32) and %fgrad per host
// thread. --check's f16 tolerance covers the interpreter's rounding of
// %bins at each atomic (docs/coopvec-run.md); the f16 and f32 results are
// also checked against sums in double below.
// RUN: coopvec-run %t/half.mlir --entry=half --batch=31 --random --seed=331 --check --reduce-mode=direct | FileCheck %s --check-prefix=HALF
// RUN: coopvec-run %t/half.mlir --entry=half --batch=31 --random --seed=331 --check --reduce-mode=local | FileCheck %s --check-prefix=HALF
// RUN: coopvec-run %t/half.mlir --entry=half --batch=31 --random --seed=331 --check --reduce-mode=expand | FileCheck %s --check-prefix=HALF
// RUN: coopvec-run %t/half.mlir --entry=half --batch=31 --random --seed=331 --check --reduce-mode=auto | FileCheck %s --check-prefix=HALF
// RUN: coopvec-run %t/half.mlir --entry=half --batch=1029 --random --seed=332 --check --reduce-mode=direct | FileCheck %s --check-prefix=HALF
// RUN: coopvec-run %t/half.mlir --entry=half --batch=1029 --random --seed=332 --check --reduce-mode=local | FileCheck %s --check-prefix=HALF
// RUN: coopvec-run %t/half.mlir --entry=half --batch=1029 --random --seed=332 --check --reduce-mode=expand | FileCheck %s --check-prefix=HALF
// RUN: coopvec-run %t/half.mlir --entry=half --batch=1029 --random --seed=332 --check --reduce-mode=auto | FileCheck %s --check-prefix=HALF
// RUN: coopvec-run %t/half.mlir --entry=half --batch=4099 --random --seed=333 --check --reduce-mode=direct | FileCheck %s --check-prefix=HALF
// RUN: coopvec-run %t/half.mlir --entry=half --batch=4099 --random --seed=333 --check --reduce-mode=local | FileCheck %s --check-prefix=HALF
// RUN: coopvec-run %t/half.mlir --entry=half --batch=4099 --random --seed=333 --check --reduce-mode=expand | FileCheck %s --check-prefix=HALF
// RUN: coopvec-run %t/half.mlir --entry=half --batch=4099 --random --seed=333 --check --reduce-mode=auto | FileCheck %s --check-prefix=HALF
// RUN: %if !coopvec-run-target %{ coopvec-run %t/half.mlir --entry=half --batch=4099 --random --seed=334 --check --reduce-mode=expand --threads=2 | FileCheck %s --check-prefix=HALF %}
// RUN: %if !coopvec-run-target %{ coopvec-run %t/half.mlir --entry=half --batch=4099 --random --seed=334 --check --reduce-mode=auto --threads=2 | FileCheck %s --check-prefix=HALF %}
// RUN: %if !coopvec-run-target %{ coopvec-run %t/half.mlir --entry=half --batch=1029 --random --seed=335 --check --reduce-mode=expand --threads=5 --lanes=7 | FileCheck %s --check-prefix=HALF %}
// HALF:      argument 1 (written): max abs error {{.*}}: PASS
// HALF-NEXT: argument 2 (written): max abs error {{.*}}: PASS
// HALF-NEXT: argument 3 (written): max abs error {{.*}}: PASS
// HALF-NEXT: {{^PASS$}}
// Sums in double (Inputs/half-sums.py): expand and auto on 2 host threads
// (each copy an f32 copy of the shadow), direct on 1, and Vulkan (the
// engine shadows the f16 %bins of the scatter-add atomics on every
// target, so they round once there too).
// RUN: %if python-numpy && !coopvec-run-target %{ coopvec-run %t/half.mlir --entry=half --batch=4099 --random --seed=336 --save-inputs=%t/hin_ --out=%t/hexp --reduce-mode=expand --threads=2 %}
// RUN: %if python-numpy && !coopvec-run-target %{ %python %S/Inputs/half-sums.py %t/hin_ %t/hexp | FileCheck %s --check-prefix=HDOUBLE %}
// RUN: %if python-numpy && !coopvec-run-target %{ coopvec-run %t/half.mlir --entry=half --batch=4099 --random --seed=336 --save-inputs=%t/hin_ --out=%t/hauto --reduce-mode=auto --threads=2 %}
// RUN: %if python-numpy && !coopvec-run-target %{ %python %S/Inputs/half-sums.py %t/hin_ %t/hauto | FileCheck %s --check-prefix=HDOUBLE %}
// RUN: %if python-numpy && !coopvec-run-target %{ coopvec-run %t/half.mlir --entry=half --batch=4099 --random --seed=336 --save-inputs=%t/hin_ --out=%t/hdir --reduce-mode=direct --threads=1 %}
// RUN: %if python-numpy && !coopvec-run-target %{ %python %S/Inputs/half-sums.py %t/hin_ %t/hdir | FileCheck %s --check-prefix=HDOUBLE %}
// RUN: %if python-numpy && vulkan && !coopvec-run-target %{ coopvec-run --target=vulkan %t/half.mlir --entry=half --batch=4099 --random --seed=336 --save-inputs=%t/hin_ --out=%t/hvk --reduce-mode=local %}
// RUN: %if python-numpy && vulkan && !coopvec-run-target %{ %python %S/Inputs/half-sums.py %t/hin_ %t/hvk | FileCheck %s --check-prefix=HDOUBLE %}
// HDOUBLE:      argument 1: 4099 adds, f16, max {{[01]}} ulp, PASS
// HDOUBLE-NEXT: argument 2: {{[0-9]+}} adds, f16, max {{[01]}} ulp, PASS
// HDOUBLE-NEXT: argument 3: {{[0-9]+}} adds, f32, PASS
// HDOUBLE-NEXT: {{^PASS$}}
// Rounding once, not at each add (@tie): 4099 threads add 2^-6 into one f16
// element that starts at 0. The exact sum, 64.046875, rounds to 64.0625;
// an f16 sum rounded after each thread's add stops at 32 (32 + 2^-6 is a
// tie that rounds to even 32), which is what the interpreter computes, so
// this one is not --check'ed. CPU only: GPU targets round at each atomic.
// RUN: printf "\x93NUMPY\x01\x00\x76\x00%%-117s\n" "{'descr': '<f4', 'fortran_order': False, 'shape': (4099, 1), }" > %t/x4099.npy
// RUN: head -c 16396 /dev/zero >> %t/x4099.npy
// RUN: printf "\x93NUMPY\x01\x00\x76\x00%%-117s\n" "{'descr': '<f2', 'fortran_order': False, 'shape': (1,), }" > %t/zero16.npy
// RUN: printf '\x00\x00' >> %t/zero16.npy
// RUN: %if !coopvec-run-target %{ coopvec-run %t/tie.mlir --entry=tie --batch=4099 --arg=%t/x4099.npy --arg=%t/zero16.npy --reduce-mode=expand --threads=2 --print | FileCheck %s --check-prefix=TIE %}
// RUN: %if !coopvec-run-target %{ coopvec-run %t/tie.mlir --entry=tie --batch=4099 --arg=%t/x4099.npy --arg=%t/zero16.npy --reduce-mode=auto --threads=3 --print | FileCheck %s --check-prefix=TIE %}
// RUN: %if !coopvec-run-target %{ coopvec-run %t/tie.mlir --entry=tie --batch=4099 --arg=%t/x4099.npy --arg=%t/zero16.npy --reduce-mode=direct --threads=2 --print | FileCheck %s --check-prefix=TIE %}
// RUN: %if !coopvec-run-target %{ coopvec-run %t/tie.mlir --entry=tie --batch=4099 --arg=%t/x4099.npy --arg=%t/zero16.npy --reduce-mode=local --threads=1 --print | FileCheck %s --check-prefix=TIE %}
// RUN: coopvec-run %t/tie.mlir --entry=tie --batch=4099 --arg=%t/x4099.npy --arg=%t/zero16.npy --reference --print | FileCheck %s --check-prefix=TIE-REF
// TIE:      argument 1 (written): f16, shape (1,)
// TIE-NEXT: [0] 64.062{{$}}
// TIE-REF:      argument 1 (written): f16, shape (1,)
// TIE-REF-NEXT: [0] 32{{$}}

//--- scatter.mlir
// Thread t adds its value v = x1 at element 0 of %one, at (x0 + 1) * 2 of
// %few and (x0 + 1) * 500 of %many (x in [-1, 1)); 1/16 at the same bin of
// the f16 %half and 1 of the i32 %count.
func.func @scatter(%x: !coopvec.vec<2, f32>, %one: memref<1xf32>, %few: memref<4xf32>, %many: memref<1000xf32>, %half: memref<4xf16>, %count: memref<4xi32>) {
  %c0 = arith.constant 0 : index
  %k1 = arith.constant 1.0 : f32
  %k2 = arith.constant 2.0 : f32
  %k500 = arith.constant 500.0 : f32
  %h = arith.constant 0.0625 : f16
  %i1 = arith.constant 1 : i32
  %e:2 = "coopvec.unpack"(%x) : (!coopvec.vec<2, f32>) -> (f32, f32)
  %p = arith.addf %e#0, %k1 : f32
  %f4 = arith.mulf %p, %k2 : f32
  %i4 = arith.fptosi %f4 : f32 to i32
  %at4 = arith.index_cast %i4 : i32 to index
  %f1000 = arith.mulf %p, %k500 : f32
  %i1000 = arith.fptosi %f1000 : f32 to i32
  %at1000 = arith.index_cast %i1000 : i32 to index
  %a = memref.atomic_rmw addf %e#1, %one[%c0] : (f32, memref<1xf32>) -> f32
  %b = memref.atomic_rmw addf %e#1, %few[%at4] : (f32, memref<4xf32>) -> f32
  %c = memref.atomic_rmw addf %e#1, %many[%at1000] : (f32, memref<1000xf32>) -> f32
  %d = memref.atomic_rmw addf %h, %half[%at4] : (f16, memref<4xf16>) -> f16
  %n = memref.atomic_rmw addi %i1, %count[%at4] : (i32, memref<4xi32>) -> i32
  return
}

//--- big.mlir
// Thread t adds x1 at (x0 + 1) * 2^20, in [0, 2^21): spread over a
// buffer of 3,000,000 elements, whose copies do not fit auto's 8 MiB.
func.func @big(%x: !coopvec.vec<2, f32>, %g: memref<?xf32>) {
  %k1 = arith.constant 1.0 : f32
  %scale = arith.constant 1048576.0 : f32
  %e:2 = "coopvec.unpack"(%x) : (!coopvec.vec<2, f32>) -> (f32, f32)
  %p = arith.addf %e#0, %k1 : f32
  %f = arith.mulf %p, %scale : f32
  %i = arith.fptosi %f : f32 to i32
  %at = arith.index_cast %i : i32 to index
  %old = memref.atomic_rmw addf %e#1, %g[%at] : (f32, memref<?xf32>) -> f32
  return
}

//--- divergent.mlir
// Threads with x1 > 0 add x1 at bin (x0 + 1) * 2 of %bins, and their
// 2-element vec at offset 2 * bin of %grad (reduce_sum_accumulate at a
// per-thread offset); every thread adds x1 at its bin of %own and uses
// the old value, so that atomic stays one per thread in every mode. The
// old values depend on the order of the threads; the result only says
// whether it is nonzero (1: the random bins start nonzero, and the
// partial sums are too, almost surely).
func.func @divergent(%x: !coopvec.vec<2, f32>, %bins: memref<4xf32>, %grad: memref<8xf32>, %own: memref<4xf32>) -> !coopvec.vec<1, f32> {
  %z = arith.constant 0.0 : f32
  %k1 = arith.constant 1.0 : f32
  %k2 = arith.constant 2.0 : f32
  %c2 = arith.constant 2 : index
  %e:2 = "coopvec.unpack"(%x) : (!coopvec.vec<2, f32>) -> (f32, f32)
  %p = arith.addf %e#0, %k1 : f32
  %f4 = arith.mulf %p, %k2 : f32
  %i4 = arith.fptosi %f4 : f32 to i32
  %at = arith.index_cast %i4 : i32 to index
  %positive = arith.cmpf ogt, %e#1, %z : f32
  scf.if %positive {
    %a = memref.atomic_rmw addf %e#1, %bins[%at] : (f32, memref<4xf32>) -> f32
    %off = arith.muli %at, %c2 : index
    "coopvec.reduce_sum_accumulate"(%x, %grad, %off) : (!coopvec.vec<2, f32>, memref<8xf32>, index) -> ()
  }
  %old = memref.atomic_rmw addf %e#1, %own[%at] : (f32, memref<4xf32>) -> f32
  %seen = arith.cmpf one, %old, %z : f32
  %r = arith.uitofp %seen : i1 to f32
  %v = "coopvec.from_elements"(%r) : (f32) -> !coopvec.vec<1, f32>
  return %v : !coopvec.vec<1, f32>
}

//--- half.mlir
// Every thread adds f16(x1) at bin (x0 + 1) * 4 of the f16 %bins (~500
// threads per bin at batch 4099); threads with x1 > 0 add their vec, as
// f16 into %grad and as f32 into %fgrad, at offset 2 * bin.
func.func @half(%x: !coopvec.vec<2, f32>, %bins: memref<8xf16>, %grad: memref<16xf16>, %fgrad: memref<16xf32>) {
  %z = arith.constant 0.0 : f32
  %k1 = arith.constant 1.0 : f32
  %k4 = arith.constant 4.0 : f32
  %c2 = arith.constant 2 : index
  %e:2 = "coopvec.unpack"(%x) : (!coopvec.vec<2, f32>) -> (f32, f32)
  %p = arith.addf %e#0, %k1 : f32
  %f8 = arith.mulf %p, %k4 : f32
  %i8 = arith.fptosi %f8 : f32 to i32
  %at = arith.index_cast %i8 : i32 to index
  %h = arith.truncf %e#1 : f32 to f16
  %a = memref.atomic_rmw addf %h, %bins[%at] : (f16, memref<8xf16>) -> f16
  %positive = arith.cmpf ogt, %e#1, %z : f32
  scf.if %positive {
    %off = arith.muli %at, %c2 : index
    %xh = "coopvec.cast"(%x) : (!coopvec.vec<2, f32>) -> !coopvec.vec<2, f16>
    "coopvec.reduce_sum_accumulate"(%xh, %grad, %off) : (!coopvec.vec<2, f16>, memref<16xf16>, index) -> ()
    "coopvec.reduce_sum_accumulate"(%x, %fgrad, %off) : (!coopvec.vec<2, f32>, memref<16xf32>, index) -> ()
  }
  return
}

//--- tie.mlir
// Every thread adds 2^-6 to element 0 of the f16 %t (starting at 0); %x
// (zeros) only makes it a per-thread function.
func.func @tie(%x: !coopvec.vec<1, f32>, %t: memref<1xf16>) {
  %c0 = arith.constant 0 : index
  %q = arith.constant 0.015625 : f16
  %a = memref.atomic_rmw addf %q, %t[%c0] : (f16, memref<1xf16>) -> f16
  return
}
