// Lane refill (convert-coopvec-to-cpu{lane-refill=...}, LaneRefill.c):
// persistent lanes that take the next thread of the batch when theirs
// leaves the loop. JIT-run by coopvec-run --check against the reference
// interpreter, with the option on, off and at its default, on batches
// that leave the lanes idle at the end (1, 7, 33, 1029, 4099) and on two
// host threads (refill stays within a host thread's chunk).
//
// @trips: per-thread trip counts 0..40 (from x0: some threads never enter
// the loop, some leave after one step), a matvec and a
// reduce_sum_accumulate at a per-thread offset (argument 2, compared)
// inside the loop; a prologue with a hoisted bias load and per-thread
// values the loop and the epilogue read; an epilogue that combines them.
// examples/raymarch.mlir is the ray marcher the option is for.
// With --param coopvec_run_target (vulkan.test) the lines with a CPU
// --pipeline are left out and the others run on that target.

// RUN: %if !coopvec-run-target %{ coopvec-run %s --entry=trips --batch=1 --random --seed=301 --check --pipeline='builtin.module(coopvec-lower-to-cpu{lane-refill=true})' | FileCheck %s --check-prefix=TRIPS %}
// RUN: %if !coopvec-run-target %{ coopvec-run %s --entry=trips --batch=7 --random --seed=302 --check --lane-refill=true | FileCheck %s --check-prefix=TRIPS %}
// RUN: %if !coopvec-run-target %{ coopvec-run %s --entry=trips --batch=33 --random --seed=303 --check --pipeline='builtin.module(coopvec-lower-to-cpu{lane-refill=true lanes=4})' | FileCheck %s --check-prefix=TRIPS %}
// RUN: %if !coopvec-run-target %{ coopvec-run %s --entry=trips --batch=1029 --random --seed=304 --check --pipeline='builtin.module(coopvec-lower-to-cpu{lane-refill=true})' | FileCheck %s --check-prefix=TRIPS %}
// RUN: %if !coopvec-run-target %{ coopvec-run %s --entry=trips --batch=4099 --random --seed=305 --check --pipeline='builtin.module(coopvec-lower-to-cpu{lane-refill=true})' | FileCheck %s --check-prefix=TRIPS %}
// RUN: %if !coopvec-run-target %{ coopvec-run %s --entry=trips --batch=4099 --threads=2 --random --seed=306 --check --pipeline='builtin.module(coopvec-lower-to-cpu{lane-refill=true})' | FileCheck %s --check-prefix=TRIPS %}
// RUN: %if !coopvec-run-target %{ coopvec-run %s --entry=trips --batch=1029 --threads=2 --random --seed=307 --check --pipeline='builtin.module(coopvec-lower-to-cpu{lane-refill=true reduce-mode=local})' | FileCheck %s --check-prefix=TRIPS %}
// RUN: %if !coopvec-run-target %{ coopvec-run %s --entry=trips --batch=33 --random --seed=308 --check --lane-refill=false --lanes=8 | FileCheck %s --check-prefix=TRIPS %}
// RUN: %if !coopvec-run-target %{ coopvec-run %s --entry=trips --batch=4099 --threads=2 --random --seed=309 --check --pipeline='builtin.module(coopvec-lower-to-cpu{lane-refill=false})' | FileCheck %s --check-prefix=TRIPS %}
// RUN: coopvec-run %s --entry=trips --batch=1029 --random --seed=310 --check | FileCheck %s --check-prefix=TRIPS
// TRIPS:      result 0: max abs error {{.*}}: PASS
// TRIPS-NEXT: result 1: max abs error {{.*}}: PASS
// TRIPS-NEXT: argument 2 (written): max abs error {{.*}}: PASS
// TRIPS-NEXT: {{^PASS$}}

// The ray marcher, on and off, 1 and 2 host threads.
// RUN: %if !coopvec-run-target %{ coopvec-run %S/../../../examples/raymarch.mlir --entry=raymarch --batch=1 --random --seed=311 --check --pipeline='builtin.module(coopvec-lower-to-cpu{lane-refill=true})' | FileCheck %s --check-prefix=RAY %}
// RUN: %if !coopvec-run-target %{ coopvec-run %S/../../../examples/raymarch.mlir --entry=raymarch --batch=33 --random --seed=312 --check --pipeline='builtin.module(coopvec-lower-to-cpu{lane-refill=true})' | FileCheck %s --check-prefix=RAY %}
// RUN: %if !coopvec-run-target %{ coopvec-run %S/../../../examples/raymarch.mlir --entry=raymarch --batch=4099 --threads=2 --random --seed=313 --check --pipeline='builtin.module(coopvec-lower-to-cpu{lane-refill=true})' | FileCheck %s --check-prefix=RAY %}
// RUN: %if !coopvec-run-target %{ coopvec-run %S/../../../examples/raymarch.mlir --entry=raymarch --batch=1029 --threads=2 --random --seed=314 --check --pipeline='builtin.module(coopvec-lower-to-cpu{lane-refill=false})' | FileCheck %s --check-prefix=RAY %}
// RAY:      result 0: max abs error {{.*}}: PASS
// RAY-NEXT: {{^PASS$}}

// f32: an 8x8 row-major matrix at element 0 of %w, its bias at element 64.
func.func @trips(%x: !coopvec.vec<8, f32>, %w: memref<?xf32>, %g: memref<24xf32>) -> (!coopvec.vec<8, f32>, !coopvec.vec<2, f32>) {
  %c64 = arith.constant 64 : index
  %c0i = arith.constant 0 : i32
  %c1i = arith.constant 1 : i32
  %c3i = arith.constant 3 : i32
  %c8i = arith.constant 8 : i32
  %one = arith.constant 1.0 : f32
  %half = arith.constant 0.5 : f32
  %quarter = arith.constant 0.25 : f32
  %k = arith.constant 20.5 : f32
  %A = "coopvec.matrix_view"(%w) {offset = 0} : (memref<?xf32>) -> !coopvec.matrix<8, 8, f32, "row_major">
  %b = "coopvec.load"(%w, %c64) : (memref<?xf32>, index) -> !coopvec.vec<8, f32>
  %e:8 = "coopvec.unpack"(%x) : (!coopvec.vec<8, f32>) -> (f32, f32, f32, f32, f32, f32, f32, f32)
  // n = floor((x0 + 1) * 20.5): 0 .. 40.
  %x0p = arith.addf %e#0, %one : f32
  %nf = arith.mulf %x0p, %k : f32
  %n = arith.fptosi %nf : f32 to i32
  %scale = math.fma %e#1, %half, %one : f32
  %h0 = "coopvec.mul"(%x, %scale) : (!coopvec.vec<8, f32>, f32) -> !coopvec.vec<8, f32>
  %r:3 = scf.while (%i = %c0i, %h = %h0, %s = %e#2) : (i32, !coopvec.vec<8, f32>, f32) -> (i32, !coopvec.vec<8, f32>, f32) {
    %more = arith.cmpi slt, %i, %n : i32
    scf.condition(%more) %i, %h, %s : i32, !coopvec.vec<8, f32>, f32
  } do {
  ^bb0(%i: i32, %h: !coopvec.vec<8, f32>, %s: f32):
    // Scaled down: the iteration contracts, so that rounding differences
    // between the engines do not grow over 40 steps.
    %hq = "coopvec.mul"(%h, %quarter) : (!coopvec.vec<8, f32>, f32) -> !coopvec.vec<8, f32>
    %y = "coopvec.matvec"(%A, %hq, %b) : (!coopvec.matrix<8, 8, f32, "row_major">, !coopvec.vec<8, f32>, !coopvec.vec<8, f32>) -> !coopvec.vec<8, f32>
    %t = "coopvec.tanh"(%y) : (!coopvec.vec<8, f32>) -> !coopvec.vec<8, f32>
    %m = arith.remsi %i, %c3i : i32
    %o = arith.muli %m, %c8i : i32
    %oi = arith.index_cast %o : i32 to index
    "coopvec.reduce_sum_accumulate"(%t, %g, %oi) : (!coopvec.vec<8, f32>, memref<24xf32>, index) -> ()
    %t0:8 = "coopvec.unpack"(%t) : (!coopvec.vec<8, f32>) -> (f32, f32, f32, f32, f32, f32, f32, f32)
    %s2 = math.fma %t0#0, %scale, %s : f32
    %i2 = arith.addi %i, %c1i : i32
    scf.yield %i2, %t, %s2 : i32, !coopvec.vec<8, f32>, f32
  }
  %steps = arith.sitofp %r#0 : i32 to f32
  %tail = arith.addf %r#2, %e#3 : f32
  %out = "coopvec.from_elements"(%steps, %tail) : (f32, f32) -> !coopvec.vec<2, f32>
  %hx = "coopvec.add"(%r#1, %x) : (!coopvec.vec<8, f32>, !coopvec.vec<8, f32>) -> !coopvec.vec<8, f32>
  return %hx, %out : !coopvec.vec<8, f32>, !coopvec.vec<2, f32>
}

// @mixed: two vec arguments (f16 and f32) and two results (f16 and f32),
// each moved by its own tile of the lanes' loops (LaneLoop.c): f16
// elements are read and written as f16, the lanes' bits are i4 .. i64
// (lanes=4 .. 64), and a constant inside the loop body is a uniform op
// the refilled body moves to its end (this crashed once).
// RUN: %if !coopvec-run-target %{ coopvec-run %s --entry=mixed --batch=7 --random --seed=321 --check --pipeline='builtin.module(coopvec-lower-to-cpu{lane-refill=true lanes=4})' | FileCheck %s --check-prefix=MIXED %}
// RUN: %if !coopvec-run-target %{ coopvec-run %s --entry=mixed --batch=1 --random --seed=322 --check --pipeline='builtin.module(coopvec-lower-to-cpu{lane-refill=true})' | FileCheck %s --check-prefix=MIXED %}
// RUN: %if !coopvec-run-target %{ coopvec-run %s --entry=mixed --batch=1029 --threads=2 --random --seed=323 --check --pipeline='builtin.module(coopvec-lower-to-cpu{lane-refill=true})' | FileCheck %s --check-prefix=MIXED %}
// RUN: %if !coopvec-run-target %{ coopvec-run %s --entry=mixed --batch=4099 --random --seed=324 --check --pipeline='builtin.module(coopvec-lower-to-cpu{lane-refill=true lanes=64})' | FileCheck %s --check-prefix=MIXED %}
// RUN: coopvec-run %s --entry=mixed --batch=31 --random --seed=325 --check | FileCheck %s --check-prefix=MIXED
// MIXED:      result 0: max abs error {{.*}}: PASS
// MIXED-NEXT: result 1: max abs error {{.*}}: PASS
// MIXED-NEXT: {{^PASS$}}

// f32: a 4x4 row-major matrix at element 0 of %w, its bias at element 16.
func.func @mixed(%a: !coopvec.vec<3, f16>, %b: !coopvec.vec<2, f32>, %w: memref<?xf32>) -> (!coopvec.vec<2, f16>, !coopvec.vec<1, f32>) {
  %c16 = arith.constant 16 : index
  %c0i = arith.constant 0 : i32
  %c1i = arith.constant 1 : i32
  %one = arith.constant 1.0 : f32
  %k = arith.constant 9.5 : f32
  %A = "coopvec.matrix_view"(%w) {offset = 0} : (memref<?xf32>) -> !coopvec.matrix<4, 4, f32, "row_major">
  %bias = "coopvec.load"(%w, %c16) : (memref<?xf32>, index) -> !coopvec.vec<4, f32>
  %ea:3 = "coopvec.unpack"(%a) : (!coopvec.vec<3, f16>) -> (f16, f16, f16)
  %eb:2 = "coopvec.unpack"(%b) : (!coopvec.vec<2, f32>) -> (f32, f32)
  // n = floor((b0 + 1) * 9.5): 0 .. 18.
  %b0p = arith.addf %eb#0, %one : f32
  %nf = arith.mulf %b0p, %k : f32
  %n = arith.fptosi %nf : f32 to i32
  %a0 = arith.extf %ea#0 : f16 to f32
  %a1 = arith.extf %ea#1 : f16 to f32
  %a2 = arith.extf %ea#2 : f16 to f32
  %h0 = "coopvec.from_elements"(%a0, %a1, %a2, %eb#1) : (f32, f32, f32, f32) -> !coopvec.vec<4, f32>
  %r:2 = scf.while (%i = %c0i, %h = %h0) : (i32, !coopvec.vec<4, f32>) -> (i32, !coopvec.vec<4, f32>) {
    %more = arith.cmpi slt, %i, %n : i32
    scf.condition(%more) %i, %h : i32, !coopvec.vec<4, f32>
  } do {
  ^bb0(%i: i32, %h: !coopvec.vec<4, f32>):
    %quarter = arith.constant 0.25 : f32
    %hq = "coopvec.mul"(%h, %quarter) : (!coopvec.vec<4, f32>, f32) -> !coopvec.vec<4, f32>
    %y = "coopvec.matvec"(%A, %hq, %bias) : (!coopvec.matrix<4, 4, f32, "row_major">, !coopvec.vec<4, f32>, !coopvec.vec<4, f32>) -> !coopvec.vec<4, f32>
    %t = "coopvec.tanh"(%y) : (!coopvec.vec<4, f32>) -> !coopvec.vec<4, f32>
    %i2 = arith.addi %i, %c1i : i32
    scf.yield %i2, %t : i32, !coopvec.vec<4, f32>
  }
  %e:4 = "coopvec.unpack"(%r#1) : (!coopvec.vec<4, f32>) -> (f32, f32, f32, f32)
  %o0 = arith.truncf %e#0 : f32 to f16
  %o1 = arith.truncf %e#3 : f32 to f16
  %out16 = "coopvec.from_elements"(%o0, %o1) : (f16, f16) -> !coopvec.vec<2, f16>
  %steps = arith.sitofp %r#0 : i32 to f32
  %s = arith.addf %steps, %e#1 : f32
  %out32 = "coopvec.from_elements"(%s) : (f32) -> !coopvec.vec<1, f32>
  return %out16, %out32 : !coopvec.vec<2, f16>, !coopvec.vec<1, f32>
}
