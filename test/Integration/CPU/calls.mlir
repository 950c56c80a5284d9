// func.call in per-thread programs (spec: "Per-thread programs", Calls):
// plain helpers (an i32 hash calling a mixing step twice, a float helper
// with two results) and per-thread functions (a layer: matvec, bias, tanh;
// a block calling the layer twice and a helper) called from an entry, two
// and three calls deep, inside scf.for and in one branch of an scf.if, with
// vec, memref and scalar arguments. The lowerings inline every call; the
// interpreter runs the callees. --check compares the results (the hash's
// low 16 bits and the trip counts are exact integers in f32); the callees
// are run as entries too.

// RUN: coopvec-run %s --entry=calls --batch=1 --random --seed=401 --check | FileCheck %s --check-prefix=CALLS
// RUN: coopvec-run %s --entry=calls --batch=33 --random --seed=402 --check | FileCheck %s --check-prefix=CALLS
// RUN: coopvec-run %s --entry=calls --batch=1029 --random --seed=403 --check | FileCheck %s --check-prefix=CALLS
// RUN: %if vulkan && !coopvec-run-target %{ coopvec-run --target=vulkan %s --entry=calls --batch=1029 --random --seed=403 --check | FileCheck %s --check-prefix=CALLS %}
// CALLS:      result 0: max abs error {{.*}}: PASS
// CALLS-NEXT: result 1: max abs error {{.*}}: PASS
// CALLS-NEXT: {{^PASS$}}
// RUN: coopvec-run %s --entry=block --batch=31 --random --seed=404 --check | FileCheck %s --check-prefix=CALLS
// RUN: coopvec-run %s --entry=layer --batch=31 --random --seed=405 --check | FileCheck %s --check-prefix=LAYER
// LAYER:      result 0: max abs error {{.*}}: PASS
// LAYER-NEXT: {{^PASS$}}

// A plain helper: an integer hash (i32 -> i32), itself calling a helper.
func.func @mix(%h: i32, %s: i32) -> i32 {
  %m = arith.constant -2048144789 : i32
  %t = arith.shrui %h, %s : i32
  %u = arith.xori %h, %t : i32
  %v = arith.muli %u, %m : i32
  return %v : i32
}

func.func @hash(%x: i32) -> i32 {
  %s16 = arith.constant 16 : i32
  %s13 = arith.constant 13 : i32
  %a = func.call @mix(%x, %s16) : (i32, i32) -> i32
  %b = func.call @mix(%a, %s13) : (i32, i32) -> i32
  return %b : i32
}

// A plain helper on floats with two results.
func.func @polar(%x: f32, %y: f32) -> (f32, f32) {
  %xx = arith.mulf %x, %x : f32
  %r2 = math.fma %y, %y, %xx : f32
  %r = math.rsqrt %r2 : f32
  %a = math.atan2 %y, %x : f32
  return %r, %a : f32, f32
}

// A per-thread function: a layer (matvec + bias + tanh) of weights at a
// uniform byte offset.
func.func @layer(%x: !coopvec.vec<4, f32>, %w: memref<?xf32>) -> !coopvec.vec<4, f32> {
  %c16 = arith.constant 16 : index
  %A = "coopvec.matrix_view"(%w) {offset = 0} : (memref<?xf32>) -> !coopvec.matrix<4, 4, f32, "row_major">
  %b = "coopvec.load"(%w, %c16) : (memref<?xf32>, index) -> !coopvec.vec<4, f32>
  %y = "coopvec.matvec"(%A, %x, %b) : (!coopvec.matrix<4, 4, f32, "row_major">, !coopvec.vec<4, f32>, !coopvec.vec<4, f32>) -> !coopvec.vec<4, f32>
  %t = "coopvec.tanh"(%y) : (!coopvec.vec<4, f32>) -> !coopvec.vec<4, f32>
  return %t : !coopvec.vec<4, f32>
}

// A private per-thread helper with a per-thread scalar result: only
// called, it is inlined and erased (no entry of its own, which could not
// return a scalar).
func.func private @radius(%v: !coopvec.vec<4, f32>) -> f32 {
  %e:4 = "coopvec.unpack"(%v) : (!coopvec.vec<4, f32>) -> (f32, f32, f32, f32)
  %r:2 = func.call @polar(%e#0, %e#1) : (f32, f32) -> (f32, f32)
  return %r#0 : f32
}

// A per-thread function calling the layer twice and helpers: nested
// calls two deep, vec, memref and scalar arguments. (Its own scalar result
// travels in a vec<1>: it is also run as an entry.)
func.func @block(%x: !coopvec.vec<4, f32>, %w: memref<?xf32>, %k: f32) -> (!coopvec.vec<4, f32>, !coopvec.vec<1, f32>) {
  %h = func.call @layer(%x, %w) : (!coopvec.vec<4, f32>, memref<?xf32>) -> !coopvec.vec<4, f32>
  %g = func.call @layer(%h, %w) : (!coopvec.vec<4, f32>, memref<?xf32>) -> !coopvec.vec<4, f32>
  %e:4 = "coopvec.unpack"(%g) : (!coopvec.vec<4, f32>) -> (f32, f32, f32, f32)
  %r:2 = func.call @polar(%e#0, %e#1) : (f32, f32) -> (f32, f32)
  %rad = func.call @radius(%g) : (!coopvec.vec<4, f32>) -> f32
  %s = arith.mulf %rad, %k : f32
  %y = "coopvec.fma"(%g, %s, %x) : (!coopvec.vec<4, f32>, f32, !coopvec.vec<4, f32>) -> !coopvec.vec<4, f32>
  %a = "coopvec.from_elements"(%r#1) : (f32) -> !coopvec.vec<1, f32>
  return %y, %a : !coopvec.vec<4, f32>, !coopvec.vec<1, f32>
}

// The entry: hashes its input bits with @hash; calls @block n = hash mod 3
// times in an scf.for of per-thread trip count, then in one branch of an
// scf.if and @polar in the other.
func.func @calls(%x: !coopvec.vec<4, f32>, %w: memref<?xf32>, %k: f32) -> (!coopvec.vec<4, f32>, !coopvec.vec<3, f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %i3 = arith.constant 3 : i32
  %mask = arith.constant 65535 : i32
  %zero = arith.constant 0.0 : f32
  %e:4 = "coopvec.unpack"(%x) : (!coopvec.vec<4, f32>) -> (f32, f32, f32, f32)
  %bits = arith.bitcast %e#0 : f32 to i32
  %h = func.call @hash(%bits) : (i32) -> i32
  %n32 = arith.remui %h, %i3 : i32
  %n = arith.index_cast %n32 : i32 to index
  %l:2 = scf.for %i = %c0 to %n step %c1 iter_args(%v = %x, %a = %zero) -> (!coopvec.vec<4, f32>, f32) {
    %y:2 = func.call @block(%v, %w, %k) : (!coopvec.vec<4, f32>, memref<?xf32>, f32) -> (!coopvec.vec<4, f32>, !coopvec.vec<1, f32>)
    %b = "coopvec.unpack"(%y#1) : (!coopvec.vec<1, f32>) -> f32
    %a1 = arith.addf %a, %b : f32
    scf.yield %y#0, %a1 : !coopvec.vec<4, f32>, f32
  }
  %c = arith.cmpf olt, %e#1, %k : f32
  %r:2 = scf.if %c -> (!coopvec.vec<4, f32>, f32) {
    %y:2 = func.call @block(%l#0, %w, %e#2) : (!coopvec.vec<4, f32>, memref<?xf32>, f32) -> (!coopvec.vec<4, f32>, !coopvec.vec<1, f32>)
    %b = "coopvec.unpack"(%y#1) : (!coopvec.vec<1, f32>) -> f32
    %b2 = arith.addf %b, %l#1 : f32
    scf.yield %y#0, %b2 : !coopvec.vec<4, f32>, f32
  } else {
    %p:2 = func.call @polar(%e#2, %e#3) : (f32, f32) -> (f32, f32)
    %y = "coopvec.mul"(%l#0, %p#0) : (!coopvec.vec<4, f32>, f32) -> !coopvec.vec<4, f32>
    scf.yield %y, %p#1 : !coopvec.vec<4, f32>, f32
  }
  %lo = arith.andi %h, %mask : i32
  %hf = arith.uitofp %lo : i32 to f32
  %nf = arith.uitofp %n32 : i32 to f32
  %o = "coopvec.from_elements"(%hf, %nf, %r#1) : (f32, f32, f32) -> !coopvec.vec<3, f32>
  return %r#0, %o : !coopvec.vec<4, f32>, !coopvec.vec<3, f32>
}
