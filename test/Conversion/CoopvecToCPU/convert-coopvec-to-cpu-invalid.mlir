// RUN: coopvec-opt --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(convert-coopvec-to-cpu{target-cpu=x86-64 lanes=4})' %s

// Every per-thread function is checked before anything changes: after a
// failure the module is as it was (no @*_batched function, @ok kept).
// RUN: not coopvec-opt --split-input-file --mlir-print-ir-after-failure --pass-pipeline='builtin.module(convert-coopvec-to-cpu{target-cpu=x86-64 lanes=4})' %s 2>&1 | FileCheck %s --check-prefix=UNCHANGED
// UNCHANGED:     IR Dump After ConvertCoopvecToCPU Failed
// UNCHANGED-NOT: _batched
// UNCHANGED:     func.func @ok(
// UNCHANGED-NOT: _batched
// UNCHANGED:     func.func @caller(

// Options are checked at the module, for any input. `lanes` is 1..256 and
// `row-block` 1..64, 0 meaning the target's default (boundaries accepted in
// convert-coopvec-to-cpu.mlir); the CPU must be one LLVM knows for the
// triple; features are a comma list of +name / -name.
// RUN: not coopvec-opt --split-input-file --pass-pipeline='builtin.module(convert-coopvec-to-cpu{target-cpu=bogus})' %s 2>&1 | FileCheck %s --check-prefix=CPU
// RUN: not coopvec-opt --split-input-file --pass-pipeline='builtin.module(convert-coopvec-to-cpu{target-triple=aarch64-linux-gnu target-cpu=haswell})' %s 2>&1 | FileCheck %s --check-prefix=CPU-ARCH
// RUN: not coopvec-opt --split-input-file --pass-pipeline='builtin.module(convert-coopvec-to-cpu{target-triple=bogus-triple})' %s 2>&1 | FileCheck %s --check-prefix=TRIPLE
// RUN: not coopvec-opt --split-input-file --pass-pipeline='builtin.module(convert-coopvec-to-cpu{target-cpu=x86-64 target-features=avx2})' %s 2>&1 | FileCheck %s --check-prefix=FEATURE-SIGN
// RUN: not coopvec-opt --split-input-file --pass-pipeline='builtin.module(convert-coopvec-to-cpu{target-cpu=x86-64 target-features=+avx2,,+fma})' %s 2>&1 | FileCheck %s --check-prefix=FEATURE-EMPTY
// RUN: not coopvec-opt --split-input-file --pass-pipeline='builtin.module(convert-coopvec-to-cpu{target-cpu=x86-64 target-features=+})' %s 2>&1 | FileCheck %s --check-prefix=FEATURE-NAME
// RUN: not coopvec-opt --split-input-file --pass-pipeline='builtin.module(convert-coopvec-to-cpu{target-cpu=x86-64 lanes=-1})' %s 2>&1 | FileCheck %s --check-prefix=LANES-NEGATIVE
// RUN: not coopvec-opt --split-input-file --pass-pipeline='builtin.module(convert-coopvec-to-cpu{target-cpu=x86-64 lanes=100000})' %s 2>&1 | FileCheck %s --check-prefix=LANES-LARGE
// RUN: not coopvec-opt --split-input-file --pass-pipeline='builtin.module(convert-coopvec-to-cpu{target-cpu=x86-64 lanes=257})' %s 2>&1 | FileCheck %s --check-prefix=LANES-257
// RUN: not coopvec-opt --split-input-file --pass-pipeline='builtin.module(convert-coopvec-to-cpu{target-cpu=x86-64 lanes=four})' %s 2>&1 | FileCheck %s --check-prefix=LANES-VALUE
// RUN: not coopvec-opt --split-input-file --pass-pipeline='builtin.module(convert-coopvec-to-cpu{target-cpu=x86-64 row-block=-1})' %s 2>&1 | FileCheck %s --check-prefix=ROW-BLOCK-NEGATIVE
// RUN: not coopvec-opt --split-input-file --pass-pipeline='builtin.module(convert-coopvec-to-cpu{target-cpu=x86-64 row-block=65})' %s 2>&1 | FileCheck %s --check-prefix=ROW-BLOCK-LARGE
// RUN: not coopvec-opt --split-input-file --pass-pipeline='builtin.module(convert-coopvec-to-cpu{target-cpu=x86-64 lane=4})' %s 2>&1 | FileCheck %s --check-prefix=OPTION-NAME

// CPU: error: unknown target CPU 'bogus' for '{{.*}}' (see `llc -mtriple={{.*}} -mcpu=help`) (in convert-coopvec-to-cpu)
// CPU-ARCH: error: unknown target CPU 'haswell' for 'aarch64-linux-gnu' (see `llc -mtriple=aarch64-linux-gnu -mcpu=help`) (in convert-coopvec-to-cpu)
// TRIPLE: error: unknown target triple 'bogus-triple' (in convert-coopvec-to-cpu)
// FEATURE-SIGN: error: invalid target feature 'avx2' in 'avx2' (expected a comma list of +name / -name) (in convert-coopvec-to-cpu)
// FEATURE-EMPTY: error: invalid target feature '' in '+avx2,,+fma' (expected a comma list of +name / -name) (in convert-coopvec-to-cpu)
// FEATURE-NAME: error: invalid target feature '+' in '+' (expected a comma list of +name / -name) (in convert-coopvec-to-cpu)
// LANES-NEGATIVE: error: convert-coopvec-to-cpu: lanes=-1 is out of range; use 1 to 256, or 0 for the target's default
// LANES-LARGE: error: convert-coopvec-to-cpu: lanes=100000 is out of range; use 1 to 256, or 0 for the target's default
// LANES-257: error: convert-coopvec-to-cpu: lanes=257 is out of range; use 1 to 256, or 0 for the target's default
// LANES-VALUE: error: invalid value 'four' for option 'lanes' of pass 'convert-coopvec-to-cpu': expected an integer
// ROW-BLOCK-NEGATIVE: error: convert-coopvec-to-cpu: row-block=-1 is out of range; use 1 to 64, or 0 for the target's default
// ROW-BLOCK-LARGE: error: convert-coopvec-to-cpu: row-block=65 is out of range; use 1 to 64, or 0 for the target's default
// OPTION-NAME: error: pass 'convert-coopvec-to-cpu' has no option 'lane'

// An option error is reported once per run, before any function is
// looked at, and nothing else is.
// LANES-NEGATIVE-NOT: error: '{{.*}}' op

// Nothing is changed unless every per-thread function can be lowered.

func.func @ok(%x: !coopvec.vec<2, f32>) -> !coopvec.vec<2, f32> {
  return %x : !coopvec.vec<2, f32>
}

// Calls are inlined; a callee without a body cannot be.
func.func private @declared(!coopvec.vec<2, f32>) -> !coopvec.vec<2, f32>

func.func @caller(%x: !coopvec.vec<2, f32>) -> !coopvec.vec<2, f32> {
  // expected-error@+1 {{'func.call' op calls @declared, which has no body in the module; convert-coopvec-to-cpu inlines every call of a per-thread function}}
  %y = func.call @declared(%x) : (!coopvec.vec<2, f32>) -> !coopvec.vec<2, f32>
  return %y : !coopvec.vec<2, f32>
}

// -----

// A per-thread function that calls itself.
func.func @recursive(%x: !coopvec.vec<2, f32>) -> !coopvec.vec<2, f32> {
  // expected-error@+1 {{'func.call' op calls @recursive recursively; per-thread functions cannot recurse (convert-coopvec-to-cpu inlines every call)}}
  %y = func.call @recursive(%x) : (!coopvec.vec<2, f32>) -> !coopvec.vec<2, f32>
  return %y : !coopvec.vec<2, f32>
}

// -----

// Recursion through a plain helper.
func.func @helper(%a: f32) -> f32 {
  // expected-error@+1 {{'func.call' op calls @helper recursively; per-thread functions cannot recurse (convert-coopvec-to-cpu inlines every call)}}
  %b = func.call @helper(%a) : (f32) -> f32
  return %b : f32
}

func.func @calls_helper(%x: !coopvec.vec<2, f32>, %s: f32) -> !coopvec.vec<2, f32> {
  %t = func.call @helper(%s) : (f32) -> f32
  return %x : !coopvec.vec<2, f32>
}

// -----

// Every function is checked and every error reported, not only the first.
func.func @first(%x: !coopvec.vec<2, f32>) -> !coopvec.vec<2, f32> {
  %e:2 = "coopvec.unpack"(%x) : (!coopvec.vec<2, f32>) -> (f32, f32)
  // expected-error@+1 {{'arith.extf' op makes a varying value of type f64; varying values are scalars of f16, f32, i1, i8, i16, i32, i64 or index}}
  %d = arith.extf %e#0 : f32 to f64
  // expected-error@+1 {{'math.tan' op uses a varying value; convert-coopvec-to-cpu supports varying values in the arith and math ops that docs/dialect.md lists ('Per-thread programs')}}
  %t = math.tan %e#1 : f32
  return %x : !coopvec.vec<2, f32>
}

func.func @second(%x: !coopvec.vec<2, f32>) -> !coopvec.vec<2, f32> {
  %w = "coopvec.to_vector"(%x) : (!coopvec.vec<2, f32>) -> vector<2xf32>
  // expected-error@+1 {{'vector.extract' op uses a varying value; convert-coopvec-to-cpu supports varying values in the arith and math ops that docs/dialect.md lists ('Per-thread programs')}}
  %e = vector.extract %w[0] : f32 from vector<2xf32>
  return %x : !coopvec.vec<2, f32>
}

// -----

// Region ops other than scf.if / for / while / index_switch.
func.func @region(%x: !coopvec.vec<2, f32>) -> !coopvec.vec<2, f32> {
  // expected-error@+1 {{'scf.execute_region' op cannot be lowered inside a per-thread function: only coopvec, arith, math, index, vector, ub, affine index, memref and scf (if, for, while, index_switch) ops can}}
  %y = scf.execute_region -> !coopvec.vec<2, f32> {
    scf.yield %x : !coopvec.vec<2, f32>
  }
  return %y : !coopvec.vec<2, f32>
}

// -----

// Unstructured control flow inside a region.
func.func @blocks(%x: !coopvec.vec<2, f32>, %c: i1) -> !coopvec.vec<2, f32> {
  // expected-error@+1 {{'scf.execute_region' op has a region of several blocks; per-thread code has structured control flow (scf) only}}
  scf.execute_region {
    cf.cond_br %c, ^a, ^b
  ^a:
    scf.yield
  ^b:
    scf.yield
  }
  return %x : !coopvec.vec<2, f32>
}

// -----

func.func @unsigned(%x: !coopvec.vec<2, f32>, %n: index) -> !coopvec.vec<2, f32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error@+1 {{'scf.for' op compares unsigned (unsignedCmp); convert-coopvec-to-cpu supports signed scf.for bounds only}}
  scf.for unsigned %i = %c0 to %n step %c1 {
  }
  return %x : !coopvec.vec<2, f32>
}

// -----

func.func @yields_memref(%x: !coopvec.vec<2, f32>, %a: memref<?xf32>, %c: i1) -> !coopvec.vec<2, f32> {
  // expected-error@+1 {{'scf.if' op yields a memref (result #0); control flow may yield vecs and scalars only}}
  %m = scf.if %c -> memref<?xf32> {
    scf.yield %a : memref<?xf32>
  } else {
    scf.yield %a : memref<?xf32>
  }
  return %x : !coopvec.vec<2, f32>
}

// -----

func.func @atomic_kind(%x: !coopvec.vec<2, f32>, %g: memref<?xf32>, %s: f32) -> !coopvec.vec<2, f32> {
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{'memref.atomic_rmw' op has a kind convert-coopvec-to-cpu does not support (addf, addi, maximumf, minimumf, maxs, mins, maxu, minu)}}
  %old = memref.atomic_rmw mulf %s, %g[%c0] : (f32, memref<?xf32>) -> f32
  return %x : !coopvec.vec<2, f32>
}

// -----

func.func @dynamic_alloca(%x: !coopvec.vec<2, f32>, %n: index) -> !coopvec.vec<2, f32> {
  // expected-error@+1 {{'memref.alloca' op must have a static shape and an element type of f16, f32, i1, i8, i16, i32, i64 or index to be a local array}}
  %a = memref.alloca(%n) : memref<?xf32>
  return %x : !coopvec.vec<2, f32>
}

// -----

// A local array is private: no coopvec op takes it, no other memref op.
func.func @local_array_uses(%x: !coopvec.vec<2, f32>) -> !coopvec.vec<2, f32> {
  %c0 = arith.constant 0 : index
  %a = memref.alloca() : memref<4xf32>
  // expected-error@+1 {{'coopvec.load' op needs a memref argument of the function as its buffer (operand #0): a local array is accessed with memref.load / memref.store}}
  %v = "coopvec.load"(%a, %c0) : (memref<4xf32>, index) -> !coopvec.vec<2, f32>
  // expected-error@+1 {{'coopvec.matrix_view' op needs a memref argument of the function as its buffer (operand #0): a local array is accessed with memref.load / memref.store}}
  %A = "coopvec.matrix_view"(%a) {offset = 0} : (memref<4xf32>) -> !coopvec.matrix<2, 2, f32, "row_major">
  // expected-error@+1 {{'memref.cast' op uses a local array (operand #0); a local array is only accessed with memref.load, memref.store and memref.atomic_rmw}}
  %d = memref.cast %a : memref<4xf32> to memref<?xf32>
  return %v : !coopvec.vec<2, f32>
}

// -----

func.func @subview(%x: !coopvec.vec<2, f32>, %b: memref<?xf32>) -> !coopvec.vec<2, f32> {
  %c0 = arith.constant 0 : index
  %s = memref.subview %b[2] [4] [1] : memref<?xf32> to memref<4xf32, strided<[1], offset: 2>>
  // expected-error@+1 {{'memref.load' op accesses a memref that is neither a rank-1 memref argument of f16, f32, i8, i32 or i64 nor a local array (memref.alloca)}}
  %v = memref.load %s[%c0] : memref<4xf32, strided<[1], offset: 2>>
  return %x : !coopvec.vec<2, f32>
}

// -----

// A mask that differs between threads (here chosen by varying control).
func.func @varying_mask(%x: !coopvec.vec<2, f32>, %w: memref<?xf32>) -> !coopvec.vec<2, f32> {
  %c0 = arith.constant 0 : index
  %z = arith.constant 0.0 : f32
  %e:2 = "coopvec.unpack"(%x) : (!coopvec.vec<2, f32>) -> (f32, f32)
  %c = arith.cmpf ogt, %e#0, %z : f32
  %m = scf.if %c -> vector<2xi1> {
    %t = arith.constant dense<true> : vector<2xi1>
    scf.yield %t : vector<2xi1>
  } else {
    %f = arith.constant dense<false> : vector<2xi1>
    scf.yield %f : vector<2xi1>
  }
  // expected-error@+1 {{'coopvec.masked_load' op has a varying mask (operand #2); masks must be the same in every thread}}
  %v = "coopvec.masked_load"(%w, %c0, %m, %z) : (memref<?xf32>, index, vector<2xi1>, f32) -> !coopvec.vec<2, f32>
  return %v : !coopvec.vec<2, f32>
}

// -----

// Only coopvec ops define per-thread values (the lowering knows no other
// form of them).
func.func @poison(%x: !coopvec.vec<2, f32>) -> !coopvec.vec<2, f32> {
  // expected-error@+1 {{'ub.poison' op defines a coopvec value (result #0); only coopvec ops can define them}}
  %p = ub.poison : !coopvec.vec<2, f32>
  %y = "coopvec.add"(%x, %p) : (!coopvec.vec<2, f32>, !coopvec.vec<2, f32>) -> !coopvec.vec<2, f32>
  return %y : !coopvec.vec<2, f32>
}

// -----

func.func @poison_matrix(%x: !coopvec.vec<2, f32>) -> !coopvec.vec<2, f32> {
  // expected-error@+1 {{'ub.poison' op defines a coopvec value (result #0); only coopvec ops can define them}}
  %A = ub.poison : !coopvec.matrix<2, 2, f32, "row_major">
  %y = "coopvec.matvec"(%A, %x) : (!coopvec.matrix<2, 2, f32, "row_major">, !coopvec.vec<2, f32>) -> !coopvec.vec<2, f32>
  return %y : !coopvec.vec<2, f32>
}

// -----

// expected-error@+1 {{'func.func' op @scalar_result: result #0 of a per-thread function must be a !coopvec.vec (each thread's result is written to an output buffer; a helper that per-thread functions only call can be 'func.func private')}}
func.func @scalar_result(%x: !coopvec.vec<2, f32>, %s: f32) -> f32 {
  return %s : f32
}

// -----

// expected-error@+1 {{'func.func' op @vector_result: result #1 of a per-thread function must be a !coopvec.vec}}
func.func @vector_result(%x: !coopvec.vec<2, f32>) -> (!coopvec.vec<2, f32>, vector<2xf32>) {
  %w = "coopvec.to_vector"(%x) : (!coopvec.vec<2, f32>) -> vector<2xf32>
  return %x, %w : !coopvec.vec<2, f32>, vector<2xf32>
}

// -----

// expected-error@+1 {{'func.func' op @matrix_arg: argument #1 is a !coopvec.matrix, which has no batched form; pass its buffer and create the view with coopvec.matrix_view inside the function}}
func.func @matrix_arg(%x: !coopvec.vec<2, f32>, %A: !coopvec.matrix<2, 2, f32, "row_major">) -> !coopvec.vec<2, f32> {
  %y = "coopvec.matvec"(%A, %x) : (!coopvec.matrix<2, 2, f32, "row_major">, !coopvec.vec<2, f32>) -> !coopvec.vec<2, f32>
  return %y : !coopvec.vec<2, f32>
}

// -----

// expected-error@+1 {{'func.func' op @taken: cannot create @taken_batched, the name is taken}}
func.func @taken(%x: !coopvec.vec<2, f32>) -> !coopvec.vec<2, f32> {
  return %x : !coopvec.vec<2, f32>
}
func.func @taken_batched() {
  return
}

// -----

// Any symbol takes the name.
// expected-error@+1 {{'func.func' op @global: cannot create @global_batched, the name is taken}}
func.func @global(%x: !coopvec.vec<2, f32>) -> !coopvec.vec<2, f32> {
  return %x : !coopvec.vec<2, f32>
}
memref.global "private" @global_batched : memref<4xf32>

// -----

// expected-error@+1 {{'func.func' op @multi_block: a per-thread function must have a body of exactly one block}}
func.func @multi_block(%x: !coopvec.vec<2, f32>) -> !coopvec.vec<2, f32> {
  cf.br ^bb1
^bb1:
  return %x : !coopvec.vec<2, f32>
}

// -----

// expected-error@+1 {{'func.func' op @declaration: a per-thread function must be defined in the module; convert-coopvec-to-cpu cannot lower a declaration}}
func.func private @declaration(%x: !coopvec.vec<2, f32>) -> !coopvec.vec<2, f32>

// -----

// @f is erased (replaced by @f_batched with another signature): nothing
// outside the per-thread functions may refer to it.
func.func @no_vecs(%w: memref<?xf32>, %off: index) {
  %a = "coopvec.load"(%w, %off) : (memref<?xf32>, index) -> !coopvec.vec<2, f32>
  "coopvec.store"(%a, %w, %off) : (!coopvec.vec<2, f32>, memref<?xf32>, index) -> ()
  return
}

func.func @host(%w: memref<?xf32>, %off: index) {
  // expected-error@+1 {{'func.call' op refers to per-thread function @no_vecs, which convert-coopvec-to-cpu replaces by @no_vecs_batched with a batched signature}}
  func.call @no_vecs(%w, %off) : (memref<?xf32>, index) -> ()
  // expected-error@+1 {{'func.constant' op refers to per-thread function @no_vecs, which convert-coopvec-to-cpu replaces by @no_vecs_batched with a batched signature}}
  %f = func.constant @no_vecs : (memref<?xf32>, index) -> ()
  return
}

// -----

// matvec and outer-product tiles live on the stack: at most 128 x 128
// elements (129 x 128 is one row too many; 256 x 64 is as many elements as
// 128 x 128 and accepted).
func.func @big(%x: !coopvec.vec<128, f32>, %h: !coopvec.vec<64, f32>, %w: memref<?xf32>, %g: memref<?xf32>) -> !coopvec.vec<128, f32> {
  %A = "coopvec.matrix_view"(%w) {offset = 0} : (memref<?xf32>) -> !coopvec.matrix<129, 128, f32, "row_major">
  // expected-error@+1 {{'coopvec.matvec' op uses a 129 x 128 matrix; convert-coopvec-to-cpu handles matrices of at most 16384 elements}}
  %y = "coopvec.matvec"(%A, %x) : (!coopvec.matrix<129, 128, f32, "row_major">, !coopvec.vec<128, f32>) -> !coopvec.vec<129, f32>
  %B = "coopvec.matrix_view"(%w) {offset = 0} : (memref<?xf32>) -> !coopvec.matrix<64, 256, f32, "row_major">
  %u = "coopvec.matvec"(%B, %h) {transpose} : (!coopvec.matrix<64, 256, f32, "row_major">, !coopvec.vec<64, f32>) -> !coopvec.vec<256, f32>
  %C = "coopvec.matrix_view"(%w) {offset = 0} : (memref<?xf32>) -> !coopvec.matrix<128, 128, f32, "row_major">
  %z = "coopvec.matvec"(%C, %x) : (!coopvec.matrix<128, 128, f32, "row_major">, !coopvec.vec<128, f32>) -> !coopvec.vec<128, f32>
  %G = "coopvec.matrix_view"(%g) {offset = 0} : (memref<?xf32>) -> !coopvec.matrix<256, 128, f32, "row_major">
  // expected-error@+1 {{'coopvec.outer_product_accumulate' op uses a 256 x 128 matrix; convert-coopvec-to-cpu handles matrices of at most 16384 elements}}
  "coopvec.outer_product_accumulate"(%u, %x, %G) : (!coopvec.vec<256, f32>, !coopvec.vec<128, f32>, !coopvec.matrix<256, 128, f32, "row_major">) -> ()
  return %z : !coopvec.vec<128, f32>
}

// -----

// memref.dim: the reference interpreter and SPIR-V storage buffers have no
// size to give, so no engine reads one (docs/dialect.md, "What is refused").
func.func @dim(%x: !coopvec.vec<1, f32>, %b: memref<?xf32>) -> !coopvec.vec<1, f32> {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'memref.dim' op reads the size of a memref, which per-thread code cannot (convert-coopvec-to-cpu); pass the size as an argument}}
  %n = memref.dim %b, %c0 : memref<?xf32>
  %i = arith.index_cast %n : index to i32
  %f = arith.sitofp %i : i32 to f32
  %y = "coopvec.add"(%x, %f) : (!coopvec.vec<1, f32>, f32) -> !coopvec.vec<1, f32>
  return %y : !coopvec.vec<1, f32>
}
