// Narrow vecs (N smaller than the CPU's transpose block B) between the
// n x N thread-row buffers and the lanes (lib/Conversion/CoopvecToCPU/
// CPUTransfers.c): a full group moves B threads' N x B elements as one
// contiguous vector and shuffles, the partial last group gathers and
// scatters. @rotate returns each vec with its elements rotated left by one:
// a permutation, so every engine must match the interpreter bit for bit
// (--rtol=0 --atol=0). N = 1..7 in f32 (N = 3, 5, 6, 7 pad the store's
// concatenation to a power of two) and 3, 5 in f16 (widened and rounded at
// the transfers: exact for f16 values). Lane counts 4, 8 and 16 (one B-lane
// step, and a loop over B-lane steps), batches with and without a partial
// last group.
// RUN: %if !coopvec-run-target %{ coopvec-run %s --entry=rotate --batch=1 --random --seed=1 --lanes=4 --check --rtol=0 --atol=0 | FileCheck %s %}
// RUN: %if !coopvec-run-target %{ coopvec-run %s --entry=rotate --batch=7 --random --seed=2 --lanes=4 --check --rtol=0 --atol=0 | FileCheck %s %}
// RUN: %if !coopvec-run-target %{ coopvec-run %s --entry=rotate --batch=17 --random --seed=3 --lanes=8 --check --rtol=0 --atol=0 | FileCheck %s %}
// RUN: %if !coopvec-run-target %{ coopvec-run %s --entry=rotate --batch=33 --random --seed=4 --lanes=8 --check --rtol=0 --atol=0 | FileCheck %s %}
// RUN: %if !coopvec-run-target %{ coopvec-run %s --entry=rotate --batch=127 --random --seed=5 --lanes=16 --check --rtol=0 --atol=0 | FileCheck %s %}
// RUN: %if !coopvec-run-target %{ coopvec-run %s --entry=rotate --batch=1029 --random --seed=6 --lanes=16 --check --rtol=0 --atol=0 | FileCheck %s %}
// RUN: %if !coopvec-run-target %{ coopvec-run %s --entry=rotate --batch=4099 --random --seed=7 --lanes=8 --threads=2 --check --rtol=0 --atol=0 | FileCheck %s %}
// The default lanes and any --target, against the interpreter.
// RUN: coopvec-run %s --entry=rotate --batch=1029 --random --seed=8 --check --rtol=0 --atol=0 | FileCheck %s
// CHECK-COUNT-9: max abs error 0, max rel error 0 (atol 0, rtol 0): PASS
// CHECK-NEXT:    {{^PASS$}}

// Independently of the interpreter: NumPy rotates the saved inputs.
// RUN: %if python-numpy %{ coopvec-run %s --entry=rotate --batch=33 --random --seed=9 --save-inputs=%t.in33_ --out=%t.out33_ %}
// RUN: %if python-numpy %{ %python %S/Inputs/rotate-check.py %t.in33_ %t.out33_ 9 | FileCheck %s --check-prefix=NUMPY %}
// RUN: %if python-numpy %{ coopvec-run %s --entry=rotate --batch=4099 --random --seed=10 --save-inputs=%t.in4099_ --out=%t.out4099_ %}
// RUN: %if python-numpy %{ %python %S/Inputs/rotate-check.py %t.in4099_ %t.out4099_ 9 | FileCheck %s --check-prefix=NUMPY %}
// NUMPY: {{^PASS$}}

func.func @rotate(%x1: !coopvec.vec<1, f32>,
    %x2: !coopvec.vec<2, f32>,
    %x3: !coopvec.vec<3, f32>,
    %x4: !coopvec.vec<4, f32>,
    %x5: !coopvec.vec<5, f32>,
    %x6: !coopvec.vec<6, f32>,
    %x7: !coopvec.vec<7, f32>,
    %h3: !coopvec.vec<3, f16>,
    %h5: !coopvec.vec<5, f16>)
    -> (!coopvec.vec<1, f32>,
        !coopvec.vec<2, f32>,
        !coopvec.vec<3, f32>,
        !coopvec.vec<4, f32>,
        !coopvec.vec<5, f32>,
        !coopvec.vec<6, f32>,
        !coopvec.vec<7, f32>,
        !coopvec.vec<3, f16>,
        !coopvec.vec<5, f16>) {
  %x1e = "coopvec.unpack"(%x1) : (!coopvec.vec<1, f32>) -> f32
  %x1r = "coopvec.from_elements"(%x1e) : (f32) -> !coopvec.vec<1, f32>
  %x2e:2 = "coopvec.unpack"(%x2) : (!coopvec.vec<2, f32>) -> (f32, f32)
  %x2r = "coopvec.from_elements"(%x2e#1, %x2e#0) : (f32, f32) -> !coopvec.vec<2, f32>
  %x3e:3 = "coopvec.unpack"(%x3) : (!coopvec.vec<3, f32>) -> (f32, f32, f32)
  %x3r = "coopvec.from_elements"(%x3e#1, %x3e#2, %x3e#0) : (f32, f32, f32) -> !coopvec.vec<3, f32>
  %x4e:4 = "coopvec.unpack"(%x4) : (!coopvec.vec<4, f32>) -> (f32, f32, f32, f32)
  %x4r = "coopvec.from_elements"(%x4e#1, %x4e#2, %x4e#3, %x4e#0) : (f32, f32, f32, f32) -> !coopvec.vec<4, f32>
  %x5e:5 = "coopvec.unpack"(%x5) : (!coopvec.vec<5, f32>) -> (f32, f32, f32, f32, f32)
  %x5r = "coopvec.from_elements"(%x5e#1, %x5e#2, %x5e#3, %x5e#4, %x5e#0) : (f32, f32, f32, f32, f32) -> !coopvec.vec<5, f32>
  %x6e:6 = "coopvec.unpack"(%x6) : (!coopvec.vec<6, f32>) -> (f32, f32, f32, f32, f32, f32)
  %x6r = "coopvec.from_elements"(%x6e#1, %x6e#2, %x6e#3, %x6e#4, %x6e#5, %x6e#0) : (f32, f32, f32, f32, f32, f32) -> !coopvec.vec<6, f32>
  %x7e:7 = "coopvec.unpack"(%x7) : (!coopvec.vec<7, f32>) -> (f32, f32, f32, f32, f32, f32, f32)
  %x7r = "coopvec.from_elements"(%x7e#1, %x7e#2, %x7e#3, %x7e#4, %x7e#5, %x7e#6, %x7e#0) : (f32, f32, f32, f32, f32, f32, f32) -> !coopvec.vec<7, f32>
  %h3e:3 = "coopvec.unpack"(%h3) : (!coopvec.vec<3, f16>) -> (f16, f16, f16)
  %h3r = "coopvec.from_elements"(%h3e#1, %h3e#2, %h3e#0) : (f16, f16, f16) -> !coopvec.vec<3, f16>
  %h5e:5 = "coopvec.unpack"(%h5) : (!coopvec.vec<5, f16>) -> (f16, f16, f16, f16, f16)
  %h5r = "coopvec.from_elements"(%h5e#1, %h5e#2, %h5e#3, %h5e#4, %h5e#0) : (f16, f16, f16, f16, f16) -> !coopvec.vec<5, f16>
  return %x1r, %x2r, %x3r, %x4r, %x5r, %x6r, %x7r, %h3r, %h5r
      : !coopvec.vec<1, f32>, !coopvec.vec<2, f32>, !coopvec.vec<3, f32>, !coopvec.vec<4, f32>, !coopvec.vec<5, f32>, !coopvec.vec<6, f32>, !coopvec.vec<7, f32>, !coopvec.vec<3, f16>, !coopvec.vec<5, f16>
}
