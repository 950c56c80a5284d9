// The JIT path against hand-written lowered modules that follow the ABI of
// coopvec-lower-to-cpu (docs/coopvec-run.md): @f_batched(%n, args...,
// results...) with llvm.emit_c_interface, vec values as memref<?xT> of n*N
// elements. --lowered replaces the lowering, so this tests the marshalling,
// the JIT and --check independently of the lowering passes.

// RUN: split-file %s %t
// RUN: coopvec-run %t/scale.mlir --entry=scale --batch=5 --random --seed=3 \
// RUN:   --lowered=%t/scale.lowered.mlir --pipeline=%{lower} --check --print \
// RUN:   > %t/jit.txt
// RUN: FileCheck %s --check-prefix=SCALE < %t/jit.txt
// SCALE-LABEL: result 0: f32, shape (5, 3)
// SCALE-NEXT: [0] {{.*}}
// SCALE: [4] {{.*}}
// SCALE-NEXT: result 0: max abs error {{.*}}: PASS
// SCALE-NEXT: {{^PASS$}}
// One correctly rounded multiply: the interpreter (double, then rounded to
// f32) prints the same numbers.
// RUN: coopvec-run %t/scale.mlir --entry=scale --batch=5 --random --seed=3 \
// RUN:   --reference --print > %t/reference.txt
// RUN: head -n 6 %t/jit.txt | diff - %t/reference.txt

// A written memref (reduce_sum_accumulate over all threads) is an output.
// RUN: coopvec-run %t/acc.mlir --entry=acc --batch=17 --random \
// RUN:   --lowered=%t/acc.lowered.mlir --pipeline=%{lower} --check \
// RUN:   | FileCheck %s --check-prefix=ACC
// ACC-NOT: argument 0
// ACC: argument 1 (written): max abs error {{.*}}: PASS
// ACC-NEXT: {{^PASS$}}

// f16 values and an f16 scalar cross the C interface as 2-byte halves.
// RUN: coopvec-run %t/scale16.mlir --entry=scale16 --batch=16 --random \
// RUN:   --lowered=%t/scale16.lowered.mlir --pipeline=%{lower} --check \
// RUN:   | FileCheck %s --check-prefix=HALF
// HALF: result 0: max abs error {{.*}}: PASS

// A wrong lowering is caught: the "lowered" @scale adds instead of
// multiplying.
// RUN: not coopvec-run %t/scale.mlir --entry=scale --batch=4 --random \
// RUN:   --lowered=%t/wrong.lowered.mlir --pipeline=%{lower} --check \
// RUN:   | FileCheck %s --check-prefix=WRONG
// WRONG: result 0: {{.*}}: FAIL
// WRONG-NEXT: 12 of 12 elements differ; first at flat index 0
// WRONG: {{^FAIL$}}

// A lowered module without the entry point.
// RUN: not coopvec-run %t/scale.mlir --entry=scale --batch=4 --random \
// RUN:   --lowered=%t/acc.lowered.mlir --pipeline=%{lower} 2>&1 \
// RUN:   | FileCheck %s --check-prefix=MISSING
// MISSING: coopvec-run: error: the lowered module has no @scale_batched with llvm.emit_c_interface

//--- scale.mlir
func.func @scale(%x: !coopvec.vec<3, f32>, %s: f32) -> !coopvec.vec<3, f32> {
  %y = "coopvec.mul"(%x, %s) : (!coopvec.vec<3, f32>, f32) -> !coopvec.vec<3, f32>
  return %y : !coopvec.vec<3, f32>
}

//--- scale.lowered.mlir
func.func @scale_batched(%n: index, %x: memref<?xf32>, %s: f32, %y: memref<?xf32>) attributes {llvm.emit_c_interface} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %total = arith.muli %n, %c3 : index
  scf.for %i = %c0 to %total step %c1 {
    %v = memref.load %x[%i] : memref<?xf32>
    %w = arith.mulf %v, %s : f32
    memref.store %w, %y[%i] : memref<?xf32>
  }
  return
}

//--- wrong.lowered.mlir
func.func @scale_batched(%n: index, %x: memref<?xf32>, %s: f32, %y: memref<?xf32>) attributes {llvm.emit_c_interface} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %total = arith.muli %n, %c3 : index
  scf.for %i = %c0 to %total step %c1 {
    %v = memref.load %x[%i] : memref<?xf32>
    %w = arith.addf %v, %s : f32
    memref.store %w, %y[%i] : memref<?xf32>
  }
  return
}

//--- acc.mlir
func.func @acc(%x: !coopvec.vec<2, f32>, %g: memref<?xf32>) {
  %c1 = arith.constant 1 : index
  "coopvec.reduce_sum_accumulate"(%x, %g, %c1) : (!coopvec.vec<2, f32>, memref<?xf32>, index) -> ()
  return
}

//--- acc.lowered.mlir
func.func @acc_batched(%n: index, %x: memref<?xf32>, %g: memref<?xf32>) attributes {llvm.emit_c_interface} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  scf.for %t = %c0 to %n step %c1 {
    scf.for %i = %c0 to %c2 step %c1 {
      %base = arith.muli %t, %c2 : index
      %xi = arith.addi %base, %i : index
      %gi = arith.addi %i, %c1 : index
      %v = memref.load %x[%xi] : memref<?xf32>
      %old = memref.load %g[%gi] : memref<?xf32>
      %new = arith.addf %old, %v : f32
      memref.store %new, %g[%gi] : memref<?xf32>
    }
  }
  return
}

//--- scale16.mlir
func.func @scale16(%x: !coopvec.vec<4, f16>, %s: f16) -> !coopvec.vec<4, f16> {
  %y = "coopvec.mul"(%x, %s) : (!coopvec.vec<4, f16>, f16) -> !coopvec.vec<4, f16>
  return %y : !coopvec.vec<4, f16>
}

//--- scale16.lowered.mlir
func.func @scale16_batched(%n: index, %x: memref<?xf16>, %s: f16, %y: memref<?xf16>) attributes {llvm.emit_c_interface} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %total = arith.muli %n, %c4 : index
  %s32 = arith.extf %s : f16 to f32
  scf.for %i = %c0 to %total step %c1 {
    %v = memref.load %x[%i] : memref<?xf16>
    %v32 = arith.extf %v : f16 to f32
    %w32 = arith.mulf %v32, %s32 : f32
    %w = arith.truncf %w32 : f32 to f16
    memref.store %w, %y[%i] : memref<?xf16>
  }
  return
}
