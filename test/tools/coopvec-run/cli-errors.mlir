// Command-line and signature errors: one clear message, exit code 1.

// RUN: not coopvec-run %s --entry=nope 2>&1 | FileCheck %s --check-prefix=ENTRY
// ENTRY: coopvec-run: error: no function @nope; available: @scale, @unsupported, @offsets, @written, @computed

// RUN: not coopvec-run %s 2>&1 | FileCheck %s --check-prefix=NOENTRY
// NOENTRY: coopvec-run: error: no --entry
// NOENTRY-NEXT: usage: coopvec-run FILE --entry=NAME

// RUN: not coopvec-run %s --entry=scale --bogus 2>&1 \
// RUN:   | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: coopvec-run: error: unknown option '--bogus'

// RUN: not coopvec-run %s --entry=scale --batch=0 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BATCH
// BATCH: coopvec-run: error: invalid value in '--batch=0'

// --reduce-mode is one of the modes, and an option of the default
// pipeline (the engine's pipelineOptions), not of a --pipeline.
// RUN: not coopvec-run %s --entry=scale --random --reduce-mode=bogus 2>&1 \
// RUN:   | FileCheck %s --check-prefix=REDUCE-MODE
// REDUCE-MODE: coopvec-run: error: invalid value in '--reduce-mode=bogus'
// RUN: not coopvec-run %s --entry=scale --random --reduce-mode=local --pipeline='builtin.module(coopvec-lower-to-cpu)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=REDUCE-PIPELINE
// REDUCE-PIPELINE: coopvec-run: error: --reduce-mode is an option of the default pipeline; with --pipeline, give it in the pipeline (coopvec-lower-to-<target>{reduce-mode=...})
// RUN: not coopvec-run %s --entry=scale --random --lanes=4 --pipeline='builtin.module(coopvec-lower-to-cpu)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=LANES-PIPELINE
// LANES-PIPELINE: coopvec-run: error: --lanes is an option of the default pipeline; with --pipeline, give it in the pipeline (coopvec-lower-to-<target>{lanes=...})

// --lane-refill is true, false or auto, an option of the CPU's default
// pipeline; it changes how the loop runs, not what it computes.
// RUN: not coopvec-run %s --entry=scale --random --lane-refill=sometimes 2>&1 \
// RUN:   | FileCheck %s --check-prefix=REFILL
// REFILL: coopvec-run: error: invalid value in '--lane-refill=sometimes'
// RUN: not coopvec-run %s --entry=scale --random --lane-refill=true --pipeline='builtin.module(coopvec-lower-to-cpu)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=REFILL-PIPELINE
// REFILL-PIPELINE: coopvec-run: error: --lane-refill is an option of the default pipeline; with --pipeline, give it in the pipeline (coopvec-lower-to-<target>{lane-refill=...})
// RUN: not coopvec-run %s --entry=scale --random --lane-refill=true --target=vulkan 2>&1 \
// RUN:   | FileCheck %s --check-prefix=REFILL-TARGET
// REFILL-TARGET: coopvec-run: error: --lane-refill is an option of the cpu target, not of 'vulkan'

// --emulate-mma is an option of the GPU targets' default pipelines (the
// tensor-core schedule without tensor cores); the CPU has no such schedule.
// RUN: not coopvec-run %s --entry=scale --random --emulate-mma 2>&1 \
// RUN:   | FileCheck %s --check-prefix=EMULATE-CPU
// EMULATE-CPU: coopvec-run: error: --emulate-mma is an option of the cuda and vulkan targets, not of 'cpu'
// RUN: not coopvec-run %s --entry=scale --random --emulate-mma --target=vulkan --pipeline='builtin.module(coopvec-lower-to-spirv)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=EMULATE-PIPELINE
// EMULATE-PIPELINE: coopvec-run: error: --emulate-mma is an option of the default pipeline; with --pipeline, give it in the pipeline (coopvec-lower-to-<target>{emulate-mma=...})

// --mma-weights likewise, and takes slices or whole only.
// RUN: not coopvec-run %s --entry=scale --random --mma-weights=whole 2>&1 \
// RUN:   | FileCheck %s --check-prefix=WEIGHTS-CPU
// WEIGHTS-CPU: coopvec-run: error: --mma-weights is an option of the cuda and vulkan targets, not of 'cpu'
// RUN: not coopvec-run %s --entry=scale --random --mma-weights=whole --target=vulkan --pipeline='builtin.module(coopvec-lower-to-spirv)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=WEIGHTS-PIPELINE
// WEIGHTS-PIPELINE: coopvec-run: error: --mma-weights is an option of the default pipeline; with --pipeline, give it in the pipeline (coopvec-lower-to-<target>{mma-weights=...})
// RUN: not coopvec-run %s --entry=scale --random --mma-weights=rows --target=vulkan 2>&1 \
// RUN:   | FileCheck %s --check-prefix=WEIGHTS-VALUE
// WEIGHTS-VALUE: coopvec-run: error: invalid value in '--mma-weights=rows'

// --mma-regions likewise.
// RUN: not coopvec-run %s --entry=scale --random --mma-regions 2>&1 \
// RUN:   | FileCheck %s --check-prefix=REGIONS-CPU
// REGIONS-CPU: coopvec-run: error: --mma-regions is an option of the cuda and vulkan targets, not of 'cpu'
// RUN: not coopvec-run %s --entry=scale --random --mma-regions --target=vulkan --pipeline='builtin.module(coopvec-lower-to-spirv)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=REGIONS-PIPELINE
// REGIONS-PIPELINE: coopvec-run: error: --mma-regions is an option of the default pipeline; with --pipeline, give it in the pipeline (coopvec-lower-to-<target>{mma-regions=...})

// --training likewise, and takes block or subgroup only.
// RUN: not coopvec-run %s --entry=scale --random --training=subgroup 2>&1 \
// RUN:   | FileCheck %s --check-prefix=TRAINING-CPU
// TRAINING-CPU: coopvec-run: error: --training is an option of the cuda and vulkan targets, not of 'cpu'
// RUN: not coopvec-run %s --entry=scale --random --training=block --target=vulkan --pipeline='builtin.module(coopvec-lower-to-spirv)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=TRAINING-PIPELINE
// TRAINING-PIPELINE: coopvec-run: error: --training is an option of the default pipeline; with --pipeline, give it in the pipeline (coopvec-lower-to-<target>{training=...})
// RUN: not coopvec-run %s --entry=scale --random --training=warp --target=vulkan 2>&1 \
// RUN:   | FileCheck %s --check-prefix=TRAINING-VALUE
// TRAINING-VALUE: coopvec-run: error: invalid value in '--training=warp'

// RUN: not coopvec-run %t.missing.mlir --entry=scale 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NOFILE
// NOFILE: coopvec-run: error: {{.*}}missing.mlir: cannot open: No such file or directory

// Issue 24, row 7: a folder opens but does not read; the error says so,
// with the tool's prefix (it was "error: could not open input file" from
// MLIR, and "read error" for --arg).
// RUN: not coopvec-run %S --entry=scale 2>&1 \
// RUN:   | FileCheck %s --check-prefix=FOLDER -DDIR=%S
// RUN: not coopvec-run %s --entry=scale --random --lowered=%S 2>&1 \
// RUN:   | FileCheck %s --check-prefix=FOLDER -DDIR=%S
// FOLDER: coopvec-run: error: [[DIR]]: cannot read: Is a directory
// FOLDER-NOT: error
// RUN: not coopvec-run %s --entry=scale --arg=%S --random 2>&1 \
// RUN:   | FileCheck %s --check-prefix=FOLDER-ARG -DDIR=%S
// FOLDER-ARG: coopvec-run: error: [[DIR]]: read error: Is a directory

// Issue 24, row 6: an empty prefix (or -o "") wrote 0.npy, ... into the
// current folder (or /result0.npy); nothing is written now.
// RUN: rm -rf %t.cwd && mkdir -p %t.cwd && cd %t.cwd
// RUN: not coopvec-run %s --entry=scale --random --out= 2>&1 \
// RUN:   | FileCheck %s --check-prefix=EMPTY-OUT
// EMPTY-OUT: coopvec-run: error: --out= needs a PREFIX (--out=PREFIX writes PREFIX0.npy, ...)
// RUN: not coopvec-run %s --entry=scale --random --save-inputs= 2>&1 \
// RUN:   | FileCheck %s --check-prefix=EMPTY-SAVE
// EMPTY-SAVE: coopvec-run: error: --save-inputs= needs a PREFIX
// RUN: not coopvec-run %s --entry=scale --random -o "" 2>&1 \
// RUN:   | FileCheck %s --check-prefix=EMPTY-DIR
// EMPTY-DIR: coopvec-run: error: -o needs a directory
// RUN: not ls %t.cwd/0.npy

// Issue 24, row 5: --out and --save-inputs with the same prefix wrote
// result 0 over saved input 0; the clash is refused before anything runs.
// RUN: not coopvec-run %s --entry=scale --random --out=%t.same \
// RUN:   --save-inputs=%t.same 2>&1 | FileCheck %s --check-prefix=SAME
// SAME: coopvec-run: error: input 0 and result 0 would both be written to {{.*}}.same0.npy: give --out and --save-inputs different prefixes
// RUN: not ls %t.same0.npy
// A written memref argument (PREFIX_argI.npy) against a saved input.
// RUN: not coopvec-run %s --entry=written --batch=2 --random \
// RUN:   --memref-size=0:8 --reference --out=%t.w --save-inputs=%t.w_arg 2>&1 \
// RUN:   | FileCheck %s --check-prefix=SAME-ARG
// SAME-ARG: coopvec-run: error: input 0 and written argument 0 would both be written to {{.*}}.w_arg0.npy
// Different prefixes still work.
// RUN: coopvec-run %s --entry=scale --random --out=%t.out --save-inputs=%t.in
// RUN: ls %t.out0.npy %t.in0.npy %t.in1.npy

// RUN: not coopvec-run %s --entry=unsupported --random 2>&1 \
// RUN:   | FileCheck %s --check-prefix=TYPE
// TYPE: coopvec-run: error: argument #0 has type memref<4x4xf32>, which coopvec-run cannot pass

// The size of a dynamic memref comes from its uses; an offset that is a
// function argument is known once that argument is (random index
// arguments are 0).
// RUN: coopvec-run %s --entry=offsets --batch=2 --random --reference \
// RUN:   --save-inputs=%t.offsets
// RUN: coopvec-run %s --entry=offsets --batch=2 --random --reference \
// RUN:   --memref-size=0:40 --save-inputs=%t.sized
// RUN: not coopvec-run %s --entry=offsets --batch=2 --random --reference \
// RUN:   --memref-size=0:20 2>&1 | FileCheck %s --check-prefix=SMALL
// SMALL: coopvec-run: error: --memref-size=0:20 is smaller than the 21 elements the function accesses
// RUN: not coopvec-run %s --entry=offsets --batch=2 --random --reference \
// RUN:   --memref-size=1:20 2>&1 | FileCheck %s --check-prefix=NOTMEMREF
// NOTMEMREF: coopvec-run: error: --memref-size=1:...: argument #1 of @offsets is not a memref
// A file that is too small for what the function reads is refused before
// anything runs out of bounds.
// RUN: not coopvec-run %s --entry=offsets --batch=2 --reference \
// RUN:   --arg=%t.sized0.npy --arg=%t.offsets1.npy --arg=%t.offsets0.npy \
// RUN:   2>&1 | FileCheck %s --check-prefix=FIT
// FIT: coopvec-run: error: {{.*}}offsets0.npy: argument #2 (memref<?xf32>) has 21 elements, but the function accesses 33

// RUN: not coopvec-run %s --entry=written --batch=2 --random 2>&1 \
// RUN:   | FileCheck %s --check-prefix=DERIVE
// DERIVE: coopvec-run: error: cannot derive the size of argument #0 (memref<?xf32>) from its uses (an offset is not a constant); pass --memref-size=0:SIZE
// DERIVE-NEXT: coopvec-run: note: argument #0 (memref<?xf32>) of @written: 'coopvec.store' at {{.*}}cli-errors.mlir:{{[0-9]+}}:3: its offset cannot be evaluated: it depends on 'arith.divui', which the engine cannot evaluate
// With a size, the JIT runs it: the compiled code checks a store the engine
// cannot check before the run (elements [2, 4) of 3 are partly outside).
// RUN: not coopvec-run %s --entry=written --batch=2 --random \
// RUN:   --memref-size=0:3 2>&1 | FileCheck %s --check-prefix=UNCHECKED
// UNCHECKED: coopvec-run: error: @written: 2 accesses outside their buffer at run time (reads gave 0, writes were dropped); the first: thread 0 at {{.*}}cli-errors.mlir:{{[0-9]+}}:3 ('coopvec.store')
// RUN: coopvec-run %s --entry=written --batch=2 --random --memref-size=0:4

// Offsets computed with arith addi / subi / muli / index_cast from
// constants and index arguments are evaluated: (k + 1) * 3 - 1 with k = 0
// (random index arguments are 0) stores to [2, 6).
// RUN: coopvec-run %s --entry=computed --batch=2 --random --print \
// RUN:   | FileCheck %s --check-prefix=COMPUTED
// COMPUTED: argument 1 (written): f32, shape (6,)

func.func @scale(%x: !coopvec.vec<3, f32>, %s: f32) -> !coopvec.vec<3, f32> {
  %y = "coopvec.mul"(%x, %s) : (!coopvec.vec<3, f32>, f32) -> !coopvec.vec<3, f32>
  return %y : !coopvec.vec<3, f32>
}

func.func @unsupported(%m: memref<4x4xf32>) {
  return
}

// Reads w[0, 21) (a 7x3 matrix) and w[off, off + 7); writes v[12, 33).
func.func @offsets(%w: memref<?xf32>, %off: index, %v: memref<?xf32>) {
  %A = "coopvec.matrix_view"(%w) {offset = 0} : (memref<?xf32>) -> !coopvec.matrix<7, 3, f32, "row_major">
  %b = "coopvec.load"(%w, %off) : (memref<?xf32>, index) -> !coopvec.vec<7, f32>
  %x = "coopvec.load"(%w, %off) : (memref<?xf32>, index) -> !coopvec.vec<3, f32>
  %y = "coopvec.matvec"(%A, %x, %b) : (!coopvec.matrix<7, 3, f32, "row_major">, !coopvec.vec<3, f32>, !coopvec.vec<7, f32>) -> !coopvec.vec<7, f32>
  %c12 = arith.constant 12 : index
  "coopvec.reduce_sum_accumulate"(%y, %v, %c12) : (!coopvec.vec<7, f32>, memref<?xf32>, index) -> ()
  "coopvec.reduce_sum_accumulate"(%y, %v, %c12) : (!coopvec.vec<7, f32>, memref<?xf32>, index) -> ()
  %c26 = arith.constant 26 : index
  "coopvec.store"(%y, %v, %c26) : (!coopvec.vec<7, f32>, memref<?xf32>, index) -> ()
  return
}

// The store offset is computed with an op the engine does not evaluate: no
// size can be derived.
func.func @written(%v: memref<?xf32>, %x: !coopvec.vec<2, f32>) {
  %c4 = arith.constant 4 : index
  %c2 = arith.constant 2 : index
  %i = arith.divui %c4, %c2 : index
  "coopvec.store"(%x, %v, %i) : (!coopvec.vec<2, f32>, memref<?xf32>, index) -> ()
  return
}

func.func @computed(%k: i64, %v: memref<?xf32>, %x: !coopvec.vec<4, f32>) {
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %i = arith.index_cast %k : i64 to index
  %j = arith.addi %i, %c1 : index
  %m = arith.muli %j, %c3 : index
  %o = arith.subi %m, %c1 : index
  "coopvec.store"(%x, %v, %o) : (!coopvec.vec<4, f32>, memref<?xf32>, index) -> ()
  return
}
