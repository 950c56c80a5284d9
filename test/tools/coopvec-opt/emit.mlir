// --emit=llvm/asm/obj turn LLVM-dialect input into LLVM IR, assembly or a
// native object that links into a plain C program.

// RUN: coopvec-opt %s --emit=llvm | FileCheck %s --check-prefix=LLVM
// RUN: coopvec-opt %s --emit=asm --target-cpu=x86-64 --opt-level=2 | FileCheck %s --check-prefix=ASM
// RUN: coopvec-opt %s --emit=obj -o %t.o
// RUN: %cc %S/Inputs/call-scale.c %t.o -o %t.exe
// RUN: %t.exe | FileCheck %s --check-prefix=EXEC

// RUN: not coopvec-opt %s --emit=wasm 2>&1 | FileCheck %s --check-prefix=BADKIND
// RUN: not coopvec-opt %s --emit=obj --split-input-file 2>&1 | FileCheck %s --check-prefix=SPLIT
// RUN: not coopvec-opt %s --emit=obj --opt-level=7 2>&1 | FileCheck %s --check-prefix=OPT
// RUN: not coopvec-opt %S/Inputs/not-llvm.mlir --emit=llvm 2>&1 | FileCheck %s --check-prefix=NOTLLVM
// RUN: not coopvec-opt %s --emit=obj --target-triple=bogus-triple 2>&1 | FileCheck %s --check-prefix=TRIPLE

// LLVM: define float @scale(float %0, float %1)
// LLVM: fmul float %0, %1
// ASM: scale:
// ASM: mulss
// EXEC: scale(3, 0.5) = 1.5
// BADKIND: coopvec-opt: error: invalid --emit value 'wasm' (expected mlir, llvm, asm, obj, ptx, cubin or spirv)
// SPLIT: cannot be combined with --split-input-file
// OPT: invalid --opt-level value '7'
// NOTLLVM: coopvec-opt: error: cannot translate the module to LLVM IR
// TRIPLE: coopvec-opt: error: unknown target triple

llvm.func @scale(%x: f32, %y: f32) -> f32 {
  %0 = llvm.fmul %x, %y : f32
  llvm.return %0 : f32
}
