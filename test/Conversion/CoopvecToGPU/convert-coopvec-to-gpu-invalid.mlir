// RUN: coopvec-opt --split-input-file --verify-diagnostics --convert-coopvec-to-gpu="matvec=mma block-size=64" %s

// Every per-thread function is checked, and every matvec planned, before
// anything changes: after a failure the module is as it was (no
// gpu.module, no kernel, @ok kept).
// RUN: not coopvec-opt --split-input-file --mlir-print-ir-after-failure --convert-coopvec-to-gpu="matvec=mma" %s 2>&1 | FileCheck %s --check-prefix=UNCHANGED
// UNCHANGED:     IR Dump After ConvertCoopvecToGPU Failed
// UNCHANGED-NOT: gpu.module
// UNCHANGED:     func.func @ok(
// UNCHANGED-NOT: _kernel
// UNCHANGED:     func.func @f32_without_tf32(
// UNCHANGED-NOT: gpu.module
// UNCHANGED:     IR Dump After ConvertCoopvecToGPU Failed

// The options are checked at the module, for any input.
// RUN: not coopvec-opt --split-input-file --convert-coopvec-to-gpu="matvec=wmma" %s 2>&1 | FileCheck %s --check-prefix=MODE
// RUN: not coopvec-opt --split-input-file --convert-coopvec-to-gpu="block-size=48" %s 2>&1 | FileCheck %s --check-prefix=BLOCK-MULTIPLE
// RUN: not coopvec-opt --split-input-file --convert-coopvec-to-gpu="block-size=2048" %s 2>&1 | FileCheck %s --check-prefix=BLOCK-LARGE
// RUN: not coopvec-opt --split-input-file --convert-coopvec-to-gpu="block-size=16" %s 2>&1 | FileCheck %s --check-prefix=BLOCK-SMALL
// RUN: not coopvec-opt --split-input-file --convert-coopvec-to-gpu="subgroup-size=24" %s 2>&1 | FileCheck %s --check-prefix=SUBGROUP
// RUN: not coopvec-opt --split-input-file --convert-coopvec-to-gpu="workgroup-memory=-1" %s 2>&1 | FileCheck %s --check-prefix=MEMORY
// RUN: not coopvec-opt --split-input-file --convert-coopvec-to-gpu="allow-tf32=maybe" %s 2>&1 | FileCheck %s --check-prefix=TF32
// RUN: not coopvec-opt --split-input-file --convert-coopvec-to-gpu="register-elements=-1" %s 2>&1 | FileCheck %s --check-prefix=REGS-SMALL
// RUN: not coopvec-opt --split-input-file --convert-coopvec-to-gpu="register-elements=1025" %s 2>&1 | FileCheck %s --check-prefix=REGS-LARGE
// RUN: not coopvec-opt --split-input-file --convert-coopvec-to-gpu="lanes=4" %s 2>&1 | FileCheck %s --check-prefix=OPTION
// RUN: not coopvec-opt --split-input-file --convert-coopvec-to-gpu="emulate-mma=maybe" %s 2>&1 | FileCheck %s --check-prefix=EMULATE
// RUN: not coopvec-opt --split-input-file --convert-coopvec-to-gpu="mma-weights=rows" %s 2>&1 | FileCheck %s --check-prefix=WEIGHTS
// RUN: not coopvec-opt --split-input-file --convert-coopvec-to-gpu="training=warp" %s 2>&1 | FileCheck %s --check-prefix=TRAINING
// Emulated tile products are computed by groups of 32 threads: a block of
// 16 cannot hold one, and matvec=mma says so at the matvec.
// RUN: not coopvec-opt --split-input-file --convert-coopvec-to-gpu="matvec=mma emulate-mma=true subgroup-size=16 block-size=16" %s 2>&1 | FileCheck %s --check-prefix=EMULATE-BLOCK
// EMULATE: error: invalid value 'maybe' for option 'emulate-mma' of pass 'convert-coopvec-to-gpu': expected a boolean (true/false)
// EMULATE-BLOCK: error: 'coopvec.matvec' op cannot run on tensor cores: matvec=mma needs a block size that is a multiple of 32 (the emulated tile group)
// MODE: error: matvec=wmma is not a schedule; use mma, simt or auto (in convert-coopvec-to-gpu)
// WEIGHTS: error: mma-weights=rows is not a weight staging; use slices or whole (in convert-coopvec-to-gpu)
// TRAINING: error: training=warp is not a form of the training ops; use block or subgroup (in convert-coopvec-to-gpu)
// BLOCK-MULTIPLE: error: block-size=48 must be a multiple of subgroup-size=32, at most 1024 (in convert-coopvec-to-gpu)
// BLOCK-LARGE: error: block-size=2048 must be a multiple of subgroup-size=32, at most 1024 (in convert-coopvec-to-gpu)
// BLOCK-SMALL: error: block-size=16 must be a multiple of subgroup-size=32, at most 1024 (in convert-coopvec-to-gpu)
// SUBGROUP: error: subgroup-size=24 must be a power of two from 4 to 128 (in convert-coopvec-to-gpu)
// MEMORY: error: workgroup-memory=-1 is out of range; use 0 to 1048576 bytes (in convert-coopvec-to-gpu)
// REGS-SMALL: error: register-elements=-1 is out of range; use 1 to 1024, or 0 for the kernel's default (in convert-coopvec-to-gpu)
// REGS-LARGE: error: register-elements=1025 is out of range; use 1 to 1024, or 0 for the kernel's default (in convert-coopvec-to-gpu)
// TF32: error: invalid value 'maybe' for option 'allow-tf32' of pass 'convert-coopvec-to-gpu': expected a boolean (true/false)
// OPTION: error: pass 'convert-coopvec-to-gpu' has no option 'lanes'
// An option error is reported once per run, before any function is looked
// at.
// MODE-NOT: error: '{{.*}}' op

func.func @ok(%x: !coopvec.vec<2, f32>) -> !coopvec.vec<2, f32> {
  return %x : !coopvec.vec<2, f32>
}

// matvec=mma refuses what tensor cores cannot do, at the matvec: an f32
// matrix without allow-tf32 (tf32 products have 10-bit mantissas).
func.func @f32_without_tf32(%x: !coopvec.vec<2, f32>, %w: memref<?xf32>) -> !coopvec.vec<2, f32> {
  %A = "coopvec.matrix_view"(%w) {offset = 0} : (memref<?xf32>) -> !coopvec.matrix<2, 2, f32, "row_major">
  // expected-error@+1 {{'coopvec.matvec' op cannot run on tensor cores: matvec=mma needs allow-tf32=true for an f32 matrix (tensor cores multiply f32 as tf32, with 10-bit mantissas)}}
  %y = "coopvec.matvec"(%A, %x) : (!coopvec.matrix<2, 2, f32, "row_major">, !coopvec.vec<2, f32>) -> !coopvec.vec<2, f32>
  return %y : !coopvec.vec<2, f32>
}

// -----

// Staging beyond the budget even without the skews of the result and
// weight rows: 64 threads x 4096 f16 inputs in rows of 4104 (525,312
// bytes), 16 weight rows of 4096 f16 (128 KiB) and 64 x 16 f32 results
// (4 KiB).
func.func @too_wide(%x: !coopvec.vec<4096, f16>, %w: memref<?xf16>) -> !coopvec.vec<16, f16> {
  %A = "coopvec.matrix_view"(%w) {offset = 0} : (memref<?xf16>) -> !coopvec.matrix<16, 4096, f16, "row_major">
  // expected-error@+1 {{'coopvec.matvec' op needs 660480 bytes of workgroup memory on tensor cores with block-size=64, more than convert-coopvec-to-gpu's workgroup-memory=49152; use a smaller block-size or matvec=simt}}
  %y = "coopvec.matvec"(%A, %x) : (!coopvec.matrix<16, 4096, f16, "row_major">, !coopvec.vec<4096, f16>) -> !coopvec.vec<16, f16>
  return %y : !coopvec.vec<16, f16>
}

// -----

// The checks of every target (lib/Conversion/PerThread), with this pass's
// name and kernel suffix.
func.func @recursive(%x: !coopvec.vec<2, f32>) -> !coopvec.vec<2, f32> {
  // expected-error@+1 {{'func.call' op calls @recursive recursively; per-thread functions cannot recurse (convert-coopvec-to-gpu inlines every call)}}
  %y = func.call @recursive(%x) : (!coopvec.vec<2, f32>) -> !coopvec.vec<2, f32>
  return %y : !coopvec.vec<2, f32>
}

// -----

func.func @atomic_kind(%x: !coopvec.vec<2, f32>, %g: memref<?xf32>, %s: f32) -> !coopvec.vec<2, f32> {
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{'memref.atomic_rmw' op has a kind convert-coopvec-to-gpu does not support (addf, addi, maximumf, minimumf, maxs, mins, maxu, minu)}}
  %old = memref.atomic_rmw mulf %s, %g[%c0] : (f32, memref<?xf32>) -> f32
  return %x : !coopvec.vec<2, f32>
}

// -----

// The GPU's own rule: a store at an offset the same in every thread is won
// by thread n - 1, which may not reach it inside control flow that threads
// take differently.
func.func @racing_store(%x: !coopvec.vec<2, f32>, %o: memref<?xf32>) -> !coopvec.vec<2, f32> {
  %c0 = arith.constant 0 : index
  %z = arith.constant 0.0 : f32
  %e:2 = "coopvec.unpack"(%x) : (!coopvec.vec<2, f32>) -> (f32, f32)
  %c = arith.cmpf ogt, %e#0, %z : f32
  scf.if %c {
    // expected-error@+1 {{'coopvec.store' op stores at an offset that is the same in every thread, inside control flow that threads take differently; convert-coopvec-to-gpu cannot order the threads of a whole grid to let the highest-numbered one that stores win (store at a per-thread offset, or outside the control flow)}}
    "coopvec.store"(%x, %o, %c0) : (!coopvec.vec<2, f32>, memref<?xf32>, index) -> ()
  }
  return %x : !coopvec.vec<2, f32>
}

// -----

// expected-error@+1 {{'func.func' op @scalar_result: result #0 of a per-thread function must be a !coopvec.vec}}
func.func @scalar_result(%x: !coopvec.vec<2, f32>, %s: f32) -> f32 {
  return %s : f32
}

// -----

// expected-error@+1 {{'func.func' op @matrix_arg: argument #1 is a !coopvec.matrix}}
func.func @matrix_arg(%x: !coopvec.vec<2, f32>, %A: !coopvec.matrix<2, 2, f32, "row_major">) -> !coopvec.vec<2, f32> {
  %y = "coopvec.matvec"(%A, %x) : (!coopvec.matrix<2, 2, f32, "row_major">, !coopvec.vec<2, f32>) -> !coopvec.vec<2, f32>
  return %y : !coopvec.vec<2, f32>
}

// -----

// expected-error@+1 {{'func.func' op @declared: a per-thread function must be defined in the module; convert-coopvec-to-gpu cannot lower a declaration}}
func.func private @declared(%x: !coopvec.vec<2, f32>) -> !coopvec.vec<2, f32>

// -----

// expected-error@+1 {{'func.func' op @taken: cannot create @taken_kernel, the name is taken}}
func.func @taken(%x: !coopvec.vec<2, f32>) -> !coopvec.vec<2, f32> {
  return %x : !coopvec.vec<2, f32>
}
func.func @taken_kernel() {
  return
}

// -----

// The kernels' gpu.module needs its name.
// expected-error@+1 {{'gpu.module' op is named @coopvec_kernels, the gpu.module convert-coopvec-to-gpu creates for the kernels}}
gpu.module @coopvec_kernels {
}
func.func @needs_module(%x: !coopvec.vec<2, f32>) -> !coopvec.vec<2, f32> {
  return %x : !coopvec.vec<2, f32>
}

// -----

// memref.dim: the reference interpreter and SPIR-V storage buffers have no
// size to give, so no engine reads one (docs/dialect.md, "What is refused").
func.func @dim(%x: !coopvec.vec<1, f32>, %b: memref<?xf32>) -> !coopvec.vec<1, f32> {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'memref.dim' op reads the size of a memref, which per-thread code cannot (convert-coopvec-to-gpu); pass the size as an argument}}
  %n = memref.dim %b, %c0 : memref<?xf32>
  %i = arith.index_cast %n : index to i32
  %f = arith.sitofp %i : i32 to f32
  %y = "coopvec.add"(%x, %f) : (!coopvec.vec<1, f32>, f32) -> !coopvec.vec<1, f32>
  return %y : !coopvec.vec<1, f32>
}
