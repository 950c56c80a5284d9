// f32 fma rounded once (docs/dialect.md, "Special values": IEEE 754
// fusedMultiplyAdd), math.fma and coopvec.fma, on every engine. On Vulkan
// GLSL Fma need not be fused (lavapipe's is not), so coopvec-prepare-spirv
// computes each f32 fma in f64, rounded to odd and then to f32
// (docs/passes.md): this test is what shows it. vulkan.test runs it on
// Vulkan (--param coopvec_run_target=vulkan).
//
// Inputs/fma-exact.py writes the triples a, b, c (three (N, K) f32 .npy
// files): the hard cases first (overflow of the product, ties at the
// overflow threshold and in the subnormals, cancellation, signed zeros,
// inf and NaN, sums just off an f32 tie that f64 rounds onto it), then
// random triples of five kinds. It checks every result bit for bit against
// the exact sum rounded once, computed in Python integers (not NumPy's
// f64: the f64 sum rounded to f32 again is wrong near ties), and reports
// in how many the two wrong ways (the f64 sum rounded, the product rounded
// first) would differ: the inputs tell them apart.
//
// --check compares with the interpreter within one f32 ulp (rtol 2^-23,
// atol the smallest subnormal): its math.fma is C's fmaf, but it keeps
// coopvec values in double and rounds them when they leave a vec
// (docs/interpreter.md, "Precision"), so its coopvec.fma rounds twice.
//
// Vec sizes 1 (@scalar: math.fma and coopvec.fma of a vec and two
// scalars), 3, 7, 17, 33 and 127; batches 1, 31, 38 (the hard cases, one
// per thread), 1029 and 4099.
//
// REQUIRES: python-numpy
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/fma-exact.py make 1 38 1 %t/hard
// RUN: coopvec-run %s --entry=scalar --batch=38 --arg=%t/hard0.npy --arg=%t/hard1.npy --arg=%t/hard2.npy --print | FileCheck %s --check-prefix=HARD
// RUN: coopvec-run %s --entry=scalar --batch=38 --arg=%t/hard0.npy --arg=%t/hard1.npy --arg=%t/hard2.npy --check --rtol=1.2e-7 --atol=1.5e-45 --out=%t/hard-out | FileCheck %s --check-prefix=CHECKED
// RUN: %python %S/Inputs/fma-exact.py check %t/hard0.npy %t/hard1.npy %t/hard2.npy %t/hard-out0.npy | FileCheck %s --check-prefix=EXACT
// RUN: %python %S/Inputs/fma-exact.py make 2 1 1 %t/one
// RUN: coopvec-run %s --entry=scalar --batch=1 --arg=%t/one0.npy --arg=%t/one1.npy --arg=%t/one2.npy --check --rtol=1.2e-7 --atol=1.5e-45 --out=%t/one-out | FileCheck %s --check-prefix=CHECKED
// RUN: %python %S/Inputs/fma-exact.py check %t/one0.npy %t/one1.npy %t/one2.npy %t/one-out0.npy | FileCheck %s --check-prefix=EXACT
// RUN: %python %S/Inputs/fma-exact.py make 3 4099 1 %t/s
// RUN: coopvec-run %s --entry=scalar --batch=4099 --arg=%t/s0.npy --arg=%t/s1.npy --arg=%t/s2.npy --check --rtol=1.2e-7 --atol=1.5e-45 --out=%t/s-out | FileCheck %s --check-prefix=CHECKED
// RUN: %python %S/Inputs/fma-exact.py check %t/s0.npy %t/s1.npy %t/s2.npy %t/s-out0.npy | FileCheck %s --check-prefixes=EXACT,DISCRIMINATES
// RUN: %python %S/Inputs/fma-exact.py make 4 1029 3 %t/v3
// RUN: coopvec-run %s --entry=vec3 --batch=1029 --arg=%t/v30.npy --arg=%t/v31.npy --arg=%t/v32.npy --check --rtol=1.2e-7 --atol=1.5e-45 --out=%t/v3-out | FileCheck %s --check-prefix=CHECKED
// RUN: %python %S/Inputs/fma-exact.py check %t/v30.npy %t/v31.npy %t/v32.npy %t/v3-out0.npy | FileCheck %s --check-prefixes=EXACT,DISCRIMINATES
// RUN: %python %S/Inputs/fma-exact.py make 5 31 7 %t/v7
// RUN: coopvec-run %s --entry=vec7 --batch=31 --arg=%t/v70.npy --arg=%t/v71.npy --arg=%t/v72.npy --check --rtol=1.2e-7 --atol=1.5e-45 --out=%t/v7-out | FileCheck %s --check-prefix=CHECKED
// RUN: %python %S/Inputs/fma-exact.py check %t/v70.npy %t/v71.npy %t/v72.npy %t/v7-out0.npy | FileCheck %s --check-prefixes=EXACT,DISCRIMINATES
// RUN: %python %S/Inputs/fma-exact.py make 6 31 17 %t/v17
// RUN: coopvec-run %s --entry=vec17 --batch=31 --arg=%t/v170.npy --arg=%t/v171.npy --arg=%t/v172.npy --check --rtol=1.2e-7 --atol=1.5e-45 --out=%t/v17-out | FileCheck %s --check-prefix=CHECKED
// RUN: %python %S/Inputs/fma-exact.py check %t/v170.npy %t/v171.npy %t/v172.npy %t/v17-out0.npy | FileCheck %s --check-prefixes=EXACT,DISCRIMINATES
// RUN: %python %S/Inputs/fma-exact.py make 7 1029 33 %t/v33
// RUN: coopvec-run %s --entry=vec33 --batch=1029 --arg=%t/v330.npy --arg=%t/v331.npy --arg=%t/v332.npy --check --rtol=1.2e-7 --atol=1.5e-45 --out=%t/v33-out | FileCheck %s --check-prefix=CHECKED
// RUN: %python %S/Inputs/fma-exact.py check %t/v330.npy %t/v331.npy %t/v332.npy %t/v33-out0.npy | FileCheck %s --check-prefixes=EXACT,DISCRIMINATES
// RUN: %python %S/Inputs/fma-exact.py make 8 31 127 %t/v127
// RUN: coopvec-run %s --entry=vec127 --batch=31 --arg=%t/v1270.npy --arg=%t/v1271.npy --arg=%t/v1272.npy --check --rtol=1.2e-7 --atol=1.5e-45 --out=%t/v127-out | FileCheck %s --check-prefix=CHECKED
// RUN: %python %S/Inputs/fma-exact.py check %t/v1270.npy %t/v1271.npy %t/v1272.npy %t/v127-out0.npy | FileCheck %s --check-prefixes=EXACT,DISCRIMINATES

// The hard cases' results, math.fma then coopvec.fma (Inputs/fma-exact.py
// lists the triples).
// HARD:      result 0: f32, shape (38, 2)
// HARD-NEXT: [0] 3.40282347e+38 3.40282347e+38
// HARD-NEXT: [1] -3.40282347e+38 -3.40282347e+38
// HARD-NEXT: [2] inf inf
// HARD-NEXT: [3] -inf -inf
// HARD-NEXT: [4] inf inf
// HARD-NEXT: [5] 3.40282347e+38 3.40282347e+38
// HARD-NEXT: [6] inf inf
// HARD-NEXT: [7] {{-?nan -?nan}}
// HARD-NEXT: [8] {{-?nan -?nan}}
// HARD-NEXT: [9] {{-?nan -?nan}}
// HARD-NEXT: [10] inf inf
// HARD-NEXT: [11] -inf -inf
// HARD-NEXT: [12] -inf -inf
// HARD-NEXT: [13] inf inf
// HARD-NEXT: [14] {{-?nan -?nan}}
// HARD-NEXT: [15] {{-?nan -?nan}}
// HARD-NEXT: [16] -0 -0
// HARD-NEXT: [17] 0 0
// HARD-NEXT: [18] -0 -0
// HARD-NEXT: [19] 0 0
// HARD-NEXT: [20] 0 0
// HARD-NEXT: [21] 0 0
// HARD-NEXT: [22] -0 -0
// HARD-NEXT: [23] 0 0
// HARD-NEXT: [24] 1.40129846e-45 1.40129846e-45
// HARD-NEXT: [25] 0 0
// HARD-NEXT: [26] 2.80259693e-45 2.80259693e-45
// HARD-NEXT: [27] 2.80259693e-45 2.80259693e-45
// HARD-NEXT: [28] 0 0
// HARD-NEXT: [29] 1.40129846e-45 1.40129846e-45
// HARD-NEXT: [30] 1.40129846e-45 1.40129846e-45
// HARD-NEXT: [31] -1.42108547e-14 -1.42108547e-14
// HARD-NEXT: [32] 1.0004884 1.0004884
// HARD-NEXT: [33] 1.00048828 1.00048828
// HARD-NEXT: [34] -1.00048828 -1.00048828
// HARD-NEXT: [35] 2.98023224e-08 2.98023224e-08
// HARD-NEXT: [36] 1.49011612e-08 1.49011612e-08
// HARD-NEXT: [37] 5.87747035e-39 5.87747035e-39

// CHECKED:      result 0: {{.*}}: PASS
// CHECKED-NEXT: {{^PASS$}}
// EXACT:         {{^[0-9]+}} fmas, {{[0-9]+}} results: 0 wrong;
// DISCRIMINATES-SAME: the f64 sum rounded to f32 would be wrong in {{[1-9][0-9]*}}, the product rounded first in {{[1-9][0-9]*}}
// EXACT-NEXT:    {{^PASS$}}

func.func @scalar(%a: !coopvec.vec<1, f32>, %b: !coopvec.vec<1, f32>, %c: !coopvec.vec<1, f32>) -> !coopvec.vec<2, f32> {
  %x = "coopvec.unpack"(%a) : (!coopvec.vec<1, f32>) -> f32
  %y = "coopvec.unpack"(%b) : (!coopvec.vec<1, f32>) -> f32
  %z = "coopvec.unpack"(%c) : (!coopvec.vec<1, f32>) -> f32
  %f = math.fma %x, %y, %z : f32
  %v = "coopvec.fma"(%a, %y, %z) : (!coopvec.vec<1, f32>, f32, f32) -> !coopvec.vec<1, f32>
  %g = "coopvec.unpack"(%v) : (!coopvec.vec<1, f32>) -> f32
  %r = "coopvec.from_elements"(%f, %g) : (f32, f32) -> !coopvec.vec<2, f32>
  return %r : !coopvec.vec<2, f32>
}

func.func @vec3(%a: !coopvec.vec<3, f32>, %b: !coopvec.vec<3, f32>, %c: !coopvec.vec<3, f32>) -> !coopvec.vec<3, f32> {
  %r = "coopvec.fma"(%a, %b, %c) : (!coopvec.vec<3, f32>, !coopvec.vec<3, f32>, !coopvec.vec<3, f32>) -> !coopvec.vec<3, f32>
  return %r : !coopvec.vec<3, f32>
}

func.func @vec7(%a: !coopvec.vec<7, f32>, %b: !coopvec.vec<7, f32>, %c: !coopvec.vec<7, f32>) -> !coopvec.vec<7, f32> {
  %r = "coopvec.fma"(%a, %b, %c) : (!coopvec.vec<7, f32>, !coopvec.vec<7, f32>, !coopvec.vec<7, f32>) -> !coopvec.vec<7, f32>
  return %r : !coopvec.vec<7, f32>
}

func.func @vec17(%a: !coopvec.vec<17, f32>, %b: !coopvec.vec<17, f32>, %c: !coopvec.vec<17, f32>) -> !coopvec.vec<17, f32> {
  %r = "coopvec.fma"(%a, %b, %c) : (!coopvec.vec<17, f32>, !coopvec.vec<17, f32>, !coopvec.vec<17, f32>) -> !coopvec.vec<17, f32>
  return %r : !coopvec.vec<17, f32>
}

func.func @vec33(%a: !coopvec.vec<33, f32>, %b: !coopvec.vec<33, f32>, %c: !coopvec.vec<33, f32>) -> !coopvec.vec<33, f32> {
  %r = "coopvec.fma"(%a, %b, %c) : (!coopvec.vec<33, f32>, !coopvec.vec<33, f32>, !coopvec.vec<33, f32>) -> !coopvec.vec<33, f32>
  return %r : !coopvec.vec<33, f32>
}

func.func @vec127(%a: !coopvec.vec<127, f32>, %b: !coopvec.vec<127, f32>, %c: !coopvec.vec<127, f32>) -> !coopvec.vec<127, f32> {
  %r = "coopvec.fma"(%a, %b, %c) : (!coopvec.vec<127, f32>, !coopvec.vec<127, f32>, !coopvec.vec<127, f32>) -> !coopvec.vec<127, f32>
  return %r : !coopvec.vec<127, f32>
}
