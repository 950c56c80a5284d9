// Issue 8, row 9: `--emit=asm --target-cpu=bogus` made LLVM print "'bogus'
// is not a recognized processor for this target" six times and exit with
// "LLVM ERROR: 64-bit code requested on a subtarget that doesn't support
// it!". The CPU (and the triple) are now checked against LLVM's lists
// before LLVM sees them: one error line, exit status 1, no output.

// RUN: not coopvec-opt %s --coopvec-lower-to-cpu --emit=asm --target-cpu=bogus 2>&1 \
// RUN:   | FileCheck %s --check-prefix=ASM --implicit-check-not=LLVM --implicit-check-not=recognized
// ASM: coopvec-opt: error: unknown target CPU: 'bogus' for '{{.+}}' (see `llc -mtriple={{.+}} -mcpu=help`)
// RUN: not coopvec-opt %s --coopvec-lower-to-cpu --emit=obj --target-cpu=bogus -o %t.o 2>&1 \
// RUN:   | FileCheck %s --check-prefix=ASM --implicit-check-not=LLVM --implicit-check-not=recognized
// RUN: not ls %t.o
// RUN: not coopvec-opt %s --coopvec-lower-to-cpu --emit=asm --target-triple=aarch64-linux-gnu --target-cpu=haswell 2>&1 \
// RUN:   | FileCheck %s --check-prefix=ARCH --implicit-check-not=LLVM --implicit-check-not=recognized
// ARCH: coopvec-opt: error: unknown target CPU: 'haswell' for 'aarch64-linux-gnu'
// RUN: not coopvec-opt %s --coopvec-lower-to-cpu --emit=asm --target-triple=bogus 2>&1 \
// RUN:   | FileCheck %s --check-prefix=TRIPLE --implicit-check-not=LLVM
// TRIPLE: coopvec-opt: error: unknown target triple: {{.+}}"bogus"

func.func @neg(%x: !coopvec.vec<4, f32>) -> !coopvec.vec<4, f32> {
  %0 = "coopvec.neg"(%x) : (!coopvec.vec<4, f32>) -> !coopvec.vec<4, f32>
  return %0 : !coopvec.vec<4, f32>
}
