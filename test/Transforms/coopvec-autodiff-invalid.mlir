// RUN: coopvec-opt %s --split-input-file --verify-diagnostics --coopvec-autodiff=func=f

// A refused function gets no @f_grad: the module is left as it was.
// RUN: not coopvec-opt %s --split-input-file --mlir-print-ir-after-failure --coopvec-autodiff=func=f 2>&1 | FileCheck %s --check-prefix=UNCHANGED
// UNCHANGED: IR Dump After CoopvecAutodiff Failed
// UNCHANGED-NOT: func.func @f_grad(%

// The option: a comma list of existing functions, each named once.
// RUN: not coopvec-opt %s --split-input-file --coopvec-autodiff 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: not coopvec-opt %s --split-input-file --coopvec-autodiff=func= 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: not coopvec-opt %s --split-input-file --pass-pipeline='builtin.module(coopvec-autodiff{func=nosuch})' 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not coopvec-opt %s --split-input-file --pass-pipeline='builtin.module(coopvec-autodiff{func=f,nosuch})' 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not coopvec-opt %s --split-input-file --pass-pipeline='builtin.module(coopvec-autodiff{func=f,,f})' 2>&1 | FileCheck %s --check-prefix=EMPTY
// RUN: not coopvec-opt %s --split-input-file --pass-pipeline='builtin.module(coopvec-autodiff{func=f func=f})' 2>&1 | FileCheck %s --check-prefix=TWICE
// RUN: not coopvec-opt %s --pass-pipeline='builtin.module(func.func(coopvec-autodiff{func=f}))' 2>&1 | FileCheck %s --check-prefix=ANCHOR
// NONE: error: coopvec-autodiff: no function to differentiate; name one with coopvec-autodiff{func=NAME}
// UNKNOWN: error: coopvec-autodiff: no func.func @nosuch in the module
// EMPTY: error: coopvec-autodiff: empty function name in func=f,,f
// TWICE: error: coopvec-autodiff: func names @f twice
// ANCHOR: pass 'coopvec-autodiff' runs on 'builtin.module' and cannot be nested in a pass manager on 'func.func'

// A weight in the "inference" layout cannot accumulate a gradient.
func.func @f(%x: !coopvec.vec<4, f16>, %w: memref<?xf16>) -> !coopvec.vec<4, f16> {
  %A = "coopvec.matrix_view"(%w) {offset = 0} : (memref<?xf16>) -> !coopvec.matrix<4, 4, f16, "inference">
  // expected-error@+1 {{'coopvec.matvec' op needs the gradient of a matrix in the "inference" layout, which cannot accumulate one; view trained weights in the "training", "row_major" or "col_major" layout}}
  %y = "coopvec.matvec"(%A, %x) : (!coopvec.matrix<4, 4, f16, "inference">, !coopvec.vec<4, f16>) -> !coopvec.vec<4, f16>
  return %y : !coopvec.vec<4, f16>
}

// -----

// A masked_load whose value needs a gradient is differentiated (its
// masked-off elements are skipped): test/Transforms/coopvec-autodiff-masked-load.mlir.
// A write of one is still refused.
func.func @f(%x: !coopvec.vec<4, f32>, %w: memref<?xf32>, %out: memref<?xf32>, %m: vector<4xi1>) -> !coopvec.vec<4, f32> {
  %c0 = arith.constant 0 : index
  %p = arith.constant 0.0 : f32
  %b = "coopvec.masked_load"(%w, %c0, %m, %p) : (memref<?xf32>, index, vector<4xi1>, f32) -> !coopvec.vec<4, f32>
  // expected-error@+1 {{'coopvec.masked_store' op writes a value that depends on the differentiated inputs}}
  "coopvec.masked_store"(%b, %out, %c0, %m) : (!coopvec.vec<4, f32>, memref<?xf32>, index, vector<4xi1>) -> ()
  %y = "coopvec.add"(%x, %b) : (!coopvec.vec<4, f32>, !coopvec.vec<4, f32>) -> !coopvec.vec<4, f32>
  return %y : !coopvec.vec<4, f32>
}

// -----

func.func @f(%x: !coopvec.vec<4, f32>, %out: memref<?xf32>) -> !coopvec.vec<4, f32> {
  %c0 = arith.constant 0 : index
  %y = "coopvec.exp2"(%x) : (!coopvec.vec<4, f32>) -> !coopvec.vec<4, f32>
  // expected-error@+1 {{'coopvec.store' op writes a value that depends on the differentiated inputs; its gradient would flow through memory}}
  "coopvec.store"(%y, %out, %c0) : (!coopvec.vec<4, f32>, memref<?xf32>, index) -> ()
  return %y : !coopvec.vec<4, f32>
}

// -----

func.func @f(%x: !coopvec.vec<4, f32>, %out: memref<?xf32>, %m: vector<4xi1>) -> !coopvec.vec<4, f32> {
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{'coopvec.masked_store' op writes a value that depends on the differentiated inputs}}
  "coopvec.masked_store"(%x, %out, %c0, %m) : (!coopvec.vec<4, f32>, memref<?xf32>, index, vector<4xi1>) -> ()
  return %x : !coopvec.vec<4, f32>
}

// -----

// A forward that trains (accumulates a value of the inputs) is refused too.
func.func @f(%x: !coopvec.vec<4, f32>, %g: memref<?xf32>) -> !coopvec.vec<4, f32> {
  %G = "coopvec.matrix_view"(%g) {offset = 0} : (memref<?xf32>) -> !coopvec.matrix<4, 4, f32, "row_major">
  // expected-error@+1 {{'coopvec.outer_product_accumulate' op writes a value that depends on the differentiated inputs}}
  "coopvec.outer_product_accumulate"(%x, %x, %G) : (!coopvec.vec<4, f32>, !coopvec.vec<4, f32>, !coopvec.matrix<4, 4, f32, "row_major">) -> ()
  return %x : !coopvec.vec<4, f32>
}

// -----

func.func @f(%x: !coopvec.vec<4, f32>, %g: memref<?xf32>) -> !coopvec.vec<4, f32> {
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{'coopvec.reduce_sum_accumulate' op writes a value that depends on the differentiated inputs}}
  "coopvec.reduce_sum_accumulate"(%x, %g, %c0) : (!coopvec.vec<4, f32>, memref<?xf32>, index) -> ()
  return %x : !coopvec.vec<4, f32>
}

// -----

// @f_grad does not repeat the forward's writes, so it would read other
// weights than @f did.
func.func @f(%x: !coopvec.vec<4, f32>, %w: memref<?xf32>) -> !coopvec.vec<4, f32> {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1.0 : f32
  %ones = "coopvec.splat"(%one) : (f32) -> !coopvec.vec<4, f32>
  // expected-error@+1 {{'coopvec.store' op writes a buffer that @f also reads differentiated weights from; @f_grad does not repeat the forward's writes}}
  "coopvec.store"(%ones, %w, %c0) : (!coopvec.vec<4, f32>, memref<?xf32>, index) -> ()
  %b = "coopvec.load"(%w, %c0) : (memref<?xf32>, index) -> !coopvec.vec<4, f32>
  %y = "coopvec.mul"(%x, %b) : (!coopvec.vec<4, f32>, !coopvec.vec<4, f32>) -> !coopvec.vec<4, f32>
  return %y : !coopvec.vec<4, f32>
}

// -----

// expected-error@+1 {{'func.func' op @f has 2 blocks; coopvec-autodiff differentiates straight-line code only}}
func.func @f(%x: !coopvec.vec<4, f32>) -> !coopvec.vec<4, f32> {
  cf.br ^next
^next:
  return %x : !coopvec.vec<4, f32>
}

// -----

func.func private @g(!coopvec.vec<4, f32>) -> !coopvec.vec<4, f32>
func.func @f(%x: !coopvec.vec<4, f32>) -> !coopvec.vec<4, f32> {
  // expected-error@+1 {{'func.call' op is a call; coopvec-autodiff does not differentiate across calls (inline the callee)}}
  %r = func.call @g(%x) : (!coopvec.vec<4, f32>) -> !coopvec.vec<4, f32>
  return %r : !coopvec.vec<4, f32>
}

// -----

// expected-error@+1 {{'func.func' op @f is a declaration; coopvec-autodiff needs its body}}
func.func private @f(!coopvec.vec<4, f32>) -> !coopvec.vec<4, f32>

// -----

// expected-error@+1 {{'func.func' op @f is not a per-thread function (no coopvec types in its signature and no coopvec ops in its body): there is nothing to differentiate}}
func.func @f(%x: f32) -> f32 {
  return %x : f32
}

// -----

// expected-error@+1 {{'func.func' op argument #1 of @f is a !coopvec.matrix, whose gradient would have no buffer; pass the weights as a memref and view them with coopvec.matrix_view}}
func.func @f(%x: !coopvec.vec<4, f32>, %A: !coopvec.matrix<4, 4, f32, "row_major">) -> !coopvec.vec<4, f32> {
  %y = "coopvec.matvec"(%A, %x) : (!coopvec.matrix<4, 4, f32, "row_major">, !coopvec.vec<4, f32>) -> !coopvec.vec<4, f32>
  return %y : !coopvec.vec<4, f32>
}

// -----

// expected-error@+1 {{'func.func' op cannot add @f_grad: the module already has a symbol of that name}}
func.func @f(%x: !coopvec.vec<4, f32>) -> !coopvec.vec<4, f32> {
  return %x : !coopvec.vec<4, f32>
}
func.func @f_grad() {
  return
}

// -----

// Non-coopvec ops without a reverse rule (docs/autodiff.md, "Scalar
// rules") would lose the gradient of a value of the inputs.
func.func @f(%x: !coopvec.vec<2, f32>) -> !coopvec.vec<1, f32> {
  %e:2 = "coopvec.unpack"(%x) : (!coopvec.vec<2, f32>) -> (f32, f32)
  // expected-error@+1 {{'math.tan' op uses a value that depends on the differentiated inputs and has no reverse rule (docs/autodiff.md lists the ops that have one)}}
  %s = math.tan %e#0 : f32
  %r = "coopvec.from_elements"(%s) : (f32) -> !coopvec.vec<1, f32>
  return %r : !coopvec.vec<1, f32>
}

// -----

// A bitcast to an integer is not piecewise constant (its bits change with
// the value): refused rather than treated as an integer op.
func.func @f(%x: !coopvec.vec<1, f32>) -> !coopvec.vec<1, f32> {
  %e:1 = "coopvec.unpack"(%x) : (!coopvec.vec<1, f32>) -> (f32)
  // expected-error@+1 {{'arith.bitcast' op uses a value that depends on the differentiated inputs and has no reverse rule}}
  %i = arith.bitcast %e#0 : f32 to i32
  %f = arith.bitcast %i : i32 to f32
  %r = "coopvec.from_elements"(%f) : (f32) -> !coopvec.vec<1, f32>
  return %r : !coopvec.vec<1, f32>
}

// -----

// ... including an alias of a differentiated weight buffer.
func.func @f(%x: !coopvec.vec<2, f32>, %w: memref<?xf32>) -> !coopvec.vec<2, f32> {
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{'memref.cast' op uses a value that depends on the differentiated inputs}}
  %v = memref.cast %w : memref<?xf32> to memref<8xf32>
  %a = "coopvec.load"(%v, %c0) : (memref<8xf32>, index) -> !coopvec.vec<2, f32>
  %b = "coopvec.load"(%w, %c0) : (memref<?xf32>, index) -> !coopvec.vec<2, f32>
  %s = "coopvec.add"(%a, %b) : (!coopvec.vec<2, f32>, !coopvec.vec<2, f32>) -> !coopvec.vec<2, f32>
  %y = "coopvec.mul"(%x, %s) : (!coopvec.vec<2, f32>, !coopvec.vec<2, f32>) -> !coopvec.vec<2, f32>
  return %y : !coopvec.vec<2, f32>
}

// -----

// General per-thread code (docs/dialect.md, "Per-thread programs") is
// refused where its gradient would be lost: a store of a value of the
// inputs into a buffer argument...
func.func @f(%x: !coopvec.vec<1, f32>, %out: memref<?xf32>) -> !coopvec.vec<1, f32> {
  %c0 = arith.constant 0 : index
  %e:1 = "coopvec.unpack"(%x) : (!coopvec.vec<1, f32>) -> (f32)
  // expected-error@+1 {{'memref.store' op writes a value that depends on the differentiated inputs; its gradient would flow through memory, which coopvec-autodiff does not follow}}
  memref.store %e#0, %out[%c0] : memref<?xf32>
  return %x : !coopvec.vec<1, f32>
}

// -----

// ... an atomic of a value of the inputs (only the scatter-add that
// coopvec-autodiff makes itself is allowed in the gradient)...
func.func @f(%x: !coopvec.vec<1, f32>, %out: memref<?xf32>) -> !coopvec.vec<1, f32> {
  %c0 = arith.constant 0 : index
  %e:1 = "coopvec.unpack"(%x) : (!coopvec.vec<1, f32>) -> (f32)
  // expected-error@+1 {{'memref.atomic_rmw' op writes a value that depends on the differentiated inputs; its gradient would flow through memory, which coopvec-autodiff does not follow}}
  %old = memref.atomic_rmw addf %e#0, %out[%c0] : (f32, memref<?xf32>) -> f32
  return %x : !coopvec.vec<1, f32>
}

// -----

// ... a write (even of a constant) into a table that is gathered from
// (@f_grad does not repeat the write, so it would gather other values)...
func.func @f(%x: !coopvec.vec<1, f32>, %t: memref<?xf32>) -> !coopvec.vec<1, f32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f32
  %v = memref.load %t[%c1] : memref<?xf32>
  // expected-error@+1 {{'memref.store' op writes a buffer that @f also reads differentiated values from; @f_grad does not repeat the forward's writes, so it would read other values}}
  memref.store %one, %t[%c0] : memref<?xf32>
  %y = "coopvec.mul"(%x, %v) : (!coopvec.vec<1, f32>, f32) -> !coopvec.vec<1, f32>
  return %y : !coopvec.vec<1, f32>
}

// -----

// ... a local array holding values of the inputs allocated inside control
// flow (each execution of the alloca makes a new, zero array, which one
// adjoint array cannot follow; arrays allocated at the top level are
// differentiated inside scf.if / index_switch / for / while:
// coopvec-autodiff-local-arrays-control-flow.mlir)...
func.func @f(%x: !coopvec.vec<1, f32>, %n: index) -> !coopvec.vec<1, f32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %e:1 = "coopvec.unpack"(%x) : (!coopvec.vec<1, f32>) -> (f32)
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%s = %e#0) -> (f32) {
    %a = memref.alloca() : memref<4xf32>
    // expected-error@+1 {{'memref.store' op accesses a local array that holds values of the differentiated inputs and is allocated inside control flow (scf.if, scf.index_switch, scf.for, scf.while); coopvec-autodiff differentiates such arrays when their memref.alloca is at the function's top level}}
    memref.store %s, %a[%c0] : memref<4xf32>
    %u = memref.load %a[%c0] : memref<4xf32>
    %v = math.sin %u : f32
    scf.yield %v : f32
  }
  %y = "coopvec.from_elements"(%r) : (f32) -> !coopvec.vec<1, f32>
  return %y : !coopvec.vec<1, f32>
}

// -----

// ... an atomic on a local array holding values of the inputs...
func.func @f(%x: !coopvec.vec<1, f32>) -> !coopvec.vec<1, f32> {
  %c0 = arith.constant 0 : index
  %e:1 = "coopvec.unpack"(%x) : (!coopvec.vec<1, f32>) -> (f32)
  %a = memref.alloca() : memref<4xf32>
  memref.store %e#0, %a[%c0] : memref<4xf32>
  // expected-error@+1 {{'memref.atomic_rmw' op writes a value that depends on the differentiated inputs}}
  %old = memref.atomic_rmw addf %e#0, %a[%c0] : (f32, memref<4xf32>) -> f32
  %v = memref.load %a[%c0] : memref<4xf32>
  %y = "coopvec.from_elements"(%v) : (f32) -> !coopvec.vec<1, f32>
  return %y : !coopvec.vec<1, f32>
}

// -----

// ... an unsigned scf.for (its trip count is recomputed signed)...
func.func @f(%x: !coopvec.vec<2, f32>, %n: index) -> !coopvec.vec<2, f32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error@+1 {{'scf.for' op compares unsigned (unsignedCmp); coopvec-autodiff reverses signed scf.for bounds only}}
  %r = scf.for unsigned %i = %c0 to %n step %c1 iter_args(%v = %x) -> (!coopvec.vec<2, f32>) {
    %t = "coopvec.tanh"(%v) : (!coopvec.vec<2, f32>) -> !coopvec.vec<2, f32>
    scf.yield %t : !coopvec.vec<2, f32>
  }
  return %r : !coopvec.vec<2, f32>
}

// -----

// ... and region ops other than scf.if, scf.index_switch, scf.for and
// scf.while.
func.func @f(%x: !coopvec.vec<2, f32>) -> !coopvec.vec<2, f32> {
  // expected-error@+1 {{'scf.execute_region' op has regions; coopvec-autodiff differentiates scf.if, scf.index_switch, scf.for and scf.while, but no other region ops}}
  %r = scf.execute_region -> !coopvec.vec<2, f32> {
    %t = "coopvec.tanh"(%x) : (!coopvec.vec<2, f32>) -> !coopvec.vec<2, f32>
    scf.yield %t : !coopvec.vec<2, f32>
  }
  return %r : !coopvec.vec<2, f32>
}

// -----

// A refusal inside a branch of an scf.if is located at the op.
func.func @f(%x: !coopvec.vec<2, f32>) -> !coopvec.vec<2, f32> {
  %e:2 = "coopvec.unpack"(%x) : (!coopvec.vec<2, f32>) -> (f32, f32)
  %z = arith.constant 0.0 : f32
  %c = arith.cmpf ogt, %e#0, %z : f32
  %r = scf.if %c -> f32 {
    // expected-error@+1 {{'math.tan' op uses a value that depends on the differentiated inputs and has no reverse rule}}
    %t = math.tan %e#1 : f32
    scf.yield %t : f32
  } else {
    scf.yield %e#1 : f32
  }
  %y = "coopvec.mul"(%x, %r) : (!coopvec.vec<2, f32>, f32) -> !coopvec.vec<2, f32>
  return %y : !coopvec.vec<2, f32>
}
