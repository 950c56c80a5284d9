// Memory in per-thread functions (spec: "Per-thread programs", Memory and
// Out-of-bounds accesses): gathers and scatters at per-thread indices on
// memref arguments of f32, f16, i8, i32 and i64; memref.atomic_rmw of every
// integer kind and addf into shared buffers (histograms of per-thread bins)
// and into a thread's own element (the old values); local arrays
// (memref.alloca: private, zero at every execution, of several element
// types and ranks); integer hashing (a spatial hash: i32 products that
// wrap, xor, masks) feeding a gather and a coopvec.load at a per-thread
// offset, then a matvec; and accesses outside their buffer at run time,
// inside nested control flow: the run fails with the count and the first
// (lowest thread, then first op in the text, not the first in time), and
// the JIT and the reference interpreter report the same.
//
// coopvec-run --check compares results and written buffers with the
// interpreter; for the integer atomics, whose buffers --check compares with
// float tolerances, the JIT's --print is also diffed against the
// interpreter's (--reference --print): every element must be equal. Random
// integer buffers start at 0; a buffer that must not (minu) is read from a
// file of -1 written by Inputs/npy.sh, as are the thread numbers (%tid).
//
// Kept elsewhere because a GPU lowering cannot take them yet (see
// test/tools/coopvec-run/per-thread-gpu-gaps.mlir): masked_load /
// masked_store at per-thread offsets (NVVM, SPIR-V).

// RUN: split-file %s %t
// RUN: bash %S/Inputs/npy.sh ids 1 %t/ids1.npy
// RUN: bash %S/Inputs/npy.sh ids 13 %t/ids13.npy
// RUN: bash %S/Inputs/npy.sh ids 33 %t/ids33.npy
// RUN: bash %S/Inputs/npy.sh ids 4099 %t/ids4099.npy
// RUN: bash %S/Inputs/npy.sh fill 16 -1 %t/minus1.npy

// Gathers inside the buffers.
// RUN: coopvec-run %t/gather.mlir --entry=gather32 --batch=1 --random --seed=201 --check | FileCheck %s --check-prefix=GATHER
// RUN: coopvec-run %t/gather.mlir --entry=gather32 --batch=33 --random --seed=202 --check | FileCheck %s --check-prefix=GATHER
// RUN: coopvec-run %t/gather.mlir --entry=gather32 --batch=4099 --random --seed=203 --check | FileCheck %s --check-prefix=GATHER
// GATHER:      result 0: max abs error {{.*}}: PASS
// GATHER-NEXT: result 1: max abs error {{.*}}: PASS
// GATHER-NEXT: {{^PASS$}}

// Scatters at per-thread indices (each thread its own element) into i32,
// i8, i64, f16 and f32 buffers of N elements; all exact, so --print of the
// JIT and of the interpreter are equal too.
// RUN: coopvec-run %t/scatter.mlir --entry=scatter --batch=33 --arg=%t/ids33.npy --random --seed=215 --memref-size=2:33 --memref-size=3:33 --memref-size=4:33 --memref-size=5:33 --memref-size=6:33 --check | FileCheck %s --check-prefix=SCATTER
// SCATTER:      result 0: max abs error {{.*}}: PASS
// SCATTER-NEXT: argument 2 (written): max abs error {{.*}}: PASS
// SCATTER-NEXT: argument 3 (written): max abs error {{.*}}: PASS
// SCATTER-NEXT: argument 4 (written): max abs error {{.*}}: PASS
// SCATTER-NEXT: argument 5 (written): max abs error {{.*}}: PASS
// SCATTER-NEXT: argument 6 (written): max abs error {{.*}}: PASS
// SCATTER-NEXT: {{^PASS$}}
// RUN: coopvec-run %t/scatter.mlir --entry=scatter --batch=4099 --arg=%t/ids4099.npy --random --seed=216 --memref-size=2:4099 --memref-size=3:4099 --memref-size=4:4099 --memref-size=5:4099 --memref-size=6:4099 --print > %t/scatter-jit.txt
// RUN: coopvec-run %t/scatter.mlir --entry=scatter --batch=4099 --arg=%t/ids4099.npy --random --seed=216 --memref-size=2:4099 --memref-size=3:4099 --memref-size=4:4099 --memref-size=5:4099 --memref-size=6:4099 --reference --print > %t/scatter-ref.txt
// RUN: diff %t/scatter-jit.txt %t/scatter-ref.txt

// Accesses in nested control flow. With 13 threads all are inside (and
// the scatter of threads 2, 5, 8, 11 is compared).
// RUN: coopvec-run %t/oob.mlir --entry=oob32 --batch=13 --arg=%t/ids13.npy --random --seed=204 --check | FileCheck %s --check-prefix=INSIDE
// INSIDE:      result 0: max abs error {{.*}}: PASS
// INSIDE-NEXT: argument 3 (written): max abs error {{.*}}: PASS
// INSIDE-NEXT: {{^PASS$}}
// From thread 13 on, threads 13, 16, ... read element t + 20 at the third
// iteration and elements [t + 16, t + 20) at every one, and threads 17,
// 20, ... store at element t of 16: with 33 threads 7 * (1 + 3) + 6 = 34
// accesses outside, with 4099 threads 1362 * 4 + 1361 = 6809. The first is
// thread 13's memref.load, which comes first in the text although its
// coopvec.load left the buffer two iterations earlier. The JIT and the
// interpreter name the same place.
// RUN: not coopvec-run %t/oob.mlir --entry=oob32 --batch=33 --arg=%t/ids33.npy --random --seed=205 > %t/oob33.txt 2>&1
// RUN: not coopvec-run %t/oob.mlir --entry=oob32 --batch=33 --arg=%t/ids33.npy --random --seed=205 --reference >> %t/oob33.txt 2>&1
// RUN: FileCheck %s --check-prefix=OOB33 < %t/oob33.txt
// OOB33:      coopvec-run: error: @oob32: 34 accesses outside their buffer at run time (reads gave 0, writes were dropped); the first: thread 13 at [[LOC:[^ ]+oob.mlir:[0-9]+:[0-9]+]] ('memref.load')
// OOB33-NEXT: coopvec-run: error: reference interpreter: [[LOC]]: error: 'memref.load' op 34 accesses outside their buffer (reads gave 0, writes were dropped); the first: thread 13, element 33 of a buffer of 32 elements
// RUN: not coopvec-run %t/oob.mlir --entry=oob32 --batch=4099 --arg=%t/ids4099.npy --random --seed=206 > %t/oob4099.txt 2>&1
// RUN: not coopvec-run %t/oob.mlir --entry=oob32 --batch=4099 --arg=%t/ids4099.npy --random --seed=206 --reference >> %t/oob4099.txt 2>&1
// RUN: FileCheck %s --check-prefix=OOB4099 < %t/oob4099.txt
// OOB4099:      coopvec-run: error: @oob32: 6809 accesses outside their buffer at run time (reads gave 0, writes were dropped); the first: thread 13 at [[LOC:[^ ]+oob.mlir:[0-9]+:[0-9]+]] ('memref.load')
// OOB4099-NEXT: coopvec-run: error: reference interpreter: [[LOC]]: error: 'memref.load' op 6809 accesses outside their buffer (reads gave 0, writes were dropped); the first: thread 13, element 33 of a buffer of 32 elements

// Integer atomics: a histogram (addi), maxs, mins, maxu, addi of i64
// squares, minu into i64 from -1, and i8 counters that wrap.
// RUN: coopvec-run %t/atomic-ints.mlir --entry=atomic_ints --batch=33 --arg=%t/minus1.npy --random --seed=207 --check | FileCheck %s --check-prefix=INTS
// RUN: coopvec-run %t/atomic-ints.mlir --entry=atomic_ints --batch=4099 --arg=%t/minus1.npy --random --seed=208 --check | FileCheck %s --check-prefix=INTS
// INTS:      result 0: max abs error {{.*}}: PASS
// INTS-NEXT: argument 0 (written): max abs error {{.*}}: PASS
// INTS-NEXT: argument 2 (written): max abs error {{.*}}: PASS
// INTS-NEXT: argument 3 (written): max abs error {{.*}}: PASS
// INTS-NEXT: argument 4 (written): max abs error {{.*}}: PASS
// INTS-NEXT: argument 5 (written): max abs error {{.*}}: PASS
// INTS-NEXT: argument 6 (written): max abs error {{.*}}: PASS
// INTS-NEXT: argument 7 (written): max abs error {{.*}}: PASS
// INTS-NEXT: argument 8 (written): max abs error {{.*}}: PASS
// INTS-NEXT: {{^PASS$}}
// RUN: coopvec-run %t/atomic-ints.mlir --entry=atomic_ints --batch=4099 --arg=%t/minus1.npy --random --seed=208 --print > %t/ints-jit.txt
// RUN: coopvec-run %t/atomic-ints.mlir --entry=atomic_ints --batch=4099 --arg=%t/minus1.npy --random --seed=208 --reference --print > %t/ints-ref.txt
// RUN: diff %t/ints-jit.txt %t/ints-ref.txt
// RUN: FileCheck %s --check-prefix=INTS-PRINT < %t/ints-jit.txt
// INTS-PRINT: argument 0 (written): i64, shape (16,)
// INTS-PRINT: argument 2 (written): i32, shape (16,)
// INTS-PRINT: argument 7 (written): i8, shape (16,)

// Bounds-checked loads (from a local array and from a memref argument)
// in an scf.for whose trip count differs between threads (0 to 40): each
// check's report is an atomic on the 64-bit status buffer, and lavapipe
// ran such a loop wrong (the kernel wrote zeros) until coopvec-prepare-spirv
// gathered the reports per thread (docs/passes.md). The sums are exact in
// f32 in the same order: no tolerance. Then the same loop reading element
// i & 31 of 16: every thread with more than 16 iterations reads outside,
// and the count and the first access are the interpreter's.
// RUN: coopvec-run %t/loop-checks.mlir --entry=loop_checks --batch=1029 --random --seed=217 --check --atol=0 --rtol=0 | FileCheck %s --check-prefix=LOOPS
// RUN: %if vulkan && !coopvec-run-target %{ coopvec-run --target=vulkan %t/loop-checks.mlir --entry=loop_checks --batch=1029 --random --seed=217 --check --atol=0 --rtol=0 | FileCheck %s --check-prefix=LOOPS %}
// LOOPS:      result 0: max abs error 0, {{.*}}: PASS
// LOOPS-NEXT: {{^PASS$}}
// RUN: not coopvec-run %t/loop-checks.mlir --entry=loop_outside --batch=1029 --random --seed=218 > %t/loop-out.txt 2>&1
// RUN: not coopvec-run %t/loop-checks.mlir --entry=loop_outside --batch=1029 --random --seed=218 --reference >> %t/loop-out.txt 2>&1
// RUN: %if vulkan && !coopvec-run-target %{ not coopvec-run --target=vulkan %t/loop-checks.mlir --entry=loop_outside --batch=1029 --random --seed=218 >> %t/loop-out.txt 2>&1 %}
// RUN: %if !vulkan || coopvec-run-target %{ not coopvec-run %t/loop-checks.mlir --entry=loop_outside --batch=1029 --random --seed=218 >> %t/loop-out.txt 2>&1 %}
// RUN: FileCheck %s --check-prefix=LOOP-OUT < %t/loop-out.txt
// LOOP-OUT:      coopvec-run: error: @loop_outside: [[COUNT:[0-9]+]] accesses outside their buffer at run time (reads gave 0, writes were dropped); the first: thread [[T:[0-9]+]] at [[LOC:[^ ]+loop-checks.mlir:[0-9]+:[0-9]+]] ('memref.load')
// LOOP-OUT-NEXT: coopvec-run: error: reference interpreter: [[LOC]]: error: 'memref.load' op [[COUNT]] accesses outside their buffer (reads gave 0, writes were dropped); the first: thread [[T]], element 16 of a buffer of 16 elements
// LOOP-OUT-NEXT: coopvec-run: error: @loop_outside: [[COUNT]] accesses outside their buffer at run time (reads gave 0, writes were dropped); the first: thread [[T]] at [[LOC]] ('memref.load')

// Float atomics: addf into f32 and f16 bins, and into the thread's own
// element (the old values are checked through the results).
// RUN: coopvec-run %t/atomic-floats.mlir --entry=atomic_floats --batch=1 --arg=%t/ids1.npy --random --memref-size=4:1 --seed=209 --check | FileCheck %s --check-prefix=FLOATS
// RUN: coopvec-run %t/atomic-floats.mlir --entry=atomic_floats --batch=4099 --arg=%t/ids4099.npy --random --memref-size=4:4099 --seed=210 --check | FileCheck %s --check-prefix=FLOATS
// FLOATS:      result 0: max abs error {{.*}}: PASS
// FLOATS-NEXT: argument 2 (written): max abs error {{.*}}: PASS
// FLOATS-NEXT: argument 3 (written): max abs error {{.*}}: PASS
// FLOATS-NEXT: argument 4 (written): max abs error {{.*}}: PASS
// FLOATS-NEXT: {{^PASS$}}

// memref.atomic_rmw maximumf / minimumf into f32 and f16 bins (NaN
// propagates, -0 < +0): bins 4-7 get only +-0, bin 3 a NaN from a few
// threads. The final bins do not depend on the order of the threads:
// --print of every target must equal the interpreter's, signed zeros and
// NaN included (on Vulkan: compare-and-swap loops, docs/passes.md).
// RUN: coopvec-run %t/atomic-minmax.mlir --entry=atomic_minmax --batch=4099 --random --seed=219 --check --atol=0 --rtol=0 | FileCheck %s --check-prefix=MINMAX
// MINMAX:      result 0: max abs error 0, {{.*}}: PASS
// MINMAX-NEXT: argument 1 (written): max abs error 0, {{.*}}: PASS
// MINMAX-NEXT: argument 2 (written): max abs error 0, {{.*}}: PASS
// MINMAX-NEXT: {{^PASS$}}
// RUN: coopvec-run %t/atomic-minmax.mlir --entry=atomic_minmax --batch=4099 --random --seed=219 --print > %t/minmax-jit.txt
// RUN: coopvec-run %t/atomic-minmax.mlir --entry=atomic_minmax --batch=4099 --random --seed=219 --reference --print > %t/minmax-ref.txt
// RUN: diff %t/minmax-jit.txt %t/minmax-ref.txt
// RUN: %if vulkan && !coopvec-run-target %{ coopvec-run --target=vulkan %t/atomic-minmax.mlir --entry=atomic_minmax --batch=4099 --random --seed=219 --print > %t/minmax-vk.txt %}
// RUN: %if vulkan && !coopvec-run-target %{ diff %t/minmax-vk.txt %t/minmax-ref.txt %}
// RUN: FileCheck %s --check-prefix=MINMAX-PRINT < %t/minmax-ref.txt
// MINMAX-PRINT: argument 1 (written): f32, shape (32,)
// MINMAX-PRINT-NEXT: [0] {{[^ ]+ [^ ]+ [^ ]+}} nan
// MINMAX-PRINT: argument 2 (written): f16, shape (32,)

// Local arrays.
// RUN: coopvec-run %t/local.mlir --entry=local --batch=33 --random --seed=211 --check | FileCheck %s --check-prefix=LOCAL
// RUN: coopvec-run %t/local.mlir --entry=local --batch=4099 --random --seed=212 --check | FileCheck %s --check-prefix=LOCAL
// LOCAL:      result 0: max abs error {{.*}}: PASS
// LOCAL-NEXT: result 1: max abs error {{.*}}: PASS
// LOCAL-NEXT: {{^PASS$}}
// Every local result is an integer or an f16 value computed exactly: the
// JIT's and the interpreter's are equal.
// RUN: coopvec-run %t/local.mlir --entry=local --batch=4099 --random --seed=212 --print > %t/local-jit.txt
// RUN: coopvec-run %t/local.mlir --entry=local --batch=4099 --random --seed=212 --reference --print > %t/local-ref.txt
// RUN: diff %t/local-jit.txt %t/local-ref.txt

// A rank-0 local array (one element, no index), stored and read in a
// branch the threads take or not: exact, against the interpreter, on
// every target. (The lowerings once read its missing index: a crash.)
// RUN: coopvec-run %t/rank0.mlir --entry=rank0 --batch=7 --random --seed=222 --check --atol=0 --rtol=0 | FileCheck %s --check-prefix=RANK0
// RUN: coopvec-run %t/rank0.mlir --entry=rank0 --batch=1029 --random --seed=223 --check --atol=0 --rtol=0 | FileCheck %s --check-prefix=RANK0
// RUN: %if vulkan && !coopvec-run-target %{ coopvec-run --target=vulkan %t/rank0.mlir --entry=rank0 --batch=1029 --random --seed=223 --check --atol=0 --rtol=0 | FileCheck %s --check-prefix=RANK0 %}
// RANK0:      result 0: max abs error 0, {{.*}}: PASS
// RANK0-NEXT: {{^PASS$}}

// Local arrays the SPIR-V conversion refuses as they are (coopvec-prepare-
// spirv rewrites them, docs/passes.md): atomic_rmw on one (addi; addf,
// maximumf, minimumf on a 2-D f32 array; addi, maxs, mins, maxu on i32),
// and arrays of index (negative values too), filled in loops of
// per-thread trip count. Exact: --check without tolerance, and the
// --print of every target equals the interpreter's.
// RUN: coopvec-run %t/local-atomics.mlir --entry=local_gaps --batch=1029 --random --seed=220 --check --atol=0 --rtol=0 | FileCheck %s --check-prefix=LOCAL-ATOMICS
// RUN: coopvec-run %t/local-atomics.mlir --entry=local_atomics --batch=1029 --random --seed=221 --check --atol=0 --rtol=0 | FileCheck %s --check-prefix=LOCAL-ATOMICS
// LOCAL-ATOMICS:      result 0: max abs error 0, {{.*}}: PASS
// LOCAL-ATOMICS:      {{^PASS$}}
// RUN: coopvec-run %t/local-atomics.mlir --entry=local_atomics --batch=1029 --random --seed=221 --print > %t/local-atomics-jit.txt
// RUN: coopvec-run %t/local-atomics.mlir --entry=local_atomics --batch=1029 --random --seed=221 --reference --print > %t/local-atomics-ref.txt
// RUN: diff %t/local-atomics-jit.txt %t/local-atomics-ref.txt
// RUN: %if vulkan && !coopvec-run-target %{ coopvec-run --target=vulkan %t/local-atomics.mlir --entry=local_atomics --batch=1029 --random --seed=221 --print > %t/local-atomics-vk.txt %}
// RUN: %if vulkan && !coopvec-run-target %{ diff %t/local-atomics-vk.txt %t/local-atomics-ref.txt %}
// RUN: %if vulkan && !coopvec-run-target %{ coopvec-run --target=vulkan %t/local-atomics.mlir --entry=local_gaps --batch=1029 --random --seed=220 --check --atol=0 --rtol=0 | FileCheck %s --check-prefix=LOCAL-ATOMICS %}

// The spatial hash. In f16 at the offset 4 h + 2, no thread of 33 hashes
// to the last cell; of 4099, thread 75 is the first, and 98 do.
// RUN: coopvec-run %t/hashgrid32.mlir --entry=hashgrid32 --batch=1 --random --seed=213 --check | FileCheck %s --check-prefix=HASH32
// RUN: coopvec-run %t/hashgrid32.mlir --entry=hashgrid32 --batch=4099 --random --seed=214 --check | FileCheck %s --check-prefix=HASH32
// HASH32:      result 0: max abs error {{.*}}: PASS
// HASH32-NEXT: result 1: max abs error {{.*}}: PASS
// HASH32-NEXT: {{^PASS$}}
// RUN: coopvec-run %t/hashgrid16.mlir --entry=hashgrid16 --batch=33 --random --seed=24 --check | FileCheck %s --check-prefix=HASH16
// HASH16:      result 0: max abs error {{.*}}: PASS
// HASH16-NEXT: {{^PASS$}}
// RUN: not coopvec-run %t/hashgrid16.mlir --entry=hashgrid16 --batch=4099 --random --seed=24 > %t/hash4099.txt 2>&1
// RUN: not coopvec-run %t/hashgrid16.mlir --entry=hashgrid16 --batch=4099 --random --seed=24 --reference >> %t/hash4099.txt 2>&1
// RUN: FileCheck %s --check-prefix=HASH-OUT < %t/hash4099.txt
// HASH-OUT:      coopvec-run: error: @hashgrid16: 98 accesses outside their buffer at run time (reads gave 0, writes were dropped); the first: thread 75 at [[LOC:[^ ]+hashgrid16.mlir:[0-9]+:[0-9]+]] ('coopvec.load')
// HASH-OUT-NEXT: coopvec-run: error: reference interpreter: [[LOC]]: error: 'coopvec.load' op 98 accesses outside their buffer (reads gave 0, writes were dropped); the first: thread 75, elements [254, 258) of a buffer of 256 elements


// masked_load / masked_store at per-thread offsets inside branches: the
// run-time bounds check of a masked access uses the first and the last
// set element of the mask.
// RUN: bash %S/Inputs/npy.sh ids 1029 %t/ids1029.npy
// RUN: coopvec-run %t/masked.mlir --entry=masked --batch=33 --arg=%t/ids33.npy --random --memref-size=2:132 --memref-size=3:132 --seed=506 --check | FileCheck %s --check-prefix=MASKED
// RUN: coopvec-run %t/masked.mlir --entry=masked --batch=1029 --arg=%t/ids1029.npy --random --memref-size=2:4116 --memref-size=3:4116 --seed=507 --check | FileCheck %s --check-prefix=MASKED
// MASKED:      result 0: max abs error {{.*}}: PASS
// MASKED-NEXT: argument 3 (written): max abs error {{.*}}: PASS
// MASKED-NEXT: {{^PASS$}}

//--- gather.mlir
// Gathers at per-thread indices, in range: an f32 table of 64 and an f16
// table of 64 at indices from x0, x1 (0..63 each, and a neighbour of each),
// widened, assembled into a vec and multiplied by a 4x6 matrix.
func.func @gather32(%x: !coopvec.vec<4, f32>, %w: memref<?xf32>, %t: memref<64xf32>, %h: memref<64xf16>) -> (!coopvec.vec<4, f32>, !coopvec.vec<6, f32>) {
  %one = arith.constant 1.0 : f32
  %half = arith.constant 32.0 : f32
  %c1 = arith.constant 1 : index
  %c63 = arith.constant 63 : index
  %e:4 = "coopvec.unpack"(%x) : (!coopvec.vec<4, f32>) -> (f32, f32, f32, f32)
  %p0 = arith.addf %e#0, %one : f32
  %q0 = arith.mulf %p0, %half : f32
  %i0 = arith.fptoui %q0 : f32 to i32
  %j0 = arith.index_castui %i0 : i32 to index
  %p1 = arith.addf %e#1, %one : f32
  %q1 = arith.mulf %p1, %half : f32
  %i1 = arith.fptosi %q1 : f32 to i64
  %j1 = arith.index_cast %i1 : i64 to index
  // The neighbours (j + 1) mod 63 and 63 - j.
  %n0 = arith.addi %j0, %c1 : index
  %k0 = arith.remui %n0, %c63 : index
  %k1 = arith.subi %c63, %j1 : index
  %a = memref.load %t[%j0] : memref<64xf32>
  %b = memref.load %t[%k0] : memref<64xf32>
  %c = memref.load %t[%k1] : memref<64xf32>
  %d = memref.load %h[%j1] : memref<64xf16>
  %f = memref.load %h[%k1] : memref<64xf16>
  %d32 = arith.extf %d : f16 to f32
  %f32 = arith.extf %f : f16 to f32
  %g = arith.mulf %a, %e#2 : f32
  %v = "coopvec.from_elements"(%g, %b, %c, %d32, %f32, %e#3) : (f32, f32, f32, f32, f32, f32) -> !coopvec.vec<6, f32>
  %A = "coopvec.matrix_view"(%w) {offset = 0} : (memref<?xf32>) -> !coopvec.matrix<4, 6, f32, "row_major">
  %y = "coopvec.matvec"(%A, %v) : (!coopvec.matrix<4, 6, f32, "row_major">, !coopvec.vec<6, f32>) -> !coopvec.vec<4, f32>
  return %y, %v : !coopvec.vec<4, f32>, !coopvec.vec<6, f32>
}

//--- scatter.mlir
// Scatters: thread t stores a hash of its input at element t of an i32, an
// i8 (truncated: wraps), an i64 (times 1000003) and an f16 buffer, and
// x0 * x1 at element t of an f32 one, then reads its own i32 element back.
func.func @scatter(%tid: !coopvec.vec<1, f32>, %x: !coopvec.vec<2, f32>, %o32: memref<?xi32>, %o8: memref<?xi8>, %o64: memref<?xi64>, %oh: memref<?xf16>, %of: memref<?xf32>) -> !coopvec.vec<2, f32> {
  %p = arith.constant -1640531535 : i32
  %s = arith.constant 15 : i32
  %big = arith.constant 1000003 : i64
  %id = "coopvec.unpack"(%tid) : (!coopvec.vec<1, f32>) -> f32
  %ni = arith.fptosi %id : f32 to i64
  %n = arith.index_cast %ni : i64 to index
  %e:2 = "coopvec.unpack"(%x) : (!coopvec.vec<2, f32>) -> (f32, f32)
  %bits = arith.bitcast %e#0 : f32 to i32
  %m = arith.muli %bits, %p : i32
  %sh = arith.shrui %m, %s : i32
  %h = arith.xori %m, %sh : i32
  memref.store %h, %o32[%n] : memref<?xi32>
  %h8 = arith.trunci %h : i32 to i8
  memref.store %h8, %o8[%n] : memref<?xi8>
  %h64 = arith.extsi %h : i32 to i64
  %w = arith.muli %h64, %big : i64
  memref.store %w, %o64[%n] : memref<?xi64>
  %v = arith.truncf %e#1 : f32 to f16
  memref.store %v, %oh[%n] : memref<?xf16>
  %prod = arith.mulf %e#0, %e#1 : f32
  memref.store %prod, %of[%n] : memref<?xf32>
  %back = memref.load %o32[%n] : memref<?xi32>
  %lo = arith.constant 65535 : i32
  %b16 = arith.andi %back, %lo : i32
  %bf = arith.sitofp %b16 : i32 to f32
  %y = "coopvec.from_elements"(%bf, %e#1) : (f32, f32) -> !coopvec.vec<2, f32>
  return %y : !coopvec.vec<2, f32>
}

//--- oob.mlir
// Threads t = 1 mod 3 loop three times, reading t[t + 20] at the third
// iteration (op A) and elements [t + 16, t + 20) at each (op B); threads
// t = 2 mod 3 store at element t of %s.
func.func @oob32(%tid: !coopvec.vec<1, f32>, %x: !coopvec.vec<4, f32>, %t: memref<32xf32>, %s: memref<16xf32>) -> !coopvec.vec<4, f32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c16 = arith.constant 16 : index
  %c20 = arith.constant 20 : index
  %zero = arith.constant 0.0 : f32
  %id = "coopvec.unpack"(%tid) : (!coopvec.vec<1, f32>) -> f32
  %ni = arith.fptosi %id : f32 to i64
  %n = arith.index_cast %ni : i64 to index
  %r = arith.remui %n, %c3 : index
  %e:4 = "coopvec.unpack"(%x) : (!coopvec.vec<4, f32>) -> (f32, f32, f32, f32)
  %is1 = arith.cmpi eq, %r, %c1 : index
  %y = scf.if %is1 -> !coopvec.vec<4, f32> {
    %l = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %x) -> !coopvec.vec<4, f32> {
      %last = arith.cmpi eq, %i, %c2 : index
      %a = scf.if %last -> f32 {
        %k = arith.addi %n, %c20 : index
        %v = memref.load %t[%k] : memref<32xf32>
        scf.yield %v : f32
      } else {
        scf.yield %zero : f32
      }
      %o = arith.addi %n, %c16 : index
      %b = "coopvec.load"(%t, %o) : (memref<32xf32>, index) -> !coopvec.vec<4, f32>
      %m = "coopvec.fma"(%b, %a, %acc) : (!coopvec.vec<4, f32>, f32, !coopvec.vec<4, f32>) -> !coopvec.vec<4, f32>
      scf.yield %m : !coopvec.vec<4, f32>
    }
    scf.yield %l : !coopvec.vec<4, f32>
  } else {
    %is2 = arith.cmpi eq, %r, %c2 : index
    scf.if %is2 {
      memref.store %e#0, %s[%n] : memref<16xf32>
    }
    scf.yield %x : !coopvec.vec<4, f32>
  }
  return %y : !coopvec.vec<4, f32>
}

//--- atomic-ints.mlir
// bin = trunc(8 (x0 + 1)) in 0..15, k = trunc(1000 x1) in -999..999.
func.func @atomic_ints(%umin: memref<16xi64>, %x: !coopvec.vec<2, f32>, %hist: memref<16xi32>, %maxs: memref<16xi32>, %mins: memref<16xi32>, %maxu: memref<16xi32>, %sq: memref<16xi64>, %c8: memref<16xi8>, %b8: memref<64xi8>) -> !coopvec.vec<2, f32> {
  %one = arith.constant 1.0 : f32
  %eight = arith.constant 8.0 : f32
  %thousand = arith.constant 1000.0 : f32
  %i1 = arith.constant 1 : i32
  %b1 = arith.constant 1 : i8
  %e:2 = "coopvec.unpack"(%x) : (!coopvec.vec<2, f32>) -> (f32, f32)
  %p = arith.addf %e#0, %one : f32
  %q = arith.mulf %p, %eight : f32
  %b32 = arith.fptosi %q : f32 to i32
  %bin = arith.index_cast %b32 : i32 to index
  %kf = arith.mulf %e#1, %thousand : f32
  %k = arith.fptosi %kf : f32 to i32
  %k64 = arith.extsi %k : i32 to i64
  %kk = arith.muli %k64, %k64 : i64
  %h = memref.atomic_rmw addi %i1, %hist[%bin] : (i32, memref<16xi32>) -> i32
  %a = memref.atomic_rmw maxs %k, %maxs[%bin] : (i32, memref<16xi32>) -> i32
  %b = memref.atomic_rmw mins %k, %mins[%bin] : (i32, memref<16xi32>) -> i32
  %c = memref.atomic_rmw maxu %k, %maxu[%bin] : (i32, memref<16xi32>) -> i32
  %d = memref.atomic_rmw addi %kk, %sq[%bin] : (i64, memref<16xi64>) -> i64
  %u = memref.atomic_rmw minu %k64, %umin[%bin] : (i64, memref<16xi64>) -> i64
  // i8 counters wrap at 256.
  %w = memref.atomic_rmw addi %b1, %c8[%bin] : (i8, memref<16xi8>) -> i8
  // Every i8 kind on the four bytes of one word each (Vulkan: one
  // compare-and-swap loop on the word per atomic, Atomics.c): bytes 4 bin
  // .. 4 bin + 3 take maxs, mins, maxu and minu of k's low byte.
  %k8 = arith.trunci %k : i32 to i8
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %q0 = arith.muli %bin, %c4 : index
  %q1 = arith.addi %q0, %c1 : index
  %q2 = arith.addi %q0, %c2 : index
  %q3 = arith.addi %q0, %c3 : index
  %m0 = memref.atomic_rmw maxs %k8, %b8[%q0] : (i8, memref<64xi8>) -> i8
  %m1 = memref.atomic_rmw mins %k8, %b8[%q1] : (i8, memref<64xi8>) -> i8
  %m2 = memref.atomic_rmw maxu %k8, %b8[%q2] : (i8, memref<64xi8>) -> i8
  %m3 = memref.atomic_rmw minu %k8, %b8[%q3] : (i8, memref<64xi8>) -> i8
  return %x : !coopvec.vec<2, f32>
}

//--- loop-checks.mlir
// acc += a[i & 15] + w[i & 15] for i < n = fptosi((x0 + 1) * 20.5), a a
// local array holding x1 at 1; loop_outside reads w[i & 31] instead.
func.func @loop_checks(%x: !coopvec.vec<2, f32>, %w: memref<16xf32>) -> !coopvec.vec<2, f32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c15 = arith.constant 15 : index
  %k = arith.constant 20.5 : f32
  %one = arith.constant 1.0 : f32
  %zero = arith.constant 0.0 : f32
  %e:2 = "coopvec.unpack"(%x) : (!coopvec.vec<2, f32>) -> (f32, f32)
  %p = arith.addf %e#0, %one : f32
  %q = arith.mulf %p, %k : f32
  %n = arith.fptosi %q : f32 to i32
  %ub = arith.index_cast %n : i32 to index
  %a = memref.alloca() : memref<16xf32>
  memref.store %e#1, %a[%c1] : memref<16xf32>
  %s = scf.for %i = %c0 to %ub step %c1 iter_args(%acc = %zero) -> f32 {
    %j = arith.andi %i, %c15 : index
    %u = memref.load %a[%j] : memref<16xf32>
    %v = memref.load %w[%j] : memref<16xf32>
    %uv = arith.addf %u, %v : f32
    %acc1 = arith.addf %acc, %uv : f32
    scf.yield %acc1 : f32
  }
  %y = "coopvec.from_elements"(%s, %e#1) : (f32, f32) -> !coopvec.vec<2, f32>
  return %y : !coopvec.vec<2, f32>
}

func.func @loop_outside(%x: !coopvec.vec<2, f32>, %w: memref<16xf32>) -> !coopvec.vec<2, f32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c31 = arith.constant 31 : index
  %k = arith.constant 20.5 : f32
  %one = arith.constant 1.0 : f32
  %zero = arith.constant 0.0 : f32
  %e:2 = "coopvec.unpack"(%x) : (!coopvec.vec<2, f32>) -> (f32, f32)
  %p = arith.addf %e#0, %one : f32
  %q = arith.mulf %p, %k : f32
  %n = arith.fptosi %q : f32 to i32
  %ub = arith.index_cast %n : i32 to index
  %s = scf.for %i = %c0 to %ub step %c1 iter_args(%acc = %zero) -> f32 {
    %j = arith.andi %i, %c31 : index
    %v = memref.load %w[%j] : memref<16xf32>
    %acc1 = arith.addf %acc, %v : f32
    scf.yield %acc1 : f32
  }
  %y = "coopvec.from_elements"(%s, %e#1) : (f32, f32) -> !coopvec.vec<2, f32>
  return %y : !coopvec.vec<2, f32>
}

//--- atomic-floats.mlir
func.func @atomic_floats(%tid: !coopvec.vec<1, f32>, %x: !coopvec.vec<2, f32>, %fsum: memref<16xf32>, %hsum: memref<16xf16>, %own: memref<?xf32>) -> !coopvec.vec<4, f32> {
  %one = arith.constant 1.0 : f32
  %eight = arith.constant 8.0 : f32
  %sixteenth = arith.constant 0.0625 : f16
  %id = "coopvec.unpack"(%tid) : (!coopvec.vec<1, f32>) -> f32
  %ni = arith.fptosi %id : f32 to i32
  %n = arith.index_cast %ni : i32 to index
  %e:2 = "coopvec.unpack"(%x) : (!coopvec.vec<2, f32>) -> (f32, f32)
  %p = arith.addf %e#0, %one : f32
  %q = arith.mulf %p, %eight : f32
  %b32 = arith.fptosi %q : f32 to i32
  %bin = arith.index_cast %b32 : i32 to index
  %s = memref.atomic_rmw addf %e#1, %fsum[%bin] : (f32, memref<16xf32>) -> f32
  %h = memref.atomic_rmw addf %sixteenth, %hsum[%bin] : (f16, memref<16xf16>) -> f16
  // The thread's own element: the old values are the initial one and the
  // initial one plus x1 (rounded to f32).
  %o1 = memref.atomic_rmw addf %e#1, %own[%n] : (f32, memref<?xf32>) -> f32
  %o2 = memref.atomic_rmw addf %e#0, %own[%n] : (f32, memref<?xf32>) -> f32
  %o3 = memref.load %own[%n] : memref<?xf32>
  %sum = arith.addf %o1, %e#1 : f32
  %d = arith.subf %o2, %sum : f32
  %y = "coopvec.from_elements"(%o1, %o2, %o3, %d) : (f32, f32, f32, f32) -> !coopvec.vec<4, f32>
  return %y : !coopvec.vec<4, f32>
}

//--- local-atomics.mlir
// A local array of index; memref.atomic_rmw on a local array (private:
// the old values are the thread's own); and a local-array histogram filled
// in an scf.for of per-thread trip count n = 0..40 (n from x0).
func.func @local_gaps(%x: !coopvec.vec<2, f32>) -> !coopvec.vec<4, f32> {
  %c1 = arith.constant 1 : index
  %i0 = arith.constant 0 : i32
  %i1 = arith.constant 1 : i32
  %i15 = arith.constant 15 : i32
  %k = arith.constant 20.5 : f32
  %one = arith.constant 1.0 : f32
  %e:2 = "coopvec.unpack"(%x) : (!coopvec.vec<2, f32>) -> (f32, f32)
  %p = arith.addf %e#0, %one : f32
  %q = arith.mulf %p, %k : f32
  %n = arith.fptosi %q : f32 to i32
  %seed = arith.bitcast %e#1 : f32 to i32
  %hist = memref.alloca() : memref<16xi32>
  %olds = scf.for %i = %i0 to %n step %i1 iter_args(%acc = %i0) -> i32 : i32 {
    %a = arith.addi %i, %seed : i32
    %bin = arith.andi %a, %i15 : i32
    %j = arith.index_cast %bin : i32 to index
    %old = memref.atomic_rmw addi %i1, %hist[%j] : (i32, memref<16xi32>) -> i32
    %v = memref.load %hist[%j] : memref<16xi32>
    %s = arith.addi %old, %v : i32
    %acc1 = arith.addi %acc, %s : i32
    scf.yield %acc1 : i32
  }
  %ai = memref.alloca() : memref<2xindex>
  %nx = arith.index_cast %n : i32 to index
  memref.store %nx, %ai[%c1] : memref<2xindex>
  %ri = memref.load %ai[%c1] : memref<2xindex>
  %ri32 = arith.index_cast %ri : index to i32
  %o0 = arith.sitofp %olds : i32 to f32
  %o1 = arith.sitofp %ri32 : i32 to f32
  %y = "coopvec.from_elements"(%o0, %o1, %e#0, %e#1) : (f32, f32, f32, f32) -> !coopvec.vec<4, f32>
  return %y : !coopvec.vec<4, f32>
}

// Per-thread trip count n = 0..21; atomics of every kind the dialect has
// on a 2-D f32 and an i32 local array (their old values feed the loop's
// sums), an index array holding a running sum and minimum (negative).
func.func @local_atomics(%x: !coopvec.vec<4, f32>) -> (!coopvec.vec<8, f32>, !coopvec.vec<6, f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %i3 = arith.constant 3 : i32
  %k = arith.constant 10.5 : f32
  %big = arith.constant 100000.0 : f32
  %one = arith.constant 1.0 : f32
  %e:4 = "coopvec.unpack"(%x) : (!coopvec.vec<4, f32>) -> (f32, f32, f32, f32)
  %p = arith.addf %e#0, %one : f32
  %q = arith.mulf %p, %k : f32
  %n = arith.fptosi %q : f32 to i32
  %ub = arith.index_cast %n : i32 to index
  %fa = memref.alloca() : memref<2x4xf32>
  %ia = memref.alloca() : memref<4xi32>
  %xa = memref.alloca() : memref<3xindex>
  %r:2 = scf.for %i = %c0 to %ub step %c1 iter_args(%s = %e#1, %u = %e#2) -> (f32, f32) {
    %j = arith.remui %i, %c4 : index
    %ii = arith.index_cast %i : index to i32
    %t = arith.mulf %s, %e#3 : f32
    %o1 = memref.atomic_rmw addf %t, %fa[%c0, %j] : (f32, memref<2x4xf32>) -> f32
    %o2 = memref.atomic_rmw maximumf %t, %fa[%c1, %j] : (f32, memref<2x4xf32>) -> f32
    %o3 = memref.atomic_rmw minimumf %u, %fa[%c1, %c3] : (f32, memref<2x4xf32>) -> f32
    %v = arith.fptosi %t : f32 to i32
    %vb = arith.subi %v, %ii : i32
    %p1 = memref.atomic_rmw addi %vb, %ia[%c0] : (i32, memref<4xi32>) -> i32
    %p2 = memref.atomic_rmw maxs %vb, %ia[%c1] : (i32, memref<4xi32>) -> i32
    %p3 = memref.atomic_rmw mins %vb, %ia[%j] : (i32, memref<4xi32>) -> i32
    %p4 = memref.atomic_rmw maxu %vb, %ia[%c3] : (i32, memref<4xi32>) -> i32
    %xi = arith.index_cast %vb : i32 to index
    %q0 = memref.load %xa[%c0] : memref<3xindex>
    %q1 = arith.addi %q0, %xi : index
    memref.store %q1, %xa[%c0] : memref<3xindex>
    %q2 = memref.load %xa[%c1] : memref<3xindex>
    %q3 = arith.minsi %q2, %xi : index
    memref.store %q3, %xa[%c1] : memref<3xindex>
    %s1 = arith.addf %s, %o2 : f32
    %u1 = arith.addf %o1, %o3 : f32
    %pf = arith.sitofp %p1 : i32 to f32
    %s2 = arith.addf %s1, %pf : f32
    %qi = arith.index_cast %q2 : index to i32
    %qf = arith.sitofp %qi : i32 to f32
    %u2 = arith.addf %u1, %qf : f32
    scf.yield %s2, %u2 : f32, f32
  }
  %l0 = memref.load %fa[%c0, %c1] : memref<2x4xf32>
  %l1 = memref.load %fa[%c1, %c1] : memref<2x4xf32>
  %l2 = memref.load %fa[%c1, %c3] : memref<2x4xf32>
  %m0 = memref.load %ia[%c0] : memref<4xi32>
  %m1 = memref.load %ia[%c1] : memref<4xi32>
  %m2 = memref.load %ia[%c3] : memref<4xi32>
  %m0f = arith.sitofp %m0 : i32 to f32
  %m1f = arith.sitofp %m1 : i32 to f32
  %m2f = arith.uitofp %m2 : i32 to f32
  %x0 = memref.load %xa[%c0] : memref<3xindex>
  %x1 = memref.load %xa[%c1] : memref<3xindex>
  %x0i = arith.index_cast %x0 : index to i32
  %x1i = arith.index_cast %x1 : index to i32
  %x0f = arith.sitofp %x0i : i32 to f32
  %x1f = arith.sitofp %x1i : i32 to f32
  %y0 = "coopvec.from_elements"(%r#0, %r#1, %l0, %l1, %l2, %m0f, %m1f, %m2f) : (f32, f32, f32, f32, f32, f32, f32, f32) -> !coopvec.vec<8, f32>
  %y1 = "coopvec.from_elements"(%x0f, %x1f, %e#0, %e#1, %e#2, %e#3) : (f32, f32, f32, f32, f32, f32) -> !coopvec.vec<6, f32>
  return %y0, %y1 : !coopvec.vec<8, f32>, !coopvec.vec<6, f32>
}

//--- atomic-minmax.mlir
// bin = fptosi((x0 + 1) * 8); the value is x1, +-0 (by x2's sign) in bins
// 4-7, NaN in bin 3 where x3 > 0.9; maximumf into bin, minimumf into bin
// + 16, in f32 and in f16.
func.func @atomic_minmax(%x: !coopvec.vec<4, f32>, %f: memref<32xf32>, %h: memref<32xf16>) -> !coopvec.vec<4, f32> {
  %one = arith.constant 1.0 : f32
  %eight = arith.constant 8.0 : f32
  %c16 = arith.constant 16 : index
  %i3 = arith.constant 3 : i32
  %i4 = arith.constant 4 : i32
  %i8 = arith.constant 8 : i32
  %pz = arith.constant 0.0 : f32
  %nz = arith.constant -0.0 : f32
  %nan = arith.constant 0x7FC00000 : f32
  %t9 = arith.constant 0.9 : f32
  %e:4 = "coopvec.unpack"(%x) : (!coopvec.vec<4, f32>) -> (f32, f32, f32, f32)
  %p = arith.addf %e#0, %one : f32
  %q = arith.mulf %p, %eight : f32
  %b32 = arith.fptosi %q : f32 to i32
  %pos = arith.cmpf ogt, %e#2, %pz : f32
  %zero = arith.select %pos, %pz, %nz : f32
  %lo = arith.cmpi sge, %b32, %i4 : i32
  %hi = arith.cmpi slt, %b32, %i8 : i32
  %zbin = arith.andi %lo, %hi : i1
  %v0 = arith.select %zbin, %zero, %e#1 : f32
  %is3 = arith.cmpi eq, %b32, %i3 : i32
  %rare = arith.cmpf ogt, %e#3, %t9 : f32
  %nanbin = arith.andi %is3, %rare : i1
  %v = arith.select %nanbin, %nan, %v0 : f32
  %bin = arith.index_cast %b32 : i32 to index
  %bin2 = arith.addi %bin, %c16 : index
  %a = memref.atomic_rmw maximumf %v, %f[%bin] : (f32, memref<32xf32>) -> f32
  %b = memref.atomic_rmw minimumf %v, %f[%bin2] : (f32, memref<32xf32>) -> f32
  %vh = arith.truncf %v : f32 to f16
  %c = memref.atomic_rmw maximumf %vh, %h[%bin] : (f16, memref<32xf16>) -> f16
  %d = memref.atomic_rmw minimumf %vh, %h[%bin2] : (f16, memref<32xf16>) -> f16
  return %x : !coopvec.vec<4, f32>
}

//--- rank0.mlir
// a = x0; if x1 > 0: a = a * x1; a * 2.
func.func @rank0(%x: !coopvec.vec<2, f32>) -> !coopvec.vec<1, f32> {
  %e:2 = "coopvec.unpack"(%x) : (!coopvec.vec<2, f32>) -> (f32, f32)
  %zero = arith.constant 0.0 : f32
  %two = arith.constant 2.0 : f32
  %a = memref.alloca() : memref<f32>
  memref.store %e#0, %a[] : memref<f32>
  %c = arith.cmpf ogt, %e#1, %zero : f32
  scf.if %c {
    %u = memref.load %a[] : memref<f32>
    %w = arith.mulf %u, %e#1 : f32
    memref.store %w, %a[] : memref<f32>
  }
  %v = memref.load %a[] : memref<f32>
  %r = arith.mulf %v, %two : f32
  %y = "coopvec.from_elements"(%r) : (f32) -> !coopvec.vec<1, f32>
  return %y : !coopvec.vec<1, f32>
}

//--- local.mlir
// A per-thread histogram in a local array of 16 i32: n = 0..40 samples
// (n from x0: a loop of per-thread trip count), bin = hash(i, seed) & 15
// with the seed from x1's bits; each
// sample adds 1 at bin and at 15 - bin (the old values of the second are
// summed), and the bins are read back and summed with weights 1..16. A local array allocated inside a loop
// is zero at every iteration; a 2-D f16 array and i1 / i8 / i16 / i64
// arrays.
func.func @local(%x: !coopvec.vec<4, f32>) -> (!coopvec.vec<4, f32>, !coopvec.vec<8, f16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %one = arith.constant 1.0 : f32
  %k = arith.constant 20.5 : f32
  %i0 = arith.constant 0 : i32
  %i1 = arith.constant 1 : i32
  %i15 = arith.constant 15 : i32
  %mul = arith.constant -1640531535 : i32
  %s13 = arith.constant 13 : i32
  %e:4 = "coopvec.unpack"(%x) : (!coopvec.vec<4, f32>) -> (f32, f32, f32, f32)
  %p = arith.addf %e#0, %one : f32
  %q = arith.mulf %p, %k : f32
  %n = arith.fptosi %q : f32 to i32
  %seed = arith.bitcast %e#1 : f32 to i32
  %hist = memref.alloca() : memref<16xi32>
  %olds = scf.for %i = %i0 to %n step %i1 iter_args(%acc = %i0) -> i32 : i32 {
    %a = arith.addi %i, %seed : i32
    %b = arith.muli %a, %mul : i32
    %c = arith.shrui %b, %s13 : i32
    %d = arith.xori %b, %c : i32
    %bin = arith.andi %d, %i15 : i32
    %j = arith.index_cast %bin : i32 to index
    %v = memref.load %hist[%j] : memref<16xi32>
    %v1 = arith.addi %v, %i1 : i32
    memref.store %v1, %hist[%j] : memref<16xi32>
    %r = arith.xori %bin, %i15 : i32
    %jr = arith.index_cast %r : i32 to index
    %old = memref.load %hist[%jr] : memref<16xi32>
    %old1 = arith.addi %old, %i1 : i32
    memref.store %old1, %hist[%jr] : memref<16xi32>
    %acc1 = arith.addi %acc, %old : i32
    scf.yield %acc1 : i32
  }
  %ws = scf.for %j = %c0 to %c16 step %c1 iter_args(%acc = %i0) -> i32 {
    %v = memref.load %hist[%j] : memref<16xi32>
    %ji = arith.index_cast %j : index to i32
    %jj = arith.addi %ji, %i1 : i32
    %m = arith.muli %v, %jj : i32
    %acc1 = arith.addi %acc, %m : i32
    scf.yield %acc1 : i32
  }
  // A fresh zeroed array every iteration: each sum is its own i (+ 0).
  %fresh = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %i0) -> i32 {
    %a = memref.alloca() : memref<4xi32>
    %ii = arith.index_cast %i : index to i32
    %old = memref.load %a[%i] : memref<4xi32>
    %v = arith.addi %old, %ii : i32
    memref.store %v, %a[%i] : memref<4xi32>
    %z = memref.load %a[%c3] : memref<4xi32>
    %t = arith.addi %v, %z : i32
    %acc1 = arith.addi %acc, %t : i32
    scf.yield %acc1 : i32
  }
  // Arrays of other element types: i1, i8 (wraps), i16, i64.
  %a1 = memref.alloca() : memref<3xi1>
  %a8 = memref.alloca() : memref<2xi8>
  %a16 = memref.alloca() : memref<2xi16>
  %a64 = memref.alloca() : memref<2xi64>
  %odd = arith.andi %n, %i1 : i32
  %isodd = arith.cmpi ne, %odd, %i0 : i32
  memref.store %isodd, %a1[%c2] : memref<3xi1>
  %n8 = arith.trunci %n : i32 to i8
  %big = arith.constant 100 : i8
  %n8b = arith.addi %n8, %big : i8
  memref.store %n8b, %a8[%c0] : memref<2xi8>
  %d64 = arith.extsi %seed : i32 to i64
  %n16 = arith.trunci %d64 : i64 to i16
  memref.store %n16, %a16[%c1] : memref<2xi16>
  memref.store %d64, %a64[%c0] : memref<2xi64>
  %r1 = memref.load %a1[%c2] : memref<3xi1>
  %r1z = memref.load %a1[%c0] : memref<3xi1>
  %r8 = memref.load %a8[%c0] : memref<2xi8>
  %r16 = memref.load %a16[%c1] : memref<2xi16>
  %r64 = memref.load %a64[%c0] : memref<2xi64>
  %f1 = arith.extui %r1 : i1 to i32
  %f1z = arith.extui %r1z : i1 to i32
  %f8 = arith.extsi %r8 : i8 to i32
  %f16 = arith.extsi %r16 : i16 to i32
  %sh = arith.constant 40 : i64
  %f64s = arith.shrsi %r64, %sh : i64
  %f64 = arith.trunci %f64s : i64 to i32
  %o0 = arith.sitofp %olds : i32 to f32
  %o1 = arith.sitofp %ws : i32 to f32
  %o2 = arith.sitofp %fresh : i32 to f32
  %sum1 = arith.addi %n, %f1 : i32
  %sum2 = arith.addi %sum1, %f1z : i32
  %sum3 = arith.addi %f8, %f16 : i32
  %sum4 = arith.addi %sum2, %f64 : i32
  %sum5 = arith.muli %sum4, %sum3 : i32
  %o3 = arith.sitofp %sum5 : i32 to f32
  %y = "coopvec.from_elements"(%o0, %o1, %o2, %o3) : (f32, f32, f32, f32) -> !coopvec.vec<4, f32>
  // A 2-D f16 array: x scaled into row 1, read back in reverse order.
  %a = memref.alloca() : memref<2x4xf16>
  %s = arith.constant 3.3 : f16
  %h:4 = "coopvec.unpack"(%x) : (!coopvec.vec<4, f32>) -> (f32, f32, f32, f32)
  %t0 = arith.truncf %h#0 : f32 to f16
  %t1 = arith.truncf %h#1 : f32 to f16
  %t2 = arith.truncf %h#2 : f32 to f16
  %t3 = arith.truncf %h#3 : f32 to f16
  %u0 = arith.mulf %t0, %s : f16
  %u1 = arith.mulf %t1, %s : f16
  %u2 = arith.mulf %t2, %s : f16
  %u3 = arith.mulf %t3, %s : f16
  memref.store %u0, %a[%c1, %c0] : memref<2x4xf16>
  memref.store %u1, %a[%c1, %c1] : memref<2x4xf16>
  memref.store %u2, %a[%c1, %c2] : memref<2x4xf16>
  memref.store %u3, %a[%c1, %c3] : memref<2x4xf16>
  %r0 = memref.load %a[%c1, %c3] : memref<2x4xf16>
  %rr1 = memref.load %a[%c1, %c2] : memref<2x4xf16>
  %r2 = memref.load %a[%c1, %c1] : memref<2x4xf16>
  %r3 = memref.load %a[%c1, %c0] : memref<2x4xf16>
  %z0 = memref.load %a[%c0, %c0] : memref<2x4xf16>
  %z1 = memref.load %a[%c0, %c1] : memref<2x4xf16>
  %z2 = memref.load %a[%c0, %c2] : memref<2x4xf16>
  %z3 = memref.load %a[%c0, %c3] : memref<2x4xf16>
  %hv = "coopvec.from_elements"(%r0, %rr1, %r2, %r3, %z0, %z1, %z2, %z3) : (f16, f16, f16, f16, f16, f16, f16, f16) -> !coopvec.vec<8, f16>
  return %y, %hv : !coopvec.vec<4, f32>, !coopvec.vec<8, f16>
}

//--- hashgrid32.mlir
// A spatial hash of a 2-D point (x0, x1 in cells of 1/16: cx = floor(16 x0)
// in -16..15, computed as trunc(16 x0 + 16) - 16 since NVVM cannot lower
// math.floor yet):
// h = ((cx * 73856093) ^ (cy * 19349663)) & (T - 1), T = 64, in i32 with
// wrapping products; then a gather of table[h] (f32 scalar loads) and a
// coopvec.load of the 4 features at the per-thread offset 4 h (a hash-grid
// lookup) of the feature buffer, whose sum feeds a matvec.
func.func @hashgrid32(%x: !coopvec.vec<4, f32>, %w: memref<?xf32>, %table: memref<64xf32>, %feat: memref<256xf32>) -> (!coopvec.vec<3, f32>, !coopvec.vec<2, f32>) {
  %res = arith.constant 16.0 : f32
  %i16 = arith.constant 16 : i32
  %p1 = arith.constant 73856093 : i32
  %p2 = arith.constant 19349663 : i32
  %mask = arith.constant 63 : i32
  %c4 = arith.constant 4 : index
  %e:4 = "coopvec.unpack"(%x) : (!coopvec.vec<4, f32>) -> (f32, f32, f32, f32)
  %sx = arith.mulf %e#0, %res : f32
  %sy = arith.mulf %e#1, %res : f32
  %ux = arith.addf %sx, %res : f32
  %uy = arith.addf %sy, %res : f32
  %tx = arith.fptosi %ux : f32 to i32
  %ty = arith.fptosi %uy : f32 to i32
  %cx = arith.subi %tx, %i16 : i32
  %cy = arith.subi %ty, %i16 : i32
  %hx = arith.muli %cx, %p1 : i32
  %hy = arith.muli %cy, %p2 : i32
  %hxy = arith.xori %hx, %hy : i32
  %h = arith.andi %hxy, %mask : i32
  %hi = arith.index_cast %h : i32 to index
  %g = memref.load %table[%hi] : memref<64xf32>
  %off = arith.muli %hi, %c4 : index
  %f = "coopvec.load"(%feat, %off) : (memref<256xf32>, index) -> !coopvec.vec<4, f32>
  %v = "coopvec.fma"(%f, %g, %x) : (!coopvec.vec<4, f32>, f32, !coopvec.vec<4, f32>) -> !coopvec.vec<4, f32>
  %A = "coopvec.matrix_view"(%w) {offset = 0} : (memref<?xf32>) -> !coopvec.matrix<3, 4, f32, "row_major">
  %y = "coopvec.matvec"(%A, %v) : (!coopvec.matrix<3, 4, f32, "row_major">, !coopvec.vec<4, f32>) -> !coopvec.vec<3, f32>
  %hf = arith.sitofp %h : i32 to f32
  %o = "coopvec.from_elements"(%hf, %g) : (f32, f32) -> !coopvec.vec<2, f32>
  return %y, %o : !coopvec.vec<3, f32>, !coopvec.vec<2, f32>
}

//--- hashgrid16.mlir
// The same lookup in f16, at the offset 4 h + 2: the last cell's features
// [254, 258) leave the buffer of 256, so a thread that hashes to 63 reads
// outside it (all four elements read 0, and the run fails).
func.func @hashgrid16(%x: !coopvec.vec<4, f16>, %w: memref<?xf16>, %feat: memref<256xf16>) -> !coopvec.vec<3, f16> {
  %res = arith.constant 16.0 : f16
  %i16 = arith.constant 16 : i32
  %p1 = arith.constant 73856093 : i32
  %p2 = arith.constant 19349663 : i32
  %mask = arith.constant 63 : i32
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %e:4 = "coopvec.unpack"(%x) : (!coopvec.vec<4, f16>) -> (f16, f16, f16, f16)
  %sx = arith.mulf %e#0, %res : f16
  %sy = arith.mulf %e#1, %res : f16
  %ux = arith.addf %sx, %res : f16
  %uy = arith.addf %sy, %res : f16
  %tx = arith.fptosi %ux : f16 to i32
  %ty = arith.fptosi %uy : f16 to i32
  %cx = arith.subi %tx, %i16 : i32
  %cy = arith.subi %ty, %i16 : i32
  %hx = arith.muli %cx, %p1 : i32
  %hy = arith.muli %cy, %p2 : i32
  %hxy = arith.xori %hx, %hy : i32
  %h = arith.andi %hxy, %mask : i32
  %hi = arith.index_cast %h : i32 to index
  %o4 = arith.muli %hi, %c4 : index
  %off = arith.addi %o4, %c2 : index
  %f = "coopvec.load"(%feat, %off) : (memref<256xf16>, index) -> !coopvec.vec<4, f16>
  %v = "coopvec.add"(%f, %x) : (!coopvec.vec<4, f16>, !coopvec.vec<4, f16>) -> !coopvec.vec<4, f16>
  %A = "coopvec.matrix_view"(%w) {offset = 0} : (memref<?xf16>) -> !coopvec.matrix<3, 4, f16, "row_major">
  %y = "coopvec.matvec"(%A, %v) : (!coopvec.matrix<3, 4, f16, "row_major">, !coopvec.vec<4, f16>) -> !coopvec.vec<3, f16>
  return %y : !coopvec.vec<3, f16>
}

//--- masked.mlir
// masked_load / masked_store at the per-thread offset 4 t (odd threads
// store A x, even ones load from %w and store their sum with x; the masked
// lanes 1 of 4 are neither read nor written).
func.func @masked(%tid: !coopvec.vec<1, f32>, %x: !coopvec.vec<4, f32>, %w: memref<?xf32>, %out: memref<?xf32>) -> !coopvec.vec<4, f32> {
  %c4 = arith.constant 4 : index
  %i1 = arith.constant 1 : i32
  %pad = arith.constant 0.5 : f32
  %mask = arith.constant dense<[true, false, true, true]> : vector<4xi1>
  %id = "coopvec.unpack"(%tid) : (!coopvec.vec<1, f32>) -> f32
  %n = arith.fptosi %id : f32 to i32
  %ni = arith.index_cast %n : i32 to index
  %off = arith.muli %ni, %c4 : index
  %A = "coopvec.matrix_view"(%w) {offset = 0} : (memref<?xf32>) -> !coopvec.matrix<4, 4, f32, "row_major">
  %bit = arith.andi %n, %i1 : i32
  %odd = arith.cmpi eq, %bit, %i1 : i32
  %r = scf.if %odd -> !coopvec.vec<4, f32> {
    %y = "coopvec.matvec"(%A, %x) : (!coopvec.matrix<4, 4, f32, "row_major">, !coopvec.vec<4, f32>) -> !coopvec.vec<4, f32>
    "coopvec.masked_store"(%y, %out, %off, %mask) : (!coopvec.vec<4, f32>, memref<?xf32>, index, vector<4xi1>) -> ()
    scf.yield %y : !coopvec.vec<4, f32>
  } else {
    %v = "coopvec.masked_load"(%w, %off, %mask, %pad) : (memref<?xf32>, index, vector<4xi1>, f32) -> !coopvec.vec<4, f32>
    %y = "coopvec.add"(%v, %x) : (!coopvec.vec<4, f32>, !coopvec.vec<4, f32>) -> !coopvec.vec<4, f32>
    "coopvec.masked_store"(%y, %out, %off, %mask) : (!coopvec.vec<4, f32>, memref<?xf32>, index, vector<4xi1>) -> ()
    scf.yield %y : !coopvec.vec<4, f32>
  }
  return %r : !coopvec.vec<4, f32>
}
