// Per-thread programs that run on the CPU (coopvec-run --check against the
// reference interpreter) but that a GPU lowering refuses or cannot lower
// yet, so that they stay out of test/Integration/CPU, whose programs
// test/Integration/Vulkan/vulkan.test runs on Vulkan and
// test/Integration/GPU/ptxas.test and Vulkan/spirv-val.test lower for the
// GPUs. Only the first is a refusal by design; each other piece says what
// fails where, and belongs in test/Integration/CPU once it does not.

// RUN: split-file --leading-lines %s %t
// RUN: bash %S/../../Integration/CPU/Inputs/npy.sh ids 1 %t/ids1.npy
// RUN: bash %S/../../Integration/CPU/Inputs/npy.sh ids 33 %t/ids33.npy
// RUN: bash %S/../../Integration/CPU/Inputs/npy.sh ids 1029 %t/ids1029.npy
// RUN: bash %S/../../Integration/CPU/Inputs/npy.sh ids 4099 %t/ids4099.npy

// A store and a masked store at uniform offsets inside branches that the
// threads take differently (t mod 3 == 1 and == 2), with an
// outer_product_accumulate in the first. On the CPU the highest-numbered
// thread that stores lands (spec: "Memory"); the value stored is the
// thread's number: 31 and 32 of 33 threads, 4096 and 4097 of 4099; the
// masked-off elements 5 and 7 keep their random values, and with 1 thread
// (thread 0 does not store) the buffer is unchanged.
// RUN: coopvec-run %t/ustore.mlir --entry=ustore --batch=1 --arg=%t/ids1.npy --random --seed=501 --check | FileCheck %s --check-prefix=USTORE
// RUN: coopvec-run %t/ustore.mlir --entry=ustore --batch=33 --arg=%t/ids33.npy --random --seed=502 --check | FileCheck %s --check-prefix=USTORE
// RUN: coopvec-run %t/ustore.mlir --entry=ustore --batch=4099 --arg=%t/ids4099.npy --random --seed=503 --check | FileCheck %s --check-prefix=USTORE
// USTORE:      result 0: max abs error {{.*}}: PASS
// USTORE-NEXT: argument 2 (written): max abs error {{.*}}: PASS
// USTORE-NEXT: argument 3 (written): max abs error {{.*}}: PASS
// USTORE-NEXT: {{^PASS$}}
// RUN: coopvec-run %t/ustore.mlir --entry=ustore --batch=33 --arg=%t/ids33.npy --random --seed=502 --print | FileCheck %s --check-prefix=LAST33
// LAST33:      argument 3 (written): f32, shape (8,)
// LAST33-NEXT: [0] 31 31 31 31 32 {{[^ ]+}} 32 {{[^ ]+$}}
// RUN: coopvec-run %t/ustore.mlir --entry=ustore --batch=4099 --arg=%t/ids4099.npy --random --seed=503 --print | FileCheck %s --check-prefix=LAST4099
// LAST4099:      argument 3 (written): f32, shape (8,)
// LAST4099-NEXT: [0] 4096 4096 4096 4096 4097 {{[^ ]+}} 4097 {{[^ ]+$}}
// RUN: coopvec-run %t/ustore.mlir --entry=ustore --batch=1 --arg=%t/ids1.npy --random --seed=501 --save-inputs=%t/ustore1-in --out=%t/ustore1-out
// RUN: cmp %t/ustore1-in3.npy %t/ustore1-out_arg3.npy
// The GPU lowerings refuse both stores, at their places.
// RUN: not coopvec-opt %t/ustore.mlir --coopvec-lower-to-nvvm --emit=ptx -o %t/ustore.ptx 2>&1 | FileCheck %s --check-prefix=REFUSED
// RUN: not coopvec-opt %t/ustore.mlir --coopvec-lower-to-spirv --emit=spirv -o %t/ustore.spv 2>&1 | FileCheck %s --check-prefix=REFUSED
// REFUSED: ustore.mlir:[[# @LINE + 35]]:5: error: 'coopvec.store' op stores at an offset that is the same in every thread, inside control flow that threads take differently; convert-coopvec-to-gpu cannot order the threads of a whole grid to let the highest-numbered one that stores win (store at a per-thread offset, or outside the control flow)
// REFUSED: ustore.mlir:[[# @LINE + 38]]:5: error: 'coopvec.masked_store' op stores at an offset that is the same in every thread, inside control flow that threads take differently; convert-coopvec-to-gpu cannot order the threads of a whole grid to let the highest-numbered one that stores win (store at a per-thread offset, or outside the control flow)

// trunc, floor, ceil, round, absf, copysign, sqrt, remf and f16 fma: they
// lower on both GPU targets and pass on lavapipe (coopvec-prepare-spirv
// expands trunc and computes f16 fmas in f32, rounded once;
// coopvec-prepare-nvvm the others, exact remf from coopvec-expand-math),
// and all but sqrt are in test/Integration/CPU (math-exact.mlir,
// math-ops.mlir). The piece stays for sqrt, compared here with no
// tolerance: Vulkan lets GLSL Sqrt be off by more than the rounding, so
// test/Integration/Vulkan/vulkan.test, which runs that folder on any
// device, must not demand it. All exact: compared with no tolerance (NaN
// matches NaN).
// RUN: coopvec-run %t/mathgaps.mlir --entry=mathgaps --batch=1029 --random --seed=510 --check --atol=0 --rtol=0 | FileCheck %s --check-prefix=MATH
// MATH:      result 0: max abs error 0, {{.*}}: PASS
// MATH-NEXT: result 1: max abs error 0, {{.*}}: PASS
// MATH-NEXT: result 2: max abs error 0, {{.*}}: PASS
// MATH-NEXT: {{^PASS$}}

//--- ustore.mlir
func.func @ustore(%tid: !coopvec.vec<1, f32>, %x: !coopvec.vec<4, f32>, %g: memref<?xf32>, %out: memref<8xf32>) -> !coopvec.vec<4, f32> {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %i1 = arith.constant 1 : i32
  %i2 = arith.constant 2 : i32
  %i3 = arith.constant 3 : i32
  %mask = arith.constant dense<[true, false, true, false]> : vector<4xi1>
  %id = "coopvec.unpack"(%tid) : (!coopvec.vec<1, f32>) -> f32
  %n = arith.fptosi %id : f32 to i32
  %r = arith.remsi %n, %i3 : i32
  %is1 = arith.cmpi eq, %r, %i1 : i32
  %is2 = arith.cmpi eq, %r, %i2 : i32
  %t = "coopvec.splat"(%id) : (f32) -> !coopvec.vec<4, f32>
  %G = "coopvec.matrix_view"(%g) {offset = 0} : (memref<?xf32>) -> !coopvec.matrix<4, 4, f32, "row_major">
  scf.if %is1 {
    "coopvec.store"(%t, %out, %c0) : (!coopvec.vec<4, f32>, memref<8xf32>, index) -> ()
    "coopvec.outer_product_accumulate"(%x, %x, %G) : (!coopvec.vec<4, f32>, !coopvec.vec<4, f32>, !coopvec.matrix<4, 4, f32, "row_major">) -> ()
  }
  scf.if %is2 {
    "coopvec.masked_store"(%t, %out, %c4, %mask) : (!coopvec.vec<4, f32>, memref<8xf32>, index, vector<4xi1>) -> ()
  }
  return %x : !coopvec.vec<4, f32>
}

//--- mathgaps.mlir
// floor, ceil, round (halves away from zero), trunc of multiples of 1/4
// in [-8, 8) (halves and negatives included) and of x itself, absf,
// copysign, sqrt, remf (by +-0, +-inf, finite), and f16 math.fma.
func.func @mathgaps(%x: !coopvec.vec<4, f32>) -> (!coopvec.vec<8, f32>, !coopvec.vec<6, f32>, !coopvec.vec<2, f16>) {
  %c8 = arith.constant 8.0 : f32
  %c32 = arith.constant 32.0 : f32
  %q4 = arith.constant 0.25 : f32
  %k1000 = arith.constant 1000.0 : f16
  %e:4 = "coopvec.unpack"(%x) : (!coopvec.vec<4, f32>) -> (f32, f32, f32, f32)
  %s = arith.mulf %e#0, %c32 : f32
  %si = arith.fptosi %s : f32 to i32
  %sf = arith.sitofp %si : i32 to f32
  %h = arith.mulf %sf, %q4 : f32
  %fl = math.floor %h : f32
  %ce = math.ceil %h : f32
  %ro = math.round %h : f32
  %tr = math.trunc %h : f32
  %fl2 = math.floor %e#1 : f32
  %ro2 = math.round %e#1 : f32
  %ab = math.absf %e#2 : f32
  %cs = math.copysign %e#1, %e#3 : f32
  %r0 = "coopvec.from_elements"(%fl, %ce, %ro, %tr, %fl2, %ro2, %ab, %cs) : (f32, f32, f32, f32, f32, f32, f32, f32) -> !coopvec.vec<8, f32>
  // sqrt of |x| scaled; remf(8 x0, y) for y = x1, +-inf (where x2 > 0.5 /
  // x2 < -0.5) and -0 (where x3 > 0.9).
  %sq = math.sqrt %ab : f32
  %zero = arith.constant 0.0 : f32
  %nzero = arith.constant -0.0 : f32
  %inf = arith.constant 0x7F800000 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %hi = arith.constant 0.5 : f32
  %lo = arith.constant -0.5 : f32
  %z9 = arith.constant 0.9 : f32
  %big = arith.cmpf ogt, %e#2, %hi : f32
  %small = arith.cmpf olt, %e#2, %lo : f32
  %isz = arith.cmpf ogt, %e#3, %z9 : f32
  %d0 = arith.select %big, %inf, %e#1 : f32
  %d1 = arith.select %small, %ninf, %d0 : f32
  %d = arith.select %isz, %nzero, %d1 : f32
  %num = arith.mulf %e#0, %c8 : f32
  %rem = arith.remf %num, %d : f32
  %remx = arith.remf %num, %e#1 : f32
  %r1 = "coopvec.from_elements"(%sq, %rem, %remx, %d, %num, %h) : (f32, f32, f32, f32, f32, f32) -> !coopvec.vec<6, f32>
  // f16 fma(a, 1000 a, b): cancellation near -b, where a product rounded
  // to f16 first (an unfused f16 fma) is far off.
  %a16 = arith.truncf %e#0 : f32 to f16
  %b16 = arith.truncf %e#1 : f32 to f16
  %m16 = arith.mulf %a16, %k1000 : f16
  %f16 = math.fma %a16, %m16, %b16 : f16
  %r2 = "coopvec.from_elements"(%f16, %m16) : (f16, f16) -> !coopvec.vec<2, f16>
  return %r0, %r1, %r2 : !coopvec.vec<8, f32>, !coopvec.vec<6, f32>, !coopvec.vec<2, f16>
}
